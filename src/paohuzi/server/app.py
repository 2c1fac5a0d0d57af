"""网页版 (wǎngyè bǎn): the FastAPI app of ``paohuzi serve`` (INTERFACES.md §5).

``create_app(db_path)`` wires the HTTP API, the websocket of each seat and the
static browser client to a :class:`~paohuzi.server.rooms.RoomManager` backed by
SQLite. Extra endpoints beyond §5: ``GET /api/presets`` (lobby choices),
``GET /api/rooms/{ID}`` (public room info) and ``GET /api/replays/{hand_id}``
(the frames the browser steps through to replay a finished hand).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

import orjson
from fastapi import Body, FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from paohuzi.bots import bot_names
from paohuzi.core.rules import PRESETS, Rules, RulesError, preset

from . import present
from .models import CreateRoom, Joined, JoinRoom, RoomCreated, error
from .rooms import Conn, RoomError, RoomManager
from .storage import SqliteStorage, Storage, default_db_path

STATIC = Path(__file__).parent / "static"
BOT_STRENGTHS = ("random", "greedy", "ismcts")
WS_BAD_TOKEN = 4401
WS_NO_ROOM = 4404


def _fail(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _rules(spec: str | dict[str, Any]) -> Rules:
    return preset(spec) if isinstance(spec, str) else Rules.from_dict(spec)


def create_app(
    db_path: str | os.PathLike[str] | None = None,
    *,
    storage: Storage | None = None,
    bot_delay: float = 0.6,
    away_timeout: float = 30.0,
) -> FastAPI:
    """The web game. ``db_path``: SQLite file (default under the user's data dir).

    ``bot_delay``: seconds a bot waits before acting, so humans can follow (0 in
    tests). ``away_timeout``: seconds a human may take per decision before a bot
    plays the seat (托管) until its player acts or reconnects.
    """
    store = storage or SqliteStorage(default_db_path() if db_path is None else db_path)
    manager = RoomManager(store, bot_delay=bot_delay, away_timeout=away_timeout)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await manager.stop()
        store.close()

    app = FastAPI(title="paohuzi", summary="跑胡子 web game", lifespan=lifespan)
    app.state.manager = manager
    app.state.storage = store
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        available = set(bot_names())
        return {
            "presets": [
                {"name": name, "players": r.players, "hands": r.hands_per_match}
                for name, r in PRESETS.items()
            ],
            "bots": [{"name": b, "available": b in available} for b in BOT_STRENGTHS],
        }

    @app.post("/api/rooms", response_model=RoomCreated)
    async def create_room(req: Annotated[CreateRoom | None, Body()] = None) -> Any:
        req = req or CreateRoom()
        try:
            rules = _rules(req.rules)
        except RulesError as e:
            return _fail(400, "bad_rules", str(e))
        try:
            room, seat = await manager.create(req, rules)
        except RoomError as e:
            return _fail(e.status, e.code, e.message)
        return RoomCreated(room=room.id, seat=seat.index, token=seat.token or "")

    @app.get("/api/rooms/{room_id}")
    async def room_info(room_id: str) -> Any:
        room = manager.get(room_id)
        if room is None:
            return _fail(404, "unknown_room", f"no room {room_id}")
        return {
            "room": room.id,
            "rules": room.rules.name,
            "phase": room.phase,
            "hands": room.match.hands,
            "hand_index": room.match.index,
            "free_seats": [s.index for s in room.seats if s.kind == "free"],
            "players": room.players(),
            "scores": list(room.match.scores),
        }

    @app.post("/api/rooms/{room_id}/join", response_model=Joined)
    async def join_room(room_id: str, req: Annotated[JoinRoom | None, Body()] = None) -> Any:
        room = manager.get(room_id)
        if room is None:
            return _fail(404, "unknown_room", f"no room {room_id}")
        try:
            seat, token = await room.join(req.name if req else None)
        except RoomError as e:
            return _fail(e.status, e.code, e.message)
        return Joined(seat=seat, token=token)

    @app.get("/api/records/{hand_id}")
    async def get_record(hand_id: str) -> Any:
        rec = store.get_record(hand_id)
        if rec is None:
            return _fail(404, "unknown_hand", f"no finished hand {hand_id}")
        return rec

    @app.get("/api/replays/{hand_id}")
    async def get_replay(hand_id: str) -> Any:
        rec = store.get_record(hand_id)
        if rec is None:
            return _fail(404, "unknown_hand", f"no finished hand {hand_id}")
        frames = await asyncio.to_thread(present.replay_frames, rec)
        return {"hand_id": hand_id, **frames}

    @app.websocket("/ws/{room_id}")
    async def seat_socket(websocket: WebSocket, room_id: str, token: str = "") -> None:
        await websocket.accept()
        room = manager.get(room_id)
        if room is None:
            await websocket.send_json(error("unknown_room", f"no room {room_id}"))
            await websocket.close(WS_NO_ROOM)
            return
        seat = room.seat_for(token)
        if seat is None:
            await websocket.send_json(error("bad_token", "this token holds no seat in the room"))
            await websocket.close(WS_BAD_TOKEN)
            return
        conn = Conn()
        sender = asyncio.create_task(_pump(websocket, conn))
        await room.attach(seat, conn)
        try:
            while not conn.closed:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    raw = msg.get("bytes") or b""
                    text = raw.decode("utf-8", errors="replace")
                await room.handle(seat, conn, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await room.detach(seat, conn)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    return app


def encode(msg: dict[str, Any]) -> str:
    """A message as JSON text (orjson: a state message is a few KB, sent on every change)."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


async def _pump(websocket: WebSocket, conn: Conn) -> None:
    """Write a connection's queued messages (only the newest of several queued states)."""
    while True:
        batch = await conn.next_batch()
        if batch is None:
            with contextlib.suppress(Exception):
                await websocket.close()
            return
        for msg in batch:
            await websocket.send_text(encode(msg))
        if conn.closed:
            with contextlib.suppress(Exception):
                await websocket.close()
            return
