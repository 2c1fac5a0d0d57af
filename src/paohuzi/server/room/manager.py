"""大厅 (dàtīng): every room of the process — creation, lookup, expiry and shutdown.

Rooms are created on request (metered per client address, capped in number)
or restored from storage on first use after a restart (their bots resume at
once). A sweep every ``Limits.sweep_every`` seconds forgets idle rooms from
memory (storage has them) and prunes abandoned and finished ones from storage,
keeping finished hands' records for ``Limits.record_ttl`` (replay links).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from paohuzi.bots.hints import hint
from paohuzi.core import variants
from paohuzi.core.rules import Rules, RulesError
from paohuzi.server.limits import MAX_HANDS, RULES_NAME_CHARS, Buckets, Limits, Window
from paohuzi.server.nodes.counters import WindowCounter
from paohuzi.server.nodes.lease import RENEW_EVERY, Leases
from paohuzi.server.nodes.meters import Meters
from paohuzi.server.present import options
from paohuzi.server.room.bot_pool import BotPool
from paohuzi.server.room.restore import restore
from paohuzi.server.room.room import Room
from paohuzi.server.room.seats import Seat
from paohuzi.server.storage.sqlite import RoomConfig, RoomRow, SeatRow, Storage
from paohuzi.server.vocab import RoomPhase, SeatKind
from paohuzi.server.wire import CreateRoom, RoomError

if TYPE_CHECKING:
    from paohuzi.server.nodes.relay import Relay

log = logging.getLogger("paohuzi.server")
FINISHED, WAITING = RoomPhase.FINISHED, RoomPhase.WAITING

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 6
SPARE_CODES = 1  # 再来一场 are rare; each one refills it
MAX_ROOMS_IN_MEMORY = 512  # idle rooms beyond this are dropped from memory (reloaded on use)


def rules_of(spec: str | dict[str, Any]) -> Rules:
    """The rules a request names (a preset, or a full rules object within the bounds)."""
    try:
        rules = variants.parse(spec) if isinstance(spec, str) else Rules.from_dict(spec)
    except (RulesError, TypeError, ValueError):
        raise RoomError(400, "bad_rules") from None
    if len(rules.name) > RULES_NAME_CHARS or rules.hands_per_match > MAX_HANDS:
        raise RoomError(400, "bad_rules")
    return rules


def _seen(client: str) -> str:
    """What Redis holds of an address or token: an unkeyed hash (every node must agree)."""
    return hashlib.blake2b(client.encode(), digest_size=8).hexdigest()


class RoomManager:
    """Every room of the process; the bot pool; the rate limits of the lobby."""

    def __init__(
        self,
        storage: Storage,
        *,
        bot_delay: float = 0.6,
        away_timeout: float = 30.0,
        limits: Limits | None = None,
        origins: tuple[str, ...] = (),
        pool: BotPool | None = None,
        deal_key: bytes | None = None,
        leases: Leases | None = None,
    ) -> None:
        self.storage = storage
        self.leases = leases  # many nodes: a room is played only where its lease is held
        # ... and room creations, websocket handshakes and metered reads per address are
        # counted across the nodes too, in Redis (after each node's own bucket)
        lim = limits or Limits()
        self.shared_creates = self._shared("creates", lim.create_rate, lim.create_burst)
        self.shared_handshakes = self._shared("handshakes", lim.handshake_rate, lim.handshake_burst)
        self.shared_reads = self._shared("reads", lim.read_rate, lim.read_burst)
        # a seat's token reconnecting in a loop, and refused connects, on any node
        self.shared_seat_handshakes = self._shared("seat", lim.connect_rate, lim.connect_burst)
        self.shared_bad_connects = self._shared(
            "bad_connects", lim.bad_connect_rate, lim.bad_connect_burst
        )
        self._renewer: asyncio.Task[None] | None = None
        self.meters = Meters()  # this node's counts (in Redis too, with many nodes)
        self.relay: Relay | None = None  # many nodes: other nodes' rooms carried there
        self.bot_delay = bot_delay
        self.away_timeout = away_timeout
        self.limits = limits or Limits()
        self.origins = origins
        self.pool = pool or BotPool()
        self.rooms: dict[str, Room] = {}
        self.hint = hint  # replaceable, e.g. by tests
        self.creates = Buckets(self.limits.create_rate, self.limits.create_burst)
        self.created = Window(self.limits.rooms_per_window, self.limits.create_window)
        self.handshakes = Buckets(self.limits.handshake_rate, self.limits.handshake_burst)
        self.seat_handshakes = Buckets(self.limits.connect_rate, self.limits.connect_burst)
        self.bad_connects = Buckets(self.limits.bad_connect_rate, self.limits.bad_connect_burst)
        self.closed = False
        self._salt = secrets.token_bytes(16)  # per process: owners are counted, not tracked
        # 可验证洗牌: each hand's salt is keyed by this secret, so a restart finds it again
        self._deal_key = deal_key or secrets.token_bytes(32)
        self._sweeper: asyncio.Task[None] | None = None
        self._spare: list[str] = []  # room codes checked free (see spare_code)
        self._released: list[asyncio.Future[bool]] = []
        self._refilling: asyncio.Future[None] | None = None
        self._loading: dict[str, asyncio.Future[Room | None]] = {}  # restores under way

    def deal_salt(self, hand_id: str) -> str:
        """Hand ``hand_id``'s commitment salt: HMAC-SHA256 under the server's deal key
        (32 bytes from ``secrets``), 16 bytes in hex — unknowable without the key."""
        return hmac.new(self._deal_key, hand_id.encode(), hashlib.sha256).hexdigest()[:32]

    async def start(self) -> None:
        """Open storage (its schema upgraded) and start the expiry sweep."""
        await self.storage.open()
        await self._refill()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        if self.leases is not None:
            await self.meters.flush(self.leases.redis, self.leases.node, 0)  # alive from now
            self._renewer = asyncio.get_running_loop().create_task(self._renew_forever())

    # ------------------------------------------------------------------ rooms
    def _draw(self) -> str:
        rng = secrets.SystemRandom()
        while True:
            code = "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and code not in self._spare:
                return code

    async def new_code(self) -> str:
        """A room code nobody holds, in memory or in storage."""
        while True:
            code = self._draw()
            if not await self.storage.room_exists(code):
                return code

    async def _refill(self) -> None:
        """Keep a few codes checked free for 再来一场, which opens its room inside a
        change (synchronously, its storage reads done beforehand)."""
        while len(self._spare) < SPARE_CODES:
            self._spare.append(await self.new_code())

    def spare_code(self) -> str:
        """A code checked free beforehand (else one drawn: a clash with a stored room is
        one in ~10⁹ per stored room and would fail that change's commit)."""
        if not self._spare:
            return self._draw()
        self._refilling = asyncio.ensure_future(self._refill())
        return self._spare.pop(0)

    def _shared(self, name: str, rate: float, burst: int) -> WindowCounter | None:
        """A per-address allowance counted on every node (None: one node): ``burst`` per
        the time a node's own bucket takes to refill it, so N nodes allow what one does."""
        if self.leases is None:
            return None
        return WindowCounter(self.leases.redis, name, burst, max(1, round(1000 * burst / rate)))

    async def shared_allows(self, counter: WindowCounter | None, client: str) -> bool:
        """Does ``client``'s allowance across the nodes admit one more? Only a keyed hash
        of the address goes to Redis. Redis not answering admits it: each node's own
        bucket still holds, and a room's lease renewal will report the outage."""
        if counter is None:
            return True
        try:
            return await counter.take(_seen(client))
        except Exception as e:  # redis-py's errors: an optional dependency, not imported here
            log.warning("shared limit %s unavailable: %s", counter.name, e)
            return True

    async def shared_exhausted(self, counter: WindowCounter | None, client: str) -> bool:
        """Is ``client``'s allowance across the nodes used up (without counting a hit)?
        Redis not answering: no (as :meth:`shared_allows`)."""
        if counter is None:
            return False
        try:
            return await counter.used(_seen(client)) >= counter.limit
        except Exception as e:
            log.warning("shared limit %s unavailable: %s", counter.name, e)
            return False

    async def create(self, req: CreateRoom, client: str) -> tuple[Room, Seat]:
        if not self.creates.take(client):
            raise RoomError(429, "too_many_rooms")
        if not await self.shared_allows(self.shared_creates, client):
            raise RoomError(429, "too_many_rooms")  # this address's rooms on all nodes
        chosen = options.apply(rules_of(req.rules), req.options)
        rules = chosen.rules
        n = rules.players
        bots = n - 1 if req.bots is None else req.bots
        if not 0 <= bots <= n - 1:
            raise RoomError(400, "bad_request")
        # The address is kept only as a keyed hash, to count its open rooms.
        owner = hashlib.blake2b(client.encode(), key=self._salt, digest_size=8).hexdigest()
        await self.check_caps(owner)
        if not self.created.add(client):  # counted last: a refused request costs no room
            raise RoomError(429, "too_many_rooms")
        if len(self.rooms) >= MAX_ROOMS_IN_MEMORY:
            self._evict_idle()
        bot = chosen.bot or req.bot
        seats = [SeatRow(0, SeatKind.HUMAN, secrets.token_urlsafe(16), req.name or "玩家1")]
        for i in range(1, n):
            bot_seat = SeatRow(i, SeatKind.BOT, None, f"机器人{i}", bot)
            seats.append(bot_seat if i <= bots else SeatRow(i, SeatKind.FREE))
        # A chosen seed deals known cards: only where no other human could be dealt them.
        seed = req.seed if req.seed is not None and bots == n - 1 else secrets.randbits(63)
        given = req.options is not None and "hands" in req.options
        hands = chosen.hands if given else req.hands or rules.hands_per_match
        config = RoomConfig(bot, bots, owner, chosen.turn_time, chosen.ready_first)
        row = RoomRow(await self.new_code(), rules.to_dict(), config, seats, seed, hands)
        if self.leases is not None and await self.leases.take(row.id) is None:
            raise RoomError(503, "server_busy")  # a code another node drew at this instant
        await self._refill()  # before the room opens: its bots do not move while we wait
        async with self.storage.batch():
            room = self.open(row)
        return room, room.seats[0]

    async def check_caps(self, owner: str | None) -> None:
        """Refuse a new room beyond its creator's open rooms (429) or the server's (503)."""
        if (
            owner is not None
            and await self.storage.count_open_rooms(owner) >= self.limits.rooms_per_client
        ):
            raise RoomError(429, "too_many_rooms")
        if await self.storage.count_open_rooms() >= self.limits.max_rooms:
            raise RoomError(503, "server_busy")

    def open(self, row: RoomRow) -> Room:
        """A new room (inside a storage batch): stored, kept, dealt if it may be (nobody
        else can hold its lock yet)."""
        self.storage.create_room(row)
        room = self.rooms[row.id] = Room(self, row)
        room.stored.clear()  # no change of it is stored before the room itself (its bots wait)
        self.storage.after_commit(room.stored.set)
        room.start()
        room.publish()
        return room

    def rematch(
        self,
        of: str,
        rules: Rules,
        config: RoomConfig,
        seats: Sequence[SeatRow],
        hands: int,
    ) -> str:
        """再来一场 (room ``of``'s lock held): a new room, the same seats (humans keep their
        tokens), a new match of ``hands`` hands; its code. The caps hold as for any new room
        (``RoomError``: nothing is opened) — checked by the caller, before the change
        (:meth:`check_caps` reads storage)."""
        row = RoomRow(
            self.spare_code(),
            rules.to_dict(),
            replace(config, rematch_of=of),  # so a restart finds the link again
            list(seats),
            secrets.randbits(63),
            hands,
        )
        return self.open(row).id

    async def get(self, code: str) -> Room | None:
        """The room ``code`` (case-insensitive), restoring it from storage if needed
        (once: requests that ask meanwhile wait for the same restore)."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None or self.closed:
            return room
        loading = self._loading.get(code)
        if loading is None:
            loading = self._loading[code] = asyncio.ensure_future(self._restore(code))
            loading.add_done_callback(lambda _: self._loading.pop(code, None))
        return await asyncio.shield(loading)

    async def _restore(self, code: str) -> Room | None:
        if not await self.storage.room_exists(code):
            return None
        if self.leases is not None and await self.leases.take(code) is None:
            raise RoomError(503, "room_elsewhere")  # its owner node plays it
        row = await self.storage.load_room(code)
        if row is None:
            return None
        room = Room(self, row)
        room.claimed = True  # it was someone's before the restart (a waiting one may expire)
        room.next_room = await self.storage.rematch_of(code)  # 再来一场 already opened
        try:
            async with room.changing():
                restore(room, row.hands)  # its bots resume whatever they were deciding
        except Exception:
            log.exception("room %s cannot be restored", code)
            return None
        if self.closed:
            return None
        self.rooms[code] = room
        return room

    def _evict_idle(self) -> None:
        """Forget rooms nobody is connected to and no bot is playing: storage has them all
        (but for those that will expire: they stay until then, to be expired; and give up
        their leases: any node may play them next)."""
        for code, room in list(self.rooms.items()):
            if room.idle() and (room.claimed and room.phase != WAITING):
                del self.rooms[code]
                if self.leases is not None:
                    self._released.append(asyncio.ensure_future(self.leases.release(code)))

    async def _renew_forever(self) -> None:
        """Beat this node's heartbeat (with its meters: :mod:`..nodes.meters`) and renew
        every held room's lease; a room whose lease passed to another node
        (this one was paused or cut off past the lease's time) is stopped here at once:
        its connections close (1001) and its players reconnect where it now lives."""
        assert self.leases is not None
        every = self.leases.ttl_ms / 1000 * RENEW_EVERY
        while not self.closed:
            await asyncio.sleep(every)
            try:  # the node's heartbeat and meters, read by the relay and GET /api/nodes
                await self.meters.flush(self.leases.redis, self.leases.node, len(self.rooms))
            except Exception:
                log.exception("writing this node's meters to Redis failed")
            rooms = list(self.rooms.items())
            try:
                held = await self.leases.renew_many([code for code, _ in rooms])
            except Exception:
                log.exception("renewing the leases of %d rooms failed", len(rooms))
                continue  # Redis away for a moment: the leases have ttl to spare
            for (code, room), ok in zip(rooms, held, strict=True):
                if not ok and self.rooms.get(code) is room:
                    log.warning("room %s: its lease passed to another node; stopped here", code)
                    del self.rooms[code]
                    await room.stop()

    # ------------------------------------------------------------------ expiry
    async def sweep(self, now: float | None = None) -> int:
        """Forget idle rooms; prune abandoned and finished rooms and old records."""
        now = time.time() if now is None else now
        lim = self.limits
        self._evict_idle()
        # rooms someone is connected to (or a bot plays) stay; idle ones kept in memory
        # to be expired (_evict_idle) are stored rooms like any other
        keep = {code for code, room in self.rooms.items() if not room.idle()}
        pruned = await self.storage.prune(
            now - lim.room_ttl,
            now - lim.finished_ttl,
            now - lim.record_ttl,
            keep,
        )
        if pruned:
            log.info("pruned %d abandoned or finished rooms", pruned)
            for code in [c for c in self.rooms if c not in keep]:
                if not await self.storage.room_exists(code):  # pruned: gone from memory too
                    await self.rooms.pop(code).stop()
        return pruned

    def unattended(self, room: Room, now: float) -> bool:
        """No human connected for ``unclaimed_ttl`` to a room nobody ever connected to, or
        to one still waiting for its players (a match under way waits for ``room_ttl``)."""
        alone = room.alone_since
        if alone is None or now - alone < self.limits.unclaimed_ttl:
            return False
        return not room.claimed or room.phase == WAITING

    async def expire_unclaimed(self, now: float | None = None) -> int:
        """Close every :meth:`unattended` room: marked finished in storage (so it counts
        against no cap, and is deleted after ``finished_ttl`` unless a player comes back
        first: then it is restored like any stored room) and forgotten from memory.
        Returns how many."""
        now = time.monotonic() if now is None else now
        n = 0
        for code, room in list(self.rooms.items()):
            if not self.unattended(room, now):
                continue
            async with room.changing():
                if not self.unattended(room, now):  # a player came meanwhile
                    continue
                versions = [s.shown.version for s in room.seats]
                self.storage.update_room(code, versions, sorted(room.ready), FINISHED)
            await room.stop()
            self.rooms.pop(code, None)
            n += 1
        if n:
            log.info("expired %d rooms without a player", n)
        return n

    async def _sweep_forever(self) -> None:
        last = time.monotonic()
        while not self.closed:
            await asyncio.sleep(
                min(self.limits.sweep_every, max(1.0, self.limits.unclaimed_ttl / 10))
            )
            try:
                await self.expire_unclaimed()
                if time.monotonic() - last >= self.limits.sweep_every:
                    last = time.monotonic()
                    await self.sweep()
                await self._refill()
            except Exception:
                log.exception("the expiry sweep failed")

    async def stop(self) -> None:
        """Stop every driver and connection, then the bot pool (searches are cancelled)."""
        self.closed = True
        self.pool.cancel()  # every search ends within one world
        for task in (self._sweeper, self._renewer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for room in list(self.rooms.values()):
            await room.stop()
        if self.leases is not None:  # a clean stop: other nodes take the rooms at once
            for code in list(self.rooms):
                with contextlib.suppress(Exception):
                    await self.leases.release(code)
        self.rooms.clear()
        await self.pool.close()


__all__ = ["RoomManager", "rules_of"]
