"""协议 (xiéyì): the wire models of the web game (INTERFACES.md §5).

HTTP bodies and the client → server websocket messages are validated here; the
server → client ``state`` message carries the engine's :func:`~paohuzi.core.views.view`
unchanged, so it is built as a plain dict (see :mod:`paohuzi.server.rooms`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class CreateRoom(BaseModel):
    """``POST /api/rooms``: rules preset (or a full rules object), bots and their strength."""

    model_config = ConfigDict(extra="ignore")

    rules: str | dict[str, Any] = "hunan"
    bots: int | None = Field(default=None, ge=0, le=3)  # default: every other seat
    bot: str = "greedy"
    hands: int | None = Field(default=None, ge=1, le=64)  # default: the preset's match length
    name: str | None = Field(default=None, max_length=24)
    seed: int | None = None  # match seed, for reproducible rooms (tests, demos)


class RoomCreated(BaseModel):
    room: str
    seat: int
    token: str


class JoinRoom(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str | None = Field(default=None, max_length=24)


class Joined(BaseModel):
    seat: int
    token: str


class Act(BaseModel):
    """``{"type": "act", "version": n, "action": "<id from legal_actions>"}``."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["act"]
    version: int = Field(strict=True)
    action: str = Field(max_length=200)


class Resume(BaseModel):
    """取消托管: take the seat back from the bot that plays it while its player is away."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["resume"]


class Hints(BaseModel):
    """Turn hints (提示) on or off for this seat."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["hints"]
    on: bool


class Ping(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: Literal["ping"]


ClientMessage = Annotated[Act | Resume | Hints | Ping, Field(discriminator="type")]
client_message: TypeAdapter[Act | Resume | Hints | Ping] = TypeAdapter(ClientMessage)


def error(code: str, message: str) -> dict[str, str]:
    """``{"type": "error", "code": …, "message": …}``."""
    return {"type": "error", "code": code, "message": message}
