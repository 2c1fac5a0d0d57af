"""``paohuzi serve``: the web game (INTERFACES.md §5).

``paohuzi serve [--host 127.0.0.1] [--port 8000] [--db PATH]`` runs the FastAPI
app with uvicorn; storage is one SQLite file (default under the user's data
dir), so nothing else needs to be running. Extra flags: ``--bot-delay`` (seconds
a bot waits so humans can follow), ``--away-timeout`` (seconds per decision
before a bot takes over the seat, 托管) and ``--log-level``.
"""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_BAD_INPUT, EXIT_OK

COMMAND = "serve"


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
        metavar="PATH",
        help="SQLite file (default <user data dir>/paohuzi/paohuzi.sqlite3, on Linux"
        " $XDG_DATA_HOME or ~/.local/share)",
    )
    p.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="S", help="seconds a bot waits (0.6)"
    )
    p.add_argument(
        "--away-timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds per decision before a bot plays the seat (托管, default 30)",
    )
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

        from paohuzi.server.app import create_app
        from paohuzi.server.storage import default_db_path
    except ImportError as e:
        print(
            f"paohuzi serve: error: the web server needs the 'server' extra ({e.name} missing); "
            "install it with: pip install 'paohuzi[server]'",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if args.bot_delay < 0 or args.away_timeout <= 0:
        print(
            "paohuzi serve: error: --bot-delay must be ≥ 0 and --away-timeout > 0", file=sys.stderr
        )
        return EXIT_BAD_INPUT
    db = args.db or str(default_db_path())
    try:
        app = create_app(db, bot_delay=args.bot_delay, away_timeout=args.away_timeout)
    except Exception as e:  # e.g. an unwritable or corrupt database file
        print(f"paohuzi serve: error: cannot open database {db}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"跑胡子 web game: http://{host}:{args.port}/  (database {db})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return EXIT_OK
