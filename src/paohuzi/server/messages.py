"""消息 (xiāoxi): every message the server sends a seat's websocket (INTERFACES.md §5).

``state``, ``hint``, ``said``, ``error`` and ``pong``, each a pydantic model (the
client → server ones are in :mod:`.wire`). The models are the messages' one
description: :mod:`.present` builds them, :func:`encode` writes them, the tests
validate every message of played games against them.

Cheap on the hot path: a state is built for every human seat on every change,
from values the server made itself, so it is made without validation —
:meth:`Out.make`, ``model_construct`` less the per-field alias and default
lookups these models never need (a fraction of its cost; the tests check both
make the same model) — and written by orjson from the models' own field dicts
(:func:`encode`; pydantic's ``model_dump_json`` infers the large ``view`` dict
at several times orjson's cost; the tests check both write the same bytes, and
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

from typing import Annotated, Any, Literal, Self, get_args

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

from paohuzi.server.vocab import RoomPhase, SeatKind


def _absent(value: object) -> bool:
    return value is None


def omitted() -> Any:
    """A field left out of the JSON when None (not sent as ``null``)."""
    return Field(default=None, exclude_if=_absent)


_REQUIRED = object()
_set = object.__setattr__


class Out(BaseModel):
    """A server → client message or a part of one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def make(cls, **values: Any) -> Self:
        """``model_construct(**values)`` for trusted values (no validation), at a fraction
        of its cost: every field is a plain name with a plain default, and ``values``
        naming every field in order are the model's fields as they are. A required
        field left out is a KeyError, not a model missing it."""
        obj = cls.__new__(cls)
        names, plan = _PLANS.get(cls) or _plan(cls)
        given = set(values)
        if tuple(values) != names:
            values = {n: values[n] if d is _REQUIRED else values.get(n, d) for n, d in plan}
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", given)
        _set(obj, "__pydantic_extra__", None)
        _set(obj, "__pydantic_private__", None)
        return obj


Plan = tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]
_PLANS: dict[type[Out], Plan] = {}


def _plan(cls: type[Out]) -> Plan:
    """The fields' names, and each one's name and default, in order (:meth:`Out.make`)."""
    plan = []
    for name, f in cls.model_fields.items():
        if f.alias not in (None, name) or f.default_factory is not None:
            raise TypeError(f"{cls.__name__}.{name}: Out.make fills plain fields only")
        plan.append((name, _REQUIRED if f.is_required() else f.default))
    out = _PLANS[cls] = (tuple(n for n, _ in plan), tuple(plan))
    return out


def same(a: Out | None, b: Out) -> bool:
    """Do ``a`` and ``b`` say the same? (their fields, as ``==`` compares them first,
    without its checks for extras and private attributes these models never have)"""
    return a is not None and type(a) is type(b) and a.__dict__ == b.__dict__


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
    wang: tuple[int, ...] | None = omitted()  # every seat's 王 (R39), where the rules deal 王


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
    wang: int | None = omitted()  # this seat's 王 (R39), where the rules deal 王
    watched: tuple[str, ...] | None = omitted()  # 坐醒 (R42): the dealer's hand, to the seat out


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
    pattern: str | None = omitted()  # 胡 by a 王 pattern (R41): wangdiao … wangzha_wang
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
    # R40: which of ``cards`` (their places, from 0) a 王 stood for, in a win with 王
    wang: tuple[int, ...] | None = omitted()


class MingtangLine(Out):
    """One 名堂 and how it counts (``effect``, R36/R42–R45): ``fan`` its 番 (× or +, the
    settlement's ``fan_combine``), ``units`` units it adds (桂林 海底 +2 子), ``base``
    the hand's base it sets (娄底: 100 each)."""

    name: str
    fan: int
    effect: str = "fan"
    id: str = ""  # the 名堂's id (mingtang.PATTERNS)
    name_en: str = ""  # its English label, as the lobby's (the region's own word kept)


class RaceLine(Out):
    """放炮罚 (R45): the race after this hand — each seat's running total and the target."""

    target: int
    round_to: int
    totals: tuple[int, ...]


class XingSeatLine(Out):
    """坐醒 / 数醒 (PRESETS yongzhou, guilin; ``rules.xing_seat``): the seat that sat out
    collected ``each`` (番 × 醒数, capped like 底) from each of the ``losers``."""

    seat: int
    fan: int
    xing: int
    each: int
    losers: int


