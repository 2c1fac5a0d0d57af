"""The encoder reuses a seat's slot block (seated, dealer, turn, hand size, melds,
pile, discarded kinds) made for an earlier view when its inputs are equal
(issue 27): every vector must equal, bit for bit, the one made without reuse —
and, with the C kernel built, :func:`encode` is the kernel's ``Encoder``: it must
equal both Python paths too."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from paohuzi.core.rules import PRESETS  # noqa: E402
from paohuzi.core.state import GameState  # noqa: E402
from paohuzi.core.views import view  # noqa: E402
from paohuzi.encoding.observation import _encode, encode  # noqa: E402


def _same(state: GameState, seats: list[int]) -> int:
    for seat in seats:
        v = view(state, seat)
        shared = _encode(v, True)
        plain = _encode(v, False).tobytes()
        assert shared.tobytes() == plain
        assert _encode(v, True).tobytes() == plain  # a hit gives the same again
        assert encode(v).tobytes() == plain  # the kernel's, when built
    return len(seats)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_seat_every_step_equals_the_plain_encoding(name: str) -> None:
    """Two hands played in turn (blocks of the other hand are in the memo), every
    seat encoded at every step in a shuffled order, the acting seat last."""
    compared = 0
    for seed in range(0, 6, 2):
        hands = [GameState(PRESETS[name], seed), GameState(PRESETS[name], seed + 1)]
        rngs = [random.Random(seed), random.Random(seed + 1)]
        while not all(s.is_terminal() for s in hands):
            for s, rng in zip(hands, rngs, strict=True):
                seats = list(range(s.n))
                rng.shuffle(seats)
                if not s.is_terminal():
                    seats.remove(s.current_player)
                    seats.append(s.current_player)
                compared += _same(s, seats)
                if not s.is_terminal():
                    s.apply(rng.choice(s.legal_actions(s.current_player)))
    assert compared > 200


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_one_hand_at_a_time_equals_the_plain_encoding(name: str) -> None:
    """As an environment asks: one hand, the acting seat at every step and every
    seat at every third (blocks reused across steps as well as seats)."""
    compared = 0
    for seed in range(8):
        s, rng = GameState(PRESETS[name], seed), random.Random(seed)
        step = 0
        while not s.is_terminal():
            seat = s.current_player
            compared += _same(s, list(range(s.n)) if step % 3 == 0 else [seat])
            s.apply(rng.choice(s.legal_actions(seat)))
            step += 1
        compared += _same(s, list(range(s.n)))
    assert compared > 200
