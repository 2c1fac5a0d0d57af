"""存档 (cúndàng): durable rooms, matches, hands, actions and records.

The game server keeps everything it needs to resume behind :class:`Storage`, a
small interface; :class:`SqliteStorage` (stdlib ``sqlite3``, WAL) implements it.
Every applied action is written as soon as the engine accepted it, so a restart
loses nothing: a running hand is re-created by re-dealing its stored deck and
re-applying its stored actions (INTERFACES.md §5, R38).

Durability: WAL with ``synchronous=NORMAL`` (the default) survives any crash
of the process; a power loss or OS crash may lose the last commits (the
changes of the last moments, never a torn database). ``synchronous="FULL"``
syncs every commit to disk at some cost per change (docs/web.md).

Expiry: :meth:`SqliteStorage.prune` deletes abandoned and finished rooms with
their hands and actions; finished hands' records move to ``records`` and live
on until their own age limit, so a replay link keeps working.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paohuzi.server.vocab import RoomPhase, SeatKind
from paohuzi.userdata import data_dir


def default_db_path() -> Path:
    """``<user data dir>/paohuzi/paohuzi.sqlite3`` (:func:`paohuzi.userdata.data_dir`)."""
    return data_dir() / "paohuzi.sqlite3"


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


class Storage(ABC):
    """What the server persists; one call per change, each durable on return."""

    @abstractmethod
    def room_exists(self, room_id: str) -> bool: ...

    @abstractmethod
    def rematch_of(self, room_id: str) -> str | None:
        """The room whose ``config.rematch_of`` is ``room_id`` (its 再来一场), if any."""

    @abstractmethod
    def create_room(self, room: RoomRow) -> None:
        """A new room with its seats and (empty) match."""

    @abstractmethod
    def load_room(self, room_id: str) -> RoomRow | None:
        """Everything needed to resume ``room_id``, or ``None``."""

    @abstractmethod
    def update_seat(self, room_id: str, seat: SeatRow) -> None: ...

    @abstractmethod
    def update_room(
        self, room_id: str, versions: list[int], ready: list[int], status: RoomPhase
    ) -> None:
        """Each seat's state version, the seats ready for the next hand, and the phase."""

    @abstractmethod
    def add_hand(self, room_id: str, hand: HandRow) -> None: ...

    @abstractmethod
    def add_action(self, hand_id: str, seq: int, seat: int, action: str) -> None:
        """Action number ``seq`` (0-based) of a hand, applied by the engine."""

    @abstractmethod
    def finish_hand(self, hand_id: str, record: dict[str, Any], scores: list[int]) -> None:
        """The hand is over: keep its §4 record; ``scores`` are the match totals after it."""

    @abstractmethod
    def get_record(self, hand_id: str) -> dict[str, Any] | None:
        """The §4 record of a *finished* hand (``None`` if unknown or still running)."""

    @abstractmethod
    def count_open_rooms(self, owner: str | None = None) -> int:
        """Rooms whose match is not finished (created by ``owner``, if given)."""

    @abstractmethod
    def prune(
        self, open_before: float, finished_before: float, records_before: float, keep: set[str]
    ) -> int:
        """Delete rooms last changed before ``open_before`` (match running or waiting) or
        ``finished_before`` (match over), except ``keep``; keep their finished hands'
        records until ``records_before``. Returns the number of rooms deleted."""

    @abstractmethod
    def close(self) -> None: ...

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Make the writes inside one transaction where the store can (this thread).

        What was written is kept even if the block raises: each write records a
        change the room has already made in memory.
        """
        yield


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    rules TEXT NOT NULL,
    config TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'waiting',
    version INTEGER NOT NULL DEFAULT 0,
    ready TEXT NOT NULL DEFAULT '[]',
    versions TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS seats (
    room_id TEXT NOT NULL REFERENCES rooms(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    token TEXT,
    name TEXT NOT NULL DEFAULT '',
    bot TEXT,
    PRIMARY KEY (room_id, seat)
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    room_id TEXT NOT NULL REFERENCES rooms(id),
    seed INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    scores TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL DEFAULT 'playing'
);
CREATE TABLE IF NOT EXISTS hands (
    id TEXT PRIMARY KEY,
    match_id TEXT NOT NULL REFERENCES matches(id),
    idx INTEGER NOT NULL,
    seed INTEGER,
    dealer INTEGER NOT NULL,
    huang INTEGER NOT NULL,
    deck TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    record TEXT,
    created REAL NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS actions (
    hand_id TEXT NOT NULL REFERENCES hands(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    ts REAL NOT NULL,
    PRIMARY KEY (hand_id, seq)
);
CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    finished REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS hands_by_match ON hands(match_id, idx);
CREATE INDEX IF NOT EXISTS rooms_by_age ON rooms(status, updated);
CREATE INDEX IF NOT EXISTS records_by_age ON records(finished);
"""

