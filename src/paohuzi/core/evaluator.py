"""胡牌判定 (húpái pàndìng): does a position win, and with how many 胡息 (R22–R27, R33)?

How it is fast. A concealed hand is a *packed int*, 3 bits per card kind. Three
identical cards in hand are a 坎 and never split (R22), so after removing the
坎s every kind has at most 2 cards (3 for the winning card's kind). 句 live
inside one size; only 绞 joins the sizes, and a point can hold at most one 绞.
So the hand is scored as: choose the 绞s (usually none are possible), then look
up each size's 30-bit part in a per-size table of "best 胡息 with / without the
将 pair". The tables fill lazily, each entry once per process.

衡阳's option 一五十 (``Rules.yiwushi``: 一五十 / 壹伍拾 a 句, priced ``ju1510``) is a
third kind of 句 the C kernel and the shipped tables (:mod:`tabledata`) do not know:
an evaluator for such rules runs the Python code on tables of its own, and every
module-level memo here keys on the option.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from . import profile as prof
from . import tabledata
from .cards import CARDS, Card
from .melds import MELD_ROWS, YIWUSHI_KEY, Group, GroupKind, shared_group
from .position import Position, shape_flags
from .rules import HUNAN, Rules, per_rules

try:  # the optional C kernel: setup.py builds it with PAOHUZI_COMPILE=1 (docs/speed.md)
    from . import _kernel as _kernel_module

    KERNEL: Any = _kernel_module
except ImportError:  # the default, pure-Python install
    KERNEL = None

NEG = -(10**6)  # "no decomposition"; sums with it stay negative
MASK30 = (1 << 30) - 1
BIT = tuple(1 << (3 * c) for c in range(20))
LOW = sum(BIT)  # bit 0 of every 3-bit field
FOURS = LOW << 2  # bit 2 of every field: a count of 4 or more


def pack(cards: Iterable[int]) -> int:
    """A hand as a packed int: 3 bits of count per card kind."""
    return sum(BIT[c] for c in cards)


def _cards(*cs: int) -> tuple[Card, ...]:
    return tuple(Card(c) for c in cs)


def unpack(packed: int) -> list[Card]:
    """The cards of a packed hand, sorted."""
    out: list[Card] = []
    for c in range(20):
        n = (packed >> (3 * c)) & 7
        if n:  # CARDS[c], not Card(c): an Enum call costs a microsecond a card
            out += (CARDS[c],) * n
    return out


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


# -- how many ways a hand splits (R46: a best-score settlement searches only two) --------
_LOW30 = LOW & MASK30


_RUN_MELD = 1 << prof.MELDS | 1 << prof.RUNS  # a 句 or 绞's profile, but for 胡息 and colour
_PAIR_MELD = 1 << prof.MELDS | 1 << prof.JIANG  # the 将's


def split_count(pos: Position, yiwushi: bool = False) -> int:
    """How many distinct splits into 门子 a winning position has, over every use of the
    winning card (R25, R27): 0, 1, or 2 for two or more — as many as
    ``scoring.decompositions`` lists, counted without building them (per choice of 绞,
    each size split by its lowest card). The uses are those of :meth:`HandEvaluator._best`.
    ``yiwushi``: 一五十 is a 句 (``Rules.yiwushi``)."""
    win = pos.win
    packed = pos.packed
    if win is None or packed & FOURS:
        return 0
    pair, hand_ok, four_ok = pos.shape
    mask = packed & packed >> 1 & LOW  # kan_mask (no four in hand here)
    rest = packed - 3 * mask
    at = 3 * win
    total = 0
    if hand_ok:  # the card joins the rest; or a pair and the card are a 碰/偎
        total = _rest_count(rest + (1 << at), pair, yiwushi)
        if rest >> at & 7 == 2:
            total += _rest_count(rest - (2 << at), pair, yiwushi)
    if four_ok and (mask >> at & 1 or pos.up_key >= 0):  # a 坎 or table 碰/偎 made a four
        total += _rest_count(rest, True, yiwushi)
    return total if total < 2 else 2


def _rest_count(rest: int, pair: bool, yiwushi: bool = False) -> int:
    """Distinct splits of ``rest`` into 句/绞 (and, with ``pair``, one 将): 0, 1 or 2+.
    At most one 绞 a point (two of one size, one of the other), then each size alone."""
    s, b = rest & MASK30, rest >> 30
    y = int(yiwushi) << 30  # the option's keys apart in _SIZE_INFO
    fs = _SIZE_INFO.get(s | y) or _size_info(s, yiwushi)
    fb = _SIZE_INFO.get(b | y) or _size_info(b, yiwushi)
    jiao = (fs[3] & fb[2]) | (fs[2] & fb[3])  # points where a 绞 can form (a field's low bit)
    if not jiao:  # (most rests): each size alone
        total = fs[1] * fb[0] + fs[0] * fb[1] if pair else fs[0] * fb[0]
        return total if total < 2 else 2
    choices = [(s, b)]
    while jiao:
        bit = jiao & -jiao
        jiao ^= bit
        two_small, two_big = fs[3] & fb[2] & bit, fs[2] & fb[3] & bit
        more = []
        for cs, cb in choices:
            if two_small:
                more.append((cs - 2 * bit, cb - bit))
            if two_big:
                more.append((cs - bit, cb - 2 * bit))
        choices += more
    total = 0
    for cs, cb in choices:
        fs = _SIZE_INFO.get(cs | y) or _size_info(cs, yiwushi)
        fb = _SIZE_INFO.get(cb | y) or _size_info(cb, yiwushi)
        total += fs[1] * fb[0] + fs[0] * fb[1] if pair else fs[0] * fb[0]
        if total >= 2:
            return 2
    return total


# one size's key (| 1 << 30 with 一五十) → _size_info
_SIZE_INFO: dict[int, tuple[int, int, int, int]] = {}


def _size_info(key: int, yiwushi: bool = False) -> tuple[int, int, int, int]:
    """Splits of one size with no 将 and with one (0, 1, 2+), and the points it holds
    at least once and at least twice (each point's field's low bit: where a 绞 could
    take cards)."""
    one = (key | key >> 1 | key >> 2) & _LOW30
    two = (key >> 1 | key >> 2) & _LOW30
    got = (_size_count(key, False, 0, yiwushi), _size_count(key, True, 0, yiwushi), one, two)
    if len(_SIZE_INFO) >= 1 << 16:  # bounded, as _COUNTS
        _SIZE_INFO.clear()
    _SIZE_INFO[key | int(yiwushi) << 30] = got
    return got


_RUN3 = 1 | 1 << 3 | 1 << 6  # a 句 from the lowest point
_TWO_SEVEN_TEN = 1 << 3 | 1 << 18 | 1 << 27  # 二七十
_ONE_FIVE_TEN = 1 | 1 << 12 | 1 << 27  # 一五十 (衡阳's option)
_COUNTS: dict[int, int] = {}  # (key, pair, floor, 一五十) → splits of one size, 0/1/2


def _size_count(key: int, pair: bool, floor: int, yiwushi: bool = False) -> int:
    """Splits of one size (30 bits) into 句, 二七十, (``yiwushi``) 一五十 and, with
    ``pair``, one 将: 0, 1, 2+. The lowest card starts a 句 (option 0), is 二 of 二七十
    (1), 一 of 一五十 (2) or is in the 将 (3); further copies of it take options from
    ``floor`` on, so that each multiset of groups is counted once, not once per order."""
    if not key:
        return 0 if pair else 1
    memo = key | int(pair) << 30 | floor << 31 | int(yiwushi) << 33
    got = _COUNTS.get(memo)
    if got is not None:
        return got
    sh = ((key & -key).bit_length() - 1) // 3 * 3  # the lowest point's field
    p = sh // 3
    total = 0
    for option in range(floor, 4):
        if option == 0:
            take = _RUN3 << sh
            ok = p <= 7 and key >> sh + 3 & 7 > 0 and key >> sh + 6 & 7 > 0
        elif option == 1:
            take = _TWO_SEVEN_TEN
            ok = p == 1 and key >> 18 & 7 > 0 and key >> 27 & 7 > 0
        elif option == 2:
            take = _ONE_FIVE_TEN
            ok = yiwushi and p == 0 and key >> 12 & 7 > 0 and key >> 27 & 7 > 0
        else:
            take = 2 << sh
            ok = pair and key >> sh & 7 >= 2
        if ok:
            nxt = key - take
            floor2 = option if nxt >> sh & 7 else 0
            total += _size_count(nxt, pair and option != 3, floor2, yiwushi)
            if total >= 2:
                break
    got = min(total, 2)
    if len(_COUNTS) >= 1 << 16:  # bounded: a long run meets many keys
        _COUNTS.clear()
    _COUNTS[memo] = got
    return got


class _SizeTable:
    """Best decompositions of one size's cards (10 points, 3 bits each).

    Entry = (best with no pair, best with exactly one pair, points with ≥1 card,
    points with ≥2 cards). Pairs and 绞 never appear inside: 绞 span both sizes.
    """

    __slots__ = (
        "decoded",
        "entries",
        "outcome_sets",
        "pair_val",
        "partial",
        "profiles",
        "run_val",
        "runs",
        "v1510",
        "v2710",
    )

    def __init__(
        self,
        run_val: tuple[int, ...],
        v2710: int,
        pair_val: tuple[int, ...],
        v1510: int | None = None,
    ):
        self.run_val = run_val  # 胡息 of the 句 starting at point index p (0 → 一二三)
        self.v2710 = v2710
        self.pair_val = pair_val
        self.v1510 = v1510  # 一五十's 胡息; None: not a 句 (rules without 衡阳's option)
        self.entries: dict[int, tuple[int, int, int, int]] = {0: (0, NEG, 0, 0)}
        self.partial: dict[int, int] = {0: 0}
        self.runs = b""  # tabledata bytes once prefill() is called (see _shipped)
        self.decoded: list[tuple[int, int]] = []  # per byte: (best without, with the 将)
        self.profiles: dict[int, int] = {0: 0, 1 << 30: 0}  # (key, 将) → profile.py's int
        self.outcome_sets: dict[int, tuple[tuple[int, int], ...]] = {}  # (key, 将) → outcomes

    def choices(self, key: int, pair: bool) -> Iterator[tuple[int, int, bool, tuple[int, ...]]]:
        """Ways to place the lowest card: (胡息, remaining key, pair still needed, points)."""
        p = ((key & -key).bit_length() - 1) // 3
        sh = 3 * p
        if p <= 7 and (key >> (sh + 3)) & 7 and (key >> (sh + 6)) & 7:
            yield self.run_val[p], key - BIT[p] - BIT[p + 1] - BIT[p + 2], pair, (p, p + 1, p + 2)
        if p == 1 and (key >> 18) & 7 and (key >> 27) & 7:
            yield self.v2710, key - BIT[1] - BIT[6] - BIT[9], pair, (1, 6, 9)
        v1510 = self.v1510
        if v1510 is not None and p == 0 and (key >> 12) & 7 and (key >> 27) & 7:
            yield v1510, key - BIT[0] - BIT[4] - BIT[9], pair, (0, 4, 9)
        if pair and (key >> sh) & 7 >= 2:
            yield self.pair_val[p], key - 2 * BIT[p], False, (p, p)

    def prefill(self, runs: bytes, scale: int) -> None:
        """Answer every key of :func:`_all_keys` from :mod:`tabledata` (precomputed
        valued-句 counts), when this table prices 一二三 = 二七十 = ``scale`` and
        nothing else. Entries are decoded on first use (:meth:`_shipped`), so a
        fresh process pays nothing up front."""
        if len(runs) != 3**10 + 10 * 3**9:
            raise ValueError("tabledata does not match the evaluator's keys: regenerate it")
        self.runs = runs

        def value(m: int) -> int:  # a count of valued 句, −1 for "no split"
            return m * scale if m >= 0 else NEG

        self.decoded = [(value((b & 15) - 1), value((b >> 4) - 1)) for b in range(256)]

    def preload(self) -> None:
        """Decode the whole shipped table now (0.2 s) instead of key by key."""
        if not self.runs:
            return
        keys, ge1s, ge2s = _all_keys()
        dec = self.decoded
        for k, b, g1, g2 in zip(keys, self.runs, ge1s, ge2s, strict=True):
            self.entries.setdefault(k, (*dec[b], g1, g2))

    def _shipped(self, key: int) -> tuple[int, int, int, int] | None:
        """The entry of ``key`` read from the shipped table, or None if it has none.

        The table's order (:func:`_all_keys`): keys with counts ≤ 2 by their base-3
        value (point 0 least significant), then per point p the keys holding p
        three times, by the base-3 value of the other nine points.
        """
        index, mul, three = 0, 1, -1
        for p in range(10):
            n = (key >> (3 * p)) & 7
            if n == 3 and three < 0:
                three = p
                continue
            if n >= 3:
                return None  # a 4, or a second 3: not a key the table holds
            index += n * mul
            mul *= 3
        if three >= 0:
            index += 3**10 + three * 3**9
        return (*self.decoded[self.runs[index]], *_point_masks(key))

    def is_standard(self) -> tuple[bool, int]:
        """Whether only 一二三/二七十 score, both the same (the default R9 table), and
        一五十 is no 句 (the shipped tables know none)."""
        v = self.run_val[0]
        ok = v == self.v2710 and not any(self.run_val[1:]) and not any(self.pair_val)
        ok = ok and self.v1510 is None
        return ok, v

    def entry(self, key: int) -> tuple[int, int, int, int]:
        e = self.entries.get(key)
        if e is None:
            e = self._shipped(key) if self.runs else None
            if e is None:
                e = self._fill(key)
            self.entries[key] = e
        return e

    def _fill(self, key: int) -> tuple[int, int, int, int]:
        best = [NEG, NEG]
        for pair in (0, 1):
            for v, rest, still, _ in self.choices(key, bool(pair)):
                sub = self.entry(rest)[1 if still else 0]
                if v + sub > best[pair]:
                    best[pair] = v + sub
        return (best[0], best[1], *_point_masks(key))

    def best_partial(self, key: int) -> int:
        """Most 胡息 from disjoint 句 of these cards, leftovers allowed (R33)."""
        v = self.partial.get(key)
        if v is None:
            v = self.best_partial(
                key - BIT[((key & -key).bit_length() - 1) // 3]
            )  # lowest card out
            for g, rest, _, _ in self.choices(key, False):
                v = max(v, g + self.best_partial(rest))
            self.partial[key] = v
        return v

    def decompose(self, key: int, pair: bool) -> list[tuple[int, ...]]:
        """Point tuples of one best decomposition (follows the table back)."""
        return [pts for _, pts in self._walk(key, pair)]

    def profile(self, key: int, pair: bool) -> int:
        """The :mod:`~paohuzi.core.profile` of :meth:`decompose`'s split (句 and 将 by
        their points: 二七十 are red in either size), memoised per key."""
        memo = key | pair << 30
        p = self.profiles.get(memo)
        if p is None:
            p = 0
            for v, pts in self._walk(key, pair):
                p += prof.of_meld(GroupKind.JIANG if len(pts) == 2 else GroupKind.JU, pts, v)
            if len(self.profiles) >= 1 << 16:  # bounded: a long run meets many keys
                self.profiles.clear()
            self.profiles[memo] = p
        return p

    def outcomes(self, key: int, pair: bool) -> tuple[tuple[int, int], ...]:
        """(胡息, profile) of every split of these cards into 句, 二七十 and (``pair``)
        one 将, each value once (none: they do not split), memoised per key."""
        if not key:
            return () if pair else ((0, 0),)
        memo = key | pair << 30
        got = self.outcome_sets.get(memo)
        if got is None:
            found: dict[tuple[int, int], None] = {}
            for v, rest, still, pts in self.choices(key, pair):
                mp = prof.of_meld(GroupKind.JIANG if len(pts) == 2 else GroupKind.JU, pts, v)
                for h, p in self.outcomes(rest, still):
                    found[v + h, mp + p] = None
            got = tuple(found)
            if len(self.outcome_sets) >= 1 << 16:  # bounded: a long run meets many keys
                self.outcome_sets.clear()
            self.outcome_sets[memo] = got
        return got

    def meld_profiles(self) -> tuple[list[int], int, list[int]]:
        """The profiles of this size's 句 by starting point, of 二七十 and of the 将 by
        point: what :meth:`profile` adds up (the C kernel is handed these)."""
        ju, jiang = GroupKind.JU, GroupKind.JIANG
        return (
            [prof.of_meld(ju, (p, p + 1, p + 2), self.run_val[p]) for p in range(8)],
            prof.of_meld(ju, (1, 6, 9), self.v2710),
            [prof.of_meld(jiang, (p, p), self.pair_val[p]) for p in range(10)],
        )

    def _walk(self, key: int, pair: bool) -> Iterator[tuple[int, tuple[int, ...]]]:
        """(胡息, points) of each group of one best decomposition, lowest card first: at
        each step the first placement (:meth:`choices` order) the table's value allows."""
        while key:
            want = self.entry(key)[1 if pair else 0]
            for v, rest, still, pts in self.choices(key, pair):
                if v + self.entry(rest)[1 if still else 0] == want:
                    yield v, pts
                    key, pair = rest, still
                    break
            else:  # pragma: no cover - the table says a decomposition exists
                raise AssertionError("inconsistent size table")


