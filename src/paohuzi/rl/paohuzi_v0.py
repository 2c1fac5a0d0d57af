"""跑胡子 as a PettingZoo AEC environment (conventions of PettingZoo's classic games).

    from paohuzi.rl import paohuzi_v0
    env = paohuzi_v0.env(rules="hunan", render_mode=None)

Agents are ``player_<seat>``; a hand's agents are its seated seats (泸州's
坐底 seat is left out). Observations are ``{"observation": float32 vector,
"action_mask": int8 vector}`` (:mod:`paohuzi.encoding.observation`,
:mod:`paohuzi.core.action_index`); the action space is ``Discrete`` over every
action. In a claim window **every seated seat is asked, once, in a fixed order**
(play order from the open card's owner), whether or not it has an option: a
seat without one gets a mask of only 过 (``PASS_INDEX``) and its pass changes
nothing. Decisions are sealed until the last seat has answered, then handed to
the engine in its priority order (R16), so the order of agents
(``agent_selection``, ``agent_iter``) never shows who could claim — asking only
the seats with options, in priority order, did. Rewards come when the hand ends: each seat's net
payment (``normalize_rewards=True``: divided by a per-preset scale and
clipped to [-1, 1]). One episode is one hand; a hand settled at the deal
(mandatory 天胡, R28: nobody acts) is dealt again.

An observation's vector is encoded when it is first read (:class:`Observation`):
a claim window asks every seated seat, and a loop that reads only the mask (a
random or scripted policy) would otherwise pay a view and an encoding for each.
Whatever reads it — ``obs["observation"]``, ``dict(obs)``, ``{**obs}``, items,
copies, pickling, comparison — gets the vector of the state the observation was
made in: the env keeps the hand's first state and the actions applied since
(:class:`Timeline`), and an observation read after the hand moved on is encoded
from that state made again. The vector always comes from
:func:`paohuzi.core.views.view` of the seat (the one hidden-information filter).

:func:`env` behaves like a classic game under PettingZoo's standard wrappers —
an illegal action ends the hand with ``-1`` for its agent and 0 for the others,
an action outside the space raises, acting before ``reset`` raises — but does
it inside the class: each wrapper layer would cost a delegated attribute look-up
on every access, about a fifth of a step. :class:`raw_env` raises on illegal
actions instead.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.action_index import PASS_INDEX, action_count, action_meaning
from ..core.actions import Action
from ..core.rules import Rules
from ..core.state import CLAIM
from ._hand import (
    Observation,
    ObservedHand,
    Rewards,
    Timeline,
    action_of,
    check_history,
    deal,
    observation_size,
    resolve_rules,
)
from .render import render_rgb, render_text


def env(**kwargs: Any) -> raw_env:
    """The environment as users get it: an illegal action ends the hand with −1."""
    kwargs.setdefault("illegal_reward", -1.0)
    return raw_env(**kwargs)


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped class
    """One hand per episode; seeds only through ``reset(seed=...)``.

    ``illegal_reward``: None raises ``ValueError`` on an illegal action;
    a number ends the hand with that reward for the offender.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "paohuzi_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: str | Rules = "hunan",
        render_mode: str | None = None,
        normalize_rewards: bool = False,
        reward_scale: float | None = None,
        reward_mode: str | None = None,
        history: int = 0,
        illegal_reward: float | None = None,
        render_seat: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        self.rules = resolve_rules(rules)
        if render_seat is not None and not 0 <= render_seat < self.rules.players:
            raise ValueError(f"render_seat must be 0–{self.rules.players - 1} or None")
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.illegal_reward = illegal_reward
        self._reward = Rewards.of(self.rules, reward_mode, normalize_rewards, reward_scale)
        self.history = check_history(history)
        size = observation_size(history)
        n = self.actions = action_count(self.rules)  # 914; more with 一五十 (衡阳's option)
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._rng: random.Random | None = None
        self._hand: ObservedHand | None = None
        self._timeline: Timeline | None = None
        self._seen: dict[int, Observation] = {}
        self._ask: list[int] = []  # seats still to be asked in this claim window
        self._sealed: dict[int, Action] = {}  # their decisions, applied at the end
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def hand(self) -> ObservedHand:
        """The current hand (its ``state`` is the engine's GameState)."""
        if self._hand is None:
            raise RuntimeError("call reset() before using the environment")
        return self._hand

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)  # None: fresh OS entropy, never the global RNG
        state = deal(self.rules, self._rng)
        self._hand = ObservedHand(self.rules, state, self._reward, self.history)
        self._timeline = Timeline(self._hand)
        self._seen = {}
        self.agents = [self.possible_agents[s] for s in state.seats]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._ask, self._sealed = [], {}
        self._select()

    def _select(self) -> None:
        """The next agent: the discarder, or the next seat asked in a claim window."""
        state = (self._hand or self.hand).state  # (the property raises before reset)
        if state.phase == CLAIM and not self._ask:  # a new window: ask every seat
            open_card = state.open_card
            assert open_card is not None
            owner = open_card[1]
            n = self.rules.players
            self._ask = [s for k in range(n) if (s := (owner + k) % n) in state.seats]
            self._sealed = {}
        seat = self._ask[0] if self._ask else state.current_player
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's observation; its vector is encoded when first read."""
        seat = self._seat[agent]
        obs = self._seen.get(seat)
        if obs is None:  # once per seat and step: last() and a learner may both ask
            t = self._hand or self.hand  # (the property raises before reset)
            legal = t.legal(seat)
            # asked in a window it has no option in: 过 only
            mask = t.pass_mask() if self._ask and not legal else t.mask_of(legal)
            assert self._timeline is not None
            obs = self._seen[seat] = Observation(self._timeline, seat, mask)
        return obs

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        t = self._hand or self.hand  # (the property raises before reset)
        i = action_of(action, self.actions)
        seat = self._seat[agent]
        legal = t.legal(seat)
        act = legal.get(i)
        self._cumulative_rewards[agent] = 0.0
        if act is None and not (self._ask and not legal and i == PASS_INDEX):
            self._illegal(agent, i)
            return
        if self._ask:
            self._ask.pop(0)
            if act is not None:
                self._sealed[seat] = act
            if self._ask:  # nothing applied yet: the state and observations stand
                self.agent_selection = self.possible_agents[self._ask[0]]
                return
            self._settle_window()
        else:
            assert act is not None and self._timeline is not None
            self._timeline.applied(act)
            t.apply(act)
        self._seen = {}
        state = t.state
        if state.is_terminal():
            pay = t.rewards()
            self.rewards = {a: pay[self._seat[a]] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            # Rewards are all zero until the hand ends (an illegal action ends it too),
            # so clearing and accumulating them here would change nothing.
            self._select()

    def _settle_window(self) -> None:
        """Hand the sealed decisions to the engine, highest priority first, until
        the window settles (``apply`` returns its events only then)."""
        t = self.hand
        timeline = self._timeline
        assert timeline is not None
        for s in t.state.to_act():
            timeline.applied(self._sealed[s])
            if t.state.apply(self._sealed[s]):
                break
        t.changed()
        self._sealed = {}

    def _illegal(self, agent: str, index: int) -> None:
        if self.illegal_reward is None:
            raise ValueError(f"action {index} is not legal for {agent}")
        self._ask, self._sealed = [], {}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward)
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal_action": index}
        self._accumulate_rewards()

    def action_meaning(self, index: int) -> str:
        """The action of ``index`` as its id, e.g. ``discard:x3``, ``chi:x2:x1x2x3``."""
        return action_meaning(index)

    def render(self) -> str | np.ndarray | None:
        """The table from ``render_seat``'s view (``None``: a spectator's, every
        hand shown) as text (``ansi``) or an image (``rgb_array``)."""
        seat = self.render_seat
        if self.render_mode == "ansi":
            return render_text(self.hand.state, seat)
        if self.render_mode == "rgb_array":
            return render_rgb(self.hand.state, seat)
        return None

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return "paohuzi_v0"
