"""Many nodes: three ``paohuzi serve`` over one PostgreSQL and one Redis; the node
playing a room is SIGKILLed mid-hand and the hand goes on on another node.

Two humans and a bot play (R1: three seats). Exactly one node owns the room (its
lease in Redis): the others refuse its seats with ``room_elsewhere`` while the
owner lives. After the kill, the humans reconnect to the surviving nodes; the
first one whose lease take succeeds (within the lease's 3 s) restores the room
from PostgreSQL (the restart path, R38) and plays on: every action is stored
once and in order, the seats' logs continue what they saw, and the hand's record
replays with ``paohuzi replay --check``.

This is the fallback without the relay (``--no-relay``): a human is sent to the
owner node instead; test_nodes_relay.py has the nodes relay the room through Redis.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

httpx = pytest.importorskip("httpx")
ws_sync = pytest.importorskip("websockets.sync.client")
redis = pytest.importorskip("redis")

from .databases import pg_reason, pg_schema, sync_engine  # noqa: E402

pytestmark = pytest.mark.slow
HOST = "127.0.0.1"
REDIS = os.environ.get("PAOHUZI_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Node:
    def __init__(self, db: str, name: str, *extra: str) -> None:
        self.db, self.name, self.port = db, name, _free_port()
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"{HOST}:{self.port}"

    def start(self) -> None:
        cmd = [
            sys.executable, "-m", "paohuzi.cli.main", "serve", "--host", HOST,
            "--port", str(self.port), "--db", self.db, "--redis", REDIS,
            "--node-id", self.name, "--bot-delay", "0", "--away-timeout", "1000",
            "--log-level", "warning", "--bot-workers", "1", *self.extra,
        ]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def wait_up(self) -> None:
        deadline = time.monotonic() + 180  # a loaded shared machine takes its time
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{self.base}/api/health", timeout=2).status_code == 200:
                    return
            assert self.proc is not None and self.proc.poll() is None, (
                self.proc.stderr.read() if self.proc and self.proc.stderr else ""
            )
            assert time.monotonic() < deadline, "the node did not come up"
            time.sleep(0.2)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


class Human:
    """A seat's websocket on some node: the latest state; random legal play."""

    def __init__(self, node: Node, room: str, token: str) -> None:
        # entered as its context manager says (a bare connect() is deprecated since
        # websockets 17.1); ``close`` leaves it
        url = f"ws://{node.base}/ws/{room}?token={token}"
        self.ws = ws_sync.connect(url, max_size=None).__enter__()
        self.state: dict[str, Any] | None = None
        self.first: dict[str, Any] | None = None
        self.errors: list[str] = []

    def poll(self, wait: float = 0.05) -> None:
        while True:
            try:
                msg = json.loads(self.ws.recv(timeout=wait))
            except TimeoutError:
                return
            if msg["type"] == "state":
                self.state = msg
                self.first = self.first or msg
            elif msg["type"] == "error":
                self.errors.append(msg["code"])
            wait = 0.0

    def act(self, rng: random.Random) -> bool:
        st = self.state
        if st is None or st["phase"] != "playing" or not st["legal_actions"]:
            return False
        choice = rng.choice(st["legal_actions"])["id"]
        self.ws.send(json.dumps({"type": "act", "version": st["version"], "action": choice}))
        self.state = None  # wait for the answer
        return True

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.__exit__(None, None, None)


def _refused(node: Node, room: str, token: str) -> str | None:
    """The error code a node answers a seat with (None: it took the seat)."""
    with ws_sync.connect(f"ws://{node.base}/ws/{room}?token={token}") as ws:
        msg = json.loads(ws.recv(timeout=10))
        return msg["code"] if msg["type"] == "error" else None


def _reconnect(nodes: list[Node], room: str, token: str, deadline: float) -> tuple[Human, Node]:
    """Any live node, retried until one plays the room (a proxy's next upstream)."""
    while True:
        for node in nodes:
            with contextlib.suppress(OSError, Exception):
                h = Human(node, room, token)
                h.poll(1.0)
                if h.state is not None and not h.errors:
                    return h, node
                h.close()
        assert time.monotonic() < deadline, "no node took the room after its owner died"
        time.sleep(0.3)


@pytest.fixture
def pg() -> Iterator[str]:
    reason = pg_reason()
    if reason is not None:
        pytest.skip(reason)
    try:
        redis.Redis.from_url(REDIS).ping()
    except Exception as e:
        pytest.skip(f"Redis is not reachable at {REDIS}: {e}")
    with pg_schema() as url:
        yield url


def _play(humans: Sequence[Human], rng: random.Random, until: Any, limit: float) -> None:
    deadline = time.monotonic() + limit
    while not until():
        assert time.monotonic() < deadline, [h.state and h.state["phase"] for h in humans]
        for h in humans:
            h.poll()
            h.act(rng)


