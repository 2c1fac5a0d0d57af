"""王 (wáng): wild cards at the win — every split and every 王 assignment (R40, R46).

A 王 stands for any card kind, chosen to give the winner the best score. The
search places the lowest natural card first, in every group that can hold it
(句 in any of its three places, 二七十, 绞, the 将, a triple or a four made
with a 王), and fills each other member of that group with a natural card of
its kind when there is one, else with a 王. Filling from naturals first loses
nothing: a split that spends a 王 where a natural card was free is the same
multiset of (group, kind) as one that spends the natural card there and the
王 where that card went, and the score reads only that multiset. 王 left when
no natural card remains form groups of their own: two the 将, three a 坎 and
four a 提 of any kind (R40). Natural 坎 before the win stay whole (R22) or
take one 王 to become a 提; a 王 may turn a table 偎 into a 提 when the winner
has no 跑/提 yet (R40).

The independent check is ``tests/oracle_wang.py``: it substitutes every 王 by
every kind and splits each resulting hand by brute force.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from .cards import CARDS, MAX_WANG, WANG, Card
from .melds import Group, GroupKind
from .position import Position

__all__ = ["MAX_WANG", "WANG", "WildSplit", "wild_splits"]

_K = GroupKind
_TABLE_UP = (_K.PENG, _K.WEI, _K.CHOUWEI)


@dataclass(frozen=True, slots=True)
class WildSplit:
    """One way to read a winning hand with 王: its 门子 and what each 王 became."""

    groups: tuple[Group, ...]  # every 门子, a 王 shown as the card it stands for
    wang: tuple[Card, ...]  # the kinds the 王 stand for, sorted


@lru_cache(maxsize=4096)
def _group(kind: GroupKind, cards: tuple[int, ...]) -> Group:
    return Group(kind, tuple(CARDS[c] for c in sorted(cards)))


def _shapes(c: int) -> tuple[tuple[GroupKind, tuple[int, ...]], ...]:
    """Every group shape that can hold card kind ``c`` (its other members listed)."""
    base, p = (c // 10) * 10, c % 10
    out: list[tuple[GroupKind, tuple[int, ...]]] = []
    for lo in (p - 2, p - 1, p):  # 句: c first, middle or last
        if 0 <= lo <= 7:
            out.append((_K.JU, tuple(base + q for q in (lo, lo + 1, lo + 2) if q != p)))
    if p in (1, 6, 9):  # 二七十 / 贰柒拾
        out.append((_K.JU, tuple(base + q for q in (1, 6, 9) if q != p)))
    other = (c + 10) % 20
    out.append((_K.JIAO, (c, other)))  # 绞: two of c's size and one of the other,
    out.append((_K.JIAO, (other, other)))  # or one and two
    out.append((_K.JIANG, (c,)))
    out.append((_K.KAN, (c, c)))  # a triple: only with a 王 in it (R46)
    out.append((_K.TI, (c, c, c)))  # a four: likewise
    return tuple(out)


_SHAPES = tuple(_shapes(c) for c in range(20))
# A completion of a rest: (groups, 王 kinds, fours among them, 将 among them).
_Suffix = tuple[tuple[Group, ...], tuple[int, ...], int, int]
# Completions by (rest counts, free 王, 将 still allowed, 门子 still needed): pure, so
# kept across positions (bounded: a long self-play run meets many rests).
_MEMO: dict[tuple[tuple[int, ...], int, bool, int], list[_Suffix]] = {}


def _solve(r: tuple[int, ...], w: int, pair_free: bool, need: int) -> list[_Suffix]:
    """Every way to split the rest ``r`` and ``w`` free 王 into ``need`` 门子."""
    key = (r, w, pair_free, need)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit
    out: list[_Suffix] = []
    cards = sum(r) + w
    c = next((k for k in range(20) if r[k]), -1)
    if c < 0:  # only 王 left: two the 将, three a 坎, four a 提, of any kind (R40)
        if w == 0 and need == 0:
            out.append(((), (), 0, 0))
        elif need == 1 and (w == 3 or w == 4 or (w == 2 and pair_free)):
            kind = {2: _K.JIANG, 3: _K.KAN, 4: _K.TI}[w]
            for k in range(20):
                out.append(((_group(kind, (k,) * w),), (k,) * w, int(w == 4), int(w == 2)))
    elif need > 0 and 3 * need - 1 <= cards <= 4 * need:  # else the count cannot fit
        rl = list(r)
        rl[c] -= 1
        for kind, others in _SHAPES[c]:
            if kind is _K.JIANG and not pair_free:
                continue
            used: list[int] = []  # kinds filled by 王
            taken: list[int] = []  # natural cards taken
            for m in others:
                if rl[m]:
                    rl[m] -= 1
                    taken.append(m)
                elif len(used) < w:
                    used.append(m)
                else:
                    break
            else:
                # a triple or four of c is a 王 group (natural 坎 were set aside, R22)
                if used or kind not in (_K.KAN, _K.TI):
                    g = _group(kind, (c, *others))
                    four, pair = int(kind is _K.TI), int(kind is _K.JIANG)
                    rest = _solve(tuple(rl), w - len(used), pair_free and not pair, need - 1)
                    for gs, ws, f, p in rest:
                        out.append(((g, *gs), (*used, *ws), f + four, p + pair))
            for m in taken:
                rl[m] += 1
    if len(_MEMO) >= 1 << 16:
        _MEMO.clear()
    _MEMO[key] = out
    return out


def wild_splits(position: Position) -> Iterator[WildSplit]:
    """Every legal split of a winning position holding 王 (R22, R25, R40), each
    distinct (groups, assignment) once. Empty when the hand cannot win. With a
    ``pattern`` (R41) its fixed group is seeded and the rest searched alike."""
    n_wang = position.wang + position.win_wang
    counts = [0] * 20
    for card in position.hand:
        counts[card] += 1
    table = list(position.table)
    kans = [c for c in range(20) if counts[c] == 3]
    rest = [0 if counts[c] == 3 else counts[c] for c in range(20)]
    sd = position.self_drawn or position.win_wang
    plans: list[tuple[list[Group], list[int], list[int], list[int]]] = []
    # (fixed groups, rest counts, natural 坎 kinds still whole, 王 kinds already used)
    pat = position.pattern
    if pat is not None:
        # R41: the incoming card (a drawn 王 in the _wang forms: any kind) and
        # hand_wang 王 are one fixed pair / 坎 / 提; the rest is searched as usual.
        kind = (_K.JIANG, _K.KAN, _K.TI)[pat.hand_wang - 1]
        size = pat.hand_wang + 1
        fixed_kinds = tuple(range(20)) if position.win is None else (int(position.win),)
        for c in fixed_kinds:
            used = [c] * (size if position.win is None else size - 1)
            plans.append(([*table, _group(kind, (c,) * size)], rest, kans, used))
    elif position.win is None:  # the winning card is a 王 just drawn: it is one more wild
        plans.append((table, rest, kans, []))
        for i, g in enumerate(table):  # … or, self-drawn, it upgrades a 碰/偎 (R25)
            if g.kind in _TABLE_UP:
                c = int(g.cards[0])
                four = Group.of(_K.PAO if g.kind is _K.PENG else _K.TI, c)
                plans.append(([*table[:i], four, *table[i + 1 :]], rest, kans, [c]))
    else:
        w: int = int(position.win)
        r = rest[:]
        r[w] += 1
        plans.append((table, r, kans, []))  # the card joins the rest (破跑胡 keeps 坎)
        if rest[w] == 2:  # pair + card → 碰 (偎 when self-drawn)
            r = rest[:]
            r[w] = 0
            plans.append(([*table, Group.of(_K.WEI if sd else _K.PENG, w)], r, kans, []))
        if w in kans:  # 坎 + card → 跑 / 提
            four = Group.of(_K.TI if sd else _K.PAO, w)
            plans.append(([*table, four], rest, [k for k in kans if k != w], []))
        for i, g in enumerate(table):  # table 偎/碰 + card → 跑/提
            if g.cards[0] == w and g.kind in _TABLE_UP:
                kind = _K.PAO if g.kind is _K.PENG or not sd else _K.TI
                plans.append(([*table[:i], Group.of(kind, w), *table[i + 1 :]], rest, kans, []))
                break
    if not any(g.kind.is_four for g in table):
        # R40: with no 跑/提 yet, one 王 may turn a table 偎 into a 提 (with a four
        # already there the card count leaves no room for it anyway: one 将 only)
        for fixed, r, ks, used in list(plans):
            for i, g in enumerate(fixed):
                if g.kind in (_K.WEI, _K.CHOUWEI) and i < len(table) and g is table[i]:
                    lifted = [*fixed[:i], Group.of(_K.TI, g.cards[0]), *fixed[i + 1 :]]
                    plans.append((lifted, r, ks, [*used, int(g.cards[0])]))
    seen: set[tuple[tuple[Group, ...], tuple[int, ...]]] = set()
    target = position.melds_to_win
    for fixed, r, ks, used in plans:
        for mask in range(1 << len(ks)):  # each natural 坎 stays, or takes a 王 → 提
            up = [k for i, k in enumerate(ks) if mask >> i & 1]
            w = n_wang - len(used) - len(up)
            if w < 0:
                continue
            groups = [*fixed]
            groups += [Group.of(_K.TI if k in up else _K.KAN, k) for k in ks]
            fours = sum(1 for g in groups if g.kind.is_four)
            pairs = sum(1 for g in groups if g.kind is _K.JIANG)  # 王钓's fixed pair
            for gs, ws, f, p in _solve(tuple(r), w, not pairs, target - len(groups)):
                # R22: a 将 exactly when there is a four
                if p + pairs != (1 if fours + f else 0):
                    continue
                whole = (*groups, *gs)
                kinds = tuple(sorted((*used, *up, *ws)))
                key = (tuple(sorted(whole, key=_order)), kinds)
                if key not in seen:
                    seen.add(key)
                    yield WildSplit(whole, tuple(CARDS[k] for k in kinds))


def _order(g: Group) -> tuple[str, tuple[Card, ...]]:
    return g.kind, g.cards  # a StrEnum member is its value's str: sorts as the value
