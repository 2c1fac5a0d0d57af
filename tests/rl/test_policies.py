"""Opponents as any policy, self-play pools, ``module:attr`` players, action names (issue 26, item 3)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

import paohuzi.rl  # noqa: E402  (registers paohuzi/Paohuzi-v0)
from paohuzi.bots.greedy import GreedyBot  # noqa: E402
from paohuzi.bots.policy import PolicyBot, as_bot, load_policy  # noqa: E402
from paohuzi.core.action_index import ACTION_COUNT, BASE_ACTION_COUNT, action_meaning, index_of  # noqa: E402
from paohuzi.core.player import RandomBot  # noqa: E402
from paohuzi.encoding.observation import OBSERVATION_SIZE, blocks  # noqa: E402
from paohuzi.rl.gym_env import PaohuziEnv  # noqa: E402
from paohuzi.rl.selfplay import SelfPlay  # noqa: E402


def first_legal(obs: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def play(env: gymnasium.Env, seed: int) -> list[np.ndarray]:
    obs, _ = env.reset(seed=seed)
    seen, done = [obs], False
    while not done:
        obs, _r, done, _t, _i = env.step(first_legal(obs, env.unwrapped.action_masks()))
        seen.append(obs)
    return seen


def test_a_bot_object_is_an_opponent() -> None:
    """The researcher's error: ``'GreedyBot' object has no attribute 'partition'``."""
    by_spec = PaohuziEnv(opponents="greedy")
    by_object = PaohuziEnv(opponents=GreedyBot())
    for seed in range(3):
        a, b = play(by_spec, seed), play(by_object, seed)
        assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_a_callable_is_an_opponent_and_sees_an_observation_and_mask() -> None:
    calls: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        calls.append((obs, mask))
        return first_legal(obs, mask)

    env = PaohuziEnv(opponents=[policy, "random"])
    for seed in range(4):
        play(env, seed)
    assert calls
    for obs, mask in calls:
        assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
        assert mask.shape == (BASE_ACTION_COUNT,) and mask.sum() >= 1
        assert blocks(obs)["deciding"][0] == 1.0  # the policy's own seat must decide
    assert isinstance(env.bots[min(env.bots)], PolicyBot | RandomBot)


def test_a_policy_choosing_an_illegal_action_is_a_clear_error() -> None:
    bot = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]), name="bad")
    env = PaohuziEnv(opponents=bot, seat=1)
    with pytest.raises(ValueError, match=r"policy bad chose action \d+, which is not legal"):
        for seed in range(5):
            play(env, seed)
    with pytest.raises(TypeError):
        PolicyBot(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one opponent or 2"):
        PaohuziEnv(opponents=["greedy"] * 4)


def test_load_policy_module_attr(tmp_path, monkeypatch) -> None:
    (tmp_path / "my_policies.py").write_text(
        "import numpy as np\n"
        "from paohuzi.bots.greedy import GreedyBot\n"
        "def first(obs, mask):\n    return int(np.flatnonzero(mask)[0])\n"
        "class Mine(GreedyBot):\n    name = 'mine'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert isinstance(load_policy("my_policies:first"), PolicyBot)
    assert load_policy("my_policies:first").name == "my_policies:first"
    assert load_policy("my_policies:Mine").name == "mine"
    assert isinstance(as_bot("my_policies:Mine"), GreedyBot)
    assert isinstance(as_bot("greedy"), GreedyBot)
    with pytest.raises(ValueError, match="cannot import"):
        load_policy("no_such_module_here:first")
    with pytest.raises(ValueError, match="no attribute"):
        load_policy("my_policies:second")
    with pytest.raises(ValueError, match="bad options"):
        as_bot("ismcts:nonsense=1")  # a bot spec with options is still a bot spec


def test_self_play_pool() -> None:
    seen_names = set()
    env = SelfPlay(gymnasium.make(paohuzi.rl.ENV_ID), pool=["greedy"], max_size=2)
    for k in range(3):
        env.add(first_legal, name=f"past{k}")
    assert [b.name for b in env.pool] == ["greedy", "past1", "past2"]  # oldest added dropped
    draws = []
    for seed in range(12):
        env.reset(seed=seed)
        draws.append([b.name for b in env.last_opponents])
        seen_names.update(draws[-1])
        assert env.unwrapped.bots and set(env.unwrapped.bots.values()) <= set(env.pool)
    assert seen_names == {"greedy", "past1", "past2"}
    again = SelfPlay(gymnasium.make(paohuzi.rl.ENV_ID), pool=["greedy"], max_size=2)
    for k in range(3):
        again.add(first_legal, name=f"past{k}")
    for seed in range(12):
        again.reset(seed=seed)
        assert [b.name for b in again.last_opponents] == draws[seed]  # seeded
    obs, _ = env.reset(seed=0)
    _o, _r, _d, _t, _i = env.step(first_legal(obs, env.action_masks()))


def test_action_meaning() -> None:
    env = PaohuziEnv()
    _obs, info = env.reset(seed=0)
    for i in np.flatnonzero(env.action_masks()):
        legal = {index_of(a): a for a in env.hand.state.legal_actions(info["seat"])}
        assert env.action_meaning(int(i)).split(":")[0] == str(legal[int(i)].type)
    assert [action_meaning(i) for i in (0, 20, 40, 41)] == ["discard:x1", "peng:x1", "hu", "pass"]
    assert action_meaning(907).startswith("chi:d10:")
    with pytest.raises(ValueError):
        action_meaning(ACTION_COUNT)


def test_policy_opponents_see_the_history_block_the_learner_sees() -> None:
    """A snapshot of a learner trained with ``history=K`` expects K events too."""
    sizes: set[int] = set()

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        sizes.add(obs.shape[0])
        return first_legal(obs, mask)

    env = PaohuziEnv(opponents=policy, history=8)
    pool = SelfPlay(gymnasium.make(paohuzi.rl.ENV_ID, history=8), pool=[policy])
    pool.add(policy, name="past")
    for seed in range(3):
        play(env, seed)
        play(pool, seed)
    assert sizes == {env.observation_space.shape[0]} == {OBSERVATION_SIZE + 8 * 87}


def test_a_snapshot_of_a_learnt_model_is_frozen() -> None:
    """``sb3_policy(model, snapshot=True)`` after learning (docs/rl.md's self-play block):
    it once deep-copied the network, which fails once the model has learnt (tensors of
    its last forward pass are not copyable). The snapshot plays as the model did when
    taken, and keeps doing so while the model learns on."""
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO

    from paohuzi.bots.policy import sb3_policy

    env = SelfPlay(gymnasium.make(paohuzi.rl.ENV_ID), pool=["random"])
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(64)
    frozen = sb3_policy(model, snapshot=True, deterministic=True)
    obs, info = env.reset(seed=1)
    mask = info["action_mask"]
    before = {k: v.clone() for k, v in model.policy.state_dict().items()}
    first = frozen(obs, mask)
    assert mask[first]
    model.learn(64)
    assert any((before[k] != v).any() for k, v in model.policy.state_dict().items())
    assert frozen(obs, mask) == first  # the copy did not learn with the model
    env.add(frozen, name="past")  # and it sits in a self-play pool
    play(env, 2)
