"""提示 off the lock (room/hint_task.py): every decision of a seat with hints on gets its hint."""

from __future__ import annotations

import asyncio

from paohuzi.bots.hints import Hint, Reason
from paohuzi.core.rules import HUNAN
from paohuzi.core.state import GameState
from paohuzi.server.messages import HintMessage, ServerMessage
from paohuzi.server.room.hint_task import HintTask
from paohuzi.server.room.seats import Seat
from paohuzi.server.storage.sqlite import SeatRow
from paohuzi.server.vocab import SeatKind


def test_a_decision_right_after_a_hint_was_sent_gets_its_own() -> None:
    """A new decision published just as a hint computation ends (its task done, its
    done-callback not yet run) used to find that task still registered, and went
    without a hint until the next one."""
    state = GameState(HUNAN, seed=1)
    sent: list[ServerMessage] = []

    async def run() -> None:
        lock = asyncio.Lock()
        seat = Seat(SeatRow(0, SeatKind.HUMAN, "t"))
        seat.wants_hints, seat.hint.key = True, ("hand", 1)

        async def next_decision() -> None:
            async with lock:  # what Room.publish does for the seat's next decision
                seat.hint.key = ("hand", 2)
                task.offer(seat)

        class Conn:
            sent = 0

            def send(self, msg: ServerMessage) -> None:
                sent.append(msg)
                if len(sent) == 1:  # the room moves on while the first hint goes out
                    asyncio.get_running_loop().create_task(next_decision())

            def close(self, code: int = 1000) -> None:
                pass

        seat.link.conn = Conn()
        task = HintTask("ROOM", lock, lambda: state, lambda st, s: Hint(s, None, Reason("", "")))
        task.offer(seat)
        for _ in range(400):
            await asyncio.sleep(0.005)
            if len(sent) == 2 and not any(not t.done() for t in task.tasks.values()):
                break

    asyncio.run(run())
    assert len(sent) == 2 and all(isinstance(m, HintMessage) for m in sent)
