"""Reward modes, the optional history block, OpenSpiel's utility bounds (issue 26, item 6)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from paohuzi.core.rules import PRESETS, preset  # noqa: E402
from paohuzi.core.state import GameState  # noqa: E402
from paohuzi.core.views import view  # noqa: E402
from paohuzi.encoding.observation import (  # noqa: E402
    CHI_GROUPS,
    EVENT_FEATURES,
    HISTORY_EVENTS,
    OBSERVATION_SIZE,
    encode,
    encode_history,
)
from paohuzi.rl import paohuzi_v0  # noqa: E402
from paohuzi.rl._hand import RewardMode, Rewards, payment_bound  # noqa: E402
from paohuzi.rl.gym_env import PaohuziEnv  # noqa: E402

from .helpers import random_states  # noqa: E402


def finish(env: PaohuziEnv, seed: int) -> tuple[float, int]:
    _obs, info = env.reset(seed=seed)
    done, r = False, 0.0
    while not done:
        _obs, r, done, _t, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    return r, env.hand.state.returns()[info["seat"]]


def test_reward_modes() -> None:
    payment = PaohuziEnv(opponents="random", reward_mode="payment")
    scaled = PaohuziEnv(opponents="random", reward_mode="scaled", reward_scale=4)
    winloss = PaohuziEnv(opponents="random", reward_mode="win_loss")
    signs = set()
    for seed in range(25):
        (rp, pay), (rs, _), (rw, _) = (
            finish(payment, seed),
            finish(scaled, seed),
            finish(winloss, seed),
        )
        assert rp == pay
        assert rs == max(-1.0, min(1.0, pay / 4))
        assert rw == (pay > 0) - (pay < 0)
        signs.add(rw)
    assert {-1.0, 1.0} <= signs
    assert Rewards.of(preset("hunan"), normalize=True) == Rewards(RewardMode.SCALED, 48.0)
    with pytest.raises(ValueError, match="reward_mode must be one of"):
        PaohuziEnv(reward_mode="elo")
    with pytest.raises(ValueError, match="normalize_rewards"):
        PaohuziEnv(reward_mode="win_loss", normalize_rewards=True)


def test_aec_win_loss_rewards_sum_of_signs() -> None:
    env = paohuzi_v0.env(reward_mode="win_loss")
    pick = random.Random(1)
    for seed in range(10):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, term, _t, _i = env.last()
            if term:
                pay = env.unwrapped.hand.state.returns()[int(agent[-1])]
                assert reward == (pay > 0) - (pay < 0)
                env.step(None)
                continue
            env.step(pick.choice(list(np.flatnonzero(obs["action_mask"]))))


def test_history_block_is_the_last_events() -> None:
    env = PaohuziEnv(opponents="greedy", history=16)
    assert env.observation_space.shape == (OBSERVATION_SIZE + 16 * EVENT_FEATURES,)
    obs, info = env.reset(seed=2)
    for _ in range(4):
        v = view(env.hand.state, info["seat"])
        assert np.array_equal(obs[:OBSERVATION_SIZE], encode(v))
        block = obs[OBSERVATION_SIZE:].reshape(16, EVENT_FEATURES)
        assert block.any(axis=1).sum() == min(16, len(v.log))
        full = encode_history(v).reshape(HISTORY_EVENTS, EVENT_FEATURES)
        k = min(16, len(v.log))
        assert np.array_equal(block[:k], full[len(v.log) - k : len(v.log)])
        obs, _r, done, _t, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if done:
            break
    aec = paohuzi_v0.env(history=8)
    aec.reset(seed=0)
    assert aec.observe(aec.agent_selection)["observation"].shape == (OBSERVATION_SIZE + 8 * 87,)
    for bad in (-1, HISTORY_EVENTS + 1):
        with pytest.raises(ValueError, match="history"):
            PaohuziEnv(history=bad)


def test_history_rows_stay_in_the_space() -> None:
    """A 吃 and its 比 of the same group (one hand in six) read 1.0, a group alone 0.5:
    every value in [0, 1] as the observation space says (it once read 2.0)."""
    alike = 0
    for state in random_states(preset("hunan"), hands=40, seed=1):
        for seat in state.seats:
            v = view(state, seat)
            h = encode_history(v, 32)
            assert h.min() >= 0.0 and h.max() <= 1.0
            rows = h.reshape(32, EVENT_FEATURES)[:, -len(CHI_GROUPS) :]
            for e, row in zip(v.log[-32:], rows, strict=False):
                groups = e.get("groups", ())
                assert row.sum() == 0.5 * len(groups)
                alike += len(set(map(frozenset, groups))) < len(groups)
    assert alike, "no 吃 with a 比 of the same group met"
    env = paohuzi_v0.env(history=8)
    env.reset(seed=1000)  # the seed that read 2.0
    rng = random.Random(0)
    for agent in env.agent_iter(400):
        obs, _r, term, trunc, _i = env.last()
        assert env.observation_space(agent).contains(obs)
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_history_reveals_nothing_hidden() -> None:
    """The history block comes from the view alone: redrawing hidden cards keeps it."""
    from paohuzi.core.player import NoConsistentWorld, Observation

    rng = random.Random(3)
    checked = 0
    for k, state in enumerate(random_states(preset("hunan"), hands=2, seed=4)):
        if k % 7:
            continue
        seat = state.seats[k % 3]
        try:
            other = Observation(state, seat).determinize(rng)
        except NoConsistentWorld:
            continue
        assert np.array_equal(
            encode_history(view(other, seat), 32), encode_history(view(state, seat), 32)
        )
        checked += 1
    assert checked >= 5


def test_payment_bounds_hold_and_use_the_cap() -> None:
    """OpenSpiel's utility bounds: 娄底's 封顶 200 (+ its 荒庄 penalty) exactly; every
    preset's bound holds over random hands at every player count."""
    loudi = PRESETS["loudi"]
    assert payment_bound(loudi) == loudi.cap + loudi.race.huangzhuang_penalty
    for name, rules in PRESETS.items():
        bound = payment_bound(rules)
        seen = 0
        for h in range(30):
            st = GameState(rules, seed=h)
            pick = random.Random(h)
            while not st.is_terminal():
                st.apply(pick.choice(st.legal_actions(st.current_player)))
            seen = max(seen, *map(abs, st.returns()))
        assert bound > 0 and seen <= bound, name


def test_openspiel_utility_bounds() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import paohuzi.rl.openspiel  # noqa: F401

    for name in ("hunan", "loudi"):
        game = pyspiel.load_game("python_paohuzi", {"rules": name})
        b = payment_bound(PRESETS[name])
        assert (game.min_utility(), game.max_utility()) == (-b, b)
