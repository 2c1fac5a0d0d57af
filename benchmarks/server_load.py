"""Load benchmark of ``paohuzi serve``: K rooms of bot-driven websocket clients on loopback.

Starts the real server (``python -m paohuzi.cli.main serve``) on a free port of
127.0.0.1 with a throw-away SQLite file and no bot delay, creates K rooms (one
websocket "human" seat each, the other seats server-side bots), and lets every
client answer each decision with a random legal action and start the next hand
at each settlement, until the time budget is spent. Reports hands/s, the p50 /
p99 latency from sending an action to receiving the resulting state, and errors —
among them every room silent for 10 s at the end (frozen: ``stalled_rooms``).

    python benchmarks/server_load.py [--rooms 50] [--seconds 30] [--bot easy] [--json]
    python benchmarks/server_load.py --nodes 2 [--db postgresql://…] [--redis redis://…] [--via-relay]
    python benchmarks/server_load.py --search --nodes 1,2,3 [--p99 100] [--seconds 8]

``--search`` finds, for each node count in one run, the most rooms whose p99 stays
under ``--p99`` ms (doubling, then bisecting; each probe on fresh rooms of the same
servers; every node count on PostgreSQL unless ``--db``), with the PostgreSQL row
writes/s (``pg_stat_user_tables`` of the run's schema) and the Redis commands/s
(``INFO``: the whole server's) at each probe.

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
    stalled: int = 0  # rooms silent for STALL_S at the end (a frozen room, not a slow one)


# A room whose seat heard nothing for this long at the end of the run had stopped (its
# seat answers at once and its bots play without delay): an error, with its silence.
STALL_S = 10.0


# base URL → pid of the server process serving it (for its CPU time)
SERVER_PIDS: dict[str, int] = {}


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (``/proc``; None where there is none)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def service_cpu_seconds() -> float:
    """CPU seconds so far of this machine's PostgreSQL and Redis processes (all of them:
    on a shared machine, other users' queries too)."""
    total = 0.0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                head, tail = f.read().rsplit(")", 1)
        except OSError:
            continue
        if head.split("(", 1)[1] in ("postgres", "redis-server"):
            fields = tail.split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


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
    heard = time.monotonic()
    async with websockets.connect(url, max_size=None) as ws:
        while time.monotonic() < end:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, end - time.monotonic()))
            except TimeoutError:
                silent = time.monotonic() - heard
                if silent >= STALL_S:
                    stats.stalled += 1
                    stats.errors.append(f"room {room['room']} silent for {silent:.1f} s")
                break
            heard = time.monotonic()
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
def database(args: argparse.Namespace, nodes: int, tmp: str) -> Any:
    """The ``--db`` of the run: a temp SQLite file, or a fresh schema of a PostgreSQL."""
    # --search compares node counts: all of them on PostgreSQL (like for like)
    db = args.db or (DEFAULT_PG if nodes > 1 or args.search else None)
    if db is None:
        yield str(Path(tmp) / "bench.sqlite3")
        return
    if not db.startswith("postgres"):
        yield db
        return
    import psycopg

    plain = db.replace("postgresql+psycopg://", "postgresql://")
    schema = f"bench_{os.getpid()}_{nodes}"
    with psycopg.connect(plain, autocommit=True) as c:
        c.execute(f"CREATE SCHEMA {schema}")
    try:
        sep = "&" if "?" in db else "?"
        yield f"{db}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(plain, autocommit=True) as c:
            c.execute(f"DROP SCHEMA {schema} CASCADE")


@contextlib.asynccontextmanager
async def cluster(args: argparse.Namespace, nodes: int, db: str) -> Any:
    """``nodes`` servers over ``db`` (one node: no Redis); their base URLs."""
    ports = [args.port or free_port()] + [free_port() for _ in range(nodes - 1)]
    bases = [f"http://{HOST}:{p}" for p in ports]
    many = ("--redis", args.redis) if nodes > 1 else ()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for i, port in enumerate(ports):  # one after the other: the first migrates
            node = ("--node-id", f"bench{i}") if many else ()
            procs.append(start_server(port, db, *LOAD_LIMITS, *many, *node, *args.server_arg))
            await wait_healthy(bases[i], procs[i], timeout=180)
            SERVER_PIDS[bases[i]] = procs[i].pid
        yield bases
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def pg_writes(db: str) -> int | None:
    """Rows written so far into the benchmark's PostgreSQL schema (inserted, updated,
    deleted: ``pg_stat_user_tables``); None on SQLite."""
    if not db.startswith("postgres"):
        return None
    import psycopg

    plain = db.split("?")[0].replace("postgresql+psycopg://", "postgresql://")
    schema = db.rsplit("search_path%3D", 1)[-1]
    with psycopg.connect(plain, autocommit=True) as c:
        c.execute("SELECT pg_stat_force_next_flush()")  # this backend's counts, now
        row = c.execute(
            "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)"
            " FROM pg_stat_user_tables WHERE schemaname = %s",
            (schema,),
        ).fetchone()
    return int(row[0]) if row else 0