def _point_masks(key: int) -> tuple[int, int]:
    """Bit masks of the points of a one-size key held at least once / twice."""
    ge1 = ge2 = 0
    for p in range(10):
        n = (key >> (3 * p)) & 7
        if n:
            ge1 |= 1 << p
            if n >= 2:
                ge2 |= 1 << p
    return ge1, ge2


def _size_table(g: dict[str, list[int]], base: int, yiwushi: bool = False) -> _SizeTable:
    """The table of one size (``base`` 0: 小, 10: 大) priced by the 胡息 grid ``g``
    (``yiwushi``: 一五十 a 句 too, priced by its 一 / 壹)."""
    return _SizeTable(
        run_val=tuple(g["ju123"][base] if p == 0 else g["ju"][base + p] for p in range(8)),
        v2710=g["ju2710"][base + 1],
        pair_val=tuple(g["pair"][base + p] for p in range(10)),
        v1510=g["ju1510"][base] if yiwushi else None,
    )


@lru_cache(maxsize=1)
def _all_keys() -> tuple[list[int], list[int], list[int]]:
    """Every one-size key the evaluator meets: counts ≤ 2 (3**10 keys, base-3
    order, point 0 least significant), then those with one point held 3 times
    (a pair + the winning card; 10 × 3**9 keys, by that point) — with each
    key's ≥1 and ≥2 point masks."""
    keys, ge1, ge2 = [0], [0], [0]
    for p in range(10):
        b, m = BIT[p], 1 << p
        keys = [k + d * b for d in range(3) for k in keys]
        ge1 = [g | (m if d else 0) for d in range(3) for g in ge1]
        ge2 = [g | (m if d == 2 else 0) for d in range(3) for g in ge2]
    k3: list[int] = []
    g13: list[int] = []
    g23: list[int] = []
    for p in range(10):
        sh, m, add = 3 * p, 1 << p, 3 * BIT[p]
        free = [i for i, k in enumerate(keys) if not (k >> sh) & 7]
        k3 += [keys[i] + add for i in free]
        g13 += [ge1[i] | m for i in free]
        g23 += [ge2[i] | m for i in free]
    return keys + k3, ge1 + g13, ge2 + g23


