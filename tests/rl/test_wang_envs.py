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


def test_pattern_wins_in_the_mask_and_through_step() -> None:
    """R41: with the pattern 番, the PettingZoo mask holds exactly the engine's legal
    indices — the ``hu:<pattern>`` ones (908 + slot) included — and a pattern index
    sent to ``step`` is the 胡 the engine settles (its ``pattern`` on the hu event)."""
    from paohuzi.core.action_index import PATTERN_BASE, index_of
    from paohuzi.core.position import WangPattern
    from paohuzi.core.vocab import EventType

    rules = HUNAN.replace(wang=4, wang_fan=(4, 8, 8, 16, 16, 32))
    env = paohuzi_v0.env(rules=rules)
    offered = won = 0
    for seed in range(40):
        env.reset(seed=seed)
        pick = random.Random(seed)
        state = env.unwrapped.hand.state
        chosen: dict[int, str] = {}  # seat → pattern it sent
        for agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = int(agent.split("_")[1])
            mask = np.flatnonzero(obs["action_mask"])
            asked = seat in state.to_act()
            legal = {index_of(a) for a in state.legal_actions(seat)} if asked else set()
            assert set(mask) == (legal or {paohuzi_v0.PASS_INDEX})
            pats = [int(i) for i in mask if i >= PATTERN_BASE]
            if pats:
                offered += 1
                i = pick.choice(pats)
                chosen[seat] = tuple(WangPattern)[i - PATTERN_BASE].value
                env.step(i)
            else:
                env.step(int(pick.choice(mask)))
        for e in state.events:
            if e.type is EventType.HU and dict(e.data).get("pattern"):
                assert dict(e.data)["pattern"] == chosen[e.seat]
                won += 1
    assert offered > 0 and won > 0, (offered, won)