def redis_commands(url: str) -> int:
    """Commands the Redis server processed so far (every client's: a shared server's too)."""
    import redis

    r = redis.Redis.from_url(url)
    try:
        return int(r.info("stats")["total_commands_processed"])
    finally:
        r.close()


async def probe(
    args: argparse.Namespace, bases: list[str], db: str, rooms_n: int, seconds: float
) -> dict[str, Any]:
    """``rooms_n`` new rooms, room i owned by node i mod N; each client plays on its
    owner node, or with ``--via-relay`` on the next node (relayed through Redis)."""
    n = len(bases)
    rooms = []
    async with contextlib.AsyncExitStack() as stack:
        http = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=b, timeout=60))
            for b in bases
        ]
        for i in range(rooms_n):
            body = {"rules": args.rules, "bots": 2, "bot": args.bot, "hands": 64, "seed": i}
            r = await http[i % n].post("/api/rooms", json=body)
            r.raise_for_status()
            rooms.append(r.json())
    shift = 1 if args.via_relay and n > 1 else 0
    writes0 = pg_writes(db)
    cmds0 = redis_commands(args.redis) if n > 1 else 0
    stats = Stats()
    server_cpu0 = [cpu_seconds(SERVER_PIDS[b]) if b in SERVER_PIDS else None for b in bases]
    client_cpu0 = time.process_time()
    service_cpu0 = service_cpu_seconds()
    start = time.monotonic()
    end = start + seconds
    tasks = [
        play_room(bases[(i + shift) % n], room, end, stats, random.Random(i))
        for i, room in enumerate(rooms)
    ]
    results = await asyncio.wait_for(
        asyncio.gather(*tasks, return_exceptions=True), timeout=seconds + 60
    )
    elapsed = time.monotonic() - start
    client_cpu = (time.process_time() - client_cpu0) / elapsed
    service_cpu = (service_cpu_seconds() - service_cpu0) / elapsed
    server_cpu = []
    for b, c0 in zip(bases, server_cpu0, strict=True):
        c1 = cpu_seconds(SERVER_PIDS[b]) if b in SERVER_PIDS else None
        server_cpu.append(None if c0 is None or c1 is None else round((c1 - c0) / elapsed, 2))
    writes1 = pg_writes(db)
    cmds1 = redis_commands(args.redis) if n > 1 else 0
    for res in results:
        if isinstance(res, BaseException):
            stats.errors.append(f"{type(res).__name__}: {res}")
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    return {
        "nodes": n,
        "database": "postgresql" if db.startswith("postgres") else "sqlite",
        "via_relay": bool(shift),
        "rooms": rooms_n,
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
        "pg_row_writes_per_second": (
            None if writes0 is None or writes1 is None else round((writes1 - writes0) / elapsed, 1)
        ),
        "redis_commands_per_second": round((cmds1 - cmds0) / elapsed, 1) if n > 1 else None,
        "stale_answers": stats.stale,
        "stalled_rooms": stats.stalled,
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
        "cpus": os.cpu_count(),
        # cores busy during the probe: each server's, this client's; the machine's load
        "server_cores": server_cpu,
        "client_cores": round(client_cpu, 2),
        "database_cores": round(service_cpu, 2),  # PostgreSQL + Redis processes
        "load_average": round(os.getloadavg()[0], 2),
    }


def holds(res: dict[str, Any], target_ms: float) -> bool:
    p99 = res["latency_ms"]["p99"]
    return not res["errors"] and p99 == p99 and p99 < target_ms  # NaN: nothing measured


