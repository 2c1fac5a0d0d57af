"""王 (wáng): wild cards at the win — every split and every 王 assignment (R40, R46).

A 王 stands for any card kind, chosen to give the winner the best score. The
search places the lowest natural card first, in every group that can hold it
(句 in any of its three places, 二七十, 绞, the 将, a triple or a four made
with a 王), and fills each other member of that group with a natural card of
its kind when there is one, else with a 王. Filling from naturals first loses
nothing: a split that spends a 王 where a natural card was free is the same
multiset of (group, kind) as one that spends the natural card there and the
王 where that card went, and the score reads only that multiset. 王 left when
no natural card remains form a group of their own: two the 将, three a 坎, a 句
or a 绞 and four a 提, of any kinds (R40: three 王 as 壹贰叁 bring one red card
and one 醒 where no 坎 brings both). Natural 坎 before the win stay whole (R22) or
take one 王 to become a 提; a 王 may turn a table 偎 into a 提 when the winner
has no 跑/提 yet (R40).

The independent check is ``tests/oracle_wang.py``: it substitutes every 王 by
every kind and splits each resulting hand by brute force.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CARDS, MAX_WANG, WANG, Card
from .evaluator import (
    BIT,
    FOURS,
    KERNEL,
    KERNEL_KEYS,
    card_count,
    evaluator_for,
    kan_mask,
    unpack,
)
from .melds import Group, GroupKind, shared_group
from .mingtang import compiled
from .position import Position, WangPattern
from .rules import Rules, per_rules

__all__ = [
    "MAX_WANG",
    "WANG",
    "WildSplit",
    "most_huxi",
    "most_huxi_of",
    "split_classes",
    "wang_places",
    "wild_splits",
]

_K = GroupKind
_TABLE_UP = (_K.PENG, _K.WEI, _K.CHOUWEI)


@dataclass(frozen=True, slots=True)
class WildSplit:
    """One way to read a winning hand with 王: its 门子 and what each 王 became."""

    groups: tuple[Group, ...]  # every 门子, a 王 shown as the card it stands for
    wang: tuple[Card, ...]  # the kinds the 王 stand for, sorted


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
# A completion of a rest: (groups, 王 kinds, fours among them, 将 among them, path). The
# path names the choices, 6 bits each, the first highest: a shape's index in _SHAPES[c]
# (c the lowest card left), or the group's in _ALONE[w] — so paths in _solve's order rise.
_Suffix = tuple[tuple[Group, ...], tuple[int, ...], int, int, int]
# Completions by (rest, free 王, 将 still allowed, 门子 still needed): pure, so kept across
# positions (bounded: a long self-play run meets many rests). A rest is its natural cards
# packed, 3 bits a kind (evaluator.pack's layout).
_MEMO: dict[tuple[int, int, bool, int], list[_Suffix]] = {}


def _moves(
    r: int, w: int, pair_free: bool, need: int
) -> Iterator[tuple[int, Group, list[int], int, int, bool]]:
    """The first 门子 of every completion of the rest ``r`` with ``w`` free 王 into
    ``need`` 门子, in order: (the path's step — its index in ``_SHAPES[c]``, c the lowest
    card left, or in ``_ALONE[w]`` —, the group, the kinds its 王 stand for, the rest
    left, 王 left, 将 still allowed). The one walk of ``_solve``, ``_most``,
    ``rest_classes`` and ``class_split``."""
    if not r:  # only 王 left: one group of them (_ALONE), of any kinds (R40)
        if need == 1 and (w == 3 or w == 4 or (w == 2 and pair_free)):
            for i, g in enumerate(_ALONE[w]):
                yield i, g, [int(x) for x in g.cards], r, 0, False
    elif need > 0 and 3 * need - 1 <= card_count(r) + w <= 4 * need:  # else it cannot fit
        c = ((r & -r).bit_length() - 1) // 3  # the lowest card left
        rl = r - BIT[c]
        for i, (g, others, is_pair, wild_only) in enumerate(_MOVES[c]):
            if is_pair and not pair_free:
                continue
            used: list[int] = []  # kinds filled by 王
            x = rl
            for m, at, bit in others:
                if x >> at & 7:
                    x -= bit
                elif len(used) < w:
                    used.append(m)
                else:
                    break
            else:
                # a triple or four of c is a 王 group (natural 坎 were set aside, R22)
                if used or not wild_only:
                    yield i, g, used, x, w - len(used), pair_free and not is_pair


# Per lowest card c, each shape of _SHAPES[c] as _moves reads it: (its group, the other
# members as (kind, its field's shift, its bit), a 将, a triple or four of c — made only
# with a 王 in it).
_MOVES = tuple(
    tuple(
        (
            shared_group(kind, (c, *others)),
            tuple((m, 3 * m, BIT[m]) for m in others),
            kind is _K.JIANG,
            kind in (_K.KAN, _K.TI),
        )
        for kind, others in _SHAPES[c]
    )
    for c in range(20)
)


def _solve(r: int, w: int, pair_free: bool, need: int) -> list[_Suffix]:
    """Every way to split the rest ``r`` and ``w`` free 王 into ``need`` 门子."""
    key = (r, w, pair_free, need)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit
    out: list[_Suffix] = []
    if w == 0 and need == 0 and not r:
        out.append(((), (), 0, 0, 0))
    step = 6 * (need - 1)
    for i, g, used, rest, left, pf in _moves(r, w, pair_free, need):
        four, pair = int(g.kind is _K.TI), int(g.kind is _K.JIANG)
        for gs, ws, f, p, path in _solve(rest, left, pf, need - 1):
            out.append(((g, *gs), (*used, *ws), f + four, p + pair, i << step | path))
    if len(_MEMO) >= 1 << 16:
        _MEMO.clear()
    _MEMO[key] = out
    return out


def wild_splits(position: Position) -> Iterator[WildSplit]:
    """Every legal split of a winning position holding 王 (R22, R25, R40), each
    distinct (groups, assignment) once. Empty when the hand cannot win. With a
    ``pattern`` (R41) its fixed group is seeded and the rest searched alike."""
    seen: set[tuple[tuple[Group, ...], tuple[int, ...]]] = set()
    for groups, r, w, need, fours, pairs, kinds in _candidates(position):
        for gs, ws, f, p, _ in _solve(r, w, not pairs, need):
            # R22: a 将 exactly when there is a four
            if p + pairs != (1 if fours + f else 0):
                continue
            whole = (*groups, *gs)
            assigned = tuple(sorted((*kinds, *ws)))
            key = (tuple(sorted(whole, key=_order)), assigned)
            if key not in seen:
                seen.add(key)
                yield WildSplit(whole, tuple(CARDS[k] for k in assigned))


# A class of a rest's completions: the red, big and 醒 count of what their 王 became (see
# _Colours), a four among them, a 将 among them; the most 胡息 of the class, the path (see
# _Suffix) and the 王 kinds of the first completion with it.
_RestClass = tuple[int, int, int, int, int, int, int, tuple[int, ...]]
# Per (胡息 table, _Colours), by (rest, free 王, 将 allowed, 门子 needed): as _solve's.
_CLASSES: dict[tuple[Any, ...], dict[tuple[Any, ...], tuple[_RestClass, ...]]] = {}
# Per kind, what a 王 standing for it adds to its class's red, big and 醒 counts.
_Colours = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
# One class of splits of a hand (split_classes): (red, big, 醒, 胡息, reading, path, 王 kinds).
_Class = tuple[int, int, int, int, int, int, tuple[int, ...]]


@per_rules
def _read_colours(rules: Rules) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """What the 名堂 in use read of a 王's kind (``mingtang.Compiled.axes``: bit 0 red,
    bit 1 big or small) and, per kind, its red and big count — 0 on an axis nobody reads,
    so that splits no 名堂 tells apart are one class (hengyang and yongzhou read red
    only: a third of the classes)."""
    axes = compiled(rules).axes
    red = tuple([int(axes & 1 and CARDS[c].is_red) for c in range(20)])
    big = tuple([int(axes & 2 and c >= 10) for c in range(20)])
    return axes, red, big


def rest_classes(
    r: int, w: int, pair_free: bool, need: int, rules: Rules, xing: tuple[int, ...]
) -> tuple[_RestClass, ...]:
    """``_solve``'s completions of a rest by class (see ``_RestClass``), the first with the
    most 胡息 of each (``xing``: what a 王 standing for each kind adds to 醒数; the red and
    big counts as ``_read_colours`` says) — made as ``_solve`` makes its list, but keeping
    per class only that first (the path orders the completions), so the completions
    themselves are never listed."""
    _, red, big = _read_colours(rules)
    col = (red, big, xing)
    memo = _memo_of(_CLASSES, (rules.huxi_table, col))
    return _classes_in(r, card_count(r), w, pair_free, need, rules, col, memo, _priced(rules))


def _memo_of(store: dict[Any, dict[Any, Any]], key: Any) -> dict[Any, Any]:
    """The memo kept in ``store`` for ``key`` (a 胡息 table, with 醒 for the classes),
    made when first asked: looked up once a hand, not hashed again for every rest."""
    memo = store.get(key)
    if memo is None:
        if len(store) >= 64:  # bounded: tables read from records (and 醒) come and go
            store.clear()
        memo = store[key] = {}
    return memo


def _classes_in(
    r: int,
    n: int,
    w: int,
    pair_free: bool,
    need: int,
    rules: Rules,
    col: _Colours,
    memo: dict[tuple[Any, ...], tuple[_RestClass, ...]],
    priced: _Priced,
) -> tuple[_RestClass, ...]:
    """:func:`rest_classes` with the memo of one 胡息 table and colours (:func:`_memo_of`)
    and the table's priced moves (``n``: the cards of ``r``): ``_moves``' walk, in its
    order. A rest with no 王 left is :func:`_natural_in`'s."""
    if not w:
        return _natural_in(r, n, pair_free, need, memo, priced[3])
    key = (r, w, pair_free, need)
    got = memo.get(key)
    if got is not None:
        return got
    # per class the first completion with its most 胡息: a later first 门子 has a higher
    # path, and one first 门子's completions are of distinct classes, so only more 胡息
    # replaces a class's entry
    best: dict[tuple[int, int, int, int, int], _RestClass] = {}
    red, big, xing = col
    step = 6 * (need - 1)
    if not r:  # only 王 left (_ALONE): _moves lists them
        for i, g, kinds, _, _, _ in _moves(r, w, pair_free, need):
            k = (
                sum([red[x] for x in kinds]),
                sum([big[x] for x in kinds]),
                sum([xing[x] for x in kinds]),
                int(g.kind is _K.TI),
                int(g.kind is _K.JIANG),
            )
            h = g.huxi(rules)
            b = best.get(k)
            if b is None or h > b[5]:
                best[k] = (*k, h, i << step, tuple(kinds))
    elif need > 0 and 3 * need - 1 <= n + w <= 4 * need:  # else it cannot fit
        c = ((r & -r).bit_length() - 1) // 3  # the lowest card left
        rl = r - BIT[c]
        natural = priced[3]
        for i, size, is_pair, wild_only, gh, add, others in priced[0][pair_free][c]:
            used: tuple[int, ...] = ()  # kinds filled by 王
            x, u = rl, 0
            for m, at, bit in others:
                if x >> at & 7:
                    x -= bit
                elif u < w:
                    used += (m,)
                    u += 1
                else:
                    break
            else:
                # a triple or four of c is a 王 group (natural 坎 were set aside, R22)
                if not u and wild_only:
                    continue
                left, pf = w - u, pair_free and not is_pair
                sub = memo.get((x, left, pf, need - 1))  # (a hit costs no call)
                if sub is None:
                    n_left = n - size + u
                    if left:
                        sub = _classes_in(x, n_left, left, pf, need - 1, rules, col, memo, priced)
                    else:
                        sub = _natural_in(x, n_left, pf, need - 1, memo, natural)
                if not sub:  # (most rests of a first pass end nowhere)
                    continue
                dr = db = dx = 0
                for m in used:
                    dr += red[m]
                    db += big[m]
                    dx += xing[m]
                four, pair, top = add & 1, add >> 1, i << step
                for rw, bw, xw, f, p, h, path, ws in sub:
                    k = (rw + dr, bw + db, xw + dx, f | four, p | pair)
                    h += gh
                    b = best.get(k)
                    if b is None or h > b[5]:
                        best[k] = (*k, h, path | top, used + ws)
    got = tuple(best.values())
    if len(memo) >= 1 << 16:  # bounded: a long self-play run meets many rests
        memo.clear()
    memo[key] = got
    return got


