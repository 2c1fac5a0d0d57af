"""The single-agent Gymnasium environment (one seat against built-in bots)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import paohuzi.rl  # noqa: E402  (registers paohuzi/Paohuzi-v0)
from paohuzi.core.action_index import BASE_ACTION_COUNT, index_of  # noqa: E402
from paohuzi.encoding.observation import OBSERVATION_SIZE  # noqa: E402
from paohuzi.rl import paohuzi_v0  # noqa: E402
from paohuzi.rl.gym_env import PaohuziEnv  # noqa: E402


def test_registered_and_checked() -> None:
    env = gymnasium.make(paohuzi.rl.ENV_ID, rules="hunan", opponents="greedy")
    assert env.observation_space.shape == (OBSERVATION_SIZE,)
    assert env.action_space.n == BASE_ACTION_COUNT  # 914: hunan plays no 一五十
    check_env(env.unwrapped)


# a region's options by name too (core.variants: 衡阳 一息一囤 and 跟醒)
@pytest.mark.parametrize("rules", ["hunan", "luzhou", "hengyang:tun=1,xing=gen"])
def test_masked_episodes_end_with_the_learners_payment(rules: str) -> None:
    env = PaohuziEnv(rules=rules, opponents="random")
    pick = random.Random(0)
    for seed in range(15):
        obs, info = env.reset(seed=seed)
        me = info["seat"]
        assert me in env.hand.state.seats
        done = False
        while not done:
            state = env.hand.state
            assert state.current_player == me  # bots have played up to the learner
            mask = env.action_masks()
            assert mask.dtype == np.bool_
            assert np.array_equal(mask, info["action_mask"].astype(bool))
            legal = {index_of(a) for a in state.legal_actions(me)}
            assert set(np.flatnonzero(mask)) == legal
            obs, reward, done, truncated, info = env.step(pick.choice(sorted(legal)))
            assert not truncated and obs.shape == (OBSERVATION_SIZE,)
        assert reward == env.hand.state.returns()[me]


def test_fixed_seat_and_determinism() -> None:
    a = PaohuziEnv(rules="luzhou", opponents=["greedy", "random", "random"], seat=3)
    b = PaohuziEnv(rules="luzhou", opponents=["greedy", "random", "random"], seat=3)
    for seed in range(5):
        oa, ia = a.reset(seed=seed)
        ob, _ = b.reset(seed=seed)
        assert ia["seat"] == 3 and 3 in a.hand.state.seats
        assert np.array_equal(oa, ob)
        assert a.hand.state.deck == b.hand.state.deck


def test_illegal_action_ends_the_episode() -> None:
    env = PaohuziEnv(opponents="greedy", illegal_reward=-5.0)
    env.reset(seed=4)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, done, _trunc, info = env.step(bad)
    assert (reward, done, info["illegal_action"]) == (-5.0, True, True)
    # the episode is over: a step after it is an error, not the hand played on
    with pytest.raises(RuntimeError, match="reset"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.reset(seed=4)
    env.step(np.int64(np.flatnonzero(env.action_masks())[0]))  # NumPy integers are indices


@pytest.mark.parametrize("bad", [3.7, 914, -1, "3", None])
def test_what_is_no_action_index_is_an_error(bad: object) -> None:
    """Outside the space, or not an integer (3.7 was truncated to 3): ValueError, in
    both envs alike (Gymnasium's took 914 as an illegal action), and nothing changes."""
    env = PaohuziEnv(opponents="greedy")
    env.reset(seed=4)
    before = len(env.hand.state.events)
    with pytest.raises(ValueError, match="action"):
        env.step(bad)
    assert len(env.hand.state.events) == before
    aec = paohuzi_v0.raw_env()  # (wrapped, PettingZoo's own bounds check speaks first)
    aec.reset(seed=1)
    agent = aec.agent_selection
    with pytest.raises(ValueError, match="action"):
        aec.step(bad)
    assert aec.agent_selection == agent and not any(aec.terminations.values())


def test_normalized_rewards_are_clipped() -> None:
    env = PaohuziEnv(opponents="random", normalize_rewards=True, reward_scale=1.0)
    rewards = []
    for seed in range(30):
        env.reset(seed=seed)
        done = False
        while not done:
            _o, r, done, _t, _i = env.step(int(np.flatnonzero(env.action_masks())[0]))
        rewards.append(r)
        assert -1.0 <= r <= 1.0
        assert r == max(-1.0, min(1.0, float(env.hand.state.returns()[env._me])))
    assert any(r != 0 for r in rewards)
