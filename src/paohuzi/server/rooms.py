"""房间 (fángjiān): rooms, seats, bots and away players (托管) of the web game (INTERFACES.md §5).

The server is authoritative. Each :class:`Room` owns one :class:`~paohuzi.core.match.Match`
(N hands, dealer rotation and running scores, R6/R38), one ``asyncio.Lock`` and
a state ``version`` that grows with every change; after every change each
connected seat gets a full ``state`` message built from the engine's
``view(state, seat)``.

Versions and claim windows (R16): several seats may decide on the same open
card at once and their answers may arrive in any order. A seat's act is
accepted when its *decision context* (hand, position in the event log, its own
legal actions) has not changed since the version the client names, even if
other seats acted in between.

Bots act server-side from one driver task per room (after ``bot_delay``
seconds, so that humans can follow). A human seat with a pending decision
that does not answer within ``away_timeout`` seconds is marked away (托管) and
played by a bot until its player acts or reconnects. Timers only run while at
least one human is connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from paohuzi.bots import Bot, Observation, make_bot_or_random
from paohuzi.bots.hints import hint
from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.cards import CODES
from paohuzi.core.match import Match
from paohuzi.core.records import record
from paohuzi.core.rules import Rules
from paohuzi.core.state import DISCARDING, GameState
from paohuzi.core.views import view

from . import present
from .models import Act, CreateRoom, Hints, Ping, Resume, client_message, error
from .storage import HandRow, RoomRow, SeatRow, Storage

log = logging.getLogger("paohuzi.server")

WAITING, PLAYING, SETTLEMENT, FINISHED = "waiting", "playing", "settlement", "finished"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 6
VOLATILE = frozenset({"version", "server_time"})  # not a change by themselves
QUEUE_LIMIT = 256  # a client this far behind is dropped (it can reconnect)
MAX_ROOMS_IN_MEMORY = 512  # idle rooms beyond this are dropped from memory (reloaded on use)


class RoomError(Exception):
    """A request the room refuses: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def bot_for(name: str) -> Bot:
    """``make_bot(name)``, or the random bot when that strength does not exist (yet)."""
    bot, notice = make_bot_or_random(name)
    if notice is not None:
        log.warning("%s", notice)
    return bot