_NO_REST: tuple[_RestClass, ...] = ((0, 0, 0, 0, 0, 0, 0, ()),)  # nothing left to place


def _natural_in(
    r: int,
    n: int,
    pair_free: bool,
    need: int,
    memo: dict[tuple[Any, ...], tuple[_RestClass, ...]],
    natural: _Walk,
) -> tuple[_RestClass, ...]:
    """:func:`_classes_in` of a rest with no 王 left (``natural``: the priced shapes a
    natural card fills, by lowest card): one class at most — no 王 colours, no four
    (natural 坎 were set aside, R22), a 将 exactly when the cards are one short of three
    a 门子 — so only its most 胡息 and the first path with it are kept."""
    key = (r, 0, pair_free, need)
    got = memo.get(key)
    if got is not None:
        return got
    got = ()
    if not r:
        if need == 0:
            got = _NO_REST
    elif need > 0 and 3 * need - 1 <= n <= 3 * need:  # else it cannot fit (no four)
        c = ((r & -r).bit_length() - 1) // 3  # the lowest card left
        rl = r - BIT[c]
        step = 6 * (need - 1)
        most, path, pair = -1, 0, 0
        for i, size, is_pair, _, gh, _, others in natural[pair_free][c]:
            x = rl
            for _, at, bit in others:
                if x >> at & 7:
                    x -= bit
                else:
                    break
            else:
                pf = pair_free and not is_pair
                sub = memo.get((x, 0, pf, need - 1))  # (a hit costs no call)
                if sub is None:
                    sub = _natural_in(x, n - size, pf, need - 1, memo, natural)
                if sub:
                    h = sub[0][5] + gh
                    if h > most:  # paths rise with i: on a tie the first stays
                        most, path, pair = h, i << step | sub[0][6], sub[0][4] | is_pair
        if most >= 0:
            got = ((0, 0, 0, 0, pair, most, path, ()),)
    if len(memo) >= 1 << 16:  # bounded: a long self-play run meets many rests
        memo.clear()
    memo[key] = got
    return got


