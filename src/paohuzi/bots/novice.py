"""novice: a beginner — takes a win when one is offered, otherwise plays the greedy bot's
choice half the time and any legal action the rest.

The web's 初级 (``server.room.levels``). The random bot played it before: it passes on
most 胡 it is offered and discards anything, so a table of them mostly ends in 荒庄 (衡阳:
123 of 150 hands; novice: 22 of 100; greedy: 1 of 100), and a beginner playing them
would think nobody can win."""

from __future__ import annotations

import random

from ..core.actions import HU, Action
from ..core.player import Bot, Observation
from . import register
from .greedy import GreedyBot


@register
class NoviceBot(Bot):
    """novice: 胡 when possible; else greedy's action with probability ``care``, a
    uniformly random legal one otherwise (``novice:care=0.7`` plays better)."""

    name = "novice"

    def __init__(self, care: float = 0.5) -> None:
        if not 0.0 <= care <= 1.0:
            raise ValueError(f"care must be within 0–1, got {care}")
        self.care = care
        self._greedy = GreedyBot()

    def act(self, obs: Observation, rng: random.Random) -> Action:
        for a in obs.legal:
            if a.type == HU:
                return a
        if rng.random() < self.care:
            return self._greedy.act(obs, rng)
        return rng.choice(obs.legal)
