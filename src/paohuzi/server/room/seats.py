"""座位 (zuòwèi): one seat of a web room — who sits there, and what lives with the room.

A :class:`Seat` is the stored identity (:class:`~paohuzi.server.storage.sqlite.SeatRow`:
index, kind, token, name, bot level) and the parts that live only while the
room runs, each named for what it is: the :class:`Link` (the connection and its
meters), the :class:`Turn` (the decision in front of the seat and its 托管
timer), what it was :class:`Shown` (the version and content of its last state)
and its :class:`HintCache`.

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
from typing import Protocol

from paohuzi.bots.hints import Hint
from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.cards import names_wang
from paohuzi.server.limits import Limits, TokenBucket
from paohuzi.server.messages import ActionChoice, SeatState, ServerMessage
from paohuzi.server.storage.sqlite import SeatRow
from paohuzi.server.vocab import SeatKind, WebChoice

# What a decision (and a hint) depends on: (hand id, the seat's events so far, its choices).
DecisionKey = tuple[object, ...]


class Outbox(Protocol):
    """A seat's connection as the room uses it (:class:`~..http.conn.Conn` is one): the
    room only queues messages and closes, so it need not know the websocket layer."""

    sent: int

    def send(self, msg: ServerMessage) -> None: ...

    def close(self, code: int = 1000) -> None: ...


@dataclass(slots=True)
class Link:
    """连接: the seat's one live connection (a new one replaces it) and its meters."""

    conn: Outbox | None = None
    connects: TokenBucket | None = None  # (re)connections of this seat
    said_at: float = float("-inf")  # monotonic time of its last relayed 快捷语

    def bucket(self, limits: Limits) -> TokenBucket:
        if self.connects is None:
            self.connects = TokenBucket(limits.connect_rate, limits.connect_burst)
        return self.connects


@dataclass(slots=True)
class Turn:
    """The decision in front of the seat: its choices by id (None: ready or rematch, the
    web's own) and as the client lists them, what identifies the decision, and when it
    began (the 托管 timer)."""

    legal: dict[str, Action | None] = field(default_factory=dict)
    listed: tuple[ActionChoice, ...] = ()  # laid out once per decision, not per change
    key: DecisionKey | None = None  # None: nothing to decide
    pending_since: float | None = None  # epoch seconds

    def lookup(self, seat: int, action_id: str) -> Action | str | None:
        """The choice an id names (None: ready / rematch), or the error code why none."""
        if action_id in self.legal:
            return self.legal[action_id]
        parsed = None
        if action_id not in (WebChoice.READY, WebChoice.REMATCH):
            try:  # ids written another way (case, group order) name the same action
                parsed = Action.from_id(seat, action_id)
            except IllegalAction:
                # R39: a 王 is never discarded, claimed, nor used in a 吃/比
                wang = any(names_wang(p) for p in action_id.split(":")[1:])
                return "wang_move" if wang else "bad_action"
        if not self.legal:
            return "not_your_turn"
        for a in self.legal.values():
            if a is not None and parsed is not None and parsed.matches(a):
                return a
        return "illegal_action"


@dataclass(slots=True)
class Shown:
    """What the seat was last shown: the state's version and content, and ``since``."""

    version: int = 0
    since: int = 0  # the version its current decision began at
    state: SeatState | None = None


@dataclass(slots=True)
class HintCache:
    """提示 depends on the seat's view of the hand and its choices (``key``); the hint
    computed for a key is kept until the key moves on."""

    key: DecisionKey | None = None  # None: no hint now (not playing)
    hint: tuple[DecisionKey, Hint] | None = None


@dataclass(eq=False, slots=True)
class Seat:
    """One seat of a running room."""

    who: SeatRow  # stored; replaced (it is frozen) when a friend takes a free seat
    link: Link = field(default_factory=Link)
    turn: Turn = field(default_factory=Turn)
    shown: Shown = field(default_factory=Shown)
    hint: HintCache = field(default_factory=HintCache)
    away: bool = False  # 托管: the room's bot plays this human seat until it is back
    wants_hints: bool = False

    @property
    def index(self) -> int:
        return self.who.seat

    @property
    def kind(self) -> SeatKind:
        return self.who.kind

    def holds(self, token: str) -> bool:
        """Is ``token`` this seat's? (constant time: a guess learns nothing from timing)"""
        t = self.who.token
        return t is not None and secrets.compare_digest(t, token)


__all__ = ["DecisionKey", "HintCache", "Link", "Outbox", "Seat", "Shown", "Turn"]
