"""Bots only ever return one of the seat's legal actions (R14–R21), never touch the state,
and decide from the seat's view alone."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paohuzi.bots import Observation, bot_names, make_bot
from paohuzi.core.records import record

from .helpers import SMALL_ISMCTS, reach, same_choice_in_resampled_worlds, states

SPECS = ["random", "greedy", SMALL_ISMCTS]
BOTS = {s: make_bot(s) for s in SPECS}


def test_registry_has_the_interface_names():
    assert {"random", "greedy", "ismcts"} <= set(bot_names())


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 80),
    rules=st.sampled_from(["hunan", "changde", "luzhou"]),
    policy=st.sampled_from(["random", "greedy"]),
)
def test_bots_return_legal_actions(seed, steps, rules, policy):
    state = reach(rules, seed, steps, policy)
    before = record(state)
    for seat in state.to_act():  # every pending decider of a claim window (R16)
        legal = state.legal_action_ids(seat)
        assert legal
        for spec, bot in BOTS.items():
            a = bot.act(Observation(state, seat), random.Random(seed))
            assert a.seat == seat, spec
            assert a.id() in legal, (spec, a.id(), legal)
    assert record(state) == before  # acting never changes the true state


def test_claim_windows_with_several_deciders():
    """R16: several seats asked at once; each bot answers legally for each of them."""
    found = 0
    for state in states("hunan", range(40), policy="greedy"):
        pending = state.to_act()
        if len(pending) < 2:
            continue
        found += 1
        for seat in pending:
            legal = state.legal_action_ids(seat)
            for spec, bot in BOTS.items():
                assert bot.act(Observation(state, seat), random.Random(found)).id() in legal, spec
        if found >= 12:
            break
    assert found >= 12


@pytest.mark.parametrize("spec", ["greedy", SMALL_ISMCTS])
def test_decisions_depend_on_the_view_only(spec):
    """A world resampled for the seat shows it the same view, so the bot (same RNG seed)
    must choose the same action although every hidden card moved."""
    checked = same_choice_in_resampled_worlds(make_bot(spec), states("hunan", range(6)), 3)
    assert sum(1 for _ in checked) > 20


def test_determinize_never_hands_over_the_true_state():
    """When views.resample cannot draw a consistent world it raises NoConsistentWorld;
    it never hands a bot the true state (every hidden card)."""
    from paohuzi.bots import NoConsistentWorld
    from paohuzi.core.determinize import hidden_from

    worlds = refused = 0
    for i, state in enumerate(states("hunan", range(15))):
        for seat in state.to_act():
            if not hidden_from(state, seat):
                continue
            try:
                world = Observation(state, seat).determinize(random.Random(i))
            except NoConsistentWorld:
                refused += 1
                continue
            worlds += 1
            others = [t for t in state.seats if t != seat]
            assert not (
                world._wall == state._wall
                and all(world.hand_counts(t) == state.hand_counts(t) for t in others)
            )
    assert worlds > 200
