"""机器人驱动 (jīqìrén qūdòng): plays a room's bots and its humans' stand-ins (托管).

One task per room, started by every change (:meth:`Driver.kick`) and ending
when nothing is left to do. It asks the room's :class:`~paohuzi.table.Table`
which bot decides now (``next_bot``: in a claim window bots never wait for a
human, R16), waits ``bot_delay`` so humans can follow, lets the bot choose,
and commits the choice through the room's one path — unless the hand moved on
meanwhile. Quick levels choose inside the event loop (a fraction of a
millisecond); pooled levels think in the :class:`~.bot_pool.BotPool`, on the hand
as it was, and the loop goes on serving every room meanwhile.

Timers (only while a human of the room is connected): a human who lets
``away_timeout`` pass on a *public* decision (a discard) is marked
away and the room's bot plays the seat from then on. On a claim, which only
the seat knows it has, the bot answers that one claim and nothing is marked:
an ``away`` flag appearing then would tell everyone the seat could claim.
A settlement has no timer: the next hand starts when every connected human
is ready (:func:`.readiness.all_ready`), and nobody reading it is put on 托管.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.state import DISCARDING
from paohuzi.server.room import levels
from paohuzi.server.room.bot_pool import Think, job_for
from paohuzi.server.room.port import BotSettings, DriverPort
from paohuzi.server.vocab import RoomPhase, SeatKind
from paohuzi.table import derive_seed

log = logging.getLogger("paohuzi.server")

GRACE = 2.0  # seconds a pooled bot may overrun its budget before a quick bot answers instead
RETRIES = 3  # after an unexpected failure the driver plans again (a second apart), this often
FALLBACK = levels.LEVELS["normal"]  # plays when a pooled bot gives no answer


@dataclass(frozen=True)
class Job:
    """One decision the driver makes: for ``seat``, on the hand as it was at ``mark``."""

    seat: int
    mark: tuple[str | None, int]  # (hand id, events so far): the hand decided on
    ready: bool = False  # a settlement's 下一局 (else an action)
    standin: bool = False  # a human's timed-out claim: the room's bot answers it once
    level: levels.Level = FALLBACK
    think: Think | None = None  # a pooled level's job for a worker


class Driver:
    def __init__(self, room: DriverPort, settings: BotSettings) -> None:
        self.room, self.settings = room, settings
        self.task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self.failures = 0  # in a row: a room whose driver keeps failing is left to its humans

    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def kick(self) -> None:
        """Something changed: plan again (start the task if it is not running)."""
        if self.settings.closed:
            return
        self.wake.set()
        if not self.busy():
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    # ------------------------------------------------------------------ the loop
    async def _run(self) -> None:
        try:
            while True:
                self.wake.clear()
                async with self.room.changing():
                    step = self._plan()
                if step is None:
                    return
                if isinstance(step, Job):
                    await self._play(step)
                    self.failures = 0
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), step + 0.05)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: the bot driver failed", self.room.id)
            # a passing fault (a race with a player's own move) must not leave the room's
            # bots idle until something else happens in it: plan again shortly
            self.failures += 1
            if self.failures <= RETRIES:
                asyncio.get_running_loop().call_later(1.0, self.kick)

    def _mark(self) -> tuple[str | None, int]:
        st = self.room.table.state
        # Events, not actions: another seat's silent 过 changes no seat's choices.
        return (self.room.hand_id, len(st.events) if st is not None else -1)

    def _plan(self) -> Job | float | None:
        """The next decision to make, or seconds to wait for a timer, or None (lock held)."""
        r = self.room
        st, ph = r.table.state, r.phase
        if ph == RoomPhase.PLAYING and st is not None:
            seat = r.table.next_bot()
            if seat is not None:
                s = r.seats[seat]
                bot = s.kind == SeatKind.BOT
                return self._job(seat, levels.level(s.who.bot) if bot else r.level)
            return self._timers(r.table.waiting_for(), claim=st.phase != DISCARDING)
        if ph == RoomPhase.SETTLEMENT:  # bots and 托管 seats are ready at once; humans: no timer
            for s in r.seats:
                if s.index not in r.ready and (s.kind == SeatKind.BOT or s.away):
                    return Job(s.index, self._mark(), ready=True)
        return None

    def _timers(self, pending: list[int], claim: bool) -> Job | float | None:
        wait: float | None = None
        for i in pending:
            seat = self.room.seats[i]
            left = self.room.left(seat)
            if left is None:
                continue
            if left > 0:
                wait = left if wait is None else min(wait, left)
            elif claim:
                return self._job(i, self.room.level, standin=True)
            else:
                self.room.go_away(seat)  # a public decision: everyone may know
                return 0.0
        return wait

    def _job(self, seat: int, level: levels.Level, standin: bool = False) -> Job:
        st = self.room.table.state
        assert st is not None
        think = None
        if level.pooled:
            rng_seed = derive_seed("web", st.seed, len(st.actions), seat)
            think = job_for(level.spec, st, seat, rng_seed)
        return Job(seat, self._mark(), standin=standin, level=level, think=think)

    # ------------------------------------------------------------------ one decision
    async def _play(self, job: Job) -> None:
        r = self.room
        # Always yield once: a chain of quick bot moves must not hold the event loop.
        await asyncio.sleep(0 if job.ready else self.settings.bot_delay)
        aid = None
        if job.think is not None:
            aid = await self.settings.pool.run(job.think, job.level.budget + GRACE)
        async with r.changing():
            if job.mark != self._mark():
                return  # the hand moved on (its human acted, another claim won, …)
            if job.ready:
                if job.seat not in r.ready:
                    r.commit(job.seat, None)
                return
            if job.seat not in r.table.to_act():
                return
            if not job.standin and r.table.players[job.seat] is None:
                return  # its player came back from 托管 meanwhile: theirs to decide
            r.commit(job.seat, self._choice(job, aid))

    def _choice(self, job: Job, aid: str | None) -> Action:
        """The pooled bot's answer if it is legal, else a quick bot's choice now."""
        r, st = self.room, self.room.table.state
        assert st is not None
        legal = st.legal_actions(job.seat)
        if aid is not None:
            try:
                wanted = Action.from_id(job.seat, aid)
                return next(a for a in legal if wanted.matches(a))
            except (IllegalAction, StopIteration):
                log.error("room %s: a pooled bot chose %r, not legal", r.id, aid)
        if job.think is None and not job.standin:
            return r.table.choose(job.seat)  # the seat's own quick bot (a broken one: random)
        # a stand-in decides once in the seat's place (the table plays random if it fails)
        return r.table.choose(
            job.seat, bot=levels.make(FALLBACK if job.level.pooled else job.level)
        )


__all__ = ["Driver", "Job"]
