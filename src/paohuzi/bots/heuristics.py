"""估牌 (gūpái): a fast static value of a seat's holdings, shared by greedy, search and hints.

The value of a *waiting* hand (R17: holdings = 20 + max(0, k − 1)) has three parts:

* 胡息 — the 当前总息数 of R33 (table melds + 坎 + valued 句 in hand), counted
  fully up to the minimum of R23 and at a lower rate above it (only 等 grows);
* shape — every 门子 already made (table meld, 坎, 句 in hand) scores ``complete``,
  a pair ``pair`` (a future 碰/偎/将), two cards that a third would turn into a
  句 (一二, 一三, 二七 …) ``partial``; found by a memoised per-size search, plus
  complete 绞 across the sizes (R§3);
* 听牌 — when the hand is one card from a win, every winning card (from the
  evaluator, R22–R27) weighted by its unseen copies and the 胡息 it brings.

王 (R39–R41) in hand, two readings. Where the rules pay 王 patterns (王钓 / 王闯 /
王炸, many times a plain win) the 王 are kept free: the natural cards are valued
as if alone, plus, when they and the spare 王 already form the other 门子, every
unseen card the seat or its 上家 may turn up (or discard) at the pattern's 番.
Otherwise (or with the ``free_wang=0`` weight) each 王 is valued as the card kind
it could best stand for (tried one 王 at a time, by 胡息 and shape), and 听牌
counts only what a 王 hand may win — its own turned-up cards (自摸) and a drawn
王 — about a ``1 / players`` share of the unseen copies; a waiting pattern still
counts if it is worth more.

Everything here reads packed hands (:mod:`paohuzi.core.evaluator`) and the
caller's own idea of which cards are still unseen, never a game state.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache

from ..core.cards import Card
from ..core.evaluator import (
    BIT,
    LOW,
    MASK30,
    HandEvaluator,
    TableSummary,
    evaluator_for,
    summary_key,
    unpack,
)
from ..core.melds import Group, GroupKind
from ..core.position import Position, PositionError, WangPattern
from ..core.rules import Rules
from ..core.scoring import settle


@dataclass(frozen=True, slots=True)
class Weights:
    """Tunable weights of :class:`HandValue` (bot options of the same names)."""

    complete: float = 3.0  # a finished 门子
    pair: float = 2.2  # 对: may become 坎/碰/偎, or the 将
    partial: float = 0.7  # two cards of a 句 waiting for the third
    huxi: float = 0.9  # per 胡息 up to min_huxi
    huxi_over: float = 0.25  # per 胡息 above it
    ting: float = 2.5  # per unseen copy of a winning card
    ting_huxi: float = 0.05  # per 胡息 of that win above min_huxi, per copy
    danger: float = 1.0  # feeding an opponent a 碰/跑/吃 (greedy discards)
    chou: float = 0.3  # per unseen copy of a kind made 臭 by passing (R20)
    # 1: where the rules pay 王 patterns (R41), keep 王 free for them and play the
    # natural cards; 0: each 王 counts as its best card (R40) unless a pattern waits
    free_wang: float = 1.0

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


class _Shape:
    """Best block score of one size's cards (10 points × 3 bits, counts ≤ 2); with
    ``yiwushi`` (衡阳's option) 一五十 is a 句 too, and 一五 / 一十 / 五十 partials."""

    __slots__ = ("complete", "left", "memo", "pair", "partial", "partial_with", "yiwushi")

    def __init__(self, complete: float, pair: float, partial: float, yiwushi: bool = False):
        self.complete, self.pair, self.partial = complete, pair, partial
        self.yiwushi = yiwushi
        self.partial_with = _PARTIAL_WITH_YWS if yiwushi else _PARTIAL_WITH
        self.memo: dict[int, float] = {0: 0.0}
        self.left: dict[int, int] = {0: 0}

    def score(self, key: int) -> float:
        v = self.memo.get(key)
        return v if v is not None else self._score(key)

    def _score(self, key: int) -> float:
        p = ((key & -key).bit_length() - 1) // 3  # lowest point held
        b = BIT[p]
        has = [(key >> (3 * q)) & 7 for q in range(10)]
        best = self.score(key - b)  # an isolated card
        if has[p] >= 2:
            best = max(best, self.pair + self.score(key - 2 * b))
        if p <= 7 and has[p + 1] and has[p + 2]:
            best = max(best, self.complete + self.score(key - b - BIT[p + 1] - BIT[p + 2]))
        if p == 1 and has[6] and has[9]:
            best = max(best, self.complete + self.score(key - b - BIT[6] - BIT[9]))
        if p == 0 and self.yiwushi and has[4] and has[9]:  # 一五十
            best = max(best, self.complete + self.score(key - b - BIT[4] - BIT[9]))
        for q in self.partial_with[p]:
            if has[q]:
                best = max(best, self.partial + self.score(key - b - BIT[q]))
        self.memo[key] = best
        return best

    def leftover(self, key: int) -> int:
        """Fewest cards left outside 句 (pairs count as left): a readiness gate."""
        v = self.left.get(key)
        if v is not None:
            return v
        p = ((key & -key).bit_length() - 1) // 3
        b = BIT[p]
        has = [(key >> (3 * q)) & 7 for q in range(10)]
        best = 1 + self.leftover(key - b)
        if p <= 7 and has[p + 1] and has[p + 2]:
            best = min(best, self.leftover(key - b - BIT[p + 1] - BIT[p + 2]))
        if p == 1 and has[6] and has[9]:
            best = min(best, self.leftover(key - b - BIT[6] - BIT[9]))
        if p == 0 and self.yiwushi and has[4] and has[9]:  # 一五十
            best = min(best, self.leftover(key - b - BIT[4] - BIT[9]))
        self.left[key] = best
        return best


# Higher points q that make a two-card partial 句 with point p: p+1, p+2, and 二七十.
_PARTIAL_WITH: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            {q for q in (p + 1, p + 2) if q <= 9}
            | ({6, 9} if p == 1 else set())
            | ({9} if p == 6 else set())
        )
    )
    for p in range(10)
)
# ... and with 一五十 a 句 (衡阳's option): 一 with 五 or 十, 五 with 十.
_PARTIAL_WITH_YWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({*_PARTIAL_WITH[p], *({4, 9} if p == 0 else {9} if p == 4 else ())}))
    for p in range(10)
)