def split_classes(position: Position, rules: Rules) -> tuple[int, tuple[_Class, ...]]:
    """The splits :func:`wild_splits` lists, by the red, big and 醒 count of what their
    王 became (a 醒牌 turned twice counts twice; red or big 0 when no 名堂 in use reads
    it, ``_read_colours``): the most 胡息 of any split (−1: none)
    and, per class, the first split with the class's most 胡息, as (red, big, 醒, 胡息,
    its reading's index in ``_candidates``, the rest's path (see ``_Suffix``), the kinds
    its 王 stand for, sorted) — :func:`class_split` builds it. With no 名堂 reading the
    split or the kinds, a split's score reads only its class and 胡息 and never falls as
    胡息 rises (R34, R40, R42, R46): only these can be the best. The C kernel's
    ``Wild.classes_of`` when it is built (the same answer; tests/test_kernel.py)."""
    xing = [0] * 20
    for x in position.xing:
        xing[x] += 1
    p = position
    search = _wild_kernel(rules)
    if search is not None and not p.packed & FOURS and max(xing) < 8:
        keys = tuple([g.key for g in p.table])
        hand_wang = 0 if p.pattern is None else p.pattern.hand_wang
        w = -1 if p.win is None else int(p.win)
        xp = sum([n << 3 * k for k, n in enumerate(xing)]) if p.xing else 0
        sd = p.self_drawn or p.win_wang
        target = (p.hand_size + 1) // 3
        axes = _read_colours(rules)[0]
        most, found = search.classes_of(
            p.packed, keys, w, sd, p.wang, p.win_wang, hand_wang, target, xp, axes
        )
        return int(most), found
    return _split_classes(p, rules, tuple(xing))


