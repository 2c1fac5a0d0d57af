"""SqliteStorage: every change is durable and a room loads back exactly (INTERFACES.md §5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paohuzi.server.storage.sqlite import (
    HandRow,
    RoomConfig,
    RoomRow,
    SeatRow,
    SqliteStorage,
    default_db_path,
)
from paohuzi.server.vocab import RoomPhase, SeatKind

HUMAN, BOT, FREE = SeatKind.HUMAN, SeatKind.BOT, SeatKind.FREE


def _room(code: str = "ABC234") -> RoomRow:
    seats = [
        SeatRow(0, HUMAN, "t0", "甲"),
        SeatRow(1, BOT, None, "机器人1", "normal"),
        SeatRow(2, FREE),
    ]
    return RoomRow(code, {"name": "hunan"}, RoomConfig("normal", 1), seats, 42, 8)


def test_room_round_trip_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "db.sqlite3"
    st = SqliteStorage(path)
    st.create_room(_room())
    st.update_seat("ABC234", SeatRow(2, HUMAN, "t2", "乙"))
    st.add_hand("ABC234", HandRow("ABC234-1", 0, 7, 1, 0, ["x1"] * 80))
    st.add_action("ABC234-1", 0, 1, "discard:x3")
    st.add_action("ABC234-1", 1, 2, "pass")
    st.update_room("ABC234", [17, 0, 3], [2, 0], RoomPhase.PLAYING)
    st.close()

    st = SqliteStorage(path)  # a new process on the same file
    room = st.load_room("ABC234")
    assert room is not None and st.room_exists("ABC234") and not st.room_exists("ZZZ999")
    assert [s.kind for s in room.seats] == ["human", "bot", "human"]  # the stored words
    assert all(type(s.kind) is SeatKind for s in room.seats)  # read back as the enum
    assert st._query("SELECT status FROM rooms") == [("playing",)]
    assert room.seats[2].token == "t2" and room.seats[2].name == "乙"
    assert (room.match_seed, room.hands_total, room.versions, room.ready) == (
        42,
        8,
        [17, 0, 3],
        [0, 2],
    )
    [hand] = room.hands
    assert (hand.id, hand.seed, hand.dealer, hand.finished) == ("ABC234-1", 7, 1, False)
    assert hand.actions == [(1, "discard:x3"), (2, "pass")]
    assert st.get_record("ABC234-1") is None  # running: no record (its deck is secret)
    st.finish_hand("ABC234-1", {"schema": 1, "result": {"winner": 1}}, [0, 3, -3])
    assert st.get_record("ABC234-1") == {"schema": 1, "result": {"winner": 1}}
    assert st.load_room("ABC234").hands[0].finished  # type: ignore[union-attr]
    st.close()


def test_an_action_number_is_stored_once(tmp_path: Path) -> None:
    st = SqliteStorage(tmp_path / "db.sqlite3")
    st.create_room(_room())
    st.add_hand("ABC234", HandRow("ABC234-1", 0, 7, 1, 0, []))
    st.add_action("ABC234-1", 0, 1, "pass")
    with pytest.raises(Exception, match="UNIQUE"):
        st.add_action("ABC234-1", 0, 2, "pass")
    assert st.load_room("ABC234").hands[0].actions == [(1, "pass")]  # type: ignore[union-attr]


def test_unknown_room_loads_as_none() -> None:
    st = SqliteStorage(":memory:")
    assert st.load_room("NOPE12") is None and st.get_record("NOPE12-1") is None


def test_default_path_honours_xdg_data_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "paohuzi" / "paohuzi.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == Path.home() / ".local" / "share" / "paohuzi" / "paohuzi.sqlite3"


def test_batch_commits_its_writes_together_even_when_the_block_raises(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    st = SqliteStorage(path)
    st.create_room(_room())
    st.add_hand("ABC234", HandRow("ABC234-1", 0, 7, 1, 0, []))
    other = SqliteStorage(path)  # another connection sees only committed data
    with st.batch():
        st.add_action("ABC234-1", 0, 1, "pass")
        with st.batch():  # nested: the outer batch commits
            st.update_room("ABC234", [5, 0, 0], [], RoomPhase.PLAYING)
        assert other.load_room("ABC234").hands[0].actions == []  # type: ignore[union-attr]
    room = other.load_room("ABC234")
    assert room is not None and room.versions[0] == 5 and room.hands[0].actions == [(1, "pass")]
    with pytest.raises(RuntimeError), st.batch():
        st.add_action("ABC234-1", 1, 2, "discard:x3")
        raise RuntimeError("a later step failed")
    assert other.load_room("ABC234").hands[0].actions[-1] == (2, "discard:x3")  # type: ignore[union-attr]
    st.close()
    other.close()


def test_a_database_from_an_older_server_opens_and_loads(tmp_path: Path) -> None:
    """Before per-seat versions a room had one ``version``: each seat starts from it."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    st = SqliteStorage(path)
    st.create_room(_room())
    st.close()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE rooms DROP COLUMN versions")
    db.execute("UPDATE rooms SET version = 12")
    db.commit()
    db.close()
    st = SqliteStorage(path)
    room = st.load_room("ABC234")
    assert room is not None and room.versions == [12, 12, 12]
    st.update_room("ABC234", [13, 0, 14], [], RoomPhase.PLAYING)
    assert st.load_room("ABC234").versions == [13, 0, 14]  # type: ignore[union-attr]
    st.close()


def test_prune_keeps_records_beyond_their_rooms(tmp_path: Path) -> None:
    import time

    st = SqliteStorage(tmp_path / "db.sqlite3")
    st.create_room(_room())
    st.add_hand("ABC234", HandRow("h-done", 0, 7, 1, 0, []))
    st.add_action("h-done", 0, 1, "pass")
    st.finish_hand("h-done", {"schema": 1}, [0, 0, 0])
    st.add_hand("ABC234", HandRow("h-open", 1, 8, 1, 0, []))
    now = time.time()
    assert st.prune(now - 60, now - 60, now - 60, set()) == 0  # all fresh
    assert st.prune(now + 60, now + 60, now - 60, {"ABC234"}) == 0  # kept: in use
    assert st.prune(now + 60, now + 60, now - 60, set()) == 1
    assert st.counts() == {
        "rooms": 0, "seats": 0, "matches": 0, "hands": 0, "actions": 0, "records": 1,
    }  # fmt: skip
    assert st.get_record("h-done") == {"schema": 1} and st.get_record("h-open") is None
    assert st.prune(now, now, now + 60, set()) == 0 and st.get_record("h-done") is None
    st.close()


def test_full_synchronous_mode_is_a_choice(tmp_path: Path) -> None:
    st = SqliteStorage(tmp_path / "db.sqlite3", synchronous="FULL")
    assert st._query("PRAGMA synchronous")[0][0] == 2  # FULL
    st.close()
    with pytest.raises(ValueError):
        SqliteStorage(tmp_path / "x.sqlite3", synchronous="OFF")


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
