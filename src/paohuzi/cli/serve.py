"""``paohuzi serve``: the web game (INTERFACES.md §5).

``paohuzi serve [--host 127.0.0.1] [--port 8000] [--db PATH|URL]`` runs the
FastAPI app with uvicorn; storage is one SQLite file by default (under the
user's data dir), so nothing else needs to be running, or PostgreSQL
(``--db postgresql://…``). The database's schema is upgraded at start (Alembic). Extra flags: ``--bot-delay`` (seconds
a bot waits so humans can follow), ``--away-timeout`` (seconds per decision
before a bot takes over the seat, 托管), ``--allow-origin`` (other web origins
allowed to use the API), ``--max-rooms`` / ``--room-rate`` (abuse limits),
``--bot-workers``, ``--sync`` (SQLite durability), ``--dev`` (API docs) and
``--log-level``. docs/web.md lists every bound and limit. Hardening
(docs/security.md): ``--public-url`` (links, QR codes and the Origin check are
built from it, never from a request's Host), ``--trusted-proxies`` (the only
peers whose X-Forwarded-For is believed), ``--header-timeout`` /
``--header-bytes`` / ``--conns-per-address`` / ``--max-connections`` (the
HTTP guard, :mod:`paohuzi.server.http.guard`), ``--read-rate`` and
``--handshake-rate``.
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
    ("--rooms-per-hour", int, 60, "N", "new rooms one client address may create in an hour (60)"),
    ("--msg-rate", float, 10, "N", "messages per second per connection, after a burst of 4N (10)"),
    ("--read-rate", float, 5, "N", "QR codes, room lookups, replays, 我的牌局 per second per client address, after a burst of 12N (5)"),
    ("--handshake-rate", float, 2, "N", "websocket handshakes per second per client address, after a burst of 10N (2)"),
    ("--header-timeout", float, 10.0, "S", "seconds a request may take to send its headers, and its body (10)"),
    ("--header-bytes", int, 16384, "N", "largest request line and headers, in bytes (16384; 431 beyond)"),
    ("--conns-per-address", int, 50, "N", "open connections one client address may hold (50)"),
    ("--max-connections", int, 4000, "N", "open connections in all (4000; at most 3/4 of the open-file limit)"),
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
        "--public-url",
        default=None,
        metavar="URL",
        help="the address players open (e.g. https://paohuzi.example.com): invite links and"
        " QR codes use it, and browser pages from it may play (default: http://HOST:PORT;"
        " for --host 0.0.0.0 this machine's network address)",
    )
    p.add_argument(
        "--trusted-proxies",
        action="append",
        default=[],
        metavar="IP",
        help="reverse proxies whose X-Forwarded-For is believed (repeatable or comma-separated;"
        " default none: the client address is the socket's)",
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
        "--deal-key-file",
        default=None,
        metavar="PATH",
        help="the secret behind each hand's 可验证洗牌 salt, made on first use (default:"
        " <db>.dealkey; every node of one database must use the same file)",
    )
    p.add_argument(
        "--http",
        default="auto",
        choices=["auto", "httptools", "h11"],
        help="uvicorn's HTTP parser, under the same guard (default auto: httptools if installed)",
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
    p.add_argument(
        "--no-relay",
        dest="relay",
        action="store_false",
        help="with --redis: refuse another node's room with room_elsewhere (1013: the client"
        " reconnects) instead of relaying its websocket to the owner node through Redis",
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
    from paohuzi.server.http.guard import GuardSettings, addresses, guarded
    from paohuzi.server.http.site import default_public_url, listen_origins
    from paohuzi.server.limits import FRAME_HARD_BYTES, Limits

    rates = [args.away_timeout, args.room_rate, args.msg_rate, args.header_timeout]
    rates += [args.read_rate, args.handshake_rate]
    counts = [args.max_rooms, args.rooms_per_client, args.conns_per_address, args.max_connections]
    counts.append(args.rooms_per_hour)
    if args.bot_delay < 0 or min(rates) <= 0 or min(counts) < 1 or args.header_bytes < 1024:
        print(
            "paohuzi serve: error: --bot-delay must be ≥ 0; --away-timeout, --room-rate,"
            " --msg-rate, --read-rate, --handshake-rate and --header-timeout > 0; --max-rooms, --rooms-per-client,"
            " --rooms-per-hour, --conns-per-address and --max-connections ≥ 1; --header-bytes ≥ 1024",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    try:
        proxies = addresses(args.trusted_proxies)
    except ValueError as e:
        print(f"paohuzi serve: error: --trusted-proxies: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    public_url = None
    if args.public_url is not None:
        public_url = _public_url(args.public_url)
        if public_url is None:
            print(
                "paohuzi serve: error: --public-url must be http(s)://host[:port][/path]",
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
        rooms_per_window=args.rooms_per_hour,
        create_window=3600.0,
        msg_rate=args.msg_rate,
        msg_burst=max(1, round(4 * args.msg_rate)),
        read_rate=args.read_rate,
        read_burst=max(1, round(12 * args.read_rate)),
        handshake_rate=args.handshake_rate,
        handshake_burst=max(1, round(10 * args.handshake_rate)),
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
    from paohuzi.server import dealkey

    key_file = args.deal_key_file or dealkey.default_path(db)
    try:
        deal_key = dealkey.load_or_create(key_file)
    except (OSError, ValueError) as e:
        print(f"paohuzi serve: error: cannot use deal key file {key_file}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        shown = _upgrade(db, args.sync.upper())  # migrations now: a bad database stops here
        app = create_app(
            db,
            bot_delay=args.bot_delay,
            away_timeout=args.away_timeout,
            limits=limits,
            origins=(
                *(o.rstrip("/") for o in args.allow_origin),
                *listen_origins(args.host, args.port),
            ),
            public_url=public_url or default_public_url(args.host, args.port),
            dev=args.dev,
            bot_workers=args.bot_workers,
            synchronous=args.sync.upper(),
            deal_key=deal_key,
            body_timeout=args.header_timeout,  # a body has as long as its headers
            redis_url=args.redis,
            node_id=args.node_id,
            relay=args.relay,
        )
    except Exception as e:  # e.g. an unwritable or corrupt file, an unreachable server
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"paohuzi serve: error: cannot open database {_shown(db)}: {msg}", file=sys.stderr)
        return EXIT_BAD_INPUT
    _settle_heap()
    guard = GuardSettings(
        header_bytes=args.header_bytes,
        header_timeout=args.header_timeout,
        per_address=args.conns_per_address,
        total=min(args.max_connections, _open_files() * 3 // 4),
        exempt=proxies,
    )
    print(
        f"跑胡子 web game: http://{_host(args.host)}:{args.port}/  (database {shown})", flush=True
    )
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        http=guarded(guard, args.http),  # header size and time, connections per address (guard.py)
        h11_max_incomplete_event_size=args.header_bytes,
        # X-Forwarded-For is believed from the configured proxies only (none by default)
        proxy_headers=bool(proxies),
        forwarded_allow_ips=",".join(sorted(proxies)) if proxies else "",
        ws_max_size=FRAME_HARD_BYTES,  # larger frames are closed (1009) before they are read
        ws_ping_interval=20,
        timeout_graceful_shutdown=3,  # SIGTERM: open websockets get 3 s, then the server stops
        server_header=False,
    )
    return EXIT_OK


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _public_url(text: str) -> str | None:
    """``text`` as an origin plus optional path, without a trailing slash (None: not one)."""
    from urllib.parse import urlsplit

    try:
        u = urlsplit(text.strip())
        u.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return None
    if u.scheme not in ("http", "https") or not u.hostname or u.query or u.fragment:
        return None
    return f"{u.scheme}://{u.netloc}{u.path.rstrip('/')}"


def _open_files() -> int:
    """The open-file limit, raised to the hard limit first (each connection holds one)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        return soft if soft != resource.RLIM_INFINITY else 1 << 20
    except (ImportError, OSError, ValueError):
        return 1024


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