def _split_classes(
    position: Position, rules: Rules, xt: tuple[int, ...]
) -> tuple[int, tuple[_Class, ...]]:
    """:func:`split_classes` in Python: each reading's rest by class (``rest_classes``)."""
    _, red, big = _read_colours(rules)
    col = (red, big, xt)
    memo = _memo_of(_CLASSES, (rules.huxi_table, col))
    priced = _priced(rules)
    kept: dict[tuple[int, int, int], _Class] = {}
    most = -1
    for ci, (groups, r, w, need, fours, pairs, kinds) in enumerate(_candidates(position)):
        if need < 0:
            continue
        hf = sum([g.huxi(rules) for g in groups])
        rf = sum([red[k] for k in kinds])
        bf = sum([big[k] for k in kinds])
        xf = sum([xt[k] for k in kinds])
        sub = memo.get((r, w, not pairs, need))
        if sub is None:
            sub = _classes_in(r, card_count(r), w, not pairs, need, rules, col, memo, priced)
        for rw, bw, xw, f, p, h, path, ws in sub:
            if p + pairs != (1 if fours + f else 0):  # R22: a 将 exactly when there is a four
                continue
            h += hf
            if h > most:
                most = h
            k = (rf + rw, bf + bw, xf + xw)
            got = kept.get(k)
            # the first in wild_splits' order: readings in turn, then paths (see _Suffix)
            if got is None or h > got[3] or (h == got[3] and ci == got[4] and path < got[5]):
                kept[k] = (*k, h, ci, path, tuple(sorted((*kinds, *ws))))
    return most, tuple(kept.values())


def class_split(position: Position, reading: int, path: int) -> tuple[Group, ...]:
    """The 门子 of the split :func:`split_classes` names by its reading and path."""
    for ci, (groups, r, w, need, _, pairs, _) in enumerate(_candidates(position)):
        if ci == reading:
            out = list(groups)
            pf = not pairs
            for n in range(need - 1, -1, -1):  # the path's steps, the first highest
                i = path >> 6 * n & 63
                _, g, _, r, w, pf = next(m for m in _moves(r, w, pf, n + 1) if m[0] == i)
                out.append(g)
            return tuple(out)
    raise ValueError(f"the hand has no reading {reading}")


