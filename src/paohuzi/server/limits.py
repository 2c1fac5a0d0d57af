"""限制 (xiànzhì): every bound of the web game, in one place (docs/web.md lists them).

Two kinds. *Input bounds* are fixed: the size of each field, request body and
websocket frame a client may send (beyond them: a 4xx answer or an ``error``
message, never a 500 or a dropped connection). *Abuse limits* (rates, caps,
lifetimes) are a :class:`Limits` an operator may change (``paohuzi serve``
flags, ``create_app(limits=…)``). :class:`TokenBucket` meters the rates.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

# ------------------------------------------------------------------ input bounds
BODY_BYTES = 8 * 1024  # an HTTP request body (a full rules object is ~2.5 KB)
FRAME_BYTES = 4 * 1024  # a websocket message from a client (an act is < 200 bytes)
FRAME_HARD_BYTES = 64 * 1024  # the transport closes larger frames outright (1009)
NAME_CHARS = 24  # a player's name
RULES_NAME_CHARS = 24  # ``rules.name`` of a custom rules object
PRESET_CHARS = 24  # a preset name
MAX_HANDS = 64  # hands in a match (``hands``, ``rules.hands_per_match``)
MAX_SEED = 2**63 - 1  # SQLite integers are signed 64-bit
MAX_VERSION = 2**53  # a version a client may name
ACTION_CHARS = 64  # an action id (the longest 吃 with two 比 is 25)
ROOM_CODE_CHARS = 6
HAND_ID_CHARS = 40
TOKEN_CHARS = 64
JSON_DEPTH = 1024  # orjson refuses deeper nesting (no RecursionError)


@dataclass(frozen=True)
class Limits:
    """Rates, caps and lifetimes (an operator's choice; the defaults fit one small server)."""

    msg_rate: float = 10.0  # websocket messages per second per connection …
    msg_burst: int = 40  # … after a burst of this many
    connect_rate: float = 0.5  # (re)connections per second per seat …
    connect_burst: int = 6
    bad_connect_rate: float = 2.0  # refused connections (bad token, unknown room) per client
    bad_connect_burst: int = 30
    read_rate: float = 5.0  # QR codes, room lookups, records, replays, 我的牌局 per client …
    read_burst: int = 60
    create_rate: float = 1 / 6  # new rooms per second per client (10 a minute) …
    create_burst: int = 10
    rooms_per_window: int = 60  # new rooms one client address may create per window …
    create_window: float = 3600.0  # … of this many seconds (counted, not bucketed)
    handshake_rate: float = 2.0  # websocket handshakes per second per address, before any work
    handshake_burst: int = 20
    unclaimed_ttl: float = 300.0  # a room whose humans never connected expires this soon
    max_rooms: int = 500  # rooms not finished, at once (503 beyond) …
    rooms_per_client: int = 20  # … of which one client address may hold this many (429)
    room_ttl: float = 6 * 3600  # a room nobody touched this long is abandoned: pruned
    finished_ttl: float = 3600  # a finished match's room is pruned this long after its end
    record_ttl: float = 30 * 86400  # a finished hand's record (replay link) lives this long
    sweep_every: float = 300  # seconds between expiry sweeps
    queue_limit: int = 64  # messages queued for a slow connection before it is dropped


class TokenBucket:
    """令牌桶: ``take()`` is True while the rate allows (``burst`` at once, ``rate`` per second)."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, float(burst), clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self, n: float = 1.0) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < n:
            return False
        self.tokens -= n
        return True


class Buckets:
    """One :class:`TokenBucket` per key (a client address), at most ``size`` of them
    (the least recently used is forgotten: a full bucket is what a new one is)."""

    def __init__(self, rate: float, burst: int, size: int = 10_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._b: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, key: str) -> bool:
        b = self._b.pop(key, None) or TokenBucket(self.rate, self.burst)
        self._b[key] = b
        if len(self._b) > self.size:
            self._b.popitem(last=False)
        return b.take()

    def exhausted(self, key: str) -> bool:
        """Would ``take(key)`` fail now? (nothing is taken)"""
        b = self._b.get(key)
        if b is None:
            return False
        b.take(0.0)  # refills it up to now
        return b.tokens < 1


class Window:
    """How many times each key acted in the last ``span`` seconds; ``add`` refuses beyond
    ``most`` (at most ``size`` keys kept: the least recently seen is forgotten)."""

    def __init__(
        self,
        most: int,
        span: float,
        size: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.most, self.span, self.size, self.clock = most, span, size, clock
        self._t: OrderedDict[str, deque[float]] = OrderedDict()

    def add(self, key: str) -> bool:
        now = self.clock()
        times = self._t.pop(key, None) or deque()
        self._t[key] = times
        if len(self._t) > self.size:
            self._t.popitem(last=False)
        while times and times[0] <= now - self.span:
            times.popleft()
        if len(times) >= self.most:
            return False
        times.append(now)
        return True


__all__ = [
    "ACTION_CHARS",
    "BODY_BYTES",
    "FRAME_BYTES",
    "FRAME_HARD_BYTES",
    "HAND_ID_CHARS",
    "JSON_DEPTH",
    "MAX_HANDS",
    "MAX_SEED",
    "MAX_VERSION",
    "NAME_CHARS",
    "PRESET_CHARS",
    "ROOM_CODE_CHARS",
    "RULES_NAME_CHARS",
    "TOKEN_CHARS",
    "Buckets",
    "Limits",
    "TokenBucket",
    "Window",
]
