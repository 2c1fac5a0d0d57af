"""搜索 (sōusuǒ): determinized Monte-Carlo search (PIMC / flat ISMCTS).

For a decision with several legal actions the bot keeps greedy's ``top`` best
candidates within ``margin`` of greedy's best value, then, ``iters`` times,
draws a world consistent with its view (``obs.determinize``, the engine's
resample) and plays every candidate out to the end of the hand in that same
world (common random numbers: candidates are compared on identical hidden
cards and walls). Every seat plays the rollouts with a fast static policy; a
rollout is worth the seat's net score (``returns()``) plus ``eps`` per 胡息
held at the end, a small tiebreak for the hands that end in 荒庄. Rollout
values are noisy (a win is worth tens of points), so greedy's choice stands
unless another candidate's mean *paired* gain over it exceeds ``z`` standard
errors. 胡 is always taken.

The rollout policy reads the determinized world's holdings directly: that
world is a sample drawn from the seat's view, not the true state.

Budget: ``iters`` worlds (deterministic for a given RNG); ``time_ms`` > 0 adds
a wall-clock cap, which makes the result depend on machine speed. ``cancel``
(anything with ``is_set()``, e.g. a ``threading.Event`` or a
``multiprocessing.Event``) stops the search between worlds, e.g. when a server
shuts down; the best choice so far (greedy's, before any world) stands. While
neither the cap nor the flag is hit, results are those of ``iters`` alone.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Protocol

from ..core.actions import HU, PASS, PENG, Action
from ..core.evaluator import BIT
from ..core.melds import Group
from ..core.player import Bot, NoConsistentWorld, Observation
from ..core.rules import Rules
from ..core.state import DISCARDING, GameState
from ..table import playout
from . import register
from .greedy import GreedyBot, obvious
from .heuristics import HandValue, Weights, discard_kinds, meld_key


class CancelFlag(Protocol):
    """取消 (qǔxiāo): a flag another thread or process may raise (``threading.Event``)."""

    def is_set(self) -> bool: ...


@lru_cache(maxsize=4096)
def _key(g: Group) -> int:
    return g.key


class RolloutPolicy:
    """A cheap greedy for every seat of a *determinized* world (no 听牌 lookahead
    for 吃/碰, no danger): 胡 if possible, else the best static value."""

    def __init__(self, rules: Rules, weights: Weights | None = None):
        self.hv = HandValue(rules, weights)

    def act(self, st: GameState, seat: int) -> Action:
        legal = st.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        for a in legal:
            if a.type == HU:
                return a
        hv = self.hv
        packed, tsum = st.packed_hand(seat), st.table_summary(seat)
        best, best_v = legal[0], -1e18
        if st.phase == DISCARDING:
            for a in legal:
                v = hv.static(packed - BIT[int(a.card)], tsum)  # type: ignore[arg-type]
                if v > best_v:
                    best, best_v = a, v
            return best
        must = st.held(seat) + 1 > st.need(seat)
        keys: tuple[int, ...] | None = None
        for a in legal:
            if a.type == PASS:
                v = hv.static(packed, tsum)
            else:
                c = int(a.card)  # type: ignore[arg-type]
                if keys is None:
                    keys = tuple(_key(g) for g in st.table(seat))
                if a.type == PENG:
                    p2, k2 = packed - 2 * BIT[c], (*keys, meld_key("peng", (c, c, c)))
                else:
                    p2, k2 = packed + BIT[c], keys
                    for g in a.groups:
                        for x in g:
                            p2 -= BIT[x]
                        k2 = (*k2, meld_key("chi", tuple(int(x) for x in g)))
                t2 = hv.ev.summarize(k2)
                if must:
                    ds = discard_kinds(p2)  # none: only 王 left (R39)
                    v = max((hv.static(p2 - BIT[d], t2, False) for d in ds), default=0.0)
                else:
                    v = hv.static(p2, t2, False)
            if v > best_v:
                best, best_v = a, v
        return best


@register
class IsmctsBot(Bot):
    """ismcts: determinized search over greedy's best candidates.

    Options: ``iters`` (worlds sampled per decision), ``top`` (candidates kept),
    ``margin`` (greedy value gap beyond which greedy's choice stands unsearched),
    ``z`` (a candidate replaces greedy's choice only if its mean paired gain is
    above ``z`` standard errors), ``time_ms`` (optional wall-clock cap per
    decision, 0 = none), ``eps`` (胡息 tiebreak per point). ``cancel`` is set as an
    attribute (it is no option of a bot spec): a raised flag ends every search.
    """

    name = "ismcts"

    def __init__(
        self,
        iters: int = 16,
        top: int = 3,
        margin: float = 8.0,
        z: float = 1.5,
        time_ms: float = 0,
        eps: float = 0.02,
    ):
        if int(iters) < 2 or int(top) < 1:
            raise TypeError("iters must be ≥ 2 and top ≥ 1")
        self.iters, self.top = int(iters), int(top)
        self.margin, self.z = float(margin), float(z)
        self.time_ms, self.eps = float(time_ms), float(eps)
        self.greedy = GreedyBot()
        self._policies: dict[Rules, RolloutPolicy] = {}
        self.cancel: CancelFlag | None = None
        self.last_worlds = 0  # worlds played out by the last search (for tests and budgets)

    def policy(self, rules: Rules) -> RolloutPolicy:
        p = self._policies.get(rules)
        if p is None:
            p = self._policies[rules] = RolloutPolicy(rules)
        return p

    def candidates(self, obs: Observation) -> list[Action]:
        """Greedy's best ``top`` actions within ``margin`` of its best, best first."""
        ranked = self.greedy.ranked(obs)
        best = ranked[0].value
        return [ch.action for ch in ranked[: self.top] if ch.value >= best - self.margin]

    def search(self, obs: Observation, cands: list[Action], rng: random.Random) -> list[Stat]:
        """Paired rollout statistics of every candidate against ``cands[0]``."""
        seat, pol, eps = obs.seat, self.policy(obs.rules), self.eps
        stats = [Stat() for _ in cands]
        deadline = time.perf_counter() + self.time_ms / 1000 if self.time_ms > 0 else None
        cancel = self.cancel
        self.last_worlds = 0
        for _ in range(self.iters):
            if cancel is not None and cancel.is_set():
                break  # checked before each world: a raised flag costs at most one world
            try:
                world = obs.determinize(rng)
            except NoConsistentWorld:
                continue  # never search the true state (it would leak hidden cards)
            vals = []
            for a in cands:
                w = world.clone()
                w.apply(a)
                playout(w, pol.act)
                v: float = w.returns()[seat]
                if eps:
                    v += eps * w.current_huxi(seat)
                vals.append(v)
            for st, v in zip(stats, vals, strict=True):
                st.add(v, v - vals[0])
            self.last_worlds += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return stats

    def act(self, obs: Observation, rng: random.Random) -> Action:
        sure = obvious(obs.legal, obs.view)
        if sure is not None:
            return sure
        cands = self.candidates(obs)
        if len(cands) == 1:
            return cands[0]
        return self.choose(cands, self.search(obs, cands, rng))

    def choose(self, cands: list[Action], stats: list[Stat]) -> Action:
        """The candidate with the largest gain over the first that is ``z`` standard
        errors clear of zero; the first (greedy's best) when none is."""
        best, gain = cands[0], 0.0
        for a, st in zip(cands, stats, strict=True):
            if st.gain() > gain and st.gain() > self.z * st.gain_se():
                best, gain = a, st.gain()
        return best


class Stat:
    """Running sums of rollout values and of paired gains over the first candidate."""

    __slots__ = ("n", "s", "sd", "sd2")

    def __init__(self) -> None:
        self.n = 0
        self.s = self.sd = self.sd2 = 0.0

    def add(self, v: float, d: float) -> None:
        self.n += 1
        self.s += v
        self.sd += d
        self.sd2 += d * d

    def mean(self) -> float:
        return self.s / self.n if self.n else 0.0

    def gain(self) -> float:
        return self.sd / self.n if self.n else 0.0

    def gain_se(self) -> float:
        if self.n < 2:
            return float("inf")
        var = (self.sd2 - self.sd * self.sd / self.n) / (self.n - 1)
        return (max(var, 0.0) / self.n) ** 0.5


__all__ = ["CancelFlag", "IsmctsBot", "RolloutPolicy", "Stat"]
