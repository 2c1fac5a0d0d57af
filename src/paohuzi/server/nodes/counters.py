"""计数 (jìshù): limits counted across every node, in Redis.

A fixed-window counter per key (``INCR`` then ``PEXPIRE`` on the first hit,
in one transaction): room creations per client address per window, and the
open rooms of the whole service. Each node asks Redis, so N nodes give a
client the same allowance as one, not N times it.
"""

from __future__ import annotations

from typing import Any


class WindowCounter:
    """At most ``limit`` hits per ``window_ms`` for each key (across all nodes)."""

    def __init__(self, redis: Any, name: str, limit: int, window_ms: int) -> None:
        if limit < 1 or window_ms < 1:
            raise ValueError("a window counter needs limit ≥ 1 and window_ms ≥ 1")
        self.redis, self.name, self.limit, self.window_ms = redis, name, limit, window_ms

    def _key(self, key: str) -> str:
        return f"limit:{self.name}:{key}"

    async def take(self, key: str) -> bool:
        """Count one hit for ``key``; False if the window's allowance is used up."""
        k = self._key(key)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(k)
            pipe.pexpire(k, self.window_ms, nx=True)  # the window starts at its first hit
            count, _ = await pipe.execute()
        return int(count) <= self.limit

    async def used(self, key: str) -> int:
        got = await self.redis.get(self._key(key))
        return int(got or 0)


__all__ = ["WindowCounter"]