class Conn:
    """One websocket of a seat: an outbound queue drained by the endpoint's sender task."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False

    def send(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.close()
            return
        self.queue.put_nowait(msg)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def next_batch(self) -> list[dict[str, Any]] | None:
        """The next messages to write; of several queued ``state`` messages only the last."""
        first = await self.queue.get()
        if first is None:
            return None
        out = [first]
        while not self.queue.empty():
            msg = self.queue.get_nowait()
            if msg is None:
                self.closed = True
                break
            if msg.get("type") == "state":
                out = [m for m in out if m.get("type") != "state"]
            out.append(msg)
        return out


@dataclass
class Seat:
    index: int
    kind: str  # "human" | "bot" | "free"
    token: str | None = None
    name: str = ""
    bot_name: str | None = None
    conns: set[Conn] = field(default_factory=set)
    last_sent: dict[str, Any] | None = None
    away: bool = False
    hints: bool = False
    bot: Bot | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.token, self.name, self.bot_name)


@dataclass
class Job:
    """One thing the driver does for a bot (or away) seat: an action or ``ready``."""

    seat: int
    since: int  # the seat's decision-context version when the job was taken
    playing: bool  # an action to choose (else: ``ready`` at a settlement)
    state: GameState | None = None  # a clone for a slow bot to think on, in a thread


class Room:
    """One table: seats, a match, the lock and version, and the bot driver."""

    def __init__(self, manager: RoomManager, row: RoomRow):
        self.manager = manager
        self.storage: Storage = manager.storage
        self.id = row.id
        self.rules = Rules.from_dict(row.rules)
        self.config = row.config
        self.bot_name: str = row.config.get("bot", "greedy")
        self.seats = [Seat(s.seat, s.kind, s.token, s.name, s.bot) for s in row.seats]
        self.match = Match(self.rules, row.match_seed, row.hands_total)
        self.hand_id: str | None = None
        self.version = row.version
        self.ready: set[int] = set(row.ready)
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self.ctx: dict[int, tuple[Any, int]] = {}  # seat -> (decision key, since version)
        self.pending_since: dict[int, float] = {}
        for s in self.seats:
            if s.kind == "bot":
                s.bot = bot_for(s.bot_name or self.bot_name)

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> GameState | None:
        return self.match.state

    @property
    def phase(self) -> str:
        st = self.state
        if st is None:
            return WAITING
        if not st.is_terminal():
            return PLAYING
        return FINISHED if self.match.is_over() else SETTLEMENT

    def seat_for(self, token: str) -> Seat | None:
        for s in self.seats:
            if s.token is not None and secrets.compare_digest(s.token, token):
                return s
        return None

    def humans_connected(self) -> bool:
        return any(s.conns for s in self.seats if s.kind == "human")

    def _decision_key(self, seat: int) -> Any:
        st, ph = self.state, self.phase
        if ph == PLAYING and st is not None:
            ids = tuple(st.legal_action_ids(seat))
            return (self.hand_id, len(st.events), ids) if ids else None
        if ph == SETTLEMENT and seat not in self.ready:
            return ("ready", self.hand_id)
        return None

    def legal(self, seat: int) -> list[dict[str, Any]]:
        st, ph = self.state, self.phase
        if ph == PLAYING and st is not None:
            return present.legal_actions(st, seat)
        if ph == SETTLEMENT and seat not in self.ready:
            return [dict(present.READY)]
        return []

    # ------------------------------------------------------------------ restore
    def restore(self, hands: list[HandRow]) -> None:
        """Re-deal every stored hand from its deck and re-apply its actions (resume)."""
        m = self.match
        for h in hands:
            if h.index != m.index or h.dealer != m.dealer or h.seed != m.hand_seeds[h.index]:
                raise RuntimeError(f"hand {h.id} does not follow the match's dealing")
            st = GameState(self.rules, h.seed, deck=h.deck, dealer=h.dealer, huang=h.huang)
            for seat, aid in h.actions:
                st.apply(Action.from_id(seat, aid))
            m.state = st
            self.hand_id = h.id
            if st.is_terminal():
                m.finish_hand(st)
                if not h.finished:  # the process stopped between the last action and the record
                    self.storage.finish_hand(h.id, record(st), list(m.scores))
        self._advance()
        self.version += 1  # clients holding a pre-restart version get a fresh context
        self.refresh()

    # ------------------------------------------------------------------ changes
    def _new_hand(self) -> None:
        st = self.match.new_hand()
        self.hand_id = f"{self.id}-{self.match.index + 1}"
        self.ready = set()
        self.storage.add_hand(
            self.id,
            HandRow(
                self.hand_id,
                self.match.index,
                st.seed,
                st.dealer,
                st.huang,
                [CODES[c] for c in st.deck],
            ),
        )
        if st.is_terminal():  # a mandatory 天胡 right at the deal (R28)
            self._finish_hand()

    def _finish_hand(self) -> None:
        st = self.state
        assert st is not None and self.hand_id is not None
        self.match.finish_hand(st)
        self.storage.finish_hand(self.hand_id, record(st), list(self.match.scores))
        self.ready = {s.index for s in self.seats if s.kind == "bot"}

    def _advance(self) -> None:
        """Deal when every seat is taken, and the next hand when everybody is ready."""
        if any(s.kind == "free" for s in self.seats):
            return
        if self.state is None or (self.phase == SETTLEMENT and len(self.ready) == len(self.seats)):
            self._new_hand()

    def _apply(self, seat: int, action: Action) -> None:
        """Apply one choice (raises IllegalAction and changes nothing if illegal); persist it."""
        st = self.state
        assert st is not None and self.hand_id is not None
        st.apply(action)
        self.storage.add_action(self.hand_id, len(st.actions) - 1, seat, st.actions[-1].id())
        if st.is_terminal():
            self._finish_hand()

    def _set_ready(self, seat: int) -> None:
        self.ready.add(seat)
        self._advance()

    def changed(self) -> None:
        """After every change (lock held): new version, contexts, persist, broadcast, wake."""
        self.version += 1
        self.refresh()
        self.storage.update_room(self.id, self.version, sorted(self.ready), self.phase)
        self.broadcast()
        self.kick()

    def refresh(self) -> None:
        """Each seat's decision context: a new one starts at the current version (and timer)."""
        now = time.time()
        for s in self.seats:
            key = self._decision_key(s.index)
            old = self.ctx.get(s.index)
            if old is None or old[0] != key:
                self.ctx[s.index] = (key, self.version)
                if key is None:
                    self.pending_since.pop(s.index, None)
                else:
                    self.pending_since[s.index] = now

    def broadcast(self, new: Conn | None = None) -> None:
        """Send each seat its state if it differs from the last one sent (``new``: always).

        A seat whose view did not change gets nothing: in a claim window another
        seat's silent answer must not show (R16; the view hides who may claim).
        A seat whose decision context changed at this version always gets it.
        """
        for s in self.seats:
            if not s.conns:
                continue
            msg = self.message(s.index)
            key = {k: v for k, v in msg.items() if k not in VOLATILE}
            fresh = self.ctx.get(s.index, (None, -1))[1] == self.version
            if fresh or key != s.last_sent:
                s.last_sent = key
                for c in list(s.conns):
                    c.send(msg)
            elif new is not None and new in s.conns:
                new.send(msg)

    def kick(self) -> None:
        if self.manager.closed:
            return
        self.wake.set()
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    # ------------------------------------------------------------------ messages
    def players(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": s.index,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot_name,
                "connected": bool(s.conns),
                "away": s.away,
                "ready": s.index in self.ready,
            }
            for s in self.seats
        ]

    def timers(self, seat: int) -> list[dict[str, Any]]:
        """When (server epoch seconds) pending human seats are handed to a bot (托管).

        Only what ``seat`` may know: its own timer, the discarding seat's and, at
        the settlement, everybody's — never who else is deciding on a claim (R16).
        """
        if not self.humans_connected():
            return []
        st, ph = self.state, self.phase
        public: set[int] = set()
        if ph == SETTLEMENT:
            public = set(range(len(self.seats)))
        elif ph == PLAYING and st is not None and st.phase == DISCARDING:
            public = {st.current_player}
        out = []
        for s in self.seats:
            since = self.pending_since.get(s.index)
            if since is None or s.kind != "human" or s.away:
                continue
            if s.index == seat or s.index in public:
                deadline = round(since + self.manager.away_timeout, 1)
                out.append({"seat": s.index, "deadline": deadline})
        return out

    def message(self, seat: int) -> dict[str, Any]:
        """The full ``state`` message for one seat (INTERFACES.md §5)."""
        st, ph = self.state, self.phase
        m = self.match
        msg: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "phase": ph,
            "room": self.id,
            "seat": seat,
            "hand_id": self.hand_id,
            "hand_index": m.index + (1 if ph == PLAYING else 0),
            "hands": m.hands,
            "rules": self.rules.name,
            "bot": self.bot_name,
            "view": view(st, seat).to_dict() if st is not None else None,
            "legal_actions": self.legal(seat),
            "players": self.players(),
            "scores": list(m.scores),
            "timers": self.timers(seat),
            "server_time": round(time.time(), 3),
            "away_timeout": self.manager.away_timeout,
            "away": self.seats[seat].away,
        }
        if ph in (SETTLEMENT, FINISHED) and st is not None:
            msg["result"] = present.settlement(st, m.scores, m.index, m.hands)
        if ph == PLAYING and st is not None and self.seats[seat].hints:
            msg["hint"] = self._hint(st, seat)
        return msg

    def _hint(self, st: GameState, seat: int) -> Any:
        try:
            h = self.manager.hint(st.clone(), seat)
        except Exception:
            log.exception("hint failed")
            return None
        if isinstance(h, Action):
            return present.describe(h)
        if isinstance(h, dict | list | str | int | float) or h is None:
            return h
        return str(h)

    # ------------------------------------------------------------------ seats
    async def join(self, name: str | None) -> tuple[int, str]:
        async with self.lock:
            for s in self.seats:
                if s.kind == "free":
                    s.kind, s.token = "human", secrets.token_urlsafe(16)
                    s.name = (name or "").strip() or f"玩家{s.index + 1}"
                    self.storage.update_seat(self.id, s.row())
                    self._advance()
                    self.changed()
                    return s.index, s.token
        raise RoomError(409, "room_full", f"room {self.id} has no free seat")

    async def attach(self, seat: Seat, conn: Conn) -> None:
        """A (re)connection: the seat is back from 托管 and gets a full state."""
        async with self.lock:
            first = not self.humans_connected()
            seat.conns.add(conn)
            if first:  # timers were paused while nobody watched; restart them
                now = time.time()
                for s in self.pending_since:
                    self.pending_since[s] = now
            if seat.away:
                self._back(seat)
                self.changed()
            else:
                self.broadcast(new=conn)  # a full state for the new connection
                self.kick()

    async def detach(self, seat: Seat, conn: Conn) -> None:
        async with self.lock:
            seat.conns.discard(conn)
            conn.close()
            self.broadcast()
            self.kick()  # the driver stops its timers when no human is left

    async def handle(self, seat: Seat, conn: Conn, raw: str) -> None:
        """One client message; errors go to this connection only and change nothing."""
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            conn.send(error("bad_json", "the message is not valid JSON"))
            return
        try:
            msg = client_message.validate_python(data)
        except ValidationError as e:
            errs = e.errors()
            where = ".".join(str(x) for x in errs[0]["loc"]) if errs else ""
            what = errs[0]["msg"] if errs else "invalid"
            conn.send(error("bad_message", f"unexpected message: {where} {what}".strip()))
            return
        async with self.lock:
            with self.storage.batch():  # an action and the new version: one commit
                if isinstance(msg, Ping):
                    conn.send({"type": "pong", "version": self.version})
                elif isinstance(msg, Hints):
                    seat.hints = msg.on
                    conn.send(self.message(seat.index))
                elif isinstance(msg, Resume):
                    if seat.away:
                        self._back(seat)
                        self.changed()
                    else:
                        conn.send(self.message(seat.index))
                elif isinstance(msg, Act):
                    self._act(seat, conn, msg)

    def _act(self, seat: Seat, conn: Conn, msg: Act) -> None:
        ctx = self.ctx.get(seat.index)
        since = ctx[1] if ctx else self.version
        if msg.version > self.version or msg.version < since:
            conn.send(
                error(
                    "stale_version",
                    f"version {msg.version} is not current (now {self.version}); "
                    "use the latest state",
                )
            )
            return
        ph = self.phase
        try:
            if msg.action == "ready":
                if ph != SETTLEMENT or seat.index in self.ready:
                    raise IllegalAction("nothing to be ready for")
                self._set_ready(seat.index)
            elif ph != PLAYING:
                raise IllegalAction(f"no hand is being played (phase {ph})")
            else:
                action = Action.from_id(seat.index, msg.action)
                self._apply(seat.index, action)
        except IllegalAction as e:
            code = "bad_action" if "bad action id" in str(e) else "illegal_action"
            conn.send(error(code, str(e)))
            return
        if seat.away:  # acting takes the seat back from 托管
            self._back(seat)
        self.changed()

    def _back(self, seat: Seat) -> None:
        """The player is back from 托管: a fresh timer for the pending decision."""
        seat.away = False
        if seat.index in self.pending_since:
            self.pending_since[seat.index] = time.time()

    # ------------------------------------------------------------------ driver
    def _next_job(self) -> tuple[Job | None, float | None]:
        """The next bot/away decision, or the seconds until a human's timer runs out."""
        ph, st = self.phase, self.state
        if ph not in (PLAYING, SETTLEMENT) or st is None:
            return None, None
        if ph == PLAYING:
            pending = st.to_act()
        else:
            pending = [s.index for s in self.seats if s.index not in self.ready]
        wait: float | None = None
        active = self.humans_connected()
        now = time.time()
        for i in pending:
            s = self.seats[i]
            if s.kind == "human" and not s.away:
                since = self.pending_since.get(i)
                if not active or since is None:
                    continue
                left = since + self.manager.away_timeout - now
                if left > 0:
                    wait = left if wait is None else min(wait, left)
                    continue
                s.away = True  # 托管: a bot plays this seat until its player is back
                log.info("room %s seat %d is away", self.id, i)
                self.changed()
            since_v = self.ctx.get(i, (None, self.version))[1]
            slow = ph == PLAYING and self._bot(s).slow
            return Job(i, since_v, ph == PLAYING, st.clone() if slow else None), None
        return None, wait

    async def _drive(self) -> None:
        try:
            while True:
                async with self.lock:
                    job, wait = self._next_job()
                if job is None:
                    if wait is None:
                        return
                    self.wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), wait + 0.05)
                    continue
                await self._run(job)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: driver failed", self.id)

    async def _run(self, job: Job) -> None:
        # Always yield once: quick bots decide inline, and without it one room's
        # chain of bot moves would hold the event loop while other rooms wait.
        await asyncio.sleep(self.manager.bot_delay if job.playing else 0)
        action: Action | None = None
        if job.state is not None:  # a slow bot thinks on its copy, off the event loop
            action = await asyncio.to_thread(self._decide, job.seat, job.state)
        async with self.lock:
            with self.storage.batch():  # the action and the room's new version: one commit
                self._settle_job(job, action)

    def _settle_job(self, job: Job, action: Action | None) -> None:
        """Under the lock: carry out a driver job unless its decision has moved on."""
        ctx = self.ctx.get(job.seat)
        if ctx is None or ctx[1] != job.since or ctx[0] is None:
            return  # the seat's decision changed meanwhile (or was made by its human)
        if not job.playing:
            self._set_ready(job.seat)
        else:
            st = self.state
            assert st is not None
            if action is None:  # a quick bot decides right here, on the live state
                action = self._decide(job.seat, st)
            try:
                self._apply(job.seat, action)
            except IllegalAction:
                log.exception("room %s: bot chose an illegal action", self.id)
                fallback = random.Random(job.since).choice(st.legal_actions(job.seat))
                self._apply(job.seat, fallback)
        self.changed()

    def _bot(self, seat: Seat) -> Bot:
        if seat.bot is None:
            seat.bot = bot_for(self.bot_name)
        return seat.bot

    def _decide(self, index: int, st: GameState) -> Action:
        """The seat's bot (or 托管 stand-in) chooses; any failure plays at random."""
        bot = self._bot(self.seats[index])
        rng = random.Random(f"{self.match.seed}:{self.hand_id}:{len(st.actions)}:{index}")
        try:
            return bot.act(Observation(st, index), rng)
        except Exception:
            log.exception("room %s: bot %s failed; playing at random", self.id, bot)
            return rng.choice(st.legal_actions(index))

    async def stop(self) -> None:
        if self.driver is not None and not self.driver.done():
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver
        for s in self.seats:
            for c in list(s.conns):
                c.close()


