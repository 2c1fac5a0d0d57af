"""贪心 (tānxīn): the one-step heuristic bot.

It takes 胡 whenever offered. Otherwise every legal action is scored by the
holdings it leaves (:class:`~paohuzi.bots.heuristics.HandValue`: 胡息, shape,
听牌): a 吃/碰 that obliges a discard (R17) is scored with its best discard;
passing an offered card costs a little because the kind becomes 臭 (R20); a
discard pays for the risk of feeding an opponent a 碰/跑 (any seat) or a 吃
(the 下家 only, R15), judged from the view alone: unseen copies, the opponent's
hand size, his visible 臭偎, the kinds he discarded (R20 bars him).
With 王 (R39–R41): a 王 is never a discard; where the rules pay 王 patterns it is
kept free for them (holdings waiting on one are worth almost every unseen card),
else it is valued as the card it could best stand for, waiting only on 自摸 (R40);
where several 胡 are offered (自摸 and 王钓 / 王闯 / 王炸), the one that settles for
most is taken.
Deterministic: the RNG is not used; ties go to the first legal action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core.actions import CHI, DISCARD, HU, PASS, PENG, Action
from ..core.cards import Card
from ..core.chi import partners
from ..core.evaluator import BIT, TableSummary
from ..core.melds import Group
from ..core.player import Bot, Observation
from ..core.position import Position, PositionError
from ..core.rules import Rules
from ..core.scoring import settle
from ..core.views import View
from ..core.vocab import Source
from . import register
from .heuristics import HandValue, Weights, discard_kinds, meld
from .knowledge import Knowledge, knowledge

WIN = 1e9  # the value of 胡: always taken


@dataclass(slots=True)
class Choice:
    """One legal action with the value greedy gives it and what it leaves."""

    action: Action
    value: float
    packed: int  # concealed hand left (after the follow-up discard, if any)
    tsum: TableSummary | None
    discard: int | None = None  # the discard a 吃/碰 is scored with
    danger: float = 0.0


def hu_score(v: View, a: Action) -> tuple[int, int]:
    """(底, 胡息) the 胡 ``a`` would settle for, from the seat's own view: how greedy
    picks among several 胡 on one card (自摸 or a 王 pattern, R41). Flags the view
    cannot tell (天胡, 海底, 醒) are left out: they are the same for every option."""
    op = v.open
    if op is None or op.card is None:
        return (0, 0)
    wang_in = op.card is Card.W
    try:
        pos = Position(
            v.hand,
            v.own_groups(),
            None if wang_in else op.card,
            self_drawn=op.owner == v.seat and op.source in (Source.DRAW, Source.LIANGZHANG),
            hand_size=v.rules.hand_size,
            wang=v.wang,
            win_wang=wang_in,
            pattern=a.pattern,
        )
    except PositionError:
        return (0, 0)
    st = settle(pos, v.rules)
    return (st.di, st.huxi) if st.win else (0, 0)


class Scorer:
    """Greedy's evaluation of a seat's options from its :class:`Knowledge`."""

    def __init__(self, rules: Rules, weights: Weights):
        self.hv = HandValue(rules, weights)
        self.w = weights
        self.partners = partners(rules.yiwushi)  # the 句/绞 the 下家 may 吃 into

    def danger(self, k: Knowledge, c: int) -> float:
        """Expected gift to opponents if ``c`` is discarded (碰/跑 by anyone, 吃 by 下家)."""
        cache = k.cache
        d = cache.get(c)
        if d is None:
            d = cache[c] = self._danger(k, c)
        return d

    def _danger(self, k: Knowledge, c: int) -> float:
        risk = 0.0
        u = k.unseen[c]
        for o in k.opponents:
            if (o.pao_bait >> c) & 1:
                risk += 1.5  # his 臭偎 of c becomes 跑 (R13c)
            if (o.refused >> c) & 1 or o.hand_size <= 0:
                continue
            q = min(1.0, o.hand_size / k.hidden_total)
            if u >= 2:  # he holds a pair (碰) or a 坎 (跑) of c
                risk += 1.0 - (1 - q) ** u - u * q * (1 - q) ** (u - 1)
            if o.is_next:
                miss = 1.0
                for a, b in self.partners[c]:
                    if a == b:
                        n = k.unseen[a]
                        pa = 1.0 - (1 - q) ** n - n * q * (1 - q) ** (n - 1) if n >= 2 else 0.0
                        miss *= 1.0 - pa
                    else:
                        miss *= 1.0 - (1 - (1 - q) ** k.unseen[a]) * (1 - (1 - q) ** k.unseen[b])
                risk += 0.7 * (1.0 - miss)
        return self.w.danger * risk

    def _best_discard(
        self, k: Knowledge, packed: int, tsum: TableSummary, table: tuple[Group, ...] | None = None
    ) -> tuple[float, int, float, int]:
        """(value, card, danger, packed after) of the best discard from ``packed``."""
        best: tuple[float, int, float, int] | None = None
        for c in discard_kinds(packed):
            p2 = packed - BIT[c]
            d = self.danger(k, c)
            v = self.value(k, p2, tsum, table) - d
            if best is None or v > best[0]:
                best = (v, c, d, p2)
        if best is None:  # only 王 left (R39): nothing to discard
            return (self.value(k, packed, tsum, table), -1, 0.0, packed)
        return best

    def value(
        self, k: Knowledge, packed: int, tsum: TableSummary, table: tuple[Group, ...] | None = None
    ) -> float:
        """The holdings' value, the seat's 王 included (R40, R41); ``table``: the melds
        of ``tsum`` when they are not the seat's own (after a 吃/碰)."""
        return self.hv.value(
            packed,
            tsum,
            k.unseen,
            wang=k.wang,
            wang_unseen=k.wang_unseen,
            table=k.table if table is None else table,
        )

    def choices(self, k: Knowledge, legal: list[Action], v: View | None = None) -> list[Choice]:
        """Every legal action scored (same order as ``legal``); with the view ``v``,
        several 胡 are told apart by what they settle for (:func:`hu_score`)."""
        ev = self.hv.ev
        tsum = ev.summarize(k.table_keys)
        held = k.held
        out: list[Choice] = []
        offered = any(a.type in (CHI, PENG) for a in legal)
        several_hu = v is not None and sum(a.type == HU for a in legal) > 1
        for a in legal:
            if a.type == HU:
                bonus = hu_score(v, a)[0] if several_hu and v is not None else 0
                out.append(Choice(a, WIN + bonus, k.packed, tsum))
                continue
            c = int(a.card) if a.card is not None else -1
            if a.type == DISCARD:
                p2 = k.packed - BIT[c]
                d = self.danger(k, c)
                out.append(Choice(a, self.value(k, p2, tsum) - d, p2, tsum, c, d))
            elif a.type == PASS:
                val = self.value(k, k.packed, tsum)
                if offered and 0 <= c < 20 and not (k.barred >> c) & 1:
                    val -= self.w.chou * k.unseen[c]  # R20: the kind becomes 臭牌
                out.append(Choice(a, val, k.packed, tsum))
            else:
                new: tuple[Group, ...]
                if a.type == PENG:
                    p2 = k.packed - 2 * BIT[c]
                    new = (meld("peng", (c, c, c)),)
                else:  # 吃 group + 比 groups (R19)
                    p2 = k.packed + BIT[c]
                    new = ()
                    for g in a.groups:
                        for x in g:
                            p2 -= BIT[x]
                        new = (*new, meld("chi", tuple(int(x) for x in g)))
                t2 = ev.summarize((*k.table_keys, *(m.key for m in new)))
                table = (*k.table, *new)
                if held + 1 > k.need:  # R17: a discard follows
                    val, dc, d, p3 = self._best_discard(k, p2, t2, table)
                    out.append(Choice(a, val, p3, t2, None if dc < 0 else dc, d))
                else:
                    out.append(Choice(a, self.value(k, p2, t2, table), p2, t2))
        return out


