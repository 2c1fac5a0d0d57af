"""协议 (xiéyì): the client's side of the wire (INTERFACES.md §5), every field bounded.

HTTP bodies and the client → server websocket messages are validated here
against the bounds of :mod:`paohuzi.server.limits`; the server → client
messages are the models of :mod:`paohuzi.server.messages`. :data:`ERRORS`
holds every error code with the Chinese text players see: it names what was
wrong with the request, never what the seat's view hides.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
)

from paohuzi.server.i18n import CATALOGUE
from paohuzi.server.i18n import fields as i18n_fields
from paohuzi.server.limits import (
    ACTION_CHARS,
    MAX_HANDS,
    MAX_SEED,
    MAX_VERSION,
    NAME_CHARS,
    PRESET_CHARS,
)
from paohuzi.server.messages import ErrorMessage
from paohuzi.server.room.levels import LEVELS
from paohuzi.server.room.phrases import BY_ID as PHRASE_IDS

# websocket close codes (4xxx: the application's own, after an ``error`` message)
WS_GOING_AWAY = 1001  # the server stops
WS_POLICY = 1008  # a client that keeps flooding after being told
WS_BAD_TOKEN = 4401
WS_BAD_ORIGIN = 4403
WS_NO_ROOM = 4404
WS_REPLACED = 4409  # the seat connected elsewhere (the newest connection wins)
WS_TOO_MANY = 4429
WS_TRY_AGAIN = 1013  # another node holds the room now: reconnect (to any node) shortly

# Chinese texts by code (the protocol's ``message``); both languages: :mod:`.i18n`.
ERRORS: dict[str, str] = {code: t.zh for code, t in CATALOGUE.items()}


class RoomError(Exception):
    """A request refused: ``status`` is the HTTP status, ``code`` a key of ERRORS."""

    def __init__(
        self,
        status: int,
        code: str,
        fields: list[str] | None = None,
        detail: tuple[str, str] | None = None,
    ):
        super().__init__(code)
        self.status, self.code = status, code
        self.fields = fields  # the offending request fields (names only, never values)
        # why, in (Chinese, English), after the code's text: the server's own words, never
        # the request's (王 with 一五十: which pair of options is not played together)
        self.detail = detail


def error(code: str, detail: str | None = None) -> ErrorMessage:
    """``{"type": "error", "code", "message", "message_zh", "message_en"}`` (``detail``:
    what the client sent wrong; ``message`` stays the Chinese text, as §5 had it)."""
    text = i18n_fields(code, detail)
    return ErrorMessage.make(
        code=code,
        message=text["message"],
        message_zh=text["message_zh"],
        message_en=text["message_en"],
    )


def _encodable(s: str) -> str:
    # A lone surrogate is valid in JSON but not in UTF-8: SQLite (and logs) would fail on it.
    s.encode("utf-8")
    return s


# Bidirectional overrides and isolates reorder what follows them on every other screen.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def _printable(s: str) -> str:
    """A name shown to other players: no control characters (C0, DEL, C1: newlines, escapes,
    bells) and no bidi controls; refused, never cleaned silently (the player sees why)."""
    if any(unicodedata.category(c) == "Cc" or c in _BIDI for c in s):
        raise ValueError("control characters are not allowed")
    return s


Text = Annotated[str, AfterValidator(_encodable)]
Name = Annotated[Text, Field(max_length=NAME_CHARS), AfterValidator(_printable)]
LevelId = Literal["easy", "normal", "hard"]
assert set(LevelId.__args__) == set(LEVELS)  # type: ignore[attr-defined]


class Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


class CreateRoom(Strict):
    """``POST /api/rooms``: rules preset (or a full rules object), bots and their level."""

    rules: Annotated[Text, Field(max_length=PRESET_CHARS)] | dict[str, Any] = "hunan"
    bots: StrictInt | None = Field(default=None, ge=0, le=3)  # default: every other seat
    bot: LevelId = "normal"
    hands: StrictInt | None = Field(default=None, ge=1, le=MAX_HANDS)  # default: the preset's
    name: Name | None = None
    seed: StrictInt | None = Field(
        default=None, ge=0, le=MAX_SEED
    )  # only with bots in every other seat
    # the lobby's options (:func:`paohuzi.server.options.schema`), validated against the rules
    options: dict[str, Any] | None = None


class RoomCreated(BaseModel):
    room: str
    seat: int
    token: str


class JoinRoom(Strict):
    name: Name | None = None


class Joined(BaseModel):
    seat: int
    token: str


class Act(Strict):
    """``{"type": "act", "version": n, "action": "<id from legal_actions>"}``."""

    type: Literal["act"]
    version: StrictInt = Field(ge=0, le=MAX_VERSION)
    action: Annotated[Text, Field(max_length=ACTION_CHARS)]


class Resume(Strict):
    """取消托管: take the seat back from the bot that plays it while its player is away."""

    type: Literal["resume"]


class Hints(Strict):
    """Turn hints (提示) on or off for this seat."""

    type: Literal["hints"]
    on: bool


class Ping(Strict):
    type: Literal["ping"]


class Ready(Strict):
    """准备: ready before the first hand of a ``ready_first`` room (= the act ``ready``)."""

    type: Literal["ready"]


def _phrase(s: str) -> str:
    if s not in PHRASE_IDS:
        raise ValueError("bad_phrase")  # never echoed: errors name the field only
    return s


class Say(Strict):
    """快捷语: one phrase or emoji of :data:`paohuzi.server.phrases.PHRASES`, by id."""

    type: Literal["say"]
    phrase: Annotated[str, Field(max_length=16), AfterValidator(_phrase)]


class Dissolve(Strict):
    """解散房间: ``agree: true`` asks to end the match now (or agrees to the open vote),
    ``agree: false`` refuses it (docs/web.md, "解散房间")."""

    type: Literal["dissolve"]
    agree: StrictBool  # "yes" is not an answer


ClientMessage = Act | Resume | Hints | Ping | Ready | Say | Dissolve
client_message: TypeAdapter[ClientMessage] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]
)
