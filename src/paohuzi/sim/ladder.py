"""天梯 (tiāntī): a round-robin of players in the arena, rated with TrueSkill.

Every ordered pair (A, B) of players plays one arena (:func:`.arena.evaluate`):
A at one seat against B at the others, on ``hands`` hands of rotated decks,
the same decks (``seed``) for every pair. Both orders are played, so each
player is once the lone seat and once the field.

Each of the lone seat's hands is one game of A against the field B: won if A's
net score is positive, lost if negative, drawn at zero (a 荒庄, or a hand whose
payments pass A by). TrueSkill (Herbrich et al. 2007, the ``trueskill``
package) rates all these games, interleaved hand by hand across pairs so that
no pair comes last, with ``tau = 0`` (a bot's skill does not drift) and the
draw probability observed in the games. A player's 95 % interval is
μ ± 1.96 σ; the ladder is ordered by the conservative μ − 3σ, as TrueSkill
leaderboards are. Beside the ratings the ladder keeps each pair's mean score
per hand with the arena's cluster 95 % interval: the ratings order players,
the scores say by how much.

A ladder is stored as JSON (:meth:`Ladder.to_json`); :func:`place` plays one
new player against every stored one with the stored budget and rates again —
how a researcher's policy (``module:attr``) is put on the ladder.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import variants
from ..core.rules import Rules
from .arena import evaluate

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Pairing:
    """One arena: ``lone`` at one seat against ``field`` at the others."""

    lone: str
    field: str
    scores: tuple[int, ...]  # the lone seat's net score, hand by hand (deck, rotation)
    mean: float
    ci95: tuple[float | None, float | None]
    decision_ms: float  # the lone seat's mean time per decision

    def to_json(self) -> dict[str, Any]:
        return {
            "lone": self.lone,
            "field": self.field,
            "mean": self.mean,
            "ci95": list(self.ci95),
            "decision_ms": self.decision_ms,
            "scores": list(self.scores),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Pairing:
        lo, hi = d["ci95"]
        return cls(
            str(d["lone"]),
            str(d["field"]),
            tuple(int(x) for x in d["scores"]),
            float(d["mean"]),
            (lo, hi),
            float(d["decision_ms"]),
        )


@dataclass(frozen=True, slots=True)
class Rating:
    player: str
    mu: float
    sigma: float
    games: int
    mean_score: float  # per hand as the lone seat, over every opponent

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(slots=True)
class Ladder:
    rules: str
    hands: int
    seed: int
    players: list[str]
    pairings: list[Pairing] = field(default_factory=list)

    def pairing(self, lone: str, field_: str) -> Pairing | None:
        for p in self.pairings:
            if (p.lone, p.field) == (lone, field_):
                return p
        return None

    def ratings(self) -> list[Rating]:
        """TrueSkill over every game, best (highest μ − 3σ) first."""
        return rate(self.players, self.pairings)

    def to_json(self) -> dict[str, Any]:
        return {
            "method": "trueskill",
            "rules": self.rules,
            "hands": self.hands,
            "seed": self.seed,
            "players": list(self.players),
            "ratings": [
                {
                    "player": r.player,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "ci95": list(r.ci95),
                    "conservative": r.conservative,
                    "games": r.games,
                    "mean_score": r.mean_score,
                }
                for r in self.ratings()
            ],
            "pairings": [p.to_json() for p in self.pairings],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Ladder:
        try:
            return cls(
                str(d["rules"]),
                int(d["hands"]),
                int(d["seed"]),
                [str(p) for p in d["players"]],
                [Pairing.from_json(p) for p in d["pairings"]],
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a ladder file: {e!r}") from None


def rate(players: Sequence[str], pairings: Sequence[Pairing]) -> list[Rating]:
    """TrueSkill ratings from the lone seats' hands (see the module doc)."""
    import trueskill

    games = [(k, i, p) for i, p in enumerate(pairings) for k in range(len(p.scores))]
    draws = sum(pairings[i].scores[k] == 0 for k, i, _ in games)
    p_draw = min(max(draws / len(games), 0.01), 0.9) if games else 0.1
    env = trueskill.TrueSkill(draw_probability=p_draw, tau=0.0)
    r = {name: env.create_rating() for name in players}
    count = dict.fromkeys(players, 0)
    total = dict.fromkeys(players, 0)
    for k, _i, p in sorted(games, key=lambda g: (g[0], g[1])):  # hand by hand across pairs
        s = p.scores[k]
        a, b = r[p.lone], r[p.field]
        if s > 0:
            r[p.lone], r[p.field] = trueskill.rate_1vs1(a, b, env=env)
        elif s < 0:
            r[p.field], r[p.lone] = trueskill.rate_1vs1(b, a, env=env)
        else:  # (the global function: ``env.rate_1vs1`` is deprecated since trueskill 0.4)
            r[p.lone], r[p.field] = trueskill.rate_1vs1(a, b, drawn=True, env=env)
        count[p.lone] += 1
        count[p.field] += 1
        total[p.lone] += s
    lone_hands = {name: sum(len(p.scores) for p in pairings if p.lone == name) for name in players}
    out = [
        Rating(
            name,
            r[name].mu,
            r[name].sigma,
            count[name],
            total[name] / lone_hands[name] if lone_hands[name] else math.nan,
        )
        for name in players
    ]
    return sorted(out, key=lambda x: -x.conservative)


def play_pair(
    lone: str, field_: str, hands: int, seed: int, rules: Rules, workers: int | None
) -> Pairing:
    res = evaluate(lone, field_, hands, seed, rules, workers)
    st = res.stats[lone]
    lo, hi = st.ci95()
    ms = 1000 * st.think / st.decisions if st.decisions else 0.0
    return Pairing(lone, field_, tuple(st.scores), st.mean, (lo, hi), ms)


def run_ladder(
    players: Sequence[str],
    hands: int,
    seed: int = 0,
    rules: str = "hunan",
    workers: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Ladder:
    """Every ordered pair of ``players`` (bot specs or ``module:attr``) in the arena."""
    names = list(dict.fromkeys(p.strip() for p in players if p.strip()))
    if len(names) < 2:
        raise ValueError("a ladder needs at least two players")
    if hands < 1:
        raise ValueError("hands must be at least 1")
    r = variants.parse(rules)
    ladder = Ladder(rules, hands, seed, names)
    for a in names:
        for b in names:
            if a != b:
                if progress:
                    progress(f"{a} vs {b}")
                ladder.pairings.append(play_pair(a, b, hands, seed, r, workers))
    return ladder


def place(
    ladder: Ladder,
    player: str,
    workers: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Ladder:
    """``ladder`` with ``player`` added: it plays every stored player, both orders,
    on the ladder's own hands, seed and rules (a player already on it is replayed)."""
    player = player.strip()
    r = variants.parse(ladder.rules)
    others = [p for p in ladder.players if p != player]
    if not others:
        raise ValueError("the ladder has no one to play against")
    kept = [p for p in ladder.pairings if player not in (p.lone, p.field)]
    out = Ladder(ladder.rules, ladder.hands, ladder.seed, [*others, player], kept)
    for o in others:
        for a, b in ((player, o), (o, player)):
            if progress:
                progress(f"{a} vs {b}")
            out.pairings.append(play_pair(a, b, ladder.hands, ladder.seed, r, workers))
    return out


__all__ = ["Ladder", "Pairing", "Rating", "place", "rate", "run_ladder"]
