"""跑胡子 as an OpenSpiel Python game, ``python_paohuzi`` (extra ``openspiel``).

    import pyspiel, paohuzi.rl.openspiel
    game = pyspiel.load_game("python_paohuzi", {"rules": "hunan"})

The deal is explicit chance: first the dealer (one outcome per seat, uniform,
as the engine draws it), then the 80 cards of the deck (and the preset's 王, R39)
one at a time, each chance node offering the kinds (and 王) still unplaced with
probability ``copies left / cards left``. That is exactly a uniform shuffle of the deck,
with at most 20 outcomes per node — where one node over whole shuffles would
have 80!/(4!)²⁰ outcomes and one per seed would only sample a few deals. The
engine then plays the hand from that deck (the wall is part of the hidden
deck, so draws need no chance nodes of their own).

Players act in the engine's order, except in claim windows: there every seated
seat is asked once, in play order from the open card's owner, a seat without
an option with 过 as its only legal action, and the decisions reach the
engine in R16 priority order once all are in (as in the PettingZoo env: the
order of players never shows who could claim). Actions are the indices of
:mod:`paohuzi.core.action_index`. Observation
tensors are :func:`paohuzi.encoding.observation.encode` of the player's view; the
information-state tensor appends :func:`~paohuzi.encoding.observation.encode_history`
(the player's log, event by event); the information-state string is the view
as canonical JSON (as :func:`paohuzi.core.views.information_state`). Returns are
the net payments: zero-sum, but for R45's race (娄底: the game is then declared
general-sum, :attr:`~paohuzi.core.rules.Rules.zero_sum`); the utility bounds are the preset's
(:func:`paohuzi.rl._hand.payment_bound`: its 封顶 where it has one, else a
bound derived from its scoring).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from ..core import variants
from ..core.action_index import PASS_INDEX, action_count, action_for, canonical_id
from ..core.cards import CARDS, COPIES, DECK_SIZE, MAX_WANG, WANG, WANG_CODE
from ..core.state import CLAIM, GameState
from ..encoding.observation import (
    EVENT_FEATURES,
    HISTORY_EVENTS,
    HISTORY_SIZE,
    OBSERVATION_SIZE,
    encode,
    encode_history,
)
from ._hand import ObservedHand, payment_bound
from .render import render_text

KINDS = len(CARDS)
# Each open card is decided by at most every seat once, and each take is followed
# by at most one discard; at most every card open and discarded (王 are never discarded).
MAX_GAME_LENGTH = 2 * (DECK_SIZE + MAX_WANG) * 4 + DECK_SIZE + MAX_WANG


def _game_type(utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name="python_paohuzi",
        long_name="Python Paohuzi (跑胡子)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"rules": "hunan"},
    )


GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)  # as registered
# R45's race (娄底) pays the winner more than the others lose: general-sum.
_GENERAL_SUM = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


class PaohuziGame(pyspiel.Game):
    """One hand under a preset's rules (parameter ``rules``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        self.rules = variants.parse(str(params["rules"]))  # a preset, or one with options
        # spelled so that the game's string (str(game), serialization) loads again
        params["rules"] = variants.compact(str(params["rules"]))
        zero_sum = self.rules.zero_sum
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(self.rules),  # 914 without 一五十
            max_chance_outcomes=KINDS + (self.rules.wang > 0),  # the kinds, and 王 (R39)
            num_players=self.rules.players,
            min_utility=-float(payment_bound(self.rules)),
            max_utility=float(payment_bound(self.rules)),
            utility_sum=0.0 if zero_sum else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE if zero_sum else _GENERAL_SUM, info, params)

    def new_initial_state(self) -> PaohuziState:
        return PaohuziState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PaohuziObserver:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("python_paohuzi observes one player's public + private view only")
        return PaohuziObserver(recall, params)


