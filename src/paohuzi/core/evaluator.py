"""胡牌判定 (húpái pàndìng): does a position win, and with how many 胡息 (R22–R27, R33)?

How it is fast. A concealed hand is a *packed int*, 3 bits per card kind. Three
identical cards in hand are a 坎 and never split (R22), so after removing the
坎s every kind has at most 2 cards (3 for the winning card's kind). 句 live
inside one size; only 绞 joins the sizes, and a point can hold at most one 绞.
So the hand is scored as: choose the 绞s (usually none are possible), then look
up each size's 30-bit part in a per-size table of "best 胡息 with / without the
将 pair". The tables fill lazily, each entry once per process.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from .cards import Card
from .melds import Group, GroupKind
from .position import Position
from .rules import HUNAN, Rules

NEG = -(10**6)  # "no decomposition"; sums with it stay negative
MASK30 = (1 << 30) - 1
BIT = tuple(1 << (3 * c) for c in range(20))
LOW = sum(BIT)  # bit 0 of every 3-bit field


def pack(cards: Iterable[int]) -> int:
    """A hand as a packed int: 3 bits of count per card kind."""
    return sum(BIT[c] for c in cards)


def unpack(packed: int) -> list[Card]:
    """The cards of a packed hand, sorted."""
    return [Card(c) for c in range(20) for _ in range((packed >> (3 * c)) & 7)]


def card_count(packed: int) -> int:
    """Number of cards in a packed hand (fields never exceed 7)."""
    return (
        (packed & LOW).bit_count()
        + 2 * ((packed >> 1) & LOW).bit_count()
        + 4 * ((packed >> 2) & LOW).bit_count()
    )


def kan_mask(packed: int) -> int:
    """Bit 3c set for every kind c held three times (a 坎; hands never hold 4)."""
    return packed & (packed >> 1) & LOW & ~(packed >> 2)


class _SizeTable:
    """Best decompositions of one size's cards (10 points, 3 bits each).

    Entry = (best with no pair, best with exactly one pair, points with ≥1 card,
    points with ≥2 cards). Pairs and 绞 never appear inside: 绞 span both sizes.
    """

    __slots__ = ("entries", "pair_val", "partial", "run_val", "v2710")

    def __init__(self, run_val: tuple[int, ...], v2710: int, pair_val: tuple[int, ...]):
        self.run_val = run_val  # 胡息 of the 句 starting at point index p (0 → 一二三)
        self.v2710 = v2710
        self.pair_val = pair_val
        self.entries: dict[int, tuple[int, int, int, int]] = {0: (0, NEG, 0, 0)}
        self.partial: dict[int, int] = {0: 0}

    def choices(self, key: int, pair: bool) -> Iterator[tuple[int, int, bool, tuple[int, ...]]]:
        """Ways to place the lowest card: (胡息, remaining key, pair still needed, points)."""
        p = ((key & -key).bit_length() - 1) // 3
        sh = 3 * p
        if p <= 7 and (key >> (sh + 3)) & 7 and (key >> (sh + 6)) & 7:
            yield self.run_val[p], key - BIT[p] - BIT[p + 1] - BIT[p + 2], pair, (p, p + 1, p + 2)
        if p == 1 and (key >> 18) & 7 and (key >> 27) & 7:
            yield self.v2710, key - BIT[1] - BIT[6] - BIT[9], pair, (1, 6, 9)
        if pair and (key >> sh) & 7 >= 2:
            yield self.pair_val[p], key - 2 * BIT[p], False, (p, p)

    def entry(self, key: int) -> tuple[int, int, int, int]:
        e = self.entries.get(key)
        if e is None:
            e = self._fill(key)
        return e

    def _fill(self, key: int) -> tuple[int, int, int, int]:
        best = [NEG, NEG]
        for pair in (0, 1):
            for v, rest, still, _ in self.choices(key, bool(pair)):
                sub = self.entry(rest)[1 if still else 0]
                if v + sub > best[pair]:
                    best[pair] = v + sub
        ge1 = ge2 = 0
        for p in range(10):
            n = (key >> (3 * p)) & 7
            if n:
                ge1 |= 1 << p
                if n >= 2:
                    ge2 |= 1 << p
        e = (best[0], best[1], ge1, ge2)
        self.entries[key] = e
        return e

    def best_partial(self, key: int) -> int:
        """Most 胡息 from disjoint 句 of these cards, leftovers allowed (R33)."""
        v = self.partial.get(key)
        if v is None:
            v = self.best_partial(key - BIT[((key & -key).bit_length() - 1) // 3])  # lowest card out
            for g, rest, _, _ in self.choices(key, False):
                v = max(v, g + self.best_partial(rest))
            self.partial[key] = v
        return v

    def decompose(self, key: int, pair: bool) -> list[tuple[int, ...]]:
        """Point tuples of one best decomposition (follows the table back)."""
        out: list[tuple[int, ...]] = []
        while key:
            want = self.entry(key)[1 if pair else 0]
            for v, rest, still, pts in self.choices(key, pair):
                if v + self.entry(rest)[1 if still else 0] == want:
                    out.append(pts)
                    key, pair = rest, still
                    break
            else:  # pragma: no cover - the table says a decomposition exists
                raise AssertionError("inconsistent size table")
        return out


@dataclass(frozen=True, slots=True)
class TableSummary:
    """What the evaluator needs of a seat's table melds, computed once per table."""

    huxi: int
    fours: int  # k of R17
    melds: int
    # card → (gain if the win card upgrades the meld to 跑, gain if to 提 when self-drawn)
    upgrades: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class Analysis:
    """The evaluator's verdict on a position (before 等/名堂, see scoring)."""

    win: bool
    huxi: int  # best 胡息 found (0 when there is no shape)
    error: str | None  # None | "not_winning" | "below_min_huxi"
    groups: tuple[Group, ...]  # the 7 门子 of the best decomposition (empty without a shape)