def most_huxi(position: Position, rules: Rules) -> int:
    """The most 胡息 of any split :func:`wild_splits` gives (−1: none) — whether the
    hand wins at all (R40, R46: some split reaches 起胡), without listing the splits.
    The C kernel's ``Wild.most_in`` (the position's fields read in C) when it is built,
    else :func:`_most_huxi`."""
    search = _wild_kernel(rules)
    if search is not None:  # the fields read in C (None: four alike, Python's answer)
        v = search.most_in(position)
        if v is not None:
            return int(v)
    return _most_huxi(position, rules)


def most_huxi_of(
    rules: Rules,
    packed: int,
    table: Sequence[Group],
    win: Card | None,
    self_drawn: bool,
    wang: int,
    win_wang: bool,
    pattern: WangPattern | None,
    hand_size: int,
    keys: tuple[int, ...] | None = None,
) -> int:
    """:func:`most_huxi` of a hand given by its fields (natural cards packed, as the
    engine keeps them; ``keys``: the table melds' ``Group.key``, when at hand): no
    :class:`Position` is made unless the Python search runs."""
    search = _wild_kernel(rules)
    if search is not None and not packed & FOURS:
        if keys is None:
            keys = tuple([g.key for g in table])
        target = (hand_size + 1) // 3
        hand_wang = 0 if pattern is None else pattern.hand_wang
        w = -1 if win is None else int(win)
        return int(
            search.most_of(
                packed, keys, w, self_drawn or win_wang, wang, win_wang, hand_wang, target
            )
        )
    p = Position(
        tuple(unpack(packed)),
        tuple(table),
        win,
        self_drawn=self_drawn,
        hand_size=hand_size,
        wang=wang,
        win_wang=win_wang,
        pattern=pattern,
    )
    return _most_huxi(p, rules)


def _most_huxi(position: Position, rules: Rules) -> int:
    """:func:`most_huxi` in Python: every reading of :func:`_candidates`, each rest
    searched by ``_solve`` (the reference the C kernel is tested against)."""
    best = -1
    for groups, r, w, need, fours, pairs, _ in _candidates(position):
        if need < 0:  # more fixed groups than the hand has 门子: no split
            continue
        fixed = sum([g.huxi(rules) for g in groups])
        for i, h in enumerate(_most(r, w, not pairs, need, rules)):
            # (将 among the suffix's groups, a four among them); R22: a 将 iff a four
            if h is not None and (i >> 1) + pairs == (1 if fours + (i & 1) else 0):
                best = max(best, fixed + h)
    return best


def _most(r: int, w: int, pair_free: bool, need: int, rules: Rules) -> tuple[int | None, ...]:
    """``Wild.most`` in Python: the most 胡息 of ``_solve``'s completions, per (将, four)."""
    moves = _priced(rules)
    return _most_in(r, card_count(r), w, pair_free, need, moves, moves[2])


# Per 胡息 table, ``_MOVES`` priced: by whether a 将 is still allowed (0/1) and lowest
# card, each shape as (its index in _SHAPES[c], its size, a 将, made only with a 王, its
# 胡息, its (将, four) index, the other members as (kind, shift, bit)); per number of 王
# alone, the most 胡息 of their group by that index; the table's memo of ``_most``; and
# likewise the shapes a rest with no 王 left may take.
# What ``_most_in`` reads of a move: no group, no kinds, no generator — each new rest of
# a first pass costs its moves only. Found by the rules' identity (a table hashes
# slowly).
_Priced1 = tuple[int, int, bool, bool, int, int, tuple[tuple[int, int, int], ...]]
_Walk = tuple[tuple[tuple[_Priced1, ...], ...], ...]  # [将 allowed][lowest card]
# A rest's most 胡息 per (将, four) index 2·将 + (a four) (None: no completion with it).
_Most = tuple[int | None, ...]
_Priced = tuple[_Walk, dict[int, _Most], dict[tuple[Any, ...], _Most], _Walk]


@per_rules
def _priced(rules: Rules) -> _Priced:
    def index(g: Group) -> int:
        return 2 * (g.kind is _K.JIANG) + (g.kind is _K.TI)

    per_card = tuple(
        tuple(
            (
                i,
                len(others) + 1,
                is_pair,
                wild_only,
                g.huxi(rules),
                index(g),
                others,
            )
            for i, (g, others, is_pair, wild_only) in enumerate(_MOVES[c])
        )
        for c in range(20)
    )
    alone: dict[int, _Most] = {}
    for n, groups in _ALONE.items():
        out: list[int | None] = [None] * 4
        for g in groups:
            i, h = index(g), g.huxi(rules)
            if out[i] is None or h > out[i]:  # type: ignore[operator]
                out[i] = h
        alone[n] = tuple(out)
    walk = tuple(tuple(tuple(m for m in ms if pf or not m[2]) for ms in per_card) for pf in (0, 1))
    natural = tuple(tuple(tuple(m for m in ms if not m[3]) for ms in by) for by in walk)
    return walk, alone, _memo_of(_MOST, rules.huxi_table), natural  # one memo a table


