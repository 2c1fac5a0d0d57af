"""The connection's outbox (server/conn.py): two writers, one order, the newest state."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import orjson

from paohuzi.server.http.conn import Conn, encode
from paohuzi.server.limits import Limits
from paohuzi.server.messages import PongMessage, SaidMessage, StateMessage
from paohuzi.server.vocab import RoomPhase
from paohuzi.server.wire import error


class FakeSocket:
    """Records what is written; each write yields, as a real socket may."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)
        self.sent.append(orjson.loads(text))


def state(v: int) -> StateMessage:
    return StateMessage.model_construct(version=v)  # the outbox reads its type only


def pong(v: int) -> PongMessage:
    return PongMessage.model_construct(version=v)


def said(v: int) -> SaidMessage:
    return SaidMessage.model_construct(seat=v, phrase="hello")


def test_of_several_queued_states_only_the_newest_is_written_in_order() -> None:
    conn = Conn(Limits())
    for msg in (state(1), error("bad_json"), state(2), state(3)):
        conn.send(msg)
    assert conn.take() == [error("bad_json"), state(3)]
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
            conn.send(pong(v))  # not collapsed: every one must arrive
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
        conn.send(pong(v))
    assert conn.closed and conn.close_code != 1000
    assert len(conn.take()) == 5  # four messages, then the end


def test_states_do_not_fill_a_slow_connection() -> None:
    """A newer state supersedes an unsent one at once: only other messages count."""
    conn = Conn(Limits(queue_limit=4))
    for v in range(50):  # bots playing fast to a browser that reads slowly
        conn.send(state(v))
        if v in (0, 10, 20):
            conn.send(said(v))
    assert not conn.closed
    assert conn.take() == [said(0), said(10), said(20), state(49)]


def test_encode_is_plain_json() -> None:
    assert encode(pong(3)) == '{"type":"pong","version":3}'
    assert encode(said(1)) == '{"type":"said","seat":1,"phrase":"hello"}'


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


def test_a_queued_settlement_is_never_superseded() -> None:
    """A settlement state stays queued behind the next hand's states: a seat on 托管 is
    readied at once, and this is the one state showing it that hand's result."""
    conn = Conn(Limits())
    settled = state(2).model_copy(update={"phase": RoomPhase.SETTLEMENT})
    for msg in (state(1), settled, state(3), state(4)):
        conn.send(msg)
    assert conn.take() == [settled, state(4)]
