"""Restarts under load: ``paohuzi serve`` killed mid-play, again and again, loses nothing.

A real server (a subprocess on a loopback port) plays rooms at the 高级 (hard)
level, whose bots think in worker processes, and at 初级 (easy). Each room's
one human seat is connected but never acts (but for 下一局 at a settlement): it
goes on 托管 and bots play every seat. The server is killed (SIGKILL, twice) and stopped (SIGTERM, which must end
it within seconds although hard bots are thinking) and started again each time.
After every restart each seat's first state continues exactly the hand it saw
before; at the end every match is complete and every stored hand replays. On
SQLite and on PostgreSQL alike (``db_url``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from paohuzi.core import records

from .databases import sync_engine

httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")

pytestmark = pytest.mark.slow

HOST = "127.0.0.1"
ROOMS = [("hard", 3), ("hard", 3), ("easy", 16), ("easy", 16)]  # (level, hands)
SIGTERM_EXIT_S = 15  # a hang guard: the server stops in ~1–3 s


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: str) -> None:
        self.db, self.port = db, _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"{HOST}:{self.port}"

    def start(self) -> None:
        cmd = [
            sys.executable, "-m", "paohuzi.cli.main", "serve", "--host", HOST,
            "--port", str(self.port), "--db", self.db, "--bot-delay", "0",
            "--away-timeout", "0.3", "--log-level", "warning", "--room-rate", "600",
        ]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{self.base}/api/health", timeout=2).status_code == 200:
                    return
            assert self.proc.poll() is None, self.proc.stderr.read() if self.proc.stderr else ""
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.1)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self, sig: int) -> float:
        assert self.proc is not None
        t0 = time.monotonic()
        self.proc.send_signal(sig)
        self.proc.wait(SIGTERM_EXIT_S)
        return time.monotonic() - t0


async def _watch(base: str, room: dict[str, Any], seen: dict[str, Any], until: float) -> None:
    """Seat 0 of a room: connected, never acting but for 下一局; remembers the last state.

    A settlement waits for every connected human (it has no 托管 timer), and a
    reconnection or a restart takes the seat back from 托管: so, as a player
    would, the watcher taps 下一局, else a hand ended before its next timeout
    would hold the match for good."""
    url = f"ws://{base}/ws/{room['room']}?token={room['token']}"
    first = True
    try:
        async with websockets.connect(url, max_size=None) as ws:
            while time.monotonic() < until:
                msg = json.loads(await asyncio.wait_for(ws.recv(), until - time.monotonic()))
                if msg["type"] != "state":
                    continue
                if first:
                    seen.setdefault("first", {})[room["room"]] = msg
                    first = False
                seen.setdefault("last", {})[room["room"]] = msg
                if msg["phase"] == "finished":
                    return
                if any(a["id"] == "ready" for a in msg["legal_actions"]):
                    act = {"type": "act", "version": msg["version"], "action": "ready"}
                    await ws.send(json.dumps(act))
    except (OSError, TimeoutError, websockets.ConnectionClosed):
        pass  # the end of this round: the time is up, or the server was stopped


def _play(base: str, rooms: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    until = time.monotonic() + seconds

    async def main() -> None:
        await asyncio.gather(*(_watch(base, r, seen, until) for r in rooms))

    asyncio.run(main())
    return seen


def _wait_gone(pids: set[int], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout  # a hang guard: workers check every second
    while pids := {p for p in pids if Path(f"/proc/{p}").exists()}:
        assert time.monotonic() < deadline, f"orphaned workers: {pids}"
        time.sleep(0.1)


def _continues(before: dict[str, Any], after: dict[str, Any]) -> None:
    """The state after a restart continues the one seen before: same hand, nothing lost."""
    if before["phase"] == "finished":
        assert after["phase"] == "finished"
        return
    # Bots play on between the watcher's last message and the kill, so the
    # server may have finished that hand and begun the next: never an earlier one.
    assert after["hand_index"] >= before["hand_index"]
    if after["hand_index"] == before["hand_index"]:
        assert after["hand_id"] == before["hand_id"]
        log_before, log_after = before["view"]["log"], after["view"]["log"]
        assert log_after[: len(log_before)] == log_before
    assert after["version"] > before["version"]  # what a client held before is stale


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    srv = Server(db_url)
    yield srv
    srv.kill()  # whatever happened: no server left running


def _children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (Linux /proc; empty elsewhere)."""
    out = set()
    for d in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(d.name))
    return out


def test_kills_and_restarts_under_load_lose_nothing(server: Server) -> None:
    server.start()
    rooms = []
    for level, hands in ROOMS:
        body = {"bots": 2, "bot": level, "hands": hands, "seed": len(rooms)}
        r = httpx.post(f"http://{server.base}/api/rooms", json=body, timeout=10)
        assert r.status_code == 200, r.text
        rooms.append(r.json())
    stops = [signal.SIGKILL, signal.SIGKILL, signal.SIGTERM]
    last: dict[str, Any] = {}
    term_s = None
    for i, sig in enumerate(stops):
        seen = _play(server.base, rooms, 1.0 + 0.5 * i)
        for code, st in last.items():  # the previous stop lost nothing
            _continues(st, seen["first"][code])
        last = seen["last"]
        assert any(st["phase"] == "playing" for st in last.values()), [
            (s["phase"], s["hand_index"], s["players"]) for s in last.values()
        ]  # killed mid-play
        assert server.proc is not None
        workers = _children(server.proc.pid)  # the bot pool's processes
        took = server.stop(sig)
        if sig == signal.SIGTERM:
            term_s = took
        _wait_gone(workers)  # killed or stopped, the server leaves no worker behind
        server.start()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:  # let every match finish
        seen = _play(server.base, rooms, 15)
        for code, st in last.items():
            _continues(st, seen["first"][code])
        last = seen["last"]
        if all(st["phase"] == "finished" for st in last.values()):
            break
    server.stop(signal.SIGTERM)
    assert term_s is not None and all(st["phase"] == "finished" for st in last.values())

    engine = sync_engine(server.db)
    db = engine.connect()
    for (level, hands), room in zip(ROOMS, rooms, strict=True):
        rows = db.execute(
            text("SELECT id, idx, status, record FROM hands WHERE match_id = :m ORDER BY idx"),
            {"m": f"{room['room']}/1"},
        ).all()
        assert [r[1] for r in rows] == list(range(hands)) and {r[2] for r in rows} == {"finished"}
        total = [0, 0, 0]
        for hid, _, _, rec_text in rows:
            rec = json.loads(rec_text)
            seqs = [
                s
                for (s,) in db.execute(
                    text("SELECT seq FROM actions WHERE hand_id = :h"), {"h": hid}
                )
            ]
            assert sorted(seqs) == list(range(len(seqs)))  # no action lost, none twice
            assert len(rec["actions"]) == len(seqs)
            replayed = records.replay(rec)  # every step legal, the same outcome
            assert replayed.is_terminal() and replayed.returns() == rec["result"]["scores"]
            total = [a + b for a, b in zip(total, rec["result"]["scores"], strict=True)]
            if level == "hard":
                assert rec["bots"][1:] == ["ismcts", "ismcts"]
        assert last[room["room"]]["scores"] == total
    db.close()
    engine.dispose()
    print(f"SIGTERM mid-play stopped the server in {term_s:.2f} s")  # shown with -s
