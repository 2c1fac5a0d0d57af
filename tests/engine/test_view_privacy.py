"""Claim windows keep their secrets: a view never tells which *other* seats may
claim the open card or passed on it — that would reveal their pairs, 吃 shapes and
臭牌 (R20), which are concealed information."""

from __future__ import annotations

import random

from paohuzi.core.state import CLAIM, GameState
from paohuzi.core.views import view


def test_claim_windows_hide_other_claimants_and_their_passes() -> None:
    multi = 0
    for seed in range(40):
        state = GameState(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            pending = state.to_act()
            if state.phase == CLAIM:
                for seat in state.seats:
                    v = view(state, seat).to_dict()
                    assert v["to_act"] == ([seat] if seat in pending else [])
                    assert v["others_deciding"] == any(t != seat for t in pending)
                    assert v["current_player"] is None  # priority order is private
                    for e in v["log"]:
                        assert e["type"] != "pass" or e["seat"] == seat
                multi += len(pending) > 1
            seat = state.current_player
            state.apply(rng.choice(state.legal_actions(seat)))
        # the record (full information) keeps every pass
        assert all(e.type != "pass" or e.seat is not None for e in state.events)
    assert multi > 0, "no claim window with two deciders was exercised"


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