def valued_run_counts() -> bytes:
    """The table behind :mod:`tabledata`: per key of :func:`_all_keys`, most valued
    句 (一二三/二七十) without / with the 将 pair, as a byte ``(m0 + 1) | (m1 + 1) << 4``
    (0 = no split)."""
    t = _SizeTable(run_val=(1,) + (0,) * 7, v2710=1, pair_val=(0,) * 10)
    out = bytearray()
    for key in _all_keys()[0]:
        m0, m1, _, _ = t.entry(key)
        out.append((max(m0, -1) + 1) | (max(m1, -1) + 1) << 4)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class TableSummary:
    """What the evaluator needs of a seat's table melds, computed once per table."""

    huxi: int
    fours: int  # k of R17
    melds: int
    cards: int
    # Per card kind: 胡息 gained if that card upgrades a table meld to 跑 (turned up
    # by another) / to 提 (self-drawn); −1 when there is no 碰/偎 of that kind.
    up_pao: tuple[int, ...]
    up_ti: tuple[int, ...]
    profile: int = 0  # the melds' :mod:`~paohuzi.core.profile`
    # This process's serial number of the fields above (:func:`summary_key`; −1: not
    # asked). The bots' memos key on it: an int hashes in C, where the dataclass's
    # ``__hash__`` is Python hashing two 20-tuples at every look-up.
    key: int = field(default=-1, compare=False, repr=False)

    def fields(self) -> tuple[Any, ...]:
        return (
            self.huxi,
            self.fours,
            self.melds,
            self.cards,
            self.up_pao,
            self.up_ti,
            self.profile,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # by its fields (mypyc's frozen dataclass cannot be unpickled attribute by
        # attribute), its key made again: serial numbers are this process's own
        return (_summary_of, self.fields())


# Serial numbers of the distinct TableSummary fields: never reused (a clear goes on
# counting), so a number stands for one set of fields for good and a memo keyed on it
# can never mistake one table for another.
_SERIALS: dict[tuple[Any, ...], int] = {}
_NEXT_SERIAL = itertools.count()


def _serial(fields: tuple[Any, ...]) -> int:
    s = _SERIALS.get(fields)
    if s is None:
        if len(_SERIALS) >= 1 << 16:  # bounded, as the evaluator's summaries
            _SERIALS.clear()
        s = _SERIALS[fields] = next(_NEXT_SERIAL)
    return s


def summary_key(t: TableSummary) -> int:
    """An int naming ``t``'s fields in this process (equal fields, one number, unless
    the numbering was cleared between: then a new one, never another table's)."""
    return t.key if t.key >= 0 else _serial(t.fields())


def _summary_of(
    huxi: int, fours: int, melds: int, cards: int, up_pao: Any, up_ti: Any, profile: int
) -> TableSummary:
    f = (huxi, fours, melds, cards, tuple(up_pao), tuple(up_ti), profile)
    return TableSummary(*f, key=_serial(f))


@dataclass(frozen=True, slots=True)
class Analysis:
    """The evaluator's verdict on a position (before 等/名堂, see scoring)."""

    win: bool
    huxi: int  # best 胡息 found (0 when there is no shape)
    error: str | None  # None | "not_winning" | "below_min_huxi"
    groups: tuple[Group, ...]  # the 7 门子 of the best decomposition (empty without a shape)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Analysis, (self.win, self.huxi, self.error, self.groups))  # as TableSummary


class HandEvaluator:
    """Scores hands under one rules object; get one with :func:`evaluator_for`."""

    def __init__(
        self,
        rules: Rules,
        sizes: tuple[_SizeTable, _SizeTable] | None = None,
        native: bool = True,
    ):
        """``native=False`` keeps this evaluator on the Python code even where the C
        kernel is built (the tests compare the two)."""
        self.rules = rules
        self.yiwushi = rules.yiwushi  # 一五十 a 句 (衡阳's option): Python only, tables apart
        self.target = rules.melds_to_win  # 门子 of a win (R22, R43)
        self._shapes: dict[int, tuple[bool, bool, bool]] = {}  # shape_of's memo
        g = rules.huxi_table.grid()
        self.grid = g
        y = self.yiwushi
        self.sizes: tuple[_SizeTable, _SizeTable] = sizes or (
            _size_table(g, 0, y),
            _size_table(g, 10, y),
        )
        if (self.sizes[0].v1510 is not None) != y:  # pragma: no cover - a caller's slip
            raise ValueError("size tables made for the other 一五十 option")
        if sizes is None:
            for table in self.sizes:
                ok, scale = table.is_standard()
                if ok:
                    table.prefill(tabledata.runs(), scale)
        # Bound dicts and value lists: the hot path avoids attribute chains.
        self._small = self.sizes[0].entries
        self._big = self.sizes[1].entries
        self._peng, self._wei, self._kan = g["peng"], g["wei"], g["kan"]
        self._pao, self._ti = g["pao"], g["ti"]
        self.jiao_val = tuple(g["jiao"][p] for p in range(10))
        # per table key; without the option no key of 一五十's row: a lookup of one fails
        # (IndexError), and only then is the reason asked (:meth:`_table_error`)
        self._rows = MELD_ROWS if y else MELD_ROWS[: YIWUSHI_KEY // 20]
        self._flat = [g["wei" if r == "chouwei" else r][c] for r in self._rows for c in range(20)]
        self._flat_get = self._flat.__getitem__
        # 胡息 gained when the winning card upgrades a table meld (key) to 跑 / 提.
        self._gain_pao = [
            g["pao"][c] - g["peng" if r == "peng" else "wei"][c]
            if r in ("peng", "wei", "chouwei")
            else -1
            for r in MELD_ROWS
            for c in range(20)
        ]
        self._gain_ti = [
            g["pao" if r == "peng" else "ti"][c] - g["peng" if r == "peng" else "wei"][c]
            if r in ("peng", "wei", "chouwei")
            else -1
            for r in MELD_ROWS
            for c in range(20)
        ]
        self._summaries: dict[tuple[int, ...], TableSummary] = {}
        self._kan_huxi: dict[int, int] = {0: 0}
        self._profiles(g)
        self._partial: dict[int, int] = {}  # partial_huxi memo (views ask it every step)
        self._jiao_cache: dict[int, list[tuple[int, int, int, int, int]]] = {}
        # (position, rest, pair, choice of split, uses of the card that split) of the last
        # plan made in Python: the settlement asks right after for its split (profile,
        # groups: _rest_choice) and whether the hand splits another way (plan_splits)
        self._last_plan: tuple[Any, int, bool, tuple[int, int, int, int], int] = (
            None,
            -1,
            False,
            (0, 0, 0, 0),
            0,
        )
        # A 胡息 table where a four made with the winning card is worth less than what it
        # replaces: _best leaves that use untried, so its uses are not split_count's
        self._four_loses = any(
            min(pao - g["peng"][c], pao - g["wei"][c], ti - g["wei"][c], min(pao, ti) - g["kan"][c])
            < 0
            for c, pao, ti in zip(range(20), g["pao"], g["ti"], strict=False)
        )
        # The C kernel (None: pure Python): same results, each call in C. It knows no
        # 一五十: rules with the option stay in Python.
        native = native and not y
        self._kernel: Any = _kernel_for(self) if native and KERNEL is not None else None
        self._core: Any = None if self._kernel is None else self._kernel.core

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its rules: a pickled game state (OpenSpiel's serialize, a process
        pool) gets the process's shared evaluator back — the C kernel does not pickle,
        and a copy of the filled tables would be a second evaluator to keep."""
        return (evaluator_for, (self.rules,))

    def preload(self) -> None:
        """Decode the shipped split tables in full now (about 0.2 s) rather than
        key by key on first use: for timing the evaluator on a fresh process."""
        for table in self.sizes:
            table.preload()

    # -- table melds ----------------------------------------------------------
    def summarize(self, table: tuple[Group, ...] | tuple[int, ...]) -> TableSummary:
        """The :class:`TableSummary` of table melds (Groups or their ``Group.key``)."""
        keys = tuple(m if isinstance(m, int) else m.key for m in table)
        t = self._summaries.get(keys)
        return t if t is not None else self._summarize(keys)

    def summarize_keys(self, keys: tuple[int, ...]) -> TableSummary:
        """:meth:`summarize` of ``Group.key`` values (the engine's hot path)."""
        t = self._summaries.get(keys)
        return t if t is not None else self._summarize(keys)

    def _table_error(self, keys: tuple[int, ...]) -> None:
        """Refuse, in words, a table 一五十 under rules without 衡阳's option: asked where a
        lookup by key failed (the Python list's end; the C kernel's range check says the
        same words), never on the hot path."""
        if not self.yiwushi and any(k >= YIWUSHI_KEY for k in keys):
            raise ValueError(_NO_YIWUSHI)

    def _summarize(self, keys: tuple[int, ...]) -> TableSummary:
        self._table_error(keys)  # (once per key tuple: summaries are memoised)
        up_pao, up_ti = [-1] * 20, [-1] * 20
        huxi = fours = cards = 0
        for k in keys:
            row, c = MELD_ROWS[k // 20], k % 20
            huxi += self._flat[k]
            if row in ("pao", "ti"):
                fours += 1
                cards += 4
            else:
                cards += 3
            if self._gain_pao[k] >= 0:
                up_pao[c], up_ti[c] = self._gain_pao[k], self._gain_ti[k]
        kp = self.key_profile
        t = _summary_of(huxi, fours, len(keys), cards, up_pao, up_ti, sum(kp[k] for k in keys))
        if len(self._summaries) >= 1 << 14:  # bounded: a server's GC walks every entry
            self._summaries.clear()
        self._summaries[keys] = t
        return t

    def kan_huxi(self, mask: int) -> int:
        v = self._kan_huxi.get(mask)
        if v is None:
            kan = self.grid["kan"]
            v = sum(kan[c] for c in range(20) if mask >> (3 * c) & 1)
            self._kan_huxi[mask] = v
        return v

    # -- the profile of a split (core/profile.py), looked up, not built -------------
    def _profiles(self, g: dict[str, list[int]]) -> None:
        """The profiles the evaluator adds up (:meth:`profile`; the C kernel reads the same
        lists): per table meld key, per card of a 坎 / 碰 / 偎 / 跑 / 提, per point of a 绞."""
        of = prof.of_meld
        kinds = {"peng": GroupKind.PENG, "wei": GroupKind.WEI, "chouwei": GroupKind.CHOUWEI}
        kinds |= {"pao": GroupKind.PAO, "ti": GroupKind.TI}
        spans = {"ju123": (0, 1, 2), "ju2710": (0, 5, 8), "ju": (0, 1, 2), "jiao": (0, 10)}
        spans["ju1510"] = (0, 4, 9)
        self.key_profile = [
            of(kinds.get(row, GroupKind.CHI), [c + d for d in spans.get(row, (0,))], self._flat[i])
            for i, (row, c) in enumerate((r, c) for r in self._rows for c in range(20))
        ]
        self.card_profile = {
            k: [of(kind, (c,), g[k][c]) for c in range(20)]
            for k, kind in (
                ("kan", GroupKind.KAN),
                ("peng", GroupKind.PENG),
                ("wei", GroupKind.WEI),
                ("pao", GroupKind.PAO),
                ("ti", GroupKind.TI),
            )
        }
        self.jiao_profile = [of(GroupKind.JIAO, (p,), self.jiao_val[p]) for p in range(10)]
        self._kan_profiles: dict[int, int] = {0: 0}

    def profile(self, pos: Position, plan: tuple[int, int, bool, str], whole: bool = True) -> int:
        """The :mod:`~paohuzi.core.profile` of :meth:`split`'s 门子 for ``plan``, added up
        from the table's, the 坎's, the winning card's group and the rest's (per size and
        绞) without building a group. With ``whole`` False only the counts of 门子, runs
        and 将 are right: the rest's cards make (n − 2·将) / 3 runs whatever its split,
        so nothing is followed (what 对子胡 reads)."""
        _, rest, pair, how = plan
        win = pos.win
        assert win is not None
        cp = self.card_profile
        four = cp["ti" if pos.self_drawn else "pao"]
        p = self.summarize_keys(pos.table_keys).profile
        if how == "table":  # the 碰/偎 of the winning card became a 跑/提
            k = pos.up_key
            p += (cp["pao"] if k < 20 else four)[win] - self.key_profile[k]
        mask = kan_mask(pos.packed)
        if mask:
            p += self.kan_profile(mask)
            if how == "kan":
                p += four[win] - cp["kan"][win]
        if how == "triple":
            p += cp["wei" if pos.self_drawn else "peng"][win]
        if not whole:
            runs = (card_count(rest) - 2 * pair) // 3
            return p + runs * _RUN_MELD + pair * _PAIR_MELD
        return p + self.rest_profile(rest, pair)

    def kan_profile(self, mask: int) -> int:
        """The profile of the 坎 of ``kan_mask``'s bits (memoised, as :meth:`kan_huxi`)."""
        p = self._kan_profiles.get(mask)
        if p is None:
            kan = self.card_profile["kan"]
            p = self._kan_profiles[mask] = sum(kan[c] for c in range(20) if mask >> 3 * c & 1)
        return p

    def rest_profile(self, rest: int, pair: bool) -> int:
        """The profile of the 句, 绞 and 将 :meth:`_rest_groups` makes of ``rest``."""
        s, b, j2s, j2b = self._rest_choice(rest, pair)
        p = 0
        jiao = j2s | j2b
        while jiao:
            low = jiao & -jiao
            p += self.jiao_profile[low.bit_length() - 1]
            jiao ^= low
        small, big = self.sizes
        if pair:
            es = self._small.get(s) or small.entry(s)
            eb = self._big.get(b) or big.entry(b)
            pair_small = es[1] + eb[0] >= es[0] + eb[1]
        else:
            pair_small = False
        # the size tables' profile memos read straight (SizeTable.profile fills them)
        ks, kb = s | pair_small << 30, b | (pair and not pair_small) << 30
        ps, pb = small.profiles.get(ks), big.profiles.get(kb)
        if ps is None:
            ps = small.profile(s, pair_small)
        if pb is None:
            pb = big.profile(b, pair and not pair_small)
        return p + ps + pb

    def outcomes(self, pos: Position) -> set[tuple[int, int]]:
        """(胡息, profile) of every split of a winning position (R25, R27: each use of the
        winning card :func:`split_count` counts; R46: what a best-score settlement compares
        when a 名堂 reads the split), each once, no split built."""
        win = pos.win
        out: set[tuple[int, int]] = set()
        packed = pos.packed
        if win is None or packed & FOURS:
            return out
        pair, hand_ok, four_ok = pos.shape
        t = self.summarize_keys(pos.table_keys)
        mask = kan_mask(packed)
        rest = packed - 3 * mask
        cp = self.card_profile
        h0 = t.huxi + self.kan_huxi(mask)
        p0 = t.profile + self.kan_profile(mask)
        sd = pos.self_drawn
        uses = []
        if hand_ok:  # the card joins the rest; or a pair and the card are a 碰/偎
            uses.append((h0, p0, rest + BIT[win], pair))
            if rest >> 3 * win & 7 == 2:
                tri = "wei" if sd else "peng"
                uses.append(
                    (h0 + self.grid[tri][win], p0 + cp[tri][win], rest - 2 * BIT[win], pair)
                )
        four = "ti" if sd else "pao"
        if four_ok and mask >> 3 * win & 1:  # a 坎 and the card: 跑/提
            gain = self.grid[four][win] - self.grid["kan"][win]
            uses.append((h0 + gain, p0 + cp[four][win] - cp["kan"][win], rest, True))
        elif four_ok and pos.up_key >= 0:  # a table 碰/偎 and the card: 跑/提
            k = pos.up_key
            gain = (self._gain_ti if sd else self._gain_pao)[k]
            made = cp["pao" if k < 20 else four][win]
            uses.append((h0 + gain, p0 + made - self.key_profile[k], rest, True))
        for h, p, r, pr in uses:
            out.update((h + rh, p + rp) for rh, rp in self.rest_outcomes(r, pr))
        return out

    def rest_outcomes(self, rest: int, pair: bool) -> set[tuple[int, int]]:
        """(胡息, profile) of every split of ``rest`` into 句, 绞 (at most one a point) and,
        with ``pair``, one 将."""
        small, big = self.sizes
        s, b = rest & MASK30, rest >> 30
        choices = [(s, b, 0, 0)]
        for p in range(10):  # a 绞: 2 小 + 1 大 or 1 小 + 2 大 of one point
            ns, nb = s >> 3 * p & 7, b >> 3 * p & 7
            if ns + nb < 3 or not ns or not nb:
                continue
            v, vp, bit = self.jiao_val[p], self.jiao_profile[p], BIT[p]
            more = []
            for cs, cb, h, q in choices:
                if ns >= 2:
                    more.append((cs - 2 * bit, cb - bit, h + v, q + vp))
                if nb >= 2:
                    more.append((cs - bit, cb - 2 * bit, h + v, q + vp))
            choices += more
        out: set[tuple[int, int]] = set()
        sides = ((True, False), (False, True)) if pair else ((False, False),)
        for cs, cb, h, q in choices:
            for ps, pb in sides:
                for h1, p1 in small.outcomes(cs, ps):
                    out.update((h + h1 + h2, q + p1 + p2) for h2, p2 in big.outcomes(cb, pb))
        return out

    # -- the rest of the hand: 句, 绞 and at most one pair ---------------------
    def _rest(self, rest: int, pair: bool, choice: list | None = None) -> int:
        """Best 胡息 of ``rest`` split into 句/绞 (+ exactly one pair if ``pair``).

        With ``choice`` given, appends (small key, big key, 绞 masks) of the best split.
        """
        S, B = self._small, self._big
        s, b = rest & MASK30, rest >> 30
        es = S.get(s) or self.sizes[0].entry(s)
        eb = B.get(b) or self.sizes[1].entry(b)
        if pair:
            best = es[1] + eb[0]
            if es[0] + eb[1] > best:
                best = es[0] + eb[1]
        else:
            best = es[0] + eb[0]
        jiao = (es[3] & eb[2]) | (es[2] & eb[3])
        arg = (s, b, 0, 0)
        if jiao:
            opts = self._jiao_cache.get(jiao | (es[3] & jiao) << 10 | (eb[3] & jiao) << 20)
            if opts is None:
                opts = self._jiao_deltas(jiao, es[3] & jiao, eb[3] & jiao)
            for ds, db, v, js, jb in opts:
                es = S.get(s - ds) or self.sizes[0].entry(s - ds)
                eb = B.get(b - db) or self.sizes[1].entry(b - db)
                if pair:
                    t = v + (es[1] + eb[0] if es[1] + eb[0] > es[0] + eb[1] else es[0] + eb[1])
                else:
                    t = v + es[0] + eb[0]
                if t > best:
                    best = t
                    if choice is not None:
                        arg = (s - ds, b - db, js, jb)
        if choice is not None:
            choice.append(arg)
        return best

    def _jiao_deltas(
        self, points: int, two_small: int, two_big: int
    ) -> list[tuple[int, int, int, int, int]]:
        """Every non-empty choice of one 绞 per point of ``points``, as the cards it
        takes: (small delta, big delta, 胡息, points with 2 small, points with 2 big).
        A point offers 2 small + 1 big if it holds 2 small, 1 + 2 if it holds 2 big."""
        opts = [(0, 0, 0, 0, 0)]
        for p in range(10):
            m = 1 << p
            if not points & m:
                continue
            bit, v = BIT[p], self.jiao_val[p]
            nxt = list(opts)
            for ds, db, w, js, jb in opts:
                if two_small & m:
                    nxt.append((ds + 2 * bit, db + bit, w + v, js | m, jb))
                if two_big & m:
                    nxt.append((ds + bit, db + 2 * bit, w + v, js, jb | m))
            opts = nxt
        self._jiao_cache[points | two_small << 10 | two_big << 20] = opts[1:]
        return opts[1:]

    # -- completions (R25) -----------------------------------------------------
    def _best(
        self,
        packed: int,
        table_huxi: int,
        shape: tuple[bool, bool, bool],
        gain_up: int,
        win: int,
        self_drawn: bool,
        plans: list | None = None,
        info: list | None = None,
    ) -> int:
        """Best 胡息 over every use of the winning card (R25–R27), −1 without a shape.

        ``shape`` is :func:`shape_flags` of the holding. ``gain_up`` is what the
        card adds by upgrading a table 偎/碰 of its kind to 跑/提 (−1: there is
        none). The uses tried: "hand" (the card joins the rest; a 坎 of its kind
        stays whole: 破跑胡), "triple" (pair + card → 碰/偎 value), "kan" (坎 +
        card → 跑/提) and "table" (偎/碰 + card → 跑/提). With ``plans`` given,
        the best (fixed 胡息, rest, pair needed, use) is appended to it, and with ``info``
        its split's choice (:meth:`_rest`) and how many uses of the card split at all.
        """
        if self._core is not None and plans is None:
            return self._core(packed, table_huxi, shape, gain_up, win, self_drawn)
        if packed & FOURS:
            return -1  # four of a kind in hand: it must already be a 提 (R12)
        mask = packed & (packed >> 1) & LOW  # kinds held 3 times: 坎
        if mask:
            rest = packed - 3 * mask
            kh = self._kan_huxi.get(mask)
            fixed = table_huxi + (kh if kh is not None else self.kan_huxi(mask))
        else:
            rest, fixed = packed, table_huxi
        pair, hand_ok, four_ok = shape
        best = -1
        plan = None
        # with ``plans``: each completion's choice of split too (the plan's is kept)
        choices: list[tuple[int, int, int, int]] | None = None if info is None else []
        at = -1  # the plan's in ``choices``
        uses = 0  # of the card that split (R25)
        if hand_ok:
            r = rest + BIT[win]
            v = self._rest(r, pair, choices)
            if v >= 0:
                best = fixed + v
                uses = 1
                if plans is not None:
                    plan, at = (fixed, r, pair, "hand"), 0
            if (rest >> (3 * win)) & 7 == 2:
                f2 = fixed + (self._wei if self_drawn else self._peng)[win]
                r = rest - 2 * BIT[win]
                v = self._rest(r, pair, choices)
                if v >= 0:
                    uses += 1
                    if f2 + v > best:
                        best = f2 + v
                        if plans is not None:
                            plan, at = (f2, r, pair, "triple"), 1
        if four_ok:
            if mask >> (3 * win) & 1:
                gain, how = (self._ti if self_drawn else self._pao)[win] - self._kan[win], "kan"
            else:  # a table 偎/碰 of the card (never both: only four copies)
                gain, how = gain_up, "table"
            if gain >= 0:
                v = self._rest(rest, True, choices)
                if v >= 0:
                    uses += 1
                    if fixed + gain + v > best:
                        best = fixed + gain + v
                        if plans is not None:
                            plan, at = (fixed + gain, rest, True, how), -1
        if plan is not None:
            plans.append(plan)  # type: ignore[union-attr]
            if info is not None and choices is not None:
                info.append(choices[at])
                info.append(uses)
        return best

    def shape_of(self, n_hand: int, t: TableSummary) -> tuple[bool, bool, bool]:
        """:func:`shape_flags` of ``n_hand`` cards in hand over the table ``t``, looked up
        (a few hundred keys): the engine asks it at every change of a holding, the bots
        for every card they try."""
        k = n_hand | t.melds << 8 | t.fours << 16
        s = self._shapes.get(k)
        if s is None:
            s = self._shapes[k] = shape_flags(n_hand, t.melds, t.fours, self.target)
        return s

    def best_huxi(
        self,
        packed: int,
        table: tuple[Group, ...] | TableSummary,
        win: int,
        self_drawn: bool = False,
    ) -> int:
        """Best 胡息 over every completion (R25–R27), or −1 with no 7-门子 shape."""
        t = table if isinstance(table, TableSummary) else self.summarize(table)
        up = (t.up_ti if self_drawn else t.up_pao)[win]
        shape = self.shape_of(card_count(packed), t)
        return self._best(packed, t.huxi, shape, up, win, self_drawn)

    def best(self, pos: Position) -> int:
        """Best 胡息 of a position, −1 without a shape (no ``min_huxi`` check)."""
        k = self._kernel
        if k is not None:  # (a table 一五十 here: the kernel says _NO_YIWUSHI's words)
            return k.best(pos)
        win = pos.win
        if win is None:
            return self.tianhu_huxi(pos.packed, pos.table)
        try:
            huxi = sum(map(self._flat_get, pos.table_keys))
        except IndexError:
            self._table_error(pos.table_keys)
            raise
        up = (
            -1
            if pos.up_key < 0
            else (self._gain_ti if pos.self_drawn else self._gain_pao)[pos.up_key]
        )
        return self._best(pos.packed, huxi, pos.shape, up, win, pos.self_drawn)

    def _at_deal(self, pos: Position) -> int:
        """:meth:`best` of a mandatory 天胡 (R28, no winning card): the kernel's fallback."""
        return self.tianhu_huxi(pos.packed, pos.table)

    def current_huxi(self, packed: int, table: tuple[Group, ...] | TableSummary) -> int:
        """当前总息数 (R33): table melds + the best the concealed hand can show."""
        t = table if isinstance(table, TableSummary) else self.summarize(table)
        kernel = self._kernel
        if kernel is not None:  # the same sum in C (the view asks it of every seat)
            v = kernel.current(packed, t.huxi)
            if v is not None:
                return int(v)
        mask = kan_mask(packed)
        return t.huxi + self.kan_huxi(mask) + self.partial_huxi(packed - 3 * mask)

    def partial_huxi(self, rest: int) -> int:
        """Most 胡息 of disjoint 句/绞 in ``rest`` (no 坎), leftovers allowed."""
        v = self._partial.get(rest)
        if v is None:
            if len(self._partial) >= 1 << 15:  # bounded: a server's GC walks it
                self._partial.clear()
            v = self._partial[rest] = self._partial_huxi(rest)
        return v

    def _partial_huxi(self, rest: int) -> int:
        small, big = self.sizes
        s, b = rest & MASK30, rest >> 30
        best = small.best_partial(s) + big.best_partial(b)
        # Any 绞 (a point held in both sizes, 3+ cards) may be worth taking.
        es, eb = small.entry(s), big.entry(b)
        jiao = (es[3] & eb[2]) | (es[2] & eb[3])
        if jiao and any(self.jiao_val):
            for ds, db, v, _, _ in self._jiao_deltas(jiao, es[3] & jiao, eb[3] & jiao):
                best = max(best, v + small.best_partial(s - ds) + big.best_partial(b - db))
        return best

    def tingpai(
        self, packed: int, table: tuple[Group, ...], self_drawn: bool = False
    ) -> dict[int, int]:
        """听牌: every card that would win now (≥ min 胡息), with its best 胡息.

        Cards whose four copies are all in this hand and table are left out.
        """
        t = self.summarize(table)
        seen = packed + pack(c for m in table for c in m.cards)
        shape = self.shape_of(card_count(packed), t)
        out = {}
        for c in range(20):
            if (seen >> (3 * c)) & 7 >= 4:
                continue
            up = (t.up_ti if self_drawn else t.up_pao)[c]
            v = self._best(packed, t.huxi, shape, up, c, self_drawn)
            if v >= self.rules.min_huxi:
                out[c] = v
        return out

    def tianhu_huxi(self, packed: int, table: tuple[Group, ...]) -> int:
        """R28 mandatory 天胡: 提 and 坎 count whole, the rest as high as it goes."""
        return self.current_huxi(packed, table)

    # -- full analysis with the groups, for settlement and display -------------
    def analyse(self, pos: Position) -> Analysis:
        """Win or not, best 胡息 and the 7 门子 that give it."""
        packed = pos.packed
        if pos.win is None:  # mandatory 天胡: no shape needed (R28)
            huxi = self.tianhu_huxi(packed, pos.table)
            return Analysis(True, huxi, None, self._partial_groups(packed, pos.table))
        plans: list[tuple[int, int, bool, str]] = []
        t = self.summarize(pos.table_keys)
        win = pos.win
        up = (t.up_ti if pos.self_drawn else t.up_pao)[win]
        if self._kernel is not None:
            best, plan = self._kernel.plan(packed, t.huxi, pos.shape, up, win, pos.self_drawn)
            if plan is not None:
                plans.append(plan)
        else:
            best = self._best(packed, t.huxi, pos.shape, up, win, pos.self_drawn, plans)
        if best < 0:
            return Analysis(False, 0, "not_winning", ())
        plan = plans[0]
        groups = self._groups(packed, pos, plan)
        if best < self.rules.min_huxi:
            return Analysis(False, best, "below_min_huxi", groups)
        return Analysis(True, best, None, groups)

    def plan(
        self, pos: Position, record: bool = True
    ) -> tuple[int, tuple[int, int, bool, str] | None]:
        """Best 胡息 and how the winning card is used, without building groups
        (``plan`` None: no shape); :meth:`split` turns the plan into the 门子. With
        ``record`` (Python path), what :meth:`_rest_choice` and :meth:`plan_splits`
        then read is kept (a settlement that reads neither asks without)."""
        kernel = getattr(self, "_kernel", None)  # the C kernel (issue 27), when built
        if kernel is not None:  # (it reads the position's fields itself, as best does)
            return kernel.plan_of(pos)
        win = pos.win
        assert win is not None
        keys = pos.table_keys
        up = (
            -1
            if pos.up_key < 0
            else (self._gain_ti if pos.self_drawn else self._gain_pao)[pos.up_key]
        )
        try:
            huxi = sum(map(self._flat_get, keys))
        except IndexError:
            self._table_error(keys)
            raise
        plans: list[tuple[int, int, bool, str]] = []
        info: list[Any] | None = [] if record else None
        best = self._best(pos.packed, huxi, pos.shape, up, win, pos.self_drawn, plans, info)
        if not plans or info is None:
            return best, (plans[0] if plans else None)
        plan = plans[0]
        self._last_plan = (pos, plan[1], plan[2], info[0], info[1])  # (one assignment: threads)
        return best, plan

    def plan_splits(self, pos: Position, plan: tuple[int, int, bool, str]) -> int:
        """:func:`split_count` of a position :meth:`plan` just planned (0, 1 or 2+): with
        one use of the winning card that splits, only the plan's rest is counted."""
        last = self._last_plan  # (read once: another thread may plan meanwhile)
        if last[0] is pos and last[1] == plan[1] and last[2] == plan[2] and not self._four_loses:
            return 2 if last[4] > 1 else _rest_count(plan[1], plan[2], self.yiwushi)
        return split_count(pos, self.yiwushi)

    def split(self, pos: Position, plan: tuple[int, int, bool, str]) -> tuple[Group, ...]:
        """The 门子 of :meth:`plan`'s best split."""
        return self._groups(pos.packed, pos, plan)

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
            if (
                how == "table"
                and not upgraded
                and m.cards[0] == win
                and len(m.cards) == 3
                and m.kind in (GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI)
            ):
                kind = GroupKind.PAO if m.kind is GroupKind.PENG else up
                out.append(shared_group(kind, (win,) * 4))
                upgraded = True
            else:
                out.append(m)
        mask = kan_mask(packed)
        for c in range(20):
            if mask >> (3 * c) & 1:
                four = how == "kan" and c == win
                out.append(
                    shared_group(up, (c,) * 4) if four else shared_group(GroupKind.KAN, (c,) * 3)
                )
        if how == "triple":
            out.append(
                shared_group(GroupKind.WEI if pos.self_drawn else GroupKind.PENG, (win,) * 3)
            )
        out += self._rest_groups(rest, pair)
        return tuple(out)

    def _rest_choice(self, rest: int, pair: bool) -> tuple[int, int, int, int]:
        """The best split's choice for ``rest``: (small key, big key, points of the 绞
        with 2 小, with 2 大) — the kernel's when built, else :meth:`_rest`'s."""
        if self._kernel is not None:
            got: tuple[int, int, int, int] = self._kernel.rest(rest, pair)[1]
            return got
        last = self._last_plan  # (read once: another thread may plan meanwhile)
        if last[1] == rest and last[2] == pair:
            return last[3]
        choice: list[tuple[int, int, int, int]] = []
        self._rest(rest, pair, choice)
        return choice[0]

    def _rest_groups(self, rest: int, pair: bool) -> list[Group]:
        s, b, j2s, j2b = self._rest_choice(rest, pair)
        out = [shared_group(GroupKind.JIAO, (p, p, p + 10)) for p in range(10) if j2s >> p & 1]
        out += [
            shared_group(GroupKind.JIAO, (p, p + 10, p + 10)) for p in range(10) if j2b >> p & 1
        ]
        small, big = self.sizes
        es, eb = small.entry(s), big.entry(b)
        pair_small = pair and es[1] + eb[0] >= es[0] + eb[1]
        for base, table, key, with_pair in (
            (0, small, s, pair_small),
            (10, big, b, pair and not pair_small),
        ):
            for pts in table.decompose(key, with_pair):
                kind = GroupKind.JIANG if len(pts) == 2 else GroupKind.JU
                out.append(shared_group(kind, tuple([base + p for p in pts])))
        return out

    def _partial_groups(self, packed: int, table: tuple[Group, ...]) -> tuple[Group, ...]:
        """The groups of a 天胡 hand (R28): table, 坎s, and the 句 of the best partial
        split; cards that fit nowhere are simply not shown as groups."""
        out = list(table)
        mask = kan_mask(packed)
        out += [Group.of(GroupKind.KAN, c) for c in range(20) if mask >> (3 * c) & 1]
        rest = packed - 3 * mask
        for base, tab, key in ((0, self.sizes[0], rest & MASK30), (10, self.sizes[1], rest >> 30)):
            while key:
                want = tab.best_partial(key)
                for v, nxt, _, pts in tab.choices(key, False):
                    if v + tab.best_partial(nxt) == want:
                        out.append(Group(GroupKind.JU, _cards(*(base + p for p in pts))))
                        key = nxt
                        break
                else:  # the lowest card scores nothing: leave it out
                    key -= BIT[((key & -key).bit_length() - 1) // 3]
        return tuple(out)


_NO_YIWUSHI = "a table 一五十 is a 句 only where the rules play it (yiwushi, 衡阳's option)"
# Per (胡息 table, 一五十 option): a table of 一五十 rules must not serve rules without.
_SIZES: dict[object, tuple[_SizeTable, _SizeTable]] = {}
_KERNELS: dict[object, Any] = {}  # per 胡息 table: the C tables take 20–30 ms to fill
# The table keys the C code takes (its NMELD, 180): every MELD_ROWS row before 一五十's,
# which only rules the kernel never serves have. Lists indexed by key are cut to it.
KERNEL_KEYS = YIWUSHI_KEY


def _kernel_for(ev: HandEvaluator) -> Any:
    """The C kernel for ``ev``'s 胡息 grid, built once per table (the grid is all it
    reads; ``ev`` answers what it does not take: the 天胡 of R28)."""
    key = ev.rules.huxi_table
    k = _KERNELS.get(key)
    if k is None:
        small, big = ev.sizes
        g = ev.grid
        k = _KERNELS[key] = KERNEL.Kernel(
            (small.run_val, small.v2710, small.pair_val),
            (big.run_val, big.v2710, big.pair_val),
            ev.jiao_val,
            g["peng"],
            g["wei"],
            g["kan"],
            g["pao"],
            g["ti"],
            ev._flat[:KERNEL_KEYS],
            ev._gain_pao[:KERNEL_KEYS],
            ev._gain_ti[:KERNEL_KEYS],
            ev._at_deal,
            position=Position,  # its fields read from the instance dict
            profiles=(
                ev.key_profile[:KERNEL_KEYS],
                [ev.card_profile[k] for k in ("kan", "peng", "wei", "pao", "ti")],
                ev.jiao_profile,
                [table.meld_profiles() for table in ev.sizes],
            ),
        )
    return k


def evaluator_for(rules: Rules = HUNAN) -> HandEvaluator:
    """The (cached) evaluator for a rules object.

    Rules with the same 胡息 table share the filled per-size tables.
    """
    return _evaluator(rules)


@per_rules
def _evaluator(rules: Rules) -> HandEvaluator:
    key = (rules.huxi_table, rules.yiwushi)
    ev = HandEvaluator(rules, _SIZES.get(key))
    _SIZES.setdefault(key, ev.sizes)
    return ev
