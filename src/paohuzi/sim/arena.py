"""擂台 (lèitái): bot strength on shared decks (INTERFACES.md §6).

The bot list is padded to the table size with its last bot (``ismcts,greedy``
at three seats is one ismcts against two greedy). Every deck is played once per
rotation of that lineup around the seats, so each bot plays each seat — dealer
included — on the same cards, which cancels most of the luck of the deal.

A deck and all its rotations form one task; a bot's mean score is pooled over
all its seat-hands and its 95 % interval treats each deck as one independent
cluster (the rotations of a deck are correlated). Seeds: deck ``i`` is dealt
from ``derive_seed(seed, i)``, bots draw from ``derive_seed(deck seed, rotation)``,
so a result depends on the seed alone, never on the number of workers.

With ``records`` each hand's §4 record is written by the worker that played it
as ``deck-000003-rot-1.json`` (deck 3, rotation 1), with the bot at each seat
under ``bots``.

Whole matches (``matches``; what a race preset plays, R45): a "deck" is a match
seed, and every rotation of the lineup plays the whole match from it — the same
first dealer and the same hand seeds, so each hand index deals the same cards as
long as the dealers agree — to its end (a race: until a total reaches the target,
or the safety cap). A seat-match then counts as one sample: its score is what the
seat wins over the match (a race's pairwise final settlement, ``Match.final``),
a win is finishing with the highest total, and ``mean_huxi_of_wins`` is the
winners' mean running total. Every match is reported (``per_match``); records
are ``deck-000003-rot-1-hand-02.json``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots.policy import Policy, as_bot
from ..core import variants
from ..core.player import Bot
from ..core.rules import MatchKind, Rules
from .runner import derive_seed, play_hand, play_match, run_tasks, run_tasks_ray, save_record

Z95 = 1.959963984540054


def lineup(bots: Sequence[str], players: int) -> list[str]:
    """The seat-0 lineup: ``bots`` padded with its last bot to ``players`` seats."""
    names = [b.strip() for b in bots if b.strip()]
    if not names:
        raise ValueError("no bots given")
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} seats")
    return names + [names[-1]] * (players - len(names))


def rotations(line: Sequence[str]) -> list[tuple[str, ...]]:
    """Every rotation of the lineup: rotation r puts ``line[(s + r) % n]`` at seat s."""
    n = len(line)
    return [tuple(line[(s + r) % n] for s in range(n)) for r in range(n)]


@dataclass(frozen=True, slots=True)
class DeckTask:
    rules: Rules
    lineup: tuple[str, ...]
    seed: int
    index: int
    records: str | None = None  # directory for one §4 record per hand
    matches: bool = False  # whole matches per rotation (a race preset's unit, R45)


@dataclass(slots=True)
class SeatHand:
    """One bot at one seat in one hand."""

    bot: str
    score: int
    won: bool
    huxi: int
    decisions: int
    think: float


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One whole match of the arena: which bot sat where, its hands, the running totals
    and what each seat won over it (a race's pairwise settlement, R45)."""

    deck: int
    rotation: int
    seating: tuple[str, ...]
    hands: int
    totals: tuple[int, ...]
    final: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "rotation": self.rotation,
            "bots": list(self.seating),
            "hands": self.hands,
            "totals": list(self.totals),
            "final": list(self.final),
        }


@dataclass(slots=True)
class DeckResult:
    index: int
    hands: int
    draws: int
    seats: list[SeatHand]
    matches: list[MatchLine] = field(default_factory=list)


_BOTS: dict[str, Bot] = {}


def _bot(spec: str) -> Bot:
    # Bots are stateless between decisions; one instance per spec and process.
    # A spec is a bot spec or ``module:attr`` (bots.policy.as_bot), or the name
    # under which evaluate() put a live player object.
    b = _BOTS.get(spec)
    if b is None:
        b = _BOTS[spec] = as_bot(spec)
    return b


def play_deck(task: DeckTask) -> DeckResult:
    """Play deck ``task.index`` under every rotation of the lineup."""
    deck_seed = derive_seed("arena", task.seed, task.index)
    out = DeckResult(task.index, 0, 0, [])
    if task.matches:
        return _play_matches(task, deck_seed, out)
    for r, seating in enumerate(rotations(task.lineup)):
        res = play_hand(
            task.rules,
            deck_seed,
            [_bot(s) for s in seating],
            bot_seed=derive_seed("bots", deck_seed, r),
            record=task.records is not None,
        )
        if task.records is not None:
            save_record(task.records, f"deck-{task.index:06d}-rot-{r}", res, seating)
        out.hands += 1
        out.draws += res.huangzhuang
        for s in res.seats:
            won = res.winner == s
            out.seats.append(
                SeatHand(
                    seating[s],
                    res.scores[s],
                    won,
                    res.huxi if won else 0,
                    res.decisions[s],
                    res.think[s],
                )
            )
    return out


