"""牌谱 (páipǔ): the record of one hand — the one place a hand is re-dealt and replayed.

A :class:`HandRecord` is a frozen value: the rules, seed, dealer, 荒庄 count and
the deck in dealing order, every choice (``actions``) and — as recorded —
everything that happened (``events``) and the ``result``. It is what a game
record file holds (INTERFACES.md §4, :meth:`to_dict` / :meth:`from_dict`), what
the server stores and restores, what a worker process re-deals to think on, and
what a replay steps through:

- :meth:`deal` — the hand as dealt (forced steps of the deal done);
- :meth:`replay` — the deal with every action re-applied, optionally checked
  step by step against the recorded events and result (:class:`ReplayError`);
- :meth:`frames` — one seat's view after the deal and after each action;
- :meth:`check` — every problem found, as a list, instead of raising.

Extensions beyond §4 (``bots``, ``names`` …) are kept verbatim in ``extra``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from .actions import Action, IllegalAction
from .cards import CODES, Card, CardError, card_or_wang
from .events import Event
from .fairness import verify
from .position import Position, PositionError
from .result import position_fields
from .rules import Rules, RulesError
from .scoring import settle
from .state import GameState
from .views import View, view

SCHEMA = 1
_CORE = ("schema", "rules", "seed", "dealer", "huang", "deck", "actions", "events", "result")


class ReplayError(ValueError):
    """A record that does not replay: ``step`` is the action index (−1: the deal)."""

    def __init__(self, step: int, message: str):
        super().__init__(f"step {step}: {message}" if step >= 0 else f"deal: {message}")
        self.step = step


class Frame(NamedTuple):
    """One step of a replay as a seat saw it: the action (None: the deal), the events
    it caused that the seat may see, and the seat's view afterwards."""

    action: Action | None
    events: tuple[Event, ...]
    view: View


