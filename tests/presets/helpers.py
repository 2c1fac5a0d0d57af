"""Shared helpers for the preset tests: positions, settlement shorthands, seeded play."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.helpers import all_cards, random_play
from paohuzi.core.actions import Action
from paohuzi.core.position import Position
from paohuzi.core.rules import Rules
from paohuzi.core.scoring import Settlement, settle
from paohuzi.core.state import DISCARDING, GameState

FULL = Counter(c for c in range(20) for _ in range(4))


def pos(hand: str, win: str | None, table: tuple[str, ...] = (), **flags: Any) -> Position:
    """A position from card text: ``pos("一二三…", "捌", ("peng:x8",), self_drawn=True)``."""
    return Position.parse(hand, win, list(table), **flags)


def score(p: Position, rules: Rules, huang: int = 0) -> Settlement:
    s = settle(p, rules, huang=huang)
    assert s.win, s.error
    return s


def groups(s: Settlement) -> list[tuple[str, int]]:
    """The scored 门子 as (``kind:cards`` code, 胡息), sorted for comparison."""
    return sorted((g.code(), h) for g, h in zip(s.groups, s.group_huxi, strict=True))


def names(s: Settlement) -> dict[str, int]:
    """名堂 name → 番."""
    return {m.name: m.fan for m in s.mingtang}


def random_choice(state: GameState, rng: random.Random, hu: float = 0.8) -> Action:
    """A seeded random legal decision (胡 taken with probability ``hu``)."""
    return random_play(state, rng, hu)


def check_payments(s: GameState) -> None:
    """R37/R44: a hand's payments sum to 0 — except in a race (R45), where the winner
    gains what the hand is worth (≤ 封顶) and only a discarder loses (≤ his cap), and
    a 荒庄 costs the dealer the penalty alone."""
    r, res = s.rules, s.result
    assert res is not None
    if r.match != "race":
        assert sum(res.scores) == 0
        return
    if res.winner is None:
        want = [0] * r.players
        want[s.dealer] = -r.race.huangzhuang_penalty
        assert list(res.scores) == want
        return
    assert res.settlement is not None
    gain = res.settlement.di * r.base_score
    gain = min(gain, r.cap) if r.cap else gain
    want = [0] * r.players
    want[res.winner] = gain
    if res.discarder is not None:
        cap = r.race.discarder_cap
        want[res.discarder] = -(min(gain, cap) if cap else gain)
    assert list(res.scores) == want


def check_invariants(s: GameState) -> None:
    """R1 (80 cards, + the rules' 王, R39), R8/R12 (never four in hand), R17 (counts),
    坐底 (nothing dealt)."""
    assert all_cards(s) == FULL + Counter({20: s.rules.wang})
    for t in range(s.n):
        if t not in s.seats:
            assert s._nhand[t] == 0 and not s.table(t) and not s._piles[t]
            continue
        assert all(0 <= n <= 3 for n in s.hand_counts(t))
        assert s.held(t) == s._nhand[t] + s.wang(t) + sum(len(g.cards) for g in s.table(t))
        assert s._fours[t] == sum(1 for g in s.table(t) if g.kind.is_four)
        if s.phase == DISCARDING and t == s._turn:
            assert s.held(t) == s.need(t) + 1
        elif not s.is_terminal():
            # R17: a seat a forced 偎/提 leaves with only 坎 cards (or none) owes no discard
            assert s.held(t) <= s.need(t) or all(n in (0, 3) for n in s.hand_counts(t))
