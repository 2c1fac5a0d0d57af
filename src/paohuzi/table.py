"""牌桌 (páizhuō): the one driver that plays hands — bots and outside players alike.

Self-play, the arena, the terminal game and the web room all drive hands
through a :class:`Table`: a :class:`~paohuzi.core.match.Match` (dealer
rotation R6, scores and 黄番 R38) and one seat per player, either a
:class:`~paohuzi.core.player.Bot` with its own seeded RNG or ``None`` for a
player outside (a human at a terminal or a browser). The verbs:

- :meth:`deal` starts the next hand (or adopts one dealt elsewhere);
- :meth:`next_bot` names the bot that must decide now — in a claim window bots
  never wait for an outside player, and the order in which seats decide does
  not change the outcome (R16) nor any bot's RNG (one per seat);
- :meth:`choose` asks that bot for its action (on a copy of the state when a
  caller thinks in another thread); :meth:`apply` applies anyone's action;
  :meth:`bot_move` is the two together, :meth:`run_bots` repeats it;
- :meth:`finish_hand` books the hand in the match and returns its result;
- :meth:`resume` re-plays a recorded hand as the match's next one (a restart).

:func:`playout` is the bare loop a search runs on a world of its own (every
seat played by one policy). Nothing here does I/O: records are returned as
:class:`~paohuzi.core.records.HandRecord` values.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from .core.actions import Action
from .core.events import Event
from .core.match import Match
from .core.player import Bot, Observation, RandomBot
from .core.records import HandRecord
from .core.result import HandResult
from .core.rules import HUNAN, MatchKind, Rules
from .core.state import GameState


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across processes and Python runs)."""
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def bot_rngs(base: object, n: int) -> list[random.Random]:
    """One RNG per seat derived from ``base`` (self-play's convention)."""
    return [random.Random(derive_seed("bot", base, s)) for s in range(n)]


