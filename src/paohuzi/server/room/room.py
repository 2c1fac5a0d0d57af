"""房间 (fángjiān): one table of the web game — versions, persistence and the async lock.

A :class:`Room` plays its match through one :class:`~paohuzi.table.Table`: a
bot in each bot seat, ``None`` in each human seat; a human away on 托管 has the
room's bot swapped into its seat until it is back (:meth:`Room.go_away`,
:meth:`Room.back`). Every change takes one path, :meth:`Room.commit`, whoever
made it (a human's ``act`` after its version check, or the bot driver): apply,
build every human seat's message from its view (its legal actions computed
once, in the view), store the change, send. The writes of one change are one
SQLite transaction, committed before any message leaves (messages are queued
and written by each connection's own task), so no player ever sees a state a
crash could undo.

Bots are played by :mod:`.driver`, hints by :mod:`.hinting`, messages built by
:mod:`.present`; the seats' versions are explained in :mod:`.seats`. Those see
the room and its manager through :mod:`.port`; a restart's rebuild is
:mod:`.restore`, 再来一场's new room :meth:`.lobby.RoomManager.rematch`.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

from paohuzi.core.actions import Action
from paohuzi.core.cards import CODES
from paohuzi.core.rules import Rules
from paohuzi.core.state import DISCARDING, GameState
from paohuzi.core.views import View, view
from paohuzi.server.present import messages as present
from paohuzi.server.present.messages import FINISHED, PLAYING, SETTLEMENT, WAITING
from paohuzi.server.present.options import TURN_CHOICES
from paohuzi.server.room import hinting, levels, phrases, readiness
from paohuzi.server.room.driver import Driver
from paohuzi.server.room.port import LobbyPort
from paohuzi.server.room.seats import BOT, FREE, HUMAN, Outbox, Seat
from paohuzi.server.storage.sqlite import HandRow, RoomRow
from paohuzi.server.wire import WS_GOING_AWAY, WS_REPLACED, RoomError, error
from paohuzi.table import Table

HAND_ID_BYTES = 12  # 16 url-safe characters: a replay link nobody can guess


class Room:
    """One table: seats, the match on a :class:`Table`, per-seat versions, the lock."""

    def __init__(self, manager: LobbyPort, row: RoomRow):
        self.manager = manager
        self.storage = manager.storage
        self.id = row.id
        self.rules = Rules.from_dict(row.rules)
        self.config = row.config
        self.level = levels.level(row.config.get("bot"))
        self.seats = [Seat(s.seat, s.kind, s.token, s.name, s.bot) for s in row.seats]
        for s, v in zip(self.seats, row.versions, strict=False):
            s.version = s.since = v
        players = [levels.make(levels.level(s.bot)) if s.kind == BOT else None for s in self.seats]
        self.table = Table(players, self.rules, row.match_seed, row.hands_total, stand_in=True)
        self.hand_id: str | None = None
        self.hand_ids: list[str] = []  # every dealt hand's, in order (restore() refills it)
        self.ready_first = bool(row.config.get("ready_first"))
        self.ready: set[int] = set(row.ready)
        self.next_room: str | None = None  # the room 再来一场 opened (found again at a restart)
        self.lock = asyncio.Lock()
        self.driver = Driver(self)
        self.tasks: set[asyncio.Task[Any]] = set()  # hint tasks (kept referenced)

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> GameState | None:
        return self.table.state

    @property
    def phase(self) -> str:
        st = self.state
        if st is None:
            return WAITING
        if not st.is_terminal():
            return PLAYING
        return FINISHED if self.table.match.is_over() else SETTLEMENT

    @property
    def away_timeout(self) -> float:
        """The room's 出牌时间 if it chose one (within the lobby's choices), else the server's."""
        t = self.config.get("turn_time")
        if isinstance(t, int | float) and not isinstance(t, bool):
            return float(min(max(t, min(TURN_CHOICES)), max(TURN_CHOICES)))
        return self.manager.away_timeout

    def seat_for(self, token: str) -> Seat | None:
        return next((s for s in self.seats if s.holds(token)), None)

    def humans_connected(self) -> bool:
        return any(s.conn is not None for s in self.seats if s.kind == HUMAN)

    def idle(self) -> bool:
        """Nobody connected, no bot thinking: storage has it all, memory may let it go."""
        return not self.driver.busy() and not self.lock.locked() and not self.humans_connected()

    @contextlib.asynccontextmanager
    async def changing(self) -> AsyncIterator[None]:
        """The room's lock, and one transaction for the writes of the change made inside."""
        async with self.lock:
            with self.storage.batch():
                yield

    # ------------------------------------------------------------------ the one path
    def commit(self, seat: int, choice: Action | None) -> None:
        """Apply seat's choice (an action, or None: ready), store it, publish (lock held)."""
        if choice is None and self.phase == FINISHED:
            self.rematch()
        elif choice is None:
            self.ready.add(seat)
            self.start()
        else:
            assert self.hand_id is not None
            st = self.table.state
            self.table.apply(choice)
            assert st is not None
            self.storage.add_action(self.hand_id, len(st.actions) - 1, seat, st.actions[-1].id())
            if st.is_terminal():
                self._finish_hand()
        self.publish()

    def publish(self) -> None:
        """Every human seat's state; a seat whose state changed gets a new version and it."""
        st, now = self.state, time.time()
        views: dict[int, View | None] = {}
        fresh: set[int] = set()
        for s in self.seats:
            if s.kind != HUMAN:
                continue
            v = views[s.index] = view(st, s.index) if st is not None else None
            s.legal = present.choices(self, s, v)
            n = len(v.log) if v is not None else 0
            s.hint_key = (self.hand_id, n, tuple(s.legal)) if self.phase == PLAYING else None
            key = (self.hand_id, self.phase, n, tuple(s.legal)) if s.legal else None
            if key != s.key:
                s.key, s.pending_since = key, (now if key is not None else None)
                fresh.add(s.index)
        common = present.shared(self)
        for s in self.seats:
            if s.kind != HUMAN:
                continue
            c = present.content(self, s, views[s.index], common)
            if c != s.shown:
                s.version, s.shown = s.version + 1, c
                if s.conn is not None:
                    s.conn.send(present.state_message(s))
                    hinting.offer(self, s)
            if s.index in fresh:
                s.since = s.version
        self.storage.update_room(
            self.id, [s.version for s in self.seats], sorted(self.ready), self.phase
        )
        self.driver.kick()

    # ------------------------------------------------------------------ hands
    def _new_hand(self) -> None:
        st = self.table.deal()
        self.hand_id = secrets.token_urlsafe(HAND_ID_BYTES)
        self.hand_ids.append(self.hand_id)
        self.ready = set()
        deck = [CODES[c] for c in st.deck]
        row = HandRow(self.hand_id, self.table.match.index, st.seed, st.dealer, st.huang, deck)
        self.storage.add_hand(self.id, row)
        if st.is_terminal():  # a mandatory 天胡 right at the deal (R28)
            self._finish_hand()

    def _finish_hand(self) -> None:
        assert self.hand_id is not None
        self.table.finish_hand()
        m = self.table.match
        rec = self.table.record(names=[s.name for s in self.seats])  # names: for replays
        self.storage.finish_hand(self.hand_id, rec.to_dict(), list(m.scores))
        self.ready = {s.index for s in self.seats if s.kind == BOT}

    def start(self) -> None:
        """Deal when every seat is taken (in a ``ready_first`` room: and every human is
        ready; bots are at once), and the next hand when everybody present is ready."""
        if self.state is None:
            if self.ready_first:
                self.ready |= {s.index for s in self.seats if s.kind == BOT}
            kinds = [s.kind for s in self.seats]
            if readiness.can_deal_first(kinds, self.ready, self.ready_first):
                self._new_hand()
        elif self.phase == SETTLEMENT and readiness.all_ready(self.seats, self.ready):
            self._new_hand()

    def rematch(self) -> None:
        """再来一场 (lock held): once; every later one goes to the same new room."""
        if self.next_room is None:
            self.next_room = self.manager.rematch(self)

    # ------------------------------------------------------------------ humans
    async def act(self, seat: Seat, version: int, action_id: str) -> str | None:
        """A human's choice: None when applied, else the error code (nothing changed)."""
        async with self.changing():
            if not seat.since <= version <= seat.version:
                return "stale_version"
            choice = seat.lookup(action_id)
            if isinstance(choice, str):
                return choice
            st = self.state
            if seat.away and (choice is None or (st is not None and st.phase == DISCARDING)):
                self.back(seat)  # acting on a public decision takes the seat back from 托管
            self.commit(seat.index, choice)
        return None

    async def join(self, name: str | None) -> tuple[int, str]:
        async with self.changing():
            for s in self.seats:
                if s.kind == FREE:
                    s.kind, s.token = HUMAN, secrets.token_urlsafe(16)
                    s.name = name or f"玩家{s.index + 1}"
                    self.storage.update_seat(self.id, s.row())
                    self.start()
                    self.publish()
                    return s.index, s.token
        raise RoomError(409, "room_full")

    async def attach(self, seat: Seat, conn: Outbox) -> None:
        """A (re)connection replaces the seat's old one, brings it back from 托管, and
        gets a full state."""
        async with self.changing():
            old, seat.conn = seat.conn, conn
            if old is not None:
                old.send(error("replaced"))
                old.close(WS_REPLACED)
            elif sum(s.conn is not None for s in self.seats) == 1:
                for s in self.seats:  # timers were paused while nobody watched: restart them
                    if s.pending_since is not None:
                        s.pending_since = time.time()
            if seat.away:
                self.back(seat)
            self.start()
            self.publish()
            if not conn.sent:
                conn.send(present.state_message(seat))
                hinting.offer(self, seat)

    async def detach(self, seat: Seat, conn: Outbox) -> None:
        async with self.changing():
            conn.close()
            if seat.conn is conn:
                seat.conn = None
                self.start()  # the others need not wait for a player who left
                self.publish()

    async def resume(self, seat: Seat) -> None:
        async with self.changing():
            if seat.away:
                self.back(seat)
                self.publish()
            elif seat.conn is not None:
                seat.conn.send(present.state_message(seat))

    async def set_hints(self, seat: Seat, on: bool) -> None:
        async with self.lock:
            seat.hints = on
            hinting.offer(self, seat)

    async def say(self, seat: Seat, phrase_id: str) -> str | None:
        """快捷语: relayed to every connected seat; None, or the error code (nothing sent)."""
        async with self.lock:
            return phrases.relay(self.seats, seat, phrase_id, time.monotonic())

    # ------------------------------------------------------------------ 托管
    def go_away(self, seat: Seat) -> None:
        """托管 (lock held): the room's bot plays the seat until its player is back."""
        seat.away = True
        self.table.players[seat.index] = levels.make(self.level)
        self.publish()

    def back(self, seat: Seat) -> None:
        """The player is back: the seat is theirs again, with a fresh timer."""
        seat.away = False
        self.table.players[seat.index] = None
        if seat.pending_since is not None:
            seat.pending_since = time.time()

    async def stop(self) -> None:
        await self.driver.stop()
        for t in list(self.tasks):
            t.cancel()
        for s in self.seats:
            if s.conn is not None:
                s.conn.close(WS_GOING_AWAY)


__all__ = ["Room", "RoomError"]
