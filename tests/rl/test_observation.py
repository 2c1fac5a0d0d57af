"""The observation vector: layout, range, and no hidden information."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from paohuzi.core.determinize import NoConsistentWorld, hidden_from, resample  # noqa: E402
from paohuzi.core.rules import PRESETS, preset  # noqa: E402
from paohuzi.core.state import GameState  # noqa: E402
from paohuzi.core.views import view  # noqa: E402
from paohuzi.encoding.observation import LAYOUT, OBSERVATION_SIZE, blocks, encode  # noqa: E402

from .helpers import random_states  # noqa: E402


def test_layout_tiles_the_vector() -> None:
    at = 0
    for _name, offset, size in LAYOUT:
        assert offset == at and size > 0
        at += size
    assert at == OBSERVATION_SIZE
    assert len({name for name, _, _ in LAYOUT}) == len(LAYOUT)


def test_opening_observation_reads_the_view() -> None:
    state = GameState(preset("hunan"), seed=5)
    seat = state.current_player
    v = view(state, seat)
    b = blocks(encode(v))
    # own hand: count per kind / 4
    counts = [0] * 20
    for c in state.hand(seat):
        counts[c] += 1
    assert b["hand"].tolist() == [n / 4 for n in counts]
    assert b["phase"].tolist() == [0.0, 1.0, 0.0]  # the dealer discards first
    assert b["seat0.turn"][0] == 1.0 and b["deciding"][0] == 1.0
    assert b["seat0.dealer"][0] == float(seat == state.dealer)
    assert b["seat3.seated"][0] == 0.0  # three players: slot 3 is empty
    assert b["rules"].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert b["liangzhang"][state.liangzhang] == 1.0  # shown under hunan
    assert b["wall"][0] == pytest.approx(state.wall_left / 80)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_values_are_in_range(name: str) -> None:
    for i, state in enumerate(random_states(PRESETS[name], hands=40, seed=2)):
        if i % 3:
            continue
        for seat in state.seats:
            o = encode(view(state, seat))
            assert o.dtype == np.float32 and o.shape == (OBSERVATION_SIZE,)
            assert o.min() >= 0.0 and o.max() <= 1.0


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_no_leak_across_resampled_worlds(name: str) -> None:
    """Redrawing every card a seat cannot see leaves its observation unchanged."""
    rng = random.Random(7)
    checked = differed = 0
    for i, state in enumerate(random_states(PRESETS[name], hands=120, seed=3)):
        if i % 4:
            continue
        for seat in state.seats:
            if not hidden_from(state, seat):
                continue
            mine = encode(view(state, seat))
            try:
                world = resample(state, seat, rng)
            except NoConsistentWorld:
                continue
            others = [t for t in state.seats if t != seat]
            differed += any(world.hand(t) != state.hand(t) for t in others)
            assert np.array_equal(encode(view(world, seat)), mine), (name, i, seat)
            checked += 1
    assert checked > 300
    assert differed > checked // 2  # the hidden cards really were redrawn


def test_observation_changes_with_what_the_seat_sees() -> None:
    # the converse of the leak test: visible differences do show
    state = GameState(preset("hunan"), seed=11)
    seat = state.current_player
    before = encode(view(state, seat))
    state.apply(state.legal_actions(seat)[0])
    assert not np.array_equal(encode(view(state, seat)), before)
    a, b = (encode(view(state, s)) for s in state.seats[:2])
    assert not np.array_equal(a, b)
