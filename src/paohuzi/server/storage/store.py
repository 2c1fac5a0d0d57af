"""存档 (cúndàng): durable rooms, matches, hands, actions and records — SQLite or PostgreSQL.

:class:`Storage` is one code path (SQLAlchemy 2 Core on an async engine:
aiosqlite for SQLite, psycopg 3 for PostgreSQL), so no call of it blocks the
event loop. Reads are awaited. Writes are made inside :meth:`Storage.batch`:
each write call only queues its statement (the room's code stays synchronous
under its lock) and the batch's end commits them all in one transaction, which
the room awaits before any of its messages may leave (``Room.changing``). So
every applied action is durable before a player sees it, and a restart loses
nothing: a running hand is re-created by re-dealing its stored deck and
re-applying its stored actions (INTERFACES.md §5, R38).

Durability. SQLite: WAL with ``synchronous=NORMAL`` (the default) survives any
crash of the process; a power loss may lose the last commits (never a torn
database); ``FULL`` syncs every commit. PostgreSQL: every commit is durable
(its own ``synchronous_commit``).

Expiry: :meth:`Storage.prune` deletes abandoned and finished rooms with their
hands and actions; finished hands' records move to ``records`` and live on
until their own age limit, so a replay link keeps working.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from sqlalchemy import Executable, bindparam, delete, event, func, insert, pool, select, update
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.sql.expression import ColumnElement, cast

from paohuzi.server.storage import migrate
from paohuzi.server.storage.rows import HandRow, RoomConfig, RoomRow, SeatRow
from paohuzi.server.storage.schema import (
    TABLES,
    actions,
    hands,
    matches,
    metadata,
    records,
    rooms,
    seats,
)
from paohuzi.server.vocab import RoomPhase, SeatKind

log = logging.getLogger("paohuzi.server")

Write = tuple[Executable, dict[str, Any] | list[dict[str, Any]] | None]

POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
SQLITE_SCHEMES = ("sqlite", "sqlite+aiosqlite")


class StorageError(ValueError):
    """A database that cannot be used (a bad URL or setting): a clear message, no traceback."""


def database_url(db: str | os.PathLike[str]) -> str:
    """The SQLAlchemy URL for ``--db``: a file path (SQLite), ``:memory:``, ``sqlite:///…``
    or ``postgresql://…`` (also ``postgresql+psycopg://…``)."""
    s = str(db)
    if s == ":memory:":
        return "sqlite+aiosqlite://"
    if "://" not in s:
        return f"sqlite+aiosqlite:///{Path(s)}"
    scheme, rest = s.split("://", 1)
    if scheme in POSTGRES_SCHEMES:
        return f"postgresql+psycopg://{rest}"
    if scheme in SQLITE_SCHEMES:
        return f"sqlite+aiosqlite://{rest}"
    raise StorageError(
        f"unknown database {scheme}://: give a file path, sqlite:///path or postgresql://…"
    )


def _match_id(room_id: str) -> str:
    # One match per room for now (R38: a new match would be a new room).
    return f"{room_id}/1"


class _Batch:
    """The writes queued by one :meth:`Storage.batch` (closed once committed)."""

    __slots__ = ("after", "closed", "writes")

    def __init__(self) -> None:
        self.writes: list[Write] = []
        self.after: list[Callable[[], None]] = []
        self.closed = False


# The writes of every change, built once: a statement object reused keeps its compiled
# form and cache key (building one per write cost a room change more than its engine step).
_ADD_ACTION = insert(actions)
_ADD_HAND = insert(hands)
_UPDATE_ROOM = (
    update(rooms)
    .where(rooms.c.id == bindparam("b_room"))
    .values(
        version=bindparam("b_version"),
        versions=bindparam("b_versions"),
        ready=bindparam("b_ready"),
        status=bindparam("b_status"),
        updated=bindparam("b_updated"),
    )
)
_MATCH_FINISHED = (
    update(matches).where(matches.c.id == bindparam("b_match")).values(status="finished")
)
_UPDATE_SEAT = (
    update(seats)
    .where(seats.c.room_id == bindparam("b_room"), seats.c.seat == bindparam("b_seat"))
    .values(
        kind=bindparam("b_kind"),
        token=bindparam("b_token"),
        name=bindparam("b_name"),
        bot=bindparam("b_bot"),
    )
)
_FINISH_HAND = (
    update(hands)
    .where(hands.c.id == bindparam("b_hand"))
    .values(status="finished", record=bindparam("b_record"), finished=bindparam("b_finished"))
)
_MATCH_SCORES = (
    update(matches)
    .where(
        matches.c.id
        == select(hands.c.match_id).where(hands.c.id == bindparam("b_hand")).scalar_subquery()
    )
    .values(scores=bindparam("b_scores"))
)

