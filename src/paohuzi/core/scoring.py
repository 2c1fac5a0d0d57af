"""算分 (suànfēn): settle a winning hand — 胡息 → 等 → 名堂/番 → 底 → payments (R34–R37).

:func:`settle` never raises for a hand that does not win: the result carries
``error`` = ``"not_winning"`` or ``"below_min_huxi"`` (like the mahjong
package's result objects), so batch scoring can go on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .evaluator import evaluator_for
from .melds import Group
from .mingtang import Context, MingtangHit, find
from .position import Position
from .rules import HUNAN, Rules

DOUBLING_NAMES = {"tianhu": "天胡", "dihu": "地胡", "haidi": "海底胡"}


@dataclass(frozen=True)
class Settlement:
    """The 结算 of one position under one rules object."""

    win: bool
    huxi: int  # best 胡息 before doubling
    scored_huxi: int  # after the doublings of R35
    deng: int
    fan: int
    di: int
    mingtang: tuple[MingtangHit, ...]
    groups: tuple[Group, ...]
    group_huxi: tuple[int, ...]
    error: str | None
    doubled: tuple[str, ...] = ()
    zimo: bool = False
    huang_multiplier: int = 1

    def to_dict(self) -> dict[str, Any]:
        """The ``paohuzi score --json`` object (INTERFACES.md §1), plus extra keys."""
        return {
            "win": self.win,
            "huxi": self.huxi,
            "deng": self.deng,
            "fan": self.fan,
            "di": self.di,
            "mingtang": [{"name": m.name, "fan": m.fan, "id": m.id} for m in self.mingtang],
            "groups": [
                {"kind": g.kind.value, "cards": g.zh, "huxi": h}
                for g, h in zip(self.groups, self.group_huxi, strict=True)
            ],
            "error": self.error,
            "scored_huxi": self.scored_huxi,
            "doubled": list(self.doubled),
            "zimo": self.zimo,
        }


def settle(position: Position, rules: Rules = HUNAN, huang: int = 0) -> Settlement:
    """Score ``position``; ``huang`` is the number of 荒庄 just before (黄番)."""
    a = evaluator_for(rules).analyse(position)
    group_huxi = tuple(g.huxi(rules) for g in a.groups)
    if not a.win:
        return Settlement(False, a.huxi, a.huxi, 0, 0, 0, (), a.groups, group_huxi, a.error)
    flags = {"tianhu": position.tianhu, "dihu": position.dihu, "haidi": position.last_card}
    doubled = tuple(e for e in rules.doubling if flags[e])
    h2 = a.huxi * 2 ** len(doubled)
    zimo = position.self_drawn or position.tianhu  # 天胡为自摸 (seeds)
    deng = rules.deng(h2) + (rules.zimo_bonus if zimo else 0)
    hits = find(Context(position, a.groups, group_huxi), rules)
    if not hits:
        fan = 1  # 平胡
    elif rules.fan_combine == "add":
        fan = sum(m.fan for m in hits)
    else:
        fan = math.prod(m.fan for m in hits)
    mult = 1
    if huang and rules.huangzhuang_fan:
        mult = rules.huangzhuang_fan[min(huang, len(rules.huangzhuang_fan)) - 1]
    return Settlement(
        True,
        a.huxi,
        h2,
        deng,
        fan,
        deng * fan * mult,
        hits,
        a.groups,
        group_huxi,
        None,
        doubled,
        zimo,
        mult,
    )


def payments(
    di: int,
    winner: int,
    dealt_in: list[int],
    rules: Rules = HUNAN,
    discarder: int | None = None,
    dihu: bool = False,
) -> list[int]:
    """Net score change per seat (R37). Seats not dealt in (坐底) neither pay nor get.

    Default: each other dealt-in seat pays 底. ``payment == "discarder"``: on a win
    on a discard only the discarder pays. 包赔: on 地胡 the discarder pays for all.
    """
    n = max([*dealt_in, winner]) + 1 if dealt_in else winner + 1
    out = [0] * max(n, rules.players)
    payers = [s for s in dealt_in if s != winner]
    if discarder is not None and (rules.payment == "discarder" or (dihu and rules.baopei)):
        share = di if rules.payment == "discarder" else di * len(payers)
        out[discarder] -= share
        out[winner] += share
        return out
    for s in payers:
        out[s] -= di
        out[winner] += di
    return out
