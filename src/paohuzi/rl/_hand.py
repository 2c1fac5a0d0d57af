"""One hand as the RL environments see it: deal, per-seat observations and masks.

Shared by the PettingZoo, Gymnasium and OpenSpiel adapters. Everything a seat
is given is computed at most once per engine step and cached: the encoded
observation of its view, and the mask with the legal action behind each index.
"""

from __future__ import annotations

import random

import numpy as np

from ..core.action_index import ACTION_COUNT, legal_by_index
from ..core.actions import Action
from ..core.rules import Rules, preset
from ..core.state import GameState
from ..core.views import View, view
from ..encoding.observation import encode


def reward_scale(rules: Rules, normalize: bool, scale: float | None) -> float | None:
    """The divisor of normalised rewards (None: raw payments): ``scale``, else the
    rules' :attr:`~paohuzi.core.rules.Rules.reward_scale` — about the 99th
    percentile of |payment| per seat in greedy self-play (hunan 48, changde 64,
    luzhou 8; median win 2–4). Rewards are then clipped to [-1, 1]: the rare
    bigger hands saturate; a scale that never clipped would squash typical wins
    to a few hundredths."""
    if not normalize:
        return None
    return float(scale or rules.reward_scale)


def resolve_rules(rules: str | Rules) -> Rules:
    return preset(rules) if isinstance(rules, str) else rules


def deal(rules: Rules, rng: random.Random, dealer: int | None = None) -> GameState:
    """A new hand seeded from ``rng``; one settled at the deal (mandatory 天胡,
    R28) is dealt again: nobody could act in it."""
    while True:
        state = GameState(rules, seed=rng.getrandbits(63), dealer=dealer)
        if not state.is_terminal():
            return state


class ObservedHand:
    """A :class:`GameState` with cached per-seat observations, masks and legal maps."""

    __slots__ = ("_legal", "_obs", "rules", "scale", "state")

    def __init__(self, rules: Rules, state: GameState, scale: float | None = None) -> None:
        self.rules = rules
        self.state = state
        self.scale = scale  # None: raw payments
        self._obs: dict[int, np.ndarray] = {}
        self._legal: dict[int, dict[int, Action]] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> ObservedHand:
        # OpenSpiel clones Python states by deep-copying their attributes; the
        # engine's clone copies what a hand owns and shares its immutable caches.
        return ObservedHand(self.rules, self.state.clone(), self.scale)

    def view(self, seat: int) -> View:
        return view(self.state, seat)

    def observation(self, seat: int) -> np.ndarray:
        obs = self._obs.get(seat)
        if obs is None:
            obs = self._obs[seat] = encode(self.view(seat))
        return obs

    def legal(self, seat: int) -> dict[int, Action]:
        """Index → the engine's own legal Action (applying it takes the fast path)."""
        lg = self._legal.get(seat)
        if lg is None:
            lg = self._legal[seat] = legal_by_index(self.state.legal_actions(seat))
        return lg

    def mask(self, seat: int, dtype: type = np.int8) -> np.ndarray:
        """1 at each legal index (a few ones: set bytes, not a numpy fancy index)."""
        b = bytearray(ACTION_COUNT)
        for i in self.legal(seat):
            b[i] = 1
        return np.frombuffer(b, dtype=dtype)

    def apply(self, action: Action) -> None:
        self.state.apply(action)
        self.changed()

    def changed(self) -> None:
        """The state moved on (here or by a driver): forget what was computed."""
        self._obs.clear()
        self._legal.clear()

    def rewards(self) -> list[float]:
        """Each seat's net payment (scaled and clipped to [-1, 1] when normalizing)."""
        r = self.state.returns()
        if self.scale is None:
            return [float(x) for x in r]
        return [max(-1.0, min(1.0, x / self.scale)) for x in r]
