"""跑胡子 as a single-agent Gymnasium environment: one seat against built-in bots.

    import gymnasium, paohuzi.rl
    env = gymnasium.make("paohuzi/Paohuzi-v0", rules="hunan", opponents="greedy")

The learner plays one seat; the others are :func:`paohuzi.bots.make_bot` bots
that see only their own views. An episode is one hand. Observations are the
float32 vector of :mod:`paohuzi.encoding.observation`; :meth:`PaohuziEnv.action_masks`
(the hook sb3-contrib's ``MaskablePPO`` calls) and ``info["action_mask"]``
give the legal actions. The reward, at the end, is the learner's net payment
(``reward_mode``: ``payment``, ``scaled`` — divided by ``reward_scale`` and
clipped to [-1, 1], what ``normalize_rewards=True`` means — or ``win_loss``,
its sign). ``history=K`` appends the seat's last K log events (K × 87 floats,
:func:`~paohuzi.encoding.observation.encode_history`) to the observation. An illegal action
ends the episode with ``illegal_reward``. Hands in which the learner never gets
to decide (settled at the deal or before its first turn) are dealt again: its
policy cannot change their outcome.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeAlias

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot
from ..bots.policy import Policy, as_bot
from ..core.action_index import action_count, action_meaning
from ..core.rules import Rules
from ..table import Table
from ._hand import (
    ObservedHand,
    Rewards,
    action_of,
    check_history,
    deal,
    observation_size,
    resolve_rules,
)
from .render import HEIGHT, WIDTH, render_rgb, render_text

Opponents: TypeAlias = str | Bot | Policy | Sequence[str | Bot | Policy]


class PaohuziEnv(gym.Env[np.ndarray, np.int64]):
    """The learner's seat (``seat``; None: a random seated seat per hand) vs bots."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012 - gymnasium.Env's field

    def __init__(
        self,
        rules: str | Rules = "hunan",
        opponents: Opponents = "greedy",
        seat: int | None = None,
        normalize_rewards: bool = False,
        reward_scale: float | None = None,
        reward_mode: str | None = None,
        history: int = 0,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        self.rules = resolve_rules(rules)
        n = self.rules.players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be 0–{n - 1} or None, got {seat}")
        self.history = check_history(history)
        self._players: list[Bot] = []
        self.set_opponents(opponents)
        self.bots: dict[int, Bot] = {}
        self.seat = seat
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self._reward = Rewards.of(self.rules, reward_mode, normalize_rewards, reward_scale)
        size = observation_size(history)
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self._actions = action_count(self.rules)  # 914; more with 一五十 (衡阳's option)
        self.action_space = spaces.Discrete(self._actions)
        self._hand: ObservedHand | None = None
        self._ended = False  # an illegal action ended the episode (the hand stays as it was)
        self._me = 0
        self._bot_rng = random.Random(0)
        self._table: Table

    @property
    def hand(self) -> ObservedHand:
        if self._hand is None:
            raise RuntimeError("call reset() first")
        return self._hand

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._ended = False
        rng = random.Random(int(self.np_random.integers(2**63)))
        self._bot_rng = random.Random(rng.getrandbits(63))
        n = self.rules.players
        while True:
            dealer = None
            if self.seat is not None and self.rules.sit_out:
                # 坐底 is opposite the dealer: pick a dealer that keeps the learner in.
                dealer = rng.choice([d for d in range(n) if (d + n // 2) % n != self.seat])
            state = deal(self.rules, rng, dealer)
            me = self.seat if self.seat is not None else rng.choice(state.seats)
            self._hand = ObservedHand(self.rules, state, self._reward, self.history)
            self._me = me
            others = [s for s in range(n) if s != me]
            pl = self._players
            chosen = pl if len(pl) == n - 1 else [pl[s] for s in others]
            self.bots = dict(zip(others, chosen, strict=True))
            # The one table driver: bots act until the learner must decide.
            players = [self.bots.get(s) for s in range(n)]
            self._table = Table(players, self.rules, rngs=[self._bot_rng] * n)
            self._table.deal(state)
            self._play_bots()
            if not state.is_terminal():
                return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        t = self.hand
        if t.state.is_terminal() or self._ended:
            raise RuntimeError("the hand is over: call reset()")
        act = t.legal(self._me).get(action_of(action, self._actions))
        if act is None:  # the episode ends here (the hand is not played on)
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), float(self.illegal_reward), True, False, info
        t.apply(act)
        self._play_bots()
        if t.state.is_terminal():
            return self._obs(), t.rewards()[self._me], True, False, self._info()
        return self._obs(), 0.0, False, False, self._info()

    def set_opponents(self, opponents: Opponents) -> None:
        """The players of the other seats from the next ``reset`` on: one for all,
        or one per other seat (``players - 1``) or per seat (``players``, the
        learner's own entry unused). Each is a bot spec, a ``Bot``, or a policy
        ``f(observation, mask) -> action index`` (:mod:`paohuzi.bots.policy`),
        whose observation carries the ``history`` block as the learner's does."""
        n = self.rules.players
        items: list[str | Bot | Policy]
        if isinstance(opponents, (str, Bot)) or callable(opponents):
            items = [opponents] * n
        else:
            items = list(opponents)
        if len(items) not in (n - 1, n):
            raise ValueError(f"give one opponent or {n - 1} (one per other seat), got {len(items)}")
        self._players = [as_bot(p, history=self.history) for p in items]

    def action_meaning(self, index: int) -> str:
        """The action of ``index`` as its id, e.g. ``discard:x3``, ``chi:x2:x1x2x3``."""
        return action_meaning(index)

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner as booleans (sb3-contrib's masking hook)."""
        return self.hand.mask(self._me, dtype=np.bool_)

    def render(self) -> str | np.ndarray | None:
        """The table from the learner's seat: text (``ansi``) or a
        ``HEIGHT × WIDTH × 3`` image (``rgb_array``, for ``RecordVideo``)."""
        if self.render_mode == "ansi":
            return render_text(self.hand.state, self._me)
        if self.render_mode == "rgb_array":
            if self._hand is None:  # a recorder may ask before the first reset
                return np.zeros((HEIGHT, WIDTH, 3), np.uint8)
            return render_rgb(self.hand.state, self._me)
        return None

    def _play_bots(self) -> None:
        self._table.run_bots()
        self.hand.changed()

    def _obs(self) -> np.ndarray:
        return self.hand.observation(self._me).copy()  # callers keep what they get

    def _info(self) -> dict[str, Any]:
        t = self.hand
        return {"seat": self._me, "action_mask": t.mask(self._me)}
