"""The match-end summary and the replay controls (issue 15), in the browser.

Summary: when the state's phase is "finished" the sheet ranks the seats by name, marks
大赢家 and the best hand, lists every hand's points per seat with a totals row, and
offers 再来一场 / 返回大厅; without the state's `summary` it ranks by `scores` alone.
Replay: step forward and back, the step and its log shown; seats by their real names,
the viewer's own seat marked; one seat's view hides the others' hands; speed; play.
"""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
import pytest

from .helpers import VIEWPORTS, Frames, open_seat, play_hand, shot, wait_js

pytestmark = pytest.mark.browser

# a 3-hand match's summary in the shape the server sends (docs/web.md)
SUMMARY = {
    "hands": [
        {"index": 1, "hand_id": None, "scores": [12, -6, -6], "winner": 0, "huxi": 21, "fan": 1},
        {
            "index": 2,
            "hand_id": None,
            "scores": [0, 0, 0],
            "winner": None,
            "huxi": None,
            "fan": None,
        },
        {"index": 3, "hand_id": None, "scores": [-20, 40, -20], "winner": 1, "huxi": 30, "fan": 2},
    ],
    "totals": [-8, 34, -26],
    "ranking": [1, 0, 2],
    "big_winner": [1],
    "best_hand": {"index": 3, "seat": 1, "score": 40},
    "best_hands": [{"index": 1, "score": 12}, {"index": 3, "score": 40}, None],
}


def finish_match(page: Any, server: str, hands: int, seed: int) -> dict[str, Any]:
    r = httpx.post(
        server + "/api/rooms",
        json={
            "rules": "hunan",
            "bots": 2,
            "bot": "easy",
            "seed": seed,
            "hands": hands,
            "name": "小明",
        },
    )
    r.raise_for_status()
    room = r.json()
    open_seat(page, server, room["room"], room["token"])
    rng = random.Random(seed)
    for _ in range(hands):
        wait_js(page, "['playing', 'settlement', 'finished'].includes(document.body.dataset.phase)")
        play_hand(page, rng)
        wait_js(page, "['settlement', 'finished'].includes(document.body.dataset.phase)")
        if page.get_attribute("body", "data-phase") == "settlement":
            page.click("#ready-btn")
            wait_js(page, "document.body.dataset.phase !== 'settlement'")
    wait_js(page, "document.body.dataset.phase === 'finished'")
    page.wait_for_selector("#match-summary:not(.hidden)")
    return room


def rerender(page: Any, summary: Any) -> None:
    """Draw the sheet again with another `summary` (None: the state without one)."""
    page.evaluate(
        """async (summary) => {
      const { S } = await import('/static/store.js');
      const m = { ...S.msg };
      if (summary === null) delete m.summary; else m.summary = summary;
      S.msg = m;
      (await import('/static/app.js')).rerender();
    }""",
        summary,
    )


def names_shown(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all(
            "#match-summary .ranking li .who", "xs => xs.map((x) => x.firstChild.textContent)"
        )
    )


