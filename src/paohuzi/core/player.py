"""玩家 (wánjiā): what a player program sees and is — :class:`Observation`, :class:`Bot`.

A bot sees a seat's :class:`Observation` — the engine's single view function
plus the legal actions — and an injected RNG. It never touches the true state:
search bots ask the observation for a *determinization* (the engine's
``resample``), a world drawn at random among those consistent with the view.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from .actions import Action
from .determinize import NoConsistentWorld, hidden_from, resample
from .state import GameState
from .views import View, view


class Observation:
    """What ``seat`` knows now: its view, its legal actions, and resampling."""

    __slots__ = ("_legal", "_state", "_view", "seat")

    def __init__(self, state: GameState, seat: int):
        self._state = state
        self.seat = seat
        self._view: View | None = None
        self._legal: list[Action] | None = None

    # Computed on first use (most bots read only one of them), without
    # functools.cached_property, whose per-access lock costs more than the work.
    @property
    def view(self) -> View:
        if self._view is None:
            self._view = view(self._state, self.seat)
        return self._view

    @property
    def legal(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._state.legal_actions(self.seat)
        return self._legal

    @property
    def rules(self) -> Any:
        return self._state.rules

    def determinize(self, rng: random.Random) -> GameState:
        """A full game state consistent with this view (hidden cards re-dealt).

        Raises :class:`NoConsistentWorld` when none can be drawn (rare, in claim
        windows); a search bot then skips that sample.
        """
        s = self._state
        if not hidden_from(s, self.seat):
            return s.clone()  # nothing is hidden: the truth is the only world
        return resample(s, self.seat, rng)


class Bot(ABC):
    """A player program: ``act`` returns one of ``obs.legal``."""

    name: str = "bot"

    @abstractmethod
    def act(self, obs: Observation, rng: random.Random) -> Action: ...


class RandomBot(Bot):
    """random: uniform over the legal actions."""

    name = "random"

    def act(self, obs: Observation, rng: random.Random) -> Action:
        return rng.choice(obs.legal)


__all__ = ["Bot", "NoConsistentWorld", "Observation", "RandomBot"]
