"""The game controller without a screen: bots, records, illegal input, hints, the CLI."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from paohuzi.bots import RandomBot
from paohuzi.bots.hints import Hint, Reason
from paohuzi.cli.main import main
from paohuzi.core.actions import IllegalAction
from paohuzi.core.cards import Card
from paohuzi.core.rules import HUNAN, preset
from paohuzi.core.tingpai import Ting
from paohuzi.tui import hint_line as hints
from paohuzi.tui.session import PlaySession, default_record_dir, make_players

from .helpers import make_app, screen_text, wait_for_human


def test_unknown_bot_falls_back_to_random_with_a_notice() -> None:
    players, notices = make_players(["no-such-bot"], 3)
    assert players[0] is None  # the human
    assert all(isinstance(b, RandomBot) and b.name == "random" for b in players[1:])
    assert len(notices) == 2 and "no-such-bot" in notices[0]
    assert notices[0].startswith("seat 1:") and notices[1].startswith("seat 2:")


def test_bot_names_repeat_the_last_one() -> None:
    players, notices = make_players(["greedy", "random"], 4)
    assert notices == [] and players[0] is None
    assert [b.name for b in players[1:] if b is not None] == ["greedy", "random", "random"]


def test_session_notices_name_unknown_bots() -> None:
    s = PlaySession(HUNAN, 3, ["no-such-bot"], 1, None)
    assert len(s.notices) == 2 and all("no-such-bot" in n for n in s.notices)
    assert [s.bot_name(t) for t in range(3)] == ["", "random", "random"]


def test_default_record_dir_is_under_the_user_data_dir(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_record_dir() == tmp_path / "paohuzi" / "records"


def test_illegal_choice_changes_nothing() -> None:
    s = PlaySession(HUNAN, 2, ["random"], 1, None)
    s.start_hand()
    assert s.pending_bot() is None  # seed 2: the human deals and discards first
    before = (s.version, len(s.state.events))
    hand = s.view().hand
    kan = next(c for c in hand if hand.count(c) == 3)
    for bad in (f"discard:{kan.code}", "hu", "peng:x1", "nonsense"):  # R17: no 坎 card discards
        with pytest.raises(IllegalAction):
            s.act(bad)
    assert (s.version, len(s.state.events)) == before


def test_same_seed_same_match() -> None:
    """Seeded bots (R6/R38 seeds): two sessions with one seed play the same hand."""

    def play(seed: int) -> list[str]:
        s = PlaySession(HUNAN, seed, ["random"], 1, None)
        s.start_hand()
        while not s.hand_over():
            b = s.pending_bot()
            if b is not None:
                s.apply_bot(s.bot_choose(b))
            else:
                s.act(s.view().legal_ids()[0])
        return [a.id() for a in s.state.actions]

    assert play(7) == play(7)
    assert play(7) != play(8)


def test_bots_decide_before_the_human_in_claim_windows() -> None:
    """R16: the order in which seats decide changes nothing, so the human is asked last —
    while a bot still must decide on an open card the human is offered nothing."""
    both = 0
    for seed in range(1, 9):
        s = PlaySession(HUNAN, seed, ["random"], 1, None)
        s.start_hand()
        while not s.hand_over():
            st = s.state
            human_pending = 0 in st.to_act()
            bot = s.pending_bot()
            if bot is not None:
                assert bot in st.to_act() and bot != 0
                both += human_pending
                assert not s.human_to_act()
                s.apply_bot(s.bot_choose(bot))
            else:
                assert s.human_to_act() == human_pending
                s.act(s.view().legal_ids()[-1])
    assert both > 0, "no claim window had a bot and the human deciding at once"


def test_hint_key_asks_the_bots_hint_for_the_human_seat(tmp_path: Path, monkeypatch) -> None:
    seen = []

    def fake(obs):
        seen.append(obs.seat)
        return Hint(obs.seat, obs.legal[-1].id(), Reason("", ""))

    monkeypatch.setattr(hints, "hint", fake)
    asyncio.run(_hint(tmp_path, seen))


async def _hint(tmp: Path, seen: list[int]) -> None:
    app = make_app(tmp)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot, app)
        before = app.session.version
        await pilot.press("h")
        last = app.session.view().legal_ids()[-1]
        assert f"建议 {hints.label(last)}" in screen_text(app)
        assert seen == [0] and app.session.version == before


def test_cli_rejects_bad_options(capsys) -> None:
    assert main(["play", "--hands", "0"]) == 2
    assert main(["play", "--rules", "no-such-preset"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("paohuzi play: error:") for line in err)


def test_four_seats_fit_80x24(tmp_path: Path) -> None:
    """泸州 (4 seats, one sits out): every seat and the key line stay on an 80×24 screen."""
    asyncio.run(_four(tmp_path))


async def _four(tmp: Path) -> None:
    app = make_app(tmp, seed=4, rules=preset("luzhou"))
    async with app.run_test(size=(80, 24)) as pilot:
        mode = await wait_for_human(pilot, app)
        lines = screen_text(app).splitlines()
        assert len(lines) == 24
        if mode != "settlement":
            for name in ("下家", "对家", "上家", "你"):
                assert any(name in ln for ln in lines[:8] + lines[-7:]), name
            assert "q 退出" in lines[-1]
        await pilot.press("ctrl+c")


def test_record_written_only_for_finished_hands(tmp_path: Path) -> None:
    s = PlaySession(HUNAN, 7, ["random"], 1, tmp_path / "deep" / "dir")
    s.start_hand()
    with pytest.raises(RuntimeError):
        s.finish_hand()
    while not s.hand_over():
        b = s.pending_bot()
        s.apply_bot(s.bot_choose(b)) if b is not None else s.act(s.view().legal_ids()[-1])
    path = s.finish_hand()
    assert path is not None and path.exists() and path.parent == tmp_path / "deep" / "dir"
    assert s.match.is_over()


def test_hint_key_shows_the_bots_advice(tmp_path: Path) -> None:
    """``h`` shows :func:`paohuzi.bots.hints.hint`'s suggestion, a legal choice."""
    asyncio.run(_real_hint(tmp_path))