class RoomManager:
    """Every room of the process, created on request or restored from storage on first use."""

    def __init__(self, storage: Storage, bot_delay: float = 0.6, away_timeout: float = 30.0):
        self.storage = storage
        self.bot_delay = bot_delay
        self.away_timeout = away_timeout
        self.rooms: dict[str, Room] = {}
        self.hint = hint  # replaceable, e.g. by tests
        self.closed = False

    def _evict_idle(self) -> None:
        """Forget rooms nobody is connected to and no bot is playing: storage has them all."""
        for code, room in list(self.rooms.items()):
            busy = room.driver is not None and not room.driver.done()
            if not busy and not room.lock.locked() and not any(s.conns for s in room.seats):
                del self.rooms[code]

    def _new_code(self) -> str:
        rng = secrets.SystemRandom()
        while True:
            code = "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and not self.storage.room_exists(code):
                return code

    async def create(self, req: CreateRoom, rules: Rules) -> tuple[Room, Seat]:
        n = rules.players
        bots = n - 1 if req.bots is None else req.bots
        if not 0 <= bots <= n - 1:
            raise RoomError(400, "bad_request", f"bots must be 0–{n - 1} for {rules.name}")
        bot_name = req.bot.strip() or "greedy"
        bot_for(bot_name)  # validates options; unknown strengths fall back to random
        if len(self.rooms) >= MAX_ROOMS_IN_MEMORY:
            self._evict_idle()
        code = self._new_code()
        seats = [
            SeatRow(0, "human", secrets.token_urlsafe(16), (req.name or "").strip() or "玩家1")
        ]
        for i in range(1, n):
            if i <= bots:
                seats.append(SeatRow(i, "bot", None, f"机器人{i}", bot_name))
            else:
                seats.append(SeatRow(i, "free"))
        seed = req.seed if req.seed is not None else secrets.randbits(63)
        hands = req.hands or rules.hands_per_match
        row = RoomRow(code, rules.to_dict(), {"bot": bot_name, "bots": bots}, seats, seed, hands)
        self.storage.create_room(row)
        room = Room(self, row)
        self.rooms[code] = room
        async with room.lock:
            room._advance()
            room.changed()
        return room, room.seats[0]

    def get(self, code: str) -> Room | None:
        """The room ``code`` (case-insensitive), restoring it from storage if needed."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        row = self.storage.load_room(code)
        if row is None:
            return None
        room = Room(self, row)
        try:
            room.restore(row.hands)
        except Exception:
            log.exception("room %s cannot be restored", code)
            return None
        self.rooms[code] = room
        room.kick()  # bots resume whatever they were deciding
        return room

    async def stop(self) -> None:
        self.closed = True
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()
