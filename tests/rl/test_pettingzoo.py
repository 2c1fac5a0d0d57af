"""The PettingZoo AEC environment: official API and seed tests, rewards, claims."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from paohuzi.core.action_index import BASE_ACTION_COUNT, PASS_INDEX, index_of  # noqa: E402
from paohuzi.core.rules import PRESETS  # noqa: E402
from paohuzi.encoding.observation import OBSERVATION_SIZE  # noqa: E402
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
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (BASE_ACTION_COUNT,)
    assert env.action_space("player_0").n == BASE_ACTION_COUNT
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


@pytest.mark.parametrize("rules", ["hunan", "luzhou"])
def test_claim_windows_reveal_nothing_through_the_order_of_agents(rules: str) -> None:
    """Issue 26 item 5: in a claim window every seated seat is asked once, in play
    order from the open card's owner, whatever its options (a seat without any
    gets a mask of only 过); the old env asked only the seats with options, in
    R16 priority order, so ``agent_iter`` showed who could claim. Sealed
    decisions then reach the engine in priority order: the claim that wins is
    the highest-priority one taken."""
    env = paohuzi_v0.env(rules=rules)
    windows = forced = contested = 0
    for seed in range(12):
        env.reset(seed=seed)
        pick = random.Random(seed)
        asked: list[int] = []
        for agent in env.agent_iter():
            obs, _r, term, _t, _i = env.last()
            if term:
                env.step(None)
                continue
            state = env.unwrapped.hand.state
            seat = int(agent.removeprefix("player_"))
            mask = set(np.flatnonzero(obs["action_mask"]))
            if state.phase != "claim":
                assert seat == state.current_player and not asked
                env.step(pick.choice(sorted(mask)))
                continue
            if not asked:  # a window opens: remember what the engine would ask
                owner = state.open_card[1]
                n = env.unwrapped.rules.players
                order = [s for k in range(n) if (s := (owner + k) % n) in state.seats]
                pending = state.to_act()
                window_legal = {s: {index_of(a) for a in state.legal_actions(s)} for s in order}
                decided: dict[int, int] = {}
                windows += 1
            asked.append(seat)
            assert seat == order[len(asked) - 1]
            if window_legal[seat]:
                assert mask == window_legal[seat]
            else:
                assert mask == {PASS_INDEX}
                forced += 1
            # the env's legal map (filled at the window's opening for the seats not
            # deciding) is the engine's
            assert set(env.unwrapped.hand.legal(seat)) == window_legal[seat]
            # claim whenever possible, so that claims compete
            choice = min(mask - {PASS_INDEX}, default=PASS_INDEX, key=lambda i: (i == 40, i))
            decided[seat] = choice
            env.step(choice)
            if len(asked) == len(order):
                takers = [s for s in pending if decided[s] != PASS_INDEX]
                if len(takers) > 1:
                    contested += 1
                    winner = takers[0]
                    last = env.unwrapped.hand.state.actions
                    taken = [a for a in last[-len(pending) :] if a.seat == winner]
                    assert taken and index_of(taken[-1]) == decided[winner]
                asked = []
            else:  # nothing is applied before the last seat answers
                assert env.unwrapped.hand.state.to_act() == pending
    assert windows > 20 and forced > 10 and contested >= 1


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
        raw.step(BASE_ACTION_COUNT)


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
