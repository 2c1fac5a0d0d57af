"""转发 (zhuǎnfā): a seat's websocket on a node that does not own its room, carried
through Redis pub/sub to the node that does (issue 24).

Each node listens on one channel, ``relay:{node}``. A node that is asked for a room
another node owns (its lease, :mod:`.lease`) keeps the player's websocket and opens a
*link* to the owner: ``open`` (room, token, the client's address), then each client
frame ``up``, and ``bye`` when the player leaves. The owner serves the link exactly
as a local websocket — :func:`~..http.conn.serve_seat` on a :class:`RemoteSocket`, so
the token, the rate limits and every rule are checked there, once — and its frames
come back ``down`` (``shut`` with the close code at the end).

One task per node writes every publish, in order, in pipelines: Redis keeps a
publisher's order on a channel, so a link's frames arrive in the order they were
sent. Frames are whole states with versions (:mod:`..http.conn`): if the owner dies,
the relaying node notices (its lease moves or lapses, or a publish reaches nobody),
finds the room's new owner — itself, taking the lease and restoring the room, or
another node — and opens a new link there; the new owner sends the seat its whole
state, which continues the log the player saw (``version`` moved on), so the
player's connection carries on after a pause and sees every event once, in order.
The owner in turn drops links whose relaying node stopped beating (:mod:`.meters`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import orjson

from paohuzi.server.nodes.lease import Leases
from paohuzi.server.nodes.meters import Meters, alive_key

log = logging.getLogger("paohuzi.server")
WATCH_EVERY = 0.5  # seconds between two looks at a relayed room's lease
RETRY_AFTER = 0.3  # seconds before looking again for a room with no live owner
MOVED_CODES = (1001, 1013)  # the owner stopped the room or lost it: follow the room
ELSEWHERE = '"code":"room_elsewhere"'

PUBLISH_PATIENCE = 3.0  # seconds a failing publish is retried before its frames count as lost
CALL_SECONDS = 10.0  # an HTTP request relayed to an owner node gets its answer within this


class Outcome(StrEnum):
    """How a relayed connection ended (not an error code: the player is told nothing)."""

    CLOSED = "closed"
    MOVED = "moved"
    ABSENT = "absent"


Serve = Callable[["RemoteSocket", str, str], Awaitable[None]]
Answer = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
_DISCONNECT = {"type": "websocket.disconnect", "code": 1000}


def channel(node: str) -> str:
    return f"relay:{node}"


@dataclass(frozen=True, slots=True)
class Address:
    host: str


class RemoteSocket:
    """The owner's end of a relayed websocket: the part of Starlette's ``WebSocket`` that
    :func:`~..http.conn.serve_seat` uses. No Origin header: the relaying node checked it
    (an origin is allowed where the player connected, not necessarily here)."""

    relayed = True  # its handshake was metered by the relaying node

    def __init__(self, relay: Relay, link: str, via: str, client: str) -> None:
        self.relay, self.link, self.via = relay, link, via
        self.client = Address(client)
        self.headers: dict[str, str] = {}
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.gone = False  # the seat's loop was told
        self.shut = False  # the relaying node was told (or cannot be)

    async def accept(self) -> None:
        return None

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send_text(self, text: str, /) -> None:
        if self.gone:
            raise RuntimeError("the relaying node is gone")
        self.relay.send(self.via, {"k": "down", "l": self.link, "t": text}, self._reached)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.hang_up(code)

    def hang_up(self, code: int = 1001) -> None:
        """The end of the link: the seat's loop sees a disconnect, and the relaying node
        the close code (1001 if this end gave up on it: it may open a new link)."""
        if not self.shut:
            self.shut = True
            self.relay.send(self.via, {"k": "shut", "l": self.link, "c": code})
        if not self.gone:
            self.gone = True
            self.inbox.put_nowait(_DISCONNECT)
            self.relay.hosted.pop(self.link, None)

    def left(self) -> None:
        """The player left (``bye``): nobody to tell."""
        self.shut = True
        self.hang_up()

    def _reached(self, receivers: int) -> None:
        if receivers == 0:  # nobody listens on the relaying node's channel: it died
            self.left()


class Relay:
    """This node's end of every relayed link, both ways."""

    def __init__(self, redis: Any, leases: Leases, meters: Meters, serve: Serve) -> None:
        self.redis, self.leases, self.meters, self.serve = redis, leases, meters, serve
        self.node = leases.node
        self.hosted: dict[str, RemoteSocket] = {}  # links this node serves for others
        self.carried: dict[str, asyncio.Queue[tuple[str, Any]]] = {}  # links it relays
        self._out: asyncio.Queue[tuple[str, bytes, Callable[[int], None] | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._serving: set[asyncio.Task[None]] = set()
        self._pubsub: Any = None
        self.answer: Answer | None = None  # the owner's side of a relayed HTTP request
        self.calls: dict[str, asyncio.Future[dict[str, Any] | None]] = {}

    # ------------------------------------------------------------------ plumbing
    async def start(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(channel(self.node))
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._write()),
            loop.create_task(self._check_relayers()),
        ]

    async def stop(self) -> None:
        """After the rooms stopped: their last frames (``shut`` 1001) are written first."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._out.join(), 2)
        for task in (*self._tasks, *self._serving):
            task.cancel()
        for task in (*self._tasks, *self._serving):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()

    def send(
        self, node: str, msg: dict[str, Any], then: Callable[[int], None] | None = None
    ) -> None:
        """Publish ``msg`` to ``node`` after everything queued before it; ``then`` gets how
        many subscribers received it (0: that node is not listening)."""
        self._out.put_nowait((channel(node), orjson.dumps(msg), then))

    async def _write(self) -> None:
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 256:
                batch.append(self._out.get_nowait())
            got = await self._publish(batch)
            for (_, _, then), n in zip(batch, got, strict=True):
                if then is not None:
                    try:
                        then(int(n))
                    except Exception:
                        log.exception("relay: a publish callback failed")
                self._out.task_done()

    async def _publish(self, batch: list[tuple[str, bytes, Any]]) -> list[int]:
        """Publish ``batch`` in one pipeline; each frame's receiver count. Redis failing
        (a broken connection, a restart) is retried for ``PUBLISH_PATIENCE`` seconds —
        the frames behind wait, so the order holds and a short outage loses nothing —
        then the batch counts as reaching nobody (its links are followed anew)."""
        give_up = time.monotonic() + PUBLISH_PATIENCE
        pause = 0.05
        while True:
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for ch, data, _ in batch:
                        pipe.publish(ch, data)
                    return [int(n) for n in await pipe.execute()]
            except Exception as e:
                if time.monotonic() + pause > give_up:
                    log.exception("relay: publishing %d frames failed", len(batch))
                    return [0] * len(batch)
                log.warning("relay: publishing failed (%s), trying again", e)
                await asyncio.sleep(pause)
                pause = min(2 * pause, 0.5)

    async def _listen(self) -> None:
        while True:
            try:
                async for m in self._pubsub.listen():
                    if m.get("type") == "message":
                        self._on(orjson.loads(m["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken connection: the next listen() subscribes again
                log.exception("relay: listening failed")
                await asyncio.sleep(RETRY_AFTER)
                self._resync()

    def _resync(self) -> None:
        """Frames published to this node while it was not subscribed are lost (pub/sub
        keeps nothing), both ways: every link through it starts again. A link it carries
        is followed anew (a new link: the owner sends the seat its whole state, whose
        version continues the player's log); one it hosts is hung up with 1001, so the
        relaying node opens a new one. A player's frame lost meanwhile was never applied:
        the whole state asks the same decision again. Nothing applied is lost or doubled."""
        for inbox in self.carried.values():
            inbox.put_nowait(("moved", None))
        for sock in list(self.hosted.values()):
            sock.hang_up(1001)
        if self.carried or self.hosted:
            self.meters.add("relay_resyncs")

    def _on(self, msg: dict[str, Any]) -> None:
        kind, link = msg.get("k"), str(msg.get("l"))
        if kind == "open":
            sock = self.hosted[link] = RemoteSocket(self, link, str(msg["from"]), str(msg["c"]))
            task = asyncio.ensure_future(self._host(sock, str(msg["room"]), str(msg["token"])))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)
        elif kind == "up" and link in self.hosted:
            self.hosted[link].inbox.put_nowait({"type": "websocket.receive", "text": msg["t"]})
        elif kind == "bye" and link in self.hosted:
            self.hosted[link].left()
        elif kind in ("down", "shut") and link in self.carried:
            self.carried[link].put_nowait((kind, msg["t"] if kind == "down" else msg["c"]))
        elif kind == "call" and self.answer is not None:
            task = asyncio.ensure_future(self._reply(str(msg["from"]), link, msg["q"]))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)
        elif kind == "ret" and link in self.calls and not self.calls[link].done():
            self.calls[link].set_result(msg["r"])

    async def _reply(self, via: str, link: str, request: dict[str, Any]) -> None:
        assert self.answer is not None
        try:
            got = await self.answer(request)
        except Exception:
            log.exception("relay: answering a relayed request failed")
            return  # the asking node times out and answers room_elsewhere
        self.send(via, {"k": "ret", "l": link, "r": got})

    async def _host(self, sock: RemoteSocket, room: str, token: str) -> None:
        try:
            await self.serve(sock, room, token)
        except Exception:
            log.exception("relay: serving a relayed seat of room %s failed", room)
        finally:
            await sock.close()

    async def _check_relayers(self) -> None:
        """Drop the links of a relaying node that stopped beating (killed: no ``bye``)."""
        while True:
            await asyncio.sleep(1.0)
            with contextlib.suppress(Exception):
                for via in {s.via for s in self.hosted.values()}:
                    if not await self.redis.exists(alive_key(via)):
                        for s in [s for s in self.hosted.values() if s.via == via]:
                            s.hang_up()

    # ------------------------------------------------------------------ relaying
    async def call(self, room: str, request: dict[str, Any]) -> dict[str, Any] | None:
        """An HTTP request for ``room``, answered by the node owning it (its answer), or
        ``None``: nobody owns it, or its owner did not answer within ``CALL_SECONDS``."""
        owner = await self.leases.owner(room)
        if owner is None or owner == self.node:
            return None
        link = secrets.token_hex(8)
        answer = self.calls[link] = asyncio.get_running_loop().create_future()

        def reached(receivers: int) -> None:
            if receivers == 0 and not answer.done():  # its node is dead
                answer.set_result(None)

        self.send(owner, {"k": "call", "l": link, "from": self.node, "q": request}, reached)
        try:
            return await asyncio.wait_for(answer, CALL_SECONDS)
        except TimeoutError:
            return None
        finally:
            self.calls.pop(link, None)

    async def carry(self, ws: Any, room: str, token: str, client: str) -> Outcome:
        """Relay the player's socket ``ws`` to the node owning ``room`` while it does.

        ``closed``: the connection ended (the player left, or the owner closed it);
        ``moved``: the room left its owner (stopped, lost, or the owner died) — look for
        it again; ``absent``: no live owner right now (after a short wait)."""
        owner = await self.leases.owner(room)
        if owner is None or owner == self.node:
            await asyncio.sleep(RETRY_AFTER / 3)  # free now: the caller may take it
            return Outcome.ABSENT
        link = secrets.token_hex(8)
        inbox = self.carried[link] = asyncio.Queue()
        reached: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def then(receivers: int) -> None:
            if not reached.done():  # (cancelled if the server stopped meanwhile)
                reached.set_result(receivers)

        self.send(owner, {"k": "open", "l": link, "from": self.node, "room": room,
                          "token": token, "c": client}, then)  # fmt: skip
        reader = watcher = None
        try:
            if await reached == 0:  # its node is dead; its lease runs out soon
                await asyncio.sleep(RETRY_AFTER)
                return Outcome.ABSENT
            reader = asyncio.ensure_future(self._up(ws, owner, link, inbox))
            watcher = asyncio.ensure_future(self._watch(room, owner, inbox))
            while True:
                got = asyncio.ensure_future(inbox.get())
                done, _ = await asyncio.wait({got, reader}, return_when=asyncio.FIRST_COMPLETED)
                if got not in done:  # the player left
                    got.cancel()
                    self.send(owner, {"k": "bye", "l": link})
                    return Outcome.CLOSED
                kind, value = got.result()
                if kind == "down":
                    if (
                        len(value) < 512 and ELSEWHERE in value
                    ):  # an error: the owner lost it; we follow
                        continue
                    self.meters.add("relayed_down")
                    await ws.send_text(value)
                elif kind == "shut" and value not in MOVED_CODES:
                    with contextlib.suppress(Exception):
                        await ws.close(value)
                    return Outcome.CLOSED
                else:  # shut 1001/1013, or moved: the room is elsewhere now
                    self.send(owner, {"k": "bye", "l": link})
                    self.meters.add("relay_moves")
                    return Outcome.MOVED
        finally:
            self.carried.pop(link, None)
            for task in (reader, watcher):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task

    async def _up(
        self, ws: Any, owner: str, link: str, inbox: asyncio.Queue[tuple[str, Any]]
    ) -> None:
        """The player's frames, up to the owner, until the player leaves."""
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            raw = msg.get("text")
            if raw is None:
                raw = (msg.get("bytes") or b"").decode("utf-8", "replace")
            self.meters.add("relayed_up")
            self.send(owner, {"k": "up", "l": link, "t": raw}, self._lost(inbox))

    @staticmethod
    def _lost(inbox: asyncio.Queue[tuple[str, Any]]) -> Callable[[int], None]:
        def then(receivers: int) -> None:
            if receivers == 0:  # the owner stopped listening: it died
                inbox.put_nowait(("moved", None))

        return then

    async def _watch(self, room: str, owner: str, inbox: asyncio.Queue[tuple[str, Any]]) -> None:
        """Follow the room's lease: once it is not ``owner``'s, the link is over."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            with contextlib.suppress(Exception):
                if await self.leases.owner(room) != owner:
                    inbox.put_nowait(("moved", None))
                    return


__all__ = ["Address", "Relay", "RemoteSocket", "channel"]
