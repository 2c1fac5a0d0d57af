"""Brute-force 胡 oracle (R22–R27, R33), written from RULES.md alone.

Deliberately naive and independent of ``paohuzi.core.evaluator``: it places the
winning card in every way R25 allows, then enumerates *every* partition of the
remaining concealed cards into 坎/句/绞/对 (no memo, no tables), checks the
7-门子 and 将 conditions of R22 and keeps the highest 胡息 (R26). Only the input
types and the rules' 胡息 table are taken from the package.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from paohuzi.core.cards import Card
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.position import Position

# 一句话 (§3): same-size consecutive runs plus 二七十 / 贰柒拾; 绞: 一一壹 / 一壹壹.
RUNS: tuple[tuple[int, int, int], ...] = tuple(
    [(s + i, s + i + 1, s + i + 2) for s in (0, 10) for i in range(8)]
    + [(s + 1, s + 6, s + 9) for s in (0, 10)]
)
JIAOS: tuple[tuple[int, int, int], ...] = tuple(
    t for p in range(10) for t in ((p, p, p + 10), (p, p + 10, p + 10))
)
SETS: tuple[tuple[int, int, int], ...] = RUNS + JIAOS
# PRESETS hengyang's option (rules.yiwushi): 一五十 / 壹伍拾 are a 句 too, row ju1510.
YIWUSHI: tuple[tuple[int, int, int], ...] = ((0, 4, 9), (10, 14, 19))
FOURS = ("pao", "ti")


def sets_of(rules: object) -> tuple[tuple[int, int, int], ...]:
    """The 句 and 绞 the rules play: :data:`SETS`, and 一五十 where they have the option."""
    return SETS + YIWUSHI if getattr(rules, "yiwushi", False) else SETS


def set_row(cards: Sequence[int]) -> str:
    """R9 row of a 句/绞: 一二三 → ju123, 二七十 → ju2710, 一五十 → ju1510 (衡阳's
    option), other 句 → ju, 绞 → jiao."""
    key = tuple(sorted(cards))
    if key in JIAOS:
        return "jiao"
    if key in YIWUSHI:
        return "ju1510"
    if key not in RUNS:
        raise ValueError(f"{key} is neither a 句 nor a 绞")
    points = [c % 10 + 1 for c in key]
    if points == [1, 2, 3]:
        return "ju123"
    if points == [2, 7, 10]:
        return "ju2710"
    return "ju"


def table_row(g: Group) -> str:
    """R9 row of a table meld: 吃 by its shape, 臭偎 priced as 偎."""
    if g.kind is GroupKind.CHI:
        return set_row(g.cards)
    if g.kind is GroupKind.CHOUWEI:
        return "wei"
    return g.kind.value


def price(rules: object, row: str, cards: Iterable[int]) -> int:
    """胡息 of one group from the rules' own table (works for 泸州's colour table)."""
    return rules.huxi_table.value(row, min(cards))  # type: ignore[attr-defined]


def _subtract(counts: Counter[int], cards: Iterable[int]) -> Counter[int] | None:
    rest = Counter(counts)
    for c in cards:
        if rest[c] == 0:
            return None
        rest[c] -= 1
    return +rest


def _loose_partitions(counts: Counter[int], rules: object) -> Iterator[tuple[int, int, int]]:
    """Every partition of ``counts`` into 句/绞/对: yields (胡息, groups, pairs).

    The lowest remaining card must belong to some group, and every group that
    holds it is tried, so each partition appears (possibly more than once).
    """
    if not counts:
        yield 0, 0, 0
        return
    low = min(counts)
    if counts[low] >= 2:
        rest = _subtract(counts, (low, low))
        assert rest is not None
        for h, n, p in _loose_partitions(rest, rules):
            yield h + price(rules, "pair", (low, low)), n + 1, p + 1
    for s in sets_of(rules):
        if low not in s:
            continue
        rest = _subtract(counts, s)
        if rest is None:
            continue
        for h, n, p in _loose_partitions(rest, rules):
            yield h + price(rules, set_row(s), s), n + 1, p


def _loose_splits(
    counts: Counter[int], rules: object = None
) -> Iterator[list[tuple[str, tuple[int, ...]]]]:
    """Every partition of ``counts`` into 句/绞/对, as (R9 row, cards) lists (as above)."""
    if not counts:
        yield []
        return
    low = min(counts)
    if counts[low] >= 2:
        rest = _subtract(counts, (low, low))
        assert rest is not None
        for more in _loose_splits(rest, rules):
            yield [("pair", (low, low)), *more]
    for s in sets_of(rules):
        if low not in s:
            continue
        rest = _subtract(counts, s)
        if rest is not None:
            for more in _loose_splits(rest, rules):
                yield [(set_row(s), s), *more]


def _win_placements(
    pos: Position, rules: object = None
) -> Iterator[tuple[list[tuple[str, tuple[int, ...]]], list[int]]]:
    """R25: (table groups as (row, cards), hand cards the winning card took) per placement."""
    assert pos.win is not None
    w = int(pos.win)
    sd = pos.self_drawn
    table = [(table_row(g), tuple(int(c) for c in g.cards)) for g in pos.table]
    hand = Counter(int(c) for c in pos.hand)
    # 跑/提 from a table 偎/臭偎 (提 if self-drawn) or 碰 (always 跑): R13(b,c), R12(c).
    for i, g in enumerate(pos.table):
        if int(g.cards[0]) == w and g.kind in (GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI):
            row = "ti" if sd and g.kind is not GroupKind.PENG else "pao"
            yield [*table[:i], (row, (w,) * 4), *table[i + 1 :]], []
    # The card joins the concealed hand: a 对, a 碰/偎 from a pair, a 跑/提 from a 坎,
    # or any 句/绞 (破跑胡, R27, when a 坎 of its kind stays whole).
    win_groups: list[tuple[str, tuple[int, ...]]] = [("pair", (w,))]
    if hand[w] == 2:
        win_groups.append(("wei" if sd else "peng", (w, w)))
    if hand[w] == 3:
        win_groups.append(("ti" if sd else "pao", (w, w, w)))
    for s in sets_of(rules):
        if w in s:
            others = list(s)
            others.remove(w)
            win_groups.append((set_row(s), tuple(others)))
    for row, taken in win_groups:
        if _subtract(hand, taken) is not None:
            yield [*table, (row, (w, *taken))], list(taken)


def oracle_huxi(pos: Position, rules: object) -> int | None:
    """Best 胡息 of any legal 7-门子 completion (R22–R27), or None if there is none."""
    if pos.win is None:
        raise ValueError("the oracle does not score a mandatory 天胡 (no winning card)")
    hand = Counter(int(c) for c in pos.hand)
    kans = [c for c, n in hand.items() if n == 3]
    best: int | None = None
    for fixed, taken in _win_placements(pos, rules):
        used = Counter(taken)
        if any(used[c] not in (0, 3) for c in kans):
            continue  # a 坎 is never split (R22)
        rest = _subtract(hand, taken)
        assert rest is not None
        groups = list(fixed)
        for c in kans:
            if rest[c] == 3:
                groups.append(("kan", (c, c, c)))
                del rest[c]
        base = sum(price(rules, row, cards) for row, cards in groups)
        fours = sum(1 for row, _ in groups if row in FOURS)
        pairs0 = sum(1 for row, _ in groups if row == "pair")
        for h, n, p in _loose_partitions(rest, rules):
            if len(groups) + n != getattr(rules, "melds_to_win", 7):
                continue
            if pairs0 + p != (1 if fours else 0):
                continue
            if best is None or base + h > best:
                best = base + h
    return best


def oracle_current_huxi(hand: Iterable[int], table: Iterable[Group], rules: object) -> int:
    """当前总息数 (R33): table melds + 坎s + the best disjoint 句/绞 that carry 胡息."""
    total = sum(price(rules, table_row(g), g.cards) for g in table)
    counts = Counter(int(c) for c in hand)
    for c, n in list(counts.items()):
        if n >= 3:
            total += price(rules, "kan", (c,))
            del counts[c]
    scoring = [s for s in sets_of(rules) if price(rules, set_row(s), s) > 0]

    def best(i: int, counts: Counter[int]) -> int:
        if i == len(scoring):
            return 0
        top = best(i + 1, counts)
        rest = _subtract(counts, scoring[i])
        if rest is not None:
            s = scoring[i]
            top = max(top, price(rules, set_row(s), s) + best(i, rest))
        return top

    return total + best(0, counts)


def as_cards(cards: Iterable[int]) -> list[Card]:
    return [Card(c) for c in cards]
