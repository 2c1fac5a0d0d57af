"""机器人池 (jīqìrén chí): the bounded pool of worker processes where slow bots think.

A search bot holds the CPU for up to its level's budget; in a thread it would
also hold the GIL and every room's messages would wait. So slow bots think in
a few worker processes at a lower CPU priority (``nice``): a room never waits
on another room's bot, only (when every worker is busy) its own bot waits its
turn. A job carries the hand's :class:`~paohuzi.core.records.HandRecord` so
far, not the state itself (whose evaluator tables weigh megabytes); the worker
replays it and returns the chosen action's id.

Stopping: :meth:`BotPool.close` raises the shared cancel flag, which every
search checks between worlds (``IsmctsBot.cancel``), then joins the workers.
Workers are the server's own children (``spawn``) and end by themselves when
the server is killed outright (SIGKILL leaves no orphan thinking on).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from paohuzi.bots import Bot, Observation, make_bot_or_random
from paohuzi.core.records import HandRecord
from paohuzi.core.state import GameState

log = logging.getLogger("paohuzi.server")

WORKER_NICE = 10  # below the server process: humans' messages come first
ORPHAN_CHECK_S = 1.0


@dataclass(frozen=True)
class Think:
    """One decision for a worker: the bot spec, the hand so far and the deciding seat."""

    spec: str
    hand: HandRecord  # no events or result: the worker replays the actions unchecked
    seat: int
    rng_seed: int


def job_for(spec: str, state: GameState, seat: int, rng_seed: int) -> Think:
    return Think(spec, HandRecord.of(state).upto(len(state.actions)), seat, rng_seed)


# ------------------------------------------------------------------ in the worker
_cancel: Any = None
_bots: dict[str, Bot] = {}


def _init(cancel: Any, nice: int, server: int) -> None:
    global _cancel
    _cancel = cancel
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)
    # The server's pid, not getppid() here: a server killed while this worker was
    # still starting has already left it to init, and it must end all the same.
    threading.Thread(target=_end_with_parent, args=(server,), daemon=True).start()


def _end_with_parent(parent: int) -> None:
    """A killed server closes no pool: its workers notice they were orphaned, and end."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_S)
    os._exit(0)


def think(job: Think) -> str:
    """Replay the hand so far, let the bot choose; the action's id."""
    st = job.hand.replay(check=False)
    bot = _bots.get(job.spec)
    if bot is None:
        bot = _bots[job.spec] = make_bot_or_random(job.spec)[0]
        if hasattr(bot, "cancel"):
            bot.cancel = _cancel
    return bot.act(Observation(st, job.seat), random.Random(job.rng_seed)).id()


# ------------------------------------------------------------------ in the server
def default_workers() -> int:
    """One core is left to the event loop; at least one worker, at most four."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class BotPool:
    """Worker processes started on first use; ``run`` gives up after ``timeout``."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        # spawn, not fork: the server runs threads and an event loop a fork would copy
        self._ctx = multiprocessing.get_context("spawn")
        self._cancel: Any = None  # a multiprocessing.Event, made with the first worker
        self._ex: ProcessPoolExecutor | None = None
        self.closed = False

    def _executor(self) -> ProcessPoolExecutor:
        if self._ex is None:
            if self._cancel is None:
                self._cancel = self._ctx.Event()
            self._ex = ProcessPoolExecutor(
                self.workers,
                self._ctx,
                initializer=_init,
                initargs=(self._cancel, WORKER_NICE, os.getpid()),
            )
        return self._ex

    def cancel(self) -> None:
        """Raise the flag every running search checks between worlds."""
        self.closed = True
        if self._cancel is not None:
            self._cancel.set()

    async def run(self, job: Think, timeout: float) -> str | None:
        """The action id the bot chose, or None (no answer in time, pool closed or broken):
        the caller then plays a quick bot's choice instead."""
        if self.closed:
            return None
        ex = self._executor()
        try:
            fut = asyncio.get_running_loop().run_in_executor(ex, think, job)
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            log.warning("a pooled bot gave no answer within %.1f s", timeout)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not self.closed or (task is not None and task.cancelling()):
                raise
            # else: the job was still queued when the pool closed
        except BrokenProcessPool:
            log.error("the bot pool broke; starting a new one")
            self._ex = None
        except Exception:
            log.exception("a pooled bot failed")
        return None

    async def close(self, grace: float = 5.0) -> bool:
        """Raise the cancel flag and join the workers (each search ends within a world).
        False if a worker had to be killed after ``grace`` seconds."""
        self.cancel()
        ex, self._ex = self._ex, None
        if ex is None:
            return True
        done = asyncio.to_thread(ex.shutdown, wait=True, cancel_futures=True)
        try:
            await asyncio.wait_for(done, grace)
        except TimeoutError:  # a worker stuck outside any search: end it
            for p in list(getattr(ex, "_processes", {}).values()):
                p.kill()
            return False
        return True


__all__ = ["BotPool", "Think", "default_workers", "job_for", "think"]
