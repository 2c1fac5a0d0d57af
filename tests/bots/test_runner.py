"""sim.runner.play_hand: seeded, complete hands; a bot's illegal action is refused."""

from __future__ import annotations

import random

import pytest

from paohuzi.bots import Bot, Observation, make_bot
from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.records import replay
from paohuzi.core.rules import HUNAN
from paohuzi.sim.runner import derive_seed, play_hand, run_tasks


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
