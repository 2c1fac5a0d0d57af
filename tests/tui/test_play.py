"""The terminal game driven headless by key presses (textual's pilot), seeded bots.

A whole hand is played with keys only; at every decision the screen must show
the human's hand (grouped, R3/R4 glyphs), every table meld as the view allows
(偎 face down), the wall count and only the legal choices (R16, R17, R19); the
settlement must show the engine's settlement; the saved record must replay.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path

from paohuzi.core import variants
from paohuzi.core.actions import Action
from paohuzi.core.determinize import resample
from paohuzi.core.records import check
from paohuzi.tui.app import QuitScreen, SettlementScreen

from .helpers import (
    expected_hand_line,
    make_app,
    meld_strings,
    screen_text,
    wait_for_human,
    zh,
)


def option_strings(aid: str) -> list[str]:
    """What the screen must show for one claim option (R19: every 比 group as cards)."""
    a = Action.from_id(0, aid)
    if a.type == "chi":
        return ["吃 " + "".join(c.zh for c in a.groups[0])] + [
            "".join(c.zh for c in g) for g in a.groups[1:]
        ]
    if a.type == "peng":
        return ["碰 " + a.card.zh * 3]
    return {"hu": ["胡 "], "pass": ["过"]}[a.type]


def human_actions(app) -> list[str]:
    return [a.id() for a in app.session.state.actions if a.seat == 0]


def test_complete_hand_by_keys(tmp_path: Path) -> None:
    asyncio.run(_complete_hand(tmp_path))


async def _complete_hand(tmp: Path) -> None:
    app = make_app(tmp, hands=2)
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.session
        decisions = resampled = 0
        seen_hidden_wei = False
        while (mode := await wait_for_human(pilot, app)) != "settlement":
            decisions += 1
            v = s.view()
            text = screen_text(app)
            assert expected_hand_line(v.hand) in text
            for t in range(3):
                for m in meld_strings(v.tables[t]):
                    assert m in text, m
                assert zh(v.piles[t][-10:]) in text
            seen_hidden_wei |= "偎▒▒▒▒▒▒" in text
            assert f"墩 {v.wall}" in text
            legal = v.legal_ids()
            if mode == "discard":
                resampled += await _same_screen_in_other_world(pilot, app, text)
                # key "1": the first discardable card in the shown order (坎 are never offered, R17)
                shown = expected_hand_line(v.hand).split()
                first = next(c for c in shown if f"discard:{_code(c)}" in legal)
                want = f"discard:{_code(first)}"
                await pilot.press("1", "enter")
            else:
                lines = text.splitlines()
                for i, aid in enumerate(legal):
                    row = next(ln for ln in lines if re.match(rf"\s*▶?\s*{i + 1} ", ln))
                    for part in option_strings(aid):
                        assert part in row, (aid, row)
                assert not any(re.match(rf"\s*▶?\s*{len(legal) + 1} ", ln) for ln in lines)
                want = "hu" if "hu" in legal else legal[0]
                await pilot.press(str(legal.index(want) + 1), "enter")
            assert human_actions(app)[-1] == want
        assert decisions >= 5
        assert seen_hidden_wei, "seed 2 should show an opponent's face-down 偎"
        assert resampled >= 3, "the hidden-information check never ran in a different world"

        res = s.state.result.to_dict()
        assert res["winner"] == 0, "seed 2 is a win for the human with this policy"
        text = screen_text(app)
        _check_settlement(text, s.view().reveal_huxi, res, s.match.scores)

        files = sorted(tmp.glob("*.json"))
        assert len(files) == 1
        rec = json.loads(files[0].read_text(encoding="utf-8"))
        assert check(rec) == []
        assert rec["actions"] == [a.to_dict() for a in s.state.actions]
        assert str(files[0]) in text.replace("\n", "")

        # R38: the next hand of the match, scores carried over
        await pilot.press("enter")
        mode = await wait_for_human(pilot, app)
        text = screen_text(app)
        assert "第2/2局" in text.splitlines()[0]
        assert f"分 {s.match.scores[1]:+d}" in text
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("y")
        await pilot.pause()
    assert not app.is_running


def _code(glyph: str) -> str:
    from paohuzi.core.cards import Card

    return Card.parse(glyph).code


def _check_settlement(text: str, reveal_huxi, res: dict, totals: list[int]) -> None:
    """门子 with 胡息, 等, 名堂 + 番, 底, payments, every 当前总息数 (R33), totals (R38)."""
    st = res["settlement"]
    assert "结算" in text
    for g in st["groups"]:
        kind = {"kan": "坎", "ju": "句", "jiao": "绞", "jiang": "将"}.get(g["kind"])
        kind = kind or {"chi": "吃", "peng": "碰", "wei": "偎", "pao": "跑", "ti": "提"}[g["kind"]]
        assert re.search(rf"{kind}\s+{g['cards']}\s+{g['huxi']}\b", text), g
    assert re.search(rf"等 {st['deng']}\b", text)
    assert re.search(rf"番 {st['fan']}\b", text)
    assert re.search(rf"底 {st['di']}\b", text)
    for m in st["mingtang"]:
        assert f"{m['name']} {m['fan']}番" in text
    names = {0: "你", 1: "下家", 2: "上家"}
    for seat in range(3):
        huxi = reveal_huxi[seat]
        pay, total = res["scores"][seat], totals[seat]
        row = rf"{names[seat]}\s+{huxi}\s+{re.escape(f'{pay:+d}')}\s+{re.escape(f'{total:+d}')}"
        assert re.search(row, text), row


async def _same_screen_in_other_world(pilot, app, text: str) -> int:
    """Swap in a world with every hidden card re-dealt: the screen must not change.

    Returns 1 if the other world really differed in what the human cannot see.
    """
    table = app.session.table
    true = table.state
    other = resample(true, 0, random.Random(len(true.actions)))
    differs = any(other.hand(t) != true.hand(t) for t in (1, 2))
    table.state = other
    try:
        app.game.refresh_view()
        await pilot.pause()
        assert screen_text(app) == text
    finally:
        table.state = true
        app.game.refresh_view()
        await pilot.pause()
    return int(differs)


def test_bad_keys_change_nothing(tmp_path: Path) -> None:
    asyncio.run(_bad_keys(tmp_path))


BAD_KEYS = ("x", "z", "0", "f2", "tab", "escape", "ctrl+p", "backspace", "p", "@")


async def _bad_keys(tmp: Path) -> None:
    app = make_app(tmp)
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.session
        seen = set()
        while (mode := await wait_for_human(pilot, app)) != "settlement":
            if mode not in seen:
                seen.add(mode)
                before, text = s.version, screen_text(app)
                for key in BAD_KEYS:
                    await pilot.press(key)
                    assert s.version == before, key
                    assert screen_text(app) == text, key
                n = len(s.view().legal) if mode == "claim" else None
                if n is not None and n < 9:  # a number past the last option is a bad key too
                    await pilot.press(str(n + 1))
                    assert screen_text(app) == text
            await pilot.press("1", "enter")
        assert seen == {"discard", "claim"}
        before, text = s.version, screen_text(app)
        for key in BAD_KEYS:
            await pilot.press(key)
        assert isinstance(app.screen, SettlementScreen)
        assert (s.version, screen_text(app)) == (before, text)
        await pilot.press("enter")  # the match (1 hand) is over: Enter leaves
        await pilot.pause()
    assert not app.is_running


def test_quit_confirm_and_ctrl_c(tmp_path: Path) -> None:
    asyncio.run(_quit(tmp_path))


async def _quit(tmp: Path) -> None:
    app = make_app(tmp)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot, app)
        before, text = app.session.version, screen_text(app)
        await pilot.press("q")
        await pilot.pause()
        assert "Quit the game?" in screen_text(app)
        await pilot.press("x", "n")
        await pilot.pause()
        assert (app.session.version, screen_text(app)) == (before, text)
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert not app.is_running
    assert list(tmp.glob("*.json")) == []  # an unfinished hand leaves no record


def test_the_header_names_the_regions_options_played() -> None:
    """``paohuzi play --rules hengyang:tun=1,xing=gen``: the header says 一息一囤 and 跟醒
    beside the preset's name (core/variants.py), as the web's summary line does."""

    async def run() -> str:
        app = make_app(None, rules=variants.parse("hengyang:tun=1,xing=gen"))
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            return screen_text(app).splitlines()[0]

    head = asyncio.run(run())
    assert "hengyang" in head and "跟醒" in head and "一息一囤" in head, head


def test_a_narrow_header_keeps_the_seed_and_names_a_cap_chosen() -> None:
    """At 80 columns with many options the 玩法 are cut, not the seed (a player needs it
    to replay the match); a 封顶 not the preset's is named (永州 600)."""
    spec = "yongzhou:wangpai=on,hongzhuan=on,xing=fan-1,xing_double=on,cap=600"

    async def run(width: int) -> str:
        app = make_app(None, rules=variants.parse(spec))
        async with app.run_test(size=(width, 24)) as pilot:
            await pilot.pause()
            return screen_text(app).splitlines()[0]

    narrow, wide = asyncio.run(run(80)), asyncio.run(run(160))
    assert "seed" in narrow and narrow.index("seed") < narrow.index("第"), narrow
    assert "封顶600" in wide and "亡牌" in wide, wide


def test_a_terminal_too_small_is_told_so() -> None:
    """Below 80×24 lines are cut or scroll away: the header says so, at once and after
    a resize; at 80×24 it does not."""

    async def run(size: tuple[int, int]) -> tuple[str, str]:
        app = make_app(None, rules=variants.parse("hunan"))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            first = screen_text(app).splitlines()[0]
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            return first, screen_text(app).splitlines()[0]

    small, resized = asyncio.run(run((60, 20)))
    assert "terminal too small: 60×20, need 80×24" in small, small
    assert "too small" not in resized, resized
