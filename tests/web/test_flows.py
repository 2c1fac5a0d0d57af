"""Flows that trapped players (issue 14): the settlement without a hidden timer, the
match's end, taps that moved cards, settings lost on reload, the keyboard, replays."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import need_browser, start_server, stop_server
from .helpers import (
    VIEWPORTS,
    create,
    drag,
    hand_id,
    hand_layout,
    open_seat,
    play_hand,
    play_together,
    shot,
    tap_card,
    wait_dealt,
    wait_js,
)

AWAY = 3  # seconds: a short 托管 timer, to see that the settlement never uses it

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    need_browser()
    proc, base = start_server(tmp_path_factory.mktemp("quick"), "--away-timeout", str(AWAY))
    yield base
    stop_server(proc)


def _until_my_discard(page: Any) -> bool:
    """Pass on claims until it is my turn to discard (False: the hand ended first)."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + 30
    while not page.query_selector("#hand .card.legal"):
        assert time.monotonic() < deadline
        if page.get_attribute("body", "data-phase") != "playing":
            return False
        b = page.query_selector("#actions button[data-type='pass']")
        if b:
            version = page.get_attribute("body", "data-version")
            try:
                b.click()
            except PlaywrightError as e:  # a bot's 胡 closed the window under the finger
                if "not attached" not in str(e) and "detached" not in str(e):
                    raise
                continue
            wait_js(page, f"document.body.dataset.version !== '{version}'")
        else:
            page.wait_for_timeout(30)
    return True


