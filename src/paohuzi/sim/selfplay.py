"""自对弈 (zì duìyì): seeded, multiprocess self-play — the engine of ``paohuzi simulate``.

Game ``i`` of a run with seed ``S`` is dealt from a seed derived from (S, i)
alone and played by :func:`~paohuzi.sim.runner.play_hand` (each seat's bot gets
its own RNG derived from that seed), so the same ``--seed`` gives the same games
on any number of worker processes. With ``match=True`` game ``i`` is a whole
match (房间, R38) seeded by ``derive_seed("match", S, i)`` and played by
:func:`~paohuzi.sim.runner.play_match`: dealers rotate (R6) and each hand is
dealt with the real 荒庄 streak (``huang``, 黄番).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..core.player import Bot
from ..core.rules import Rules
from .runner import PlayedHand, derive_seed, play_hand, play_match, save_record


def outcome(h: PlayedHand) -> dict[str, Any]:
    """The summary facts of a finished hand."""
    return {
        "winner": h.winner,
        "di": h.di,
        "scores": h.scores,
        "mingtang": h.mingtang,
        "huang": h.huang,
    }


@dataclass(frozen=True)
class Job:
    rules: Rules
    seed: int
    bots: tuple[str, ...]
    indices: tuple[int, ...]  # games, or matches with ``match``
    records: str | None = None
    match: bool = False
    hands: int | None = None  # hands per match (None: the rules')


def record_name(match: int, hand: int, hands: int) -> str:
    """``match-000003-hand-02``: hands are numbered from 0, padded to sort in play order."""
    return f"match-{match:06d}-hand-{hand:0{max(2, len(str(hands - 1)))}d}"


def run_match(job: Job, i: int, bots: list[Bot]) -> dict[str, Any]:
    """Play match ``i`` of the run; its hands' outcomes in order and the match totals."""
    rec = bool(job.records)
    m = play_match(job.rules, derive_seed("match", job.seed, i), bots, job.hands, record=rec)
    if job.records:
        for k, h in enumerate(m.hands):
            save_record(job.records, record_name(i, k, len(m.hands)), h, job.bots)
    # "scores": what each seat wins over the match (R38; a race's pairwise settlement, R45)
    return {"hands": [outcome(h) for h in m.hands], "scores": m.final, "totals": m.scores}


def run_job(job: Job) -> list[tuple[int, dict[str, Any]]]:
    """Play the games (or matches) of one chunk (runs in a worker process)."""
    bots = [make_bot(spec) for spec in job.bots]
    out = []
    for i in job.indices:
        if job.match:
            out.append((i, run_match(job, i, bots)))
            continue
        h = play_hand(job.rules, derive_seed("game", job.seed, i), bots, record=bool(job.records))
        if job.records:
            save_record(job.records, f"hand-{i:06d}", h, job.bots)
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
    matches: int = 0  # whole matches (``--match``); 0 = lone hands
    match_score_sums: list[int] = field(default_factory=list)
    hands_by_huang: Counter[int] = field(default_factory=Counter)  # hands dealt after k 荒庄

    def __post_init__(self) -> None:
        self.wins_by_seat = [0] * self.players
        self.score_sums = [0] * self.players
        self.match_score_sums = [0] * self.players

    def add_match(self, o: dict[str, Any]) -> None:
        self.matches += 1
        for h in o["hands"]:
            self.add(h)
            self.hands_by_huang[h["huang"]] += 1
        for s, v in enumerate(o["scores"]):
            self.match_score_sums[s] += v

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
            **(self._match_dict() if self.matches else {}),
        }

    def _match_dict(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "mean_match_score_by_seat": [round(v / self.matches, 4) for v in self.match_score_sums],
            "hands_by_huang": {str(k): v for k, v in sorted(self.hands_by_huang.items())},
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
    match: bool = False,
    hands_per_match: int | None = None,
) -> Summary:
    """Play ``games`` hands, or ``games`` whole matches with ``match``;
    ``progress(n)`` is called as chunks of n games (matches) finish."""
    workers = workers or os.cpu_count() or 1
    if records:
        Path(records).mkdir(parents=True, exist_ok=True)
    summary = Summary(rules.players)
    outcomes: dict[int, dict[str, Any]] = {}
    jobs = [
        Job(rules, seed, tuple(bots), idx, records, match, hands_per_match)
        for idx in chunks(games, workers)
    ]
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
        if match:
            summary.add_match(outcomes[i])
        else:
            summary.add(outcomes[i])
    return summary
