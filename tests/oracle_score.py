"""Brute-force score oracle for the second-wave presets (R42–R46), from PRESETS.md alone.

Independent of ``paohuzi.core.scoring`` and ``paohuzi.core.mingtang``: every
complete split of a winning position is enumerated (the winning card placed in
every way R25 allows, the rest partitioned into 坎/句/绞/将 by :mod:`oracle`'s
naive partitioner, ``melds_to_win`` 门子 — 7, or 5 for 14-card hands, R43),
each split is scored with the formula PRESETS.md gives for the preset — written
out here by region, as a player would read it — and the best score counts
(R46). Only input types and the rules' 胡息 table come from the package.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from oracle import FOURS, _loose_splits, _win_placements, price
from paohuzi.core.position import Position

RED = {1, 6, 9, 11, 16, 19}  # 二七十 贰柒拾 (R3)


def splits(pos: Position, rules: object) -> Iterator[list[tuple[str, tuple[int, ...]]]]:
    """Every legal split of ``pos`` into its 门子, as (R9 row, cards) pairs."""
    assert pos.win is not None
    hand = Counter(int(c) for c in pos.hand)
    kans = [c for c, n in hand.items() if n == 3]
    target = (pos.hand_size + 1) // 3
    for fixed, taken in _win_placements(pos, rules):
        used = Counter(taken)
        if any(used[c] not in (0, 3) for c in kans):
            continue  # a 坎 is never split (R22)
        rest = +(hand - used)
        groups = list(fixed)
        for c in kans:
            if rest[c] == 3:
                groups.append(("kan", (c, c, c)))
                del rest[c]
        fours = sum(1 for row, _ in groups if row in FOURS)
        for loose in _loose_splits(rest, rules):
            pairs = sum(1 for row, _ in groups + loose if row == "pair")
            if len(groups) + len(loose) == target and pairs == (1 if fours else 0):
                yield groups + loose


def _xing(pos: Position) -> int:
    cards = [int(c) for c in pos.all_cards()]
    return sum(cards.count(int(x)) for x in pos.xing)


def score(pos: Position, rules: object, split: list[tuple[str, tuple[int, ...]]]) -> int:
    """The split's score under PRESETS.md "Second wave" for ``rules.name``."""
    name = rules.name  # type: ignore[attr-defined]
    h = sum(price(rules, row, cards) for row, cards in split)
    cards = [int(c) for c in pos.all_cards()]
    red = sum(1 for c in cards if c in RED)
    zimo = pos.self_drawn and not pos.tianhu
    if name == "guilin":
        # 子 = 1 + ⌊(油 − 起胡)/3⌋; 海底 +2 子; each 醒 +1 子; × 2 for 自摸 (天胡 is 自摸), 地胡.
        zi = 1 + (h - rules.min_huxi) // 3 + (2 if pos.last_card else 0) + _xing(pos)  # type: ignore[attr-defined]
        fan = (2 if zimo or pos.tianhu else 1) * (2 if pos.dihu else 1)
        return zi * fan
    if name == "hengyang":
        # 囤 = 1 + ⌊(H − 6)/3⌋ + 醒; 番 multiplied: 小红 8–9 2, 大红 ≥10 4, 一点红 3,
        # 黑胡 5; 自摸 2; 天胡 2; 地胡 2.
        tun = 1 + (h - 6) // 3 + _xing(pos)
        fan = 1
        fan *= 2 if 8 <= red <= 9 else 4 if red >= 10 else 3 if red == 1 else 5 if red == 0 else 1
        for flag in (zimo, pos.tianhu, pos.dihu):
            fan *= 2 if flag else 1
        return tun * fan
    if name == "loudi":
        # 100 × how many of 天胡/地胡/十三红/乌胡/三十卡 hold, else H; × 2 for each of
        # 一点朱, 十红 (10–12), 一块匾, 海底捞, 二十卡, 自摸 (the cap of 200 is the payment's).
        hundreds = sum((pos.tianhu, pos.dihu, red >= 13, red == 0, h == 30))
        base = 100 * hundreds if hundreds else h
        holders = [g for _, g in split if any(c in RED for c in g)]
        bian = red >= 2 and len(holders) == 1
        doubles = sum((red == 1, 10 <= red <= 12, bian, pos.last_card, h == 20, zimo))
        return base * 2**doubles
    if name == "yongzhou":
        # 囤 = 2 + ⌊(H − 起胡)/3⌋ + 醒数 (× 2 with 双醒); 番 multiplied: 自摸 2 (the dealer's
        # 亮张 win is his own turned-up card: 自摸 too), 红胡 (≥ 10 red) 2, 点胡 (1 red) 3,
        # 黑胡 (no red) 4; 红转朱黑 (the option): 13–15 red 3, ≥ 16 red 4, 红胡 10–12 only.
        # No 天胡/地胡/海底 番 or doubling; the cap of 300 is the payment's.
        xing = _xing(pos) * (2 if rules.xing_double else 1)  # type: ignore[attr-defined]
        tun = 2 + (h - rules.min_huxi) // 3 + xing  # type: ignore[attr-defined]
        hongzhuan = any(m.id == "honghu" and m.upto for m in rules.mingtang)  # type: ignore[attr-defined]
        fan = 2 if zimo or pos.tianhu else 1
        if red == 0:
            fan *= 4
        elif red == 1:
            fan *= 3
        elif red >= 10:
            fan *= (4 if red >= 16 else 3 if red >= 13 else 2) if hongzhuan else 2
        return tun * fan
    raise ValueError(f"no oracle for {name}")


def best_score(pos: Position, rules: object) -> tuple[int, int] | None:
    """(best score, 胡息 of a split giving it) over every split with ≥ 起胡 (R23, R46);
    None without one."""
    best: tuple[int, int] | None = None
    for split in splits(pos, rules):
        h = sum(price(rules, row, cards) for row, cards in split)
        if h < rules.min_huxi:  # type: ignore[attr-defined]
            continue
        s = score(pos, rules, split)
        if best is None or s > best[0]:
            best = (s, h)
    return best
