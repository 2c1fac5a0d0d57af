"""快照 (kuàizhào): a room as the messages see it, frozen once per change.

The room builds one :class:`RoomSnapshot` per change (:meth:`~..room.room.Room.snapshot`)
and every seat's state is a pure function of it, the seat's own part and the
seat's :class:`~paohuzi.core.views.View` (:mod:`.state`): presentation reads
nothing of the room itself.
"""

from __future__ import annotations

from typing import NamedTuple

from paohuzi.core.result import HandResult
from paohuzi.core.rules import Rules
from paohuzi.server.messages import DissolveVote, PlayerInfo, Timer
from paohuzi.server.room.levels import Level
from paohuzi.server.vocab import RoomPhase


class RoomSnapshot(NamedTuple):
    """One per change: a named tuple, as immutable as a frozen dataclass and made at a
    fraction of its cost (the reason :class:`~paohuzi.core.views.View` is one too)."""

    id: str
    rules: Rules
    level: Level  # its bots' level (and the 托管 stand-in's)
    phase: RoomPhase
    hand_id: str | None  # the hand dealt last
    played: int  # hands finished in the match
    hands_total: int
    scores: tuple[int, ...]  # the match totals (R38)
    players: tuple[PlayerInfo, ...]  # every seat as anyone may see it
    away_timeout: float
    rematch: str | None  # the room 再来一场 opened
    timers: tuple[Timer, ...]  # running 托管 timers (a hand in play, a human connected)
    discarding: int | None  # the seat that must discard: its timer is public (R16)
    result: HandResult | None  # the finished hand's, at a settlement or the match's end
    results: tuple[HandResult, ...]  # every finished hand's (the summary)
    hand_ids: tuple[str, ...]  # every dealt hand's, in order
    deck_commitment: str | None = None  # the hand's (可验证洗牌; the record reveals the salt)
    dissolve: DissolveVote | None = None  # a 解散 vote open (or just refused)
    dissolved: bool = False  # the match was ended by a 解散 vote


__all__ = ["RoomSnapshot"]
