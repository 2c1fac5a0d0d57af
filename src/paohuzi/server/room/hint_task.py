"""提示任务 (tíshì rènwu): a room's hints, computed off its lock and once per decision.

A seat with hints on gets ``{"type": "hint", "version": n, "hint": {…}}`` after
its state ``n``. The advice itself is :func:`paohuzi.bots.hints.hint` (greedy's
choice, why, and the 听牌); :class:`HintTask` runs it in a worker thread on a
copy of the hand, so the room goes on meanwhile, and caches it under what it
depends on (the seat's view of the hand and its choices: ``Seat.hint.key``), so
asking again — or a thousand times — costs one computation, and at most one
runs per seat at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from paohuzi.bots.hints import Hint
from paohuzi.core.state import GameState
from paohuzi.server.present.state import hint_message
from paohuzi.server.room.seats import Seat

log = logging.getLogger("paohuzi.server")

Advise = Callable[[GameState, int], Hint]


class HintTask:
    """The hint computations of one room: ``state`` reads its hand now, ``advise`` gives
    the hint for a seat (the lobby's, replaceable by tests)."""

    def __init__(
        self,
        room_id: str,
        lock: asyncio.Lock,
        state: Callable[[], GameState | None],
        advise: Advise,
    ) -> None:
        self.room_id, self.lock, self.state, self.advise = room_id, lock, state, advise
        self.tasks: dict[int, asyncio.Task[Any]] = {}  # by seat (kept referenced): one at a time

    def offer(self, seat: Seat) -> None:
        """Send the seat its hint if it wants one: cached, or once computed (lock held)."""
        conn = seat.link.conn
        if not seat.wants_hints or conn is None or seat.hint.key is None:
            return
        cached = seat.hint.hint
        if cached is not None and cached[0] == seat.hint.key:
            conn.send(hint_message(seat.shown.version, cached[1]))
            return
        running = self.tasks.get(seat.index)
        if running is not None and not running.done():
            return  # it sends the newest when done
        # (a done task is replaced, not waited for: it may have sent its hint just now,
        # for the decision before this one)
        self.tasks[seat.index] = asyncio.get_running_loop().create_task(self._compute(seat))

    async def _compute(self, seat: Seat) -> None:
        while True:
            async with self.lock:
                key, st, conn = seat.hint.key, self.state(), seat.link.conn
                if not seat.wants_hints or conn is None or key is None or st is None:
                    return
                cached = seat.hint.hint
                if cached is not None and cached[0] == key:
                    conn.send(hint_message(seat.shown.version, cached[1]))
                    return
                copy = st.clone()
            try:
                value = await asyncio.to_thread(self.advise, copy, seat.index)
            except Exception:
                log.exception("room %s: hint failed", self.room_id)
                return
            async with self.lock:
                if seat.hint.key == key:
                    seat.hint.hint = (key, value)
            # loop: send it, or compute again if the hand moved on meanwhile

    def stop(self) -> None:
        for t in list(self.tasks.values()):
            t.cancel()


__all__ = ["HintTask"]