# PostgreSQL transactions one node may have in flight at once (of its pool of 10)
WRITERS = 4


def merged(batches: Sequence[Sequence[Write]]) -> list[Write]:
    """The writes of many rooms' batches (one group commit) as few statements: the next
    write of every batch that runs the same prebuilt statement goes in one executemany
    (one thread hop on SQLite, one pipelined round trip on PostgreSQL). Each batch's own
    writes keep their order; batches of a group are independent rooms' changes (a room
    has one batch in flight), so their interleaving in the one transaction is free."""
    pending = [b for b in batches if b]
    pos = [0] * len(pending)
    out: list[Write] = []
    start = 0
    while start < len(pending):
        if pos[start] == len(pending[start]):
            start += 1
            continue
        stmt, params = pending[start][pos[start]]
        if not params:  # a statement with its values inside (or none): on its own, as is
            out.append((stmt, params))
            pos[start] += 1
            continue
        rows: list[dict[str, Any]] = []
        for i in range(start, len(pending)):
            if pos[i] < len(pending[i]):
                other, got = pending[i][pos[i]]
                if other is stmt and got:
                    rows.extend(got if isinstance(got, list) else (got,))
                    pos[i] += 1
        out.append((stmt, rows if len(rows) > 1 else rows[0]))
    return out