def obvious(legal: list[Action], v: View | None = None) -> Action | None:
    """The choice that needs no thought: the only legal action, or 胡 when offered —
    of several 胡 (自摸 and 王 patterns, R41) the best settled from the view ``v``."""
    if len(legal) == 1:
        return legal[0]
    hus = [a for a in legal if a.type == HU]
    if len(hus) > 1 and v is not None:
        return max(hus, key=lambda a: hu_score(v, a))  # first of equals
    return hus[0] if hus else None


@register
class GreedyBot(Bot):
    """greedy: 胡 when possible, else the action leaving the best-valued holdings.

    Options (``greedy:huxi=1.2,danger=0``) are the :class:`Weights` fields.
    """

    name = "greedy"

    def __init__(self, **weights: float):
        unknown = set(weights) - set(Weights.names())
        if unknown:
            raise TypeError(f"unknown greedy option(s) {sorted(unknown)}")
        self.weights = Weights(**{k: float(v) for k, v in weights.items()})
        self._scorers: dict[Rules, Scorer] = {}

    def scorer(self, rules: Rules) -> Scorer:
        s = self._scorers.get(rules)
        if s is None:
            s = self._scorers[rules] = Scorer(rules, self.weights)
        return s

    def choices(self, obs: Observation) -> list[Choice]:
        """Every legal action of ``obs`` with its value (same order as ``obs.legal``)."""
        return self.scorer(obs.rules).choices(knowledge(obs.view), obs.legal, obs.view)

    def ranked(self, obs: Observation) -> list[Choice]:
        """Choices best first (stable: ties keep the legal order)."""
        return sorted(self.choices(obs), key=lambda ch: -ch.value)

    def act(self, obs: Observation, rng: random.Random) -> Action:
        return obvious(obs.legal, obs.view) or self.ranked(obs)[0].action


_GREEDY = GreedyBot()


def greedy_values(obs: Observation) -> list[float]:
    """The default greedy's value of each legal action (``obs.legal`` order; 胡 is huge)."""
    if len(obs.legal) == 1:
        return [0.0]
    return [ch.value for ch in _GREEDY.choices(obs)]


def greedy_choice(legal: list[Action], values: list[float]) -> int:
    """The index greedy plays: 胡 when offered (the best valued of several), else its
    best value (first on ties)."""
    hus = [i for i, a in enumerate(legal) if a.type == HU]
    if hus:
        return max(hus, key=lambda i: (values[i], -i))
    return max(range(len(values)), key=lambda i: (values[i], -i))


__all__ = [
    "Choice",
    "GreedyBot",
    "Scorer",
    "discard_kinds",
    "greedy_choice",
    "greedy_values",
    "hu_score",
]
