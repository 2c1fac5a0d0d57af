"""存档的行 (cúndàng de háng): what storage keeps of a room, as plain values.

A room loads back as one :class:`RoomRow`: its rules, its :class:`RoomConfig`,
its seats (:class:`SeatRow`) and its match's hands (:class:`HandRow`, each with
every action applied so far), whatever database holds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from paohuzi.server.vocab import SeatKind


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits in a seat (what is stored of it): its index, kind, token, name and, for
    a bot seat, its level."""

    seat: int
    kind: SeatKind
    token: str | None = None
    name: str = ""
    bot: str | None = None


@dataclass
class HandRow:
    """One dealt hand of a match and every action applied to it so far."""

    id: str
    index: int
    seed: int | None
    dealer: int
    huang: int
    deck: list[str]
    finished: bool = False
    actions: list[tuple[int, str]] = field(default_factory=list)  # (seat, action id)


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """A room's settings beside its rules, stored as a JSON object: the bots' level,
    how many seats bots took, the creator (a keyed hash: rooms per client are counted,
    never traced), the 出牌时间 and 准备 options, and the room whose 再来一场 it is."""

    bot: str | None = None  # a level id (a pre-level server stored a bot spec)
    bots: int | None = None
    owner: str | None = None
    turn_time: float | None = None  # None: the server's --away-timeout
    ready_first: bool = False
    rematch_of: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The stored object: the keys a server has always written, in their order."""
        d: dict[str, Any] = {"bot": self.bot, "bots": self.bots, "owner": self.owner}
        if self.turn_time is not None:
            d["turn_time"] = self.turn_time
        if self.ready_first:
            d["ready_first"] = True
        if self.rematch_of is not None:
            d["rematch_of"] = self.rematch_of
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RoomConfig:
        """A stored object (any server's: what is missing takes its default, what is
        not a setting's type is dropped — a stored room always loads)."""

        def get(key: str, *types: type) -> Any:
            v = d.get(key)
            ok = isinstance(v, types) and not (isinstance(v, bool) and bool not in types)
            return v if ok else None

        return cls(
            bot=get("bot", str),
            bots=get("bots", int),
            owner=get("owner", str),
            turn_time=get("turn_time", int, float),
            ready_first=d.get("ready_first") is True,
            rematch_of=get("rematch_of", str),
        )


@dataclass
class RoomRow:
    """A room with its seats, its match and the match's hands (in order)."""

    id: str
    rules: dict[str, Any]
    config: RoomConfig
    seats: list[SeatRow]
    match_seed: int
    hands_total: int
    versions: list[int] = field(default_factory=list)  # per seat (see seats.py)
    ready: list[int] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)
    status: str = ""  # the phase last stored ("finished": also a match a 解散 vote ended)


__all__ = ["HandRow", "RoomConfig", "RoomRow", "SeatRow"]
