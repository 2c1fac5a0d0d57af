"""Abuse benchmark of ``paohuzi serve``: one well-behaved room while another client floods.

Starts the real server (``python -m paohuzi.cli.main serve``, default limits, no
bot delay) on a free port of 127.0.0.1 with a throw-away database. A good
client plays seat 0 of a room (two 中级 bots), answering every decision at
once. Meanwhile a flooder — another process, so its own work does not slow the
good client's measurements — attacks in turn, each for ``--seconds``:

- ``none``: nothing (the baseline);
- ``hints``: on each of its rooms' seats, ``hints`` requests as fast as it can;
- ``messages``: pings, garbage, oversized and stale acts as fast as it can;
- ``connections``: reconnects to one seat and tries wrong tokens, 50 at a time;
- ``rooms``: creates rooms, 20 requests at a time;
- ``hard``: its rooms play at 高级, so search bots think all the time.

Prints the good room's action round trip (sending an ``act`` → receiving the
state it caused) per flood: p50, p99, max, and what the flooder got done.

    python benchmarks/server_abuse.py [--seconds 15] [--floods hints,messages,…] [--json]

Traffic goes to 127.0.0.1 only; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from server_load import HOST, free_port, start_server, wait_healthy

FLOODS = ("none", "hints", "messages", "connections", "rooms", "hard")
FLOOD_ROOMS = 4  # rooms the flooder plays in (room creation is limited: 10 at once)
MAX_SENT = 200_000  # a bound on any flood's messages or requests


def ws_url(base: str, room: dict[str, Any], token: str | None = None) -> str:
    return f"ws://{base}/ws/{room['room']}?token={token or room['token']}"


# ------------------------------------------------------------------ the flooder
async def _drain(ws: Any) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


async def _flood_socket(base: str, room: dict[str, Any], kind: str, end: float) -> int:
    sent = 0
    junk = [
        '{"type": "hints", "on": true}',
        '{"type": "ping"}',
        "{not json",
        json.dumps({"type": "ping", "pad": "x" * 5000}),
        json.dumps({"type": "act", "version": 0, "action": "pass"}),
        "[" * 1000 + "]" * 1000,
    ]
    while time.monotonic() < end and sent < MAX_SENT:
        with contextlib.suppress(Exception):
            async with websockets.connect(ws_url(base, room), max_size=None) as ws:
                reader = asyncio.create_task(_drain(ws))
                while time.monotonic() < end and sent < MAX_SENT:
                    if kind == "hints":
                        msg = json.dumps({"type": "hints", "on": sent % 2 == 0})
                    else:
                        msg = junk[sent % len(junk)]
                    await ws.send(msg)
                    sent += 1
                    if sent % 50 == 0:
                        await asyncio.sleep(0)
                reader.cancel()
        await asyncio.sleep(0.05)  # closed for flooding: come back
    return sent


async def _flood_connections(base: str, room: dict[str, Any], end: float) -> int:
    tries = 0

    async def one(i: int) -> None:
        nonlocal tries
        while time.monotonic() < end and tries < MAX_SENT:
            tries += 1
            token = room["token"] if i % 2 else "wrong-token-" + str(tries)
            with contextlib.suppress(Exception):
                async with websockets.connect(ws_url(base, room, token), open_timeout=5) as ws:
                    await asyncio.wait_for(ws.recv(), 5)

    await asyncio.gather(*(one(i) for i in range(50)))
    return tries


async def _flood_rooms(base: str, end: float) -> int:
    made = 0
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10) as http:

        async def one() -> None:
            nonlocal made
            while time.monotonic() < end and made < MAX_SENT:
                made += 1
                with contextlib.suppress(httpx.HTTPError):
                    await http.post("/api/rooms", json={"bots": 2, "bot": "hard"})

        await asyncio.gather(*(one() for _ in range(20)))
    return made


async def _flood(base: str, kind: str, rooms: list[dict[str, Any]], seconds: float) -> int:
    end = time.monotonic() + seconds
    if kind in ("hints", "messages"):
        done = await asyncio.gather(*(_flood_socket(base, r, kind, end) for r in rooms))
        return sum(done)
    if kind == "connections":
        return await _flood_connections(base, rooms[0], end)
    if kind == "rooms":
        return await _flood_rooms(base, end)
    if kind == "hard":  # connected seats that never act: 托管, every seat a search bot
        readers = []
        async with contextlib.AsyncExitStack() as stack:
            for r in rooms:
                with contextlib.suppress(Exception):
                    ws = await stack.enter_async_context(websockets.connect(ws_url(base, r)))
                    readers.append(asyncio.create_task(_drain(ws)))
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            for t in readers:
                t.cancel()
        return len(readers)
    await asyncio.sleep(seconds)
    return 0


def flooder(base: str, kind: str, rooms: list[dict[str, Any]], seconds: float, out: Any) -> None:
    out.put(asyncio.run(_flood(base, kind, rooms, seconds)))


# ------------------------------------------------------------------ the good room
PACE = 0.125  # the good client acts at most 8 times a second: within the default limit


class Good:
    """Seat 0 of a room: a random legal action for every decision, at a player's pace."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []  # (when sent, round trip)
        self.errors: list[str] = []
        self.actions = 0

    async def play(self, base: str, rooms: list[dict[str, Any]], end: float) -> None:
        """Play the rooms' matches one after the other until ``end``."""
        for room in rooms:
            if time.monotonic() < end:
                await self.play_one(base, room, end)

    async def play_one(self, base: str, room: dict[str, Any], end: float) -> None:
        rng = random.Random(1)
        sent: tuple[float, int] | None = None
        last = 0.0
        async with websockets.connect(ws_url(base, room), max_size=None) as ws:
            while time.monotonic() < end:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic()))
                except TimeoutError:
                    break
                msg = json.loads(raw)
                if msg["type"] == "error":
                    if msg["code"] != "stale_version":
                        self.errors.append(msg["code"])
                    sent = None
                    continue
                if msg["type"] != "state":
                    continue
                if sent is not None and msg["version"] > sent[1]:
                    self.samples.append((sent[0], time.monotonic() - sent[0]))
                    sent = None
                if msg["phase"] == "finished":
                    break
                if msg["legal_actions"] and sent is None:
                    action = rng.choice(msg["legal_actions"])["id"]
                    await asyncio.sleep(max(0.0, last + PACE - time.monotonic()))
                    sent = (last := time.monotonic(), msg["version"])
                    self.actions += 1
                    act = {"type": "act", "version": msg["version"], "action": action}
                    await ws.send(json.dumps(act))