async def search(
    args: argparse.Namespace, bases: list[str], db: str, report: Any
) -> dict[str, Any]:
    """The most rooms whose p99 stays under ``--p99`` ms: double from ``--start`` until it
    fails, then bisect ``--steps`` times (each probe ``--seconds`` on fresh rooms)."""
    probes: list[dict[str, Any]] = []

    async def at(k: int) -> bool:
        res = await probe(args, bases, db, k, args.seconds)
        probes.append(res)
        report(res)
        return holds(res, args.p99)

    good, bad, k = 0, None, args.start
    while k <= args.max_rooms:
        if not await at(k):
            bad = k
            break
        good, k = k, k * 2
    for _ in range(args.steps):
        if bad is None or bad - good <= max(1, good // 8):
            break
        mid = (good + bad) // 2
        if await at(mid):
            good = mid
        else:
            bad = mid
    best = max((p for p in probes if p["rooms"] == good), key=lambda p: p["seconds"], default=None)
    return {"nodes": len(bases), "rooms_held": good, "first_failing": bad, "at_best": best,
            "probes": probes}  # fmt: skip


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """One fixed-size run (``--rooms``) of ``--nodes N``."""
    with tempfile.TemporaryDirectory() as tmp, database(args, args.nodes[0], tmp) as db:
        async with cluster(args, args.nodes[0], db) as bases:
            return await probe(args, bases, db, args.rooms, args.seconds)


async def run_search(args: argparse.Namespace, report: Any) -> list[dict[str, Any]]:
    """For each node count of ``--nodes``: its own servers and schema, then :func:`search`."""
    out = []
    for n in args.nodes:
        with tempfile.TemporaryDirectory() as tmp, database(args, n, tmp) as db:
            async with cluster(args, n, db) as bases:
                out.append(await search(args, bases, db, report))
    return out


def line(out: dict[str, Any]) -> str:
    lat = out["latency_ms"]
    extra = ""
    if out.get("pg_row_writes_per_second") is not None:
        extra += f", PostgreSQL {out['pg_row_writes_per_second']} row writes/s"
    if out.get("redis_commands_per_second") is not None:
        extra += f", Redis {out['redis_commands_per_second']} commands/s"
    return (
        f"{out['nodes']} node(s) on {out['database']}{' via relay' if out['via_relay'] else ''}, "
        f"{out['rooms']} rooms × {out['seconds']} s ({out['rules']}, bots {out['bot']}): "
        f"{out['hands']} hands = {out['hands_per_second']} hands/s, "
        f"{out['actions']} client actions ({out['actions_per_second']}/s), "
        f"latency p50 {lat['p50']} ms, p99 {lat['p99']} ms, "
        f"{out['messages']} messages ({out['mb_received']} MB){extra}, "
        f"{out['stale_answers']} stale answers, {out['stalled_rooms']} rooms stalled, "
        f"{out['errors']} errors{cores(out)}"
    )


def cores(out: dict[str, Any]) -> str:
    """How busy the machine was: a probe on a loaded machine measures the machine."""
    servers = "+".join(f"{c:.2f}" for c in out.get("server_cores") or [] if c is not None)
    if not servers:
        return ""
    return (
        f"; cores busy: servers {servers}, client {out['client_cores']:.2f},"
        f" PostgreSQL + Redis {out['database_cores']:.2f} of {out['cpus']},"
        f" load average {out['load_average']}"
    )


def node_counts(text: str) -> list[int]:
    """``2`` or ``1,2,3`` (each 1–3)."""
    try:
        got = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("--nodes: 1, 2, 3 or a list like 1,2,3") from None
    if not got or not all(1 <= x <= 3 for x in got):
        raise argparse.ArgumentTypeError("--nodes: each count 1–3")
    return got


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rooms", type=int, default=50, help="rooms, one websocket client each (50)")
    p.add_argument("--seconds", type=float, default=30, help="time budget of a run or probe (30)")
    p.add_argument(
        "--bot", default="easy", help="level of the server-side bots: easy, normal, hard (easy)"
    )
    p.add_argument("--rules", default="hunan", help="rules preset (hunan)")
    p.add_argument("--port", type=int, default=0, help="loopback port (default: a free one)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--nodes",
        type=node_counts,
        default=[1],
        help="servers over one PostgreSQL + Redis (1); a list (1,2,3) with --search",
    )
    p.add_argument(
        "--db",
        default=None,
        help=f"database (default: SQLite; {DEFAULT_PG} for --nodes > 1 and for --search)",
    )
    p.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="Redis for --nodes > 1")
    p.add_argument(
        "--via-relay",
        action="store_true",
        help="each client connects to a node that does not own its room (relayed via Redis)",
    )
    p.add_argument(
        "--search",
        action="store_true",
        help="find, per node count, the most rooms whose p99 stays under --p99",
    )
    p.add_argument("--p99", type=float, default=100.0, help="--search: the p99 target, ms (100)")
    p.add_argument("--start", type=int, default=4, help="--search: the first room count (4)")
    p.add_argument("--max-rooms", type=int, default=400, help="--search: the most rooms tried")
    p.add_argument("--steps", type=int, default=3, help="--search: bisection steps (3)")
    p.add_argument(
        "--server-arg", action="append", default=[], help="one more argument for each server"
    )
    args = p.parse_args(argv)
    if not 1 <= args.rooms <= 1000 or not 0 < args.seconds <= 600:
        p.error("--rooms must be 1–1000 and --seconds 0–600")
    if not args.search and len(args.nodes) != 1:
        p.error("a list of node counts needs --search")
    if args.search and not 1 <= args.start <= args.max_rooms <= 1000:
        p.error("--search needs 1 ≤ --start ≤ --max-rooms ≤ 1000")
    if args.search:
        report = (
            (lambda r: None) if args.json else (lambda r: print("  probe:", line(r), flush=True))
        )
        found = asyncio.run(run_search(args, report))
        if args.json:
            print(json.dumps(found, ensure_ascii=False))
        else:
            one = next((f["rooms_held"] for f in found if f["nodes"] == 1), None)
            for f in found:
                ratio = f" = {f['rooms_held'] / one:.2f}× one node's" if one else ""
                print(
                    f"{f['nodes']} node(s): {f['rooms_held']} rooms hold p99 < {args.p99:g} ms"
                    f"{ratio} (first failing: {f['first_failing']})"
                )
        return 0
    out = asyncio.run(run(args))
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(line(out))
        for e in out["error_samples"]:
            print("  error:", e)
    return 1 if out["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
