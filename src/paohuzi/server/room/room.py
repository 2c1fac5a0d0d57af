"""房间 (fángjiān): one table of the web game — versions, persistence and the async lock.

A :class:`Room` plays its match through one :class:`~paohuzi.table.Table`: a
bot in each bot seat, ``None`` in each human seat; a human away on 托管 has the
room's bot swapped into its seat until it is back (:meth:`Room.go_away`,
:meth:`Room.back`). Every change takes one path, :meth:`Room.commit`, whoever
made it (a human's ``act`` after its version check, or the bot driver): apply,
build every human seat's message from its view (its legal actions computed
once, in the view), store the change, send. The writes of one change are one
transaction, committed before any message leaves: messages are queued, and
each connection writes them only while :attr:`Room.durable` is set (cleared
for the change, set once its commit returned), so no player ever sees a state
a crash could undo.

Bots are played by :mod:`.driver` (which sees the room through
:class:`.port.DriverPort`), hints by :mod:`.hint_task`; messages are built by
:mod:`..present.state` from one frozen :meth:`Room.snapshot` per change and each
seat's view. The seats' parts and versions are explained in :mod:`.seats`; a
restart's rebuild is :mod:`.restore`, 再来一场's new room
:meth:`.manager.RoomManager.rematch`.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from functools import lru_cache

from paohuzi.bots.hints import Hint
from paohuzi.core import fairness
from paohuzi.core.actions import Action
from paohuzi.core.cards import CODES
from paohuzi.core.records import HandRecord
from paohuzi.core.rules import Rules
from paohuzi.core.state import DISCARDING, GameState
from paohuzi.core.views import View, view
from paohuzi.server.messages import DissolveVote, PlayerInfo, Timer, same
from paohuzi.server.present import state as present
from paohuzi.server.present.choices import described, seat_choices
from paohuzi.server.present.options import TURN_CHOICES
from paohuzi.server.present.snapshot import RoomSnapshot
from paohuzi.server.room import levels, phrases, readiness
from paohuzi.server.room.driver import Driver
from paohuzi.server.room.hint_task import HintTask
from paohuzi.server.room.port import LobbyPort
from paohuzi.server.room.seats import Outbox, Seat
from paohuzi.server.storage.sqlite import HandRow, RoomRow
from paohuzi.server.vocab import RoomPhase, SeatKind
from paohuzi.server.wire import WS_GOING_AWAY, WS_REPLACED, RoomError, error
from paohuzi.table import Table

HAND_ID_BYTES = 12  # 16 url-safe characters: a replay link nobody can guess
DISSOLVE_SECONDS = 60.0  # a 解散 vote's time; then silence counts as agreement
HUMAN, BOT, FREE = SeatKind.HUMAN, SeatKind.BOT, SeatKind.FREE
WAITING, PLAYING = RoomPhase.WAITING, RoomPhase.PLAYING
SETTLEMENT, FINISHED = RoomPhase.SETTLEMENT, RoomPhase.FINISHED


@dataclass
class Vote:
    """解散房间: an open vote (each seat's answer, None: not yet), or a refused one."""

    by: int
    deadline: float
    votes: list[bool | None]
    refused_by: int | None = None

    def wire(self) -> DissolveVote:
        return DissolveVote(
            by=self.by,
            deadline=round(self.deadline, 1),
            votes=tuple(self.votes),
            refused_by=self.refused_by,
        )


@lru_cache(maxsize=1024)
def _timers(deadlines: tuple[tuple[int, float], ...]) -> tuple[Timer, ...]:
    # the same deadlines for a whole decision: made once, not per change
    return tuple(Timer.make(seat=seat, deadline=d) for seat, d in deadlines)


class Room:
    """One table: seats, the match on a :class:`Table`, per-seat versions, the lock."""

    def __init__(self, manager: LobbyPort, row: RoomRow):
        self.manager = manager
        self.storage = manager.storage
        self.id = row.id
        self.rules = Rules.from_dict(row.rules)
        self.config = row.config
        self.level = levels.level(row.config.bot)
        self.seats = [Seat(s) for s in row.seats]
        for s, v in zip(self.seats, row.versions, strict=False):
            s.shown.version = s.shown.since = v
        players = [levels.make(levels.level(s.bot)) if s.kind == BOT else None for s in row.seats]
        self.table = Table(players, self.rules, row.match_seed, row.hands_total, stand_in=True)
        self.hand_id: str | None = None
        self.commitment: str | None = None  # the running hand's (可验证洗牌)
        self.hand_ids: list[str] = []  # every dealt hand's, in order (restore() refills it)
        self.ready_first = row.config.ready_first
        self.ready: set[int] = set(row.ready)
        self.next_room: str | None = None  # the room 再来一场 opened (found again at a restart)
        self.claimed = False  # a human has connected (else the room expires: manager)
        self.alone_since: float | None = time.monotonic()  # no human connected since
        # when the last human left (epoch s): the turn timers pause then, and keep the time
        # a decision had used when one comes back (a reload must not buy a fresh timer)
        self.unwatched_at: float | None = None
        self.lock = asyncio.Lock()
        self.durable = asyncio.Event()  # clear while a change's writes are not yet committed
        self.durable.set()
        self.stored = asyncio.Event()  # clear until the room's own row is committed (a new room)
        self.stored.set()
        self.driver = Driver(self, manager)
        self.hint_task = HintTask(self.id, self.lock, lambda: self.table.state, self._advise)
        self._seen_players: tuple[object, tuple[PlayerInfo, ...]] = ((), ())
        # 解散房间: the vote, its timer, and whether a vote ended the match (a stored
        # "finished" room whose match is not over was ended so: restore() keeps it ended)
        self.vote: Vote | None = None
        self._vote_timer: asyncio.TimerHandle | None = None
        self._vote_task: asyncio.Task[None] | None = None
        self.dissolved = row.status == FINISHED.value

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> GameState | None:
        return self.table.state

    @property
    def phase(self) -> RoomPhase:
        st = self.state
        if st is None:
            return WAITING
        if self.dissolved:
            return FINISHED
        if not st.is_terminal():
            return PLAYING
        return FINISHED if self.table.match.is_over() else SETTLEMENT

    @property
    def shown_rules(self) -> Rules:
        """The rules as the room plays them, its own 局数 included (a room may be made
        with ``hands`` other than its preset's): what invite and rules pages describe."""
        hands = self.table.match.hands
        return (
            self.rules
            if hands == self.rules.hands_per_match
            else replace(self.rules, hands_per_match=hands)
        )

    @property
    def away_timeout(self) -> float:
        """The room's 出牌时间 if it chose one (within the lobby's choices), else the server's."""
        t = self.config.turn_time
        if t is not None:
            return float(min(max(t, min(TURN_CHOICES)), max(TURN_CHOICES)))
        return self.manager.away_timeout

    def seat_for(self, token: str) -> Seat | None:
        return next((s for s in self.seats if s.holds(token)), None)

    def humans_connected(self) -> bool:
        return any(s.link.conn is not None for s in self.seats if s.kind == HUMAN)

    def left(self, seat: Seat) -> float | None:
        """Seconds until the seat's decision times out (None: its timer does not run)."""
        since = seat.turn.pending_since
        if since is None or not self.humans_connected():
            return None
        return since + self.away_timeout - time.time()

    def idle(self) -> bool:
        """Nobody connected, no bot thinking: storage has it all, memory may let it go."""
        return not self.driver.busy() and not self.lock.locked() and not self.humans_connected()

    def _advise(self, state: GameState, seat: int) -> Hint:
        return self.manager.hint(state, seat)  # looked up each time: tests replace it

    @contextlib.asynccontextmanager
    async def changing(self) -> AsyncIterator[None]:
        """The room's lock, and one transaction for the writes of the change made inside."""
        while not self.stored.is_set():
            await self.stored.wait()
        async with self.lock:
            self.durable.clear()
            try:
                async with self.storage.batch():
                    yield
            finally:
                self.durable.set()

    def snapshot(self, phase: RoomPhase) -> RoomSnapshot:
        """The room as every seat's messages see it now (its ``phase`` given: computed once)."""
        st, m = self.state, self.table.match
        timers: tuple[Timer, ...] = ()
        timeout = self.away_timeout
        if phase == PLAYING and self.humans_connected():
            timers = _timers(
                tuple(
                    (s.index, round(since + timeout, 1))
                    for s in self.seats
                    if s.kind == HUMAN
                    and not s.away
                    and (since := s.turn.pending_since) is not None
                )
            )
        over = phase in (SETTLEMENT, FINISHED)
        return RoomSnapshot(
            id=self.id,
            rules=self.rules,
            level=self.level,
            phase=phase,
            hand_id=self.hand_id,
            played=m.index,
            hands_total=m.hands,
            scores=tuple(m.scores),
            players=self._players(),
            away_timeout=timeout,
            rematch=self.next_room,
            timers=timers,
            discarding=st.current_player if st is not None and st.phase == DISCARDING else None,
            result=st.result if st is not None and over else None,
            results=tuple(m.results),
            hand_ids=tuple(self.hand_ids),
            deck_commitment=self.commitment if st is not None else None,
            dissolve=self.vote.wire() if self.vote is not None else None,
            dissolved=self.dissolved and not m.is_over(),
        )

    def _players(self) -> tuple[PlayerInfo, ...]:
        """Every seat as anyone may see it: made again only when that changes."""
        seen = tuple(
            (s.who, s.link.conn is not None, s.away, s.index in self.ready) for s in self.seats
        )
        if seen != self._seen_players[0]:
            players = tuple(
                PlayerInfo.make(
                    seat=who.seat,
                    kind=who.kind,
                    name=who.name,
                    bot=who.bot,
                    connected=connected,
                    away=away,
                    ready=ready,
                )
                for who, connected, away, ready in seen
            )
            self._seen_players = (seen, players)
        return self._seen_players[1]

    # ------------------------------------------------------------------ the one path
    def commit(self, seat: int, choice: Action | None) -> None:
        """Apply seat's choice (an action, or None: ready), store it, publish (lock held)."""
        if self.vote is not None and self.vote.refused_by is not None:
            self.vote = None  # a refusal is shown until the game moves on
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
        st, phase, now = self.state, self.phase, time.time()
        humans = [s for s in self.seats if s.kind == HUMAN]
        views: dict[int, View | None] = {}
        fresh: set[int] = set()
        for s in humans:
            v = views[s.index] = view(st, s.index) if st is not None else None
            legal = s.turn.legal = seat_choices(
                phase, v, ready_first=self.ready_first, ready=s.index in self.ready
            )
            n = len(v.log) if v is not None else 0
            s.hint.key = (self.hand_id, n, tuple(legal)) if phase == PLAYING else None
            key = (self.hand_id, phase, n, tuple(legal)) if legal else None
            if key != s.turn.key:
                s.turn.key, s.turn.pending_since = key, (now if key is not None else None)
                s.turn.listed = described(legal, self.rules, phase)
                fresh.add(s.index)
        snap = self.snapshot(phase)
        for s in humans:
            c = present.seat_state(snap, s.index, s.away, s.turn.listed, views[s.index])
            shown = s.shown
            if not same(shown.state, c):
                shown.version, shown.state = shown.version + 1, c
                if s.link.conn is not None:
                    s.link.conn.send(present.state_message(c, shown.version, time.time()))
                    self.hint_task.offer(s)
            if s.index in fresh:
                shown.since = shown.version
        versions = [s.shown.version for s in self.seats]
        self.storage.update_room(self.id, versions, sorted(self.ready), phase)
        self.driver.kick()

    def resend(self, seat: Seat) -> None:
        """The seat's last state again, as it stands (a new connection, ``resume``)."""
        if seat.link.conn is not None and seat.shown.state is not None:
            msg = present.state_message(seat.shown.state, seat.shown.version, time.time())
            seat.link.conn.send(msg)

    # ------------------------------------------------------------------ hands
    @property
    def own_seeds(self) -> bool:
        """Does each hand get its own seed from the OS random source? Yes wherever a
        second human may sit; a table of one human and bots deals from its match seed
        (a chosen seed replays a known match, docs/fair-dealing.md)."""
        return self.config.bots != self.rules.players - 1

    def _new_hand(self) -> None:
        seed = secrets.randbits(63) if self.own_seeds else None
        st = self.table.deal(self.table.match.new_hand(seed=seed))
        self.hand_id = secrets.token_urlsafe(HAND_ID_BYTES)
        self.hand_ids.append(self.hand_id)
        self.ready = set()
        deck = [CODES[c] for c in st.deck]
        self.commitment = fairness.commitment(deck, self.manager.deal_salt(self.hand_id))
        row = HandRow(self.hand_id, self.table.match.index, st.seed, st.dealer, st.huang, deck)
        self.storage.add_hand(self.id, row)
        if st.is_terminal():  # a mandatory 天胡 right at the deal (R28)
            self._finish_hand()

    def _finish_hand(self) -> None:
        assert self.hand_id is not None
        self.table.finish_hand()
        m = self.table.match
        rec = self.record()
        self.storage.finish_hand(self.hand_id, rec.to_dict(), list(m.scores))
        self.ready = {s.index for s in self.seats if s.kind == BOT}

    def record(self) -> HandRecord:
        """The running hand's record: the seats' names (for replays) and, revealed, the
        deck's commitment and salt (``deck_commitment``, ``salt``: docs/fair-dealing.md)."""
        assert self.hand_id is not None and self.state is not None
        deck = [CODES[c] for c in self.state.deck]
        shown = fairness.revealed(deck, self.manager.deal_salt(self.hand_id))
        return self.table.record(names=[s.who.name for s in self.seats], **shown)

    def start(self) -> None:
        """Deal when every seat is taken (in a ``ready_first`` room: and every human is
        ready; bots are at once), and the next hand when everybody present is ready."""
        kinds = [s.kind for s in self.seats]
        if self.state is None:
            if self.ready_first:
                self.ready |= {s.index for s in self.seats if s.kind == BOT}
            if readiness.can_deal_first(kinds, self.ready, self.ready_first):
                self._new_hand()
        elif self.phase == SETTLEMENT:
            connected = {s.index for s in self.seats if s.link.conn is not None}
            if readiness.all_ready(kinds, connected, self.ready):
                self._new_hand()

    def rematch(self) -> None:
        """再来一场 (lock held): once; every later one goes to the same new room."""
        if self.next_room is None:
            rows = [s.who for s in self.seats]
            hands = self.table.match.hands
            self.next_room = self.manager.rematch(self.id, self.rules, self.config, rows, hands)

    # ------------------------------------------------------------------ humans
    async def act(self, seat: Seat, version: int, action_id: str) -> str | None:
        """A human's choice: None when applied, else the error code (nothing changed)."""
        if self.phase == FINISHED and self.next_room is None:
            try:  # 再来一场 opens a room: the caps hold (read before the change: storage)
                await self.manager.check_caps(self.config.owner)
            except RoomError as e:
                return e.code
        async with self.changing():
            if not seat.shown.since <= version <= seat.shown.version:
                return "stale_version"
            choice = seat.turn.lookup(seat.index, action_id)
            if isinstance(choice, str):
                return choice
            st = self.state
            if choice is None and self.phase == FINISHED and self.next_room is None:
                try:  # 再来一场 opens a room: the caps hold (nothing changed if refused)
                    self.rematch()
                except RoomError as e:
                    return e.code
            if seat.away and (choice is None or (st is not None and st.phase == DISCARDING)):
                self.back(seat)  # acting on a public decision takes the seat back from 托管
            self.commit(seat.index, choice)
        return None

    async def join(self, name: str | None) -> tuple[int, str]:
        async with self.changing():
            for s in self.seats:
                if s.kind == FREE:
                    token = secrets.token_urlsafe(16)
                    s.who = replace(
                        s.who, kind=HUMAN, token=token, name=name or f"玩家{s.index + 1}"
                    )
                    self.storage.update_seat(self.id, s.who)
                    self.start()
                    self.publish()
                    return s.index, token
        raise RoomError(409, "room_full")

    async def attach(self, seat: Seat, conn: Outbox) -> None:
        """A (re)connection replaces the seat's old one, brings it back from 托管, and
        gets a full state."""
        async with self.changing():
            self.claimed, self.alone_since = True, None
            old, seat.link.conn = seat.link.conn, conn
            if old is not None:
                old.send(error("replaced"))
                old.close(WS_REPLACED)
            elif sum(s.link.conn is not None for s in self.seats) == 1:
                self._unpause(time.time())
            if seat.away:
                self.back(seat)
            self.start()
            self.publish()
            if not conn.sent:
                self.resend(seat)
                self.hint_task.offer(seat)

    def _unpause(self, now: float) -> None:
        """Timers paused while nobody watched run on from where they stopped: a decision
        keeps the seconds it had used before the pause (one that came up during it starts
        now; with no pause on record, as after a restart, every decision starts now)."""
        paused, self.unwatched_at = self.unwatched_at, None
        for s in self.seats:
            since = s.turn.pending_since
            if since is not None:
                used = max(0.0, paused - since) if paused is not None else 0.0
                s.turn.pending_since = now - used

    async def detach(self, seat: Seat, conn: Outbox) -> None:
        async with self.changing():
            conn.close()
            if seat.link.conn is conn:
                seat.link.conn = None
                if not self.humans_connected():
                    self.alone_since, self.unwatched_at = time.monotonic(), time.time()
                self._absent_agrees(seat)
                self.start()  # the others need not wait for a player who left
                self.publish()

    async def resume(self, seat: Seat) -> None:
        async with self.changing():
            if seat.away:
                self.back(seat)
                self.publish()
            else:
                self.resend(seat)

    async def set_hints(self, seat: Seat, on: bool) -> None:
        async with self.lock:
            seat.wants_hints = on
            self.hint_task.offer(seat)

    async def say(self, seat: Seat, phrase_id: str) -> str | None:
        """快捷语: relayed to every connected seat; None, or the error code (nothing sent)."""
        async with self.lock:
            links = [s.link for s in self.seats]
            return phrases.relay(links, seat.index, phrase_id, time.monotonic())

    # ------------------------------------------------------------------ 托管
    def go_away(self, seat: Seat) -> None:
        """托管 (lock held): the room's bot plays the seat until its player is back."""
        seat.away = True
        self.table.players[seat.index] = levels.make(self.level)
        self._absent_agrees(seat)
        self.publish()

    def back(self, seat: Seat) -> None:
        """The player is back: the seat is theirs again, with a fresh timer."""
        seat.away = False
        self.table.players[seat.index] = None
        if seat.turn.pending_since is not None:
            seat.turn.pending_since = time.time()

    # ------------------------------------------------------------------ 解散房间
    async def dissolve(self, seat: Seat, agree: bool) -> str | None:
        """解散: ``agree`` asks to end the match (or agrees to the open vote), else refuses
        it. Bots, 托管 and absent seats agree at once; a human who does not answer within
        :data:`DISSOLVE_SECONDS` agrees; all agreed: the match ends (its summary). None, or
        the error code (nothing changed)."""
        async with self.changing():
            if self.phase not in (PLAYING, SETTLEMENT):
                return "no_match"
            v = self.vote
            if v is None or v.refused_by is not None:
                if not agree:
                    return "no_vote"
                v = self.vote = Vote(
                    seat.index, time.time() + DISSOLVE_SECONDS, [None] * len(self.seats)
                )
                for s in self.seats:
                    if s.kind != HUMAN or s.away or s.link.conn is None or s is seat:
                        v.votes[s.index] = True
                self._arm(v)
            elif v.votes[seat.index] is None:
                v.votes[seat.index] = agree
                if not agree:
                    v.refused_by = seat.index
                    self._disarm()
            self._count()
            self.publish()
        return None

    def _absent_agrees(self, seat: Seat) -> None:
        v = self.vote
        if v is not None and v.refused_by is None and v.votes[seat.index] is None:
            v.votes[seat.index] = True
            self._count()

    def _count(self) -> None:
        """Everybody agreed: the match ends here (the hand in play is not scored)."""
        v = self.vote
        if v is not None and v.refused_by is None and all(x is True for x in v.votes):
            self.vote = None
            self._disarm()
            self.dissolved = True
            self.ready = set()

    def _arm(self, v: Vote) -> None:
        self._disarm()
        loop = asyncio.get_running_loop()

        def due() -> None:
            self._vote_task = loop.create_task(self._vote_due(v))

        self._vote_timer = loop.call_later(max(0.0, v.deadline - time.time()), due)

    def _disarm(self) -> None:
        if self._vote_timer is not None:
            self._vote_timer.cancel()
            self._vote_timer = None

    async def _vote_due(self, v: Vote) -> None:
        async with self.changing():
            if self.vote is not v or v.refused_by is not None:
                return
            v.votes = [True if x is None else x for x in v.votes]  # silence: agreement
            self._count()
            self.publish()

    async def stop(self) -> None:
        self._disarm()
        await self.driver.stop()
        self.hint_task.stop()
        for s in self.seats:
            if s.link.conn is not None:
                s.link.conn.close(WS_GOING_AWAY)


__all__ = ["Room", "RoomError"]