def _play_matches(task: DeckTask, match_seed: int, out: DeckResult) -> DeckResult:
    """Match ``task.index`` played whole under every rotation of the lineup."""
    for r, seating in enumerate(rotations(task.lineup)):
        m = play_match(
            task.rules, match_seed, [_bot(s) for s in seating], record=task.records is not None
        )
        if task.records is not None:
            for k, h in enumerate(m.hands):
                name = f"deck-{task.index:06d}-rot-{r}-hand-{k:02d}"
                save_record(task.records, name, h, seating)
        out.hands += len(m.hands)
        out.draws += sum(h.result.huangzhuang for h in m.hands)
        top = max(m.scores)
        for s in range(len(seating)):
            won = m.scores[s] == top
            out.seats.append(
                SeatHand(
                    seating[s],
                    m.final[s],
                    won,
                    m.scores[s] if won else 0,
                    sum(h.decisions[s] for h in m.hands),
                    sum(h.think[s] for h in m.hands),
                )
            )
        line = MatchLine(task.index, r, seating, len(m.hands), tuple(m.scores), tuple(m.final))
        out.matches.append(line)
    return out


@dataclass(slots=True)
class BotStats:
    name: str
    seat_hands: int = 0
    total: float = 0.0
    wins: int = 0
    huxi_wins: int = 0
    decisions: int = 0
    think: float = 0.0
    scores: list[int] = field(default_factory=list)
    per_deck: list[tuple[float, int]] = field(default_factory=list)  # (sum, n) per deck

    @property
    def mean(self) -> float:
        return self.total / self.seat_hands if self.seat_hands else 0.0

    def ci95(self) -> list[float | None]:
        """Cluster (per-deck) ratio-estimator interval for the mean score per hand."""
        d = len(self.per_deck)
        if d < 2 or not self.seat_hands:
            return [None, None]
        m = self.mean
        ss = sum((s - m * n) ** 2 for s, n in self.per_deck)
        se = math.sqrt(ss * d / (d - 1)) / self.seat_hands
        return [m - Z95 * se, m + Z95 * se]


@dataclass(slots=True)
class ArenaResult:
    hands: int
    decks: int
    draws: int
    lineup: tuple[str, ...]
    stats: dict[str, BotStats]
    matches: list[MatchLine] | None = None  # whole matches: each one, in order

    @property
    def draw_rate(self) -> float:
        return self.draws / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, Any]:
        """Exactly the object of INTERFACES.md §6."""
        bots = {}
        for name, b in self.stats.items():
            bots[name] = {
                "mean_score": b.mean,
                "ci95": b.ci95(),
                "win_rate": b.wins / b.seat_hands if b.seat_hands else 0.0,
                "mean_huxi_of_wins": b.huxi_wins / b.wins if b.wins else None,
                "decision_ms": 1000 * b.think / b.decisions if b.decisions else 0.0,
            }
        out: dict[str, Any] = {"hands": self.hands, "draw_rate": self.draw_rate, "bots": bots}
        if self.matches is not None:  # whole matches: the unit of the scores above
            out["matches"] = len(self.matches)
            out["per_match"] = [m.to_json() for m in self.matches]
        return out


def aggregate(
    results: Sequence[DeckResult], line: Sequence[str], matches: bool = False
) -> ArenaResult:
    """Pool deck results (in deck order, so sums are the same whatever W)."""
    stats = {name: BotStats(name) for name in dict.fromkeys(line)}
    hands = draws = 0
    lines: list[MatchLine] = []
    for dr in sorted(results, key=lambda r: r.index):
        hands += dr.hands
        draws += dr.draws
        lines += dr.matches
        deck: dict[str, list[float]] = {}
        for sh in dr.seats:
            b = stats[sh.bot]
            b.seat_hands += 1
            b.total += sh.score
            b.scores.append(sh.score)
            b.wins += sh.won
            b.huxi_wins += sh.huxi
            b.decisions += sh.decisions
            b.think += sh.think
            acc = deck.setdefault(sh.bot, [0.0, 0])
            acc[0] += sh.score
            acc[1] += 1
        for name, (s, n) in deck.items():
            stats[name].per_deck.append((s, int(n)))
    return ArenaResult(hands, len(results), draws, tuple(line), stats, lines if matches else None)


