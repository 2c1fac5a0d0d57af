"""回放 (huífàng): the frames of a finished hand, for the browser to step through.

Only finished hands are replayed (their records are public once shared by
link), so every frame shows everything: every seat's hand and table cards.
"""

from __future__ import annotations

from typing import Any

from paohuzi.core.actions import Action
from paohuzi.core.cards import CODES
from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState
from paohuzi.core.views import view


def _frame(state: GameState, action: dict[str, Any] | None, start: int) -> dict[str, Any]:
    """Everything on the table after one step of a *finished* hand (every seat's own view)."""
    views = [view(state, s).to_dict() for s in range(state.n)]
    v0 = views[state.dealer]
    opened = v0["open"]
    if opened is not None:
        opened = views[opened["owner"]]["open"]
    return {
        "action": action,
        "events": [e.to_dict() for e in state.events[start:]],
        "hands": [v["hand"] for v in views],
        "tables": [views[s]["tables"][s] for s in range(state.n)],
        "huxi": [v["huxi"] for v in views],
        "piles": v0["piles"],
        "wall": v0["wall"],
        "open": opened,
        "to_act": v0["to_act"],
        "current_player": v0["current_player"],
    }


def replay_frames(rec: dict[str, Any]) -> dict[str, Any]:
    """The frames of a finished hand's §4 record: the deal, then one per action."""
    rules = Rules.from_dict(rec["rules"])
    state = GameState(
        rules, rec.get("seed"), deck=rec["deck"], dealer=rec["dealer"], huang=rec.get("huang", 0)
    )
    frames = [_frame(state, None, 0)]
    for ad in rec.get("actions", []):
        start = len(state.events)
        state.apply(Action.from_dict(ad))
        frames.append(_frame(state, ad, start))
    return {
        "rules": rules.name,
        "players": rules.players,
        "names": rec.get("names"),  # the seats' names at the table (a §4 extension)
        "seats": list(state.seats),
        "dealer": state.dealer,
        "liangzhang": CODES[state.liangzhang],
        "frames": frames,
        "result": state.result.to_dict() if state.result is not None else None,
    }


__all__ = ["replay_frames"]
