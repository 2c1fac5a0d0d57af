"""租约 (zūyuē): which node owns a room — a lease in Redis.

One node plays a room at a time: the one holding the key ``room:{ID}:owner``,
taken with ``SET NX PX`` (so exactly one taker wins) and renewed before it
runs out. A node that dies stops renewing; after ``ttl`` the key expires and
another node may take it, then restore the room from the database (the
restart path). Renewing and releasing check the holder first, in one Lua
script each, so a node whose lease has already passed to another (it was
paused past ``ttl``) can neither extend nor delete the new owner's lease: it
learns it lost the room and must stop playing it.

Each lease also carries a fencing number (``INCR room:{ID}:epoch`` at every
take): writes a former owner might still try can be told from the new
owner's by it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DEFAULT_TTL_MS = 3000  # a dead owner's rooms move within ~3 s
RENEW_EVERY = 1 / 3  # of the ttl: two renewals may fail before the lease runs out

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def owner_key(room_id: str) -> str:
    return f"room:{room_id}:owner"


def epoch_key(room_id: str) -> str:
    return f"room:{room_id}:epoch"


@dataclass(frozen=True, slots=True)
class Lease:
    """A room held by ``node`` until renewed or released; ``epoch`` fences its writes."""

    room: str
    node: str
    epoch: int


class Leases:
    """Take, renew, release and look up room leases in Redis (``redis.asyncio``)."""

    def __init__(self, redis: Any, node: str, ttl_ms: int = DEFAULT_TTL_MS) -> None:
        if ttl_ms < 100:
            raise ValueError("a lease shorter than 100 ms cannot be renewed in time")
        self.redis, self.node, self.ttl_ms = redis, node, ttl_ms
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    async def take(self, room_id: str) -> Lease | None:
        """The room's lease if nobody holds it (or this node already does), else ``None``."""
        key = owner_key(room_id)
        if await self.redis.set(key, self.node, nx=True, px=self.ttl_ms):
            epoch = int(await self.redis.incr(epoch_key(room_id)))
            return Lease(room_id, self.node, epoch)
        if await self.renew(room_id):  # ours already (a second take on this node)
            got = await self.redis.get(epoch_key(room_id))
            return Lease(room_id, self.node, int(got or 0))
        return None

    async def renew(self, room_id: str) -> bool:
        """Extend this node's lease by ``ttl``; False if it is no longer this node's."""
        return bool(await self._renew(keys=[owner_key(room_id)], args=[self.node, self.ttl_ms]))

    async def renew_many(self, room_ids: list[str]) -> list[bool]:
        """:meth:`renew` for many rooms in one round trip (a pipeline): a node holding
        a thousand rooms renews them in one exchange, not a thousand in a row."""
        if not room_ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for room_id in room_ids:
                await self._renew(
                    keys=[owner_key(room_id)], args=[self.node, self.ttl_ms], client=pipe
                )
            got = await pipe.execute()
        return [bool(x) for x in got]

    async def release(self, room_id: str) -> bool:
        """Give the room up (a clean shutdown: others take it at once, not after ``ttl``)."""
        return bool(await self._release(keys=[owner_key(room_id)], args=[self.node]))

    async def owner(self, room_id: str) -> str | None:
        """The node holding the room now (``None``: nobody; the next request takes it)."""
        got = await self.redis.get(owner_key(room_id))
        if got is None:
            return None
        return got.decode() if isinstance(got, bytes) else str(got)


__all__ = ["DEFAULT_TTL_MS", "RENEW_EVERY", "Lease", "Leases", "epoch_key", "owner_key"]
