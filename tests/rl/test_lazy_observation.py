"""The AEC env's observations are encoded when first read (``_hand.Observation``):
read at once or long after, through any way of reading a dict, each equals the
vector freshly made of the seat's view (``paohuzi.core.views.view``, the one
hidden-information filter) of the state it was handed out in."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from paohuzi.core.rules import PRESETS  # noqa: E402
from paohuzi.core.views import view  # noqa: E402
from paohuzi.encoding.observation import encode, encode_history  # noqa: E402
from paohuzi.rl import paohuzi_v0  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def fresh(env: Any, seat: int) -> np.ndarray:
    """The seat's vector made now from its view, bypassing every cache."""
    v = view(env.unwrapped.hand.state, seat)
    obs = encode(v)
    if env.unwrapped.history:
        obs = np.concatenate((obs, encode_history(v, env.unwrapped.history)))
    return obs


def play_observing(
    env: Any, seed: int, read_at: Callable[[int, int], bool], backwards: bool = False
) -> int:
    """One hand of random masked play. At every step every agent is observed and
    its fresh vector recorded; ``read_at(step, seat)`` decides whether the
    observation is read at once or only when the hand is over (``backwards``:
    the last made first). Returns the observations compared."""
    env.reset(seed=seed)
    pick = random.Random(seed)
    later: list[tuple[dict[str, np.ndarray], np.ndarray]] = []
    step = compared = 0
    for agent in env.agent_iter():
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        for other in env.agents:
            seat = int(other.removeprefix("player_"))
            obs = env.observe(other)
            want = fresh(env, seat)
            compared += 1
            if read_at(step, seat):
                np.testing.assert_array_equal(obs["observation"], want)
            else:
                later.append((obs, want))
        mask = env.observe(agent)["action_mask"]
        env.step(pick.choice(np.flatnonzero(mask)))
        step += 1
    for obs, want in reversed(later) if backwards else later:  # after the hand ended
        np.testing.assert_array_equal(obs["observation"], want)
    return compared


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_seat_every_step_equals_a_fresh_observation(name: str) -> None:
    env = paohuzi_v0.env(rules=name)
    compared = 0
    for seed in range(3):
        # read now / later, alternating by step and seat, or all read late
        compared += play_observing(env, seed, lambda step, seat: (step + seat) % 2 == 0)
        compared += play_observing(env, 100 + seed, lambda step, seat: False)
        compared += play_observing(env, 200 + seed, lambda step, seat: False, backwards=True)
    assert compared > 200


def test_with_history() -> None:
    env = paohuzi_v0.env(rules="hunan", history=12)
    for seed in range(3):
        play_observing(env, seed, lambda step, seat: step % 3 == 0, backwards=seed == 1)


READS: dict[str, Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]]] = {
    "getitem": lambda o: {"observation": o["observation"], "action_mask": o["action_mask"]},
    "dict": dict,
    "unpack": lambda o: {**o},
    "items": lambda o: dict(list(o.items())),
    "keys": lambda o: {k: dict.__getitem__(o, k) for k in list(o.keys())},
    "iter": lambda o: {k: dict.__getitem__(o, k) for k in list(iter(o))},
    "values": lambda o: dict(zip(("observation", "action_mask"), list(o.values()), strict=True)),
    "get": lambda o: {"observation": o.get("observation"), "action_mask": o.get("action_mask")},
    "copy": lambda o: o.copy(),
    "copy.copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda o: pickle.loads(pickle.dumps(o)),
    "or": lambda o: {} | o,
    "update": lambda o: (d := {}, d.update(o), d)[2],
}


@pytest.mark.parametrize("how", sorted(READS))
def test_every_way_of_reading_gives_the_vector(how: str) -> None:
    env = paohuzi_v0.env(rules="hunan")
    env.reset(seed=7)
    pick = random.Random(7)
    for _ in range(30):  # into the hand: claim windows, melds, piles
        agent = env.agent_selection
        env.step(pick.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
        if env.terminations[env.agent_selection]:
            break
    for agent in env.agents:
        seat = int(agent.removeprefix("player_"))
        obs = env.observe(agent)
        assert obs.unread  # type: ignore[attr-defined]
        got = READS[how](obs)
        assert list(got) == ["observation", "action_mask"]
        np.testing.assert_array_equal(got["observation"], fresh(env, seat))
        np.testing.assert_array_equal(got["action_mask"], obs["action_mask"])
        assert list(dict.keys(obs)) == ["observation", "action_mask"]  # filled in place


def test_len_contains_eq_repr_fill_it() -> None:
    env = paohuzi_v0.env(rules="hunan")
    env.reset(seed=3)
    agent = env.agent_selection
    want = fresh(env, int(agent.removeprefix("player_")))
    for read in (len, lambda o: "observation" in o, repr, lambda o: o == {}):
        env.unwrapped._seen = {}  # a new, unread observation
        obs = env.observe(agent)
        assert obs.unread  # type: ignore[attr-defined]
        read(obs)
        assert not obs.unread  # type: ignore[attr-defined]
        assert len(obs) == 2 and "observation" in obs
        np.testing.assert_array_equal(dict.__getitem__(obs, "observation"), want)


def test_the_mask_alone_encodes_nothing() -> None:
    env = paohuzi_v0.env(rules="hunan")
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"].any()
    assert obs.unread  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_first_state_dealt_again_is_the_hand_dealt(name: str) -> None:
    """The timeline keeps a hand just dealt as its deck, dealer and 荒庄 count, and deals
    it again when an old observation is read: the same state as a copy would be — every
    event, every seat's view and legal actions — and it plays on the same."""
    from paohuzi.rl._hand import ObservedHand, Timeline, deal

    rules = PRESETS[name]
    rng = random.Random(name)
    for _ in range(4):
        state = deal(rules, rng)
        copied = state.clone()
        again = Timeline(ObservedHand(rules, state)).first()
        assert again is not state
        pick = random.Random(7)
        while True:
            assert again.events == copied.events
            for seat in copied.seats:
                assert view(again, seat) == view(copied, seat)
            if copied.is_terminal():
                assert again.is_terminal() and again.returns() == copied.returns()
                break
            seat = copied.current_player
            legal = copied.legal_actions(seat)
            assert again.legal_actions(seat) == legal
            act = pick.choice(legal)
            copied.apply(act)
            again.apply(act)
