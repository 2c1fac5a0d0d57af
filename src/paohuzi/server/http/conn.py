"""连接 (liánjiē): one seat's websocket — checks at the door, a bounded inbox and outbox.

:func:`serve_seat` is the whole life of a connection: the Origin check, the
room and token (refused attempts are metered per client address), the seat's
reconnection rate, then a loop that reads one message at a time. Each message
is bounded (``FRAME_BYTES``), metered (a token bucket per connection), parsed
by orjson (which refuses integers past 64 bits, nesting past 1024 levels and
lone surrogates with an error, not an exception) and validated by the models.
Whatever is wrong gets an ``error`` message and the connection stays open.

Messages to the client go through a :class:`Conn`'s outbox, written by its own
task (a room never waits on a slow client; of several queued states only the
newest is written) or, right after the seat's own message, by the reading task.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Mapping, MutableMapping
from typing import Any, Protocol

import orjson
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from paohuzi.server.http.site import origin_allowed
from paohuzi.server.limits import FRAME_BYTES, Limits, TokenBucket
from paohuzi.server.messages import PongMessage, ServerMessage, StateMessage, encode
from paohuzi.server.nodes.meters import Meters
from paohuzi.server.nodes.relay import Outcome
from paohuzi.server.room import readiness
from paohuzi.server.room.manager import RoomManager
from paohuzi.server.room.room import Room
from paohuzi.server.room.seats import Seat
from paohuzi.server.vocab import RoomPhase, WebChoice
from paohuzi.server.wire import (
    WS_BAD_ORIGIN,
    WS_BAD_TOKEN,
    WS_NO_ROOM,
    WS_POLICY,
    WS_TOO_MANY,
    WS_TRY_AGAIN,
    ClientMessage,
    Dissolve,
    Hints,
    Ping,
    Ready,
    Resume,
    RoomError,
    Say,
    client_message,
    error,
)

ERROR_EVERY = 1.0  # seconds between two rate_limited errors on one connection
FLOOD_CLOSE = 500  # messages refused in a row before a flooding connection is closed
RELAY_PATIENCE = 20.0  # seconds a relayed socket may look for its room's new owner


class SeatSocket(Protocol):
    """What :func:`serve_seat` uses of a websocket: Starlette's, or the owner's end of one
    relayed from another node (:class:`~..nodes.relay.RemoteSocket`)."""

    @property
    def client(self) -> Any: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    async def accept(self) -> None: ...

    async def receive(self) -> MutableMapping[str, Any]: ...

    async def send_text(self, data: str, /) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


def _superseded(m: ServerMessage | None) -> bool:
    """A queued message a newer state replaces: any state but a hand's settlement."""
    return isinstance(m, StateMessage) and getattr(m, "phase", None) != RoomPhase.SETTLEMENT


