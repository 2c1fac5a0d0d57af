"""座位 (zuòwèi): one seat of a web room — who sits there and what it was last shown.

Each human seat keeps its own state ``version``: it moves only when the state
message built for that seat changes, i.e. only on changes the seat may see.
Another seat's silent 过 in a claim window changes nothing a seat sees, so it
moves no version either (R16: who else may claim is private). ``since`` is the
version at which the seat's current decision began: an ``act`` naming any
version from ``since`` on is current, whatever else changed meanwhile.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from paohuzi.bots.hints import Hint
from paohuzi.core.actions import Action, IllegalAction
from paohuzi.server.limits import Limits, TokenBucket
from paohuzi.server.storage.sqlite import SeatRow

HUMAN, BOT, FREE = "human", "bot", "free"
READY = "ready"  # the one choice at a settlement: not an engine action, the web's own
REMATCH = "rematch"  # 再来一场 at the match's end: the same seats in a new match


class Outbox(Protocol):
    """A seat's connection as the room uses it (:class:`~.conn.Conn` is one): the room
    only queues messages and closes, so it need not know the websocket layer above it."""

    sent: int

    def send(self, msg: dict[str, Any]) -> None: ...

    def close(self, code: int = 1000) -> None: ...


@dataclass
class Seat:
    index: int
    kind: str  # HUMAN | BOT | FREE
    token: str | None = None
    name: str = ""
    bot: str | None = None  # a bot seat's level
    conn: Outbox | None = None  # the one live connection (a new one replaces it)
    away: bool = False  # 托管: the room's bot plays this human seat until it is back
    hints: bool = False
    version: int = 0
    since: int = 0
    key: Any = None  # the current decision (None: nothing to decide)
    hint_key: Any = None  # what a hint depends on: the seat's view of the hand and its choices
    hint: tuple[Any, Hint] | None = None  # (hint_key, hint) cached per decision
    shown: dict[str, Any] | None = None  # the last state content built for the seat
    # id → choice (None: READY or REMATCH, the web's own choices)
    legal: dict[str, Action | None] = field(default_factory=dict)
    choices: list[dict[str, Any]] = field(default_factory=list)  # the described choices
    pending_since: float | None = None  # epoch seconds its decision began (away timer)
    said_at: float = float("-inf")  # monotonic time of its last relayed 快捷语
    connects: TokenBucket | None = None

    @property
    def human(self) -> bool:
        return self.kind == HUMAN

    def holds(self, token: str) -> bool:
        """Is ``token`` this seat's? (constant time: a guess learns nothing from timing)"""
        return self.token is not None and secrets.compare_digest(self.token, token)

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.token, self.name, self.bot)

    def lookup(self, action_id: str) -> Action | str | None:
        """The seat's choice an id names (None: ready), or the error code why none."""
        if action_id in self.legal:
            return self.legal[action_id]
        parsed = None
        if action_id not in (READY, REMATCH):
            try:  # ids written another way (case, group order) name the same action
                parsed = Action.from_id(self.index, action_id)
            except IllegalAction:
                return "bad_action"
        if not self.legal:
            return "not_your_turn"
        for a in self.legal.values():
            if a is not None and parsed is not None and parsed.matches(a):
                return a
        return "illegal_action"

    def bucket(self, limits: Limits) -> TokenBucket:
        if self.connects is None:
            self.connects = TokenBucket(limits.connect_rate, limits.connect_burst)
        return self.connects


__all__ = ["BOT", "FREE", "HUMAN", "READY", "REMATCH", "Outbox", "Seat"]
