"""门子 profile: what the 名堂 that read a split (行行息, 假行行, 一块匾, 对子胡 …, R36)
see of it — counts of its 门子 by kind, 胡息 and colour, packed in one int.

A split's profile is the sum of its 门子's profiles (each field counts 门子, and a
split has at most 15 of anything), so the evaluator adds up profiles looked up per
table meld, 坎 and size of the rest without building the split (``HandEvaluator.profile``;
the C kernel adds the same numbers). :func:`of_split` is the reference: the profile of
groups at hand, 门子 by 门子.
"""

from __future__ import annotations

from collections.abc import Iterable

from .melds import Group, GroupKind

# Fields, 4 bits each: where each count sits in the int.
MELDS = 0  # 门子
RUNS = 4  # 句, 绞 and 吃: runs (对子胡 has none)
JIANG = 8  # 将 (the pair)
BARE = 12  # 门子 other than the 将 with no 胡息 (行行息, 假行行)
BARE_JIANG = 16  # a 将 with no 胡息
RED_MELDS = 20  # 门子 holding a red card: 二, 七, 十, 贰, 柒, 拾 (一块匾)
BITS = 24  # a profile is below 1 << BITS

_RUNS = frozenset({GroupKind.CHI, GroupKind.JU, GroupKind.JIAO})
_RED_POINTS = frozenset({1, 6, 9})  # 二七十 of either size (R3)


def get(profile: int, field: int) -> int:
    """One count of a profile: ``get(p, RUNS)``."""
    return profile >> field & 15


def of_meld(kind: GroupKind, cards: Iterable[int], huxi: int) -> int:
    """The profile of one 门子 of ``kind`` holding ``cards`` (card kinds 0–19) worth ``huxi``."""
    p = 1 << MELDS
    if kind in _RUNS:
        p += 1 << RUNS
    if kind is GroupKind.JIANG:
        p += 1 << JIANG
        if huxi == 0:
            p += 1 << BARE_JIANG
    elif huxi == 0:
        p += 1 << BARE
    if any(c % 10 in _RED_POINTS for c in cards):
        p += 1 << RED_MELDS
    return p


def of_split(groups: Iterable[Group], group_huxi: Iterable[int]) -> int:
    """The profile of a split at hand: its 门子 and their 胡息, one by one."""
    return sum(
        of_meld(g.kind, [int(c) for c in g.cards], h)
        for g, h in zip(groups, group_huxi, strict=True)
    )
