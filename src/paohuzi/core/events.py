"""事件 (shìjiàn): everything that happens in a hand, choices and automations alike.

Every :meth:`GameState.apply <paohuzi.core.state.GameState.apply>` returns the
tuple of events it caused. ``shown`` says whether the card is visible to every
seat (a 偎 or a draw that becomes 提/偎 is not); views hide the card of an
unshown event from everybody but its seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .cards import CODES, Card, card_or_wang
from .vocab import EventType, Source

DEAL = EventType.DEAL
LIANGZHANG = EventType.LIANGZHANG
BOTTOM = EventType.BOTTOM
TI = EventType.TI
WEI = EventType.WEI
CHOUWEI = EventType.CHOUWEI
PAO = EventType.PAO
DRAW = EventType.DRAW
DISCARD = EventType.DISCARD
CHI = EventType.CHI
PENG = EventType.PENG
PASS = EventType.PASS
PILE = EventType.PILE
HU = EventType.HU
HUANGZHUANG = EventType.HUANGZHUANG
XING = EventType.XING
SETTLE = EventType.SETTLE


def _plain(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _frozen(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return tuple(_frozen(x) for x in v)
    return v  # dicts stay dicts so that to_dict round-trips them


class Event(NamedTuple):
    """One thing that happened; ``data`` holds small JSON-able extras as pairs.

    A named tuple rather than a frozen dataclass: just as immutable, and a hand
    creates some 75 of them, where the dataclass constructor costs twice as much.
    """

    type: EventType
    seat: int | None = None
    card: Card | None = None
    source: Source | None = None
    shown: bool = True
    data: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.data:
            if k == key:
                return v
        return default

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.card is not None:
            d["card"] = CODES[self.card]
        if self.source is not None:
            d["source"] = self.source
        d["shown"] = self.shown
        for k, v in self.data:
            d[k] = _plain(v)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        rest = {k: v for k, v in d.items() if k not in ("type", "seat", "card", "source", "shown")}
        card = d.get("card")
        source = d.get("source")
        return cls(
            EventType(d["type"]),
            d.get("seat"),
            card_or_wang(card) if card else None,
            Source(source) if source is not None else None,
            bool(d.get("shown", True)),
            tuple((k, _frozen(v)) for k, v in rest.items()),
        )

    def __str__(self) -> str:
        who = f"{self.seat}:" if self.seat is not None else ""
        card = Card(self.card).zh if self.card is not None else ""
        return f"{who}{self.type}{card}"


def turned_up_by(result: Any, log: Sequence[Event]) -> int | None:
    """翻出: the seat that turned up from the wall the card a win was made on — a win
    neither 自摸 nor on a discard (放炮) nor 天胡 — else None. ``result`` a
    :class:`~paohuzi.core.result.HandResult`; ``log`` the hand's events (a view's will do:
    draws that end claimable are shown)."""
    pos = result.position
    if result.winner is None or result.discarder is not None or pos is None:
        return None
    if pos.self_drawn or pos.tianhu:
        return None
    by = next((e.seat for e in reversed(log) if e.type == EventType.DRAW), None)
    return by if by != result.winner else None
