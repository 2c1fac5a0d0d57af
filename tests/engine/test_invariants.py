"""Hypothesis invariants over random hands with random legal play (all presets)."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.cards import CARDS
from paohuzi.core.determinize import hidden_from
from paohuzi.core.records import check, record
from paohuzi.core.rules import PRESETS
from paohuzi.core.state import DISCARDING, GameState
from paohuzi.core.views import view
from presets.helpers import check_payments

from .helpers import all_cards, random_play, try_resample

FULL = Counter(c for c in range(20) for _ in range(4))
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(s: GameState) -> None:
    # R1 + R39: the 80 cards and the rules' 王 (deck int 20), wherever they are
    assert all_cards(s) == FULL + Counter({20: s.rules.wang})
    for t in s.seats:
        assert all(0 <= n <= 3 for n in s.hand_counts(t))  # four in hand is always 提 (R8/R12)
        assert s._nhand[t] == sum(s.hand_counts(t))
        assert s.held(t) == s._nhand[t] + s.wang(t) + sum(len(g.cards) for g in s.table(t))
        assert s._fours[t] == sum(1 for g in s.table(t) if g.kind.is_four)
        loose = sum(n for n in s.hand_counts(t) if n < 3)  # cards outside 坎
        if s.phase == DISCARDING and t == s._turn:
            assert s.held(t) == s.need(t) + 1  # R17: exactly one too many
            assert loose > 0  # ...and a card outside the 坎 to discard
        elif not s.is_terminal():
            # R17 while waiting; over only when a forced step left nothing but 坎 (or
            # nothing) to discard — and then each later forced 偎/跑 that is not a
            # second four adds its card with no discard after it (docs/spec-notes.md)
            assert s.held(t) <= s.need(t) or loose == 0
    if not s.is_terminal():
        assert s.to_act() and s.current_player == s.to_act()[0]
        for t in s.to_act():
            acts = s.legal_actions(t)
            assert acts
            for a in acts:  # R17: a 坎 is never broken, by a discard, 吃 or 碰
                if a.type == "discard":
                    assert 0 < s.hand_counts(t)[a.card] < 3
            chis = [a.groups for a in acts if a.type == "chi"]
            # R19 / §4: one action per multiset of groups, in canonical (sorted) order
            assert all(list(g) == sorted(g) for g in chis) and len(set(chis)) == len(chis)


def assert_illegal_changes_nothing(s: GameState, rng: random.Random) -> None:
    before = json.dumps(record(s))
    pending = s.to_act()
    idle = [t for t in range(s.n) if t not in pending]
    attempts = [
        Action("discard", pending[0], CARDS[c])
        for c in range(20)
        if s.phase != DISCARDING or s._hands[pending[0]][c] == 0
    ]
    attempts += [Action("pass", t) for t in idle]
    attempts += [Action("peng", pending[0], CARDS[rng.randrange(20)])]
    for a in attempts:
        if any(a.matches(b) for b in s.legal_actions(a.seat)):
            continue
        try:
            s.apply(a)
        except IllegalAction:
            pass
        else:  # pragma: no cover - the assertion below reports it
            raise AssertionError(f"illegal {a} accepted")
        assert json.dumps(record(s)) == before


@SETTINGS
@given(seed=st.integers(0, 2**32), name=st.sampled_from(sorted(PRESETS)), hu=st.floats(0, 1))
# a forced 偎 leaves a seat no concealed card, forced 跑 then take it two over (R17)
@example(seed=2_470_714_637, name="changde", hu=0.0)
def test_random_hands_keep_invariants(seed: int, name: str, hu: float) -> None:
    rng = random.Random(seed)
    s = GameState(PRESETS[name], seed)
    steps = 0
    while True:
        check_invariants(s)
        if s.is_terminal():
            break
        if steps % 5 == 0:
            assert_illegal_changes_nothing(s, rng)
        a = random_play(s, rng, hu)
        twin = s.clone()
        ev1 = s.apply(a)
        ev2 = twin.apply(a)  # clone() then apply ≡ apply
        assert [e.to_dict() for e in ev1] == [e.to_dict() for e in ev2]
        assert record(twin) == record(s)
        steps += 1
    check_payments(s)  # zero-sum, or a race's R45 gains and losses
    rec = json.loads(json.dumps(record(s)))
    assert check(rec) == []


@SETTINGS
@given(seed=st.integers(0, 2**32), name=st.sampled_from(sorted(PRESETS)))
def test_views_never_leak(seed: int, name: str) -> None:
    """No view holds another seat's concealed or face-down cards: the view is unchanged
    when all of them are re-dealt, and its visible cards are exactly 80 − hidden."""
    rng = random.Random(seed)
    s = GameState(PRESETS[name], seed)
    while not s.is_terminal():
        seat = rng.choice(s.seats)
        v = view(s, seat)
        w = try_resample(s, seat, rng)  # None: rare in claim windows, never the truth
        if w is not None:
            assert view(w, seat) == v
            assert Counter(hidden_from(w, seat)) == Counter(hidden_from(s, seat))
        s.apply(random_play(s, rng))


@SETTINGS
@given(seed=st.integers(0, 2**32), name=st.sampled_from(sorted(PRESETS)), cut=st.integers(0, 60))
def test_a_pickled_state_plays_on_like_the_original(seed: int, name: str, cut: int) -> None:
    """A hand pickled mid-way (OpenSpiel's serialize, a process pool) plays on exactly as
    the original, on either build: the compiled evaluator's C kernel does not pickle, so
    the evaluator is pickled as its rules and the copy shares the process's one."""
    rng = random.Random(seed)
    s = GameState(PRESETS[name], seed)
    for _ in range(cut):
        if s.is_terminal():
            break
        s.apply(random_play(s, rng, 0.0))
    copy = pickle.loads(pickle.dumps(s))
    assert copy._ev is s._ev  # the shared evaluator (and kernel), not a second one
    assert record(copy) == record(s)
    while not s.is_terminal():
        assert copy.to_act() == s.to_act()
        assert all(copy.legal_actions(t) == s.legal_actions(t) for t in s.to_act())
        a = random_play(s, rng, 0.7)
        assert [e.to_dict() for e in copy.apply(a)] == [e.to_dict() for e in s.apply(a)]
    assert record(copy) == record(s)


def test_clone_deals_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """``clone`` copies the fields into a blank state: no shuffle, no RNG made (on the
    compiled build a class's ``__new__`` runs ``__init__``, which would deal a whole hand
    from fresh entropy first), and the copy plays on as the original."""
    s = GameState(PRESETS["hunan"], 5)
    made: list[object] = []

    class Counted(random.Random):
        def __init__(self, *a: object) -> None:
            made.append(a)
            super().__init__(*a)

    rng = random.Random(1)
    monkeypatch.setattr(random, "Random", Counted)
    twin = s.clone()
    assert made == []
    GameState(PRESETS["hunan"], 6)  # (the patch is seen by the constructor)
    assert len(made) == 1
    while not s.is_terminal():
        a = random_play(s, rng, 0.5)
        assert [e.to_dict() for e in s.apply(a)] == [e.to_dict() for e in twin.apply(a)]
    assert record(twin) == record(s)
