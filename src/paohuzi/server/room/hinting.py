"""提示 (tíshì): hints for human seats, off the room's lock and once per decision.

A seat with hints on gets ``{"type": "hint", "version": n, "hint": {…}}`` after
its state ``n``. The hint (``paohuzi.bots.hints``: greedy's choice, why, and
the 听牌) is computed in a worker thread on a copy of the hand, so the room
goes on meanwhile; it is cached under what it depends on (the seat's view of
the hand and its choices), so asking again — or a thousand times — costs one
computation, and at most one runs per seat at a time.
"""

from __future__ import annotations

import asyncio
import logging

from paohuzi.server.present.messages import hint_message
from paohuzi.server.room.port import RoomPort
from paohuzi.server.room.seats import Seat

log = logging.getLogger("paohuzi.server")


def offer(room: RoomPort, seat: Seat) -> None:
    """Send the seat its hint if it wants one: from the cache, or once computed (lock held)."""
    if not seat.hints or seat.conn is None or seat.hint_key is None:
        return
    if seat.hint is not None and seat.hint[0] == seat.hint_key:
        seat.conn.send(hint_message(seat, seat.hint[1]))
        return
    if any(t.get_name() == f"hint:{seat.index}" for t in room.tasks):
        return  # one computation per seat at a time; it sends the newest when done
    task = asyncio.get_running_loop().create_task(_compute(room, seat), name=f"hint:{seat.index}")
    room.tasks.add(task)
    task.add_done_callback(room.tasks.discard)


async def _compute(room: RoomPort, seat: Seat) -> None:
    while True:
        async with room.lock:
            key, st = seat.hint_key, room.state
            if not seat.hints or seat.conn is None or key is None or st is None:
                return
            if seat.hint is not None and seat.hint[0] == key:
                seat.conn.send(hint_message(seat, seat.hint[1]))
                return
            copy = st.clone()
        try:
            value = await asyncio.to_thread(room.manager.hint, copy, seat.index)
        except Exception:
            log.exception("room %s: hint failed", room.id)
            return
        async with room.lock:
            if seat.hint_key == key:
                seat.hint = (key, value)
        # loop: send it, or compute again if the hand moved on meanwhile


__all__ = ["offer"]
