"""Random position corpus for benchmarks: winning shapes, near misses and junk.

Positions are built as a legal 7-门子 hand (table melds + concealed groups),
then one concealed card becomes the winning card; a third of them get one card
swapped so that many do not win. Every position passes ``Position`` validation.
"""

from __future__ import annotations

import random

from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.position import Position, PositionError


def _take(counts: list[int], cards: list[int]) -> bool:
    need: dict[int, int] = {}
    for c in cards:
        need[c] = need.get(c, 0) + 1
    if any(counts[c] < n for c, n in need.items()):
        return False
    for c, n in need.items():
        counts[c] -= n
    return True


def _random_triple(rng: random.Random) -> list[int]:
    r = rng.random()
    if r < 0.45:  # 句
        size = 10 * rng.randrange(2)
        if rng.random() < 0.15:
            return [size + 1, size + 6, size + 9]
        p = rng.randrange(8)
        return [size + p, size + p + 1, size + p + 2]
    if r < 0.6:  # 绞
        p = rng.randrange(10)
        return [p, p, p + 10] if rng.random() < 0.5 else [p, p + 10, p + 10]
    c = rng.randrange(20)
    return [c, c, c]


def random_position(rng: random.Random) -> Position | None:
    counts = [4] * 20
    fours = rng.choices([0, 1, 2, 3], weights=[5, 4, 2, 1])[0]
    n_table = rng.randint(fours, min(6, fours + 4))
    table: list[Group] = []
    for i in range(n_table):
        if i < fours:
            c = rng.randrange(20)
            if not _take(counts, [c] * 4):
                return None
            table.append(Group.of(rng.choice([GroupKind.PAO, GroupKind.TI]), c))
            continue
        cards = _random_triple(rng)
        if not _take(counts, cards):
            return None
        if len(set(cards)) == 1:
            kind = rng.choice([GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI])
            table.append(Group.of(kind, cards[0]))
        else:
            table.append(Group(GroupKind.CHI, tuple(cards)))  # type: ignore[arg-type]
    hand: list[int] = []
    for _ in range(7 - n_table - (1 if fours else 0)):
        cards = _random_triple(rng)
        if not _take(counts, cards):
            return None
        hand += cards
    if fours:
        c = rng.randrange(20)
        if not _take(counts, [c, c]):
            return None
        hand += [c, c]
    rng.shuffle(hand)
    win = hand.pop()
    if rng.random() < 0.35:  # perturb: swap one concealed card for a free one
        free = [c for c in range(20) if counts[c] > 0]
        i = rng.randrange(len(hand))
        counts[hand[i]] += 1
        hand[i] = rng.choice(free)
        counts[hand[i]] -= 1
    try:
        return Position(tuple(hand), tuple(table), win, self_drawn=rng.random() < 0.4)  # type: ignore[arg-type]
    except PositionError:
        return None


def corpus(n: int, seed: int = 0) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        p = random_position(rng)
        if p is not None:
            out.append(p)
    return out
