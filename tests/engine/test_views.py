"""views.py: the single hidden-information filter, information_state and resample."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from paohuzi.core.cards import Card
from paohuzi.core.melds import GroupKind
from paohuzi.core.rules import PRESETS
from paohuzi.core.state import GameState
from paohuzi.core.views import (
    LogCache,
    NoConsistentWorld,
    hidden_from,
    information_state,
    resample,
    view,
)

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
                changed += w.hands != s.hands
    assert changed > 0  # resample really moved hidden cards


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_view_shows_exactly_the_visible_cards(name: str) -> None:
    """The view's cards (hand, melds, piles, open card) = 80 − hidden_from(seat)."""
    for seed in range(4):
        for s in _states(name, seed):
            for seat in s.seats:
                v = view(s, seat)
                seen = [*v["hand"]]
                seen += [c for t in v["tables"] for m in t for c in m["cards"] if c]
                # a 臭偎/提 shows one card but its kind tells the other three
                seen += [
                    m["cards"][0]
                    for t in v["tables"]
                    for m in t
                    for _ in range(len(m["cards"]) - 1)
                    if m["cards"][0] and m["cards"][1] is None
                ]
                seen += [c for p in v["piles"] for c in p]
                if v["open"] and v["open"]["card"]:
                    seen.append(v["open"]["card"])
                if s.phase == "claim" and s.source == "liangzhang":
                    pass  # the 亮张 is the open card itself
                want = Counter(Card(c).code for c in range(20) for _ in range(4))
                want.subtract(Card(c).code for c in hidden_from(s, seat))
                if v["bottom"] and s.wall_left:
                    seen.append(v["bottom"])
                assert Counter(seen) == +want


def test_other_hands_and_wei_are_hidden() -> None:
    from .helpers import discard_quietly, game

    s = game({1: "九九", 2: "三三三"}, wall="九", avoid="九三")
    discard_quietly(s, 0, avoid="九")
    v = view(s, 0)
    assert "hands" not in v and v["hand_sizes"][2] == s.nhand[2]
    assert v["tables"][1][0] == {"kind": GroupKind.WEI.value, "cards": [None, None, None]}
    text = json.dumps(v)
    assert '"x9"' not in text  # seat 0 has no 九 and never saw one


def test_information_state_is_derived_from_view() -> None:
    s = GameState(PRESETS["hunan"], 3)
    for seat in s.seats:
        assert information_state(s, seat) == json.dumps(
            view(s, seat), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
    assert len({information_state(s, t) for t in s.seats}) == len(s.seats)


def test_resample_is_playable() -> None:
    """A resampled world is a legal state: it plays to the end."""
    rng = random.Random(1)
    for seed in range(5):
        for s in _states("hunan", seed, every=7):
            for seat in s.seats:
                try:
                    w = resample(s, seat, rng)
                except NoConsistentWorld:
                    continue
                while not w.is_terminal():
                    w.apply(random_play(w, rng))


def test_log_cache_gives_the_same_views() -> None:
    """A caller's LogCache (the server keeps one per seat) never changes a view,
    across moves, hands and seats; and the log handed out is a copy."""
    caches = [LogCache() for _ in range(3)]
    shared = LogCache()  # one cache switched between seats: it must start over
    for seed in (1, 2):
        rng = random.Random(seed)
        s = GameState(PRESETS["hunan"], seed)
        while True:
            for seat in range(3):
                plain = view(s, seat)
                assert view(s, seat, caches[seat]) == plain
                assert view(s, seat, shared) == plain
            cached = view(s, 0, caches[0])["log"]
            cached.append({"type": "bogus"})
            assert view(s, 0, caches[0])["log"] == view(s, 0)["log"]
            if s.is_terminal():
                break
            s.apply(random_play(s, rng))
