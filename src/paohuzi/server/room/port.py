"""接口 (jiēkǒu): what the room's helpers need of a room, and a room of its lobby.

:mod:`.driver` works for a room without importing :mod:`.room`: it is typed
against :class:`DriverPort`, which :class:`~.room.Room` satisfies structurally;
a room sees its lobby as a :class:`LobbyPort` (:class:`~.manager.RoomManager`
is one). So every import points one way — the lobby and the room above, their
helpers below — and what a helper needs is listed in one place. Presentation
needs no port: it is given a frozen snapshot (:mod:`..present.snapshot`), and
the hints their own few parts (:class:`~.hint_task.HintTask`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from paohuzi.bots.hints import Hint
from paohuzi.core.actions import Action
from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState
from paohuzi.server.room.bot_pool import BotPool
from paohuzi.server.room.levels import Level
from paohuzi.server.room.seats import Seat
from paohuzi.server.storage.sqlite import RoomConfig, SeatRow, Storage
from paohuzi.server.vocab import RoomPhase
from paohuzi.table import Table


class BotSettings(Protocol):
    """The lobby's settings the bot driver follows."""

    @property
    def closed(self) -> bool: ...  # the server stops: plan nothing more

    @property
    def bot_delay(self) -> float: ...

    @property
    def pool(self) -> BotPool: ...


class DriverPort(Protocol):
    """A room as its bot driver reads and drives it (lock held where it changes)."""

    id: str
    table: Table
    level: Level  # the room's level: 托管 and timed-out claims are played at it
    seats: list[Seat]
    ready: set[int]
    hand_id: str | None

    @property
    def phase(self) -> RoomPhase: ...

    def left(self, seat: Seat) -> float | None:
        """Seconds until the seat's decision times out (None: its timer does not run)."""
        ...

    def changing(self) -> AbstractAsyncContextManager[None]: ...

    def commit(self, seat: int, choice: Action | None) -> None: ...

    def go_away(self, seat: Seat) -> None: ...


class LobbyPort(BotSettings, Protocol):
    """What a room needs of the lobby (:class:`~.manager.RoomManager` is one)."""

    @property
    def storage(self) -> Storage: ...

    @property
    def away_timeout(self) -> float: ...

    @property
    def hint(self) -> Callable[[GameState, int], Hint]: ...  # replaceable by tests

    def deal_salt(self, hand_id: str) -> str:
        """The secret salt of hand ``hand_id``'s commitment (the same after a restart)."""
        ...

    async def check_caps(self, owner: str | None) -> None:
        """Refuse a new room beyond its creator's open rooms (429) or the server's (503)."""
        ...

    def rematch(
        self,
        of: str,
        rules: Rules,
        config: RoomConfig,
        seats: Sequence[SeatRow],
        hands: int,
    ) -> str:
        """再来一场: open the room of the next match for room ``of``'s seats; its code."""
        ...


__all__ = ["BotSettings", "DriverPort", "LobbyPort"]