class Conn:
    """One websocket of a seat: an outbox written in order by whichever task gets
    there first — the connection's sender task, or the reading task right after
    the seat's own action (its answer then skips a turn of the event loop)."""

    def __init__(
        self, limits: Limits, durable: asyncio.Event | None = None, meters: Meters | None = None
    ) -> None:
        self.meters = meters or Meters()
        self.durable = durable  # the room's: set while all it queued is committed
        self.out: deque[ServerMessage | None] = deque()
        self.more = asyncio.Event()  # set while the outbox holds something
        self.writing = asyncio.Lock()  # one writer at a time keeps the order
        self.limit = limits.queue_limit
        self.inbox = TokenBucket(limits.msg_rate, limits.msg_burst)
        self.closed = False
        self.close_code = 1000
        self.sent = 0
        self.refused = 0  # messages refused in a row by the rate limit
        self.warned = 0.0

    def send(self, msg: ServerMessage) -> None:
        if self.closed:
            return
        if self.out and isinstance(msg, StateMessage):
            # each state is whole: the unsent one is superseded, so a client that is
            # slow while bots play fast is not dropped for states it would never see
            # — but a settlement is kept: it is the one a seat on 托管 (readied at
            # once) would otherwise never get to see
            self.out = deque(m for m in self.out if not _superseded(m))
        if len(self.out) >= self.limit:  # this far behind: drop it (it can reconnect)
            self.close(WS_POLICY)
            return
        self.sent += 1
        self.out.append(msg)
        self.more.set()

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed, self.close_code = True, code
            self.out.append(None)
            self.more.set()

    def admit(self) -> bool:
        """May the next inbound message be handled? (an error now and then if not)"""
        if self.inbox.take():
            self.refused = 0
            return True
        self.refused += 1
        now = time.monotonic()
        if now - self.warned >= ERROR_EVERY:
            self.warned = now
            self.send(error("rate_limited"))
        if self.refused >= FLOOD_CLOSE:
            self.close(WS_POLICY)
        return False

    def take(self) -> list[ServerMessage | None]:
        """What is queued, in order; of several ``state`` messages only the last
        (each is whole). ``None`` ends it: the connection is to close."""
        out: list[ServerMessage | None] = []
        while self.out:
            msg = self.out.popleft()
            if msg is None:
                out.append(None)
                break
            if isinstance(msg, StateMessage):
                out = [m for m in out if not _superseded(m)]
            out.append(msg)
        if not self.out:
            self.more.clear()
        return out

    async def drain(self, ws: SeatSocket) -> bool:
        """Write what is queued now; False once the connection is to close."""
        async with self.writing:
            while self.durable is not None and not self.durable.is_set():
                await self.durable.wait()  # never a state whose change is not stored yet
            for msg in self.take():
                if msg is None:  # left for the sender task, which closes the socket
                    self.out.appendleft(None)
                    self.more.set()
                    return False
                await ws.send_text(encode(msg))
                self.meters.add("messages_out")
        return True


async def serve_seat(ws: SeatSocket, manager: RoomManager, room_id: str, token: str) -> None:
    """``WS /ws/{ID}?token=T`` (INTERFACES.md §5), from handshake to close."""
    client = ws.client.host if ws.client else "?"
    meters = manager.meters
    # A handshake flood (a valid seat reconnecting in a loop) is refused before any work:
    # no accept, no room lookup, no state built — uvicorn answers the upgrade with 403.
    # (A relayed one was metered by the node the player reached.)
    relayed = getattr(ws, "relayed", False)
    if not relayed and (
        not manager.handshakes.take(client)
        or not manager.seat_handshakes.take(token or client)
        or not await manager.shared_allows(manager.shared_handshakes, client)  # all nodes
        or not await manager.shared_allows(manager.shared_seat_handshakes, token or client)
    ):
        meters.add("refused_handshakes")
        await ws.close(WS_TOO_MANY)
        return
    await ws.accept()
    refused = None
    if not origin_allowed(ws.headers.get("origin"), manager.origins):
        refused = ("bad_origin", WS_BAD_ORIGIN)
    elif manager.bad_connects.exhausted(client) or await manager.shared_exhausted(
        manager.shared_bad_connects, client
    ):
        refused = ("too_many_connections", WS_TOO_MANY)
    room = None
    if refused is None:
        room, refused, carried = await _find(ws, manager, room_id, token, client)
        if carried:
            return  # relayed to another node until it ended
    seat = room.seat_for(token) if room is not None else None
    if refused is None and (room is None or seat is None):
        manager.bad_connects.take(client)
        await manager.shared_allows(manager.shared_bad_connects, client)  # counts it: all nodes
        meters.add("bad_connects")
        refused = ("unknown_room", WS_NO_ROOM) if room is None else ("bad_token", WS_BAD_TOKEN)
    elif refused is None and seat is not None:
        meters.add("reconnects" if seat.link.connects is not None else "connects")
        if not seat.link.bucket(manager.limits).take():
            refused = ("too_many_connections", WS_TOO_MANY)
    if refused is not None or room is None or seat is None:
        code, close = refused or ("bad_token", WS_BAD_TOKEN)
        with contextlib.suppress(Exception):
            await ws.send_text(encode(error(code)))
            await ws.close(close)
        return
    conn = Conn(manager.limits, room.durable, manager.meters)
    sender = asyncio.create_task(_pump(ws, conn))
    await room.attach(seat, conn)
    try:
        await _receive(ws, room, seat, conn, manager.meters)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await room.detach(seat, conn)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(sender, 5)


