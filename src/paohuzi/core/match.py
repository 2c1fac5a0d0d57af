"""房间 (fángjiān): a match of N hands with dealer rotation and running scores (R6, R38).

A race preset (R45 放炮罚, ``Rules.match = race``) plays until a running total
reaches ``race.target`` (or ``hands_per_match`` hands, a safety cap); its
:meth:`Match.final` is the pairwise settlement of the rounded totals.

Per-hand seeds come from the match seed alone, so a match replays exactly.
The dealer of the first hand is drawn from the match RNG (R6); afterwards the
winner deals; after a 荒庄 the dealer stays, and after
``Rules.huangzhuang.pass_after`` (3) 荒庄 in a row the dealer's 下家 deals. The
count of 荒庄 in a row is passed to each hand (黄番 presets multiply the next
win, see ``Rules.huangzhuang.fan``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card
from .result import HandResult
from .rules import HUNAN, MatchKind, RaceRule, Rules
from .state import GameState


class Match:
    """N hands of one table; ``scores`` accumulate (R38)."""

    def __init__(self, rules: Rules = HUNAN, seed: int | None = None, hands: int | None = None):
        self.rules = rules
        self.seed = seed
        self.hands = rules.hands_per_match if hands is None else hands
        rng = random.Random(seed)
        self.hand_seeds = [rng.getrandbits(63) for _ in range(self.hands)]
        self.dealer = rng.randrange(rules.players)
        self.scores = [0] * rules.players
        self.results: list[HandResult] = []
        self.huang = 0  # 荒庄 in a row (never reset by the dealer change)
        self.huang_in_row = 0  # 荒庄 in a row under the current dealer (R6)
        self.state: GameState | None = None

    @property
    def index(self) -> int:
        """Number of hands finished so far."""
        return len(self.results)

    def is_over(self) -> bool:
        if self.index >= self.hands:
            return True
        race = self.rules.race
        return self.rules.match == MatchKind.RACE and max(self.scores) >= race.target

    def final(self) -> list[int]:
        """What each seat wins or loses over the match: the running scores (R38) or, in a
        race (R45), each total rounded to ``race.round_to`` and settled pairwise —
        a seat receives Σ over every other seat of (own − other)."""
        if self.rules.match != MatchKind.RACE:
            return list(self.scores)
        return race_final(self.rules.race, self.scores)

    def transfers(self) -> list[tuple[int, int, int]]:
        """A race's final settlement pair by pair (R45): ``(payer, payee, amount)`` for
        every two seats whose rounded totals differ; each seat's sum is :meth:`final`."""
        if self.rules.match != MatchKind.RACE:
            return []
        return race_transfers(self.rules.race, self.scores)

    def new_hand(self, deck: Sequence[Card] | None = None, seed: int | None = None) -> GameState:
        """Deal the next hand (raises when the match is over or a hand is running);
        ``deck``: its recorded deck (a hand replayed from its record); ``seed``: the
        hand's own seed instead of the match's (a server deals from the OS random
        source, so no hand follows from another); it takes the match's place."""
        if self.is_over():
            raise RuntimeError("the match is over")
        if self.state is not None and not self.state.is_terminal():
            raise RuntimeError("finish the running hand first")
        if seed is not None:
            self.hand_seeds[self.index] = seed
        self.state = GameState(
            self.rules, self.hand_seeds[self.index], deck=deck, dealer=self.dealer, huang=self.huang
        )
        return self.state

    def finish_hand(self, state: GameState | None = None) -> HandResult:
        """Book a finished hand: scores, then the next dealer (R6)."""
        st = state or self.state
        if st is None or not st.is_terminal() or st.result is None:
            raise RuntimeError("the hand is not finished")
        if self.state is not None and st is not self.state:
            raise RuntimeError("not the running hand")
        res = st.result
        for i, v in enumerate(res.scores):
            self.scores[i] += v
        self.results.append(res)
        if res.winner is not None:
            self.dealer = res.winner
            self.huang = self.huang_in_row = 0
        else:
            self.huang += 1
            self.huang_in_row += 1
            limit = self.rules.huangzhuang.pass_after  # R6: 3; 0 = the dealer stays
            if limit and self.huang_in_row >= limit:
                self.dealer = (self.dealer + 1) % self.rules.players
                self.huang_in_row = 0
        return res


def race_final(race: RaceRule, totals: Sequence[int]) -> list[int]:
    """R45: each total rounded to ``race.round_to``; a seat receives Σ over every other
    seat of (own − other)."""
    r = [race.rounded(x) for x in totals]
    return [len(r) * x - sum(r) for x in r]


def race_transfers(race: RaceRule, totals: Sequence[int]) -> list[tuple[int, int, int]]:
    """R45 pair by pair: between every two seats, the one with the lower rounded total
    pays the difference to the other — ``(payer, payee, amount)``, lower seats first."""
    r = [race.rounded(x) for x in totals]
    out = []
    for i in range(len(r)):
        for j in range(i + 1, len(r)):
            if r[i] != r[j]:
                lo, hi = (i, j) if r[i] < r[j] else (j, i)
                out.append((lo, hi, abs(r[i] - r[j])))
    return out
