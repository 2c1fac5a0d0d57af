"""看牌 at sight: a 名堂 that reads the split (R36) shown absent from every split of a
position before any split is made (R46 compares them all), so the settlement reads no
split for it — and, with all of them absent, compares no other split.

A hand that splits one way has one 胡息, its plan's: an :data:`EXACT` 名堂 is then
absent unless that is its number (the settlement asks once it has counted the splits).

A :class:`Refusal` is data: one of the tests below and its numbers, so the C
settlement (``core/_kernel.c``, ``Settler``) asks the very same tests; ``refuses`` is
the Python path's, made once from the same numbers. Each is asked only of a position
with a winning card and no 王, with ``most``, the most 胡息 any split of it has
(the plan's). tests/test_settle_fast.py checks each against every split.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .evaluator import LOW, MASK30
from .melds import MELD_ROWS, GroupKind, huxi_row
from .position import Position
from .rules import Rules

# The tests (``Refusal.test``; core/_kernel.c numbers them alike).
NO_DUIZI = 0  # 对子胡: a 吃 on the table, or a lone concealed card of another kind than the win's
NO_EIGHT = 1  # 团圆: no point whose eight cards (four 小, four 大) are all held
BARE = 2  # 行行息 (b 0) / 假行行 (b 1): ``a``'s loose cards, or a bare 门子 on the table
RED_OUTSIDE = 3  # 一块匾: the red count outside [a, b]
EXACT = 4  # 二十卡 / 三十卡: no split has exactly ``a`` 胡息: the most is below it


@dataclass(frozen=True, slots=True)
class Refusal:
    """One test of a position at sight (``test``: one of the constants above) with its
    numbers ``a`` and ``b``; ``refuses(position, most)`` is True for "absent"."""

    test: int
    refuses: Callable[[Position, int], bool] = field(compare=False, repr=False)
    a: int = 0
    b: int = 0


def no_duizi() -> Refusal:
    return _DUIZI


def _no_duizi(p: Position, most: int) -> bool:
    keys = p.table_keys
    if keys and max(keys) >= CHI_KEYS:  # a 吃 on the table
        return True
    # A lone concealed card not of the winning card's kind fits only a 句/绞.
    b = p.packed
    return b & ~(b >> 1) & ~(b >> 2) & LOW & ~(1 << 3 * p.win) != 0  # type: ignore[operator]


CHI_KEYS = MELD_ROWS.index("ju123") * 20  # Group.key of a 吃 (句/绞) is at least this
_DUIZI = Refusal(NO_DUIZI, _no_duizi)


def no_eight() -> Refusal:
    def refuses(p: Position, most: int) -> bool:
        f = p.card_bits >> 2 & LOW  # kinds held four times
        return not f & MASK30 & f >> 30

    return Refusal(NO_EIGHT, refuses)


def red_outside(lo: int, hi: int) -> Refusal:
    def refuses(p: Position, most: int) -> bool:
        return not lo <= (p.facts >> 21 & 0xFF) <= hi

    return Refusal(RED_OUTSIDE, refuses, lo, hi)


def exact(huxi: int) -> Refusal:
    def refuses(p: Position, most: int) -> bool:
        return most < huxi

    return Refusal(EXACT, refuses, huxi)


def bare(rules: Rules, pair_allowed: bool) -> Refusal:
    """行行息 (``pair_allowed`` False: every 门子 has 胡息) / 假行行 (six 门子 with 胡息 and
    the 将) absent: a 门子 without 胡息 on the table, or concealed cards that only a 门子
    without 胡息 can take — a kind held once or twice (not the winning card's: it may go
    to a 坎, a pair or the table) whose every 句, 绞 and 将 is worth nothing under the
    rules' table (四五六八九 of either size in most). 假行行 lets one such kind held twice
    be the 将 (not counted bare there). ``a``: those kinds, the low bit of each field."""
    loose, sight = _bare_sight(rules)
    if pair_allowed:
        return Refusal(BARE, lambda p, _most: sight(p) == 2, loose, 1)
    return Refusal(BARE, lambda p, _most: sight(p) > 0, loose, 0)


# by (胡息 table, 一五十 option): with 一五十 a 句, 一 五 十 may be no loose kinds
_SIGHTS: dict[object, tuple[int, Callable[[Position], int]]] = {}


def _bare_sight(rules: Rules) -> tuple[int, Callable[[Position], int]]:
    """The loose kinds of :func:`bare`, and what a position shows: 2 行行息 and 假行行
    absent, 1 行行息 only (假行行 absent means 行行息 is too), 0 neither known absent. The
    answer for the last position is kept: the two ask in turn."""
    got = _SIGHTS.get((rules.huxi_table, rules.yiwushi))
    if got is not None:
        return got
    grid = rules.huxi_table.grid()
    bare_keys = frozenset(
        k
        for k in range(len(MELD_ROWS) * 20)
        if grid["wei" if MELD_ROWS[k // 20] == "chouwei" else MELD_ROWS[k // 20]][k % 20] == 0
    )
    loose = 0
    for k in range(20):
        size, pt = divmod(k, 10)
        runs = [
            tuple(range(size * 10 + a, size * 10 + a + 3))
            for a in range(max(0, pt - 2), min(pt, 7) + 1)
        ]
        if pt in (1, 6, 9):
            runs.append((size * 10 + 1, size * 10 + 6, size * 10 + 9))
        if rules.yiwushi and pt in (0, 4, 9):  # 一五十 (衡阳's option)
            runs.append((size * 10, size * 10 + 4, size * 10 + 9))
        values = [grid[huxi_row(GroupKind.JU, r)][r[0]] for r in runs]
        if not any(values) and grid["jiao"][pt] == 0 and grid["pair"][k] == 0:
            loose |= 1 << 3 * k
    loose_besides = [loose & ~(1 << 3 * w) for w in range(20)]  # by the winning card
    last: list[tuple[Position | None, int]] = [(None, 0)]  # (one assignment: threads)

    def sight(p: Position) -> int:
        hit = last[0]
        if hit[0] is p:
            return hit[1]
        b = p.packed
        lz = loose_besides[p.win]  # type: ignore[index]
        if b & ~(b >> 1 | b >> 2) & lz or not bare_keys.isdisjoint(p.table_keys):
            n = 2  # held once (a 句 or 绞 takes it), or a bare 门子 on the table
        else:
            twice = b >> 1 & ~(b | b >> 2) & lz
            n = 0 if not twice else 2 if twice & (twice - 1) else 1
        last[0] = (p, n)
        return n

    if len(_SIGHTS) >= 64:  # bounded: tables read from records come and go
        _SIGHTS.clear()
    got = _SIGHTS[(rules.huxi_table, rules.yiwushi)] = (loose, sight)
    return got
