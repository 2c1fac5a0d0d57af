"""Issue 22 in the browser: 桂林/衡阳 settlements with 醒牌, 醒数 and their unit (R42), and
a whole 娄底 race (R45) played by clicking to its pairwise final settlement.

The race is the preset's own (target 100 息, a safety cap of 30 hands): no room option
shortens it. The human clicks legal choices at random and always takes a win; the bots
are 中级 (greedy), so someone reaches 100 in a few hands.
"""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from .helpers import VIEWPORTS, Frames, open_seat, play_hand, resend, shot, wait_js

pytestmark = pytest.mark.browser

UNITS = {"guilin": "子", "hengyang": "囤", "loudi": "息"}


def new_room(page: Any, server: str, rules: str, seed: int, hands: int | None = None) -> None:
    body: dict[str, Any] = {"rules": rules, "bot": "normal", "seed": seed, "name": "小明"}
    if hands is not None:
        body["hands"] = hands
    r = httpx.post(server + "/api/rooms", json=body)
    r.raise_for_status()
    room = r.json()
    open_seat(page, server, room["room"], room["token"])


def next_settlement(page: Any, rng: random.Random) -> str:
    """Play the hand on the page by clicking; the phase it ends in."""
    wait_js(page, "['playing', 'settlement', 'finished'].includes(document.body.dataset.phase)")
    play_hand(page, rng)
    wait_js(page, "['settlement', 'finished'].includes(document.body.dataset.phase)")
    page.wait_for_selector("#settlement:not(.hidden)")
    return str(page.get_attribute("body", "data-phase"))


def ready(page: Any) -> None:
    hand = page.get_attribute("body", "data-hand")
    page.click("#ready-btn")
    wait_js(
        page,
        f"document.body.dataset.phase !== 'settlement' || document.body.dataset.hand !== '{hand}'",
    )


def summary_text(page: Any) -> str:
    return str(page.inner_text("#settle-body .summary"))


def check_xing_sheet(page: Any, r: dict[str, Any], unit: str) -> None:
    """The won hand's sheet: the unit (not 等), 醒 count and the turned cards' faces, each
    名堂 with its effect — as the server sent them."""
    text = summary_text(page)
    assert f"{unit} {r['deng']}" in text  # 子 3 / 囤 2: the unit, not 等
    assert "等 " not in text
    assert f"醒 {r['xing']}{unit}" in text
    faces = page.eval_on_selector_all(
        "#settle-body .summary .xing .card", "cs => cs.map((c) => c.dataset.card)"
    )
    assert faces == r["xing_cards"]  # the turned card's face (several with 连翻)
    assert len(faces) >= 1 or "—" in page.inner_text("#settle-body .summary .xing")
    for m in r["mingtang"]:  # multiplied 番 (R43) or units (海底 +2 子)
        want = f"+{m['fan']}{unit}" if m["effect"] == "units" else f"×{m['fan']}"
        assert f"{m['name']} {want}" in text


@pytest.mark.parametrize("rules,seed", [("guilin", 7), ("hengyang", 5)])
def test_a_win_shows_xing_and_the_unit(server: str, browser: Any, rules: str, seed: int) -> None:
    """R42: a won hand's sheet shows the 醒牌 turned (its card face), 醒数 and the score
    in the preset's unit (子 / 囤), each as the server sent it."""
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    new_room(page, server, rules, seed, hands=16)
    rng = random.Random(seed)
    wins = 0
    for _ in range(16):
        phase = next_settlement(page, rng)
        r = frames.last["result"] if frames.last else None
        assert r is not None and r["unit"] == UNITS[rules]
        if r["winner"] is not None:
            wins += 1
            check_xing_sheet(page, r, UNITS[rules])
            # the picture for the docs: a 桂林 win whose 醒 counted
            if rules != "guilin" or r["xing"] > 0:
                if rules == "guilin":
                    shot(page, "web-settlement-xing.png")
                break
        if phase == "finished":
            break
        ready(page)
    assert wins, "no hand was won"
    assert not errors, errors
    ctx.close()


def face(code: str) -> str:
    """A card's character as the sheet writes it (cards.js ``zh``)."""
    return ("一二三四五六七八九十" if code[0] == "x" else "壹贰叁肆伍陆柒捌玖拾")[int(code[1:]) - 1]


