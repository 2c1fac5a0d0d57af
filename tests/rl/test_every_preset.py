"""Issue 22: the RL environments take every preset at every seat count it allows.

PettingZoo's ``api_test`` on the AEC env and Gymnasium's ``check_env`` on the
single-agent env, per preset — 桂林 (醒, R42), 衡阳 (14-card hands, 5 门子, R43),
娄底 (息 and race payments, R45) included — at 2, 3 and 4 seats (4 with 坐底 where
four 20-card hands do not fit, R7). The presets' own seat counts are in
test_pettingzoo.py; here the others, and a hand played to its end at each.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from paohuzi.core.rules import PRESETS  # noqa: E402
from paohuzi.rl import paohuzi_v0  # noqa: E402
from paohuzi.rl.gym_env import PaohuziEnv  # noqa: E402

from .test_pettingzoo import play  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

OTHER_COUNTS = [
    (name, n) for name in sorted(PRESETS) for n in (2, 3, 4) if n != PRESETS[name].players
]


@pytest.mark.parametrize(("name", "players"), OTHER_COUNTS, ids=lambda x: str(x))
def test_pettingzoo_api_at_every_seat_count(name: str, players: int) -> None:
    rules = PRESETS[name].with_players(players)
    env = paohuzi_v0.env(rules=rules)
    api_test(env, num_cycles=60)
    assert env.possible_agents == [f"player_{s}" for s in range(players)]
    # one hand of masked random play ends with each agent's payment as its reward
    final = play(env, players)
    scores = env.unwrapped.hand.state.returns()
    dealt = env.unwrapped.hand.state.seats
    assert {a: final[a] for a in final} == {f"player_{s}": float(scores[s]) for s in dealt}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_gymnasium_check_env(name: str) -> None:
    """``check_env`` and a few masked episodes per preset: the reward is the learner's
    payment in the preset's own units (息 for 娄底)."""
    env = PaohuziEnv(rules=name, opponents="greedy")
    check_env(env)
    pick = random.Random(1)
    for seed in range(3):
        _obs, info = env.reset(seed=seed)
        me, done, reward = info["seat"], False, 0.0
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _obs, reward, done, truncated, info = env.step(int(pick.choice(legal)))
            assert not truncated
        assert reward == env.hand.state.returns()[me]
