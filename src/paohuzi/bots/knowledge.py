"""知情 (zhīqíng): what one seat knows, parsed from its view — and nothing else.

:func:`knowledge` turns the :class:`~paohuzi.core.views.View` of a seat (the
engine's single hidden-information filter) into the numbers the bots need: the seat's own
holdings as a packed hand and table-meld keys, the count of every card kind it
has not seen, and for each opponent the hand size, the visible melds and the
kinds he may no longer 吃/碰 (his discards, R20; other seats' passes are private).
王 (R39) are counted apart: the seat's own, and those it has not seen (a 王 dealt
to another seat stays hidden; one turned up is shown to all).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.cards import Card
from ..core.evaluator import BIT
from ..core.melds import Group, GroupKind
from ..core.views import View
from ..core.vocab import EventType
from .heuristics import meld_key

FOURS = (GroupKind.PAO, GroupKind.TI)
PASS, DISCARD = EventType.PASS, EventType.DISCARD
TURNED = (EventType.DRAW, EventType.LIANGZHANG)


@dataclass(slots=True)
class Opponent:
    """One other seat as ``seat`` sees it."""

    seat: int
    hand_size: int
    refused: int  # bit c: he discarded kind c, so he may not 吃/碰 it (R20)
    pao_bait: int  # bit c: a 臭偎 of c shows on his table — a 4th c makes his 跑
    hidden_wei: int  # face-down 偎 on his table (kinds unknown)
    is_next: bool  # my 下家: the only seat that may 吃 my discard (R15)


@dataclass(slots=True)
class Knowledge:
    """A seat's parsed view (see the module docstring)."""

    seat: int
    packed: int
    counts: list[int]
    table_keys: tuple[int, ...]
    fours: int
    need: int
    unseen: list[int]  # 4 − copies visible to this seat, per kind
    hidden_total: int  # cards this seat cannot see (other hands, wall, face-down 偎)
    barred: int  # bit c: I may not 吃/碰 kind c (臭牌 or my own discard, R20)
    opponents: list[Opponent]
    open_card: int | None
    phase: str
    wall: int
    wang: int = 0  # 王 in my hand (R39): not in ``packed`` / ``counts``
    wang_unseen: int = 0  # 王 of the deck I have not seen (in other hands or the wall)
    table: tuple[Group, ...] = ()  # my table melds (their keys: ``table_keys``)
    cache: dict[int, float] = field(default_factory=dict)  # per-decision memo (danger)

    @property
    def held(self) -> int:
        return (
            sum(self.counts)
            + self.wang
            + sum(4 if k // 20 in (3, 4) else 3 for k in self.table_keys)
        )


def _mask(cards: tuple[Card, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def knowledge(v: View) -> Knowledge:
    """Parse a :class:`~paohuzi.core.views.View` into :class:`Knowledge`."""
    seat = v.seat
    counts = [0] * 20
    for c in v.hand:
        counts[c] += 1
    packed = sum(BIT[c] * n for c, n in enumerate(counts))
    seen = counts[:]
    keys: list[int] = []
    fours = 0
    hidden_wei = {}
    pao_bait = {}
    for t, melds in enumerate(v.tables):
        hw = bait = 0
        for m in melds:
            cards = [c for c in m.cards if c is not None]
            for c in cards:
                seen[c] += 1
            if t == seat:
                keys.append(meld_key(m.kind, tuple(cards)))
                fours += m.kind in FOURS
            elif not cards:
                hw += 1
            elif m.kind is GroupKind.CHOUWEI:
                bait |= 1 << cards[0]
        hidden_wei[t], pao_bait[t] = hw, bait
    for pile in v.piles:
        for c in pile:
            seen[c] += 1
    open_card = None
    if v.open is not None and v.open.card is not None:
        open_card = int(v.open.card)
        if open_card < 20:  # a drawn 王 (R39) is no kind: nothing of a kind is seen
            seen[open_card] += 1
    refused = dict.fromkeys(v.seats, 0)
    shown_wang = 0  # 王 other seats turned up (R39: shown to all, then held)
    for e in v.log:
        if (e.type is PASS or e.type is DISCARD) and e.card is not None and e.seat in refused:
            refused[e.seat] |= 1 << e.card
        elif e.card is Card.W and e.type in TURNED and e.seat != seat:
            shown_wang += 1
    seats = list(v.seats)
    nxt = seats[(seats.index(seat) + 1) % len(seats)] if seat in seats else -1
    opps = [
        Opponent(t, v.hand_sizes[t], refused[t], pao_bait[t], hidden_wei[t], t == nxt)
        for t in seats
        if t != seat
    ]
    unseen = [max(0, 4 - n) for n in seen]
    return Knowledge(
        seat=seat,
        packed=packed,
        counts=counts,
        table_keys=tuple(keys),
        fours=fours,
        need=v.need,
        unseen=unseen,
        hidden_total=max(1, sum(unseen)),
        barred=_mask(v.chou) | _mask(v.discarded),
        opponents=opps,
        open_card=open_card,
        phase=v.phase,
        wall=v.wall,
        wang=v.wang,
        wang_unseen=max(0, v.rules.wang - v.wang - shown_wang),
        table=v.own_groups() if v.wang else (),
    )


__all__ = ["Knowledge", "Opponent", "knowledge"]
