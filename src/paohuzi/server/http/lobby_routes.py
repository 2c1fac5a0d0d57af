"""大厅接口 (dàtīng jiēkǒu): HTTP routes for the lobby, friends, rules pages, tutorial, my matches.

Everything here reads: rooms are created and played through :mod:`.app` and
the websocket. Routes find the room manager and storage on ``app.state``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import Field, StrictInt

from paohuzi.core.rules import PRESETS
from paohuzi.server.http import bodies, qr
from paohuzi.server.limits import ACTION_CHARS, TOKEN_CHARS, Buckets
from paohuzi.server.present import rulesdoc, tutorial
from paohuzi.server.present.options import apply, summary
from paohuzi.server.room import phrases
from paohuzi.server.room.room import Room
from paohuzi.server.storage.my_matches import MAX_TOKENS, my_matches
from paohuzi.server.vocab import RoomPhase, SeatKind
from paohuzi.server.wire import RoomError, Strict

router = APIRouter()
RoomId = Annotated[str, PathParam(max_length=16)]
Key = Annotated[str, PathParam(max_length=24)]
Token = Annotated[str, Field(max_length=TOKEN_CHARS)]
STATUS_EN = {
    RoomPhase.WAITING: "waiting for players",
    RoomPhase.PLAYING: "playing",
    RoomPhase.SETTLEMENT: "between hands",
    RoomPhase.FINISHED: "finished",
}
STATUS_ZH = {
    RoomPhase.WAITING: "等人",
    RoomPhase.PLAYING: "对局中",
    RoomPhase.SETTLEMENT: "结算中",
    RoomPhase.FINISHED: "已结束",
}


def join_info(room: Room) -> dict[str, Any]:
    """What a friend sees before joining: the rules line, who sits where, the status."""
    phase, free = room.phase, SeatKind.FREE
    return {
        "status": phase,
        "status_label": {"zh": STATUS_ZH[phase], "en": STATUS_EN[phase]},
        "summary": summary(room.shown_rules, room.level.id, room.config.turn_time),
        "seats": [
            {
                "seat": s.index,
                "kind": s.kind,
                "name": None if s.kind == free else s.who.name,
                "free": s.kind == free,
            }
            for s in room.seats
        ],
    }


async def _room(request: Request, code: str) -> Room:
    room: Room | None = await request.app.state.manager.get(code)
    if room is None:
        raise RoomError(404, "unknown_room")
    return room


@router.get("/api/phrases")
async def get_phrases() -> dict[str, Any]:
    return phrases.catalogue()


@router.get("/api/rooms/{room_id}/qr.svg")
async def room_qr(room_id: RoomId, request: Request) -> Response:
    """The invite's QR code: the link is the configured public URL's, never the request's
    ``Host`` (docs/security.md); made once per room (cached), metered per address."""
    await meter(request, "read")
    room = await _room(request, room_id)
    body = qr.cached_svg(qr.invite_link(request.app.state.public_url, room.id))
    return Response(body, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


@router.get("/api/rooms/{room_id}/rules")
async def room_rules(room_id: RoomId, request: Request) -> dict[str, Any]:
    await meter(request, "read")
    room = await _room(request, room_id)
    return {"room": room.id, **rulesdoc.document(room.shown_rules)}


@router.get("/api/rules/{key}")
async def rules_page(
    key: Key,
    request: Request,
    options: Annotated[str | None, Query(max_length=2000)] = None,
) -> dict[str, Any]:
    """A preset by name, else a room by code: only that room's own rules. A preset's page
    with ``?options=`` (JSON, as POST /api/rooms takes them) is the rules a room created
    with them would play: the lobby's 查看完整规则 shows the options chosen."""
    if key in PRESETS:
        if options is None:
            return rulesdoc.document(PRESETS[key])
        try:
            chosen = json.loads(options)
        except ValueError:
            raise RoomError(422, "bad_options", ["options"]) from None
        return rulesdoc.document(apply(PRESETS[key], chosen).rules)
    await meter(request, "read")
    room = await request.app.state.manager.get(key)
    if room is None:
        raise RoomError(404, "unknown_rules")
    return {"room": room.id, **rulesdoc.document(room.shown_rules)}


class MyMatches(Strict):
    tokens: list[Token] = Field(default_factory=list, max_length=MAX_TOKENS)


@router.post("/api/my-matches")
async def post_my_matches(request: Request) -> dict[str, Any]:
    body = await bodies.read(request, MyMatches)
    await meter(request, "read")
    return {"matches": await my_matches(request.app.state.storage, body.tokens)}


@router.get("/api/my-matches")
async def get_my_matches(
    request: Request,
    token: Annotated[list[Token], Query(max_length=MAX_TOKENS)] = [],  # noqa: B006
) -> dict[str, Any]:
    """``?token=a&token=b`` (named ``token`` so the logs redact each; POST is better still)."""
    await meter(request, "read")
    return {"matches": await my_matches(request.app.state.storage, token)}


@router.get("/api/tutorials")
async def list_tutorials() -> dict[str, Any]:
    return {"tutorials": tutorial.catalogue()}


@router.get("/api/tutorial")
async def first_tutorial() -> dict[str, Any]:
    return tutorial.public(tutorial.load(tutorial.names()[0]))


@router.get("/api/tutorial/{name}")
async def get_tutorial(name: Key) -> dict[str, Any]:
    return tutorial.public(_scenario(name))


@router.get("/api/tutorial/{name}/bundle")
async def tutorial_bundle(name: Key) -> dict[str, Any]:
    """Every step's answer at once (cached): the installed app's tutorial offline."""
    _scenario(name)
    return await asyncio.to_thread(tutorial.bundle, name)


class TutorialStep(Strict):
    at: StrictInt = Field(ge=0, le=500)  # the step the learner is on
    action: Annotated[str, Field(max_length=ACTION_CHARS)] | None = None  # None: just show it


# Each step replays the hand from the deal (~5 ms of CPU): metered per client address.
STEP_RATE, STEP_BURST = 10.0, 40
METERS = ("step", "read")  # tutorial steps; reads that cost work or storage (Limits.read_rate)


async def meter(request: Request, name: str) -> None:
    """Take one from ``name``'s bucket of the client's address (429 ``rate_limited`` when
    it is empty): ``read`` meters QR codes, room lookups by code, records and replays and
    我的牌局. The address is the socket's, or a trusted proxy's X-Forwarded-For."""
    state = request.app.state
    meters: dict[str, Buckets] | None = getattr(state, "meters", None)
    if meters is None:
        lim = state.manager.limits
        meters = state.meters = {
            "step": Buckets(STEP_RATE, STEP_BURST),
            "read": Buckets(lim.read_rate, lim.read_burst),
        }
    client = request.client.host if request.client else "?"
    if not meters[name].take(client):
        raise RoomError(429, "rate_limited")
    manager = state.manager  # with many nodes, reads are also counted on all of them
    if name == "read" and not await manager.shared_allows(manager.shared_reads, client):
        raise RoomError(429, "rate_limited")


@router.post("/api/tutorial/{name}/step")
async def tutorial_step(name: Key, request: Request) -> dict[str, Any]:
    body = await bodies.read(request, TutorialStep)
    sc = _scenario(name)
    await meter(request, "step")
    return await asyncio.to_thread(tutorial.step, sc, body.at, body.action)


def _scenario(name: str) -> tutorial.Scenario:
    if name not in tutorial.names():
        raise RoomError(404, "unknown_tutorial")
    return tutorial.load(name)


__all__ = ["METERS", "join_info", "meter", "router"]
