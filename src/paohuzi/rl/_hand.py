"""One hand as the RL environments see it: deal, per-seat observations and masks.

Shared by the PettingZoo, Gymnasium and OpenSpiel adapters. Everything a seat
is given is computed at most once per engine step and cached: the encoded
observation of its view, and the mask with the legal action behind each index.
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from ..core import variants
from ..core.action_index import (
    ACTION_COUNT,
    BASE_ACTION_COUNT,
    PASS_INDEX,
    action_count,
    legal_by_index,
)
from ..core.actions import Action
from ..core.records import play_on
from ..core.rules import Rules
from ..core.state import GameState
from ..core.views import View, view
from ..encoding.observation import (
    EVENT_FEATURES,
    HISTORY_EVENTS,
    OBSERVATION_SIZE,
    encode,
    encode_history,
)


def observation_size(history: int = 0) -> int:
    """The observation's length with ``history`` log events appended."""
    return OBSERVATION_SIZE + history * EVENT_FEATURES


def check_history(history: int) -> int:
    if not isinstance(history, int) or not 0 <= history <= HISTORY_EVENTS:
        raise ValueError(f"history must be 0–{HISTORY_EVENTS} events, got {history!r}")
    return history


class RewardMode(StrEnum):
    """What a seat is paid at the end of a hand (``reward_mode``)."""

    PAYMENT = "payment"  # the net payment, raw points (sums to zero: Rules.zero_sum)
    SCALED = "scaled"  # payment / scale, clipped to [-1, 1]
    WIN_LOSS = "win_loss"  # the payment's sign: +1 won points, -1 lost, 0 even


@dataclass(frozen=True, slots=True)
class Rewards:
    """How returns become rewards: a mode and, for ``scaled``, its divisor."""

    mode: RewardMode = RewardMode.PAYMENT
    scale: float = 1.0

    @classmethod
    def of(
        cls,
        rules: Rules,
        mode: str | None = None,
        normalize: bool = False,
        scale: float | None = None,
    ) -> Rewards:
        """``mode`` (None: ``scaled`` if ``normalize`` else ``payment``). The
        scale is ``scale``, else the rules'
        :attr:`~paohuzi.core.rules.Rules.reward_scale` — about the 99th
        percentile of |payment| per seat in greedy self-play (hunan 48, changde
        64, luzhou 8; median win 2–4). Scaled rewards are clipped to [-1, 1]:
        the rare bigger hands saturate; a scale that never clipped would squash
        typical wins to a few hundredths."""
        if mode is None:
            mode = RewardMode.SCALED if normalize else RewardMode.PAYMENT
        try:
            m = RewardMode(mode)
        except ValueError:
            names = ", ".join(x.value for x in RewardMode)
            raise ValueError(f"reward_mode must be one of {names}, got {mode!r}") from None
        if normalize and m != RewardMode.SCALED:
            raise ValueError(f"normalize_rewards=True means reward_mode 'scaled', not {m.value!r}")
        if scale is not None and scale <= 0:
            raise ValueError(f"reward_scale must be positive, got {scale}")
        return cls(m, float(scale or rules.reward_scale))

    def __call__(self, returns: Sequence[int]) -> list[float]:
        if self.mode == RewardMode.PAYMENT:
            return [float(x) for x in returns]
        if self.mode == RewardMode.WIN_LOSS:
            return [float((x > 0) - (x < 0)) for x in returns]
        return [max(-1.0, min(1.0, x / self.scale)) for x in returns]


def action_of(action: Any, n: int = ACTION_COUNT) -> int:
    """An env's ``step`` argument as an action index: an int (a NumPy integer or a 0-d
    integer array too) in the action space of ``n`` indices (``action_count`` of the
    rules); ``ValueError`` otherwise — a float is refused, not truncated (3.7 is no
    action)."""
    try:
        i = operator.index(action)
    except TypeError:
        raise ValueError(f"action {action!r} is not an action index (an integer)") from None
    if not 0 <= i < n:
        raise ValueError(f"action {action!r} is outside the action space (0–{n - 1})")
    return i