def test_xing_counts_are_explained_where_they_need_it(server: str, browser: Any) -> None:
    """R42: the sheet showed 醒数 (永州 with 双醒: 醒 2囤 for one card) but not why: a line
    under it now says what each 醒牌 counted, that 双醒 doubles the sum and, with 连翻,
    that a 醒牌 making four with the winner's cards turned the next. A real 跟醒 + 双醒
    win, then the same sheet given a 连翻 (two 醒牌) and a plain one (no line), in both
    languages."""
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    body = {
        "rules": "yongzhou",
        "options": {"xing": "gen", "xing_double": "on", "hands": 16},
        "bot": "normal",
        "seed": 7,
        "name": "小明",
    }
    r = httpx.post(server + "/api/rooms", json=body)
    r.raise_for_status()
    open_seat(page, server, r.json()["room"], r.json()["token"])
    rng = random.Random(7)
    try:
        for _ in range(16):
            phase = next_settlement(page, rng)
            res = frames.last["result"] if frames.last else None
            assert res is not None
            if res["winner"] is not None:
                break
            assert phase == "settlement", "no hand was won"
            ready(page)
        assert res["xing_double"] is True and len(res["xing_counts"]) == len(res["xing_cards"])
        assert res["xing"] == 2 * sum(res["xing_counts"])
        why = page.inner_text("#settle-body .xing-why")
        for card, n in zip(res["xing_cards"], res["xing_counts"], strict=True):
            assert f"{face(card)} {n}张" in why, why
        assert f"双醒：醒数 ×2 = {res['xing']}囤" in why, why
        page.wait_for_timeout(400)  # the sheet's entrance
        shot(page, "xing-why-double.png")
        # 连翻: the first 醒牌 made four with the winner's three, the wall's next was turned
        chain = "r.xing_cards = ['d1', 'x7']; r.xing_counts = [3, 2]; r.xing = 10;"
        resend(page, chain)
        why = page.inner_text("#settle-body .xing-why")
        assert (
            why
            == "醒数：壹 3张（加上这张成四张，连翻：再翻一张） + 七 2张 = 5；双醒：醒数 ×2 = 10囤"
        ), why
        shot(page, "xing-why-chain.png")
        resend(page, "", "setLang('en');")
        why = page.inner_text("#settle-body .xing-why")
        assert why.startswith(
            "Bonus count (醒): 3 × 壹 (with the card turned, a set of four: 连翻"
        ), why
        assert why.endswith("+ 2 × 七 = 5; 双醒 counts it twice: ×2 = 10 tun (囤)"), why
        shot(page, "xing-why-chain-en.png")
        # one 醒牌 and no 双醒: the count needs no line
        resend(
            page, "r.xing_cards = ['x7']; r.xing_counts = [2]; r.xing = 2; delete r.xing_double;"
        )
        assert page.query_selector("#settle-body .xing-why") is None
        assert page.query_selector("#settle-body .summary .xing")
        assert not errors, errors
    finally:
        ctx.close()


