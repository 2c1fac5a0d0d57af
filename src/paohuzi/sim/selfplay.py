"""自对弈 (zì duìyì): seeded, multiprocess self-play — the engine of ``paohuzi simulate``.

Game ``i`` of a run with seed ``S`` is dealt from a seed derived from (S, i)
alone and played by :func:`~paohuzi.sim.runner.play_hand` (each seat's bot gets
its own RNG derived from that seed), so the same ``--seed`` gives the same games
on any number of worker processes.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..core.rules import Rules
from .runner import HandResult, derive_seed, play_hand


def outcome(h: HandResult) -> dict[str, Any]:
    """The summary facts of a finished hand."""
    return {"winner": h.winner, "di": h.di, "scores": h.scores, "mingtang": h.mingtang}


@dataclass(frozen=True)
class Job:
    rules: Rules
    seed: int
    bots: tuple[str, ...]
    indices: tuple[int, ...]
    records: str | None = None


def run_job(job: Job) -> list[tuple[int, dict[str, Any]]]:
    """Play the games of one chunk (runs in a worker process)."""
    bots = [make_bot(spec) for spec in job.bots]
    out = []
    for i in job.indices:
        h = play_hand(job.rules, derive_seed("game", job.seed, i), bots, record=bool(job.records))
        if job.records:
            path = Path(job.records) / f"hand-{i:06d}.json"
            path.write_text(json.dumps(h.record, ensure_ascii=False), encoding="utf-8")
        out.append((i, outcome(h)))
    return out


@dataclass
class Summary:
    """What ``paohuzi simulate --json`` prints (INTERFACES.md §2)."""

    players: int
    games: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    draws: int = 0
    mingtang_counts: Counter[str] = field(default_factory=Counter)
    total_di: int = 0
    score_sums: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.wins_by_seat = [0] * self.players
        self.score_sums = [0] * self.players

    def add(self, o: dict[str, Any]) -> None:
        self.games += 1
        if o["winner"] is None:
            self.draws += 1
        else:
            self.wins_by_seat[o["winner"]] += 1
            self.total_di += o["di"]
            self.mingtang_counts.update(o["mingtang"])
        for s, v in enumerate(o["scores"]):
            self.score_sums[s] += v

    def to_dict(self) -> dict[str, Any]:
        wins = self.games - self.draws
        return {
            "games": self.games,
            "wins_by_seat": self.wins_by_seat,
            "draws": self.draws,
            "mingtang_counts": dict(sorted(self.mingtang_counts.items())),
            "mean_di": round(self.total_di / wins, 4) if wins else 0.0,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else 0.0,
            "mean_score_by_seat": [
                round(v / self.games, 4) if self.games else 0.0 for v in self.score_sums
            ],
        }


def chunks(games: int, workers: int) -> Iterator[tuple[int, ...]]:
    size = max(1, min(200, games // (workers * 8) or 1))
    for start in range(0, games, size):
        yield tuple(range(start, min(games, start + size)))


def simulate(
    rules: Rules,
    games: int,
    seed: int,
    bots: list[str],
    workers: int | None = None,
    records: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` hands; ``progress(n)`` is called as chunks of n games finish."""
    workers = workers or os.cpu_count() or 1
    if records:
        Path(records).mkdir(parents=True, exist_ok=True)
    summary = Summary(rules.players)
    outcomes: dict[int, dict[str, Any]] = {}
    jobs = [Job(rules, seed, tuple(bots), idx, records) for idx in chunks(games, workers)]
    t0 = time.perf_counter()
    if workers == 1:
        results: Iterator[list[tuple[int, dict[str, Any]]]] = map(run_job, jobs)
        for res in results:
            outcomes.update(res)
            if progress:
                progress(len(res))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for res in pool.map(run_job, jobs):
                outcomes.update(res)
                if progress:
                    progress(len(res))
    summary.seconds = time.perf_counter() - t0
    for i in range(games):  # add in game order: identical sums whatever the workers
        summary.add(outcomes[i])
    return summary