# Columns added since the first schema: (table, column, definition).
_ADDED = [("rooms", "versions", "TEXT NOT NULL DEFAULT '[]'")]


def _match_id(room_id: str) -> str:
    # One match per room for now (R38: a new match would be a new room).
    return f"{room_id}/1"


class SqliteStorage(Storage):
    """:class:`Storage` in one SQLite file (``":memory:"`` for a throw-away store)."""

    def __init__(self, path: str | os.PathLike[str], synchronous: str = "NORMAL"):
        if synchronous.upper() not in ("NORMAL", "FULL"):
            raise ValueError("synchronous must be NORMAL or FULL")
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._batch = threading.local()  # .stmts: writes held for the open batch()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a commit survives a crash of the process (not of the OS) without fsync.
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        for table, column, definition in _ADDED:  # a database made by an older server
            have = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        if getattr(self._batch, "stmts", None) is not None:
            yield  # nested: the outermost batch commits
            return
        self._batch.stmts = []
        try:
            yield
        finally:
            stmts, self._batch.stmts = self._batch.stmts, None
            if stmts:
                self._tx(*stmts)

    def _tx(self, *stmts: tuple[str, tuple[Any, ...]]) -> None:
        pending = getattr(self._batch, "stmts", None)
        if pending is not None:
            pending.extend(stmts)
            return
        with self._lock:
            self._db.execute("BEGIN")
            try:
                for sql, args in stmts:
                    self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def room_exists(self, room_id: str) -> bool:
        return bool(self._query("SELECT 1 FROM rooms WHERE id = ?", (room_id,)))

    def rematch_of(self, room_id: str) -> str | None:
        rows = self._query(
            "SELECT id FROM rooms WHERE json_extract(config, '$.rematch_of') = ? LIMIT 1",
            (room_id,),
        )
        return str(rows[0][0]) if rows else None

    def create_room(self, room: RoomRow) -> None:
        now = time.time()
        stmts: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO rooms (id, created, updated, rules, config, versions) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    room.id,
                    now,
                    now,
                    json.dumps(room.rules),
                    json.dumps(room.config.to_dict()),
                    json.dumps(room.versions),
                ),
            ),
            (
                "INSERT INTO matches (id, room_id, seed, hands) VALUES (?, ?, ?, ?)",
                (_match_id(room.id), room.id, room.match_seed, room.hands_total),
            ),
        ]
        for s in room.seats:
            stmts.append(
                (
                    "INSERT INTO seats (room_id, seat, kind, token, name, bot) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (room.id, s.seat, s.kind, s.token, s.name, s.bot),
                )
            )
        self._tx(*stmts)

    def load_room(self, room_id: str) -> RoomRow | None:
        rows = self._query(
            "SELECT rules, config, version, ready, versions, status FROM rooms WHERE id = ?",
            (room_id,),
        )
        if not rows:
            return None
        rules, config, version, ready, versions, status = rows[0]
        seats = [
            SeatRow(seat, SeatKind(kind), token, name, bot)
            for seat, kind, token, name, bot in self._query(
                "SELECT seat, kind, token, name, bot FROM seats WHERE room_id = ? ORDER BY seat",
                (room_id,),
            )
        ]
        mid = _match_id(room_id)
        seed, total = self._query("SELECT seed, hands FROM matches WHERE id = ?", (mid,))[0]
        room = RoomRow(
            room_id,
            json.loads(rules),
            RoomConfig.from_dict(json.loads(config)),
            seats,
            seed,
            total,
            json.loads(versions) or [version] * len(seats),  # older rows: one room version
            json.loads(ready),
            status=str(status or ""),
        )
        for hid, idx, hseed, dealer, huang, deck, status in self._query(
            "SELECT id, idx, seed, dealer, huang, deck, status FROM hands "
            "WHERE match_id = ? ORDER BY idx",
            (mid,),
        ):
            acts = self._query(
                "SELECT seat, action FROM actions WHERE hand_id = ? ORDER BY seq", (hid,)
            )
            room.hands.append(
                HandRow(
                    hid,
                    idx,
                    hseed,
                    dealer,
                    huang,
                    json.loads(deck),
                    status == "finished",
                    [(int(s), str(a)) for s, a in acts],
                )
            )
        return room

    def update_seat(self, room_id: str, seat: SeatRow) -> None:
        self._tx(
            (
                "UPDATE seats SET kind = ?, token = ?, name = ?, bot = ? "
                "WHERE room_id = ? AND seat = ?",
                (seat.kind, seat.token, seat.name, seat.bot, room_id, seat.seat),
            )
        )

    def update_room(
        self, room_id: str, versions: list[int], ready: list[int], status: RoomPhase
    ) -> None:
        self._tx(
            (
                "UPDATE rooms SET version = ?, versions = ?, ready = ?, status = ?, updated = ? "
                "WHERE id = ?",
                (
                    max(versions, default=0),
                    json.dumps(versions),
                    json.dumps(sorted(ready)),
                    status.value,  # the word itself: sqlite3 binds a str subclass slowly
                    time.time(),
                    room_id,
                ),
            ),
            # (a match is created 'playing'; only its end changes that: one write per change less)
            *(
                [("UPDATE matches SET status = 'finished' WHERE id = ?", (_match_id(room_id),))]
                if status == RoomPhase.FINISHED
                else []
            ),
        )

    def add_hand(self, room_id: str, hand: HandRow) -> None:
        self._tx(
            (
                "INSERT INTO hands (id, match_id, idx, seed, dealer, huang, deck, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    hand.id,
                    _match_id(room_id),
                    hand.index,
                    hand.seed,
                    hand.dealer,
                    hand.huang,
                    json.dumps(hand.deck),
                    time.time(),
                ),
            )
        )

    def add_action(self, hand_id: str, seq: int, seat: int, action: str) -> None:
        self._tx(
            (
                "INSERT INTO actions (hand_id, seq, seat, action, ts) VALUES (?, ?, ?, ?, ?)",
                (hand_id, seq, seat, action, time.time()),
            )
        )

    def finish_hand(self, hand_id: str, record: dict[str, Any], scores: list[int]) -> None:
        self._tx(
            (
                "UPDATE hands SET status = 'finished', record = ?, finished = ? WHERE id = ?",
                (json.dumps(record, ensure_ascii=False), time.time(), hand_id),
            ),
            (
                "UPDATE matches SET scores = ? "
                "WHERE id = (SELECT match_id FROM hands WHERE id = ?)",
                (json.dumps(scores), hand_id),
            ),
        )

    def get_record(self, hand_id: str) -> dict[str, Any] | None:
        rows = self._query(
            "SELECT record FROM hands WHERE id = ? AND status = 'finished'", (hand_id,)
        ) or self._query("SELECT record FROM records WHERE id = ?", (hand_id,))
        if not rows or rows[0][0] is None:
            return None
        rec: dict[str, Any] = json.loads(rows[0][0])
        return rec

    def count_open_rooms(self, owner: str | None = None) -> int:
        sql = "SELECT COUNT(*) FROM rooms WHERE status != 'finished'"
        if owner is None:
            return int(self._query(sql)[0][0])
        sql += " AND json_extract(config, '$.owner') = ?"
        return int(self._query(sql, (owner,))[0][0])

    def prune(
        self, open_before: float, finished_before: float, records_before: float, keep: set[str]
    ) -> int:
        ids = [
            r[0]
            for r in self._query(
                "SELECT id FROM rooms WHERE (status != 'finished' AND updated < ?) "
                "OR (status = 'finished' AND updated < ?)",
                (open_before, finished_before),
            )
            if r[0] not in keep
        ]
        for room_id in ids:
            m = (_match_id(room_id),)
            self._tx(
                (
                    "INSERT OR IGNORE INTO records (id, record, finished) SELECT id, record, "
                    "finished FROM hands WHERE match_id = ? AND status = 'finished' "
                    "AND record IS NOT NULL",
                    m,
                ),
                (
                    "DELETE FROM actions WHERE hand_id IN "
                    "(SELECT id FROM hands WHERE match_id = ?)",
                    m,
                ),
                ("DELETE FROM hands WHERE match_id = ?", m),
                ("DELETE FROM matches WHERE id = ?", m),
                ("DELETE FROM seats WHERE room_id = ?", (room_id,)),
                ("DELETE FROM rooms WHERE id = ?", (room_id,)),
            )
        self._tx(("DELETE FROM records WHERE finished < ?", (records_before,)))
        return len(ids)

    def counts(self) -> dict[str, int]:
        """Rows per table (for tests and operators)."""
        tables = ("rooms", "seats", "matches", "hands", "actions", "records")
        return {t: int(self._query(f"SELECT COUNT(*) FROM {t}")[0][0]) for t in tables}

    def close(self) -> None:
        with self._lock:
            self._db.close()
