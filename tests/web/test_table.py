"""The table at the four viewports: whole hands played by clicking only.

At every decision: the open card, the action buttons and the countdown ring are not
covered (``document.elementFromPoint`` at their centres), the prompt names only the
legal choices, every meld's shown 胡息 and each seat's total equal the engine's
(``view.tables[s][j].huxi``, ``view.table_huxi``), nothing scrolls sideways, and on
touch screens every hand card and button is at least 40 px (a hand held upright too
wide for one row of 40 px cards: its cards at least 24 px wide, the row full). After
the hand every seat's hand is shown, and 看牌桌 leads back to the settlement and to the
next hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from .helpers import (
    VIEWPORTS,
    Frames,
    bar_layout,
    create,
    hand_id,
    labelled_shot,
    play_hand,
    shot,
    shown_meld_huxi,
    uncovered,
    wait_dealt,
)

_CHI_SHOTS: set[int] = set()
TYPES_ZH = {"hu": "胡", "peng": "碰", "chi": "吃", "pass": "过"}

pytestmark = pytest.mark.browser


def check_turn(page: Any, frames: Frames, touch: bool, errors: list[str]) -> None:
    m = frames.last
    assert m is not None
    if page.get_attribute("body", "data-version") != str(m["version"]):
        return  # a newer state is being drawn
    bad = uncovered(page)
    assert not bad, bad
    v = m["view"]
    want = {
        str(s): ["" if x["huxi"] is None else str(x["huxi"]) for x in v["tables"][s]]
        for s in range(len(v["tables"]))
    }
    assert shown_meld_huxi(page) == want
    totals = page.evaluate(
        "[...document.querySelectorAll('.seat[data-seat]')].map((s) => [s.dataset.seat, s.querySelector('.table-huxi').dataset.tableHuxi])"
    )
    assert {int(s): int(h) for s, h in totals} == dict(enumerate(v["table_huxi"]))
    types = {a["type"] for a in m["legal_actions"]}
    prompt = page.inner_text("#turn")
    if v["phase"] != "discard":  # 请选择 names exactly the legal choices
        for t, zh in TYPES_ZH.items():
            assert (zh in prompt) == (t in types), (prompt, types)
    secs = page.inner_text("#ring-num")
    assert secs and int(secs) <= m["away_timeout"], secs
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 1
    bar = bar_layout(page)  # the top bar is one row, nothing in it overlaps
    assert bar["spread"] <= 2 and bar["overlaps"] == [] and bar["outside"] == [], bar
    if touch:
        # a hand too wide for one row of 40 px cards (a phone held upright) has narrower
        # cards, the row full, each still 24 px wide and 40 px high (test_layout.py)
        small = page.evaluate("""() => {
          const hand = document.querySelector('#hand');
          const cols = [...hand.querySelectorAll('.col')].map((c) => c.getBoundingClientRect());
          const full = cols.length > 1 && cols.at(-1).right - cols[0].left > hand.clientWidth - 8;
          return [...document.querySelectorAll('#hand .card, #actions button, #chi-btn, #topbar button')]
          .map((e) => [e.id || e.textContent, e.getBoundingClientRect(), e.matches('#hand .card')])
          .filter(([, r, card]) => r.width && (r.width < (card && full ? 24 : 40) || r.height < 40))
          .map(([n, r]) => `${n} ${Math.round(r.width)}x${Math.round(r.height)}`);
        }""")
        assert small == [], f"hand cards or buttons under 40 px: {small}"


def check_chi_picker(page: Any, frames: Frames) -> None:
    """Each 吃 package once, with the 胡息 it brings; pointing at one outlines the hand
    cards it takes (all its cards but the claimed one)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    m = frames.last
    assert m is not None
    chis = [a for a in m["legal_actions"] if a["type"] == "chi"]
    try:
        page.click("#chi-btn", timeout=3000)
    except PlaywrightTimeout:  # a bot's 胡 closed the window first (初级 takes its wins)
        assert not page.query_selector("#chi-btn"), "吃 offered but never clickable"
        return
    pkgs = page.query_selector_all("#chi-picker .package")
    assert [p.get_attribute("data-action-id") for p in pkgs] == [a["id"] for a in chis]
    assert len({a["id"] for a in chis}) == len(chis)
    for p, a in zip(pkgs, chis, strict=True):
        assert p.query_selector(".gain").get_attribute("data-huxi") == str(a["huxi"])
    pkgs[0].hover()
    assert len(page.query_selector_all("#hand .card.uses")) == sum(map(len, chis[0]["groups"])) - 1
    assert not uncovered(page)
    width = page.viewport_size["width"]
    if width not in _CHI_SHOTS:  # one picture of the picker per screen width
        _CHI_SHOTS.add(width)
        page.wait_for_timeout(300)  # the open card's flight is over
        shot(page, f"web-chi-{width}.png")
    page.click("#chi-btn")  # closes it again
    assert not page.query_selector("#chi-picker .package")


