"""sim.runner.play_hand: seeded, complete hands; a bot's illegal action is refused."""

from __future__ import annotations

import random

import pytest

from paohuzi.bots import Bot, Observation, make_bot
from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.match import Match
from paohuzi.core.records import check, replay
from paohuzi.core.rules import CHANGDE, HUNAN
from paohuzi.sim.runner import derive_seed, play_hand, play_match, run_tasks


class Cheater(Bot):
    name = "cheater"

    def act(self, obs: Observation, rng: random.Random) -> Action:
        return Action("hu", obs.seat)  # not legal at almost every decision


def test_play_hand_is_seeded_and_replays():
    bots = [make_bot("greedy"), make_bot("random"), make_bot("random")]
    a = play_hand(HUNAN, 17, bots, record=True)
    b = play_hand(HUNAN, 17, bots, record=True)
    assert a.scores == b.scores and a.record["actions"] == b.record["actions"]
    assert sum(a.scores) == 0 and a.decisions[0] > 0
    state = replay(a.record)  # §4: the record alone re-deals and re-checks the hand
    assert state.returns() == a.scores


def test_illegal_bot_action_raises():
    with pytest.raises(IllegalAction):
        play_hand(HUNAN, 1, [Cheater(), make_bot("random"), make_bot("random")])


def test_derive_seed_is_stable_and_spread():
    assert derive_seed("x", 1) == derive_seed("x", 1)
    assert len({derive_seed("arena", 0, i) for i in range(1000)}) == 1000
    assert 0 <= derive_seed(5) < 2**63


def test_run_tasks_keeps_order():
    assert run_tasks(abs, [-3, 1, -2, 5, -8], workers=2) == [3, 1, 2, 5, 8]


def test_play_match_deals_through_match():
    """play_match plays the hands Match deals (R6 dealers, R38 totals, 黄番 streaks)."""
    bots = [make_bot("random")] * 3
    m = play_match(CHANGDE, 21, bots, hands=10, record=True)
    ref = Match(CHANGDE, 21, hands=10)
    assert [h.seed for h in m.hands] == ref.hand_seeds
    assert m.hands[0].dealer == ref.dealer
    assert m.scores == [sum(h.scores[s] for h in m.hands) for s in range(3)]
    streak = 0
    for h in m.hands:
        assert h.huang == h.record["huang"] == streak and check(h.record) == []
        streak = streak + 1 if h.huangzhuang else 0
    again = play_match(CHANGDE, 21, bots, hands=10)
    assert [h.scores for h in again.hands] == [h.scores for h in m.hands]
    assert again.hands[0].record is None
