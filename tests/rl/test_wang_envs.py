"""The RL environments with 王 (R39): PettingZoo's ``api_test`` and Gymnasium's
``check_env`` hold, every legal action (a 胡 on a drawn 王 included) round-trips
through the action index, and hands play to their end with the payment as reward."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from paohuzi.core.rules import HUNAN  # noqa: E402
from paohuzi.rl import paohuzi_v0  # noqa: E402
from paohuzi.rl.gym_env import PaohuziEnv  # noqa: E402

from .test_pettingzoo import play  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("wang", [1, 4])
def test_pettingzoo_with_wang(wang: int) -> None:
    rules = HUNAN.replace(wang=wang)
    env = paohuzi_v0.env(rules=rules)
    api_test(env, num_cycles=60)
    for seed in range(6):
        final = play(env, seed)
        scores = env.unwrapped.hand.state.returns()
        assert final == {f"player_{s}": float(scores[s]) for s in range(rules.players)}


def test_gymnasium_with_wang() -> None:
    env = PaohuziEnv(rules=HUNAN.replace(wang=2), opponents="greedy")
    check_env(env)
    pick = random.Random(1)
    for seed in range(4):
        _obs, info = env.reset(seed=seed)
        me, done, reward = info["seat"], False, 0.0
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _obs, reward, done, truncated, info = env.step(int(pick.choice(legal)))
            assert not truncated
        assert reward == env.hand.state.returns()[me]


def test_every_legal_action_round_trips_through_the_index_with_wang() -> None:
    """R39: the action enumeration is unchanged by 王 — a 胡 on a drawn 王 is the one
    ``hu`` index — and every legal action maps to an index and back to itself."""
    from paohuzi.core.action_index import action_for, index_of
    from paohuzi.core.cards import Card
    from paohuzi.core.state import GameState

    seen_wang_hu = 0
    for seed in range(40):
        st = GameState(HUNAN.replace(wang=4), seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            for p in st.to_act():
                for a in st.legal_actions(p):
                    b = action_for(index_of(a), p)
                    assert b.matches(a) and index_of(b) == index_of(a)
                    seen_wang_hu += a.type == "hu" and a.card is Card.W
            acts = st.legal_actions(st.current_player)
            st.apply(rng.choice(acts))
    assert seen_wang_hu > 0