def _stats(lat: list[float]) -> dict[str, Any]:
    lat = sorted(lat)

    def pct(p: float) -> float | None:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else None

    return {"n": len(lat), "p50": pct(0.5), "p99": pct(0.99), "max": pct(1.0)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"{HOST}:{port}"
    floods = [f for f in args.floods.split(",") if f]
    results: dict[str, Any] = {}
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, Path(tmp) / "abuse.sqlite3")
        try:
            await wait_healthy(f"http://{base}", proc)
            async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30) as http:
                good = [  # a 64-hand match lasts ~80 s at a player's pace: two in a row
                    (await http.post("/api/rooms", json={"bots": 2, "hands": 64})).json()
                    for _ in range(2)
                ]
                mine = []
                for _ in range(FLOOD_ROOMS):
                    level = "hard" if "hard" in floods else "normal"
                    body = {"bots": 2, "bot": level, "hands": 64}
                    mine.append((await http.post("/api/rooms", json=body)).json())
            player = Good()
            total = args.seconds * len(floods) + 5
            game = asyncio.create_task(player.play(base, good, time.monotonic() + total))
            await asyncio.sleep(1.0)  # the good room is under way
            for kind in floods:
                q = ctx.Queue()
                fl = ctx.Process(target=flooder, args=(base, kind, mine, args.seconds, q))
                t0 = time.monotonic()
                fl.start()
                await asyncio.to_thread(fl.join, args.seconds + 60)
                t1 = time.monotonic()
                if fl.is_alive():
                    fl.kill()
                done = q.get(timeout=5) if not q.empty() else None
                lat = [d for t, d in player.samples if t0 <= t <= t1]
                results[kind] = {**_stats(lat), "flooder_sent": done}
                await asyncio.sleep(0.5)
            game.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await game
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except Exception:
                proc.kill()
    return {"seconds_per_flood": args.seconds, "floods": results, "errors": player.errors[:5]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=15, help="seconds per flood (15)")
    p.add_argument("--floods", default=",".join(FLOODS), help="which floods, in order")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    if not 1 <= args.seconds <= 120 or any(f not in FLOODS for f in args.floods.split(",")):
        p.error(f"--seconds must be 1–120 and --floods among {','.join(FLOODS)}")
    out = asyncio.run(run(args))
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(f"good room's action round trip, {args.seconds:g} s per flood (ms):")
        for kind, r in out["floods"].items():
            print(
                f"  {kind:12} n={r['n']:5}  p50 {r['p50']}  p99 {r['p99']}  max {r['max']}"
                f"   (flooder: {r['flooder_sent']})"
            )
        if out["errors"]:
            print("  good room errors:", out["errors"])
    bad = [k for k, r in out["floods"].items() if r["p99"] is None or r["p99"] >= 200]
    return 1 if bad or out["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
