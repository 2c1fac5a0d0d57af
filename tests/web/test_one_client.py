"""One web client (issue 21): the live table, the tutorial and the replay are drawn by one
renderer (board.js) — the same DOM structure on each —, events are told by one narrator
in both languages, and the lobby reads its seats from the server's rules data (no count
of its own): a preset of 4 (泸州, 坐底), a 人数 of 2, and presets the server changes."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest

from .helpers import VIEWPORTS, open_seat, play_hand, wait_dealt

pytestmark = pytest.mark.browser

# The board's skeleton and each seat's parts, without state classes (hidden, turn, …) and
# without the live table's own dock and 吃 picker: what must be the same on every screen.
STRUCTURE_JS = """(sel) => {
  const board = document.querySelector(sel);
  const keep = new Set(['board', 'slot', 'slot-top', 'slot-left', 'slot-right', 'center', 'turn-text',
    'open', 'ticker', 'seat', 'me', 'mine-info', 'huxi', 'ting', 'hint', 'hand', 'seat-head', 'melds',
    'pile', 'meld', 'meld-cards', 'kind', 'meld-huxi', 'col', 'name', 'table-huxi']);
  const sig = (e) => [...e.classList].filter((c) => keep.has(c)).sort().join('.');
  const kids = (e) => [...e.children].map(sig).filter(Boolean);
  const seats = [...board.querySelectorAll('.seat')];
  return {
    board: sig(board),
    skeleton: kids(board),
    center: kids(board.querySelector('.center')),
    mine: kids(board.querySelector('.mine-info')),
    seatParts: [...new Set(seats.flatMap((s) => kids(s)))].sort(),
    heads: [...new Set(seats.map((s) => sig(s.querySelector('.seat-head > .name'))))],
    meld: [...new Set([...board.querySelectorAll('.meld')].map((m) => kids(m).join(' ')))],
    handCols: board.querySelectorAll('.hand > .col > .card').length > 0,
    seats: seats.length,
  };
}"""


ENGLISH = re.compile(r"[\x20-\x7e一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾…]+")


def structure(page: Any, sel: str) -> dict[str, Any]:
    return dict(page.evaluate(STRUCTURE_JS, sel))


def test_table_tutorial_and_replay_are_one_renderer(server: str, browser: Any) -> None:
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    r = httpx.post(
        server + "/api/rooms",
        json={"rules": "hunan", "bots": 2, "bot": "easy", "seed": 8, "hands": 1, "name": "阿明"},
    ).json()
    open_seat(page, server, r["room"], r["token"])
    wait_dealt(page)
    play_hand(page, random.Random(8), limit=90)  # to the end: melds on the table
    page.click("#settle-hide-btn")
    live = structure(page, "#table")
    assert live["seats"] == 3
    # the replay of that hand: the same board, its parts, seats and melds
    page.click("#settle-show-btn")
    page.click("#settle-replay-btn")
    page.wait_for_selector("#replay-table .seat")
    page.click("#replay-controls [data-step='last']")
    replay = structure(page, "#replay-table")
    # the tutorial's first stop
    page.goto(server + "/#/tutorial")
    page.reload()
    page.click("#tut-start")
    page.wait_for_selector("#tutorial .board .hand .card")
    tutorial = structure(page, "#tutorial .board")
    for other in (replay, tutorial):
        for key in ("board", "skeleton", "center", "mine", "heads"):
            assert other[key] == live[key], (key, other[key], live[key])
        assert other["seats"] == 3 and other["handCols"]
        # a seat's parts: head, melds, pile (and a hand shown open or as backs)
        assert set(other["seatParts"]) - {""} <= set(live["seatParts"]) | {"seat-hand"}
    assert live["meld"] and replay["meld"] == live["meld"] == ["meld-cards kind meld-huxi"]
    # no renderer of their own is left: the old replay and tutorial tables' classes
    for sel in (".rp-info", ".t-seat", ".t-hand", ".t-col", "[data-replay-seat]"):
        assert not page.query_selector(sel), sel
    assert errors == []
    ctx.close()


def test_one_narrator_in_both_languages(server: str, browser: Any) -> None:
    """The tutorial's ticker and a replay's step are told by narrate.js: the same line for
    the same event, in the chosen language."""
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('phz:lang', 'en')")
    page.goto(server + "/#/tutorial")
    page.reload()
    page.click("#tut-start")
    page.wait_for_selector("#tutorial .board .ticker li")
    lines = page.eval_on_selector_all(
        "#tutorial .board .ticker li", "xs => xs.map((x) => x.textContent)"
    )
    assert lines and all(ENGLISH.fullmatch(x) for x in lines), lines  # cards keep their 字
    told = page.evaluate(
        """async () => {
      const { narrate } = await import('/static/narrate.js');
      const { setLang } = await import('/static/i18n.js');
      const e = { type: 'discard', seat: 1, card: 'x4' };
      const en = narrate([e], (s) => 'S' + s, 0);
      setLang('zh');
      const zh = narrate([e, { type: 'pass', seat: 0 }], (s) => (s === 0 ? '我' : 'S' + s), 0);
      return { en, zh };
    }"""
    )
    assert told == {"en": ["S1: discard 四"], "zh": ["S1 打出 四", "我 过"]}
    ctx.close()


def _bots_choices(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#bots option", "xs => xs.map((x) => x.value)"))


def test_the_lobby_seats_come_from_the_rules_data(server: str, browser: Any) -> None:
    # page.route below sees no request the app's service worker makes: no worker here
    ctx = browser.new_context(**VIEWPORTS["desktop"], service_workers="block")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("body[data-lobby=ready]")
    presets = httpx.get(server + "/api/presets").json()["presets"]
    for p in presets:
        page.select_option("#rules", p["name"])
        assert len(_bots_choices(page)) == p["players"], p["name"]
    # 泸州: 4 seats, one sitting out each hand (坐底)
    page.select_option("#rules", "luzhou")
    assert _bots_choices(page) == ["3", "2", "1", "0"]
    assert "4人坐底" in page.inner_text("#rules-summary")
    # 人数 2 under 湖南: one bot at most; created, the table has one seat across
    page.select_option("#rules", "hunan")
    page.select_option("#opt-players", label="2人")
    assert _bots_choices(page) == ["1", "0"]
    assert "2人" in page.inner_text("#rules-summary")
    page.click("#create-btn")
    page.wait_for_selector("#game:not(.hidden)")
    wait_dealt(page)
    assert page.get_attribute("#table", "data-n") == "2"
    assert len(page.query_selector_all("#table .slot .seat")) == 1
    assert (
        page.query_selector("#seat-top .seat") and page.inner_text("#seat-top .badge.rel") == "对家"
    )

    # a server whose preset seats 4 by default (and whose 人数 says which sit out): the
    # lobby follows, with no count of its own
    def four(route: Any) -> None:
        data = route.fetch().json()
        hn = next(p for p in data["presets"] if p["name"] == "hunan")
        hn["players"] = 4
        opt = next(o for o in hn["options"] if o["id"] == "players")
        opt["default"] = 4
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route("**/api/presets", four)
    page.goto(server + "/#/")
    page.reload()
    page.wait_for_selector("body[data-lobby=ready]")
    page.select_option("#rules", "hunan")
    assert _bots_choices(page) == ["3", "2", "1", "0"]
    assert "4人坐底" in page.inner_text("#rules-summary")  # 坐底 from the value's sit_out
    assert errors == []
    ctx.close()