def decks_for(hands: int, players: int) -> int:
    """Decks needed for at least ``hands`` hands when each deck is played ``players`` times."""
    return max(1, -(-hands // players))


def run_arena(
    bots: Sequence[str],
    hands: int,
    rules: Rules,
    seed: int = 0,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Callable[[int], None] | None = None,
    records: str | None = None,
    matches: bool = False,
) -> ArenaResult:
    """Play ``hands`` hands (rounded up to whole rotations) and pool the results;
    with ``matches``, ``hands`` counts whole matches (rounded up the same way).

    Bot specs are validated here, in the parent, before any worker starts.
    ``records``: a directory (created here) for one §4 record per hand; on Ray
    it must be a path the workers share.
    """
    line = lineup(bots, rules.players)
    for spec in dict.fromkeys(line):
        _bot(spec)
    if records is not None:
        Path(records).mkdir(parents=True, exist_ok=True)
    tasks = [
        DeckTask(rules, tuple(line), seed, i, records, matches)
        for i in range(decks_for(hands, rules.players))
    ]
    if ray_address:
        results = run_tasks_ray(play_deck, tasks, ray_address, progress)
    else:
        results = run_tasks(play_deck, tasks, workers, progress)
    return aggregate(results, line, matches)


Player = str | Bot | Policy


def _name_for(player: Player, live: dict[str, Bot], specs: set[str]) -> str:
    """A lineup name: a spec as it is; a live object under its bot name, made
    unique among this evaluation's objects and specs."""
    if isinstance(player, str):
        return player.strip()
    bot = as_bot(player)
    for k, b in live.items():
        if b is bot:
            return k
    name, n = bot.name, 1
    while name in live or name in specs:
        n += 1
        name = f"{bot.name}#{n}"
    live[name] = bot
    return name


def evaluate(
    policy: Player,
    opponents: Player | Sequence[Player] = "greedy",
    hands: int = 3000,
    seed: int = 0,
    rules: str | Rules = "hunan",
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Callable[[int], None] | None = None,
    records: str | None = None,
    matches: bool | None = None,
) -> ArenaResult:
    """擂台 as a function: ``policy`` against ``opponents`` on rotated decks.

    Exactly what ``paohuzi arena --bots POLICY,OPPONENTS…`` computes (the CLI
    calls this): every deck played once per rotation of the lineup, the same
    per-deck cluster 95 % intervals (``result.stats[name].ci95()``,
    ``result.to_json()``). ``policy`` and each opponent are a bot spec
    (``"greedy"``, ``"ismcts:iters=8"``), ``"module:attr"`` (imported in each
    worker), a ``Bot``, or a policy ``f(observation, mask) -> index``
    (:mod:`paohuzi.bots.policy`). Too few opponents: the last one fills the
    table. Live objects cannot be sent to other processes, so with any of
    them the hands are played here, on one process (``workers`` ignored, Ray
    refused). Results are keyed by lineup name: a spec, or a live object's bot
    name (``policy`` for a bare callable, ``#2`` appended on a clash).
    With ``matches`` (the default for a race preset, R45) ``hands`` counts whole
    matches, as ``arena --matches``.
    """
    r = variants.parse(rules) if isinstance(rules, str) else rules
    opps: list[Player]
    if isinstance(opponents, (str, Bot)) or callable(opponents):
        opps = [opponents]
    else:
        opps = list(opponents)
    live: dict[str, Bot] = {}
    specs = {p.strip() for p in (policy, *opps) if isinstance(p, str)}
    names = [_name_for(p, live, specs) for p in (policy, *opps)]
    if live and ray_address:
        raise ValueError("live policy objects cannot run on Ray: pass them as module:attr")
    shadowed = {k: _BOTS[k] for k in live if k in _BOTS}  # a spec's cached bot, same name
    _BOTS.update(live)
    try:
        return run_arena(
            names,
            hands,
            r,
            seed,
            1 if live else workers,
            ray_address,
            progress,
            records,
            matches=r.match == MatchKind.RACE if matches is None else matches,
        )
    finally:
        for k in live:
            _BOTS.pop(k, None)
        _BOTS.update(shadowed)


__all__ = [
    "ArenaResult",
    "BotStats",
    "DeckTask",
    "MatchLine",
    "Player",
    "aggregate",
    "decks_for",
    "evaluate",
    "lineup",
    "play_deck",
    "rotations",
    "run_arena",
]