def resolve_rules(rules: str | Rules) -> Rules:
    return variants.parse(rules) if isinstance(rules, str) else rules


def deal(rules: Rules, rng: random.Random, dealer: int | None = None) -> GameState:
    """A new hand seeded from ``rng``; one settled at the deal (mandatory 天胡,
    R28) is dealt again: nobody could act in it."""
    while True:
        state = GameState(rules, seed=rng.getrandbits(63), dealer=dealer)
        if not state.is_terminal():
            return state


class ObservedHand:
    """A :class:`GameState` with cached per-seat observations, masks and legal maps."""

    __slots__ = ("_legal", "_obs", "history", "reward", "rules", "state")

    def __init__(
        self, rules: Rules, state: GameState, reward: Rewards = Rewards(), history: int = 0
    ) -> None:
        self.rules = rules
        self.state = state
        self.reward = reward
        self.history = history  # log events appended to the observation (0: none)
        self._obs: dict[int, np.ndarray] = {}
        self._legal: dict[int, dict[int, Action]] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> ObservedHand:
        # OpenSpiel clones Python states by deep-copying their attributes; the
        # engine's clone copies what a hand owns and shares its immutable caches.
        return ObservedHand(self.rules, self.state.clone(), self.reward, self.history)

    def view(self, seat: int) -> View:
        return view(self.state, seat)

    def observation(self, seat: int) -> np.ndarray:
        obs = self._obs.get(seat)
        if obs is None:
            v = self.view(seat)
            obs = encode(v)
            if self.history:
                obs = np.concatenate((obs, encode_history(v, self.history)))
            self._obs[seat] = obs
        return obs

    def legal(self, seat: int) -> dict[int, Action]:
        """Index → the engine's own legal Action (applying it takes the fast path)."""
        lg = self._legal.get(seat)
        if lg is None:
            lg = self._legal[seat] = legal_by_index(self.state.legal_actions(seat))
        return lg

    def mask(self, seat: int, dtype: type = np.int8) -> np.ndarray:
        """1 at each legal index (as many as the rules' ``action_count``)."""
        return _mask(self.legal(seat), dtype, action_count(self.rules))

    def mask_of(self, legal: dict[int, Action]) -> np.ndarray:
        """:meth:`mask` of a seat's :meth:`legal` already at hand."""
        return _mask(legal, np.int8, action_count(self.rules))

    def pass_mask(self, dtype: type = np.int8) -> np.ndarray:
        """The mask of a seat asked in a claim window it has no option in: 过 only (a
        copy of one made once: half the AEC env's observations are these)."""
        n = action_count(self.rules)
        if dtype is np.int8 and n == _PASS_MASK.size:
            return _PASS_MASK.copy()
        return _mask((PASS_INDEX,), dtype, n)

    def apply(self, action: Action) -> None:
        self.state.apply(action)
        self.changed()

    def changed(self) -> None:
        """The state moved on (here or by a driver): forget what was computed."""
        self._obs.clear()
        self._legal.clear()

    def rewards(self) -> list[float]:
        """Each seat's reward for the hand (:class:`Rewards`): 0 until it ends."""
        return self.reward(self.state.returns())


def _mask(indices: Iterable[int], dtype: type, n: int = ACTION_COUNT) -> np.ndarray:
    """1 at each index (a few ones: set bytes, not a numpy fancy index), as ``dtype``;
    ``n`` indices (the rules' ``action_count``)."""
    b = bytearray(n)
    for i in indices:
        b[i] = 1
    # The dtype object made once: numpy converting ``np.int8`` at every call was a third
    # of the mask's time. Any other dtype is a converted copy (bytes read as int8).
    m = np.frombuffer(b, _INT8)
    return m if dtype is np.int8 else m.astype(dtype)


_INT8 = np.dtype(np.int8)


_PASS_MASK = np.frombuffer(  # (of rules without 一五十: most masks)
    bytes(PASS_INDEX) + b"\x01" + bytes(BASE_ACTION_COUNT - PASS_INDEX - 1), np.int8
)


