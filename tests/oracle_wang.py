"""Brute-force oracle for hands with 王 (R40, R46), independent of ``paohuzi.core.wang``.

Every 王 is substituted by every card kind in turn (each multiset of kinds once).
Each substituted hand is then split by a naive search over *tokens* — one per
card, marked natural or substituted, the winning card marked too — that tries
every group shape for the lowest token and every choice of tokens for its
other members. The rules of R22/R25/R40 are checked on the finished split, as
a player would read them:

- a natural 坎 (three natural cards of a kind before the win) stays in one
  group: a 坎, a 提 with a 王, or a 跑/提 with the winning card;
- three or four of a kind count as 坎 / 提 only with a 王 among them; a natural
  pair with the winning card is a 碰 (偎 when self-drawn);
- a 王 may turn a table 偎 into a 提 while the table has no 跑/提;
- exactly ``melds_to_win`` 门子, and a 将 exactly when there is a four;
- with a 王 pattern (R41) the incoming card and 1/2/3 王 of its kind are a fixed
  pair / 坎 / 提, and the pattern's 番 multiplies the score instead of 自摸's.

Each split is scored with :func:`oracle_score.score` (PRESETS.md's formulas),
the cards being the natural ones plus what each 王 stands for.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement
from types import SimpleNamespace

from oracle import FOURS, RUNS, price, set_row, table_row
from oracle_score import score
from paohuzi.core.cards import Card
from paohuzi.core.melds import GroupKind
from paohuzi.core.position import Position

Token = tuple[int, bool, bool]  # (kind, substituted, the winning card)
Split = list[tuple[str, tuple[int, ...]]]


def _shapes(c: int) -> list[tuple[int, ...]]:
    """Every multiset of kinds a group holding ``c`` can be (句, 二七十, 绞, 对, 3, 4)."""
    out = [s for s in RUNS if c in s]  # RUNS: every 句 incl. 二七十
    p = c % 10
    out += [(p, p, p + 10), (p, p + 10, p + 10)]  # 绞
    out += [(c, c), (c, c, c), (c, c, c, c)]
    return out


def _token_splits(tokens: list[Token]) -> Iterator[list[list[Token]]]:
    if not tokens:
        yield []
        return
    first, rest = tokens[0], tokens[1:]
    for shape in _shapes(first[0]):
        need = list(shape)
        need.remove(first[0])
        yield from _pick(need, rest, [first], 0)


def _pick(need: list[int], pool: list[Token], group: list[Token], start: int) -> Iterator:
    if not need:
        for more in _token_splits(pool):
            yield [group, *more]
        return
    k = need[0]
    seen: set[Token] = set()
    for i in range(len(pool)):
        t = pool[i]
        if t[0] == k and t not in seen:  # equal tokens are interchangeable
            seen.add(t)
            yield from _pick(need[1:], pool[:i] + pool[i + 1 :], [*group, t], 0)


def _price_group(g: list[Token], sd: bool) -> str | None:
    """The R9 row of a hand group, or None if the group is not allowed."""
    kinds = sorted(t[0] for t in g)
    subs = any(t[1] for t in g)
    same = len(set(kinds)) == 1
    if len(g) == 2:
        return "pair"
    if same and len(g) == 4:
        return "ti" if subs else None  # natural fours were 提 before (R12)
    if same:
        if subs:
            return "kan"
        if any(t[2] for t in g):
            return "wei" if sd else "peng"
        return None  # three naturals: a 坎 is fixed before the split
    return set_row(kinds)


def splits(pos: Position, assignment: tuple[int, ...]) -> Iterator[Split]:
    """Every legal split with the 王 standing for ``assignment`` (the win 王 last)."""
    sd = pos.self_drawn or pos.win_wang
    nat = [int(c) for c in pos.hand]
    kans = {c for c in set(nat) if nat.count(c) == 3}
    subs = list(assignment)
    win: Token
    if pos.win_wang:
        win = (subs.pop(), True, True)
    else:
        assert pos.win is not None
        win = (int(pos.win), False, True)
    table = list(pos.table)
    fourless = not any(g.kind.is_four for g in table)
    # the winning card may upgrade a table 偎/碰 (R25) and, while the table has no
    # 跑/提, one 王 a table 偎 (R40): every combination of the two
    base = [(table_row(g), tuple(map(int, g.cards))) for g in table]
    pat = pos.pattern
    if pat is not None:
        # R41: the incoming card and hand_wang 王 standing for its kind are one group
        c, need = win[0], pat.hand_wang
        if subs.count(c) < need:
            return
        for _ in range(need):
            subs.remove(c)
        base.append((("pair", "kan", "ti")[need - 1], (c,) * (need + 1)))
    win_ups: list[tuple[int, str, Token | None]] = [(-1, "", None)]
    wang_ups: list[tuple[int, str, Token | None]] = [(-1, "", None)]
    for i, g in enumerate(table):
        c = int(g.cards[0])
        if g.kind in (GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI) and win[0] == c and not pat:
            win_ups.append((i, "ti" if sd and g.kind is not GroupKind.PENG else "pao", win))
        if fourless and g.kind in (GroupKind.WEI, GroupKind.CHOUWEI) and c in subs:
            wang_ups.append((i, "ti", (c, True, False)))
    table_opts: list[tuple[Split, list[Token]]] = []
    for i, row_i, ti in win_ups:
        for j, row_j, tj in wang_ups:
            if i >= 0 and i == j:
                continue
            t2 = list(base)
            used = []
            for k, row, t in ((i, row_i, ti), (j, row_j, tj)):
                if k >= 0 and t is not None:
                    t2[k] = (row, (t[0],) * 4)
                    used.append(t)
            table_opts.append((t2, used))
    for fixed, used in table_opts:
        tokens = [(c, False, False) for c in nat] + [(k, True, False) for k in subs]
        tokens += [] if pat else [win]
        for t in used:
            tokens.remove(t)
        tokens.sort()
        target = (pos.hand_size + 1) // 3
        for parts in _token_splits(tokens):
            out = list(fixed)
            ok = True
            for g in parts:
                naturals = [t for t in g if not t[1] and not t[2]]
                kinds = {t[0] for t in g}
                for k in kans:
                    n = sum(1 for t in naturals if t[0] == k)
                    if n not in (0, 3):
                        ok = False  # a 坎 split (R22)
                if not ok:
                    break
                if len(kinds) == 1 and len(naturals) == 3 and naturals[0][0] in kans:
                    if len(g) == 3:
                        row = "kan"
                    elif any(t[2] for t in g) and not any(t[1] for t in g):
                        row = "ti" if sd else "pao"
                    else:
                        row = "ti"
                else:
                    r = _price_group(g, sd)
                    if r is None:
                        ok = False
                        break
                    row = r
                out.append((row, tuple(sorted(t[0] for t in g))))
            if not ok:
                continue
            fours = sum(1 for row, _ in out if row in FOURS)
            pairs = sum(1 for row, _ in out if row == "pair")
            if len(out) == target and pairs == (1 if fours else 0):
                yield out


def best_score(pos: Position, rules: object) -> tuple[int, int] | None:
    """(best score, its 胡息) over every assignment and split with ≥ 起胡; None if none."""
    n = pos.wang + pos.win_wang
    best: tuple[int, int] | None = None
    for assignment in combinations_with_replacement(range(20), n):
        for order in _orders(assignment, pos.win_wang):
            cards = [int(c) for c in pos.all_cards()] + list(order)
            view = SimpleNamespace(
                all_cards=lambda cards=cards: [Card(c) for c in cards],
                xing=pos.xing,
                # R41: a pattern's 番 replaces 自摸's
                self_drawn=(pos.self_drawn or pos.win_wang) and pos.pattern is None,
                tianhu=pos.tianhu,
                dihu=pos.dihu,
                last_card=pos.last_card,
            )
            for split in splits(pos, order):
                h = sum(price(rules, row, cards) for row, cards in split)
                if h < rules.min_huxi:  # type: ignore[attr-defined]
                    continue
                s = score(view, rules, split)  # type: ignore[arg-type]
                if pos.pattern is not None:  # multiplied 番 (the tests' presets)
                    s *= rules.wang_fan[pos.pattern.slot]  # type: ignore[attr-defined]
                if best is None or (s, h) > best:
                    best = (s, h)
    return best


def _orders(assignment: tuple[int, ...], win_wang: bool) -> Iterator[tuple[int, ...]]:
    """The assignment with each distinct kind in turn as the winning 王 (last)."""
    if not win_wang:
        yield assignment
        return
    for k in sorted(set(assignment)):
        rest = list(assignment)
        rest.remove(k)
        yield (*rest, k)
