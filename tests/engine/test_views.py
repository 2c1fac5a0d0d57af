"""views.py: the single hidden-information filter, information_state and resample."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from paohuzi.core.determinize import NoConsistentWorld, hidden_from, resample
from paohuzi.core.melds import GroupKind
from paohuzi.core.rules import PRESETS
from paohuzi.core.state import GameState
from paohuzi.core.views import information_state, view

from .helpers import random_play


def _states(name: str, seed: int, every: int = 3):
    rng = random.Random(seed)
    s = GameState(PRESETS[name], seed)
    i = 0
    while not s.is_terminal():
        if i % every == 0:
            yield s
        s.apply(random_play(s, rng))
        i += 1


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_view_does_not_depend_on_hidden_cards(name: str) -> None:
    """Non-interference: re-dealing every card hidden from a seat leaves its view unchanged."""
    rng = random.Random(7)
    changed = 0
    for seed in range(6):
        for s in _states(name, seed):
            for seat in s.seats:
                try:
                    w = resample(s, seat, rng)
                except NoConsistentWorld:
                    continue
                assert view(w, seat) == view(s, seat)
                changed += w._hands != s._hands
    assert changed > 0  # resample really moved hidden cards


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_view_shows_exactly_the_visible_cards(name: str) -> None:
    """The view's cards (hand, melds, piles, open card) = 80 − hidden_from(seat)."""
    for seed in range(4):
        for s in _states(name, seed):
            for seat in s.seats:
                v = view(s, seat)
                seen = [*v.hand]
                seen += [c for t in v.tables for m in t for c in m.cards if c is not None]
                # a 臭偎/提 shows one card but its kind tells the other three
                seen += [
                    m.cards[0]
                    for t in v.tables
                    for m in t
                    for _ in range(len(m.cards) - 1)
                    if m.cards[0] is not None and m.cards[1] is None
                ]
                seen += [c for p in v.piles for c in p]
                if v.open is not None and v.open.card is not None:
                    seen.append(v.open.card)
                want = Counter(c for c in range(20) for _ in range(4))
                want.subtract(hidden_from(s, seat))
                if v.bottom is not None and s.wall_left:
                    seen.append(v.bottom)
                assert Counter(int(c) for c in seen) == +want


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_meld_huxi_is_shown_where_the_meld_is_known(name: str) -> None:
    """INTERFACES §5: every meld carries its 胡息 under the rules in force, ``null``
    for another seat's 偎; ``table_huxi`` is the sum of what the viewer sees."""
    hidden = 0
    for seed in range(4):
        for s in _states(name, seed):
            for seat in s.seats:
                v = view(s, seat)
                d = v.to_dict()
                for t in range(s.n):
                    for g, m, md in zip(s.table(t), v.tables[t], d["tables"][t], strict=True):
                        if m.huxi is None:
                            hidden += 1
                            assert t != seat and g.kind is GroupKind.WEI and md["huxi"] is None
                            assert not s.rules.open_wei  # 明偎 (衡阳) lies face up
                        else:
                            assert m.huxi == md["huxi"] == g.huxi(s.rules)
                    shown = sum(g.huxi(s.rules) for g in s.table(t))
                    shown -= sum(
                        g.huxi(s.rules)
                        for g in s.table(t)
                        if t != seat
                        and g.kind is GroupKind.WEI
                        and not s.is_terminal()
                        and not s.rules.open_wei
                    )
                    assert d["table_huxi"][t] == v.table_huxi[t] == shown
    assert hidden > 0 or PRESETS[name].open_wei  # some face-down 偎 was met


def test_other_hands_and_wei_are_hidden() -> None:
    from .helpers import discard_quietly, game

    s = game({1: "九九", 2: "三三三"}, wall="九", avoid="九三")
    discard_quietly(s, 0, avoid="九")
    v = view(s, 0).to_dict()
    assert "hands" not in v and v["hand_sizes"][2] == s._nhand[2]
    assert v["tables"][1][0] == {"kind": GroupKind.WEI.value, "cards": [None] * 3, "huxi": None}
    text = json.dumps(v)
    assert '"x9"' not in text  # seat 0 has no 九 and never saw one


def test_information_state_is_derived_from_view() -> None:
    s = GameState(PRESETS["hunan"], 3)
    for seat in s.seats:
        assert information_state(s, seat) == json.dumps(
            view(s, seat).to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
    assert len({information_state(s, t) for t in s.seats}) == len(s.seats)


def test_view_to_dict_is_plain_json() -> None:
    """The wire form is plain data: JSON round-trips it unchanged, at every step."""
    rng = random.Random(3)
    s = GameState(PRESETS["luzhou"], 3)
    while True:
        for seat in s.seats:
            d = view(s, seat).to_dict()
            assert json.loads(json.dumps(d)) == d
            assert d["legal_actions"] == s.legal_action_ids(seat)
        if s.is_terminal():
            assert d["reveal"]["hands"] and d["result"] == s.result.to_dict()
            break
        s.apply(random_play(s, rng))


def test_resample_is_playable() -> None:
    """A resampled world is a legal state: it plays to the end. ``NoConsistentWorld``
    is for rare dead ends, not an escape: nearly every attempt must give a world."""
    rng = random.Random(1)
    tried = played = 0
    for seed in range(5):
        for s in _states("hunan", seed, every=7):
            for seat in s.seats:
                tried += 1
                try:
                    w = resample(s, seat, rng)
                except NoConsistentWorld:
                    continue
                while not w.is_terminal():
                    w.apply(random_play(w, rng))
                played += 1
    assert tried >= 50 and played >= 0.9 * tried, (played, tried)
