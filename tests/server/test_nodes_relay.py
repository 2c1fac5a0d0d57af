"""转发 (relay): two humans on two nodes that do not own their room play it through Redis;
the owner node is SIGKILLed mid-hand and both play on over the same websockets.

Three ``paohuzi serve`` over one PostgreSQL and one Redis (issue 24). The room (R1:
two humans and a bot) is owned by node 0 (its lease); human A is connected to node 1
and human B to node 2, whose relays carry their frames to node 0 and back. Node 0
is killed: the relays notice, one of them takes the lease and restores the room
from PostgreSQL (R38, the restart path), the other relays to it, and each player's
connection — never closed — carries on after a pause. Each seat sees every event
once and in order (its versions only grow; within the hand each state's log extends
the last one's), every action is stored once and in order, and the record replays
with ``paohuzi replay --check``. HTTP requests for the room (join, room info) reaching
another node are answered by the owner, through the relay too. The nodes' meters (``GET /api/nodes``) show it.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .test_nodes_failover import (  # noqa: F401 (pg: a fixture)
    REDIS,
    Human,
    Node,
    _play,
    check_stored_hand,
    pg,
    played_to_a_wait,
)

redis = pytest.importorskip("redis")
pytestmark = pytest.mark.slow


class Seen(Human):
    """A :class:`Human` that keeps every state and when it came."""

    def __init__(self, node: Node, room: str, token: str) -> None:
        super().__init__(node, room, token)
        self.states: list[tuple[float, dict[str, Any]]] = []

    def poll(self, wait: float = 0.05) -> None:
        while True:
            try:
                msg = json.loads(self.ws.recv(timeout=wait))  # closed: ConnectionClosed, a failure
            except TimeoutError:
                return
            if msg["type"] == "state":
                self.state = msg
                self.first = self.first or msg
                self.states.append((time.monotonic(), msg))
            elif msg["type"] == "error":
                self.errors.append(msg["code"])
            wait = 0.0

    def check_once_in_order(self, hand_id: str) -> None:
        """Versions only grow; within the hand each log extends the one before (R38)."""
        versions = [m["version"] for _, m in self.states]
        assert versions == sorted(set(versions)), versions
        log: list[Any] = []
        for _, m in self.states:
            if m["hand_id"] != hand_id or "view" not in m:
                continue
            now = m["view"]["log"]
            assert now[: len(log)] == log, "an event was lost, repeated or reordered"
            log = now

    def pause_after(self, t: float) -> float:
        """The longest wait for a state from ``t`` on (the relay's pause around a kill)."""
        times = [t] + [at for at, _ in self.states if at > t]
        return max(b - a for a, b in itertools.pairwise(times))


def _meters(node: Node) -> dict[str, dict[str, Any]]:
    time.sleep(1.5)  # the nodes write their meters once a second
    got = httpx.get(f"http://{node.base}/api/nodes", timeout=10).json()["nodes"]
    return {n["node"]: n for n in got}


def _waiting_mid_hand(nodes: list[Node], first: bool) -> tuple[str, list[Seen]]:
    """A room owned by node 0 with human A on node 1 and B on node 2, played until the
    12th event and then left where node 0 waits for a human (nothing moves until one
    acts, so it is still mid-hand when it is killed); no humans if the hand ended."""
    body = {"rules": "hunan", "bots": 1, "bot": "easy", "hands": 1, "name": "甲"}
    r = httpx.post(f"http://{nodes[0].base}/api/rooms", json=body, timeout=10).json()
    room = r["room"]
    # HTTP too: the join reaches node 1, which passes it to the owner and its answer back
    j = httpx.post(f"http://{nodes[1].base}/api/rooms/{room}/join", json={"name": "乙"})
    assert j.status_code == 200, j.text
    info = httpx.get(f"http://{nodes[2].base}/api/rooms/{room}", timeout=10)
    assert info.status_code == 200 and info.json()["free_seats"] == []
    tokens = [r["token"], j.json()["token"]]
    if first:  # a wrong token is refused by the owner, through the relay
        bad = Seen(nodes[1], room, "x" * 22)
        bad.poll(3.0)
        assert bad.errors == ["bad_token"] and bad.state is None
        bad.close()
    humans = [Seen(nodes[1], room, tokens[0]), Seen(nodes[2], room, tokens[1])]
    return room, humans if played_to_a_wait(humans, random.Random(2424)) else []


def test_relayed_players_play_on_when_the_owner_node_is_killed(pg: str, tmp_path: Path) -> None:  # noqa: F811
    nodes = [Node(pg, f"r{i}") for i in range(3)]
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
        for _attempt in range(5):
            room, humans = _waiting_mid_hand(nodes, first=_attempt == 0)
            if humans:
                break
        else:
            pytest.fail("five hands in a row ended before the 12th event")
        a = humans[0]
        rng = random.Random(2525)
        lease = redis.Redis.from_url(REDIS)
        assert lease.get(f"room:{room}:owner") == b"r0"  # played by node 0 all along
        before = _meters(nodes[1])
        assert before["r1"]["relayed_up"] > 0 and before["r2"]["relayed_down"] > 0
        assert before["r0"]["messages_in"] > 0  # the owner read them (each node counts alone)

        owner.kill()  # SIGKILL mid-hand
        killed_at = time.monotonic()
        hand_id = (a.state or a.first or {})["hand_id"]
        _play(
            humans,
            rng,
            lambda: any(h.state and h.state["phase"] in ("settlement", "finished") for h in humans),
            120,
        )
        new_owner = (lease.get(f"room:{room}:owner") or b"").decode()
        assert new_owner in ("r1", "r2")
        pauses = [h.pause_after(killed_at) for h in humans]
        for h in humans:
            assert "room_elsewhere" not in h.errors  # the relay followed the room itself
            h.check_once_in_order(hand_id)
            h.close()
        after = _meters(nodes[1])
        assert not after["r0"]["alive"] and after["r1"]["alive"] and after["r2"]["alive"]
        follower = "r2" if new_owner == "r1" else "r1"
        assert after[follower]["relay_moves"] >= 1  # it relayed to the new owner

        check_stored_hand(pg, nodes[1].base, hand_id, tmp_path)
        print(f"taken over by {new_owner}; pauses {pauses[0]:.1f} s and {pauses[1]:.1f} s")
    finally:
        for n in nodes:
            n.kill()
