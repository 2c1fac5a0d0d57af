"""Room leases and cross-node limits in a real Redis (127.0.0.1:6379, its own key prefix
per test; skipped, with the reason, where Redis is not reachable)."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

redis_asyncio = pytest.importorskip("redis.asyncio")

from paohuzi.server.nodes.counters import WindowCounter  # noqa: E402
from paohuzi.server.nodes.lease import Leases  # noqa: E402

REDIS = os.environ.get("PAOHUZI_TEST_REDIS", "redis://127.0.0.1:6379/0")


def run(body: Callable[[Any], Awaitable[None]]) -> None:
    async def go() -> None:
        r = redis_asyncio.from_url(REDIS)
        try:
            await r.ping()
        except Exception as e:
            await r.aclose()
            pytest.skip(f"Redis is not reachable at {REDIS}: {e}")
        try:
            await body(r)
        finally:
            await r.aclose()

    asyncio.run(go())


def _room() -> str:
    return f"T{secrets.token_hex(6)}"  # keys no other run uses


def test_one_node_takes_a_room_the_others_are_refused() -> None:
    async def body(r: Any) -> None:
        room = _room()
        nodes = [Leases(r, f"n{i}", ttl_ms=2000) for i in range(3)]
        got = await asyncio.gather(*(n.take(room) for n in nodes))
        winners = [g for g in got if g is not None]
        assert len(winners) == 1 and await nodes[0].owner(room) == winners[0].node
        again = await next(n for n in nodes if n.node == winners[0].node).take(room)
        assert again is not None and again.epoch == winners[0].epoch  # the owner keeps it

    run(body)


def test_a_dead_owners_lease_passes_on_and_it_cannot_renew_it() -> None:
    async def body(r: Any) -> None:
        room = _room()
        a, b = Leases(r, "a", ttl_ms=300), Leases(r, "b", ttl_ms=300)
        first = await a.take(room)
        assert first is not None and await b.take(room) is None
        assert await a.renew(room)
        await asyncio.sleep(0.45)  # a stops renewing (it died, or paused past the ttl)
        second = await b.take(room)
        assert second is not None and second.epoch == first.epoch + 1  # fenced
        assert not await a.renew(room) and not await a.release(room)  # b's, not a's
        assert await b.owner(room) == "b"
        assert await b.release(room) and await b.owner(room) is None
        assert await a.take(room) is not None  # released: taken at once, no ttl to wait

    run(body)


def test_a_lease_too_short_to_renew_is_refused() -> None:
    async def body(r: Any) -> None:
        with pytest.raises(ValueError):
            Leases(r, "a", ttl_ms=10)

    run(body)


def test_a_window_counter_is_shared_by_every_node() -> None:
    async def body(r: Any) -> None:
        name = f"rooms{secrets.token_hex(4)}"
        nodes = [WindowCounter(r, name, limit=5, window_ms=400) for _ in range(3)]
        taken = [await nodes[i % 3].take("1.2.3.4") for i in range(8)]
        assert taken == [True] * 5 + [False] * 3  # 5 in all, not 5 per node
        assert await nodes[0].take("5.6.7.8")  # another client has its own
        await asyncio.sleep(0.5)
        assert await nodes[1].take("1.2.3.4")  # a new window

    run(body)


def test_room_creations_per_address_are_counted_across_nodes() -> None:
    """Two nodes' lobbies share one allowance per client address (Redis), not one each."""
    from paohuzi.server.limits import Limits
    from paohuzi.server.room.manager import RoomManager
    from paohuzi.server.storage.store import Storage
    from paohuzi.server.wire import CreateRoom, RoomError

    async def body(r: Any) -> None:
        limits = Limits(create_burst=3, create_rate=3 / 60)
        nodes = [
            RoomManager(Storage(":memory:"), limits=limits, leases=Leases(r, f"n{i}"))
            for i in range(2)
        ]
        for m in nodes:
            await m.storage.open()
        client = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.7"  # fresh per run
        req = CreateRoom.model_validate({"rules": "hunan", "bots": 2})
        made = []
        for i in range(4):
            try:
                await nodes[i % 2].create(req, client)
                made.append(True)
            except RoomError as e:
                assert e.code == "too_many_rooms"
                made.append(False)
        assert made == [True, True, True, False]  # 3 in all: each node alone would allow 3
        await nodes[0].create(req, client + "1")  # another address is not limited by it
        for m in nodes:
            await m.stop()
            await m.storage.close()

    run(body)


@pytest.mark.parametrize("kind", ["handshakes", "reads", "seat_handshakes", "bad_connects"])
def test_handshakes_and_reads_per_address_are_counted_across_nodes(kind: str) -> None:
    """Issue 24: a websocket handshake flood (per address, or one seat's token), refused
    connects (bad token, unknown room) or a read flood spread over the nodes gets
    what one node allows, not N times it; another address is not limited by it; a Redis
    that does not answer admits (each node's own bucket still holds)."""
    from paohuzi.server.limits import Limits
    from paohuzi.server.room.manager import RoomManager
    from paohuzi.server.storage.store import Storage

    async def body(r: Any) -> None:
        limits = Limits(
            handshake_burst=3, handshake_rate=3 / 60, read_burst=3, read_rate=3 / 60,
            connect_burst=3, connect_rate=3 / 60, bad_connect_burst=3, bad_connect_rate=3 / 60,
        )  # fmt: skip
        nodes = [
            RoomManager(Storage(":memory:"), limits=limits, leases=Leases(r, f"n{i}"))
            for i in range(2)
        ]
        counter = [getattr(m, f"shared_{kind}") for m in nodes]
        client = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.9"  # fresh per run
        got = [await nodes[i % 2].shared_allows(counter[i % 2], client) for i in range(5)]
        assert got == [True, True, True, False, False]  # 3 in all: each node alone allows 3
        # used up on every node, read without counting: a refused connect is turned away
        used = [await m.shared_exhausted(c, client) for m, c in zip(nodes, counter, strict=True)]
        assert used == [True] * 2
        assert not await nodes[0].shared_exhausted(counter[0], client + "1")
        assert await nodes[1].shared_allows(counter[1], client + "1")
        # no address in Redis: only a keyed hash of it
        assert not [k async for k in r.scan_iter(match=f"*{client}*")]
        dead = RoomManager(
            Storage(":memory:"),
            limits=limits,
            leases=Leases(redis_asyncio.from_url("redis://127.0.0.1:1/0"), "dead"),
        )
        assert await dead.shared_allows(getattr(dead, f"shared_{kind}"), client)
        assert not await dead.shared_exhausted(getattr(dead, f"shared_{kind}"), client)

    run(body)


def test_many_leases_are_renewed_in_one_round_trip() -> None:
    async def body(r: Any) -> None:
        rooms = [_room() for _ in range(5)]
        a, b = Leases(r, "a", ttl_ms=400), Leases(r, "b", ttl_ms=400)
        for room in rooms[:4]:
            assert await a.take(room) is not None
        assert await b.take(rooms[4]) is not None  # not a's: its renewal fails
        assert await a.renew_many(rooms) == [True, True, True, True, False]
        assert await a.renew_many([]) == []
        for _ in range(3):  # renewed past the ttl: still a's
            await asyncio.sleep(0.2)
            assert all(await a.renew_many(rooms[:4]))
        assert {await b.owner(room) for room in rooms[:4]} == {"a"}

    run(body)