class Table:
    """A match at one table: ``players[s]`` is seat s's bot, or None for an outside player.

    ``rngs``: one RNG per seat for the whole match; by default each hand's bots
    draw from RNGs derived from that hand's seed (self-play's convention), so a
    hand's play depends on its seed alone.
    ``stand_in``: when a bot raises, say why through ``notices`` and let
    ``random`` play that seat from then on (a broken bot must not end a human's
    game); without it the error propagates (self-play wants to see it).
    """

    def __init__(
        self,
        players: Sequence[Bot | None],
        rules: Rules = HUNAN,
        seed: int | None = None,
        hands: int | None = None,
        rngs: Sequence[random.Random] | None = None,
        stand_in: bool = False,
    ) -> None:
        if len(players) != rules.players:
            raise ValueError(
                f"{rules.players} seats need {rules.players} players, got {len(players)}"
            )
        self.rules = rules
        self.seed = seed
        self.hands = hands
        self._match: Match | None = None  # made on first use: a lone hand needs none
        self.players: list[Bot | None] = list(players)
        self._all_bots = all(p is not None for p in players)
        self._fixed = rngs is not None
        self.rngs = list(rngs) if rngs is not None else []
        self.stand_in = stand_in
        self.notices: list[str] = []
        self.state: GameState | None = None
        self.decisions = [0] * rules.players  # bot decisions this hand, per seat
        self.think = [0.0] * rules.players  # seconds bots spent deciding this hand
        self.clock: Callable[[], float] = time.perf_counter

    @property
    def match(self) -> Match:
        if self._match is None:
            self._match = Match(self.rules, self.seed, self.hands)
        return self._match

    # ------------------------------------------------------------------ hands
    def deal(self, state: GameState | None = None) -> GameState:
        """Start the match's next hand, or play ``state`` (a hand dealt elsewhere:
        a fixed deck, a lone seeded hand) as this table's hand."""
        st = self.state = state if state is not None else self.match.new_hand()
        if not self._fixed:
            self.rngs = bot_rngs(st.seed, self.rules.players)
        self.decisions = [0] * self.rules.players
        self.think = [0.0] * self.rules.players
        return self.state

    def _running(self) -> GameState:
        if self.state is None:
            raise RuntimeError("no hand is running: deal() first")
        return self.state

    def is_hand_over(self) -> bool:
        return self.state is not None and self.state.is_terminal()

    def finish_hand(self) -> HandResult:
        """Book the finished hand in the match (R6, R38); its result."""
        st = self._running()
        if not st.is_terminal():
            raise RuntimeError("the hand is not finished")
        if self._match is not None and st is self._match.state:
            return self._match.finish_hand(st)
        assert st.result is not None
        return st.result  # a hand dealt elsewhere is no part of the match

    def record(self, **extra: Any) -> HandRecord:
        """The running (or finished) hand's record, naming each seat's bot (and ``extra``).

        In a race (R45) a hand booked in the match carries the running totals after
        it in its ``result`` (``totals``, INTERFACES §4)."""
        st = self._running()
        bots = [p.name if p is not None else None for p in self.players]
        rec = HandRecord.of(st, bots=bots, **extra)
        m = self._match
        booked = m is not None and bool(m.results) and st.result is m.results[-1]
        if rec.result is not None and self.rules.match == MatchKind.RACE and booked:
            assert m is not None
            rec = replace(rec, result={**rec.result, "totals": list(m.scores)})
        return rec

    def resume(self, rec: HandRecord, own_seed: bool = False) -> GameState:
        """Play the recorded hand ``rec`` as the match's next hand, every recorded
        action re-applied (a server's restart). ``ValueError`` if it is not the hand
        the match deals next (seed, dealer, 荒庄 count); ``own_seed``: the hand was
        dealt from its own seed (``Match.new_hand(seed=…)``), any seed is its."""
        m = self.match
        if own_seed and not m.is_over() and rec.seed is not None:
            m.hand_seeds[m.index] = rec.seed
        if m.is_over() or (rec.seed, rec.dealer, rec.huang) != (
            m.hand_seeds[m.index],
            m.dealer,
            m.huang,
        ):
            raise ValueError(f"hand {m.index} of the record does not follow the match's dealing")
        st = self.deal(m.new_hand(deck=rec.deck))
        for a in rec.actions:
            self.apply(a)
        return st

    # ------------------------------------------------------------------ moves
    def to_act(self) -> list[int]:
        return self._running().to_act() if self.state is not None else []

    def next_bot(self) -> int | None:
        """The highest-priority bot seat with a decision pending, else None."""
        st = self.state
        if st is None or st.is_terminal():
            return None
        if self._all_bots:
            return st.current_player
        for seat in st.to_act():
            if self.players[seat] is not None:
                return seat
        return None

    def waiting_for(self) -> list[int]:
        """Outside seats with a decision pending (once no bot must decide first)."""
        if self.next_bot() is not None:
            return []
        return [s for s in self.to_act() if self.players[s] is None]

    def choose(self, seat: int, state: GameState | None = None, bot: Bot | None = None) -> Action:
        """Bot ``seat``'s action, decided on ``state`` (default: the running hand).

        Pass a :meth:`~GameState.clone` to think in another thread while the
        table goes on; the action is then applied with :meth:`apply`. ``bot``
        decides once in the seat's place (a stand-in), with the seat's RNG.
        """
        stand = bot is not None
        bot = bot if bot is not None else self.players[seat]
        if bot is None:
            raise ValueError(f"seat {seat} is not a bot")
        st = state if state is not None else self._running()
        t0 = self.clock()
        try:
            action = bot.act(Observation(st, seat), self.rngs[seat])
        except Exception as e:
            if not self.stand_in:
                raise
            self.notices.append(
                f"seat {seat}: bot {bot.name} failed ({type(e).__name__}: {e}); random plays on"
            )
            bot = RandomBot()
            if not stand:
                self.players[seat] = bot
            action = bot.act(Observation(st, seat), self.rngs[seat])
        self.think[seat] += self.clock() - t0
        self.decisions[seat] += 1
        return action

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Apply one seat's action (``IllegalAction`` and nothing changes if it is not legal)."""
        return self._running().apply(action)

    def apply_id(self, seat: int, action_id: str) -> tuple[Event, ...]:
        """:meth:`apply` by the action's id, e.g. ``"discard:x1"`` (``IllegalAction`` if not legal)."""
        return self._running().apply_id(seat, action_id)

    def bot_move(self) -> tuple[Event, ...] | None:
        """Let the next bot decide and apply its action; None when no bot must decide."""
        seat = self.next_bot()
        if seat is None:
            return None
        return self.apply(self.choose(seat))

    def run_bots(self) -> list[Event]:
        """Bot moves until an outside seat must decide or the hand is over."""
        out: list[Event] = []
        while (events := self.bot_move()) is not None:
            out.extend(events)
        return out

    def play_hand(self, state: GameState | None = None) -> HandResult:
        """Deal (or adopt ``state``) and play a hand of bots to its end; book it."""
        self.deal(state)
        self.run_bots()
        if not self.is_hand_over():
            raise RuntimeError("an outside seat must decide: play_hand is for bots only")
        return self.finish_hand()

    def play(self) -> list[int]:
        """Play every remaining hand of the match between bots; what each seat wins over
        the match (R38; a race's pairwise settlement, R45)."""
        while not self.match.is_over():
            self.play_hand()
        return self.match.final()


def playout(
    state: GameState, policy: Callable[[GameState, int], Action], max_steps: int = 400
) -> GameState:
    """Play ``state`` on in place, ``policy(state, seat)`` choosing for every seat, until
    the hand is over or ``max_steps`` actions were applied (a search's rollout on a
    world of its own: the policy may read that world whole)."""
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        state.apply(policy(state, state.current_player))
        steps += 1
    return state


__all__ = ["Table", "bot_rngs", "derive_seed", "playout"]
