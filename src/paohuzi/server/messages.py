"""消息 (xiāoxi): every message the server sends a seat's websocket (INTERFACES.md §5).

``state``, ``hint``, ``said``, ``error`` and ``pong``, each a pydantic model (the
client → server ones are in :mod:`.wire`). The models are the messages' one
description: :mod:`.present` builds them, :func:`encode` writes them, the tests
validate every message of played games against them.

Cheap on the hot path: a state is built for every human seat on every change,
from values the server made itself, so it is built with ``model_construct`` (no
validation) and written by orjson, which is given each model's fields in order
(:func:`encode`; the tests check it writes what ``model_dump_json`` writes, and
that every message validates). A field that is left out rather than sent as
``null`` (a 吃's ``huxi``, the ``result`` of a hand in play) is an
:func:`omitted` field.

``view`` stays the engine's own wire form (:meth:`paohuzi.core.views.View.to_dict`
less ``legal_actions`` and ``result``), a dict: the engine owns its shape and
builds it with memoised parts; a model of it would copy every event of the log
per seat per change. :class:`ViewWire` describes that dict and checks it
wherever a state is validated (the tests), never on the hot path.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

from paohuzi.server.vocab import RoomPhase, SeatKind


def _absent(value: object) -> bool:
    return value is None


def omitted() -> Any:
    """A field left out of the JSON when None (not sent as ``null``)."""
    return Field(default=None, exclude_if=_absent)


class Out(BaseModel):
    """A server → client message or a part of one."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# ------------------------------------------------------------------ the view (validated dict)
class MeldWire(Out):
    kind: str
    cards: tuple[str | None, ...]  # None: face down to this seat
    huxi: int | None


class OpenWire(Out):
    card: str | None
    owner: int
    source: str
    shown: bool


class RevealWire(Out):
    hands: tuple[tuple[str, ...], ...]
    huxi: tuple[int, ...]


class ViewWire(Out):
    """视角: the ``view`` of a state — what one seat may see (R16), INTERFACES §5."""

    seat: int
    rules: str
    players: int
    seats: tuple[int, ...]
    dealer: int
    phase: str
    current_player: int | None
    to_act: tuple[int, ...]
    others_deciding: bool
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    tables: tuple[tuple[MeldWire, ...], ...]
    table_huxi: tuple[int, ...]
    piles: tuple[tuple[str, ...], ...]
    wall: int
    liangzhang: str | None
    bottom: str | None
    open: OpenWire | None
    chou: tuple[str, ...]
    discarded: tuple[str, ...]
    discards: tuple[tuple[str, ...], ...]
    huxi: int
    need: int
    log: tuple[dict[str, Any], ...]  # events in their §4 record form
    reveal: RevealWire | None = omitted()  # once the hand is over


def _view_shape(view: dict[str, Any]) -> dict[str, Any]:
    ViewWire.model_validate(view)
    return view


View = Annotated[dict[str, Any], AfterValidator(_view_shape)]


# ------------------------------------------------------------------ parts of a state
class ActionChoice(Out):
    """One legal choice of the seat: an engine action, or the web's ready / rematch."""

    id: str
    type: str
    card: str | None = omitted()
    groups: tuple[tuple[str, ...], ...] | None = omitted()  # 吃: the 吃 group, then each 比
    huxi: int | None = omitted()  # 吃: the 胡息 its groups bring to the table
    label: str


class PlayerInfo(Out):
    """A seat as anyone may see it (``away`` is set only on public decisions)."""

    seat: int
    kind: SeatKind
    name: str
    bot: str | None  # a bot seat's level
    connected: bool
    away: bool
    ready: bool


class Timer(Out):
    """托管 timer: when (server epoch seconds) the seat's decision goes to a bot."""

    seat: int
    deadline: float


class TingInfo(Out):
    """听牌: a card that would win, its 胡息 taken from another seat and self-drawn."""

    card: str
    zh: str
    huxi: int | None
    huxi_zimo: int | None


class GroupLine(Out):
    kind: str
    cards: str  # Chinese characters
    huxi: int


class MingtangLine(Out):
    name: str
    fan: int


class HandSettlement(Out):
    """结算 of a finished hand (R33–R37) with the match totals after it (R38)."""

    winner: int | None
    huangzhuang: bool
    discarder: int | None  # pays alone
    self_drawn: bool
    tianhu: bool
    win_card: str | None
    groups: tuple[GroupLine, ...]
    huxi: int
    scored_huxi: int
    doubled: tuple[str, ...]
    doubled_zh: tuple[str, ...]
    zimo: bool
    deng: int
    fan: int
    mingtang: tuple[MingtangLine, ...]
    di: int
    payments: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]  # every seat's revealed hand
    current_huxi: tuple[int, ...]  # 当前总息数
    match_scores: tuple[int, ...]
    hand_index: int
    hands_total: int