class HuangLine(Out):
    """Why money moved on a 荒庄: the dealer's cost to each other seat (R32) or his race
    penalty (R45), and 亡牌 (永州): the 王 each seat held, ``wang_pay`` per extra 王."""

    dealer: int
    cost: int = 0  # the dealer paid each other dealt-in seat this
    penalty: int = 0  # a race: the dealer lost this from his running total
    wang_pay: int = 0  # 亡牌: between every two dealt-in seats, per extra 王
    wang: tuple[int, ...] | None = omitted()  # 亡牌: the 王 each seat held


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
    doubled_en: tuple[str, ...] = ()
    turned_by: int | None = None  # 翻出: won on a card this seat turned up from the wall
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
    unit: str = "等"  # the score's unit: 等, 子 (桂林), 囤 (衡阳), 息 (娄底)
    fan_combine: str = "add"  # 番 of several 名堂 added or multiplied (R36, R43)
    xing_cards: tuple[str, ...] | None = omitted()  # 醒牌 turned (R42); None: no 醒 here
    xing: int | None = omitted()  # 醒数 in units (R42, 双醒 counted)
    # R42, why 醒数 is what it is: each 醒牌's count in the winner's 门子 (a 王 standing
    # for it counted; before 双醒), and 双醒 (True only: doubles their sum)
    xing_counts: tuple[int, ...] | None = omitted()
    xing_double: bool | None = omitted()
    race: RaceLine | None = omitted()  # a race match only (R45)
    wang: tuple[str, ...] | None = omitted()  # R40: the card each 王 stood for (a win with 王)
    pattern: str | None = omitted()  # R41: the win's 王 pattern (wangdiao … wangzha_wang)
    huang_multiplier: int | None = omitted()  # 黄番: 底 × this after 荒庄 in a row (> 1 only)
    baopei: int | None = omitted()  # 包赔: the discarder paid this many seats' shares (> 1 only)
    xing_seat: XingSeatLine | None = omitted()  # 坐醒/数醒: what the sit-out seat collected
    huang: HuangLine | None = omitted()  # 荒庄: why money moved (only where some did)


class HandLine(Out):
    index: int
    hand_id: str | None
    scores: tuple[int, ...]
    winner: int | None
    huxi: int | None  # the winner's 胡息; None after a 荒庄
    fan: int | None
    pattern: str | None = omitted()  # R41: the win's 王 pattern (wangdiao … wangzha_wang)


class BestHand(Out):
    index: int
    seat: int
    score: int


class SeatBest(Out):
    index: int
    score: int


class Transfer(Out):
    """One pair of a race's final settlement: ``payer`` pays ``payee`` ``amount``."""

    payer: int
    payee: int
    amount: int


class RaceFinal(Out):
    """放炮罚 的结算 (R45): the running totals, rounded to ``round_to``, settled pairwise;
    ``final`` is what each seat wins (``Match.final``), ``huang_penalties`` what each
    lost to 荒庄 on the way, ``reached`` whether a total reached the target (else the
    safety cap of hands ended the race)."""

    target: int
    round_to: int
    totals: tuple[int, ...]
    rounded: tuple[int, ...]
    transfers: tuple[Transfer, ...]
    final: tuple[int, ...]
    huang_penalties: tuple[int, ...]
    reached: bool


class MatchSummary(Out):
    """总成绩 of a finished match (docs/web.md)."""

    hands: tuple[HandLine, ...]
    totals: tuple[int, ...]
    ranking: tuple[int, ...]
    big_winner: tuple[int, ...]
    best_hand: BestHand | None
    best_hands: tuple[SeatBest | None, ...]
    race: RaceFinal | None = omitted()  # a race match's pairwise final settlement (R45)


# ------------------------------------------------------------------ messages
class DissolveVote(Out):
    """解散房间: the vote on ending the match — who asked, when silence counts as
    agreement (server epoch seconds), each seat's answer (None: none yet); once refused,
    who refused (shown until the next change of the game)."""

    by: int
    deadline: float
    votes: tuple[bool | None, ...]
    refused_by: int | None = omitted()


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
    deck_commitment: str | None = omitted()  # 可验证洗牌: the hand's, from its deal on
    dissolve: DissolveVote | None = omitted()  # a 解散 vote open (or just refused)
    dissolved: bool | None = omitted()  # True: the match was ended by a 解散 vote