class Storage:
    """What the server persists, in the database at ``db`` (see :func:`database_url`)."""

    def __init__(self, db: str | os.PathLike[str], synchronous: str = "NORMAL"):
        if synchronous.upper() not in ("NORMAL", "FULL"):
            raise StorageError("synchronous must be NORMAL or FULL")
        self.url = database_url(db)
        self.sqlite = self.url.startswith("sqlite")
        self._batch: ContextVar[_Batch | None] = ContextVar(f"batch{id(self)}", default=None)
        # SQLite has one writer: one connection, used by one task at a time.
        self._serial = asyncio.Lock() if self.sqlite else contextlib.nullcontext()
        self.engine = self._engine(synchronous.upper())
        self._opened = False
        self.closed = False
        self._queue: list[tuple[list[Write], asyncio.Future[None]]] = []
        self._writers: set[asyncio.Future[None]] = set()
        # SQLite has one writer anyway. PostgreSQL commits transactions side by side (its
        # WAL flush covers them together): one node's rooms are not bound by one
        # transaction's round trips and fsync at a time. A room has at most one batch in
        # flight (its lock is held until the commit), so its changes stay in order.
        self._max_writers = 1 if self.sqlite else WRITERS

    def _engine(self, synchronous: str) -> AsyncEngine:
        if not self.sqlite:
            return create_async_engine(self.url, pool_pre_ping=True, pool_size=10)
        memory = self.url == "sqlite+aiosqlite://" or ":memory:" in self.url
        if not memory:
            path = Path(self.url.split(":///", 1)[1])
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(self.url, poolclass=pool.StaticPool)

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi: Any, _: Any) -> None:
            cur = dbapi.cursor()
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a commit survives a crash of the process (not of the OS) without fsync.
            cur.execute(f"PRAGMA synchronous={synchronous}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    # ------------------------------------------------------------------ life
    async def open(self) -> None:
        """Connect and upgrade the schema to this code's (Alembic; an old database is kept)."""
        if self._opened:
            return
        async with self._serial, self.engine.begin() as conn:
            await conn.run_sync(migrate.upgrade)
        self._opened = True

    async def close(self) -> None:
        """Close every connection; a change committed after this is dropped (the
        server is stopping: its rooms were stopped first, what is left is the
        connections' own bookkeeping, which a restart's version jump supersedes)."""
        while self._writers:  # what is queued is written first
            await asyncio.shield(asyncio.gather(*self._writers))
        async with self._serial:  # SQLite: after the operation under way, never under it
            self.closed = True
            await self.engine.dispose()

    # ------------------------------------------------------------------ plumbing
    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[AsyncConnection]:
        if self.closed:
            raise RuntimeError("storage is closed")
        async with self._serial, self.engine.connect() as conn:
            yield conn

    async def fetch(
        self, stmt: Executable, params: dict[str, Any] | None = None
    ) -> list[Sequence[Any]]:
        """The rows of one query (the web routes' reads: 我的牌局)."""

        async def go() -> list[Sequence[Any]]:
            async with self._conn() as conn:
                return list((await conn.execute(stmt, params)).all())

        return await asyncio.shield(go())  # see _commit

    async def _commit(self, writes: Sequence[Write]) -> None:
        if self.closed:
            log.debug("storage closed: %d writes dropped", len(writes))
            return

        done = asyncio.get_running_loop().create_future()
        self._queue.append((list(writes), done))
        if len(self._writers) < self._max_writers:
            writer = asyncio.ensure_future(self._write_queued())
            self._writers.add(writer)  # it leaves the set itself (see _write_queued);
            writer.add_done_callback(self._writers.discard)  # or if cancelled unstarted
        # A caller cancelled meanwhile (a closed websocket) must not cut a database
        # operation short: the change is stored all the same, and the connection
        # (SQLite's only one) is not torn down half-way.
        await asyncio.shield(done)

    async def _tx(self, writes: Sequence[Write]) -> None:
        async with self._serial, self.engine.begin() as conn:
            for stmt, params in writes:
                await conn.execute(stmt, params)

    async def _write_queued(self) -> None:
        """Group commit: the batches queued while one transaction ran go in the next one
        together (one round trip for many rooms' changes); if that fails, each alone, so
        one bad batch fails only its own room's change.

        The writer leaves ``_writers`` in the very step in which it finds the queue
        empty: a done-callback would do it a turn of the loop later, and a commit
        queued in between (another task woken in the same turn) would count a writer
        that has ended, start none, and wait forever — its room's lock held."""
        try:
            await self._write_all()
        finally:
            self._writers.discard(asyncio.current_task())

    async def _write_all(self) -> None:
        while self._queue:
            group, self._queue = self._queue, []
            try:
                await self._tx(merged([writes for writes, _ in group]))
                outcome: list[BaseException | None] = [None] * len(group)
            except Exception as e:
                if len(group) == 1:
                    outcome = [e]
                else:
                    outcome = []
                    for writes, _ in group:
                        try:
                            await self._tx(writes)
                            outcome.append(None)
                        except Exception as one:
                            outcome.append(one)
            for (_, done), err in zip(group, outcome, strict=True):
                if not done.done():
                    if err is None:
                        done.set_result(None)
                    else:
                        done.set_exception(err)

    @contextlib.asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """The writes made inside (this task) are committed together at the end.

        Nested batches join the outermost. What was written is kept even if the
        block raises: each write records a change the room has already made in memory.
        """
        open_ = self._batch.get()
        if open_ is not None and not open_.closed:
            yield
            return
        b = _Batch()
        token = self._batch.set(b)
        try:
            yield
        finally:
            self._batch.reset(token)
            b.closed = True  # tasks started inside copied it: their writes open their own
            try:
                if b.writes:
                    await self._commit(b.writes)
            finally:
                for fn in b.after:
                    fn()

    def after_commit(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` once the open batch is committed (at once outside a batch)."""
        b = self._batch.get()
        if b is None or b.closed:
            fn()
        else:
            b.after.append(fn)

    def _write(self, *writes: Write) -> None:
        b = self._batch.get()
        if b is None or b.closed:
            raise RuntimeError("a storage write outside `async with storage.batch()`")
        b.writes.extend(writes)

    # ------------------------------------------------------------------ JSON in config
    def _config_key(self, key: str) -> ColumnElement[Any]:
        if self.sqlite:
            return func.json_extract(rooms.c.config, f"$.{key}")
        return cast(rooms.c.config, JSONB)[key].astext

    # ------------------------------------------------------------------ reads
    async def room_exists(self, room_id: str) -> bool:
        return bool(await self.fetch(select(rooms.c.id).where(rooms.c.id == room_id)))

    async def rematch_of(self, room_id: str) -> str | None:
        """The room whose ``config.rematch_of`` is ``room_id`` (its 再来一场), if any."""
        rows = await self.fetch(
            select(rooms.c.id).where(self._config_key("rematch_of") == room_id).limit(1)
        )
        return str(rows[0][0]) if rows else None

    async def load_room(self, room_id: str) -> RoomRow | None:
        """Everything needed to resume ``room_id``, or ``None``."""
        return await asyncio.shield(self._load(room_id))  # see _commit

    async def _load(self, room_id: str) -> RoomRow | None:
        async with self._conn() as conn:
            got = (
                await conn.execute(
                    select(
                        rooms.c.rules, rooms.c.config, rooms.c.version, rooms.c.ready,
                        rooms.c.versions, rooms.c.status,
                    ).where(rooms.c.id == room_id)
                )
            ).first()  # fmt: skip
            if got is None:
                return None
            rules, config, version, ready, versions, room_status = got
            seat_rows = (
                await conn.execute(
                    select(seats.c.seat, seats.c.kind, seats.c.token, seats.c.name, seats.c.bot)
                    .where(seats.c.room_id == room_id)
                    .order_by(seats.c.seat)
                )
            ).all()
            mid = _match_id(room_id)
            seed, total = (
                await conn.execute(
                    select(matches.c.seed, matches.c.hands).where(matches.c.id == mid)
                )
            ).one()
            hand_rows = (
                await conn.execute(
                    select(
                        hands.c.id, hands.c.idx, hands.c.seed, hands.c.dealer, hands.c.huang,
                        hands.c.deck, hands.c.status,
                    ).where(hands.c.match_id == mid).order_by(hands.c.idx)
                )
            ).all()  # fmt: skip
            acts: dict[str, list[tuple[int, str]]] = {h[0]: [] for h in hand_rows}
            if hand_rows:
                for hid, seat, action in (
                    await conn.execute(
                        select(actions.c.hand_id, actions.c.seat, actions.c.action)
                        .where(actions.c.hand_id.in_(list(acts)))
                        .order_by(actions.c.hand_id, actions.c.seq)
                    )
                ).all():
                    acts[hid].append((int(seat), str(action)))
        room_seats = [SeatRow(s, SeatKind(k), t, n, b) for s, k, t, n, b in seat_rows]
        room = RoomRow(
            room_id,
            json.loads(rules),
            RoomConfig.from_dict(json.loads(config)),
            room_seats,
            int(seed),
            int(total),
            json.loads(versions) or [version] * len(room_seats),  # older rows: one room version
            json.loads(ready),
            status=str(room_status or ""),
        )
        for hid, idx, hseed, dealer, huang, deck, status in hand_rows:
            room.hands.append(
                HandRow(
                    hid, idx, hseed, dealer, huang, json.loads(deck), status == "finished",
                    acts[hid],
                )
            )  # fmt: skip
        return room

    async def get_record(self, hand_id: str) -> dict[str, Any] | None:
        """The §4 record of a *finished* hand (``None`` if unknown or still running)."""
        rows = await self.fetch(
            select(hands.c.record).where(hands.c.id == hand_id, hands.c.status == "finished")
        ) or await self.fetch(select(records.c.record).where(records.c.id == hand_id))
        if not rows or rows[0][0] is None:
            return None
        rec: dict[str, Any] = json.loads(rows[0][0])
        return rec

    async def count_open_rooms(self, owner: str | None = None) -> int:
        """Rooms whose match is not finished (created by ``owner``, if given)."""
        q = select(func.count()).select_from(rooms).where(rooms.c.status != "finished")
        if owner is not None:
            q = q.where(self._config_key("owner") == owner)
        return int((await self.fetch(q))[0][0])

    async def counts(self) -> dict[str, int]:
        """Rows per table (for tests and operators)."""
        out = {}
        for t in TABLES:
            table = metadata.tables[t]
            out[t] = int((await self.fetch(select(func.count()).select_from(table)))[0][0])
        return out

    # ------------------------------------------------------------------ writes (in a batch)
    def create_room(self, room: RoomRow) -> None:
        """A new room with its seats and (empty) match."""
        now = time.time()
        self._write(
            (
                insert(rooms),
                {
                    "id": room.id,
                    "created": now,
                    "updated": now,
                    "rules": json.dumps(room.rules),
                    "config": json.dumps(room.config.to_dict()),
                    "versions": json.dumps(room.versions),
                },
            ),
            (
                insert(matches),
                {
                    "id": _match_id(room.id),
                    "room_id": room.id,
                    "seed": room.match_seed,
                    "hands": room.hands_total,
                },
            ),
            (
                insert(seats),
                [
                    {
                        "room_id": room.id,
                        "seat": s.seat,
                        "kind": s.kind.value,
                        "token": s.token,
                        "name": s.name,
                        "bot": s.bot,
                    }
                    for s in room.seats
                ],
            ),
        )

    def update_seat(self, room_id: str, seat: SeatRow) -> None:
        self._write(
            (
                _UPDATE_SEAT,
                {
                    "b_room": room_id,
                    "b_seat": seat.seat,
                    "b_kind": seat.kind.value,
                    "b_token": seat.token,
                    "b_name": seat.name,
                    "b_bot": seat.bot,
                },
            )
        )

    def update_room(
        self, room_id: str, versions: list[int], ready: list[int], status: RoomPhase
    ) -> None:
        """Each seat's state version, the seats ready for the next hand, and the phase."""
        self._write(
            (
                _UPDATE_ROOM,
                {
                    "b_room": room_id,
                    "b_version": max(versions, default=0),
                    "b_versions": json.dumps(versions),
                    "b_ready": json.dumps(sorted(ready)),
                    "b_status": status.value,
                    "b_updated": time.time(),
                },
            )
        )
        if status == RoomPhase.FINISHED:  # a match is created 'playing'; only its end changes it
            self._write((_MATCH_FINISHED, {"b_match": _match_id(room_id)}))

    def add_hand(self, room_id: str, hand: HandRow) -> None:
        self._write(
            (
                _ADD_HAND,
                {
                    "id": hand.id,
                    "match_id": _match_id(room_id),
                    "idx": hand.index,
                    "seed": hand.seed,
                    "dealer": hand.dealer,
                    "huang": hand.huang,
                    "deck": json.dumps(hand.deck),
                    "created": time.time(),
                },
            )
        )

    def add_action(self, hand_id: str, seq: int, seat: int, action: str) -> None:
        """Action number ``seq`` (0-based) of a hand, applied by the engine."""
        self._write(
            (
                _ADD_ACTION,
                {"hand_id": hand_id, "seq": seq, "seat": seat, "action": action, "ts": time.time()},
            )
        )

    def finish_hand(self, hand_id: str, record: dict[str, Any], scores: list[int]) -> None:
        """The hand is over: keep its §4 record; ``scores`` are the match totals after it."""
        self._write(
            (
                _FINISH_HAND,
                {
                    "b_hand": hand_id,
                    "b_record": json.dumps(record, ensure_ascii=False),
                    "b_finished": time.time(),
                },
            ),
            (_MATCH_SCORES, {"b_hand": hand_id, "b_scores": json.dumps(scores)}),
        )

    # ------------------------------------------------------------------ expiry
    async def prune(
        self, open_before: float, finished_before: float, records_before: float, keep: set[str]
    ) -> int:
        """Delete rooms last changed before ``open_before`` (match running or waiting) or
        ``finished_before`` (match over), except ``keep``; keep their finished hands'
        records until ``records_before``. Returns the number of rooms deleted."""
        old = select(rooms.c.id).where(
            ((rooms.c.status != "finished") & (rooms.c.updated < open_before))
            | ((rooms.c.status == "finished") & (rooms.c.updated < finished_before))
        )
        ids = [r[0] for r in await self.fetch(old) if r[0] not in keep]
        for room_id in ids:
            mid = _match_id(room_id)
            kept = (
                hands.c.match_id == mid,
                hands.c.status == "finished",
                hands.c.record.is_not(None),
            )
            done = select(hands.c.id, hands.c.record, hands.c.finished).where(*kept)
            their_hands = select(hands.c.id).where(hands.c.match_id == mid)
            await self._commit(
                [
                    (
                        delete(records).where(records.c.id.in_(select(hands.c.id).where(*kept))),
                        None,
                    ),
                    (insert(records).from_select(["id", "record", "finished"], done), None),
                    (delete(actions).where(actions.c.hand_id.in_(their_hands)), None),
                    (delete(hands).where(hands.c.match_id == mid), None),
                    (delete(matches).where(matches.c.id == mid), None),
                    (delete(seats).where(seats.c.room_id == room_id), None),
                    (delete(rooms).where(rooms.c.id == room_id), None),
                ]
            )
        await self._commit([(delete(records).where(records.c.finished < records_before), None)])
        return len(ids)


__all__ = ["Storage", "StorageError", "database_url"]