async def _find(
    ws: SeatSocket, manager: RoomManager, room_id: str, token: str, client: str
) -> tuple[Room | None, tuple[str, int] | None, bool]:
    """The room if this node plays it (taking it if nobody does). Another node's room is
    refused with ``room_elsewhere`` (1013) — or, with a relay, the socket is carried to
    that node and followed to the next one if the room moves, until the player leaves:
    then ``carried`` is True; or this node takes the room over (its owner died)."""
    patience = time.monotonic() + RELAY_PATIENCE
    while True:
        try:
            return await manager.get(room_id), None, False
        except RoomError as e:  # many nodes: another node plays the room, or it is moving
            relay = manager.relay
            if relay is None or e.code != "room_elsewhere" or time.monotonic() > patience:
                return None, (e.code, WS_TRY_AGAIN), False
        outcome = await relay.carry(ws, room_id, token, client)
        if outcome is Outcome.CLOSED:
            return None, None, True
        if outcome is Outcome.MOVED:
            patience = time.monotonic() + RELAY_PATIENCE


async def _receive(ws: SeatSocket, room: Room, seat: Seat, conn: Conn, meters: Meters) -> None:
    while not conn.closed:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            return
        meters.add("messages_in")
        raw: str | bytes = msg.get("text") or msg.get("bytes") or b""
        if not conn.admit():
            continue
        if len(raw) > FRAME_BYTES:
            conn.send(error("too_large", f"最多 {FRAME_BYTES} 字节"))
            continue
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            conn.send(error("bad_json"))
            continue
        try:
            m = client_message.validate_python(data)
        except ValidationError as e:
            errs = e.errors(include_input=False, include_url=False)
            where = ".".join(str(x) for x in errs[0]["loc"]) if errs else ""
            if where == "say.phrase":  # a 快捷语 id not in the list: its own code
                conn.send(error("bad_phrase"))
            else:
                conn.send(error("bad_message", where or None))  # the field, never the input
            continue
        await _dispatch(room, seat, conn, m)
        try:
            if not await conn.drain(ws):  # the answer now, not a turn of the loop later
                return
        except Exception:  # a broken socket: the sender task ends it
            conn.close()
            return


async def _dispatch(room: Room, seat: Seat, conn: Conn, m: ClientMessage) -> None:
    code: str | None = None
    if isinstance(m, Ping):
        conn.send(PongMessage.make(version=seat.shown.version))
    elif isinstance(m, Hints):
        await room.set_hints(seat, m.on)
    elif isinstance(m, Resume):
        await room.resume(seat)
    elif isinstance(m, Say):
        code = await room.say(seat, m.phrase)
    elif isinstance(m, Dissolve):
        code = await room.dissolve(seat, m.agree)
    elif isinstance(m, Ready):  # 准备 by its own message: the act ``ready`` at any version
        code = readiness.may_ready(room.state is not None, seat.kind)
        code = code or await room.act(seat, seat.shown.version, WebChoice.READY)
    else:
        code = await room.act(seat, m.version, m.action)
    if code is not None:
        conn.send(error(code))


async def _pump(ws: SeatSocket, conn: Conn) -> None:
    """Write a connection's queued messages, then close it with its code."""
    try:
        while True:
            await conn.more.wait()
            if not await conn.drain(ws):
                break
    except Exception:
        conn.close()
    with contextlib.suppress(Exception):
        await ws.close(conn.close_code)


__all__ = ["Conn", "encode", "serve_seat"]