@pytest.mark.slow
def test_no_tuoguan_while_reading_the_settlement(quick_server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    create(page, quick_server, hands=2)
    play_hand(page, random.Random(3))
    page.wait_for_selector("#settlement:not(.hidden)")
    page.wait_for_timeout((AWAY + 2) * 1000)  # longer than any decision's timer
    assert page.get_attribute("body", "data-phase") == "settlement"
    assert page.is_visible("#settlement") and page.is_enabled("#ready-btn")
    assert not page.query_selector(".badge.away") and not page.is_visible("#away-banner")
    assert not page.is_visible("#ring"), "no countdown on the settlement"
    assert "已准备 0/1" in page.inner_text("#ready-count")
    before = hand_id(page)
    page.click("#ready-btn")
    wait_dealt(page, before)
    page.close()


# Keeps every socket the page opens, so a test can cut one.
KEEP_SOCKETS = """window.__sockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};"""


@pytest.mark.slow
def test_ready_clicked_while_reconnecting_is_not_lost(server: str, browser: Any) -> None:
    """下一局 pressed while the socket is down is sent once the table is back."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(KEEP_SOCKETS)
    create(page, server, hands=2)
    play_hand(page, random.Random(6))
    page.wait_for_selector("#settlement:not(.hidden)")
    before = hand_id(page)
    page.evaluate("window.__sockets.at(-1).close()")  # the connection drops …
    page.click("#ready-btn")  # … just as the player presses 下一局
    assert "重连" in page.inner_text("#status")
    wait_dealt(page, before)
    assert page.evaluate("window.__sockets.length") == 2, "one reconnection"
    page.close()


@pytest.mark.slow
def test_match_end_offers_rematch_and_lobby(server: str, browser: Any) -> None:
    page = browser.new_page(**VIEWPORTS["phone-landscape"])
    old = create(page, server, hands=1)
    play_hand(page, random.Random(4))
    wait_js(page, "document.body.dataset.phase === 'finished'")
    assert page.is_visible("#rematch-btn") and page.is_visible("#lobby-btn")
    assert not page.is_visible("#ready-btn")
    shot(page, "web-match-end.png")
    page.click("#rematch-btn")  # the same seats in a new match, in a new room
    wait_js(page, f"!location.hash.includes('{old}')")
    wait_dealt(page)
    assert page.inner_text("#hand-label").endswith("第 1/1 局")
    page.goto(f"{server}/#/room/{old}")  # the old room still offers both ways out
    wait_js(page, "document.body.dataset.phase === 'finished'")
    page.wait_for_selector("#settlement:not(.hidden)")
    page.click("#lobby-btn")
    page.wait_for_selector("#lobby:not(.hidden)")
    page.close()


def test_taps_select_drags_move_and_settings_survive_reload(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    for _ in range(5):  # a bot may win before my first discard: another room then
        create(page, server, hands=1)
        if _until_my_discard(page):
            break
    before = hand_layout(page)
    free = "#hand .col:not(.kan)"  # the hand is drawn anew on each change: look again
    assert tap_card(page.query_selector_all(free)[0].query_selector(".card"))
    assert tap_card(
        page.query_selector_all(free)[-1].query_selector(".card")
    )  # selects; moves nothing
    assert hand_layout(page) == before
    assert len(page.query_selector_all("#hand .card.selected")) == 1
    # a 坎 cannot be split, even by a drag
    kan = page.query_selector("#hand .col.kan .card")
    if kan:
        kb, tb = kan.bounding_box(), page.query_selector_all(free)[0].bounding_box()
        drag(page, (kb["x"] + 5, kb["y"] + 5), (tb["x"] + 10, tb["y"] + 10), steps=5)
        assert hand_layout(page) == before
    # a drag moves a card into another column
    cols = page.query_selector_all(free)
    sb, tb = cols[-1].query_selector(".card").bounding_box(), cols[0].bounding_box()
    drag(
        page,
        (sb["x"] + sb["width"] / 2, sb["y"] + 6),
        (tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2),
    )
    moved = hand_layout(page)
    assert moved != before and sorted(c for col in moved for c in col) == sorted(
        c for col in before for c in col
    )
    # settings: 提示 on, sound muted, voice off — all kept, with the arrangement
    page.check("#hints-toggle")
    page.click("#mute-btn")
    page.uncheck("#voice-toggle")
    page.reload()
    wait_js(
        page,
        "document.body.dataset.phase === 'playing' && document.querySelector('#hand .card') !== null",
    )
    assert page.is_checked("#hints-toggle") and not page.is_checked("#voice-toggle")
    assert page.get_attribute("#mute-btn", "aria-pressed") == "true"
    assert hand_layout(page) == moved
    wait_js(page, "document.querySelector('#hint').textContent.startsWith('提示：')")
    # the keyboard: → selects a legal card, Enter discards it
    assert _until_my_discard(page)  # nothing moved: still my discard
    version = page.get_attribute("body", "data-version")
    page.keyboard.press("ArrowRight")
    assert page.query_selector("#hand .card.legal.selected")
    # Enter on a focused bar button presses that button and plays nothing
    page.focus("#mute-btn")
    page.keyboard.press("Enter")
    assert page.get_attribute("#mute-btn", "aria-pressed") == "false"
    page.wait_for_timeout(300)  # a discard would have changed the table by now
    assert page.get_attribute("body", "data-version") == version
    assert page.query_selector("#hand .card.legal.selected")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Enter")
    wait_js(page, f"document.body.dataset.version !== '{version}'")
    page.close()


def test_replay_steps_through_a_finished_hand(server: str, browser: Any) -> None:
    import httpx

    r = httpx.post(
        server + "/api/rooms", json={"bots": 2, "bot": "easy", "seed": 3, "hands": 1}
    ).json()
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    open_seat(page, server, r["room"], r["token"])  # a saved seat reconnects from the link
    wait_js(page, "document.body.dataset.phase === 'playing'")
    play_hand(page, random.Random(5))
    page.wait_for_selector("#settlement:not(.hidden)")
    page.click("#settle-replay-btn")
    page.wait_for_selector("#replay:not(.hidden) #replay-table .seat")
    assert page.inner_text("#replay-step") == "发牌"
    page.click("#replay-controls [data-step='next']")
    assert page.inner_text("#replay-step") not in ("", "发牌")
    page.click("#replay-controls [data-step='last']")
    last = page.inner_text("#replay-step")
    assert "胡" in last or "荒庄" in last
    shot(page, "web-replay.png")
    page.close()


@pytest.mark.slow
def test_two_friends_ready_up_for_the_next_hand(server: str, browser: Any) -> None:
    import httpx

    r = httpx.post(server + "/api/rooms", json={"bots": 1, "bot": "easy", "hands": 2}).json()
    a = browser.new_page(viewport={"width": 1280, "height": 800})
    open_seat(a, server, r["room"], r["token"])
    a.wait_for_selector("#waiting:not(.hidden)")  # the room waits for the friend
    j = httpx.post(f"{server}/api/rooms/{r['room']}/join", json={"name": "朋友"}).json()
    b = browser.new_page(**VIEWPORTS["phone-portrait"])
    open_seat(b, server, r["room"], j["token"], j["seat"])
    for p in (a, b):
        wait_dealt(p)
    assert "朋友" in a.inner_text("#seat-right, #seat-left")
    play_together([a, b], random.Random(9), limit=90)
    for p in (a, b):
        p.wait_for_selector("#settlement:not(.hidden)")
        assert "已准备 0/2" in p.inner_text("#ready-count")
    a.click("#ready-btn")
    wait_js(b, "document.querySelector('#ready-count').textContent.includes('已准备 1/2')")
    assert a.get_attribute("body", "data-phase") == "settlement"  # waits for the friend
    before = hand_id(a)
    b.click("#ready-btn")
    for p in (a, b):
        wait_dealt(p, before)
    a.close()
    b.close()
