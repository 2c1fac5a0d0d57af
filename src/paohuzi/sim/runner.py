"""对局 (duìjú): play seeded hands and matches between bots, and map work over processes.

:func:`play_out` is the single loop every self-play tool shares: ask the seat
to act (``current_player``, highest priority first in a claim window) for an
action through its :class:`~paohuzi.bots.base.Observation`, apply, until the
hand is over. :func:`play_hand` deals a lone hand with ``GameState(rules,
seed)``; :func:`play_match` lets :class:`~paohuzi.core.match.Match` deal each
hand (dealer rotation R6, 荒庄 streak ``huang`` R38). Each seat gets its own RNG
derived from ``bot_seed`` and the seat, so results depend on the seeds alone —
not on process, order of execution or worker count.

:func:`run_tasks` maps a picklable function over tasks on W processes and
returns the results in task order (same inputs ⇒ same outputs, whatever W).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..bots.base import Bot, Observation
from ..core.match import Match
from ..core.records import record as make_record
from ..core.rules import Rules
from ..core.state import GameState

T = TypeVar("T")
R = TypeVar("R")


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across processes and Python runs)."""
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


@dataclass(slots=True)
class HandResult:
    """What one hand produced, per seat where it applies."""

    seed: int | None  # the deal's seed (None: an unseeded state)
    dealer: int
    seats: tuple[int, ...]  # the seats dealt in (a 坐底 seat sits out)
    scores: list[int]
    winner: int | None
    huxi: int  # the winner's 胡息 (0 on 荒庄)
    di: int
    decisions: list[int]  # act() calls per seat
    think: list[float]  # seconds spent in act() per seat
    record: dict[str, Any] | None = field(default=None)
    mingtang: list[str] = field(default_factory=list)  # names of the winner's 名堂
    huang: int = 0  # 荒庄 in a row before this hand (黄番)

    @property
    def huangzhuang(self) -> bool:
        return self.winner is None


def play_hand(
    rules: Rules,
    seed: int,
    bots: Sequence[Bot],
    bot_seed: int | None = None,
    record: bool = False,
) -> HandResult:
    """Play the hand dealt by ``seed`` with ``bots[seat]`` at each seat.

    A bot returning an illegal action raises the engine's ``IllegalAction``.
    """
    return play_out(GameState(rules, seed=seed), bots, bot_seed, record)


def play_out(
    st: GameState,
    bots: Sequence[Bot],
    bot_seed: int | None = None,
    record: bool = False,
) -> HandResult:
    """Play the dealt hand ``st`` to its end; bots draw from ``bot_seed`` (default: its seed)."""
    n = st.n
    if len(bots) != n:
        raise ValueError(f"{n} seats need {n} bots, got {len(bots)}")
    base = st.seed if bot_seed is None else bot_seed
    rngs = [random.Random(derive_seed("bot", base, s)) for s in range(n)]
    decisions = [0] * n
    think = [0.0] * n
    clock = time.perf_counter
    while not st.is_terminal():
        seat = st.current_player
        t0 = clock()
        action = bots[seat].act(Observation(st, seat), rngs[seat])
        think[seat] += clock() - t0
        decisions[seat] += 1
        st.apply(action)
    res = st.result or {}
    return HandResult(
        seed=st.seed,
        dealer=st.dealer,
        seats=tuple(st.seats),
        scores=st.returns(),
        winner=res.get("winner"),
        huxi=int(res.get("huxi") or 0),
        di=int(res.get("di") or 0),
        decisions=decisions,
        think=think,
        record=make_record(st) if record else None,
        mingtang=[m["name"] for m in res.get("mingtang", [])],
        huang=st.huang,
    )


@dataclass(slots=True)
class MatchResult:
    """房间 (fángjiān): the hands of one match in order and the match totals (R38)."""

    seed: int
    hands: list[HandResult]
    scores: list[int]


def play_match(
    rules: Rules,
    seed: int,
    bots: Sequence[Bot],
    hands: int | None = None,
    record: bool = False,
) -> MatchResult:
    """Play a whole match (``hands`` hands, default ``rules.hands_per_match``).

    :class:`~paohuzi.core.match.Match` deals every hand, so dealers and the
    ``huang`` streak follow R6/R38 exactly as at a real table.
    """
    m = Match(rules, seed, hands)
    out = []
    while not m.is_over():
        st = m.new_hand()
        out.append(play_out(st, bots, record=record))
        m.finish_hand(st)
    return MatchResult(seed, out, list(m.scores))


def save_record(directory: str, name: str, h: HandResult, bots: Sequence[str]) -> None:
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
    "HandResult",
    "MatchResult",
    "default_workers",
    "derive_seed",
    "play_hand",
    "play_match",
    "play_out",
    "run_tasks",
    "run_tasks_ray",
    "save_record",
]
