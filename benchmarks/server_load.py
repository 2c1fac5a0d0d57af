"""Load benchmark of ``paohuzi serve``: K rooms of bot-driven websocket clients on loopback.

Starts the real server (``python -m paohuzi.cli.main serve``) on a free port of
127.0.0.1 with a throw-away SQLite file and no bot delay, creates K rooms (one
websocket "human" seat each, the other seats server-side bots), and lets every
client answer each decision with a random legal action and start the next hand
at each settlement, until the time budget is spent. Reports hands/s, the p50 /
p99 latency from sending an action to receiving the resulting state, and errors.

    python benchmarks/server_load.py [--rooms 50] [--seconds 30] [--bot random] [--json]
    python benchmarks/server_load.py --nodes 2 [--db postgresql://…] [--redis redis://…]

``--nodes N`` (1–3) starts N servers over one PostgreSQL (a fresh schema of
``--db``, dropped after) and one Redis (docs/deploy.md); room i is created on node
i mod N, which owns it, and its client plays there. ``--db`` alone runs one node on
that database (PostgreSQL too).

Traffic goes to 127.0.0.1 only; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HOST = "127.0.0.1"
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"


@dataclass
class Stats:
    hands: int = 0
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stale: int = 0
    messages: int = 0
    bytes: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: Path | str, *extra: str) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable, "-m", "paohuzi.cli.main", "serve", "--host", HOST, "--port", str(port),
        "--db", str(db), "--bot-delay", "0", "--away-timeout", "600", "--log-level", "warning",
        *extra,
    ]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


# A saturation test: every client answers at once (faster than any player) and all
# rooms come from one address, so the per-client limits are lifted (docs/web.md).
LOAD_LIMITS = (
    "--room-rate", "100000", "--rooms-per-hour", "1000000", "--msg-rate", "10000", "--max-rooms", "5000",
    "--rooms-per-client", "5000", "--conns-per-address", "100000", "--handshake-rate", "10000",
    "--read-rate", "10000",
)  # fmt: skip


async def wait_healthy(base: str, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as http:
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"server exited: {err}")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(base + "/api/health")).json() == {"ok": True}:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("server did not become healthy")
            await asyncio.sleep(0.1)


async def play_room(
    base: str, room: dict[str, Any], end: float, stats: Stats, rng: random.Random
) -> None:
    """One websocket seat: a random legal action for every decision, 'ready' at settlements."""
    url = f"ws://{base.removeprefix('http://')}/ws/{room['room']}?token={room['token']}"
    sent: tuple[float, int] | None = None
    done_hands: set[str] = set()
    async with websockets.connect(url, max_size=None) as ws:
        while time.monotonic() < end:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, end - time.monotonic()))
            except TimeoutError:
                break
            stats.messages += 1
            stats.bytes += len(raw)
            msg = json.loads(raw)
            if msg["type"] == "error":
                if msg["code"] == "stale_version":
                    stats.stale += 1
                else:
                    stats.errors.append(f"{msg['code']}: {msg['message']}")
                sent = None
                continue
            if msg["type"] != "state":
                continue
            if sent is not None and msg["version"] > sent[1]:
                stats.latencies.append(time.perf_counter() - sent[0])
                sent = None
            if msg["phase"] in ("settlement", "finished") and msg["hand_id"] not in done_hands:
                done_hands.add(msg["hand_id"])
                stats.hands += 1
            if msg["phase"] == "finished":
                break
            if msg["legal_actions"] and sent is None:
                action = rng.choice(msg["legal_actions"])["id"]
                sent = (time.perf_counter(), msg["version"])
                stats.actions += 1
                await ws.send(
                    json.dumps({"type": "act", "version": msg["version"], "action": action})
                )


@contextlib.contextmanager
def database(args: argparse.Namespace, tmp: str) -> Any:
    """The ``--db`` of the run: a temp SQLite file, or a fresh schema of a PostgreSQL."""
    db = args.db or (DEFAULT_PG if args.nodes > 1 else None)
    if db is None:
        yield str(Path(tmp) / "bench.sqlite3")
        return
    if not db.startswith("postgres"):
        yield db
        return
    import psycopg

    plain = db.replace("postgresql+psycopg://", "postgresql://")
    schema = f"bench_{os.getpid()}"
    with psycopg.connect(plain, autocommit=True) as c:
        c.execute(f"CREATE SCHEMA {schema}")
    try:
        sep = "&" if "?" in db else "?"
        yield f"{db}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(plain, autocommit=True) as c:
            c.execute(f"DROP SCHEMA {schema} CASCADE")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    ports = [args.port or free_port()] + [free_port() for _ in range(args.nodes - 1)]
    bases = [f"http://{HOST}:{p}" for p in ports]
    with tempfile.TemporaryDirectory() as tmp, database(args, tmp) as db:
        many = ("--redis", args.redis) if args.nodes > 1 else ()
        procs: list[subprocess.Popen[bytes]] = []
        try:
            for i, port in enumerate(ports):  # one after the other: the first migrates
                procs.append(start_server(port, db, *LOAD_LIMITS, *many, *(
                    ("--node-id", f"bench{i}") if many else ())))  # fmt: skip
                await wait_healthy(bases[i], procs[i])
            rooms = []
            for i in range(args.rooms):
                async with httpx.AsyncClient(base_url=bases[i % args.nodes], timeout=30) as http:
                    body = {"rules": args.rules, "bots": 2, "bot": args.bot, "hands": 64, "seed": i}
                    r = await http.post("/api/rooms", json=body)
                    r.raise_for_status()
                    rooms.append(r.json())
            stats = Stats()
            start = time.monotonic()
            end = start + args.seconds
            tasks = [
                play_room(bases[i % args.nodes], room, end, stats, random.Random(i))
                for i, room in enumerate(rooms)
            ]
            results = await asyncio.wait_for(
                asyncio.gather(*tasks, return_exceptions=True), timeout=args.seconds + 30
            )
            elapsed = time.monotonic() - start
            for res in results:
                if isinstance(res, BaseException):
                    stats.errors.append(f"{type(res).__name__}: {res}")
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    return {
        "nodes": args.nodes,
        "database": "postgresql" if str(db).startswith("postgres") else "sqlite",
        "rooms": args.rooms,
        "bot": args.bot,
        "rules": args.rules,
        "seconds": round(elapsed, 2),
        "hands": stats.hands,
        "hands_per_second": round(stats.hands / elapsed, 2),
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / elapsed, 1),
        "latency_ms": {
            "p50": pct(0.50),
            "p99": pct(0.99),
            "mean": round(1000 * statistics.fmean(lat), 2) if lat else None,
        },
        "messages": stats.messages,
        "mb_received": round(stats.bytes / 1e6, 1),
        "stale_answers": stats.stale,
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
        "cpus": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rooms", type=int, default=50, help="rooms, one websocket client each (50)")
    p.add_argument("--seconds", type=float, default=30, help="time budget of the run (30)")
    p.add_argument(
        "--bot", default="easy", help="level of the server-side bots: easy, normal, hard (easy)"
    )
    p.add_argument("--rules", default="hunan", help="rules preset (hunan)")
    p.add_argument("--port", type=int, default=0, help="loopback port (default: a free one)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--nodes", type=int, default=1, help="servers over one PostgreSQL + Redis (1)")
    p.add_argument(
        "--db", default=None, help=f"database (default: SQLite; {DEFAULT_PG} for --nodes > 1)"
    )
    p.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="Redis for --nodes > 1")
    args = p.parse_args(argv)
    if not 1 <= args.nodes <= 3:
        p.error("--nodes must be 1–3")
    if not 1 <= args.rooms <= 1000 or not 0 < args.seconds <= 600:
        p.error("--rooms must be 1–1000 and --seconds 0–600")
    out = asyncio.run(run(args))
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        lat = out["latency_ms"]
        print(
            f"{out['nodes']} node(s) on {out['database']}, "
            f"{out['rooms']} rooms × {out['seconds']} s ({out['rules']}, bots {out['bot']}): "
            f"{out['hands']} hands = {out['hands_per_second']} hands/s, "
            f"{out['actions']} client actions ({out['actions_per_second']}/s), "
            f"latency p50 {lat['p50']} ms, p99 {lat['p99']} ms, "
            f"{out['messages']} messages ({out['mb_received']} MB), "
            f"{out['stale_answers']} stale answers, {out['errors']} errors"
        )
        for e in out["error_samples"]:
            print("  error:", e)
    return 1 if out["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