class _StateHead(Out):
    type: Literal["state"] = "state"
    version: int


_STAMPED = frozenset(("version", "server_time"))


class StateMessage(SeatState, _StateHead):
    """``state``: after every change the seat may see; its fields in the order of the
    bases (``type``, ``version``, then :class:`SeatState`'s), then ``server_time``."""

    server_time: float

    @classmethod
    def of(cls, state: SeatState, version: int, server_time: float) -> StateMessage:
        """``state`` sent as ``version`` (:meth:`Out.make` of its fields, without the
        field-by-field copy: every state a seat is sent is made here)."""
        obj = cls.__new__(cls)
        d = {"type": "state", "version": version, **state.__dict__, "server_time": server_time}
        _set(obj, "__dict__", d)
        _set(obj, "__pydantic_fields_set__", state.__pydantic_fields_set__ | _STAMPED)
        _set(obj, "__pydantic_extra__", None)
        _set(obj, "__pydantic_private__", None)
        return obj


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
def _holds_parts(tp: Any) -> bool:
    if isinstance(tp, type) and issubclass(tp, Out):
        return True
    return any(_holds_parts(a) for a in get_args(tp))


def _one_part(tp: Any) -> bool:
    """``tp`` is a part or None (not a tuple of parts)."""
    return all(
        a is type(None) or (isinstance(a, type) and issubclass(a, Out)) for a in _members(tp)
    )


def _members(tp: Any) -> tuple[Any, ...]:
    return get_args(tp) if get_args(tp) and not isinstance(tp, type) else (tp,)


# Per model class: the fields left out when None, those holding one part (or None) and
# those holding a tuple of parts. Known per class, so writing needs no isinstance (a
# pydantic model's is an ABC check).
Shape = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
_SHAPES: dict[type[Out], Shape] = {}


def _shape(cls: type[Out]) -> Shape:
    shape = _SHAPES.get(cls)
    if shape is None:
        fields = cls.model_fields.items()
        omit = tuple(n for n, f in fields if f.exclude_if is _absent)
        nested = [(n, f.annotation) for n, f in fields if _holds_parts(f.annotation)]
        ones = tuple(n for n, tp in nested if _one_part(tp))
        many = tuple(n for n, tp in nested if not _one_part(tp))
        shape = _SHAPES[cls] = (omit, ones, many)
    return shape


def _plain(obj: Out) -> dict[str, Any]:
    """The model as the JSON object it is sent as: its fields in order (make,
    model_construct and validation all fill ``__dict__`` so), less omitted Nones, its
    parts as objects too."""
    d = obj.__dict__
    omit, ones, many = _SHAPES.get(type(obj)) or _shape(type(obj))
    if not (omit or ones or many):
        return d
    d = d.copy()  # (a C copy and a few replacements beat rebuilding a state's keys)
    for k in omit:
        if d[k] is None:
            del d[k]
    for k in ones:
        v = d.get(k)
        if v is not None:
            d[k] = _plain(v)
    for k in many:
        v = d.get(k)
        if v:
            d[k] = _plain_parts(v)
    return d


def _plain_parts(parts: tuple[Out | None, ...]) -> list[Any]:
    return [_plain(x) if x is not None else None for x in parts]


def encode(msg: ServerMessage) -> str:
    """A message as the JSON text sent: the bytes ``model_dump_json`` gives, at the cost
    of orjson on plain dicts (a state is a few KB, written for every change)."""
    return orjson.dumps(_plain(msg), option=orjson.OPT_NON_STR_KEYS).decode()


__all__ = [
    "ActionChoice",
    "BestHand",
    "DissolveVote",
    "ErrorMessage",
    "GroupLine",
    "HandLine",
    "HandSettlement",
    "HintInfo",
    "HintMessage",
    "HuangLine",
    "MatchSummary",
    "MeldWire",
    "MingtangLine",
    "OpenWire",
    "PlayerInfo",
    "PongMessage",
    "RaceFinal",
    "RaceLine",
    "Reason",
    "RevealWire",
    "SaidMessage",
    "SeatBest",
    "SeatState",
    "ServerMessage",
    "StateMessage",
    "Timer",
    "TingInfo",
    "Transfer",
    "View",
    "ViewWire",
    "XingSeatLine",
    "encode",
    "omitted",
    "same",
    "server_message",
]
