"""``paohuzi serve``: the web game (INTERFACES.md §5).

``paohuzi serve [--host 127.0.0.1] [--port 8000] [--db PATH|URL]`` runs the
FastAPI app with uvicorn; storage is one SQLite file by default (under the
user's data dir), so nothing else needs to be running, or PostgreSQL
(``--db postgresql://…``). The database's schema is upgraded at start (Alembic). Extra flags: ``--bot-delay`` (seconds
a bot waits so humans can follow), ``--away-timeout`` (seconds per decision
before a bot takes over the seat, 托管), ``--allow-origin`` (other web origins
allowed to use the API), ``--max-rooms`` / ``--room-rate`` (abuse limits),
``--bot-workers``, ``--sync`` (SQLite durability), ``--dev`` (API docs) and
``--log-level``. docs/web.md lists every bound and limit.
"""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_BAD_INPUT, EXIT_OK

COMMAND = "serve"

# The numeric flags: (flag, type, default, metavar, help); run() checks their ranges.
_NUMBERS: tuple[tuple[str, type, float, str, str], ...] = (
    ("--bot-delay", float, 0.6, "S", "seconds a bot waits (0.6)"),
    ("--away-timeout", float, 30.0, "S", "seconds per decision before a bot plays the seat (托管, default 30)"),
    ("--max-rooms", int, 500, "N", "rooms open at once (500)"),
    ("--rooms-per-client", int, 20, "N", "open rooms one client address may hold (20)"),
    ("--room-rate", float, 10, "N", "new rooms per minute per client address, after a burst of N (10)"),
    ("--msg-rate", float, 10, "N", "messages per second per connection, after a burst of 4N (10)"),
)  # fmt: skip


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        COMMAND,
        help="play in the browser: run the web game server",
        description="Run the web game (rooms, bots, replays) at http://HOST:PORT/.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        default=None,
        metavar="PATH|URL",
        help="SQLite file (default <user data dir>/paohuzi/paohuzi.sqlite3, on Linux"
        " $XDG_DATA_HOME or ~/.local/share), or a database URL: sqlite:///PATH,"
        " postgresql://USER@HOST:PORT/DB (also postgresql+psycopg://…)",
    )
    for flag, kind, default, metavar, text in _NUMBERS:
        p.add_argument(flag, type=kind, default=default, metavar=metavar, help=text)
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="another web origin allowed to open seats and create rooms (repeatable;"
        " default: only this server's own pages)",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes for the 高级 bots (default: cores − 1, 1–4)",
    )
    p.add_argument(
        "--sync",
        default="normal",
        choices=["normal", "full"],
        help="SQLite synchronous mode: normal (a power loss may cost the last moments)"
        " or full (every change synced to disk)",
    )
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="one of many nodes (docs/deploy.md): redis://HOST:6379/0 holds each room's"
        " owner lease; needs --db postgresql://… shared by every node",
    )
    p.add_argument(
        "--node-id",
        default=None,
        metavar="N",
        help="this node's name in the leases (default HOSTNAME:PID); unique per node",
    )
    p.add_argument("--dev", action="store_true", help="serve the API docs at /docs")
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level (info)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from paohuzi.server.http.app import create_app
        from paohuzi.server.storage.sqlite import default_db_path
    except ImportError as e:
        print(
            f"paohuzi serve: error: the web server needs the 'server' extra ({e.name} missing); "
            "install it with: pip install 'paohuzi[server]'",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    from paohuzi.server.limits import FRAME_HARD_BYTES, Limits

    rates = (args.away_timeout, args.room_rate, args.msg_rate)
    if args.bot_delay < 0 or min(rates) <= 0 or min(args.max_rooms, args.rooms_per_client) < 1:
        print(
            "paohuzi serve: error: --bot-delay must be ≥ 0; --away-timeout, --room-rate and"
            " --msg-rate > 0; --max-rooms and --rooms-per-client ≥ 1",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if args.bot_workers is not None and not 1 <= args.bot_workers <= 64:
        print("paohuzi serve: error: --bot-workers must be 1–64", file=sys.stderr)
        return EXIT_BAD_INPUT
    limits = Limits(
        max_rooms=args.max_rooms,
        rooms_per_client=args.rooms_per_client,
        create_rate=args.room_rate / 60,
        create_burst=max(1, round(args.room_rate)),
        msg_rate=args.msg_rate,
        msg_burst=max(1, round(4 * args.msg_rate)),
    )
    db = args.db or str(default_db_path())
    if args.redis is not None and not db.startswith(("postgresql", "postgres:")):
        print(
            "paohuzi serve: error: --redis (many nodes) needs one database every node shares:"
            " --db postgresql://…",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if args.node_id is not None and (args.redis is None or not args.node_id.strip()):
        print("paohuzi serve: error: --node-id names a node of --redis", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        shown = _upgrade(db, args.sync.upper())  # migrations now: a bad database stops here
        app = create_app(
            db,
            bot_delay=args.bot_delay,
            away_timeout=args.away_timeout,
            limits=limits,
            origins=tuple(o.rstrip("/") for o in args.allow_origin),
            dev=args.dev,
            bot_workers=args.bot_workers,
            synchronous=args.sync.upper(),
            redis_url=args.redis,
            node_id=args.node_id,
        )
    except Exception as e:  # e.g. an unwritable or corrupt file, an unreachable server
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"paohuzi serve: error: cannot open database {_shown(db)}: {msg}", file=sys.stderr)
        return EXIT_BAD_INPUT
    _settle_heap()
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"跑胡子 web game: http://{host}:{args.port}/  (database {shown})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=FRAME_HARD_BYTES,  # larger frames are closed (1009) before they are read
        ws_ping_interval=20,
        timeout_graceful_shutdown=3,  # SIGTERM: open websockets get 3 s, then the server stops
        server_header=False,
    )
    return EXIT_OK


def _shown(db: str) -> str:
    """The database as printed: a URL without its password."""
    if "://" not in db:
        return db
    from sqlalchemy.engine import make_url

    try:
        return make_url(db).render_as_string(hide_password=True)
    except Exception:
        return db.split("://", 1)[0] + "://…"


def _upgrade(db: str, synchronous: str) -> str:
    """Open the database once, upgrading its schema (an old SQLite file keeps its rooms)."""
    import asyncio

    from paohuzi.server.storage.store import Storage

    async def go() -> None:
        store = Storage(db, synchronous)
        try:
            await store.open()
        finally:
            await store.close()

    asyncio.run(go())
    return _shown(db)


def _settle_heap() -> None:
    """Decode the evaluator tables now and freeze everything loaded so far.

    A full garbage collection walks every tracked object and stops every room
    meanwhile; the modules, the app and the tables live as long as the server,
    so they are moved out of the collector's sight (``gc.freeze``) and only the
    games' own objects are walked (docs/web.md, "Tail latency").
    """
    import gc

    from paohuzi.core.evaluator import evaluator_for
    from paohuzi.core.rules import PRESETS

    for rules in PRESETS.values():
        evaluator_for(rules).preload()
    gc.collect()
    gc.freeze()
    # A message's dicts die young: a larger first generation lets them die before
    # a collection promotes them, so full collections come rarer.
    gc.set_threshold(20_000, 20, 20)
