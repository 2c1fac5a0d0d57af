"""Storage on SQLite and PostgreSQL: every change is durable and a room loads back
exactly (INTERFACES.md §5); a database from before migrations is upgraded, not lost."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from sqlalchemy import text

from paohuzi.core import records
from paohuzi.server.storage import migrate
from paohuzi.server.storage.rows import HandRow, RoomConfig, RoomRow, SeatRow
from paohuzi.server.storage.sqlite import default_db_path
from paohuzi.server.storage.store import WRITERS, Storage, StorageError, database_url
from paohuzi.server.vocab import RoomPhase, SeatKind

HUMAN, BOT, FREE = SeatKind.HUMAN, SeatKind.BOT, SeatKind.FREE
DATA = Path(__file__).parent / "data"


def _room(code: str = "ABC234") -> RoomRow:
    seats = [
        SeatRow(0, HUMAN, "t0", "甲"),
        SeatRow(1, BOT, None, "机器人1", "normal"),
        SeatRow(2, FREE),
    ]
    return RoomRow(code, {"name": "hunan"}, RoomConfig("normal", 1, "own"), seats, 2**62 + 1, 8)


def run(db: str, body: Callable[[Storage], Awaitable[Any]], **kw: Any) -> Any:
    """``body`` on an opened storage over ``db`` (closed after), in a fresh event loop."""

    async def go() -> Any:
        st = Storage(db, **kw)
        await st.open()
        try:
            return await body(st)
        finally:
            await st.close()

    return asyncio.run(go())


def test_room_round_trip_survives_reopening(db_url: str) -> None:
    async def write(st: Storage) -> None:
        async with st.batch():
            st.create_room(_room())
        async with st.batch():
            st.update_seat("ABC234", SeatRow(2, HUMAN, "t2", "乙"))
            st.add_hand("ABC234", HandRow("ABC234-1", 0, 2**63 - 1, 1, 0, ["x1"] * 80))
            st.add_action("ABC234-1", 0, 1, "discard:x3")
            st.add_action("ABC234-1", 1, 2, "pass")
            st.update_room("ABC234", [17, 0, 3], [2, 0], RoomPhase.PLAYING)

    async def read(st: Storage) -> None:  # a new process on the same database
        room = await st.load_room("ABC234")
        assert room is not None and await st.room_exists("ABC234")
        assert not await st.room_exists("ZZZ999")
        assert [s.kind for s in room.seats] == ["human", "bot", "human"]  # the stored words
        assert all(type(s.kind) is SeatKind for s in room.seats)  # read back as the enum
        assert room.seats[2].token == "t2" and room.seats[2].name == "乙"
        assert (room.match_seed, room.hands_total, room.versions, room.ready) == (
            2**62 + 1, 8, [17, 0, 3], [0, 2],
        )  # fmt: skip
        [hand] = room.hands
        assert (hand.id, hand.seed, hand.dealer, hand.finished) == ("ABC234-1", 2**63 - 1, 1, False)
        assert hand.actions == [(1, "discard:x3"), (2, "pass")]
        assert await st.count_open_rooms() == 1 and await st.count_open_rooms("own") == 1
        assert await st.count_open_rooms("else") == 0
        assert await st.get_record("ABC234-1") is None  # running: no record (its deck is secret)
        async with st.batch():
            st.finish_hand("ABC234-1", {"schema": 1, "result": {"winner": 1}}, [0, 3, -3])
            st.update_room("ABC234", [18, 0, 4], [], RoomPhase.FINISHED)
        assert await st.get_record("ABC234-1") == {"schema": 1, "result": {"winner": 1}}
        assert (await st.load_room("ABC234")).hands[0].finished  # type: ignore[union-attr]
        assert await st.count_open_rooms() == 0

    run(db_url, write)
    run(db_url, read)


def test_an_action_number_is_stored_once(db_url: str) -> None:
    async def body(st: Storage) -> None:
        async with st.batch():
            st.create_room(_room())
            st.add_hand("ABC234", HandRow("ABC234-1", 0, 7, 1, 0, []))
            st.add_action("ABC234-1", 0, 1, "pass")
        with pytest.raises(Exception, match=r"(?i)unique"):
            async with st.batch():
                st.add_action("ABC234-1", 0, 2, "pass")
        room = await st.load_room("ABC234")
        assert room is not None and room.hands[0].actions == [(1, "pass")]

    run(db_url, body)


def test_unknown_room_loads_as_none(db_url: str) -> None:
    async def body(st: Storage) -> None:
        assert await st.load_room("NOPE12") is None and await st.get_record("NOPE12-1") is None
        assert await st.rematch_of("NOPE12") is None

    run(db_url, body)


def test_a_write_outside_a_batch_is_refused_and_changes_nothing(db_url: str) -> None:
    async def body(st: Storage) -> None:
        with pytest.raises(RuntimeError, match="batch"):
            st.create_room(_room())
        assert (await st.counts())["rooms"] == 0

    run(db_url, body)


def test_batch_commits_its_writes_together_even_when_the_block_raises(db_url: str) -> None:
    async def body(st: Storage) -> None:
        other = Storage(db_url)  # another connection sees only committed data
        async with st.batch():
            st.create_room(_room())
            st.add_hand("ABC234", HandRow("ABC234-1", 0, 7, 1, 0, []))
        async with st.batch():
            st.add_action("ABC234-1", 0, 1, "pass")
            async with st.batch():  # nested: the outer batch commits
                st.update_room("ABC234", [5, 0, 0], [], RoomPhase.PLAYING)
            assert (await other.load_room("ABC234")).hands[0].actions == []  # type: ignore[union-attr]
        room = await other.load_room("ABC234")
        assert room is not None and room.versions[0] == 5 and room.hands[0].actions == [(1, "pass")]
        with pytest.raises(RuntimeError, match="later"):
            async with st.batch():
                st.add_action("ABC234-1", 1, 2, "discard:x3")
                raise RuntimeError("a later step failed")
        room = await other.load_room("ABC234")
        assert room is not None and room.hands[0].actions[-1] == (2, "discard:x3")
        await other.close()

    run(db_url, body)


def test_batches_of_concurrent_tasks_stay_apart(db_url: str) -> None:
    """Two rooms changing at once (two tasks): each batch commits its own writes only."""

    async def body(st: Storage) -> None:
        async with st.batch():
            st.create_room(_room("ROOMAA"))
            st.create_room(_room("ROOMBB"))
            st.add_hand("ROOMAA", HandRow("a-1", 0, 7, 1, 0, []))
            st.add_hand("ROOMBB", HandRow("b-1", 0, 7, 1, 0, []))

        async def play(hand: str) -> None:
            for seq in range(20):
                async with st.batch():
                    st.add_action(hand, seq, seq % 3, f"act{seq}")
                    await asyncio.sleep(0)  # the other task writes meanwhile

        await asyncio.gather(play("a-1"), play("b-1"))
        for code, hand in (("ROOMAA", "a-1"), ("ROOMBB", "b-1")):
            room = await st.load_room(code)
            assert room is not None and room.hands[0].id == hand
            assert room.hands[0].actions == [(s % 3, f"act{s}") for s in range(20)]

    run(db_url, body)


def test_rematch_link_is_found_again(db_url: str) -> None:
    async def body(st: Storage) -> None:
        nxt = _room("NEXT22")
        nxt = RoomRow(nxt.id, nxt.rules, RoomConfig(rematch_of="ABC234"), nxt.seats, 1, 8)
        async with st.batch():
            st.create_room(_room())
            st.create_room(nxt)
        assert await st.rematch_of("ABC234") == "NEXT22" and await st.rematch_of("NEXT22") is None

    run(db_url, body)


def test_prune_keeps_records_beyond_their_rooms(db_url: str) -> None:
    async def body(st: Storage) -> None:
        async with st.batch():
            st.create_room(_room())
            st.add_hand("ABC234", HandRow("h-done", 0, 7, 1, 0, []))
            st.add_action("h-done", 0, 1, "pass")
            st.finish_hand("h-done", {"schema": 1}, [0, 0, 0])
            st.add_hand("ABC234", HandRow("h-open", 1, 8, 1, 0, []))
        now = time.time()
        assert await st.prune(now - 60, now - 60, now - 60, set()) == 0  # all fresh
        assert await st.prune(now + 60, now + 60, now - 60, {"ABC234"}) == 0  # kept: in use
        assert await st.prune(now + 60, now + 60, now - 60, set()) == 1
        assert await st.counts() == {
            "rooms": 0, "seats": 0, "matches": 0, "hands": 0, "actions": 0, "records": 1,
        }  # fmt: skip
        assert await st.get_record("h-done") == {"schema": 1}
        assert await st.get_record("h-open") is None
        assert await st.prune(now, now, now + 60, set()) == 0
        assert await st.get_record("h-done") is None

    run(db_url, body)


def test_migrations_reach_the_head_and_run_again_as_a_no_op(db_url: str) -> None:
    async def body(st: Storage) -> None:
        async with st.engine.connect() as conn:
            assert await conn.run_sync(migrate.current) == migrate.head()
        await st.open()  # a second server start: nothing to do, nothing lost
        st._opened = False
        async with st.batch():
            st.create_room(_room())
        await st.open()
        assert (await st.counts())["rooms"] == 1

    run(db_url, body)


def test_default_path_honours_xdg_data_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "paohuzi" / "paohuzi.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == Path.home() / ".local" / "share" / "paohuzi" / "paohuzi.sqlite3"


def test_database_urls() -> None:
    assert database_url("/x/y.sqlite3") == "sqlite+aiosqlite:////x/y.sqlite3"
    assert database_url("rel/y.sqlite3") == "sqlite+aiosqlite:///rel/y.sqlite3"
    assert database_url(":memory:") == "sqlite+aiosqlite://"
    assert database_url("sqlite:///a.db") == "sqlite+aiosqlite:///a.db"
    for url in ("postgresql://u@h:5/d", "postgres://u@h:5/d", "postgresql+psycopg://u@h:5/d"):
        assert database_url(url) == "postgresql+psycopg://u@h:5/d"
    with pytest.raises(StorageError, match="mysql://"):
        database_url("mysql://u@h/d")


def test_a_database_from_a_server_before_per_seat_versions_is_upgraded(tmp_path: Path) -> None:
    """Migration 0001 → 0002: a room with one ``version`` gets one per seat, each from it."""
    path = tmp_path / "old.sqlite3"
    run(str(path), lambda st: _create(st))
    db = sqlite3.connect(path)
    db.execute("DROP TABLE alembic_version")  # as the first servers made it: no migrations
    db.execute("ALTER TABLE rooms DROP COLUMN versions")
    db.execute("UPDATE rooms SET version = 12")
    db.commit()
    db.close()

    async def body(st: Storage) -> None:
        room = await st.load_room("ABC234")
        assert room is not None and room.versions == [12, 12, 12]
        async with st.batch():
            st.update_room("ABC234", [13, 0, 14], [], RoomPhase.PLAYING)
        assert (await st.load_room("ABC234")).versions == [13, 0, 14]  # type: ignore[union-attr]
        async with st.engine.connect() as conn:
            assert await conn.run_sync(migrate.current) == migrate.head()

    run(str(path), body)


async def _create(st: Storage) -> None:
    async with st.batch():
        st.create_room(_room())


def test_a_file_made_by_the_sqlite3_server_is_upgraded_with_every_row(tmp_path: Path) -> None:
    """tests/server/data/pre_alembic.sqlite3 was written by the last server before
    SQLAlchemy (stdlib sqlite3, no alembic_version): a finished match and a hand in play."""
    path = tmp_path / "pre.sqlite3"
    shutil.copy(DATA / "pre_alembic.sqlite3", path)
    made = json.loads((DATA / "pre_alembic.json").read_text())
    before = sqlite3.connect(path)
    tables = {r[0] for r in before.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    counts = {t: before.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables}
    before.close()
    assert "alembic_version" not in tables

    async def body(st: Storage) -> None:
        assert await st.counts() == {t: counts[t] for t in await st.counts()}  # no row lost
        rec = await st.get_record(made["finished_hand"])
        assert rec is not None
        replayed = records.replay(rec)
        assert replayed.is_terminal() and replayed.returns() == rec["result"]["scores"]
        room = await st.load_room(made["playing"]["room"])
        assert room is not None and [h.id for h in room.hands] == [made["playing_hand"]]
        assert not room.hands[0].finished and len(room.hands[0].actions) > 0
        async with st.engine.connect() as conn:
            assert await conn.run_sync(migrate.current) == migrate.head()
            n = (await conn.execute(text("SELECT COUNT(*) FROM alembic_version"))).scalar()
            assert n == 1

    run(str(path), body)


def test_full_synchronous_mode_is_a_choice(tmp_path: Path) -> None:
    async def body(st: Storage) -> None:
        async with st.engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA synchronous"))).scalar() == 2  # FULL

    run(str(tmp_path / "db.sqlite3"), body, synchronous="FULL")
    with pytest.raises(ValueError):
        Storage(tmp_path / "x.sqlite3", synchronous="OFF")


def test_room_config_is_stored_as_servers_always_wrote_it() -> None:
    c = RoomConfig("hard", 2, "abc", 20, True, "ROOM01")
    assert json.dumps(c.to_dict()) == (
        '{"bot": "hard", "bots": 2, "owner": "abc", "turn_time": 20, "ready_first": true, '
        '"rematch_of": "ROOM01"}'
    )  # the keys and order create_room and rematch wrote as plain dicts
    assert RoomConfig("normal", 1, "abc").to_dict() == {"bot": "normal", "bots": 1, "owner": "abc"}
    assert RoomConfig.from_dict(c.to_dict()) == c
    # an older server's row (a bot spec, no owner) or odd values load, never raise
    odd = {"bot": "ismcts:iters=8", "bots": True, "turn_time": "20", "ready_first": 1, "x": 3}
    assert RoomConfig.from_dict(odd) == RoomConfig(bot="ismcts:iters=8")


def test_a_failing_batch_fails_alone_when_committed_with_others(db_url: str) -> None:
    """Batches queued together are one transaction (group commit); if it fails, each is
    retried alone: the bad one raises, the good ones are stored."""

    async def body(st: Storage) -> None:
        async with st.batch():
            st.create_room(_room())
            st.add_hand("ABC234", HandRow("h1", 0, 7, 1, 0, []))
            st.add_action("h1", 0, 1, "pass")

        async def write(seq: int) -> None:
            async with st.batch():
                st.add_action("h1", seq, 2, f"act{seq}")

        got = await asyncio.gather(write(1), write(0), write(2), return_exceptions=True)
        assert got[0] is None and got[2] is None and isinstance(got[1], Exception)
        room = await st.load_room("ABC234")
        assert room is not None
        assert room.hands[0].actions == [(1, "pass"), (2, "act1"), (2, "act2")]

    run(db_url, body)


def test_rooms_commit_side_by_side_on_postgresql_and_each_room_stays_in_order(
    db_url: str,
) -> None:
    """Issue 24 (scale): on PostgreSQL a node keeps several transactions in flight (its
    rooms are not bound by one commit's round trips and fsync at a time); SQLite, one
    writer, keeps one. Either way each room's own changes are stored in order."""
    rooms = [f"ROOM{c}{c}" for c in "ABCDEFGH"]

    async def body(st: Storage) -> tuple[bool, int]:
        async with st.batch():
            for code in rooms:
                st.create_room(_room(code))
                st.add_hand(code, HandRow(f"{code}-1", 0, 7, 1, 0, []))
        inflight = most = 0
        commit = st._tx

        async def slow_tx(writes: Any) -> None:  # a slow disk: others queue meanwhile
            nonlocal inflight, most
            inflight += 1
            most = max(most, inflight)
            try:
                await asyncio.sleep(0.01)
                await commit(writes)
            finally:
                inflight -= 1

        st._tx = slow_tx  # type: ignore[method-assign]
        lock = {code: asyncio.Lock() for code in rooms}  # a room's lock, as Room.changing

        async def play(i: int, code: str) -> None:
            for seq in range(10):
                await asyncio.sleep(0.002 * i)  # rooms' changes arrive at their own pace
                async with lock[code], st.batch():
                    st.add_action(f"{code}-1", seq, seq % 3, f"act{seq}")

        await asyncio.gather(*(play(i, code) for i, code in enumerate(rooms)))
        for code in rooms:
            room = await st.load_room(code)
            assert room is not None
            assert room.hands[0].actions == [(s % 3, f"act{s}") for s in range(10)]
        return st.sqlite, most

    sqlite, most = run(db_url, body)
    if sqlite:
        assert most == 1
    else:
        assert 1 < most <= WRITERS


@settings(max_examples=300, deadline=None)
@given(
    hs.lists(
        hs.lists(hs.sampled_from(["insert", "update", "finish", "inline"]), max_size=5),
        max_size=6,
    )
)
def test_a_group_commit_merges_statements_and_keeps_each_batchs_order(
    shapes: list[list[str]],
) -> None:
    """merged(): every row of every batch once, each batch's rows in its own order, the
    same prebuilt statement of several batches run as one executemany."""
    from paohuzi.server.storage.store import merged

    stmts = {name: text(name) for name in ("insert", "update", "finish")}
    batches: list[list[Any]] = []
    for b, shape in enumerate(shapes):
        batch: list[Any] = []
        for i, name in enumerate(shape):
            row = {"batch": b, "i": i}
            if name == "inline":  # values inside the statement: never merged
                batch.append((text(f"inline {b} {i}"), None))
            elif i % 3 == 2:  # an executemany already (create_room's seats)
                batch.append((stmts[name], [row, {"batch": b, "i": i + 0.5}]))
            else:
                batch.append((stmts[name], row))
        batches.append(batch)
    out = merged(batches)
    seen: dict[int, list[tuple[str, float]]] = {b: [] for b in range(len(batches))}
    for stmt, params in out:
        if params is None:
            _, b, i = str(stmt).split()
            seen[int(b)].append(("inline", int(i)))
            continue
        rows = params if isinstance(params, list) else [params]
        for r in rows:
            seen[r["batch"]].append((str(stmt), r["i"]))
    for b, batch in enumerate(batches):
        want: list[tuple[str, float]] = []
        for i, (stmt, params) in enumerate(batch):
            if params is None:
                want.append(("inline", i))
            else:
                rows = params if isinstance(params, list) else [params]
                want += [(str(stmt), r["i"]) for r in rows]
        assert seen[b] == want  # each batch's writes, all of them, in their order
    heads = {id(b[0][0]) for b in batches if b and b[0][1] is not None}
    if len([b for b in batches if b and b[0][1] is not None]) > len(heads):
        assert len(out) < sum(len(b) for b in batches)  # something was merged


def test_a_commit_queued_as_the_last_writer_ends_is_written(db_url: str) -> None:
    """A batch committed in the same turn of the event loop in which the writer found
    the queue empty and ended (before its done-callback left the set of writers) is
    still written: the writer leaves the set itself, so the commit starts a new one.
    (CI saw a room freeze: its change waited for a writer that had ended, its lock
    held, every reconnection waiting for it, until another room's commit came by.)"""

    async def body(st: Storage) -> None:
        async with st.batch():
            st.create_room(_room())
            st.add_hand("ABC234", HandRow("h1", 0, 7, 1, 0, []))
        loop = asyncio.get_running_loop()
        disk, other, waiting = loop.create_future(), loop.create_future(), asyncio.Event()
        commit = st._tx

        async def held_tx(writes: Any) -> None:  # the first transaction ends on cue
            await commit(writes)
            if not disk.done():
                waiting.set()
                await disk  # the writer's last step is woken by this, nothing else

        st._tx = held_tx  # type: ignore[method-assign]
        st._max_writers = 1  # at capacity with one writer (PostgreSQL's 4 alike)

        async def first() -> None:
            async with st.batch():
                st.add_action("h1", 0, 1, "first")

        async def second() -> None:
            await other  # woken in the same turn as the writer's last step, after it
            async with st.batch():
                st.add_action("h1", 1, 2, "second")

        a, b = asyncio.ensure_future(first()), asyncio.ensure_future(second())
        await waiting.wait()
        # The next turn runs the writer's last step (the queue is empty: it ends), then
        # the second task's commit, before the writer's done-callbacks.
        disk.set_result(None)
        other.set_result(None)
        await asyncio.wait_for(asyncio.gather(a, b), 5)
        room = await st.load_room("ABC234")
        assert room is not None
        assert room.hands[0].actions == [(1, "first"), (2, "second")]

    run(db_url, body)
