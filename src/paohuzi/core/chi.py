"""吃/比 (chī/bǐ): every legal 吃 package of a hand taking card X (R15, R19).

A package is the 吃 group (X plus two hand cards forming a 句 or 绞) and the 比
groups: while the hand still holds X outside a 坎, each such X must be laid out
in a 句/绞 from the remaining hand. A 吃 whose 比 cannot be completed is not
legal. 坎 cards are never used (R§3 拆坎).

Every group of a package holds X, so any of them may be called the 吃 group:
packages that lay out the same multiset of groups take the same cards and are
one choice (R19, INTERFACES §4). A package is kept in canonical order — its
groups sorted — and the first group is the one called 吃.

With 衡阳's option (``Rules.yiwushi``) 一五十 / 壹伍拾 is a 句 too: every function
takes ``yiwushi`` and keeps its tables and caches apart for it.
"""

from __future__ import annotations

from collections.abc import Sequence

Group3 = tuple[int, int, int]
Package = tuple[Group3, tuple[Group3, ...]]  # (吃 group, 比 groups): all groups sorted


def _partners(x: int, yiwushi: bool = False) -> tuple[tuple[int, int], ...]:
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
    if yiwushi and p in (0, 4, 9):  # 一五十 / 壹伍拾 (衡阳's option)
        run = [base, base + 4, base + 9]
        run.remove(x)
        out.add((run[0], run[1]))
    q = (x + 10) % 20  # the same point in the other size: 绞
    out.add((min(x, q), max(x, q)))
    out.add((q, q))
    return tuple(sorted(out))


PARTNERS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_partners(x) for x in range(20))
# With 一五十 (Rules.yiwushi): PARTNERS and the 一五十 partners of 一, 五, 十 and 壹, 伍, 拾.
PARTNERS_YWS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_partners(x, True) for x in range(20))


def _take(u: list[int], a: int, b: int) -> bool:
    if a == b:
        if u[a] < 2:
            return False
    elif u[a] < 1 or u[b] < 1:
        return False
    u[a] -= 1
    u[b] -= 1
    return True


def _triple(x: int, a: int, b: int) -> Group3:
    return tuple(sorted((x, a, b)))  # type: ignore[return-value]


# PARTNERS (PARTNERS_YWS) with the sorted group each pair makes with X.
_GROUPS: tuple[tuple[tuple[int, int, Group3], ...], ...] = tuple(
    tuple((a, b, _triple(x, a, b)) for a, b in PARTNERS[x]) for x in range(20)
)
_GROUPS_YWS: tuple[tuple[tuple[int, int, Group3], ...], ...] = tuple(
    tuple((a, b, _triple(x, a, b)) for a, b in PARTNERS_YWS[x]) for x in range(20)
)


def partners(yiwushi: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:data:`PARTNERS` of rules with or without 一五十 (``Rules.yiwushi``)."""
    return PARTNERS_YWS if yiwushi else PARTNERS


def chi_packages(counts: Sequence[int], x: int, yiwushi: bool = False) -> list[Package]:
    """All legal 吃 packages for a hand with ``counts`` (20 kinds) taking ``x`` (R19).

    ``counts`` is the concealed hand before taking; kinds held three times are
    坎 and are left alone. The result is sorted, one package per multiset of
    groups, each in canonical order (groups sorted). ``yiwushi``: 一五十 is a 句.
    """
    return list(_packages([n if n < 3 else 0 for n in counts], x, yiwushi))


def _packages(u: list[int], x: int, yiwushi: bool = False) -> tuple[Package, ...]:
    """:func:`chi_packages` on usable counts ``u`` (no 坎; changed, then restored).

    X is held at most twice outside a 坎, so at most two 比 groups follow the
    吃 group. Each group holds X, so a multiset of groups is found once per
    choice of which group takes the open X; sorting the whole multiset keeps it
    once.
    """
    groups = (_GROUPS_YWS if yiwushi else _GROUPS)[x]
    out: set[Package] = set()
    for a, b, chi in groups:
        if not _take(u, a, b):
            continue
        if u[x] == 0:
            out.add((chi, ()))
        else:
            u[x] -= 1  # the X the first 比 group places
            for j, (a1, b1, g1) in enumerate(groups):
                if not _take(u, a1, b1):
                    continue
                if u[x] == 0:
                    out.add(_canonical(chi, g1))
                else:
                    u[x] -= 1  # the X of the second 比 group
                    for a2, b2, g2 in groups[j:]:
                        if _take(u, a2, b2):
                            out.add(_canonical(chi, g1, g2))
                            u[a2] += 1
                            u[b2] += 1
                    u[x] += 1
                u[a1] += 1
                u[b1] += 1
            u[x] += 1
        u[a] += 1
        u[b] += 1
    return tuple(sorted(out))


def _canonical(*groups: Group3) -> Package:
    """One package per multiset of groups: sorted, the first called 吃."""
    first, *rest = sorted(groups)
    return first, tuple(rest)


def _local_mask(x: int, yiwushi: bool = False) -> int:
    """Packed-hand mask of every kind a package on ``x`` can use (x, its 句/绞 partners)."""
    kinds = {x} | {k for pair in partners(yiwushi)[x] for k in pair}
    return sum(7 << (3 * k) for k in kinds)


LOCAL = tuple(_local_mask(x) for x in range(20))
LOCAL_YWS = tuple(_local_mask(x, True) for x in range(20))
_LOW = sum(1 << (3 * c) for c in range(20))
PackedPackages = tuple[tuple[tuple[Group3, ...], int], ...]
_PACKED: dict[int, PackedPackages] = {}
_INTERNED: dict[PackedPackages, PackedPackages] = {}  # equal answers share one object


def packages_packed(packed: int, x: int, yiwushi: bool = False) -> PackedPackages:
    """:func:`chi_packages` of a packed hand (3 bits per kind), for the engine's hot loop.

    Each entry is (groups — the 吃 group then the 比 groups, number of 比 groups).
    Packages only ever use X's partners, so the answer is cached on that
    neighbourhood of the hand (a few thousand keys), not on the whole hand; with
    ``yiwushi`` (一五十 a 句) under keys of their own.
    """
    local = packed & (LOCAL_YWS if yiwushi else LOCAL)[x]
    local -= 3 * (local & (local >> 1) & _LOW)  # 坎 (3 of a kind) are never used
    key = (local << 5 | x) << 1 | int(yiwushi)
    out = _PACKED.get(key)
    if out is None:
        counts = [n if n < 3 else 0 for n in ((local >> (3 * c)) & 7 for c in range(20))]
        out = tuple(((chi, *bis), len(bis)) for chi, bis in _packages(counts, x, yiwushi))
        out = _PACKED[key] = _INTERNED.setdefault(out, out)
    return out


def cards_used(package: Package, x: int) -> list[int]:
    """The hand cards a package lays out: the 吃 group without X, then every 比 card."""
    chi, bis = package
    used = list(chi)
    used.remove(x)
    return used + [c for g in bis for c in g]
