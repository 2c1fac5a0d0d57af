"""转发 (relay) and 计量 (meters) in a real Redis, in one process: a relaying node carries a
player's frames to a room's owner node and back, in order; the link ends as the owner
closes it, follows the room when its lease moves, and tells the owner when the player
leaves. Node meters add up in Redis (issue 24). Skipped where Redis is not reachable."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from paohuzi.server.nodes.lease import Leases
from paohuzi.server.nodes.meters import Meters, read_nodes
from paohuzi.server.nodes.relay import Relay, RemoteSocket

from .test_lease import _room, run


class FakeSocket:
    """A player's websocket on the relaying node: frames to read, what was written."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[str] = []
        self.closed: int | None = None

    def type(self, text: str) -> None:
        self.incoming.put_nowait({"type": "websocket.receive", "text": text})

    def leave(self) -> None:
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


async def _echo(log: list[str], ws: RemoteSocket, room: str, token: str) -> None:
    """The owner's seat loop stand-in: checks the token, echoes frames; ``quit`` closes."""
    if token != "good":
        await ws.send_text('{"type":"error","code":"bad_token"}')
        await ws.close(4401)
        return
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            log.append("left")
            return
        if msg["text"] == "quit":
            await ws.close(4409)
            return
        await ws.send_text(msg["text"].upper())


@dataclass
class _Link:
    owner: Relay
    via: Relay
    leases: Leases  # the owner's
    meters: Meters  # the relaying node's
    room: str


@contextlib.asynccontextmanager
async def _linked(r: Any, log: list[str], *, owned: bool = True) -> AsyncIterator[_Link]:
    """Two started nodes and a fresh room (taken by the owner unless ``owned`` is
    false); both nodes are stopped however the test ends."""
    tag = secrets.token_hex(4)
    leases, meters = Leases(r, f"o{tag}"), Meters()

    def seat(ws: RemoteSocket, room: str, token: str) -> Any:
        return _echo(log, ws, room, token)

    owner = Relay(r, leases, Meters(), seat)
    via = Relay(r, Leases(r, f"v{tag}"), meters, seat)
    await meters.flush(r, via.node, 0)  # the relaying node beats: the owner keeps its links
    await owner.start()
    await via.start()
    try:
        room = _room()
        if owned:
            assert await leases.take(room) is not None
        yield _Link(owner, via, leases, meters, room)
    finally:
        await via.stop()
        await owner.stop()


def test_frames_go_both_ways_in_order_until_the_owner_closes() -> None:
    async def body(r: Any) -> None:
        async with _linked(r, []) as k:
            via, meters, room = k.via, k.meters, k.room
            ws = FakeSocket()
            for i in range(100):
                ws.type(f"frame {i}")
            ws.type("quit")
            outcome = await asyncio.wait_for(via.carry(ws, room, "good", "1.2.3.4"), 10)
            assert outcome == "closed" and ws.closed == 4409
            assert ws.sent == [f"FRAME {i}" for i in range(100)]  # each once, in order
            assert meters.counts["relayed_up"] == 101 and meters.counts["relayed_down"] == 100
            # a wrong token: refused by the owner, and the code reaches the player
            bad = FakeSocket()
            assert await asyncio.wait_for(via.carry(bad, room, "bad", "1.2.3.4"), 10) == "closed"
            assert bad.closed == 4401 and "bad_token" in bad.sent[0]

    run(body)


def test_the_player_leaving_reaches_the_owner_and_a_moved_room_is_followed() -> None:
    async def body(r: Any) -> None:
        log: list[str] = []
        async with _linked(r, log) as k:
            via, leases, room = k.via, k.leases, k.room
            ws = FakeSocket()
            ws.type("hello")
            carrying = asyncio.ensure_future(via.carry(ws, room, "good", "1.2.3.4"))
            while not ws.sent:
                await asyncio.sleep(0.01)
            ws.leave()
            assert await asyncio.wait_for(carrying, 10) == "closed"
            for _ in range(200):
                if log:
                    break
                await asyncio.sleep(0.01)
            assert log == ["left"]  # the owner's seat saw the player go
            # the lease moves away from the owner (it lost the room): the link follows
            ws2 = FakeSocket()
            carrying = asyncio.ensure_future(via.carry(ws2, room, "good", "1.2.3.4"))
            await asyncio.sleep(0.2)
            assert await leases.release(room)
            assert await asyncio.wait_for(carrying, 10) == "moved"
            # nobody owns it now: the caller is told to look again (it may take the room)
            assert await via.carry(FakeSocket(), room, "good", "1.2.3.4") == "absent"

    run(body)


async def _follow(via: Relay, ws: FakeSocket, room: str) -> None:
    """The relaying node's loop (conn._find): carry, and on ``moved`` open a new link."""
    while await via.carry(ws, room, "good", "1.2.3.4") != "closed":
        pass


