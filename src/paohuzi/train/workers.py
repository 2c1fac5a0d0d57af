"""执行 (zhíxíng): where actor tasks run — local processes or a Ray cluster.

Both executors keep a few tasks in flight and hand back results as they come
(``submit`` / ``next``); the learner never waits for a slow one to finish.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Generic, TypeVar

from .actor import ActorResult, ActorTask, run_task

T = TypeVar("T")
R = TypeVar("R")


class LocalWorkers(Generic[T, R]):
    """``n`` spawned processes (spawn: the learner's torch threads are not forked)
    running ``fn`` (a module-level function, picklable) on each submitted task."""

    def __init__(self, n: int, fn: Callable[[T], R] = run_task):  # type: ignore[assignment]
        self.fn = fn
        self.pool = ProcessPoolExecutor(max_workers=n, mp_context=mp.get_context("spawn"))
        self.futures: set[Future[R]] = set()

    def submit(self, task: T) -> None:
        self.futures.add(self.pool.submit(self.fn, task))

    def in_flight(self) -> int:
        return len(self.futures)

    def next(self) -> R:
        done, _ = wait(self.futures, return_when=FIRST_COMPLETED)
        f = next(iter(done))
        self.futures.discard(f)
        return f.result()

    def close(self) -> None:
        for f in self.futures:
            f.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)


class RayWorkers:
    """The same on a Ray cluster (``address`` as for ``ray.init``; ``local`` starts one)."""

    def __init__(self, address: str, fn: Callable[[ActorTask], ActorResult] = run_task):
        import logging

        import ray

        if not ray.is_initialized():
            ray.init(
                address=None if address == "local" else address,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        self.ray = ray
        self.remote = ray.remote(fn)
        self.refs: list[Any] = []

    def submit(self, task: ActorTask) -> None:
        self.refs.append(self.remote.remote(task))

    def in_flight(self) -> int:
        return len(self.refs)

    def next(self) -> ActorResult:
        ready, self.refs = self.ray.wait(self.refs, num_returns=1)
        result: ActorResult = self.ray.get(ready[0])
        return result

    def close(self) -> None:
        for r in self.refs:
            self.ray.cancel(r)
        self.refs = []


__all__ = ["LocalWorkers", "RayWorkers"]
