"""回放 (huífàng): the frames of a finished hand, for the browser to step through.

Each frame is view-shaped, as the live table's state is: ``view`` is one seat's
:func:`~paohuzi.core.views.view` (without ``legal_actions``, ``result`` and ``log``)
after one step. Without a seat every frame also carries ``reveal`` — every seat's
hand, its table as it sees it and its 胡息 — since a finished hand is public (shared
by link), and the step's ``events`` are all of them; with ``seat`` the frames are
what that seat saw: its view, and the events its log gained (an action of another
seat is left out: a silent 过 is not seen).
"""

from __future__ import annotations

from typing import Any

from paohuzi.core.actions import Action
from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState
from paohuzi.core.views import view

_NOT_SHOWN = ("legal_actions", "result", "log")


def _frame(
    state: GameState, action: dict[str, Any] | None, start: int, seat: int | None, seen: int
) -> tuple[dict[str, Any], int]:
    """One step's frame, and how long the seat's log is now."""
    v = view(state, state.dealer if seat is None else seat).to_dict()
    log = v["log"]
    for k in _NOT_SHOWN:
        del v[k]
    if seat is not None:
        mine = action is not None and action.get("seat") == seat
        return {"action": action if mine else None, "events": log[seen:], "view": v}, len(log)
    views = [view(state, s).to_dict() for s in range(state.n)]
    reveal = {
        "hands": [x["hand"] for x in views],
        "tables": [views[s]["tables"][s] for s in range(state.n)],
        "huxi": [x["huxi"] for x in views],
    }
    events = [e.to_dict() for e in state.events[start:]]
    return {"action": action, "events": events, "view": v, "reveal": reveal}, len(log)


def replay_frames(rec: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """The frames of a finished hand's §4 record: the deal, then one per action."""
    rules = Rules.from_dict(rec["rules"])
    if seat is not None and not 0 <= seat < rules.players:
        raise ValueError("seat")
    state = GameState(
        rules, rec.get("seed"), deck=rec["deck"], dealer=rec["dealer"], huang=rec.get("huang", 0)
    )
    f, seen = _frame(state, None, 0, seat, 0)
    frames = [f]
    for ad in rec.get("actions", []):
        start = len(state.events)
        state.apply(Action.from_dict(ad))
        f, seen = _frame(state, ad, start, seat, seen)
        frames.append(f)
    return {
        "rules": rules.name,
        "players": rules.players,
        "names": rec.get("names"),  # the seats' names at the table (a §4 extension)
        "seats": list(state.seats),
        "dealer": state.dealer,
        "frames": frames,
        "result": state.result.to_dict() if state.result is not None else None,
    }


__all__ = ["replay_frames"]