@dataclass(frozen=True)
class HandRecord:
    """A hand's record (INTERFACES.md §4); see the module docstring."""

    rules: Rules
    seed: int | None
    dealer: int
    huang: int
    deck: tuple[Card, ...]
    actions: tuple[Action, ...] = ()
    events: tuple[dict[str, Any], ...] | None = None  # as recorded (None: not given)
    result: Mapping[str, Any] | None = None  # as recorded (None: unfinished)
    extra: tuple[tuple[str, Any], ...] = ()  # extensions, in record order

    # ------------------------------------------------------------------ making one
    @classmethod
    def of(cls, state: GameState, **extra: Any) -> HandRecord:
        """The record of ``state`` so far (finished or not), with ``extra`` fields."""
        return cls(
            state.rules,
            state.seed,
            state.dealer,
            state.huang,
            tuple(Card(c) for c in state.deck),  # a 王 is Card.W (R39)
            tuple(state.actions),
            tuple(e.to_dict() for e in state.events),
            state.result.to_dict() if state.result is not None else None,
            tuple(extra.items()),
        )

    def with_extra(self, **extra: Any) -> HandRecord:
        """This record with more (or replaced) extension fields."""
        return replace(self, extra=tuple({**dict(self.extra), **extra}.items()))

    def upto(self, n: int) -> HandRecord:
        """The record of the first ``n`` actions (what was known then; no events, no result)."""
        return replace(self, actions=self.actions[:n], events=None, result=None)

    # ------------------------------------------------------------------ plain data
    def to_dict(self) -> dict[str, Any]:
        """The JSON form of INTERFACES.md §4 (extensions after the §4 fields)."""
        d: dict[str, Any] = {
            "schema": SCHEMA,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "dealer": self.dealer,
            "huang": self.huang,
            "deck": [CODES[c] for c in self.deck],
            "actions": [a.to_dict() for a in self.actions],
            "events": [dict(e) for e in self.events] if self.events is not None else [],
            "result": dict(self.result) if self.result is not None else None,
        }
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Any) -> HandRecord:
        """A record from its JSON form; :class:`ReplayError` (step −1) if malformed."""
        if not isinstance(d, dict):
            raise ReplayError(-1, "a record must be a JSON object")
        if d.get("schema") != SCHEMA:
            raise ReplayError(-1, f"unknown schema {d.get('schema')!r}")
        try:
            rules = Rules.from_dict(d["rules"])
            deck = d["deck"]
            if not isinstance(deck, list):
                raise TypeError("deck must be a list of cards")
            cards = tuple(card_or_wang(c) if isinstance(c, str) else Card(int(c)) for c in deck)
            huang = d.get("huang", 0)
            dealer = d["dealer"]
            for k, v in (("dealer", dealer), ("huang", huang)):
                if not isinstance(v, int) or isinstance(v, bool):
                    raise TypeError(f"{k} must be an integer")
            seed = d.get("seed")
            if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
                raise TypeError("seed must be an integer or null")
        except (KeyError, TypeError, ValueError, CardError, RulesError) as e:
            raise ReplayError(-1, f"cannot deal: {e}") from None
        acts = d.get("actions", [])
        if not isinstance(acts, list):
            raise ReplayError(-1, "actions must be a list")
        actions = []
        for i, ad in enumerate(acts):
            try:
                actions.append(Action.from_dict(ad))
            except IllegalAction as e:
                raise ReplayError(i, f"illegal action {ad}: {e}") from None
        events = d.get("events")
        res = d.get("result")
        return cls(
            rules,
            seed,
            dealer,
            huang,
            cards,
            tuple(actions),
            tuple(events) if isinstance(events, list) else None,
            res if isinstance(res, dict) else None,
            tuple((k, v) for k, v in d.items() if k not in _CORE),
        )

    # ------------------------------------------------------------------ playing it
    def deal(self) -> GameState:
        """The hand as dealt (R7; the deal's forced steps done). ``ReplayError`` if the
        deck, dealer or rules cannot be dealt."""
        try:
            return GameState(
                self.rules, self.seed, deck=self.deck, dealer=self.dealer, huang=self.huang
            )
        except (TypeError, ValueError) as e:
            raise ReplayError(-1, f"cannot deal: {e}") from None

    def replay(self, check: bool = True) -> GameState:
        """Re-deal and re-apply every action. With ``check``, each step's events must
        equal the recorded ones (where events are recorded) and the result (winner,
        胡息, 底, scores) the recorded one; :class:`ReplayError` at the first mismatch."""
        state = self.deal()
        want = list(self.events) if check and self.events is not None else None
        done = len(state.events)
        if want is not None:
            _same(-1, state.events, want[:done])
        for i, new in enumerate(play_on(state, self.actions)):
            if want is not None:
                _same(i, new, want[done : done + len(new)])
            done += len(new)
        if want is not None and done != len(want):
            raise ReplayError(len(self.actions), f"record has {len(want) - done} more events")
        if check and self.result is not None:
            self._same_result(state)
        return state

    def _same_result(self, state: GameState) -> None:
        step = len(self.actions)
        if state.result is None:
            raise ReplayError(step, "the record is finished but the replay is not")
        mine, res = state.result.to_dict(), self.result or {}
        # the whole outcome (INTERFACES §3): winner, 胡息, 等, 番, 名堂, 醒, 底, payments …
        # the first key that differs, checked ones first, is named
        # (a race's running totals after the hand, INTERFACES §4, are the match's: one
        # hand cannot replay them)
        hand = {k: v for k, v in res.items() if k not in _MATCH_KEYS}
        diff = _first_difference(mine, hand, "result", _RESULT_FIRST)
        if diff is not None:
            raise ReplayError(step, diff)

    def steps(self) -> Iterator[tuple[Action | None, GameState]]:
        """The hand after the deal (action None), then after each action: one state,
        advanced in place between steps (read it, don't keep it)."""
        state = self.deal()
        yield None, state
        for action, _ in zip(self.actions, play_on(state, self.actions), strict=True):
            yield action, state

    def frames(self, seat: int) -> Iterator[Frame]:
        """What ``seat`` saw: its view after the deal, then after each action, with the
        events of that step from its own log (the views are the one filter)."""
        seen = 0
        for action, state in self.steps():
            v = view(state, seat)
            yield Frame(action, v.log[seen:], v)
            seen = len(v.log)

    def check(self) -> list[str]:
        """Every problem found (empty: the record is sound): the replay, the seed's
        deck, the deal's commitment (``salt``, ``deck_commitment``: :mod:`.fairness`) and the winning
        position re-settled by the hand calculator."""
        try:
            state = self.replay()
        except ReplayError as e:
            return [str(e)]
        problems: list[str] = []
        if self.seed is not None:
            seeded = GameState(self.rules, self.seed, dealer=self.dealer, huang=self.huang)
            if seeded.deck != state.deck:
                problems.append("deck is not the one the seed shuffles")
        # 可验证洗牌: the deck is the one committed to at the deal (a server's records)
        bad = verify([CODES[c] for c in self.deck], dict(self.extra))
        if bad is not None:
            problems.append(bad)
        res = self.result
        if res is not None and res.get("winner") is not None:
            try:
                fields, _ = position_fields(res["position"])
                pos = Position.from_dict(fields, hand_size=self.rules.hand_size)
                st = settle(pos, self.rules, huang=self.huang)
                if not st.win or st.di != res.get("di") or st.huxi != res.get("huxi"):
                    problems.append(
                        f"result.position re-settles to win={st.win} huxi={st.huxi} di={st.di}"
                    )
            except (KeyError, PositionError) as e:
                problems.append(f"result.position: {e}")
        return problems


