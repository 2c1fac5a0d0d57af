"""接口 (jiēkǒu): what the room's helpers rely on of a room and of its manager.

:mod:`.present`, :mod:`.driver` and :mod:`.hinting` work for a room without
importing :mod:`.rooms` or :mod:`.lobby`: they are typed against these
Protocols, which :class:`~.rooms.Room` and :class:`~.lobby.RoomManager`
satisfy structurally (:class:`LobbyPort`: what a room needs of its lobby). So
every import points one way — rooms and lobby above, their helpers below —
and what a helper needs of a room is listed in one place.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from paohuzi.bots.hints import Hint
from paohuzi.core.actions import Action
from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState
from paohuzi.server.room.bot_pool import BotPool
from paohuzi.server.room.levels import Level
from paohuzi.server.room.seats import Seat
from paohuzi.server.storage.sqlite import Storage
from paohuzi.table import Table


class ManagerPort(Protocol):
    """The lobby as a room's helpers see it: settings, the bot pool, the hint function."""

    @property
    def closed(self) -> bool: ...

    @property
    def bot_delay(self) -> float: ...

    @property
    def away_timeout(self) -> float: ...

    @property
    def pool(self) -> BotPool: ...

    @property
    def hint(self) -> Callable[[GameState, int], Hint]: ...


class RoomPort(Protocol):
    """A room as :mod:`.present`, :mod:`.driver` and :mod:`.hinting` read and drive it."""

    id: str
    rules: Rules
    config: dict[str, Any]
    level: Level
    seats: list[Seat]
    table: Table
    hand_id: str | None
    hand_ids: list[str]  # every dealt hand's id, in order (the match summary)
    ready: set[int]
    next_room: str | None
    lock: asyncio.Lock
    tasks: set[asyncio.Task[Any]]

    @property
    def manager(self) -> ManagerPort: ...

    @property
    def state(self) -> GameState | None: ...

    @property
    def phase(self) -> str: ...

    @property
    def away_timeout(self) -> float: ...

    @property
    def ready_first(self) -> bool: ...

    def humans_connected(self) -> bool: ...

    def changing(self) -> AbstractAsyncContextManager[None]: ...

    def commit(self, seat: int, choice: Action | None) -> None: ...

    def go_away(self, seat: Seat) -> None: ...


class LobbyPort(ManagerPort, Protocol):
    """What a room itself needs of the lobby (:class:`~.lobby.RoomManager` is one)."""

    @property
    def storage(self) -> Storage: ...

    def rematch(self, room: RoomPort) -> str:
        """再来一场: open the room of the next match for ``room``'s seats; its code."""
        ...


__all__ = ["LobbyPort", "ManagerPort", "RoomPort"]
