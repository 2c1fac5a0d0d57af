"""The PettingZoo AEC environment: official API and seed tests, rewards, claims."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from paohuzi.core.action_index import ACTION_COUNT, index_of  # noqa: E402
from paohuzi.core.rules import PRESETS  # noqa: E402
from paohuzi.encoding.observation import OBSERVATION_SIZE, blocks  # noqa: E402
from paohuzi.rl import paohuzi_v0  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's dict-obs notes


def play(env, seed: int) -> dict[str, float]:
    """One hand of random masked play; the cumulative reward of each agent at its end."""
    env.reset(seed=seed)
    pick = random.Random(seed)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
        else:
            env.step(pick.choice(np.flatnonzero(obs["action_mask"])))
    return final


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_api(name: str) -> None:
    api_test(paohuzi_v0.env(rules=name), num_cycles=200)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_seed(name: str) -> None:
    seed_test(lambda: paohuzi_v0.env(rules=name), num_cycles=100)


def test_spaces() -> None:
    env = paohuzi_v0.env()
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["observation"].shape == (OBSERVATION_SIZE,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (ACTION_COUNT,)
    assert env.action_space("player_0").n == ACTION_COUNT
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


def test_rewards_are_the_net_payments() -> None:
    env = paohuzi_v0.env()
    wins = 0
    for seed in range(40):
        final = play(env, seed)
        scores = env.unwrapped.hand.state.returns()
        assert final == {f"player_{s}": float(scores[s]) for s in range(3)}
        assert sum(final.values()) == 0
        wins += any(final.values())
    assert wins > 0


def test_normalized_rewards() -> None:
    env = paohuzi_v0.env(normalize_rewards=True, reward_scale=2.0)
    seen = []
    for seed in range(40):
        final = play(env, seed)
        scores = env.unwrapped.hand.state.returns()
        for s, r in enumerate(scores):
            assert final[f"player_{s}"] == max(-1.0, min(1.0, r / 2.0))
        seen += final.values()
    assert max(seen) == 1.0 and min(seen) < 0  # payments do get scaled and clipped


def test_the_reward_scale_is_the_rules_field() -> None:
    """Without ``reward_scale=``, rewards divide by ``Rules.reward_scale``, whatever the name."""
    from paohuzi.core.rules import HUNAN

    env = paohuzi_v0.env(rules=HUNAN.replace(name="house", reward_scale=5), normalize_rewards=True)
    paid = 0
    for seed in range(40):
        final = play(env, seed)
        scores = env.unwrapped.hand.state.returns()
        assert final == {f"player_{s}": max(-1.0, min(1.0, r / 5)) for s, r in enumerate(scores)}
        paid += any(scores)
    assert paid > 0


def test_agents_act_in_engine_priority_order() -> None:
    env = paohuzi_v0.env()
    windows = 0
    for seed in range(10):
        env.reset(seed=seed)
        pick = random.Random(seed)
        for agent in env.agent_iter():
            obs, _r, term, _t, _i = env.last()
            if term:
                env.step(None)
                continue
            state = env.unwrapped.hand.state
            assert agent == f"player_{state.current_player}"
            legal = {index_of(a) for a in state.legal_actions(state.current_player)}
            assert set(np.flatnonzero(obs["action_mask"])) == legal
            # several seats deciding one window: the others wait their turn, and
            # each already sees its own options
            if len(state.to_act()) > 1:
                windows += 1
                for other in state.to_act()[1:]:
                    waiting = env.observe(f"player_{other}")
                    assert blocks(waiting["observation"])["deciding"][0] == 1.0
                    assert waiting["action_mask"].any()
            env.step(pick.choice(sorted(legal)))
    assert windows > 0


def test_luzhou_agents_are_the_seated_seats() -> None:
    env = paohuzi_v0.env(rules="luzhou")
    for seed in range(6):
        env.reset(seed=seed)
        state = env.unwrapped.hand.state
        assert len(env.possible_agents) == 4
        assert env.agents == [f"player_{s}" for s in state.seats] and len(env.agents) == 3


def test_illegal_action_ends_the_hand() -> None:
    env = paohuzi_v0.env()
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    env.step(bad)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1.0
    assert sum(env._cumulative_rewards.values()) == -1.0
    raw = paohuzi_v0.raw_env()
    raw.reset(seed=1)
    with pytest.raises(ValueError):
        raw.step(bad)
    with pytest.raises(ValueError):
        raw.step(ACTION_COUNT)


def test_seeds_only_through_reset() -> None:
    a, b = paohuzi_v0.env(), paohuzi_v0.env()
    a.reset(seed=9)
    random.seed(1)
    np.random.seed(1)
    b.reset(seed=9)
    sa, sb = a.unwrapped.hand.state, b.unwrapped.hand.state
    assert sa.deck == sb.deck and sa.dealer == sb.dealer
    a.reset()  # no seed: continues the seeded stream, deterministically
    b.reset()
    assert a.unwrapped.hand.state.deck == b.unwrapped.hand.state.deck
    assert a.unwrapped.hand.state.deck != sa.deck


def test_render_ansi() -> None:
    env = paohuzi_v0.env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    state = env.unwrapped.hand.state
    assert isinstance(text, str) and text.count("seat ") == len(state.seats)
    assert f"dealer {state.dealer}" in text
    assert paohuzi_v0.env().render() is None