_RESULT_FIRST = ("winner", "huxi", "di", "scores")
_MATCH_KEYS = frozenset({"totals"})  # what the match adds to a hand's result (table.py)
_ABSENT = object()


def _first_difference(got: Any, had: Any, path: str, first: tuple[str, ...] = ()) -> str | None:
    """Where the replay's value ``got`` and the record's ``had`` first differ, as
    "PATH: replay gives X, record has Y" (nested keys and list places named), or None."""
    if isinstance(got, dict) and isinstance(had, dict):
        for key in [*first, *sorted((set(got) | set(had)) - set(first), key=str)]:
            a, b = got.get(key, _ABSENT), had.get(key, _ABSENT)
            if a is _ABSENT or b is _ABSENT:
                if a is not b:
                    shown = (_shown(v) if v is not _ABSENT else "nothing" for v in (a, b))
                    return "{}.{}: replay gives {}, record has {}".format(path, key, *shown)
                continue
            diff = _first_difference(a, b, f"{path}.{key}")
            if diff is not None:
                return diff
        return None
    if isinstance(got, list) and isinstance(had, list) and len(got) == len(had):
        for i, (a, b) in enumerate(zip(got, had, strict=True)):
            diff = _first_difference(a, b, f"{path}[{i}]")
            if diff is not None:
                return diff
        return None
    if got == had:
        return None
    return f"{path}: replay gives {_shown(got)}, record has {_shown(had)}"


def _shown(v: Any) -> str:
    """A value as the record writes it (JSON: an enum by its value, not its repr)."""
    try:
        return json.dumps(v, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(v)


def play_on(state: GameState, actions: Iterable[Action]) -> Iterator[tuple[Event, ...]]:
    """Apply ``actions`` to ``state`` in turn, each step's events as it is made: the one
    replay loop (a record's re-deal, the RL env's past states made again from a copy of
    the hand's first state). :class:`ReplayError` names the first illegal action."""
    for i, action in enumerate(actions):
        try:
            yield state.apply(action)
        except IllegalAction as e:
            raise ReplayError(i, f"illegal action {action.to_dict()}: {e}") from None


def _same(step: int, got: Any, want: list[Any]) -> None:
    g = [e.to_dict() for e in got]
    if g == want:
        return
    for i, (a, b) in enumerate(zip(g, want, strict=False)):
        if a != b:
            raise ReplayError(step, f"event {i}: got {_shown(a)}, record has {_shown(b)}")
    more = (g + want)[min(len(g), len(want))]
    raise ReplayError(step, f"{len(g)} events, record has {len(want)} (next: {_shown(more)})")


# -- the record as plain data (the §4 JSON), for callers that hold dicts ------------
def record(state: GameState) -> dict[str, Any]:
    """The §4 record of ``state`` as JSON-able data (``HandRecord.of(state).to_dict()``)."""
    return HandRecord.of(state).to_dict()


def replay(rec: Any, strict_events: bool = True) -> GameState:
    """Replay a §4 record dict (``HandRecord.from_dict(rec).replay(...)``).

    Without ``strict_events`` only the result is checked, not each step's events."""
    hr = HandRecord.from_dict(rec)
    if not strict_events:
        hr = replace(hr, events=None)
    return hr.replay()


def check(rec: Any) -> list[str]:
    """Every problem found in a §4 record dict (empty list: the record is sound)."""
    try:
        return HandRecord.from_dict(rec).check()
    except ReplayError as e:
        return [str(e)]


__all__ = ["SCHEMA", "Frame", "HandRecord", "ReplayError", "check", "play_on", "record", "replay"]
