"""The Table driver: bots and outside players through one set of verbs (R6, R16, R38)."""

from __future__ import annotations

import random

import pytest

from paohuzi.bots import make_bot
from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.player import Bot, Observation
from paohuzi.core.rules import HUNAN, LUZHOU
from paohuzi.core.state import GameState
from paohuzi.sim.runner import play_hand
from paohuzi.table import Table


class Broken(Bot):
    name = "broken"

    def act(self, obs: Observation, rng: random.Random) -> Action:
        raise RuntimeError("no idea")


def test_bot_hand_equals_self_play() -> None:
    """A table of bots plays a seeded hand exactly as self-play does (same seeds, same RNGs)."""
    bots = [make_bot("greedy"), make_bot("random"), make_bot("greedy")]
    for seed in range(5):
        t = Table(bots, HUNAN)
        res = t.play_hand(GameState(HUNAN, seed))
        ref = play_hand(HUNAN, seed, bots)
        assert res == ref.result and t.decisions == ref.decisions
        rec = t.record()
        assert rec.check() == [] and dict(rec.extra)["bots"] == ["greedy", "random", "greedy"]


def test_outside_seat_is_waited_for_and_bots_never_wait() -> None:
    """R16: in a claim window bots decide first; the table then waits for seat 0 only."""
    rng = random.Random(4)
    t = Table([None, make_bot("greedy"), make_bot("random")], HUNAN, seed=11, hands=2)
    moves = 0
    while not t.match.is_over():
        t.deal()
        while not t.is_hand_over():
            t.run_bots()
            if t.is_hand_over():
                break
            assert t.next_bot() is None and t.waiting_for() == [0]
            assert set(t.to_act()) >= {0}
            st = t.state
            legal = st.legal_action_ids(0)
            with pytest.raises(IllegalAction):
                t.apply_id(1, legal[0])  # not seat 1's decision
            t.apply_id(0, rng.choice(legal))
            moves += 1
        res = t.finish_hand()
        assert sum(res.scores) == 0
    assert moves > 5 and t.match.index == 2


def test_broken_bot_gets_a_stand_in_only_when_asked() -> None:
    bots: list[Bot | None] = [make_bot("random"), Broken(), make_bot("random")]
    with pytest.raises(RuntimeError, match="no idea"):
        Table(bots, HUNAN).play_hand(GameState(HUNAN, 1))
    t = Table(bots, HUNAN, stand_in=True)
    res = t.play_hand(GameState(HUNAN, 1))
    assert res is t.state.result and t.players[1].name == "random"
    assert len(t.notices) == 1 and "broken" in t.notices[0]


def test_choose_on_a_clone_leaves_the_hand_alone() -> None:
    """A bot may think on a copy (another thread); the table applies its answer after."""
    t = Table([make_bot("greedy")] * 3, HUNAN)
    st = t.deal(GameState(HUNAN, 2))
    before = len(st.events)
    seat = t.next_bot()
    action = t.choose(seat, st.clone())
    assert len(st.events) == before
    t.apply(action)
    assert len(st.events) > before


def test_play_whole_match() -> None:
    """R6/R38: play() deals every hand of the match; scores are the sums of the hands."""
    t = Table([make_bot("random")] * 4, LUZHOU, seed=3, hands=6)
    scores = t.play()
    assert t.match.is_over() and len(t.match.results) == 6
    assert scores == [sum(r.scores[p] for r in t.match.results) for p in range(4)]
    assert sum(scores) == 0


def test_players_must_fill_every_seat() -> None:
    with pytest.raises(ValueError, match="3 seats need 3 players"):
        Table([None, None], HUNAN)