ALL = (1 << 20) - 1  # every card kind, as a bit mask


def _near(c: int) -> int:
    """Bit mask of the kinds that share a 门子 with kind ``c``: itself (对/坎), its
    句 neighbours (二七十 too) and the other size (绞)."""
    base, p = (c // 10) * 10, c % 10
    pts = {p, *(q for q in (p - 2, p - 1, p + 1, p + 2) if 0 <= q <= 9)}
    if p in (1, 6, 9):
        pts |= {1, 6, 9}
    return sum(1 << (base + q) for q in pts) | 1 << ((c + 10) % 20)


_NEAR = tuple(_near(c) for c in range(20))


@lru_cache(maxsize=16)
def _shapes(complete: float, pair: float, partial: float, yiwushi: bool = False) -> _Shape:
    # Both sizes share one table: the shapes of 小 and 大 cards are identical.
    return _Shape(complete, pair, partial, yiwushi)


@lru_cache(maxsize=4096)
def meld(kind: GroupKind | str, cards: tuple[int, ...]) -> Group:
    """A table meld given by kind and card ints (cached)."""
    return Group(GroupKind(kind), tuple(Card(c) for c in cards))


def discard_kinds(packed: int) -> list[int]:
    """Kinds R17 lets a player discard: not from a 坎, unless only 坎 remain. A 王 is
    never one (R39: ``packed`` holds natural cards); only 王 left → none."""
    b0, b1, b2 = packed & LOW, packed >> 1 & LOW, packed >> 2 & LOW  # a count's bits
    return _kinds((b0 ^ b1) & ~b2) or _kinds(b0 | b1 | b2)  # held once or twice; at all


def _kinds(bits: int) -> list[int]:
    """The kinds whose field's low bit is set in ``bits``, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() // 3)
        bits ^= low
    return out


@lru_cache(maxsize=4096)
def meld_key(kind: GroupKind | str, cards: tuple[int, ...]) -> int:
    """``Group.key`` of a table meld given by kind and card ints (cached)."""
    return meld(kind, cards).key


class HandValue:
    """Static value of holdings under one rules object and one set of weights."""

    def __init__(self, rules: Rules, weights: Weights | None = None):
        self.rules = rules
        self.w = weights or Weights()
        self.ev: HandEvaluator = evaluator_for(rules)
        self.shape_tab = _shapes(self.w.complete, self.w.pair, self.w.partial, rules.yiwushi)
        self.min_huxi = rules.min_huxi
        # Keyed by one int: the holding (60 bits) under the table's summary_key and the
        # call's flags (no tuple made, hashed or kept for the collector to walk).
        self._ting: dict[int, dict[int, int]] = {}
        self._static: dict[int, float] = {}
        self._wild: dict[int, int] = {}
        self._pattern: dict[tuple[int, tuple[Group, ...], int], int] = {}

    # -- parts -----------------------------------------------------------------
    def huxi(self, packed: int, tsum: TableSummary) -> int:
        """当前总息数 (R33)."""
        return self.ev.current_huxi(packed, tsum)

    def shape(self, packed: int, melds: int) -> float:
        """Block score: table melds and 坎 complete, the rest by :class:`_Shape`."""
        kan = packed & (packed >> 1) & LOW & ~(packed >> 2)
        rest = packed - 3 * kan
        tab = self.shape_tab
        s, b = rest & MASK30, rest >> 30
        best = tab.score(s) + tab.score(b)
        for ds, db in _jiao_moves(s, b):  # one complete 绞 across the sizes (R§3)
            best = max(best, self.w.complete + tab.score(s - ds) + tab.score(b - db))
        return self.w.complete * (melds + kan.bit_count()) + best

    def near_ready(self, packed: int, fours: int) -> bool:
        """Necessary for 听牌: at most 2 cards (4 with a 跑/提: the 将 too) outside
        句/绞 in the best split of the hand without its 坎 (R22)."""
        kan = packed & (packed >> 1) & LOW & ~(packed >> 2)
        rest = packed - 3 * kan
        return _leftover(self.shape_tab, rest & MASK30, rest >> 30) <= (4 if fours else 2)

    def ting(
        self, packed: int, tsum: TableSummary, cards: int = ALL, self_drawn: bool = False
    ) -> dict[int, int]:
        """听牌 of a waiting hand among the kinds in bit mask ``cards``: card → best
        胡息 when another seat turns it up (R22–R27, R23), or the seat itself."""
        key = ((summary_key(tsum) << 20 | cards) << 1 | self_drawn) << 60 | packed
        out = self._ting.get(key)
        if out is not None:
            return out
        if len(self._ting) > 200_000:
            self._ting.clear()
        ev, out, m = self.ev, {}, self.min_huxi
        for c in range(20):
            if cards >> c & 1:
                v = ev.best_huxi(packed, tsum, c, self_drawn)
                if v >= m:
                    out[c] = v
        self._ting[key] = out
        return out

    def wild(self, packed: int, tsum: TableSummary, wang: int) -> int:
        """王 (R40): ``packed`` with each of ``wang`` 王 replaced by the kind that adds
        most to 胡息 and shape, chosen one 王 at a time (memoised). A 王 is worth at
        least its best natural card; the final assignment is settled at the win."""
        key = (summary_key(tsum) << 3 | wang) << 60 | packed
        out = self._wild.get(key)
        if out is not None:
            return out
        if len(self._wild) > 100_000:
            self._wild.clear()
        out = packed
        for _ in range(wang):
            near = 0  # kinds that may join a held card: the only ones worth trying
            for c in range(20):
                if (out >> (3 * c)) & 7:
                    near |= _NEAR[c]
            best, best_v = out, -1e18
            for c in range(20):
                if (near >> c) & 1 and (out >> (3 * c)) & 7 < 3:  # up to a 坎
                    v = self._base(out + BIT[c], tsum)
                    if v > best_v:
                        best, best_v = out + BIT[c], v
            if best == out:  # nothing to join: a lone card of the first free kind
                best = out + BIT[next(c for c in range(20) if (out >> (3 * c)) & 7 < 3)]
            out = best
        self._wild[key] = out
        return out

    def pattern_fan(self, packed: int, table: tuple[Group, ...], wang: int) -> int:
        """R41: the best 番 of a 王 pattern the holdings wait on — ``packed`` (natural
        cards) and ``wang`` 王 win as 王钓 / 王闯 / 王炸 on a card joining 1–3 of the
        王 — or 0. A cheap gate (cards outside 句/绞 the spare 王 cannot fill) first,
        then the engine's own settlement (memoised)."""
        key = (packed, table, wang)
        out = self._pattern.get(key)
        if out is not None:
            return out
        if len(self._pattern) > 50_000:
            self._pattern.clear()
        out, fans = 0, self.rules.wang_fan
        kan = packed & (packed >> 1) & LOW & ~(packed >> 2)
        rest = packed - 3 * kan
        loose = _leftover(self.shape_tab, rest & MASK30, rest >> 30)
        hand = tuple(unpack(packed))
        for p in WangPattern:
            f = fans[p.slot]
            if p.on_wang or not f or f <= out or p.hand_wang > wang:
                continue
            if loose > 2 * (wang - p.hand_wang) + 2:  # 2: a 将 beside a 跑/提
                continue
            c = next((k for k in (19, 9, 18, 8) if (packed >> (3 * k)) & 7 == 0), 0)
            try:  # a big lone card: the fixed group's 胡息 at its best
                pos = Position(
                    hand,
                    table,
                    Card(c),
                    self_drawn=True,
                    hand_size=self.rules.hand_size,
                    wang=wang,
                    pattern=p,
                )
            except PositionError:
                continue
            if settle(pos, self.rules).win:
                out = f
        self._pattern[key] = out
        return out

    def _base(self, packed: int, tsum: TableSummary) -> float:
        """胡息 and shape, without 听牌."""
        w, m = self.w, self.min_huxi
        h = self.huxi(packed, tsum)
        return w.huxi * min(h, m) + w.huxi_over * max(0, h - m) + self.shape(packed, tsum.melds)

    # -- the whole value -------------------------------------------------------
    def static(self, packed: int, tsum: TableSummary, with_ting: bool = True) -> float:
        """:meth:`value` without card counting (2 copies per 听牌 card), memoised:
        rollouts revisit the same holdings over and over."""
        key = (summary_key(tsum) << 1 | with_ting) << 60 | packed
        v = self._static.get(key)
        if v is None:
            if len(self._static) > 300_000:
                self._static.clear()
            v = self._static[key] = self.value(packed, tsum, None, with_ting)
        return v

    def value(
        self,
        packed: int,
        tsum: TableSummary,
        unseen: list[int] | None = None,
        with_ting: bool = True,
        wang: int = 0,
        wang_unseen: int = 0,
        table: tuple[Group, ...] | None = None,
    ) -> float:
        """Value of waiting holdings (higher is better); ``unseen`` weighs 听牌 cards
        (kinds with no unseen copy are not even tried). ``wang``: 王 held besides
        ``packed`` (R40); ``wang_unseen``: 王 this seat has not seen (each may be
        drawn and won on); ``table``: the melds of ``tsum``, for the 王 patterns
        (R41; not tried without them)."""
        if wang:
            bonus = 0.0
            if with_ting and table is not None:
                bonus = self._pattern_bonus(packed, unseen, wang, table)
            if table is not None and self.w.free_wang and self._patterns(wang):
                # R41 pays many times a plain 自摸 and waits on almost any card: the
                # 王 stay free, the natural cards are played as if alone (R22)
                return self.value(packed, tsum, unseen, with_ting) + bonus
            v = self._wild_value(packed, tsum, unseen, with_ting, wang, wang_unseen)
            return max(v, self._base(packed, tsum) + bonus) if bonus else v
        w, m = self.w, self.min_huxi
        v = self._base(packed, tsum)
        if with_ting and self.near_ready(packed, tsum.fours):
            if unseen is None:
                for hx in self.ting(packed, tsum).values():
                    v += 2 * (w.ting + w.ting_huxi * (hx - m))
            else:
                live = live_mask(unseen)
                for c, hx in self.ting(packed, tsum, live).items():
                    v += unseen[c] * (w.ting + w.ting_huxi * (hx - m))
        return v

    def _wild_value(
        self,
        packed: int,
        tsum: TableSummary,
        unseen: list[int] | None,
        with_ting: bool,
        wang: int,
        wang_unseen: int,
    ) -> float:
        """:meth:`value` of holdings with 王: each 王 as its best kind; holding a 王
        the seat wins only on its own turned-up card (R40) or a drawn 王."""
        w, m = self.w, self.min_huxi
        packed = self.wild(packed, tsum, wang)
        v = self._base(packed, tsum)
        if with_ting and self.near_ready(packed, tsum.fours):
            share = 1.0 / self.rules.players  # of the turned-up cards, the seat's own
            live = ALL if unseen is None else live_mask(unseen)
            wins = self.ting(packed, tsum, live, True)
            for c, hx in wins.items():
                copies = 2 if unseen is None else unseen[c]
                v += share * copies * (w.ting + w.ting_huxi * (hx - m))
            if wins:  # a drawn 王 stands for the best of them
                v += share * wang_unseen * (w.ting + w.ting_huxi * (max(wins.values()) - m))
        return v

    def _patterns(self, wang: int) -> bool:
        """R41: these rules pay a pattern on a card that ``wang`` 王 can make."""
        fans = self.rules.wang_fan
        return any(fans[p.slot] for p in WangPattern if not p.on_wang and p.hand_wang <= wang)

    def _pattern_bonus(
        self, packed: int, unseen: list[int] | None, wang: int, table: tuple[Group, ...]
    ) -> float:
        """R41: when the holdings wait on a pattern, every unseen card the seat may win
        it on — its own turned-up cards and its 上家's (2 / players of them) — at the
        pattern's 番 (per 4 番, a 听牌 copy's weight)."""
        if not self._patterns(wang):
            return 0.0
        fan = self.pattern_fan(packed, table, wang)
        if not fan:
            return 0.0
        copies = 2 * 20 if unseen is None else sum(unseen)
        return (2.0 / self.rules.players) * copies * self.w.ting * fan / 4


def live_mask(unseen: list[int]) -> int:
    """Bit c set when kind c still has an unseen copy."""
    m = 0
    for c in range(20):
        if unseen[c]:
            m |= 1 << c
    return m


LOW30 = LOW & MASK30


def _jiao_moves(s: int, b: int) -> list[tuple[int, int]]:
    """Every single 绞 the cards allow: (small cards taken, big cards taken), packed."""
    both = (s | s >> 1) & (b | b >> 1) & LOW30  # points held in both sizes
    two_s, two_b = (s >> 1) & LOW30, (b >> 1) & LOW30
    m = both & (two_s | two_b)
    out = []
    while m:
        bit = m & -m
        m ^= bit
        if two_s & bit:
            out.append((2 * bit, bit))
        if two_b & bit:
            out.append((bit, 2 * bit))
    return out


# Keyed by one int, the two sizes side by side (30 bits each) and the 一五十 option (a
# shape table with it counts fewer left over): no tuple made per look-up, and a dict of
# ints the cyclic collector never walks (tuple keys kept it tracked).
_LEFT: dict[int, int] = {}


def _leftover(tab: _Shape, s: int, b: int) -> int:
    """Fewest cards outside 句/绞 over every choice of 绞 (memoised; values ≤ 2 may
    stop early, which is all the readiness gate needs)."""
    key = (b << 30 | s) << 1 | tab.yiwushi
    best = _LEFT.get(key)
    if best is not None:
        return best
    best = tab.leftover(s) + tab.leftover(b)
    if best > 2:
        for ds, db in _jiao_moves(s, b):
            best = min(best, _leftover(tab, s - ds, b - db))
            if best <= 2:
                break
    if len(_LEFT) < 500_000:
        _LEFT[key] = best
    return best


__all__ = ["HandValue", "Weights", "meld", "meld_key"]
