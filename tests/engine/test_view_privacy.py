"""Claim windows keep their secrets: a view never tells which *other* seats may
claim the open card or passed on it — that would reveal their pairs, 吃 shapes and
臭牌 (R20), which are concealed information."""

from __future__ import annotations

import random

from paohuzi.core.state import CLAIM, GameState
from paohuzi.core.views import view


def test_claim_windows_hide_other_claimants_and_their_passes() -> None:
    multi = silent = 0
    for seed in range(40):
        state = GameState(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            pending = state.to_act()
            if state.phase == CLAIM:
                for seat in state.seats:
                    v = view(state, seat).to_dict()
                    assert v["to_act"] == ([seat] if seat in pending else [])
                    # R16: only "the window is open and I have nothing to decide";
                    # whether others may claim too is not a deciding seat's to know.
                    assert v["others_deciding"] == (seat not in pending)
                    assert v["current_player"] is None  # priority order is private
                    for e in v["log"]:
                        assert e["type"] != "pass" or e["seat"] == seat
                multi += len(pending) > 1
            seat = state.current_player
            action = rng.choice(state.legal_actions(seat))
            before = {t: view(state, t) for t in pending if t != seat}
            state.apply(action)
            if action.type == "pass" and state.phase == CLAIM:
                for t, v0 in before.items():  # a silent pass changes no other view
                    if t in state.to_act():
                        silent += 1
                        assert view(state, t) == v0
        # the record (full information) keeps every pass
        assert all(e.type != "pass" or e.seat is not None for e in state.events)
    assert multi > 0, "no claim window with two deciders was exercised"
    assert silent > 0, "no silent pass before another decider was exercised"


def test_passes_stay_in_the_full_record_but_not_in_other_views() -> None:
    for seed in range(40):
        state = GameState(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions(state.current_player)))
        passes = [e for e in state.events if e.type == "pass"]
        if passes:
            e = passes[0]
            other = next(t for t in state.seats if t != e.seat)
            own = [d for d in view(state, e.seat).to_dict()["log"] if d["type"] == "pass"]
            seen = [d for d in view(state, other).to_dict()["log"] if d["type"] == "pass"]
            assert own and all(d["seat"] == e.seat for d in own)
            assert all(d["seat"] == other for d in seen)
            return
    raise AssertionError("no pass happened in 40 random hands")


def test_discards_are_the_public_discard_events_of_every_seat() -> None:
    """R20: the kinds each seat discarded are public; the view's ``discards`` is
    exactly what the seat's own log shows (and ``discarded`` its own row)."""
    checked = 0
    for seed in range(30):
        state = GameState(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player
            v = view(state, seat)
            seen: list[set[int]] = [set() for _ in v.hand_sizes]
            for e in v.log:
                if e.type == "discard":
                    seen[e.seat].add(int(e.card))
            assert [{int(c) for c in d} for d in v.discards] == seen
            assert v.discards[seat] == v.discarded
            checked += sum(map(len, seen))
            state.apply(rng.choice(state.legal_actions(seat)))
    assert checked > 0