def _most_in(
    r: int,
    n: int,
    w: int,
    pair_free: bool,
    need: int,
    moves: _Priced,
    memo: dict[tuple[Any, ...], _Most],
) -> _Most:
    """:func:`_most` with one table's memo (``n``: the cards of ``r``), walking the moves
    ``_moves`` gives in its order — each first 门子 with the most of what is left: the
    completions are never listed. A rest with no 王 left is :func:`_natural_most`'s."""
    if not w:
        return _natural_most(r, n, pair_free, need, moves[3], memo)
    key = (r, w, pair_free, need)
    got = memo.get(key)
    if got is not None:
        return got
    out: list[int | None] = [None] * 4  # by 2·将 + (a four)
    if not r:
        if need == 1 and (w == 3 or w == 4 or (w == 2 and pair_free)):
            out = list(moves[1][w])  # only 王 left: one group of them (R40)
    elif need > 0 and 3 * need - 1 <= n + w <= 4 * need:  # else it cannot fit
        c = ((r & -r).bit_length() - 1) // 3  # the lowest card left
        rl = r - BIT[c]
        for _, size, is_pair, wild_only, gh, add, others in moves[0][pair_free][c]:
            x, u = rl, 0  # the rest left, the 王 used
            for _, at, bit in others:
                if x >> at & 7:
                    x -= bit
                elif u < w:
                    u += 1
                else:
                    break
            else:
                # a triple or four of c is a 王 group (natural 坎 were set aside, R22)
                if u or not wild_only:
                    left = n - size + u
                    pf = pair_free and not is_pair
                    sub = memo.get((x, w - u, pf, need - 1))  # (a hit costs no call)
                    if sub is None:
                        if w - u:
                            sub = _most_in(x, left, w - u, pf, need - 1, moves, memo)
                        else:
                            sub = _natural_most(x, left, pf, need - 1, moves[3], memo)
                    if sub is _DEAD:  # (most rests of a first pass end nowhere)
                        continue
                    for i, h in enumerate(sub):
                        if h is not None:
                            j = i | add
                            h += gh
                            o = out[j]
                            if o is None or h > o:
                                out[j] = h
    if len(memo) >= 1 << 16:  # bounded: a long self-play run meets many rests
        memo.clear()
    got = tuple(out)
    if got == _DEAD:
        got = _DEAD  # one object: told by identity one level up
    memo[key] = got
    return got


_DEAD: _Most = (None, None, None, None)  # a rest with no completion
_PLACED: _Most = (0, None, None, None)  # nothing left to place


def _natural_most(
    r: int,
    n: int,
    pair_free: bool,
    need: int,
    natural: _Walk,
    memo: dict[tuple[Any, ...], _Most],
) -> _Most:
    """:func:`_most_in` of a rest with no 王 left (``natural``: the priced shapes a natural
    card fills): one entry at most — no four (natural 坎 were set aside, R22), a 将
    exactly when the cards are one short of three a 门子."""
    key = (r, 0, pair_free, need)
    got = memo.get(key)
    if got is not None:
        return got
    got = _DEAD
    if not r:
        if need == 0:
            got = _PLACED
    elif need > 0 and 3 * need - 1 <= n <= 3 * need:  # else it cannot fit (no four)
        c = ((r & -r).bit_length() - 1) // 3  # the lowest card left
        rl = r - BIT[c]
        most = -1
        for _, size, is_pair, _, gh, _, others in natural[pair_free][c]:
            x = rl
            for _, at, bit in others:
                if x >> at & 7:
                    x -= bit
                else:
                    break
            else:
                pf = pair_free and not is_pair
                sub = memo.get((x, 0, pf, need - 1))  # (a hit costs no call)
                if sub is None:
                    sub = _natural_most(x, n - size, pf, need - 1, natural, memo)
                h = sub[2] if sub[0] is None else sub[0]  # (None: a dead rest)
                if h is not None and h + gh > most:
                    most = h + gh
        if most >= 0:
            got = (None, None, most, None) if n == 3 * need - 1 else (most, None, None, None)
    if len(memo) >= 1 << 16:  # bounded: a long self-play run meets many rests
        memo.clear()
    memo[key] = got
    return got


# The memos of _most, per 胡息 table: (rest, free 王, 将 allowed, 门子 needed) → its
# most 胡息 per (将, four), as _solve's memo is kept.
_MOST: dict[Any, dict[tuple[Any, ...], _Most]] = {}


