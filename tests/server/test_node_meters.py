"""计量 (meters): one node's counts at ``GET /api/nodes`` (no Redis: this node alone; with
Redis every node's, tests/nodes/test_relay.py). A seat's connection, its reconnection,
a wrong token and the messages both ways are counted (issue 24)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .helpers import create_room


def _meters(client: TestClient) -> dict[str, int]:
    got = client.get("/api/nodes").json()["nodes"]
    assert len(got) == 1 and got[0]["node"] == "local" and got[0]["alive"]
    return dict(got[0])


def test_a_node_counts_connections_refusals_and_messages(client: TestClient) -> None:
    assert _meters(client)["connects"] == 0
    r = create_room(client, bots=2)
    with client.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "ping"})
        while ws.receive_json()["type"] != "pong":
            pass
    with client.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        assert ws.receive_json()["type"] == "state"
    with client.websocket_connect(f"/ws/{r['room']}?token=wrong") as ws:
        assert ws.receive_json()["code"] == "bad_token"
    m = _meters(client)
    assert (m["connects"], m["reconnects"], m["bad_connects"]) == (1, 1, 1)
    assert m["messages_in"] == 1 and m["messages_out"] >= 3  # two states and the pong
    assert m["rooms"] == 1 and m["relayed_up"] == m["relayed_down"] == 0