class HandLine(Out):
    index: int
    hand_id: str | None
    scores: tuple[int, ...]
    winner: int | None
    huxi: int | None  # the winner's 胡息; None after a 荒庄
    fan: int | None


class BestHand(Out):
    index: int
    seat: int
    score: int


class SeatBest(Out):
    index: int
    score: int


class MatchSummary(Out):
    """总成绩 of a finished match (docs/web.md)."""

    hands: tuple[HandLine, ...]
    totals: tuple[int, ...]
    ranking: tuple[int, ...]
    big_winner: tuple[int, ...]
    best_hand: BestHand | None
    best_hands: tuple[SeatBest | None, ...]


# ------------------------------------------------------------------ messages
class SeatState(Out):
    """What a seat's state says, less its version and clock: the room compares this with
    what the seat was shown last, and only a change gives a new version."""

    phase: RoomPhase
    room: str
    hand_id: str | None
    hand_index: int
    hands: int
    rules: str
    bot: str  # the level's id
    bot_label: str
    players: tuple[PlayerInfo, ...]
    scores: tuple[int, ...]
    away_timeout: float | int  # as configured: the wire kept ``30`` and ``20.0`` apart
    rematch: str | None  # the room of the match 再来一场 started, once it exists
    result: HandSettlement | None = omitted()  # settlement / finished only
    summary: MatchSummary | None = omitted()  # finished only
    seat: int
    view: View | None
    legal_actions: tuple[ActionChoice, ...]
    timers: tuple[Timer, ...]
    away: bool
    tingpai: tuple[TingInfo, ...]


class _StateHead(Out):
    type: Literal["state"] = "state"
    version: int


class StateMessage(SeatState, _StateHead):
    """``state``: after every change the seat may see; its fields in the order of the
    bases (``type``, ``version``, then :class:`SeatState`'s), then ``server_time``."""

    server_time: float


class Reason(Out):
    zh: str
    en: str


class HintInfo(Out):
    """提示 (:class:`paohuzi.bots.hints.Hint` on the wire)."""

    seat: int
    action: str | None
    reason: Reason
    tingpai: tuple[TingInfo, ...]
    tingpai_after: str | None
    huxi: int
    ranking: tuple[str, ...]


class HintMessage(Out):
    """``hint``: follows state ``version`` for a seat with hints on."""

    type: Literal["hint"] = "hint"
    version: int
    hint: HintInfo


class SaidMessage(Out):
    """``said``: a seat's 快捷语, to every connected seat of the room."""

    type: Literal["said"] = "said"
    seat: int
    phrase: str
    text_zh: str
    text_en: str
    kind: Literal["phrase", "emoji"]


class ErrorMessage(Out):
    """``error``: to one connection; ``message`` is the Chinese text (§5), by ``code``."""

    type: Literal["error"] = "error"
    code: str
    message: str
    message_zh: str
    message_en: str


class PongMessage(Out):
    type: Literal["pong"] = "pong"
    version: int


ServerMessage = StateMessage | HintMessage | SaidMessage | ErrorMessage | PongMessage
server_message: TypeAdapter[ServerMessage] = TypeAdapter(
    Annotated[ServerMessage, Field(discriminator="type")]
)


# ------------------------------------------------------------------ writing
@cache
def _omit(cls: type[BaseModel]) -> frozenset[str]:
    return frozenset(n for n, f in cls.model_fields.items() if f.exclude_if is _absent)


def _fields(obj: Any) -> dict[str, Any]:
    if not isinstance(obj, Out):
        raise TypeError(f"{type(obj).__name__} is not a message part")
    d = obj.__dict__  # in field order: model_construct and validation both fill it so
    omit = _omit(type(obj))
    return {k: v for k, v in d.items() if v is not None or k not in omit} if omit else d


def encode(msg: ServerMessage) -> str:
    """A message as the JSON text sent (the bytes ``model_dump_json`` gives, at the
    cost of orjson: a state is a few KB, written for every change)."""
    return orjson.dumps(msg, default=_fields, option=orjson.OPT_NON_STR_KEYS).decode()


__all__ = [
    "ActionChoice",
    "BestHand",
    "ErrorMessage",
    "GroupLine",
    "HandLine",
    "HandSettlement",
    "HintInfo",
    "HintMessage",
    "MatchSummary",
    "MeldWire",
    "MingtangLine",
    "OpenWire",
    "PlayerInfo",
    "PongMessage",
    "Reason",
    "RevealWire",
    "SaidMessage",
    "SeatBest",
    "SeatState",
    "ServerMessage",
    "StateMessage",
    "Timer",
    "TingInfo",
    "View",
    "ViewWire",
    "encode",
    "omitted",
    "server_message",
]