# A rest to search: (fixed groups, the rest packed, free 王, 门子 still needed, fours and 将
# among the fixed groups, 王 kinds already used).
_Candidate = tuple[list[Group], int, int, int, int, int, list[int]]


def _candidates(position: Position) -> Iterator[_Candidate]:
    """The fixed part of every reading of the hand (the winning card's use, R25; each
    natural 坎 kept or made a 提 with a 王; a table 偎 lifted, R40), with what is left
    for :func:`_solve`."""
    n_wang = position.wang + position.win_wang
    table = list(position.table)
    kan = kan_mask(position.packed)  # the natural cards, packed
    kans = [c for c in range(20) if kan >> 3 * c & 1]
    rest = position.packed - 3 * kan
    sd = position.self_drawn or position.win_wang
    k = position.four_count  # 跑/提 on the table
    plans: list[tuple[list[Group], int, list[int], list[int], int, int]] = []
    # (fixed groups, the rest packed, natural 坎 kinds still whole, 王 kinds already used,
    # fours and 将 among the fixed groups)
    pat = position.pattern
    if pat is not None:
        # R41: the incoming card (a drawn 王 in the _wang forms: any kind) and
        # hand_wang 王 are one fixed pair / 坎 / 提; the rest is searched as usual.
        kind = (_K.JIANG, _K.KAN, _K.TI)[pat.hand_wang - 1]
        size = pat.hand_wang + 1
        fixed_kinds = tuple(range(20)) if position.win is None else (int(position.win),)
        is_four, pair = int(kind is _K.TI), int(kind is _K.JIANG)
        for c in fixed_kinds:
            used = [c] * (size if position.win is None else size - 1)
            fixed = [*table, shared_group(kind, (c,) * size)]
            plans.append((fixed, rest, kans, used, k + is_four, pair))
    elif position.win is None:  # the winning card is a 王 just drawn: it is one more wild
        plans.append((table, rest, kans, [], k, 0))
        for i, g in enumerate(table):  # … or, self-drawn, it upgrades a 碰/偎 (R25)
            if g.kind in _TABLE_UP:
                c = int(g.cards[0])
                four = shared_group(_K.PAO if g.kind is _K.PENG else _K.TI, (c,) * 4)
                plans.append(([*table[:i], four, *table[i + 1 :]], rest, kans, [c], k + 1, 0))
    else:
        w: int = int(position.win)
        r = rest + BIT[w]
        plans.append((table, r, kans, [], k, 0))  # the card joins the rest (破跑胡 keeps 坎)
        if rest >> 3 * w & 7 == 2:  # pair + card → 碰 (偎 when self-drawn)
            r = rest - 2 * BIT[w]
            plans.append(
                ([*table, shared_group(_K.WEI if sd else _K.PENG, (w,) * 3)], r, kans, [], k, 0)
            )
        if w in kans:  # 坎 + card → 跑 / 提
            four = shared_group(_K.TI if sd else _K.PAO, (w,) * 4)
            plans.append(([*table, four], rest, [c for c in kans if c != w], [], k + 1, 0))
        for i, g in enumerate(table):  # table 偎/碰 + card → 跑/提
            if g.cards[0] == w and g.kind in _TABLE_UP:
                kind = _K.PAO if g.kind is _K.PENG or not sd else _K.TI
                upgraded = [*table[:i], shared_group(kind, (w,) * 4), *table[i + 1 :]]
                plans.append((upgraded, rest, kans, [], k + 1, 0))
                break
    if not k:
        # R40: with no 跑/提 yet, one 王 may turn a table 偎 into a 提 (with a four
        # already there the card count leaves no room for it anyway: one 将 only)
        for fixed, r, ks, used, fours, pairs in list(plans):
            for i, g in enumerate(fixed):
                if g.kind in (_K.WEI, _K.CHOUWEI) and i < len(table) and g is table[i]:
                    c = int(g.cards[0])
                    lifted = [*fixed[:i], shared_group(_K.TI, (c,) * 4), *fixed[i + 1 :]]
                    plans.append((lifted, r, ks, [*used, c], fours + 1, pairs))
    target = position.melds_to_win
    for fixed, t, ks, used, fours, pairs in plans:
        for mask in range(1 << len(ks)):  # each natural 坎 stays, or takes a 王 → 提
            up = [c for i, c in enumerate(ks) if mask >> i & 1]
            w = n_wang - len(used) - len(up)
            if w < 0:
                continue
            groups = [*fixed]
            groups += [
                shared_group(_K.TI, (c,) * 4) if c in up else shared_group(_K.KAN, (c,) * 3)
                for c in ks
            ]
            yield groups, t, w, target - len(groups), fours + len(up), pairs, [*used, *up]


