"""网页版 (wǎngyè bǎn): the FastAPI app of ``paohuzi serve`` (INTERFACES.md §5).

``create_app(db_path)`` wires the HTTP API, each seat's websocket
(:func:`~.conn.serve_seat`) and the static browser client to a
:class:`~..room.manager.RoomManager` backed by SQLite. Extra endpoints beyond §5:
``GET /api/presets`` (lobby choices and their option schemas, :mod:`.options`),
``GET /api/rooms/{ID}`` (public join info) and ``GET /api/replays/{hand_id}``
(a finished hand's frames); friends, rules pages, the tutorial and 我的牌局
are in :mod:`.lobby_routes`.

Bodies are read up to ``BODY_BYTES`` and parsed by orjson before the models
validate them (:mod:`.bodies`); every refusal is a 4xx with an error code and
its Chinese and English messages (:mod:`.i18n`) that never echo the input.
API docs exist only with ``dev=True``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import socket
from collections.abc import AsyncIterator
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from paohuzi.core.rules import PRESETS
from paohuzi.server import dealkey, i18n
from paohuzi.server.http import lobby_routes as routes_lobby
from paohuzi.server.http import relayed
from paohuzi.server.http.bodies import json_body as _json_body
from paohuzi.server.http.bodies import parse as _parse
from paohuzi.server.http.conn import serve_seat
from paohuzi.server.http.relayed import RELAYED
from paohuzi.server.http.security import SecurityHeaders, redact_tokens_in_logs
from paohuzi.server.http.site import origin_allowed, origin_of
from paohuzi.server.limits import BODY_SECONDS, HAND_ID_CHARS, TOKEN_CHARS, Limits
from paohuzi.server.nodes.lease import Leases
from paohuzi.server.nodes.meters import read_nodes
from paohuzi.server.nodes.relay import Relay
from paohuzi.server.present import options, replay, tutorial
from paohuzi.server.room.bot_pool import BotPool
from paohuzi.server.room.levels import LEVELS
from paohuzi.server.room.manager import RoomManager
from paohuzi.server.storage.sqlite import default_db_path
from paohuzi.server.storage.store import Storage
from paohuzi.server.vocab import SeatKind
from paohuzi.server.wire import CreateRoom, Joined, JoinRoom, RoomCreated, RoomError

STATIC = Path(__file__).parent.parent / "client"
RoomId = Annotated[str, PathParam(max_length=16)]
HandId = Annotated[str, PathParam(max_length=HAND_ID_CHARS)]
M = TypeVar("M", bound=BaseModel)


def _fail(
    status: int,
    code: str,
    fields: list[str] | None = None,
    detail: tuple[str, str] | None = None,
) -> JSONResponse:
    more: dict[str, object] = {} if fields is None else {"fields": fields}
    zh, en = (None, None) if detail is None else detail
    return JSONResponse(i18n.http_body(code, zh, en, **more), status_code=status)


@lru_cache(maxsize=1)
def worker_script() -> str:
    """/sw.js: the client's service worker with its version (a hash of every client file)
    and what it keeps (the page, the static files, the presets, rules and tutorials)."""
    files = sorted(p for p in STATIC.rglob("*") if p.is_file() and p.name != "sw.js")
    h = hashlib.sha256()
    for p in files:
        h.update(p.relative_to(STATIC).as_posix().encode())
        h.update(p.read_bytes())
    keep = ["/", "/manifest.webmanifest", "/favicon.ico", "/api/presets", "/api/tutorial"]
    keep += ["/api/tutorials", "/api/phrases"]
    keep += [
        f"/static/{p.relative_to(STATIC).as_posix()}" for p in files if p.suffix != ".webmanifest"
    ]
    keep += [f"/api/rules/{name}" for name in PRESETS]
    keep += [f"/api/tutorial/{name}/bundle" for name in tutorial.names()]
    src = (STATIC / "sw.js").read_text(encoding="utf-8")
    return src.replace("__VERSION__", h.hexdigest()[:16]).replace(
        "/*__PRECACHE__*/ []", json.dumps(keep)
    )


def create_app(
    db_path: str | os.PathLike[str] | None = None,
    *,
    storage: Storage | None = None,
    bot_delay: float = 0.6,
    away_timeout: float = 30.0,
    limits: Limits | None = None,
    origins: tuple[str, ...] = (),
    public_url: str = "http://127.0.0.1:8000",
    dev: bool = False,
    bot_workers: int | None = None,
    synchronous: str = "NORMAL",
    deal_key: bytes | None = None,
    body_timeout: float = BODY_SECONDS,
    redis_url: str | None = None,
    node_id: str | None = None,
    relay: bool = True,
) -> FastAPI:
    """The web game. ``db_path``: a SQLite file (default under the user's data dir) or a
    database URL (``sqlite:///…``, ``postgresql://…``: :func:`~..storage.store.database_url`).

    ``bot_delay``: seconds a bot waits before acting, so humans can follow (0 in
    tests). ``away_timeout``: seconds a human may take per decision before a bot
    plays the seat (托管). ``limits``: rates, caps, lifetimes. ``public_url``: the
    address players open (invite links, QR codes; its origin may play). ``origins``:
    other web origins allowed to open seat websockets and post (never the ``Host``).
    ``dev``: serve the API docs. ``synchronous``: SQLite's ``NORMAL`` or ``FULL``.
    ``body_timeout``: seconds a request body may take to arrive (408 beyond).
    ``deal_key``: the secret behind each hand's commitment salt (default: the file
    :func:`~..dealkey.default_path`, made on first use; a random one per process for
    ``:memory:`` or a given ``storage``).
    ``redis_url`` / ``node_id``: one of many nodes over one PostgreSQL (docs/deploy.md):
    a room is played only by the node holding its lease in Redis; ``relay``: another
    node's room is relayed there through Redis (:mod:`..nodes.relay`), not refused with
    ``room_elsewhere``.
    """
    path = default_db_path() if db_path is None else db_path
    store = storage or Storage(path, synchronous)
    if deal_key is None and storage is None and str(path) != ":memory:":
        deal_key = dealkey.load_or_create(dealkey.default_path(path))
    redis = leases = None
    if redis_url is not None:
        import redis.asyncio as aioredis

        redis = aioredis.from_url(redis_url)
        leases = Leases(redis, node_id or f"{socket.gethostname()}:{os.getpid()}")
    manager = RoomManager(
        store,
        leases=leases,
        bot_delay=bot_delay,
        away_timeout=away_timeout,
        limits=limits,
        origins=tuple(dict.fromkeys((origin_of(public_url), *(o.lower() for o in origins)))),
        pool=BotPool(bot_workers),
        deal_key=deal_key,
    )
    if leases is not None and relay:
        manager.relay = Relay(
            redis,
            leases,
            manager.meters,
            lambda ws, room, token: serve_seat(ws, manager, room, token),
        )
    redact_tokens_in_logs()

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        redact_tokens_in_logs()  # again: the server may have configured logging meanwhile
        await manager.start()  # storage opened, its schema upgraded (Alembic)
        if manager.relay is not None:
            await manager.relay.start()
        yield
        await manager.stop()
        if manager.relay is not None:  # after the rooms: their last frames go out first
            await manager.relay.stop()
        await store.close()
        if redis is not None:
            await redis.aclose()

    app = FastAPI(
        title="paohuzi",
        summary="跑胡子 web game",
        lifespan=lifespan,
        docs_url="/docs" if dev else None,
        redoc_url="/redoc" if dev else None,
        openapi_url="/openapi.json" if dev else None,
    )
    app.add_middleware(SecurityHeaders)
    app.state.manager = manager
    if manager.relay is not None:  # another node's HTTP request for a room this node owns
        manager.relay.answer = lambda req: relayed.run(app, req)
    app.state.storage = store
    app.state.public_url = public_url.rstrip("/")
    app.state.body_timeout = body_timeout
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(RoomError)
    async def room_error(request: Request, e: RoomError) -> Response:
        room = request.path_params.get("room_id") or request.path_params.get("key")
        relay = manager.relay
        if (
            e.code == "room_elsewhere"
            and relay is not None
            and room
            and RELAYED not in request.headers
        ):
            got = await relay.call(str(room), relayed.describe(request))  # its owner answers
            if got is not None:
                return Response(got["b"], status_code=got["s"], media_type=got["t"])
        return _fail(e.status, e.code, e.fields, e.detail)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, e: RequestValidationError) -> JSONResponse:
        fields = [".".join(str(x) for x in err.get("loc", ())) for err in e.errors()][:5]
        return _fail(422, "bad_request", fields)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, e: StarletteHTTPException) -> JSONResponse:
        # unknown paths and methods get catalogued codes too (never Starlette's "detail")
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "bad_request")
        return _fail(e.status_code, code)

    def check_origin(request: Request) -> None:
        if not origin_allowed(request.headers.get("origin"), manager.origins):
            raise RoomError(403, "bad_origin")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        # at the root, so its scope is the whole app; never cached by the browser itself
        return Response(
            worker_script(),
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "icons" / "favicon.ico", media_type="image/x-icon")

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/nodes")
    async def nodes(request: Request) -> Any:
        """Every node's meters (from Redis; this node's alone without it): an operator's view."""
        await routes_lobby.meter(request, "read")
        if redis is None:
            here = {"node": "local", "alive": True, "rooms": len(manager.rooms)}
            return {"nodes": [{**here, **manager.meters.snapshot()}]}
        return {"nodes": await read_nodes(redis)}

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {
            "presets": [
                {
                    "name": name,
                    "players": r.players,
                    "hands": r.hands_per_match,
                    "race": options.race_target(r),  # R45: the summary's 先到N胜
                    "unit": r.unit,
                    "label": options.preset_label(name),
                    "summary": options.summary(r),
                    "options": options.schema(r),
                }
                for name, r in PRESETS.items()
            ],
            "levels": [
                {"id": lv.id, "label": lv.zh, "label_en": options.LEVEL_EN[lv.id]}
                for lv in LEVELS.values()
            ],
        }

    @app.post("/api/rooms", response_model=RoomCreated)
    async def create_room(request: Request) -> Any:
        check_origin(request)
        req = _parse(CreateRoom, await _json_body(request))
        client = request.client.host if request.client else "?"
        room, seat = await manager.create(req, client)
        return RoomCreated(room=room.id, seat=seat.index, token=seat.who.token or "")

    @app.get("/api/rooms/{room_id}")
    async def room_info(room_id: RoomId, request: Request) -> Any:
        await routes_lobby.meter(request, "read")
        room = await manager.get(room_id)
        if room is None:
            return _fail(404, "unknown_room")
        snap = room.snapshot(room.phase)
        return {
            **routes_lobby.join_info(room),
            "room": snap.id,
            "rules": snap.rules.name,
            "phase": snap.phase,
            "bot": snap.level.id,
            "hands": snap.hands_total,
            "hand_index": snap.played,
            "free_seats": [s.index for s in room.seats if s.kind == SeatKind.FREE],
            "players": [p.model_dump(mode="json") for p in snap.players],
            "scores": list(snap.scores),
        }

    @app.post("/api/rooms/{room_id}/join", response_model=Joined)
    async def join_room(room_id: RoomId, request: Request) -> Any:
        check_origin(request)
        await routes_lobby.meter(request, "read")
        req = _parse(JoinRoom, await _json_body(request))
        room = await manager.get(room_id)
        if room is None:
            return _fail(404, "unknown_room")
        seat, token = await room.join(req.name)
        return Joined(seat=seat, token=token)

    @app.get("/api/records/{hand_id}")
    async def get_record(hand_id: HandId, request: Request) -> Any:
        await routes_lobby.meter(request, "read")
        rec = await store.get_record(hand_id)
        return rec if rec is not None else _fail(404, "unknown_hand")

    @app.get("/api/replays/{hand_id}")
    async def get_replay(
        hand_id: HandId, request: Request, seat: Annotated[int | None, Query(ge=0, le=3)] = None
    ) -> Any:
        await routes_lobby.meter(request, "read")
        rec = await store.get_record(hand_id)
        if rec is None:
            return _fail(404, "unknown_hand")
        try:
            frames = await asyncio.to_thread(replay.replay_frames, rec, seat)
        except ValueError:  # a seat that was not dealt in
            return _fail(400, "bad_seat")
        return {"hand_id": hand_id, **frames}

    @app.websocket("/ws/{room_id}")
    async def seat_socket(websocket: WebSocket, room_id: str, token: str = "") -> None:
        # Over-long values are refused as wrong (never cut: a cut token could match).
        too_long = len(room_id) > 16 or len(token) > TOKEN_CHARS
        await serve_seat(websocket, manager, "" if too_long else room_id, token)

    app.include_router(routes_lobby.router)
    return app


__all__ = ["create_app"]
