"""Engine invariants under every preset and every player count (R1, R8, R12, R17, views,
records): seeded random play driven by hypothesis."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.helpers import try_resample
from paohuzi.core.determinize import hidden_from
from paohuzi.core.records import check, record
from paohuzi.core.rules import PRESETS, Rules, RulesError
from paohuzi.core.state import GameState
from paohuzi.core.views import view

from .helpers import check_invariants, check_payments, random_choice


def _tables() -> dict[str, Rules]:
    """Each preset at 2 and 3 seats and at 4 — with 坐底 where 4 × 20 cards cannot be
    dealt, all four dealt in with 14-card hands (R43)."""
    out = {}
    for name, r in PRESETS.items():
        out[f"{name}-2"] = r.replace(players=2, sit_out=False, xing_seat=False)
        out[f"{name}-3"] = r.replace(players=3, sit_out=False, xing_seat=False)
        out[f"{name}-4"] = r.replace(players=4, sit_out=r.hand_size == 20)
    return out


TABLES = _tables()
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", sorted(n for n, r in PRESETS.items() if r.hand_size == 20))
def test_four_players_without_sit_out_cannot_be_dealt(name: str) -> None:
    """4 × 20 + the 亮张 = 81 > 80 (R1, R7): the rules say so in one line."""
    with pytest.raises(RulesError, match="sit_out"):
        PRESETS[name].replace(players=4, sit_out=False)


@SETTINGS
@given(seed=st.integers(0, 2**32), table=st.sampled_from(sorted(TABLES)), hu=st.floats(0, 1))
# R17: a forced 偎 leaves seat 1 holding 21 cards, all 坎: no discard owed, his 下家 draws
@example(seed=1_577_877_338, table="changde-3", hu=0.0)
def test_random_hands_keep_invariants_and_replay(seed: int, table: str, hu: float) -> None:
    rules = TABLES[table]
    rng = random.Random(seed)
    s = GameState(rules, seed)
    dealt = {e.seat: e.get("count") for e in s.events if e.type == "deal"}
    assert set(dealt) == set(s.seats) and len(s.seats) == rules.seated
    assert all(n == rules.hand_size for n in dealt.values())  # R7, R43
    while not s.is_terminal():
        check_invariants(s)
        s.apply(random_choice(s, rng, hu))
    check_invariants(s)
    r = s.result
    check_payments(s)
    for t in range(rules.players):
        if t not in s.seats:
            assert r.scores[t] == 0  # 坐底: neither pays nor gets
    rec = json.loads(json.dumps(record(s), ensure_ascii=False))
    assert rec["rules"] == rules.to_dict()  # the full rules object travels with the record
    assert check(rec) == []


@SETTINGS
@given(seed=st.integers(0, 2**32), table=st.sampled_from(sorted(TABLES)))
def test_views_hide_other_seats_concealed_cards(seed: int, table: str) -> None:
    """A seat's view is unchanged when every card hidden from it is re-dealt, its own hand
    is exact, and 亮张/底牌 are shown only as the rules say."""
    rules = TABLES[table]
    rng = random.Random(seed)
    s = GameState(rules, seed)
    steps = 0
    while not s.is_terminal() and steps < 60:
        seat = rng.choice(s.seats)
        v = view(s, seat).to_dict()
        assert Counter(v["hand"]) == Counter(c.code for c in s.hand(seat))
        if not rules.show_liangzhang and seat != s.dealer:
            assert v["liangzhang"] is None
        w = try_resample(s, seat, rng)  # None: rare in claim windows, never the truth
        if w is not None:
            assert view(w, seat).to_dict() == v
            assert Counter(hidden_from(w, seat)) == Counter(hidden_from(s, seat))
        s.apply(random_choice(s, rng))
        steps += 1