@per_rules
def _wild_kernel(rules: Rules) -> Any:
    """The C search for ``rules``' 胡息 grid (None without the kernel), one per grid."""
    if KERNEL is None:
        return None
    table = rules.huxi_table
    k = _WILD.get(table)
    if k is None:
        *args, kinds, sizes = _wild_parts(rules)
        k = _WILD[table] = KERNEL.Wild(*args, loose_kinds=kinds, sizes=sizes)
    return k


def _wild_parts(rules: Rules) -> tuple[Any, ...]:
    """What ``_kernel.Wild`` is made of for ``rules``' grid: (shapes, alone, flat, loose,
    loose_kinds, sizes)."""
    codes = {_K.JU: 0, _K.JIAO: 1, _K.JIANG: 2, _K.KAN: 3, _K.TI: 4}
    shapes = [
        [(others, codes[kind], shared_group(kind, (c, *others)).huxi(rules)) for kind, others in sh]
        for c, sh in enumerate(_SHAPES)
    ]
    alone = [
        [shared_group(kind, (c,) * n).huxi(rules) for c in range(20)]
        for kind, n in ((_K.JIANG, 2), (_K.KAN, 3), (_K.TI, 4))
    ]
    loose = [[g.huxi(rules) for g in _ALONE[w]] for w in (2, 3, 4)]
    kinds = [[tuple(int(c) for c in g.cards) for g in _ALONE[w]] for w in (2, 3, 4)]
    # (no 一五十 with 王: the rests with no 王 left are read from tables without it)
    ev = evaluator_for(rules.replace(yiwushi=False) if rules.yiwushi else rules)
    return shapes, alone, ev._flat[:KERNEL_KEYS], loose, kinds, ev._kernel


def _alone_groups(w: int) -> tuple[Group, ...]:
    """The groups ``w`` 王 alone can form (R40), of every kind: two a 将; three a 坎,
    a 句 (二七十 too) or a 绞; four a 提."""
    if w == 2:
        return tuple(shared_group(_K.JIANG, (c, c)) for c in range(20))
    if w == 4:
        return tuple(shared_group(_K.TI, (c,) * 4) for c in range(20))
    out = [shared_group(_K.KAN, (c,) * 3) for c in range(20)]
    for base in (0, 10):
        out += [shared_group(_K.JU, (base + p, base + p + 1, base + p + 2)) for p in range(8)]
        out.append(shared_group(_K.JU, (base + 1, base + 6, base + 9)))
    for p in range(10):
        out += [shared_group(_K.JIAO, (p, p, p + 10)), shared_group(_K.JIAO, (p, p + 10, p + 10))]
    return tuple(out)


_ALONE = {w: _alone_groups(w) for w in (2, 3, 4)}
_WILD: dict[object, Any] = {}


def _order(g: Group) -> tuple[str, tuple[Card, ...]]:
    return g.kind, g.cards  # a StrEnum member is its value's str: sorts as the value


_FOUR_KINDS = (_K.TI, _K.PAO)
_PATTERN_KINDS = (_K.JIANG, _K.KAN, _K.TI)  # R41: 王钓, 王闯, 王炸's group


def wang_places(
    groups: Sequence[Group], wang: Sequence[Card], pos: Position
) -> list[tuple[int, ...] | None]:
    """R40: for each 门子, the places of its cards that a 王 stood for (None: none did).

    The split names only the kinds the 王 became; which of two alike cards in the
    门子 was the 王 does not change the score (the settlement reads the multiset of
    门子), so one reading is shown: never a meld that lay on the table (a 王 is never
    吃/碰/偎'd, R39), first the 王 pattern's group (R41), then a four made at the win
    (a 坎 or a table 偎 that a 王 made a 提), then the rest in order."""
    left = Counter(wang)
    out: list[tuple[int, ...] | None] = [None] * len(groups)
    if not left:
        return out
    on_table = Counter(pos.table)
    mine = []
    for i, g in enumerate(groups):
        if on_table[g]:
            on_table[g] -= 1
        else:
            mine.append(i)

    pat = pos.pattern
    fixed = _PATTERN_KINDS[pat.hand_wang - 1] if pat is not None else None

    def rank(i: int) -> int:
        g = groups[i]
        if g.kind is fixed and (pos.win is None or g.cards[0] == pos.win):
            return 0
        return 1 if g.kind in _FOUR_KINDS else 2

    for i in sorted(mine, key=rank):
        places = []
        for k, c in enumerate(groups[i].cards):
            if left[c] > 0:
                left[c] -= 1
                places.append(k)
        out[i] = tuple(places) or None
    return out