def test_a_broken_subscription_starts_its_links_again_and_they_carry_on() -> None:
    """Issue 24: pub/sub keeps nothing for a node whose subscription broke. Before, the
    owner's frames published meanwhile reached nobody, the owner dropped the link as if
    the relaying node had died, and the player's later frames went nowhere, for ever.
    Now the relaying node starts its links again once subscribed: the player's next
    frames reach the owner on a new link."""

    async def body(r: Any) -> None:
        async with _linked(r, []) as k:
            via, meters, room = k.via, k.meters, k.room
            ws = FakeSocket()
            following = asyncio.ensure_future(_follow(via, ws, room))
            ws.type("one")
            while ws.sent != ["ONE"]:
                await asyncio.sleep(0.01)
            # its subscription comes back slowly (a busy Redis): the links must not start
            # again before it has, or the owner's first frames reach nobody. (redis-py
            # subscribes again as it reconnects, before the failed read reaches the relay.)
            pubsub, resubscribe = via._pubsub, via._pubsub._resubscribe

            async def slowly(*args: Any) -> None:
                await asyncio.sleep(0.5)
                await resubscribe(*args)

            pubsub._resubscribe = slowly
            # cut the relaying node's subscription: a broken connection
            host, port = via._pubsub.connection._writer.get_extra_info("sockname")[:2]
            [cid] = [c["id"] for c in await r.client_list() if c["addr"] == f"{host}:{port}"]
            await r.client_kill_filter(_id=cid)
            [first] = via.carried
            ws.type("lost?")  # may be lost: its echo is published to nobody
            for _ in range(500):  # a new link, served by the owner
                if {*via.carried} & {*k.owner.hosted} - {first}:
                    break
                await asyncio.sleep(0.01)
            assert meters.counts["relay_resyncs"] == 1
            # subscribed again before the link started again (or its first frames, and
            # then the link, would be lost): Redis sees this node's channel listened to
            assert (await r.pubsub_numsub(f"relay:{via.node}"))[0][1] == 1
            for i in range(5):  # the link started again: every frame goes through
                ws.type(f"again {i}")
            for _ in range(500):
                if ws.sent[-1:] == ["AGAIN 4"]:
                    break
                await asyncio.sleep(0.01)
            tail = [t for t in ws.sent if t.startswith("AGAIN")]
            assert tail == [f"AGAIN {i}" for i in range(5)]  # once each, in order
            assert ws.sent[0] == "ONE" and set(ws.sent[1:-5]) <= {"LOST?"}
            ws.type("quit")
            await asyncio.wait_for(following, 10)
            assert ws.closed == 4409

    run(body)


class _Flaky:
    """A Redis whose pipelines fail the first ``fails`` times (a restart, a broken link)."""

    def __init__(self, real: Any, fails: int) -> None:
        self.real, self.fails = real, fails

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def pipeline(self, **kw: Any) -> Any:
        if self.fails > 0:
            self.fails -= 1
            raise ConnectionError("Redis is restarting")
        return self.real.pipeline(**kw)


def test_publishing_through_a_short_outage_loses_nothing_and_keeps_the_order() -> None:
    """Frames published while Redis fails are retried (for a few seconds), in order: the
    link is not taken for dead, nothing is lost or doubled."""

    async def body(r: Any) -> None:
        async with _linked(r, []) as k:
            owner, via, room = k.owner, k.via, k.room
            ws = FakeSocket()
            ws.type("first")
            carrying = asyncio.ensure_future(via.carry(ws, room, "good", "1.2.3.4"))
            while ws.sent != ["FIRST"]:
                await asyncio.sleep(0.01)
            owner.redis = _Flaky(r, fails=3)  # the owner's answers meet a failing Redis
            for i in range(20):
                ws.type(f"frame {i}")
            ws.type("quit")
            assert await asyncio.wait_for(carrying, 10) == "closed"
            assert ws.sent == ["FIRST"] + [f"FRAME {i}" for i in range(20)]
            assert ws.closed == 4409 and owner.redis.fails == 0

    run(body)


def test_node_meters_add_up_in_redis() -> None:
    async def body(r: Any) -> None:
        node = f"m{secrets.token_hex(4)}"
        m = Meters()
        m.add("messages_in", 3)
        await m.flush(r, node, 2)
        m.add("messages_in")
        m.add("bad_connects")
        await m.flush(r, node, 5)
        await m.flush(r, node, 5)  # nothing new: nothing added twice
        got = {n["node"]: n for n in await read_nodes(r)}[node]
        assert got["alive"] and got["rooms"] == 5
        assert got["messages_in"] == 4 and got["bad_connects"] == 1 and got["connects"] == 0
        with pytest.raises(ValueError):
            m.add("no_such_meter")

    run(body)


def test_an_http_request_is_answered_by_the_owner() -> None:
    async def body(r: Any) -> None:
        async def answer(req: dict[str, Any]) -> dict[str, Any]:
            return {"s": 200, "t": "application/json", "b": f'{{"path": "{req["p"]}"}}'}

        async with _linked(r, [], owned=False) as k:
            via, room = k.via, k.room
            k.owner.answer = answer
            assert await via.call(room, {"p": "/x"}) is None  # nobody owns it: no answer
            assert await k.leases.take(room) is not None
            got = await asyncio.wait_for(via.call(room, {"p": f"/api/rooms/{room}"}), 10)
            assert got == {
                "s": 200,
                "t": "application/json",
                "b": f'{{"path": "/api/rooms/{room}"}}',
            }

    run(body)
