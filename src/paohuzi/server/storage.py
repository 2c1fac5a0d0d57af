"""存档 (cúndàng): durable rooms, matches, hands, actions and records.

The game server keeps everything it needs to resume behind :class:`Storage`, a
small interface; :class:`SqliteStorage` (stdlib ``sqlite3``, WAL) implements it.
Every applied action is written as soon as the engine accepted it, so a restart
loses nothing: a running hand is re-created by re-dealing its stored deck and
re-applying its stored actions (INTERFACES.md §5, R38).
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

from paohuzi.userdata import data_dir


def default_db_path() -> Path:
    """``<user data dir>/paohuzi/paohuzi.sqlite3`` (:func:`paohuzi.userdata.data_dir`)."""
    return data_dir() / "paohuzi.sqlite3"


@dataclass
class SeatRow:
    """One seat: ``kind`` is ``"human"``, ``"bot"`` or ``"free"``."""

    seat: int
    kind: str
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


@dataclass
class RoomRow:
    """A room with its seats, its match and the match's hands (in order)."""

    id: str
    rules: dict[str, Any]
    config: dict[str, Any]
    seats: list[SeatRow]
    match_seed: int
    hands_total: int
    version: int = 0
    ready: list[int] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)


class Storage(ABC):
    """What the server persists; one call per change, each durable on return."""

    @abstractmethod
    def room_exists(self, room_id: str) -> bool: ...

    @abstractmethod
    def create_room(self, room: RoomRow) -> None:
        """A new room with its seats and (empty) match."""

    @abstractmethod
    def load_room(self, room_id: str) -> RoomRow | None:
        """Everything needed to resume ``room_id``, or ``None``."""

    @abstractmethod
    def update_seat(self, room_id: str, seat: SeatRow) -> None: ...

    @abstractmethod
    def update_room(self, room_id: str, version: int, ready: list[int], status: str) -> None:
        """The room's state version, the seats ready for the next hand, and its phase."""

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
    ready TEXT NOT NULL DEFAULT '[]'
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
CREATE INDEX IF NOT EXISTS hands_by_match ON hands(match_id, idx);
"""


def _match_id(room_id: str) -> str:
    # One match per room for now (R38: a new match would be a new room).
    return f"{room_id}/1"


class SqliteStorage(Storage):
    """:class:`Storage` in one SQLite file (``":memory:"`` for a throw-away store)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._batch = threading.local()  # .stmts: writes held for the open batch()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a commit survives a crash of the process (not of the OS) without fsync.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

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

    def create_room(self, room: RoomRow) -> None:
        now = time.time()
        stmts: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO rooms (id, created, updated, rules, config, version) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (room.id, now, now, json.dumps(room.rules), json.dumps(room.config), room.version),
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
            "SELECT rules, config, version, ready FROM rooms WHERE id = ?", (room_id,)
        )
        if not rows:
            return None
        rules, config, version, ready = rows[0]
        seats = [
            SeatRow(seat, kind, token, name, bot)
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
            json.loads(config),
            seats,
            seed,
            total,
            version,
            json.loads(ready),
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

    def update_room(self, room_id: str, version: int, ready: list[int], status: str) -> None:
        self._tx(
            (
                "UPDATE rooms SET version = ?, ready = ?, status = ?, updated = ? WHERE id = ?",
                (version, json.dumps(sorted(ready)), status, time.time(), room_id),
            ),
            (
                "UPDATE matches SET status = ? WHERE id = ?",
                ("finished" if status == "finished" else "playing", _match_id(room_id)),
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
        )
        if not rows or rows[0][0] is None:
            return None
        rec: dict[str, Any] = json.loads(rows[0][0])
        return rec

    def close(self) -> None:
        with self._lock:
            self._db.close()