def test_match_summary(server: str, browser: Any) -> None:
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    finish_match(page, server, hands=2, seed=11)
    m = frames.last
    assert m is not None and m["phase"] == "finished"
    names = [p["name"] for p in m["players"]]
    # the live sheet: every seat ranked by name, both ways out
    assert sorted(names_shown(page)) == sorted(names)
    assert page.is_visible("#rematch-btn") and page.is_visible("#lobby-btn")
    assert not page.is_visible("#ready-btn")
    if m.get("summary"):  # the server's summary: a row per hand and the totals
        rows = page.query_selector_all("#match-summary table.per-hand tr")
        assert len(rows) == 1 + len(m["summary"]["hands"]) + 1
        assert names_shown(page) == [names[s] for s in m["summary"]["ranking"]]
    # a known summary: the marks and numbers
    rerender(page, SUMMARY)
    assert names_shown(page) == [names[1], names[0], names[2]]
    assert page.inner_text("#match-summary .ranking li.big-winner .who").startswith(names[1])
    assert "大赢家" in page.inner_text("#match-summary .ranking li.big-winner")
    big = page.eval_on_selector_all(
        "#match-summary .ranking li.big-winner", "xs => xs.map((x) => x.dataset.seat)"
    )
    assert (
        big == ["1"]
        and page.get_attribute("#match-summary .ranking li:first-child", "data-seat") == "1"
    )
    assert "最佳一局" in page.inner_text("#match-summary .best-hand")
    assert names[1] in page.inner_text("#match-summary .best-hand")
    # each player's own best hand beside his place; seat 2 won nothing
    bests = {
        li.get_attribute("data-seat"): li.inner_text()
        for li in page.query_selector_all("#match-summary .ranking li")
    }
    assert "第1局 +12" in bests["0"] and "第3局 +40" in bests["1"]
    assert "最佳" not in bests["2"]
    table = page.eval_on_selector_all(
        "#match-summary table.per-hand tr",
        "trs => trs.map((tr) => [...tr.children].map((c) => c.textContent))",
    )
    assert len(table) == 5  # head, 3 hands, totals
    assert [re.sub(r"[^0-9+-]", "", c) for c in table[1][1:]] == ["+12", "-6", "-6"]
    assert table[2][0].startswith("第2局") and "荒庄" in table[2][0]
    assert table[4][0] == "合计"
    assert [re.sub(r"[^0-9+-]", "", c) for c in table[4][1:]] == ["-8", "+34", "-26"]
    best = page.query_selector_all("#match-summary td.best")
    assert len(best) == 1 and "+40" in best[0].inner_text()
    assert page.inner_text("#match-summary th.big-winner").startswith(names[1])
    assert page.inner_text("#settle-title") == "比赛结束 · 比赛总结"
    page.wait_for_timeout(300)
    shot(page, "summary-desktop.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 1
    shot(page, "summary-phone.png")
    # English
    page.evaluate("async () => (await import('/static/i18n.js')).setLang('en')")
    assert page.inner_text("#settle-title") == "Match over · Match summary"
    assert "Big winner" in page.inner_text("#match-summary .ranking li.big-winner")
    assert page.inner_text("#rematch-btn") == "Play again"
    assert page.inner_text("#lobby-btn") == "Back to the lobby"
    shot(page, "summary-en-phone.png")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(200)
    shot(page, "summary-en-desktop.png")
    page.evaluate("async () => (await import('/static/i18n.js')).setLang('zh')")
    # without `summary`: the ranking of `scores`, and nothing made up
    rerender(page, None)
    assert sorted(names_shown(page)) == sorted(names)
    assert "按总分排名" in page.inner_text("#match-summary")
    assert not page.query_selector("#match-summary table.per-hand")
    assert not page.query_selector("#match-summary .best-hand")
    # 返回大厅
    page.click("#lobby-btn")
    page.wait_for_selector("#lobby:not(.hidden)")
    assert errors == []
    ctx.close()


def test_replay_controls(server: str, browser: Any) -> None:
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    finish_match(page, server, hands=1, seed=3)
    page.click("#settle-replay-btn")
    page.wait_for_selector("#replay:not(.hidden) #replay-table .seat")
    hand = page.get_attribute("#replay-title", "data-hand")
    data = httpx.get(f"{server}/api/replays/{hand}").json()
    n = len(data["frames"]) - 1
    assert n >= 4
    assert page.inner_text("#replay-step") == "发牌"
    assert page.inner_text("#replay-pos") == f"第 0/{n} 步"
    seen = []
    for _ in range(3):
        page.click("#replay-controls [data-step='next']")
        seen.append(page.inner_text("#replay-step"))
    assert page.inner_text("#replay-pos") == f"第 3/{n} 步"
    page.click("#replay-controls [data-step='prev']")
    assert page.get_attribute("#replay", "data-step") == "2"
    assert page.inner_text("#replay-pos") == f"第 2/{n} 步"
    assert page.inner_text("#replay-step") == seen[1] and seen[1]
    # the step's log names the seats: the viewer as 我, the others by their names
    names = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#replay-table .seat[data-seat] .name')].map((x) => [x.closest('.seat').dataset.seat, x.textContent]))""")
    names = [names[str(s)] for s in range(len(names))]
    assert names[0] == "小明" and all(not re.fullmatch(r"玩家\d", x) for x in names), names
    mine = page.query_selector_all("#replay-table .seat.mine")
    assert len(mine) == 1 and mine[0].get_attribute("data-seat") == "0"
    assert "我" in mine[0].inner_text()
    first_events = [e for f in data["frames"][1:3] for e in f["events"] if e["type"] != "deal"]
    if first_events:
        assert any(w in "".join(seen[:2]) for w in ["我", *names[1:]]), seen
    page.wait_for_timeout(200)
    shot(page, "replay-desktop.png")
    # one seat's view: what seat 1 saw, seat 1 at the bottom, the others' hands face down
    page.select_option("#replay-seat", "1")
    page.wait_for_selector("#replay-table[data-view='1']")
    assert page.get_attribute("#replay", "data-step") == "2"  # the same step, seen so
    assert page.query_selector("#replay-table .seat[data-seat='0'] .seat-hand.closed .card.back")
    assert not page.query_selector("#replay-table .seat-hand.reveal")
    assert page.get_attribute("#replay-table .seat.me", "data-seat") == "1"
    assert page.query_selector_all("#replay-table .hand .card:not(.back)")
    page.select_option("#replay-seat", "all")
    page.wait_for_selector("#replay-table[data-view='all']")
    assert not page.query_selector("#replay-table .seat-hand.closed")
    assert len(page.query_selector_all("#replay-table .seat-hand.reveal")) == 2
    # 2× and play: it moves on by itself, and pauses
    page.select_option("#replay-speed", "2")
    page.click("#replay-play")
    assert page.inner_text("#replay-play") == "⏸ 暂停"
    wait_js(page, "parseInt(document.querySelector('#replay').dataset.step, 10) >= 4", 5)
    page.click("#replay-play")
    stopped = page.get_attribute("#replay", "data-step")
    page.wait_for_timeout(700)
    assert page.get_attribute("#replay", "data-step") == stopped
    assert page.inner_text("#replay-play") == "▶ 播放"
    # the phone, and English
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("#replay-controls [data-step='first']")
    for _ in range(3):
        page.click("#replay-controls [data-step='next']")
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 1
    shot(page, "replay-phone.png")
    page.evaluate("async () => (await import('/static/i18n.js')).setLang('en')")
    assert page.inner_text("#replay-pos") == f"step 3/{n}"
    assert page.inner_text("#replay-play") == "▶ Play"
    assert page.inner_text("#replay-close") == "Close"
    shot(page, "replay-en-phone.png")
    page.evaluate("async () => (await import('/static/i18n.js')).setLang('zh')")
    # a replay link opened on its own: seats by number, nobody marked
    page.goto(f"{server}/#/replay/{hand}")
    page.reload()
    page.wait_for_selector("#replay:not(.hidden) #replay-table .seat")
    assert not page.query_selector("#replay-table .seat.mine")
    # from 我的牌局: the names and my seat again
    page.goto(f"{server}/#/")
    page.click(f"#my-matches a.hand-link[href='#/replay/{hand}']")
    page.wait_for_selector("#replay:not(.hidden) #replay-table .seat.mine")
    assert page.get_attribute("#replay-table .seat.mine", "data-seat") == "0"
    assert "小明" in page.inner_text("#replay-table .seat.mine .name")
    assert errors == []
    ctx.close()
