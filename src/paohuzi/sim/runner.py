"""对局 (duìjú): play seeded hands and matches between bots, and map work over processes.

:func:`play_out` plays a dealt hand to its end at a :class:`~paohuzi.table.Table`
(the one driver every tool shares). :func:`play_hand` deals a lone hand with
``GameState(rules, seed)``; :func:`play_match` lets the table's match deal each
hand (dealer rotation R6, 荒庄 streak ``huang`` R38). Each seat gets its own RNG
derived from ``bot_seed`` (default: the hand's seed) and the seat, so results
depend on the seeds alone — not on process, order of execution or worker count.

:func:`run_tasks` maps a picklable function over tasks on W processes and
returns the results in task order (same inputs ⇒ same outputs, whatever W).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..core.player import Bot
from ..core.result import HandResult
from ..core.rules import Rules
from ..core.state import GameState
from ..table import Table, bot_rngs, derive_seed

T = TypeVar("T")
R = TypeVar("R")


@dataclass(slots=True)
class PlayedHand:
    """One hand played at a :class:`~paohuzi.table.Table`: its result and the bots' effort."""

    seed: int | None  # the deal's seed (None: an unseeded state)
    dealer: int
    seats: tuple[int, ...]  # the seats dealt in (a 坐底 seat sits out)
    result: HandResult
    decisions: list[int]  # act() calls per seat
    think: list[float]  # seconds spent in act() per seat
    record: dict[str, Any] | None = field(default=None)
    huang: int = 0  # 荒庄 in a row before this hand (黄番)

    @property
    def scores(self) -> list[int]:
        return list(self.result.scores)

    @property
    def winner(self) -> int | None:
        return self.result.winner

    @property
    def huxi(self) -> int:
        return self.result.huxi  # the winner's 胡息 (0 on 荒庄)

    @property
    def di(self) -> int:
        return self.result.di

    @property
    def mingtang(self) -> list[str]:
        return [m.name for m in self.result.mingtang]  # names of the winner's 名堂

    @property
    def huangzhuang(self) -> bool:
        return self.result.huangzhuang


def _played(table: Table, record: bool) -> PlayedHand:
    st = table.state
    assert st is not None and st.result is not None
    return PlayedHand(
        seed=st.seed,
        dealer=st.dealer,
        seats=tuple(st.seats),
        result=st.result,
        decisions=table.decisions,
        think=table.think,
        record=table.record().to_dict() if record else None,
        huang=st.huang,
    )


def play_hand(
    rules: Rules,
    seed: int,
    bots: Sequence[Bot],
    bot_seed: int | None = None,
    record: bool = False,
) -> PlayedHand:
    """Play the hand dealt by ``seed`` with ``bots[seat]`` at each seat.

    A bot returning an illegal action raises the engine's ``IllegalAction``.
    """
    return play_out(GameState(rules, seed=seed), bots, bot_seed, record)


def play_out(
    st: GameState,
    bots: Sequence[Bot],
    bot_seed: int | None = None,
    record: bool = False,
) -> PlayedHand:
    """Play the dealt hand ``st`` to its end; bots draw from ``bot_seed`` (default: its seed)."""
    rngs = bot_rngs(bot_seed, st.n) if bot_seed is not None else None
    table = Table(bots, st.rules, rngs=rngs)
    table.play_hand(st)
    return _played(table, record)


@dataclass(slots=True)
class MatchResult:
    """房间 (fángjiān): the hands of one match in order, the running totals (R38) and
    what each seat wins over the match (a race's pairwise settlement, R45)."""

    seed: int
    hands: list[PlayedHand]
    scores: list[int]
    final: list[int]


def play_match(
    rules: Rules,
    seed: int,
    bots: Sequence[Bot],
    hands: int | None = None,
    record: bool = False,
) -> MatchResult:
    """Play a whole match (``hands`` hands, default ``rules.hands_per_match``).

    The table's :class:`~paohuzi.core.match.Match` deals every hand, so dealers
    and the ``huang`` streak follow R6/R38 exactly as at a real table.
    """
    table = Table(bots, rules, seed, hands)
    out = []
    while not table.match.is_over():
        table.play_hand()
        out.append(_played(table, record))
    return MatchResult(seed, out, list(table.match.scores), table.match.final())


def save_record(directory: str, name: str, h: PlayedHand, bots: Sequence[str]) -> None:
    """牌谱: write ``h.record`` to ``directory/name.json``.

    ``bots`` (the spec at each seat) is added to the §4 record, which any
    replay ignores, so a record says which bot played which seat.
    """
    if h.record is None:
        raise ValueError("the hand was played without record=True")
    rec = {**h.record, "bots": list(bots)}
    path = Path(directory) / f"{name}.json"
    path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")


def default_workers() -> int:
    return os.cpu_count() or 1


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[R]:
    """``[fn(t) for t in tasks]`` on ``workers`` processes, in task order.

    ``progress(k)`` is called as results arrive (k = results so far).
    """
    w = default_workers() if workers is None else max(1, workers)
    if w == 1 or len(tasks) <= 1:
        out = []
        for t in tasks:
            out.append(fn(t))
            if progress:
                progress(len(out))
        return out
    chunk = max(1, min(16, len(tasks) // (w * 8)))
    out = []
    with ProcessPoolExecutor(max_workers=w) as pool:
        for r in pool.map(fn, tasks, chunksize=chunk):
            out.append(r)
            if progress:
                progress(len(out))
    return out


def run_tasks_ray(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    address: str,
    progress: Callable[[int], None] | None = None,
) -> list[R]:
    """:func:`run_tasks` on a Ray cluster (``address`` as for ``ray.init``, e.g.
    ``auto`` or ``local``). Raises ``ImportError`` when ray is not installed."""
    import logging

    import ray

    if not ray.is_initialized():
        ray.init(
            address=None if address == "local" else address,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    remote = ray.remote(fn)
    refs = [remote.remote(t) for t in tasks]
    index = {r: i for i, r in enumerate(refs)}
    out: list[Any] = [None] * len(refs)
    pending, done = list(refs), 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for r in ready:
            out[index[r]] = ray.get(r)
            done += 1
        if progress:
            progress(done)
    return out


__all__ = [
    "MatchResult",
    "PlayedHand",
    "default_workers",
    "derive_seed",
    "play_hand",
    "play_match",
    "play_out",
    "run_tasks",
    "run_tasks_ray",
    "save_record",
]