def check_stored_hand(pg: str, base: str, hand_id: str, tmp_path: Path) -> None:
    """Every action of the hand stored once and in order (0..n), the record served by
    the node at ``base`` holds them all, and `paohuzi replay --check` accepts it."""
    engine = sync_engine(pg)
    with engine.connect() as db:
        query = text("SELECT seq FROM actions WHERE hand_id = :h ORDER BY seq")
        seqs = [s for (s,) in db.execute(query, {"h": hand_id})]
    engine.dispose()
    assert seqs == list(range(len(seqs)))  # every action once, in order
    rec = httpx.get(f"http://{base}/api/records/{hand_id}", timeout=10).json()
    assert len(rec["actions"]) == len(seqs)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rec, ensure_ascii=False))
    check = subprocess.run(
        [sys.executable, "-m", "paohuzi.cli.main", "replay", "--check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def _owned_room_mid_hand(nodes: list[Node], first: bool) -> tuple[str, list[str], list[Human]]:
    """A room of node 0 (no relay) with both humans on it, played until the 12th event
    and then left where node 0 waits for a human (nothing moves until one acts: still
    mid-hand when it is killed); no humans if the hand ended before."""
    owner = nodes[0]
    body = {"rules": "hunan", "bots": 1, "bot": "easy", "hands": 1, "name": "甲"}
    r = httpx.post(f"http://{owner.base}/api/rooms", json=body, timeout=10).json()
    room = r["room"]
    # the second human joins through another node: the seat token is stored in PostgreSQL
    j = httpx.post(f"http://{nodes[1].base}/api/rooms/{room}/join", json={"name": "乙"})
    assert j.status_code == 503 and j.json()["error"] == "room_elsewhere"  # one owner
    j = httpx.post(f"http://{owner.base}/api/rooms/{room}/join", json={"name": "乙"})
    assert j.status_code == 200, j.text
    tokens = [r["token"], j.json()["token"]]
    if first:
        for other in nodes[1:]:  # while the owner lives, nobody else plays the room
            assert _refused(other, room, tokens[1]) == "room_elsewhere"
    humans = [Human(owner, room, t) for t in tokens]
    return room, tokens, humans if played_to_a_wait(humans, random.Random(24)) else []


def played_to_a_wait(humans: list[Any], rng: random.Random) -> bool:
    """Random play to the 12th event, then no more: drained until the owner waits for a
    human (nothing moves until one acts, so a kill now lands mid-hand). False — every
    socket closed — if the hand ended on its own first (a bot's or a human's early 胡)."""
    _play(
        humans,
        rng,
        lambda: any(
            h.state and (h.state["phase"] != "playing" or len(h.state["view"]["log"]) >= 12)
            for h in humans
        ),
        60,
    )
    deadline = time.monotonic() + 30
    while True:
        for h in humans:
            h.poll(0.3)
        if any(h.state and h.state["phase"] != "playing" for h in humans):
            for h in humans:
                h.close()
            return False
        if any(h.state and h.state["legal_actions"] for h in humans):
            return True
        assert time.monotonic() < deadline, "the owner neither waited for a human nor ended"


def test_a_killed_owner_nodes_hand_goes_on_elsewhere(pg: str, tmp_path: Path) -> None:
    nodes = [Node(pg, f"n{i}", "--no-relay") for i in range(3)]  # the fallback: no relay
    try:
        nodes[0].start()
        nodes[0].wait_up()  # the first node upgrades the schema; then the others
        for n in nodes[1:]:
            n.start()
        for n in nodes[1:]:
            n.wait_up()
        owner = nodes[0]
        # the kill must land mid-hand; a hand may end by itself before it (a bot's or a
        # human's early 胡), and then it is dealt again in a new room
        for attempt in range(5):
            room, tokens, humans = _owned_room_mid_hand(nodes, first=attempt == 0)
            if humans:
                break
        else:
            pytest.fail("five hands in a row ended before the 12th event")
        rng = random.Random(24)
        seen = [h.state or h.first for h in humans]
        owner.kill()  # SIGKILL mid-hand
        for h in humans:
            h.close()

        t0 = time.monotonic()
        survivors = nodes[1:]
        a, node_a = _reconnect(survivors, room, tokens[0], t0 + 20)
        took = time.monotonic() - t0
        b, node_b = _reconnect(survivors, room, tokens[1], t0 + 20)
        assert node_a is node_b  # one owner again
        for before, h in zip(seen, (a, b), strict=True):
            after = h.first
            assert before is not None and after is not None
            assert after["hand_id"] == before["hand_id"]
            log_before, log_after = before["view"]["log"], after["view"]["log"]
            assert log_after[: len(log_before)] == log_before  # nothing lost or redone
            assert after["version"] > before["version"]
        _play(
            [a, b],
            rng,
            lambda: any(h.state and h.state["phase"] in ("settlement", "finished") for h in (a, b)),
            120,
        )
        hand_id = seen[0]["hand_id"]  # type: ignore[index]
        for h in (a, b):
            h.close()

        check_stored_hand(pg, node_a.base, hand_id, tmp_path)
        print(f"the room moved to {node_a.name} {took:.1f} s after its owner was killed")
    finally:
        for n in nodes:
            n.kill()
