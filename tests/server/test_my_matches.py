"""我的牌局 (issue 15): matches found by the seat tokens a browser kept; no token leaks."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from paohuzi.server.http.security import redact

from .helpers import Player, create_room, not_playing


def _play_one_hand(client: TestClient, room: str, token: str) -> dict:
    with client.websocket_connect(f"/ws/{room}?token={token}") as ws:
        return Player(ws).play(random.Random(2), not_playing)


def test_my_matches_lists_rules_date_results_and_replays(client: TestClient) -> None:
    mine = create_room(client, bots=2, seed=4, hands=2, options={"cap": 20})
    st = _play_one_hand(client, mine["room"], mine["token"])
    other = create_room(client, bots=2)
    res = client.post("/api/my-matches", json={"tokens": [mine["token"], "not-a-token"]})
    assert res.status_code == 200
    matches = res.json()["matches"]
    assert [m["room"] for m in matches] == [mine["room"]]  # not the other room
    m = matches[0]
    assert m["seat"] == 0 and m["rules"] == "hunan" and "20分封顶" in m["summary"]["zh"]
    assert m["date"].endswith("UTC") and m["hands_total"] == 2
    # the room's own 局数, not its preset's 8 (it read "已打 1/2 局 … 8局")
    assert "2局" in m["summary"]["zh"] and "8局" not in m["summary"]["zh"]
    assert [s["kind"] for s in m["seats"]] == ["human", "bot", "bot"]
    assert m["scores"] == st["result"]["match_scores"]
    (hand,) = m["hands"]
    assert hand["hand_id"] == st["hand_id"] and hand["replay"] == f"#/replay/{st['hand_id']}"
    assert hand["scores"] == st["result"]["payments"]
    assert client.get(hand["replay_url"]).status_code == 200
    assert mine["token"] not in res.text and other["token"] not in res.text
    url = f"/api/my-matches?token={mine['token']}&token={other['token']}"
    got = client.get(url)
    assert {x["room"] for x in got.json()["matches"]} == {mine["room"], other["room"]}
    assert mine["token"] not in redact(url) and other["token"] not in redact(url)  # logs


def test_a_friends_token_is_never_returned(client: TestClient) -> None:
    host = create_room(client, bots=1, name="主人")
    friend = client.post(f"/api/rooms/{host['room']}/join", json={"name": "朋友"}).json()
    res = client.post("/api/my-matches", json={"tokens": [host["token"]]})
    (m,) = res.json()["matches"]
    assert [s["name"] for s in m["seats"]] == ["主人", "机器人1", "朋友"]
    assert friend["token"] not in res.text and host["token"] not in res.text
    (m2,) = client.post("/api/my-matches", json={"tokens": [friend["token"]]}).json()["matches"]
    assert m2["room"] == host["room"] and m2["seat"] == 2


def test_unknown_or_missing_tokens_find_nothing(client: TestClient) -> None:
    create_room(client, bots=2)
    for body in ({"tokens": []}, {"tokens": ["nope"]}, {}):
        assert client.post("/api/my-matches", json=body).json() == {"matches": []}
    assert client.get("/api/my-matches").json() == {"matches": []}
    too_many = {"tokens": [f"t{i}" for i in range(51)]}
    assert client.post("/api/my-matches", json=too_many).status_code == 422
    long = "x" * 65
    assert client.get(f"/api/my-matches?token={long}").status_code == 422
