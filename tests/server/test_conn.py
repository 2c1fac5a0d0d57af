"""The connection's outbox (server/conn.py): two writers, one order, the newest state."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import orjson

from paohuzi.server.http.conn import Conn, encode
from paohuzi.server.limits import Limits


class FakeSocket:
    """Records what is written; each write yields, as a real socket may."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)
        self.sent.append(orjson.loads(text))


def state(v: int) -> dict[str, Any]:
    return {"type": "state", "version": v}


def test_of_several_queued_states_only_the_newest_is_written_in_order() -> None:
    conn = Conn(Limits())
    for msg in (state(1), {"type": "error", "code": "x"}, state(2), state(3)):
        conn.send(msg)
    assert conn.take() == [{"type": "error", "code": "x"}, state(3)]
    assert conn.take() == [] and not conn.more.is_set()


def test_two_writers_never_reorder_or_repeat_messages() -> None:
    async def run() -> list[int]:
        conn, ws = Conn(Limits()), FakeSocket()

        async def pump() -> None:
            while True:
                await conn.more.wait()
                if not await conn.drain(ws):  # type: ignore[arg-type]
                    return

        sender = asyncio.create_task(pump())
        for v in range(1, 200):
            conn.send({"type": "pong", "version": v})  # not collapsed: every one must arrive
            if v % 3 == 0:
                await conn.drain(ws)  # type: ignore[arg-type]  # the reading task's shortcut
            if v % 7 == 0:
                await asyncio.sleep(0)
        conn.close()
        await asyncio.wait_for(sender, 5)
        return [m["version"] for m in ws.sent]

    assert asyncio.run(run()) == list(range(1, 200))


def test_close_is_left_for_the_sender_task() -> None:
    async def run() -> tuple[bool, bool]:
        conn, ws = Conn(Limits()), FakeSocket()
        conn.send(state(1))
        conn.close()
        first = await conn.drain(ws)  # type: ignore[arg-type]  # the reader stops here…
        second = await conn.drain(ws)  # …and the sender still sees the end
        return first, second

    assert asyncio.run(run()) == (False, False)


def test_a_slow_connection_is_closed_not_buffered_without_bound() -> None:
    conn = Conn(Limits(queue_limit=4))
    for v in range(10):
        conn.send({"type": "pong", "version": v})
    assert conn.closed and conn.close_code != 1000
    assert len(conn.take()) == 5  # four messages, then the end


def test_states_do_not_fill_a_slow_connection() -> None:
    """A newer state supersedes an unsent one at once: only other messages count."""
    conn = Conn(Limits(queue_limit=4))
    for v in range(50):  # bots playing fast to a browser that reads slowly
        conn.send(state(v))
        if v in (0, 10, 20):
            conn.send({"type": "said", "phrase": v})
    assert not conn.closed
    said = [{"type": "said", "phrase": v} for v in (0, 10, 20)]
    assert conn.take() == [*said, state(49)]


def test_encode_is_plain_json() -> None:
    assert encode({"a": [1, None, "胡"]}) == '{"a":[1,null,"胡"]}'


def test_serve_settles_the_heap_before_serving() -> None:
    """Startup objects are frozen out of the collector's walks (docs/web.md)."""
    from paohuzi.cli.serve import _settle_heap

    old = gc.get_threshold()
    try:
        _settle_heap()
        assert gc.get_freeze_count() > 10_000
        assert gc.get_threshold()[0] > old[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*old)
