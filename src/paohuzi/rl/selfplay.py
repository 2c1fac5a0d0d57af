"""自对弈 (zì duìyì): self-play for the single-agent env, against a pool of past policies.

    env = SelfPlay(gymnasium.make("paohuzi/Paohuzi-v0"), pool=["greedy"], max_size=8)
    env.add(sb3_policy(model, snapshot=True))    # a frozen copy of the learner, now
    obs, info = env.reset(seed=0)                # opponents drawn from the pool

At every ``reset`` each opponent seat gets a member of the pool drawn uniformly
(independently per seat) by the wrapper's own RNG, seeded by ``reset(seed=...)``:
the same seeds give the same opponents. Members are anything
:func:`paohuzi.bots.policy.as_bot` takes — bot specs, ``Bot`` objects, or
policies ``f(observation, mask) -> index`` (given the env's ``history`` block
too, as the learner sees it). ``add`` appends one and drops the
oldest added member once there are ``max_size``; members given as ``pool`` at
construction stay (a fixed anchor such as greedy keeps the league honest).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from ..bots import Bot
from ..bots.policy import Policy, as_bot
from .gym_env import PaohuziEnv


class SelfPlay(gym.Wrapper[np.ndarray, np.int64, np.ndarray, np.int64]):
    """Draws the opponents of each hand from a pool of policies (see the module doc)."""

    def __init__(
        self,
        env: gym.Env[np.ndarray, np.int64],
        pool: Sequence[str | Bot | Policy] = ("greedy",),
        max_size: int = 8,
    ) -> None:
        super().__init__(env)
        if not isinstance(env.unwrapped, PaohuziEnv):
            raise TypeError("SelfPlay wraps the paohuzi/Paohuzi-v0 environment")
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        self._history: int = env.unwrapped.history
        self.fixed: list[Bot] = [as_bot(p, history=self._history) for p in pool]
        self.past: deque[Bot] = deque(maxlen=max_size)
        self._rng = random.Random()
        self.last_opponents: list[Bot] = []

    @property
    def pool(self) -> list[Bot]:
        return [*self.fixed, *self.past]

    def add(self, player: str | Bot | Policy, name: str | None = None) -> None:
        """Put a policy (usually a frozen snapshot of the learner) into the pool."""
        self.past.append(as_bot(player, name=name, history=self._history))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            self._rng = random.Random(seed)
        pool = self.pool
        if not pool:
            raise RuntimeError("the self-play pool is empty: add() a policy first")
        base: PaohuziEnv = self.env.unwrapped  # type: ignore[assignment]
        self.last_opponents = [self._rng.choice(pool) for _ in range(base.rules.players - 1)]
        base.set_opponents(self.last_opponents)
        return self.env.reset(seed=seed, options=options)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


__all__ = ["SelfPlay"]
