"""吃/比 (chī/bǐ): every legal 吃 package of a hand taking card X (R15, R19).

A package is the 吃 group (X plus two hand cards forming a 句 or 绞) and the 比
groups: while the hand still holds X outside a 坎, each such X must be laid out
in a 句/绞 from the remaining hand. A 吃 whose 比 cannot be completed is not
legal. 坎 cards are never used (R§3 拆坎). Different packages are different
actions, so two packages that differ only in which group is the 吃 group are
both offered.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

Group3 = tuple[int, int, int]
Package = tuple[Group3, tuple[Group3, ...]]


def _partners(x: int) -> tuple[tuple[int, int], ...]:
    """Pairs (a, b), a ≤ b, such that X, a, b make a 句 or 绞."""
    base, p = (x // 10) * 10, x % 10
    out: set[tuple[int, int]] = set()
    for start in range(max(0, p - 2), min(p, 7) + 1):
        run = [base + start, base + start + 1, base + start + 2]
        run.remove(x)
        out.add((run[0], run[1]))
    if p in (1, 6, 9):  # 二七十 / 贰柒拾
        run = [base + 1, base + 6, base + 9]
        run.remove(x)
        out.add((run[0], run[1]))
    q = (x + 10) % 20  # the same point in the other size: 绞
    out.add((min(x, q), max(x, q)))
    out.add((q, q))
    return tuple(sorted(out))


PARTNERS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_partners(x) for x in range(20))


def _take(u: list[int], a: int, b: int) -> bool:
    if a == b:
        if u[a] < 2:
            return False
    elif u[a] < 1 or u[b] < 1:
        return False
    u[a] -= 1
    u[b] -= 1
    return True


def _bi(u: list[int], x: int) -> set[tuple[Group3, ...]]:
    """Every multiset of 比 groups that lays out all of ``u[x]`` remaining X."""
    if u[x] == 0:
        return {()}
    out: set[tuple[Group3, ...]] = set()
    u[x] -= 1  # the X this group places
    for a, b in PARTNERS[x]:
        if not _take(u, a, b):
            continue
        g: Group3 = tuple(sorted((x, a, b)))  # type: ignore[assignment]
        for rest in _bi(u, x):
            out.add(tuple(sorted((g, *rest))))
        u[a] += 1
        u[b] += 1
    u[x] += 1
    return out


def chi_packages(counts: Sequence[int], x: int) -> list[Package]:
    """All legal 吃 packages for a hand with ``counts`` (20 kinds) taking ``x`` (R19).

    ``counts`` is the concealed hand before taking; kinds held three times are
    坎 and are left alone. The result is sorted and free of duplicates.
    """
    return list(_chi_cached(tuple(n if n < 3 else 0 for n in counts), x))


@lru_cache(maxsize=65536)
def _chi_cached(usable: tuple[int, ...], x: int) -> tuple[Package, ...]:
    u = list(usable)
    out: set[Package] = set()
    for a, b in PARTNERS[x]:
        if not _take(u, a, b):
            continue
        chi: Group3 = tuple(sorted((x, a, b)))  # type: ignore[assignment]
        for bis in _bi(u, x):
            out.add((chi, bis))
        u[a] += 1
        u[b] += 1
    return tuple(sorted(out))


def _local_mask(x: int) -> int:
    """Packed-hand mask of every kind a package on ``x`` can use (x, its 句/绞 partners)."""
    kinds = {x} | {k for pair in PARTNERS[x] for k in pair}
    return sum(7 << (3 * k) for k in kinds)


LOCAL = tuple(_local_mask(x) for x in range(20))
_PACKED: dict[int, tuple[tuple[tuple[tuple[int, ...], ...], int], ...]] = {}


def packages_packed(packed: int, x: int) -> tuple[tuple[tuple[tuple[int, ...], ...], int], ...]:
    """:func:`chi_packages` of a packed hand (3 bits per kind), for the engine's hot loop.

    Each entry is (groups — the 吃 group then the 比 groups, number of 比 groups).
    Packages only ever use X's partners, so the answer is cached on that
    neighbourhood of the hand (a few thousand keys), not on the whole hand.
    """
    key = (packed & LOCAL[x]) << 5 | x
    out = _PACKED.get(key)
    if out is None:
        counts = [(packed >> (3 * c)) & 7 for c in range(20)]
        out = tuple(((chi, *bis), len(bis)) for chi, bis in chi_packages(counts, x))
        _PACKED[key] = out
    return out


def cards_used(package: Package, x: int) -> list[int]:
    """The hand cards a package lays out: the 吃 group without X, then every 比 card."""
    chi, bis = package
    used = list(chi)
    used.remove(x)
    return used + [c for g in bis for c in g]
