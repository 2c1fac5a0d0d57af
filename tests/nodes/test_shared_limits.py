"""Limits counted across nodes, end to end (issue 24): two web nodes over one Redis, a
client's refused connects and one seat's reconnect loop spread over both get what one
node allows. Skipped where Redis is not reachable."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

pytest.importorskip("redis")
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from paohuzi.server.http.app import create_app
from paohuzi.server.limits import Limits

REDIS = os.environ.get("PAOHUZI_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _reachable() -> bool:
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


@pytest.fixture
def nodes() -> Iterator[list[TestClient]]:
    if not _reachable():
        pytest.skip(f"Redis is not reachable at {REDIS}")
    limits = Limits(
        bad_connect_burst=3, bad_connect_rate=3 / 60, connect_burst=3, connect_rate=3 / 60
    )
    client = (f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.11", 5000)  # fresh per run
    tag = secrets.token_hex(4)
    with ExitStack() as stack:
        yield [
            stack.enter_context(
                TestClient(
                    create_app(
                        ":memory:", limits=limits, bot_delay=0, redis_url=REDIS,
                        node_id=f"lim{tag}{i}",
                    ),
                    client=client,
                )
            )
            for i in range(2)
        ]  # fmt: skip


def _connect(app: TestClient, path: str) -> str:
    """What the server answers first: ``ok`` (a state), an error code, or a refusal."""
    try:
        with app.websocket_connect(path) as ws:
            first = ws.receive_json()
            return "ok" if first["type"] != "error" else first["code"]
    except WebSocketDisconnect as e:
        assert e.code == 4429  # refused at the handshake, no work done
        return "too_many_connections"


def test_refused_connects_are_counted_on_every_node(nodes: list[TestClient]) -> None:
    """A client guessing room codes gets 3 refusals in all (each node alone would allow 3),
    then is turned away on both nodes."""
    # a fresh token: a seat's handshakes are counted by token too, in Redis, for a minute
    # (a fixed one made a second run within that minute start refused)
    path = f"/ws/ZZZZZZ?token=nope{secrets.token_hex(4)}"
    got = [_connect(nodes[i % 2], path) for i in range(5)]
    assert got[:3] == ["unknown_room"] * 3
    assert got[3:] == ["too_many_connections"] * 2


def test_one_seats_reconnect_loop_is_counted_on_every_node(nodes: list[TestClient]) -> None:
    """One valid seat reconnecting over both nodes: 3 handshakes in all, then refused."""
    room = nodes[0].post("/api/rooms", json={"bots": 2, "bot": "easy"}).json()
    path = f"/ws/{room['room']}?token={room['token']}"
    got = [_connect(nodes[0], path) for _ in range(3)]
    assert got == ["ok"] * 3
    assert _connect(nodes[1], path) == "too_many_connections"
