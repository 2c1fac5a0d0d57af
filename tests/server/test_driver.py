"""机器人驱动 (room/driver.py) on its own, against a stand-in room (the DriverPort)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from paohuzi.core.actions import Action
from paohuzi.core.rules import HUNAN
from paohuzi.server.room import levels
from paohuzi.server.room.driver import Driver, Job
from paohuzi.server.room.seats import Seat
from paohuzi.server.storage.sqlite import SeatRow
from paohuzi.server.vocab import RoomPhase, SeatKind
from paohuzi.table import Table


class Settings:
    closed = False
    bot_delay = 0.0
    pool: Any = None  # quick levels only: nothing is pooled


class StandInRoom:
    """The little of a room the driver reads: a table, its seats, one lock."""

    def __init__(self, table: Table) -> None:
        self.id = "TEST"
        self.table = table
        self.level = levels.LEVELS["normal"]
        self.seats = [Seat(SeatRow(i, SeatKind.HUMAN, f"p{i}")) for i in range(3)]
        self.ready: set[int] = set()
        self.hand_id: str | None = "hand-1"
        self.lock = asyncio.Lock()
        self.commits: list[tuple[int, Action | None]] = []

    @property
    def phase(self) -> RoomPhase:
        return RoomPhase.PLAYING

    def left(self, seat: Seat) -> float | None:
        return None

    @contextlib.asynccontextmanager
    async def changing(self) -> AsyncIterator[None]:
        async with self.lock:
            yield

    def commit(self, seat: int, choice: Action | None) -> None:
        self.commits.append((seat, choice))

    def go_away(self, seat: Seat) -> None:
        raise AssertionError("no timer runs here")


def test_a_player_back_from_tuoguan_before_the_bot_moves_keeps_the_seat() -> None:
    """托管: the bot's move for a seat was planned, then its player came back (the seat is
    no bot any more) before the move was made. The driver lets the player decide; it used
    to ask the table for the seat's bot and died on "seat 0 is not a bot" (CI's server
    log), leaving the room's other bots idle until something else woke it."""
    table = Table([None, None, None], HUNAN, seed=5)  # three humans, all on 托管
    table.players[:] = [levels.make(levels.LEVELS["normal"]) for _ in range(3)]
    table.deal()
    assert table.state is not None and not table.state.is_terminal()
    room = StandInRoom(table)
    driver = Driver(room, Settings())

    async def run() -> None:
        async with room.changing():
            job = driver._plan()
        assert isinstance(job, Job) and not job.standin and job.think is None
        table.players[job.seat] = None  # Room.back: the seat is its player's again
        await driver._play(job)

    asyncio.run(run())
    assert room.commits == []


def test_a_driver_that_failed_plans_again() -> None:
    """An unexpected fault in a room's driver (here: the room refuses one commit) is logged
    and the driver plans again a second later, rather than leave the room's bots idle until
    something else happens in the room (as the fault above once did)."""
    table = Table([None, None, None], HUNAN, seed=5)
    table.players[:] = [levels.make(levels.LEVELS["normal"]) for _ in range(3)]
    table.deal()
    room = StandInRoom(table)
    failed: list[int] = []

    def commit(seat: int, choice: Action | None) -> None:
        if not failed:
            failed.append(seat)
            raise RuntimeError("a passing fault")
        assert choice is not None
        table.apply(choice)  # the hand moves on, as the room's one path makes it
        room.commits.append((seat, choice))

    room.commit = commit  # type: ignore[method-assign]
    driver = Driver(room, Settings())

    async def run() -> None:
        driver.kick()
        for _ in range(300):  # up to 3 s
            await asyncio.sleep(0.01)
            if len(room.commits) >= 2:
                break
        await driver.stop()

    asyncio.run(run())
    assert failed and len(room.commits) >= 2 and driver.failures == 0
