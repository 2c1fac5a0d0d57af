"""计量 (jìliàng): what each node counts — connections, refusals, messages — kept in Redis.

Every node counts in memory (cheap: a ``Counter`` on the event loop) and, with
Redis, adds what it counted since the last time to its hash ``node:{ID}:meters``
once a second (``HINCRBY``, so totals survive nothing but Redis itself), with its
open rooms and a heartbeat ``node:{ID}:alive`` that lives 3 s. An operator reads
every node's figures with ``GET /api/nodes`` (:func:`read_nodes`); the relay
(:mod:`.relay`) reads the heartbeats to tell a dead node's relayed seats from
live ones.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

NAMES = (
    "connects",  # seat websockets attached to a room on this node
    "reconnects",  # ... of a seat that had connected to this node before
    "bad_connects",  # unknown room or wrong token
    "refused_handshakes",  # refused before any work (a handshake flood)
    "messages_in",  # client messages read (from a socket, or relayed to this node)
    "messages_out",  # server messages written (to a socket, or relayed from this node)
    "relayed_up",  # client messages this node passed on to a room's owner node
    "relayed_down",  # owner messages this node passed down to its clients
    "relay_moves",  # relayed connections that followed their room to another owner
    "relay_resyncs",  # times this node's subscription broke and its links started again
)
NODES_KEY = "nodes"  # the set of node ids that ever reported
ALIVE_MS = 3000  # a node silent this long counts as gone


def meters_key(node: str) -> str:
    return f"node:{node}:meters"


def alive_key(node: str) -> str:
    return f"node:{node}:alive"


class Meters:
    """This node's counters; :meth:`flush` adds what is new to Redis."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._flushed: Counter[str] = Counter()

    def add(self, name: str, n: int = 1) -> None:
        if name not in NAMES:
            raise ValueError(f"unknown meter {name!r}")
        self.counts[name] += n

    def snapshot(self) -> dict[str, int]:
        return {name: self.counts[name] for name in NAMES}

    async def flush(self, redis: Any, node: str, rooms: int) -> None:
        """Add the counts since the last flush to the node's hash; beat its heartbeat."""
        now = Counter(self.counts)
        delta = now - self._flushed
        key = meters_key(node)
        async with redis.pipeline(transaction=True) as pipe:
            for name, n in delta.items():
                pipe.hincrby(key, name, n)
            pipe.hset(key, "rooms", rooms)
            pipe.set(alive_key(node), "1", px=ALIVE_MS)
            pipe.sadd(NODES_KEY, node)
            await pipe.execute()
        self._flushed = now  # only once Redis has them: a failed flush is retried whole


async def read_nodes(redis: Any) -> list[dict[str, Any]]:
    """Every node that reported: its id, whether it beats now, its rooms and totals."""
    ids = sorted(
        x.decode() if isinstance(x, bytes) else str(x) for x in await redis.smembers(NODES_KEY)
    )
    out = []
    for node in ids:
        raw = await redis.hgetall(meters_key(node))
        got = {(k.decode() if isinstance(k, bytes) else k): int(v) for k, v in raw.items()}
        out.append(
            {
                "node": node,
                "alive": bool(await redis.exists(alive_key(node))),
                "rooms": got.get("rooms", 0),
                **{name: got.get(name, 0) for name in NAMES},
            }
        )
    return out


__all__ = ["ALIVE_MS", "NAMES", "Meters", "alive_key", "meters_key", "read_nodes"]