class Timeline:
    """A hand's first state and every action applied to it since, so that any
    earlier state can be made again (the engine is deterministic): an
    observation handed out and read later is encoded from the state it was
    made in, without copying the state at every step.

    The driver applies actions through :meth:`applied` (the live state then
    changes); :meth:`at` gives the live hand at the current version and a
    rebuilt one (the first state's copy, the same actions replayed) before.
    """

    __slots__ = ("_first", "_past", "_past_at", "actions", "live")

    def __init__(self, live: ObservedHand) -> None:
        self.live = live
        state = live.state
        # The first state: a hand just dealt is dealt again from its deck when an old
        # observation is read (seldom), not copied for every hand (a copy costs more
        # than a deal, about a twentieth of the AEC env's time); else a copy.
        self._first: GameState | tuple[Any, ...] = (
            (state.rules, state.seed, state.deck, state.dealer, state.huang)
            if not state.actions
            else state.clone()
        )
        self.actions: list[Action] = []
        self._past: ObservedHand | None = None  # the last state made again
        self._past_at = 0

    def first(self) -> GameState:
        """A new copy of the hand's first state."""
        first = self._first
        if isinstance(first, GameState):
            return first.clone()
        rules, seed, deck, dealer, huang = first
        return GameState(rules, seed=seed, deck=deck, dealer=dealer, huang=huang)

    @property
    def version(self) -> int:
        """Actions applied so far: names one state of the hand."""
        return len(self.actions)

    def applied(self, action: Action) -> None:
        """Call just before applying ``action`` to the live state."""
        self.actions.append(action)

    def at(self, version: int) -> ObservedHand:
        """The hand as it was after ``version`` actions."""
        if version == len(self.actions):
            return self.live
        past = self._past
        if past is None or self._past_at > version:
            live = self.live
            past = ObservedHand(live.rules, self.first(), live.reward, live.history)
            self._past, self._past_at = past, 0
        if self._past_at < version:
            for _ in play_on(past.state, self.actions[self._past_at : version]):
                pass
            past.changed()
            self._past_at = version
        return past


class Observation(dict[str, np.ndarray]):
    """``{"observation": vector, "action_mask": mask}`` whose vector is encoded
    on first read (``ObservedHand.observation``: the seat's view, then
    :func:`~paohuzi.encoding.observation.encode`) from the state the
    observation was made in (:class:`Timeline`: the live one, or one made
    again if the hand has moved on since).

    The mask is there from the start; reading ``["action_mask"]`` encodes
    nothing. Every other way of reading the dict — any other key, ``get``, ``in``,
    ``len``, iteration, keys/values/items, ``dict(obs)`` and ``{**obs}`` (both go
    through ``keys`` since ``__iter__`` is overridden), ``copy``, ``copy.copy``,
    ``deepcopy``, pickling (a plain dict), ``==``, ``repr``, and every writing
    method — first fills in the vector, after which it is an ordinary dict with
    the keys in their usual order. Until then it keeps a private reference to
    the env's hand (as the env itself does; dropped once filled, never
    pickled or copied): what it gives out is only the mask and the vector of
    the seat's view.
    """

    __slots__ = ("_seat", "_timeline", "_version")

    def __init__(self, timeline: Timeline, seat: int, mask: np.ndarray) -> None:
        dict.__setitem__(self, "action_mask", mask)
        self._timeline: Timeline | None = timeline
        self._version = timeline.version
        self._seat = seat

    @property
    def unread(self) -> bool:
        """The vector is not encoded yet."""
        return self._timeline is not None

    def _fill(self) -> None:
        timeline = self._timeline
        if timeline is not None:
            self._timeline = None
            vector = timeline.at(self._version).observation(self._seat)
            mask = dict.pop(self, "action_mask")
            dict.__setitem__(self, "observation", vector)
            dict.__setitem__(self, "action_mask", mask)

    def __getitem__(self, key: str) -> np.ndarray:
        if key != "action_mask":
            self._fill()
        return dict.__getitem__(self, key)

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        self._fill()
        return (dict, (dict(self),))

    def __reduce__(self) -> tuple[Any, ...]:
        return self.__reduce_ex__(2)

    def __deepcopy__(self, memo: dict[int, object]) -> dict[str, np.ndarray]:
        import copy

        self._fill()
        return {k: copy.deepcopy(v, memo) for k, v in dict.items(self)}

    def __copy__(self) -> dict[str, np.ndarray]:
        self._fill()
        return dict(dict.items(self))


