"""词汇 (cíhuì): the web game's closed sets of words — seat kinds, room phases, web choices.

StrEnums: each member *is* its string (``SeatKind.HUMAN == "human"``), so SQLite
rows, JSON and the browser client see the same words as before; the code gets
names a type checker can follow instead of bare strings.
"""

from __future__ import annotations

from enum import StrEnum


class SeatKind(StrEnum):
    """座位种类: who plays a seat."""

    HUMAN = "human"
    BOT = "bot"
    FREE = "free"  # nobody yet: a friend may join (INTERFACES §5)


class RoomPhase(StrEnum):
    """The ``phase`` of a room's state message (INTERFACES §5)."""

    WAITING = "waiting"  # seats still free, or (``ready_first``) humans not ready yet
    PLAYING = "playing"
    SETTLEMENT = "settlement"  # a hand is over; the next waits for 下一局
    FINISHED = "finished"  # the match is over (R38)


class WebChoice(StrEnum):
    """The web's own choices beside the engine's actions (each its id and its type)."""

    READY = "ready"  # 准备 before a ``ready_first`` room's deal, 下一局 at a settlement
    REMATCH = "rematch"  # 再来一场 at the match's end: the same seats in a new match


__all__ = ["RoomPhase", "SeatKind", "WebChoice"]