class _Shared:
    """An immutable value that OpenSpiel's deep-copying clone must not copy."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class PaohuziState(pyspiel.State):
    """The deal in progress (chance nodes), then the engine's :class:`GameState`."""

    def __init__(self, game: PaohuziGame) -> None:
        super().__init__(game)
        self._rules = _Shared(game.rules)
        self._dealer = -1
        self._deck: list[int] = []
        self._left = [COPIES] * KINDS + [game.rules.wang]  # 王 last (WANG, R39)
        self._size = DECK_SIZE + game.rules.wang
        self.hand: ObservedHand | None = None
        self._ask: list[int] = []  # seats still to be asked in this claim window
        self._sealed: dict[int, int] = {}  # their decisions (indices), applied at the end

    # -- pyspiel API
    def current_player(self) -> int:
        t = self.hand
        if t is None:
            return int(pyspiel.PlayerId.CHANCE)
        if t.state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._ask[0] if self._ask else t.state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None
        legal = sorted(self.hand.legal(player))
        if not legal and self._ask and player == self._ask[0]:
            return [PASS_INDEX]  # asked in a window it has no option in
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._dealer < 0:
            n = self._rules.value.players
            return [(s, 1.0 / n) for s in range(n)]
        rest = self._size - len(self._deck)
        return [(c, k / rest) for c, k in enumerate(self._left) if k]

    def _apply_action(self, action: int) -> None:
        if self.hand is not None:
            t = self.hand
            if not self._ask:
                t.apply(t.legal(t.state.current_player)[action])
            else:
                seat = self._ask.pop(0)
                if t.legal(seat):
                    self._sealed[seat] = action
                if self._ask:
                    return
                for s in t.state.to_act():  # highest priority first, until it settles
                    if t.state.apply(t.legal(s)[self._sealed[s]]):
                        break
                t.changed()
                self._sealed = {}
            self._open_window()
        elif self._dealer < 0:
            self._dealer = action
        else:
            self._deck.append(action)
            self._left[action] -= 1
            if len(self._deck) == self._size:
                state = GameState(self._rules.value, deck=self._deck, dealer=self._dealer)
                self.hand = ObservedHand(self._rules.value, state)
                self._open_window()

    def _open_window(self) -> None:
        """In a new claim window, the seats to ask: all, in play order from the owner."""
        assert self.hand is not None
        st = self.hand.state
        if st.phase == CLAIM and st.to_act():
            open_card = st.open_card
            assert open_card is not None
            owner, n = open_card[1], self._rules.value.players
            self._ask = [s for k in range(n) if (s := (owner + k) % n) in st.seats]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._dealer < 0:
                return f"dealer:{action}"
            return f"deal:{WANG_CODE if action == WANG else CARDS[action].code}"
        return canonical_id(action_for(action, player))

    def is_terminal(self) -> bool:
        return self.hand is not None and self.hand.state.is_terminal()

    def returns(self) -> list[float]:
        if self.hand is None:
            return [0.0] * self._rules.value.players
        return [float(x) for x in self.hand.state.returns()]

    def __str__(self) -> str:
        if self.hand is None:
            return f"dealing: dealer {self._dealer}, {len(self._deck)}/{self._size} cards"
        return render_text(self.hand.state)


class PaohuziObserver:
    """OpenSpiel PyObserver: ``tensor`` and ``dict`` filled from one player's view."""

    def __init__(self, perfect_recall: bool, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.perfect_recall = perfect_recall
        size = OBSERVATION_SIZE + (HISTORY_SIZE if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:OBSERVATION_SIZE]}
        if perfect_recall:
            self.dict["history"] = self.tensor[OBSERVATION_SIZE:].reshape(
                HISTORY_EVENTS, EVENT_FEATURES
            )

    def set_from(self, state: PaohuziState, player: int) -> None:
        t = state.hand
        if t is None:  # still dealing: nothing is seen yet
            self.tensor.fill(0.0)
            return
        v = t.view(player)
        self.tensor[:OBSERVATION_SIZE] = encode(v)
        if self.perfect_recall:
            self.tensor[OBSERVATION_SIZE:] = encode_history(v)

    def string_from(self, state: PaohuziState, player: int) -> str:
        t = state.hand
        if t is None:
            return f"p{player} dealing"
        d = t.view(player).to_dict()
        if not self.perfect_recall:
            del d["log"]
        return json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


pyspiel.register_game(GAME_TYPE, PaohuziGame)
