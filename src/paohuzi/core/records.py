"""牌谱 (páipǔ): the self-contained JSON record of a hand, and its replay (INTERFACES.md §4).

A record holds the rules, seed, dealer and the deck in dealing order, every
choice (``actions``) and everything that happened (``events``). :func:`replay`
re-deals the deck and re-applies the actions, checking each step's events
against the record; :func:`check` lists every problem instead of raising.
"""

from __future__ import annotations

from typing import Any

from .actions import Action, IllegalAction
from .cards import CODES
from .position import Position, PositionError
from .rules import Rules, RulesError
from .scoring import settle
from .state import GameState

SCHEMA = 1


class ReplayError(ValueError):
    """A record that does not replay: ``step`` is the action index (−1: the deal)."""

    def __init__(self, step: int, message: str):
        super().__init__(f"step {step}: {message}" if step >= 0 else f"deal: {message}")
        self.step = step


def record(state: GameState) -> dict[str, Any]:
    """The §4 record of ``state`` (finished or not: ``result`` is then null)."""
    return {
        "schema": SCHEMA,
        "rules": state.rules.to_dict(),
        "seed": state.seed,
        "dealer": state.dealer,
        "huang": state.huang,
        "deck": [CODES[c] for c in state.deck],
        "actions": [a.to_dict() for a in state.actions],
        "events": [e.to_dict() for e in state.events],
        "result": state.result.to_dict() if state.result is not None else None,
    }


def _first_diff(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> str:
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            return f"event {i}: got {g}, record has {w}"
    if len(got) != len(want):
        return f"{len(got)} events, record has {len(want)} (next: {(got + want)[min(len(got), len(want))]})"
    return "events differ"


def replay(rec: dict[str, Any], strict_events: bool = True) -> GameState:
    """Re-deal ``rec`` and re-apply its actions; raise :class:`ReplayError` on a mismatch.

    With ``strict_events`` every step's events must equal the recorded ones; the
    result (winner, 胡息, 底, scores) must match in any case.
    """
    if not isinstance(rec, dict):
        raise ReplayError(-1, "a record must be a JSON object")
    if rec.get("schema") != SCHEMA:
        raise ReplayError(-1, f"unknown schema {rec.get('schema')!r}")
    try:
        rules = Rules.from_dict(rec["rules"])
        state = GameState(
            rules,
            rec.get("seed"),
            deck=rec["deck"],
            dealer=rec["dealer"],
            huang=rec.get("huang", 0),
        )
    except (KeyError, TypeError, ValueError, RulesError) as e:
        raise ReplayError(-1, f"cannot deal: {e}") from None
    events = rec.get("events")
    want: list[Any] = events if isinstance(events, list) else []
    check_events = strict_events and isinstance(events, list)
    done = len(state.events)
    if check_events:
        got = [e.to_dict() for e in state.events]
        if got != want[:done]:
            raise ReplayError(-1, _first_diff(got, want[:done]))
    for i, ad in enumerate(rec.get("actions", [])):
        try:
            action = Action.from_dict(ad)
            new = state.apply(action)
        except IllegalAction as e:
            raise ReplayError(i, f"illegal action {ad}: {e}") from None
        if check_events:
            got = [e.to_dict() for e in new]
            if got != want[done : done + len(new)]:
                raise ReplayError(i, _first_diff(got, want[done : done + len(new)]))
        done += len(new)
    if check_events and done != len(want):
        raise ReplayError(len(rec.get("actions", [])), f"record has {len(want) - done} more events")
    res = rec.get("result")
    if res is not None:
        if state.result is None:
            raise ReplayError(len(rec["actions"]), "the record is finished but the replay is not")
        mine = state.result.to_dict()
        for key in ("winner", "huxi", "di", "scores"):
            if not isinstance(res, dict) or res.get(key) != mine.get(key):
                have = res.get(key) if isinstance(res, dict) else res
                raise ReplayError(
                    len(rec["actions"]),
                    f"result {key}: replay gives {mine.get(key)!r}, record has {have!r}",
                )
    return state


def check(rec: dict[str, Any]) -> list[str]:
    """Every problem found in ``rec`` (empty list: the record is sound)."""
    problems: list[str] = []
    try:
        state = replay(rec)
    except ReplayError as e:
        return [str(e)]
    if rec.get("seed") is not None:
        try:
            seeded = GameState(state.rules, rec["seed"], dealer=state.dealer, huang=state.huang)
            if seeded.deck != state.deck:
                problems.append("deck is not the one the seed shuffles")
        except ValueError as e:
            problems.append(f"seed: {e}")
    res = rec.get("result")
    if isinstance(res, dict) and res.get("winner") is not None:
        try:
            pos = Position.from_dict(res["position"], hand_size=state.rules.hand_size)
            st = settle(pos, state.rules, huang=state.huang)
            if not st.win or st.di != res.get("di") or st.huxi != res.get("huxi"):
                problems.append(
                    f"result.position re-settles to win={st.win} huxi={st.huxi} di={st.di}"
                )
        except (KeyError, PositionError) as e:
            problems.append(f"result.position: {e}")
    return problems