@pytest.mark.slow
@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_whole_hand_by_clicking(server: str, browser: Any, name: str) -> None:
    ctx = browser.new_context(**VIEWPORTS[name])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "console", lambda msg: errors.append(msg.text) if "Content Security" in msg.text else None
    )
    frames = Frames(page)
    touch = bool(VIEWPORTS[name].get("has_touch"))
    took: list[int] = []

    def on_turn(page: Any, clicks: int) -> None:
        check_turn(page, frames, touch, errors)
        if page.query_selector("#chi-btn") and not touch:
            check_chi_picker(page, frames)
        if not took and ((clicks >= 4 and page.query_selector("#open-card")) or clicks >= 12):
            page.wait_for_timeout(350)  # the open card's short flight is over
            labelled_shot(page, f"web-table-{name}.png")
            took.append(clicks)

    rng = random.Random(7)
    for _ in range(3):  # a bot's early 胡 may end a hand before this seat's first click lands
        create(page, server, hands=2)
        if clicks := play_hand(page, rng, on_turn):
            break
    assert clicks > 0
    page.wait_for_selector("#settlement:not(.hidden)")
    assert page.get_attribute("body", "data-phase") == "settlement"
    shot(page, f"web-settlement-{name}.png")
    first = page.inner_text("#settle-title")
    # 看牌桌: the table with every hand face up, and a way back
    page.click("#settle-hide-btn")
    assert page.is_visible("#settle-bar")
    n_others = len(page.query_selector_all(".slot .seat"))
    assert len(page.query_selector_all(".slot .seat .reveal")) == n_others, "every hand is shown"
    shot(page, f"web-look-{name}.png")
    page.click("#settle-show-btn")
    assert page.is_visible("#settlement") and not page.is_visible("#settle-bar")
    page.click("#settle-hide-btn")
    before = hand_id(page)
    page.click("#bar-ready-btn")  # 下一局 from the table
    wait_dealt(page, before)
    assert not page.is_visible("#settle-bar")
    if name == "desktop" and "荒庄" in first:  # the docs' settlement picture shows a win
        play_hand(page, random.Random(8), on_turn)
        page.wait_for_selector("#settlement:not(.hidden)")
        if "胡" in page.inner_text("#settle-title"):
            shot(page, f"web-settlement-{name}.png")
    assert errors == []
    ctx.close()


@pytest.mark.slow
def test_four_seats_on_a_phone_held_sideways(server: str, browser: Any) -> None:
    """泸州: 对家 at the top, 上家 left, 下家 right; the seat out this hand (坐底) is marked."""
    ctx = browser.new_context(**VIEWPORTS["phone-landscape"])
    page = ctx.new_page()
    frames = Frames(page)
    played = 0
    for _ in range(6):  # a room whose first hand this seat plays in (one in four sits out)
        create(page, server, hands=1, rules="luzhou")
        for slot in ("top", "left", "right"):
            assert len(page.query_selector_all(f"#seat-{slot} .seat")) == 1
        assert page.inner_text("#seat-top .badge.rel") == "对家"
        if page.get_attribute("body", "data-phase") == "playing":
            played = play_hand(page, random.Random(2), lambda p, _: check_turn(p, frames, True, []))
        if played:
            break
    assert played, "no hand to play in six rooms"
    assert len(page.query_selector_all(".badge")) and page.query_selector(
        ".seat .badge:text('坐底')"
    )
    ctx.close()