class HandEvaluator:
    """Scores hands under one rules object; get one with :func:`evaluator_for`."""

    def __init__(self, rules: Rules):
        self.rules = rules
        g = rules.huxi_table.grid()
        self.grid = g
        self.sizes = tuple(
            _SizeTable(
                run_val=tuple(g["ju123"][base] if p == 0 else g["ju"][base + p] for p in range(8)),
                v2710=g["ju2710"][base + 1],
                pair_val=tuple(g["pair"][base + p] for p in range(10)),
            )
            for base in (0, 10)
        )
        self.jiao_val = tuple(g["jiao"][p] for p in range(10))
        self._summaries: dict[tuple[Group, ...], TableSummary] = {}
        self._kan_huxi: dict[int, int] = {0: 0}

    # -- table melds ----------------------------------------------------------
    def summarize(self, table: tuple[Group, ...]) -> TableSummary:
        s = self._summaries.get(table)
        if s is None:
            g = self.grid
            ups = []
            for m in table:
                c = int(m.cards[0])
                if m.kind is GroupKind.PENG:
                    ups.append((c, g["pao"][c] - g["peng"][c], g["pao"][c] - g["peng"][c]))
                elif m.kind in (GroupKind.WEI, GroupKind.CHOUWEI):
                    ups.append((c, g["pao"][c] - g["wei"][c], g["ti"][c] - g["wei"][c]))
            s = TableSummary(
                huxi=sum(m.huxi(self.rules) for m in table),
                fours=sum(1 for m in table if m.kind.is_four),
                melds=len(table),
                upgrades=tuple(ups),
            )
            if len(self._summaries) < 100_000:
                self._summaries[table] = s
        return s

    def kan_huxi(self, mask: int) -> int:
        v = self._kan_huxi.get(mask)
        if v is None:
            kan = self.grid["kan"]
            v = sum(kan[c] for c in range(20) if mask >> (3 * c) & 1)
            self._kan_huxi[mask] = v
        return v

    # -- the rest of the hand: 句, 绞 and at most one pair ---------------------
    def _rest(self, rest: int, pair: bool) -> tuple[int, tuple[int, int, int, int]]:
        """Best 胡息 of ``rest`` split into 句/绞 (+ one pair if ``pair``), and the
        winning choice (small key, big key, 绞 points (2 small), 绞 points (2 big))."""
        small, big = self.sizes
        s, b = rest & MASK30, rest >> 30
        es, eb = small.entry(s), big.entry(b)
        jiao = (es[3] & eb[2]) | (es[2] & eb[3])
        if pair:
            best = max(es[1] + eb[0], es[0] + eb[1])
        else:
            best = es[0] + eb[0]
        choice = (s, b, 0, 0)
        if jiao:
            for s2, b2, v, j2s, j2b in self._jiao_options(s, b, jiao):
                es, eb = small.entry(s2), big.entry(b2)
                t = v + (max(es[1] + eb[0], es[0] + eb[1]) if pair else es[0] + eb[0])
                if t > best:
                    best, choice = t, (s2, b2, j2s, j2b)
        return best, choice

    def _jiao_options(self, s: int, b: int, points: int) -> list[tuple[int, int, int, int, int]]:
        """Every non-empty choice of 绞 among ``points``: (small, big, 胡息, masks)."""
        opts = [(s, b, 0, 0, 0)]
        for p in range(10):
            if not points >> p & 1:
                continue
            sh = 3 * p
            nxt = []
            for s2, b2, v, m2s, m2b in opts:
                ns, nb = (s2 >> sh) & 7, (b2 >> sh) & 7
                nxt.append((s2, b2, v, m2s, m2b))
                if ns >= 2 and nb >= 1:
                    nxt.append((s2 - 2 * BIT[p], b2 - BIT[p], v + self.jiao_val[p], m2s | 1 << p, m2b))
                if ns >= 1 and nb >= 2:
                    nxt.append((s2 - BIT[p], b2 - 2 * BIT[p], v + self.jiao_val[p], m2s, m2b | 1 << p))
            opts = nxt
        return opts[1:]

    # -- completions (R25) -----------------------------------------------------
    def _completions(
        self, packed: int, t: TableSummary, win: int, self_drawn: bool
    ) -> Iterator[tuple[int, int, bool, str]]:
        """Each legal use of the winning card: (fixed 胡息, rest to split, pair needed, how).

        ``how`` is "hand" (card joins the rest; a 坎 of its kind stays whole: 破跑胡),
        "triple" (pair + card → 碰/偎 value), "kan" (坎 + card → 跑/提) or
        "table" (table 偎/碰 + card → 跑/提).
        """
        g = self.grid
        mask = kan_mask(packed)
        rest = packed - 3 * mask
        nkan = mask.bit_count()
        fixed = t.huxi + self.kan_huxi(mask)
        size = card_count(rest) + 1
        groups_before = t.melds + nkan
        pair = t.fours > 0
        # The 将 pair is a 门子 of its own (R22).
        if (size - 2 * pair) % 3 == 0 and groups_before + (size - 2 * pair) // 3 + pair == 7:
            yield fixed, rest + BIT[win], pair, "hand"
            if (rest >> (3 * win)) & 7 == 2:
                v = (g["wei"] if self_drawn else g["peng"])[win]
                yield fixed + v, rest - 2 * BIT[win], pair, "triple"
        size -= 1
        # The winning card turns a 坎 or table meld into a 跑/提: same 门子 count,
        # one more four, so the 将 pair is required.
        if (size - 2) % 3 == 0 and groups_before + (size - 2) // 3 + 1 == 7:
            if mask >> (3 * win) & 1:
                gain = (g["ti"] if self_drawn else g["pao"])[win] - g["kan"][win]
                yield fixed + gain, rest, True, "kan"
            for c, gain_pao, gain_ti in t.upgrades:
                if c == win:
                    yield fixed + (gain_ti if self_drawn else gain_pao), rest, True, "table"

    def best_huxi(
        self,
        packed: int,
        table: tuple[Group, ...] | TableSummary,
        win: int,
        self_drawn: bool = False,
    ) -> int:
        """Best 胡息 over every completion (R25–R27), or −1 with no 7-门子 shape."""
        t = table if isinstance(table, TableSummary) else self.summarize(table)
        best = -1
        for fixed, rest, pair, _ in self._completions(packed, t, win, self_drawn):
            v = self._rest(rest, pair)[0]
            if v >= 0 and fixed + v > best:
                best = fixed + v
        return best

    def current_huxi(self, packed: int, table: tuple[Group, ...] | TableSummary) -> int:
        """当前总息数 (R33): table melds + the best the concealed hand can show."""
        t = table if isinstance(table, TableSummary) else self.summarize(table)
        mask = kan_mask(packed)
        return t.huxi + self.kan_huxi(mask) + self.partial_huxi(packed - 3 * mask)

    def partial_huxi(self, rest: int) -> int:
        """Most 胡息 of disjoint 句/绞 in ``rest`` (no 坎), leftovers allowed."""
        small, big = self.sizes
        s, b = rest & MASK30, rest >> 30
        best = small.best_partial(s) + big.best_partial(b)
        # Any 绞 (a point held in both sizes, 3+ cards) may be worth taking.
        es, eb = small.entry(s), big.entry(b)
        jiao = (es[3] & eb[2]) | (es[2] & eb[3])
        if jiao and any(self.jiao_val):
            for s2, b2, v, _, _ in self._jiao_options(s, b, jiao):
                best = max(best, v + small.best_partial(s2) + big.best_partial(b2))
        return best

    def tingpai(
        self, packed: int, table: tuple[Group, ...] | TableSummary, self_drawn: bool = False
    ) -> dict[int, int]:
        """听牌: every card that would win now (≥ min 胡息), with its best 胡息."""
        t = table if isinstance(table, TableSummary) else self.summarize(table)
        seen = packed
        if not isinstance(table, TableSummary):
            seen += pack(c for m in table for c in m.cards)
        out = {}
        for c in range(20):
            if (seen >> (3 * c)) & 7 >= 4:
                continue
            v = self.best_huxi(packed, t, c, self_drawn)
            if v >= self.rules.min_huxi:
                out[c] = v
        return out

    def tianhu_huxi(self, packed: int, table: tuple[Group, ...]) -> int:
        """R28 mandatory 天胡: 提 and 坎 count whole, the rest as high as it goes."""
        return self.current_huxi(packed, table)

    # -- full analysis with the groups, for settlement and display -------------
    def analyse(self, pos: Position) -> Analysis:
        """Win or not, best 胡息 and the 7 门子 that give it."""
        packed = pack(pos.hand)
        if pos.win is None:  # mandatory 天胡: no shape needed (R28)
            huxi = self.tianhu_huxi(packed, pos.table)
            return Analysis(True, huxi, None, self._partial_groups(packed, pos.table))
        t = self.summarize(pos.table)
        win = int(pos.win)
        best = -1
        plan: tuple[int, int, bool, str] | None = None
        for fixed, rest, pair, how in self._completions(packed, t, win, pos.self_drawn):
            v = self._rest(rest, pair)[0]
            if v >= 0 and fixed + v > best:
                best, plan = fixed + v, (fixed, rest, pair, how)
        if plan is None:
            return Analysis(False, 0, "not_winning", ())
        groups = self._groups(packed, pos, plan)
        if best < self.rules.min_huxi:
            return Analysis(False, best, "below_min_huxi", groups)
        return Analysis(True, best, None, groups)

    def _groups(
        self, packed: int, pos: Position, plan: tuple[int, int, bool, str]
    ) -> tuple[Group, ...]:
        _, rest, pair, how = plan
        win = pos.win
        assert win is not None
        up = GroupKind.TI if pos.self_drawn else GroupKind.PAO
        out: list[Group] = []
        upgraded = False
        for m in pos.table:
            if how == "table" and not upgraded and m.cards[0] == win and len(m.cards) == 3 \
                    and m.kind in (GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI):
                kind = GroupKind.PAO if m.kind is GroupKind.PENG else up
                out.append(Group.of(kind, win))
                upgraded = True
            else:
                out.append(m)
        mask = kan_mask(packed)
        for c in range(20):
            if mask >> (3 * c) & 1:
                out.append(Group.of(up if how == "kan" and c == win else GroupKind.KAN, c))
        if how == "triple":
            out.append(Group.of(GroupKind.WEI if pos.self_drawn else GroupKind.PENG, win))
        out += self._rest_groups(rest, pair)
        return tuple(out)

    def _rest_groups(self, rest: int, pair: bool) -> list[Group]:
        _, (s, b, j2s, j2b) = self._rest(rest, pair)
        out = [Group(GroupKind.JIAO, (p, p, p + 10)) for p in range(10) if j2s >> p & 1]
        out += [Group(GroupKind.JIAO, (p, p + 10, p + 10)) for p in range(10) if j2b >> p & 1]
        small, big = self.sizes
        es, eb = small.entry(s), big.entry(b)
        pair_small = pair and es[1] + eb[0] >= es[0] + eb[1]
        for base, table, key, with_pair in ((0, small, s, pair_small), (10, big, b, pair and not pair_small)):
            for pts in table.decompose(key, with_pair):
                kind = GroupKind.JIANG if len(pts) == 2 else GroupKind.JU
                out.append(Group(kind, tuple(base + p for p in pts)))
        return out

    def _partial_groups(self, packed: int, table: tuple[Group, ...]) -> tuple[Group, ...]:
        """The scoring groups of a 天胡 hand: table, 坎s, and the best disjoint 句."""
        out = list(table)
        mask = kan_mask(packed)
        out += [Group.of(GroupKind.KAN, c) for c in range(20) if mask >> (3 * c) & 1]
        rest = packed - 3 * mask
        for base, tab, key in ((0, self.sizes[0], rest & MASK30), (10, self.sizes[1], rest >> 30)):
            while key:
                want = tab.best_partial(key)
                for v, nxt, _, pts in tab.choices(key, False):
                    if v + tab.best_partial(nxt) == want and v > 0:
                        out.append(Group(GroupKind.JU, tuple(base + p for p in pts)))
                        key = nxt
                        break
                else:  # the lowest card scores nothing: leave it out
                    key -= BIT[((key & -key).bit_length() - 1) // 3]
        return tuple(out)


_SIZES: dict[object, tuple[_SizeTable, _SizeTable]] = {}


@lru_cache(maxsize=64)
def evaluator_for(rules: Rules = HUNAN) -> HandEvaluator:
    """The (cached) evaluator for a rules object.

    Rules with the same 胡息 table share the filled per-size tables.
    """
    ev = HandEvaluator(rules)
    ev.sizes = _SIZES.setdefault(rules.huxi_table, ev.sizes)
    return ev