def _filled(name: str) -> Any:
    method = getattr(dict, name)

    def read(self: Observation, *args: Any, **kwargs: Any) -> Any:
        self._fill()
        return method(self, *args, **kwargs)

    read.__name__ = name
    read.__doc__ = method.__doc__
    return read


# Every other dict method fills the vector first (``__getitem__`` above spares the mask).
for _name in (
    "__contains__",
    "__eq__",
    "__ne__",
    "__ior__",
    "__iter__",
    "__len__",
    "__or__",
    "__repr__",
    "__reversed__",
    "__ror__",
    "__setitem__",
    "__delitem__",
    "__str__",
    "__format__",
    "__sizeof__",
    "clear",
    "copy",
    "get",
    "items",
    "keys",
    "pop",
    "popitem",
    "setdefault",
    "update",
    "values",
):
    setattr(Observation, _name, _filled(_name))
del _name


def payment_bound(rules: Rules) -> int:
    """A bound no seat's payment in one hand can exceed, from the rules alone.

    With 封顶 (``cap``) it is the cap times the seats that pay (and as much again to a
    坐醒 seat: each loser's 醒 is capped alike). Without one it is
    derived from the scoring, each factor at its largest: 7 门子 (R22) at the
    biggest 胡息 of the table, doubled once (天胡, 地胡 and 海底 exclude each
    other: the deal, the first discard, the last card), the 等 of that, the largest
    base-setting 名堂, every unit-adding 名堂, 27 醒 cards, every 番 (added or
    multiplied, ``per_extra`` for all 27 cards), the largest 黄番 and 底分;
    times the payers, plus the 坐醒 seat's share and 荒庄 costs (亡牌 too). No hand
    reaches it (名堂 exclude each other), so it is an honest, loose bound —
    what OpenSpiel's ``min_utility``/``max_utility`` ask for.
    """
    from ..core.cards import CARDS
    from ..core.rules import HUXI_ROWS, Effect, FanCombine, Payment

    payers = rules.players - 1
    if rules.cap:  # 封顶 caps each loser's payment to the winner and to the 坐醒 seat
        di = rules.cap
        fan, xing = rules.cap, 1
    else:
        group = max(rules.huxi_table.value(r, c) for r in HUXI_ROWS for c in CARDS)
        h2 = 7 * group * (2 if rules.doubling else 1)
        ms = [m for m in rules.mingtang if rules.uses(m.id)]

        def most(m: Any) -> int:
            return m.max_fan or m.fan + m.per_extra * 27

        base = max([rules.deng_of(h2), *(most(m) for m in ms if m.effect == Effect.BASE)])
        xing = 27 * (2 if rules.xing_double else 1)
        units = base + rules.zimo_bonus + sum(most(m) for m in ms if m.effect == Effect.UNITS)
        fans = [max(1, most(m)) for m in ms if m.effect == Effect.FAN]
        fan = max(1, sum(fans)) if rules.fan_combine == FanCombine.ADD else math.prod(fans)
        di = (units + xing) * fan * max((1, *rules.huangzhuang.fan)) * rules.base_score
    if rules.payment == Payment.RACE:
        return di + rules.race.huangzhuang_penalty
    seat = fan * xing * payers if rules.xing_seat else 0
    wangpai = rules.huangzhuang.wang_pay * rules.wang * payers  # 亡牌 at a 荒庄 (永州)
    return di * payers + seat + rules.huangzhuang.cost * payers + wangpai