def test_a_loudi_race_plays_to_its_pairwise_settlement(server: str, browser: Any) -> None:
    """R45: the preset's race (to 100 息, cap 30 hands) played hand by hand in the browser:
    every settlement shows the running totals against the target; the match ends when a
    total reaches 100, and the summary settles the rounded totals pair by pair."""
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    seed = 5
    new_room(page, server, "loudi", seed)
    rng = random.Random(seed)
    started, hands, shown = time.monotonic(), 0, False
    while True:
        phase = next_settlement(page, rng)
        hands += 1
        m = frames.last
        assert m is not None and m["hands"] == 30  # the safety cap, not a shorter race
        r = m["result"]
        assert r["unit"] == "息" and r["race"]["target"] == 100
        assert r["race"]["totals"] == r["match_scores"] == m["scores"]
        if phase == "settlement":
            line = page.inner_text("#settle-body .race-line")
            assert "100" in line
            # each total apart from its name ("机器人2：0", never "机器人2 0" read as 20)
            totals = page.eval_on_selector_all(
                "#settle-body .race-line .race-total b", "xs => xs.map((x) => x.textContent)"
            )
            names = page.eval_on_selector_all(
                "#settle-body .race-line .race-total", "xs => xs.map((x) => x.textContent)"
            )
            assert all("：" in n for n in names), names
            assert totals == [("+" if v > 0 else "") + str(v) for v in m["scores"]]
            if r["winner"] is not None and not shown:
                shown = True
                shot(page, "web-settlement-race.png")
            ready(page)
            continue
        break
    assert phase == "finished" and max(m["scores"]) >= 100 and hands < 30
    race = m["summary"]["race"]
    assert race["reached"] and race["totals"] == m["scores"]
    page.wait_for_selector("#match-summary table.race-final")
    rows = page.eval_on_selector_all(
        "#match-summary table.race-final tr",
        "trs => trs.map((tr) => [...tr.children].map((c) => c.textContent))",
    )
    assert len(rows) == 1 + len(m["players"])
    for s, row in enumerate(rows[1:]):
        signed = [
            ("+" if v > 0 else "") + str(v)
            for v in (race["totals"][s], race["rounded"][s], race["final"][s])
        ]
        assert row[1:] == signed
    assert sum(race["final"]) == 0
    pays = page.eval_on_selector_all(
        "#match-summary ul.transfers li", "xs => xs.map((x) => x.textContent)"
    )
    assert len(pays) == max(1, len(race["transfers"]))
    names = [p["name"] for p in m["players"]]
    for t, text in zip(race["transfers"], pays, strict=False):
        assert text.startswith(names[t["payer"]]) and text.endswith(str(t["amount"]))
    assert "100" in page.inner_text("#match-summary .race-end")
    # the ranking is the settlement's, in 分, each seat's 息 total beside it (a player read
    # the 息 totals as the result above a settlement that said otherwise)
    ranked = page.eval_on_selector_all(
        "#match-summary ol.ranking li",
        "lis => lis.map((li) => [+li.dataset.seat, li.querySelector('.pts').textContent,"
        " li.querySelector('.race-sum').textContent])",
    )
    assert [x[0] for x in ranked] == m["summary"]["ranking"]
    for s, pts, total in ranked:
        assert pts.startswith(("+" if race["final"][s] > 0 else "") + str(race["final"][s]) + " ")
        assert str(race["totals"][s]) in total
    # the race's total is the running total (累计, R45), not a 总息数: each hand's sheet
    # has a 当前总息数 column (that hand's 胡息), and a player read it as his progress
    assert rows[0][1] == "累计息数" and all("累计" in x[2] for x in ranked), (rows[0], ranked)
    assert "总息数" not in page.inner_text("#match-summary")
    shot(page, "web-race-final.png")
    # in English: the same sheet after a reload (the room sends its finished state again)
    page.evaluate("localStorage.setItem('phz:lang', 'en')")
    page.reload()
    page.wait_for_selector("#match-summary table.race-final")
    text = page.inner_text("#match-summary")
    assert "Race settlement" in text and "reached 100" in text and "Running total" in text
    pays = page.eval_on_selector_all(
        "#match-summary ul.transfers li", "xs => xs.map((x) => x.textContent)"
    )
    assert [p.rsplit(" ", 1)[1] for p in pays] == [str(t["amount"]) for t in race["transfers"]]
    assert all(" pays " in p for p in pays)
    print(f"race: {hands} hands in {time.monotonic() - started:.0f} s, totals {m['scores']}")
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_rules_page_states_xing_units_and_the_race(
    server: str, browser: Any, lang: str
) -> None:
    """规则 of 桂林 (醒, 子) and 娄底 (息, the race, R45) in the client, in both languages."""
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('phz:lang', '{lang}')")
    want = {
        ("guilin", "zh"): ("xing", ["翻醒", "每张加1子"]),
        ("guilin", "en"): ("xing", ["翻醒", "+1 子 each"]),
        ("loudi", "zh"): ("race", ["先到100息", "四舍五入到10"]),
        ("loudi", "en"): ("race", ["reaches 100", "nearest 10"]),
    }
    for name in ("guilin", "loudi"):
        page.goto(f"{server}/#/rules/{name}")
        page.reload()
        sec, parts = want[(name, lang)]
        box = page.wait_for_selector(f"section.rules-sec[data-section={sec}]")
        text = box.inner_text()
        for part in parts:
            assert part in text, (part, text)
        if name == "loudi" and lang == "zh":
            box.scroll_into_view_if_needed()
            shot(page, "web-rules-race.png")
    ctx.close()


def test_the_huxi_table_has_colour_columns_only_where_colour_counts(
    server: str, browser: Any
) -> None:
    """R9: the standard 胡息 table is the same for red and black cards: 小 / 大 only; 泸州's
    table by colour (PRESETS.md) keeps its four columns."""
    ctx = browser.new_context(**VIEWPORTS["desktop"])
    page = ctx.new_page()
    try:
        for name, head in (
            ("hunan", ["", "小", "大"]),
            ("luzhou", ["", "黑小", "黑大", "红小", "红大"]),
        ):
            page.goto(f"{server}/#/rules/{name}")
            page.reload()
            page.wait_for_selector("section.rules-sec[data-section=huxi] table.huxi-table")
            rows = page.eval_on_selector_all(
                "table.huxi-table tr",
                "trs => trs.map((tr) => [...tr.children].map((c) => c.textContent))",
            )
            assert rows[0] == head, (name, rows[0])
            assert all(len(r) == len(head) for r in rows), (name, rows)
            if name == "hunan":  # 坎: 小 3, 大 6 (R9)
                assert ["坎", "3", "6"] in rows, rows
    finally:
        ctx.close()