async def _real_hint(tmp: Path) -> None:
    from paohuzi.bots import Observation
    from paohuzi.bots.hints import hint

    app = make_app(tmp)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_human(pilot, app)
        advice = hint(Observation(app.session.state.clone(), 0))
        assert advice.action in app.session.view().legal_ids()
        await pilot.press("h")
        text = screen_text(app)
        assert "提示 建议" in text
        assert hints.label(advice.action).replace(" ", "") in text.replace(" ", "")


def test_the_bots_advice_in_one_line() -> None:
    legal = ["discard:x7", "discard:d1"]
    san = (Ting(Card.parse("x3"), 15, 18),)
    advice = Hint(0, "discard:x7", Reason("打七，听三六", "x"), san)
    assert hints.hint_line(advice, legal) == "建议 打七，听三六"
    advice = Hint(0, "discard:d1", Reason("孤张", "x"), san)
    assert hints.hint_line(advice, legal) == "建议 打 壹 — 孤张  听 三"
    assert hints.hint_line(Hint(0, "hu", Reason("", "")), legal) == "—"  # not legal: no advice


def test_bot_specs_with_options() -> None:
    from paohuzi.cli.play import split_bots

    assert split_bots("ismcts:iters=8;top=2,greedy") == ["ismcts:iters=8,top=2", "greedy"]
    assert split_bots("greedy, random") == ["greedy", "random"]


def test_a_failing_bot_is_replaced_by_random() -> None:
    class Broken(RandomBot):
        def act(self, obs, rng):
            raise RuntimeError("boom")

    s = PlaySession(HUNAN, 7, ["random"], 1, None)
    s.table.players[1] = Broken()
    s.start_hand()
    while not s.hand_over():
        b = s.pending_bot()
        s.apply_bot(s.bot_choose(b)) if b is not None else s.act(s.view().legal_ids()[0])
    assert any("boom" in n for n in s.notices)
    assert s.bot_name(1) == "random" and type(s.table.players[1]) is RandomBot
