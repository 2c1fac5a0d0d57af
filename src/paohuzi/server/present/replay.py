"""回放 (huífàng): the frames of a finished hand, for the browser to step through.

Every frame is built from seats' own views (the one hidden-information filter)
and shaped as the live table's ``view``, so the client draws it with the
table's renderer:

- ``seat`` given: exactly what that seat saw — its view after each step and
  the events of its own log (:meth:`HandRecord.frames
  <paohuzi.core.records.HandRecord.frames>`);
- no seat: a finished hand's record is public, so each frame is the dealer's
  view plus ``reveal`` — every seat's hand and 王, own melds and 胡息, each from that
  seat's own view of the same step — and the step's events in full.
"""

from __future__ import annotations

from typing import Any

from paohuzi.core.actions import PASS
from paohuzi.core.records import HandRecord
from paohuzi.core.views import View, view


def _view(v: View) -> dict[str, Any]:
    d = v.to_dict()
    for k in ("legal_actions", "result", "log"):
        del d[k]
    return d


def replay_frames(rec: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """The frames of a finished hand's §4 record: the deal, then one per action.

    ``ReplayError`` for a record that does not replay, ``ValueError`` for a seat
    that was not dealt in."""
    hand = HandRecord.from_dict(rec)
    dealt = hand.deal().seats
    if seat is not None and seat not in dealt:
        raise ValueError(f"seat {seat} was not dealt in")
    frames: list[dict[str, Any]] = []
    if seat is not None:
        for f in hand.frames(seat):
            # another seat's 过 is not what this seat saw (R16): its step shows no action
            mine = f.action is not None and (f.action.seat == seat or f.action.type != PASS)
            a = f.action.to_dict() if mine and f.action is not None else None
            frames.append(
                {"action": a, "events": [e.to_dict() for e in f.events], "view": _view(f.view)}
            )
    else:
        n, seen = hand.rules.players, 0
        for action, st in hand.steps():
            own = {s: view(st, s) for s in dealt}
            frames.append(
                {
                    "action": action.to_dict() if action is not None else None,
                    "events": [e.to_dict() for e in st.events[seen:]],
                    "view": _view(own[hand.dealer]),
                    "reveal": {
                        "hands": [
                            [c.code for c in own[s].hand] if s in own else [] for s in range(n)
                        ],
                        "tables": [
                            [m.to_dict() for m in own[s].tables[s]] if s in own else []
                            for s in range(n)
                        ],
                        "huxi": [own[s].huxi if s in own else 0 for s in range(n)],
                        # each seat's 王 (R39), drawn after its natural cards as at the table
                        "wang": [own[s].wang if s in own else 0 for s in range(n)],
                        "to_act": [s for s in dealt if own[s].to_act],
                    },
                }
            )
            seen = len(st.events)
    return {
        "rules": hand.rules.name,
        "players": hand.rules.players,
        "names": dict(hand.extra).get("names"),  # the seats' names at the table (a §4 extension)
        "seats": list(dealt),
        "dealer": hand.dealer,
        "seat": seat,
        "frames": frames,
        "result": dict(hand.result) if hand.result is not None else None,
    }


__all__ = ["replay_frames"]
