"""解散房间 (issue 25): a player asks to end the match, the others agree or refuse.

``{"type": "dissolve", "agree": true}`` asks (or agrees to the open vote), ``agree: false``
refuses it; every state carries ``dissolve`` {by, deadline, votes, refused_by?} while a vote
is open (or just refused). Bots, 托管 and absent seats agree at once; silence until the
deadline agrees; when everybody agreed the match ends — phase ``finished``,
``dissolved: true``, its summary and standings, 再来一场 offered.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paohuzi.server.messages import StateMessage
from paohuzi.server.room import room as room_module

from .helpers import Player, create_room


def connect(client: TestClient, room: str, token: str) -> Any:
    return client.websocket_connect(f"/ws/{room}?token={token}")


def friends_room(c: TestClient, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The creator (seat 0), one bot (seat 1), a friend who joined (seat 2)."""
    r = create_room(c, bots=1, hands=4, **body)
    j = c.post(f"/api/rooms/{r['room']}/join", json={"name": "友"}).json()
    return r, j


def ask(p: Player, agree: bool = True) -> None:
    p.ws.send_json({"type": "dissolve", "agree": agree})


def test_against_bots_the_match_ends_at_once_with_its_standings(client: TestClient) -> None:
    r = create_room(client, bots=2, hands=4, seed=3)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        me.play(random.Random(1), lambda st: st["phase"] == "settlement")  # one hand scored
        scores = me.state["scores"]  # type: ignore[index]
        ask(me)
        st = me.until(lambda s: s["phase"] == "finished")
    StateMessage.model_validate(st)
    assert st["dissolved"] is True and "dissolve" not in st
    assert st["summary"]["totals"] == scores and len(st["summary"]["hands"]) == 1
    assert sorted(st["summary"]["ranking"]) == [0, 1, 2]
    assert [a["id"] for a in st["legal_actions"]] == ["rematch"]
    got = client.get(f"/api/rooms/{r['room']}").json()
    assert got["status"] == "finished" or "finished" in str(got)


def test_a_match_dissolved_mid_hand_still_names_that_hand(client: TestClient) -> None:
    """The top bar reads 第 N/M 局 from ``hand_index``: dissolved while hand 2 was played,
    the finished state still names hand 2 (its table is what stays shown; it read 1/2);
    dissolved at hand 1's settlement it names hand 1."""
    r = create_room(client, bots=2, hands=4, seed=3)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        rng = random.Random(1)
        me.play(rng, lambda st: st["phase"] == "playing" and st["hand_index"] == 2)
        ask(me)
        st = me.until(lambda s: s["phase"] == "finished")
    assert st["dissolved"] is True and st["hand_index"] == 2, st["hand_index"]
    assert st["hands"] == 4 and len(st["summary"]["hands"]) == 1  # one hand was scored
    # 我的牌局 tells a dissolved match from an unfinished one
    fresh = create_room(client, bots=2, hands=4, seed=4)
    tokens = [r["token"], fresh["token"]]
    got = client.post("/api/my-matches", json={"tokens": tokens}).json()["matches"]
    flags = {m["room"]: (m["status"], m["dissolved"]) for m in got}
    assert flags[r["room"]] == ("finished", True) and flags[fresh["room"]][1] is False, flags
    r = create_room(client, bots=2, hands=4, seed=3)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        me.play(random.Random(1), lambda st: st["phase"] == "settlement")
        ask(me)
        st = me.until(lambda s: s["phase"] == "finished")
    assert st["hand_index"] == 1


def test_a_friend_refuses_then_agrees(client: TestClient) -> None:
    r, j = friends_room(client)
    with connect(client, r["room"], r["token"]) as wa, connect(client, r["room"], j["token"]) as wb:
        a, b = Player(wa), Player(wb)
        a.until(lambda s: s["phase"] == "playing")
        b.until(lambda s: s["phase"] == "playing")
        ask(a)
        for p in (a, b):
            st = p.until(lambda s: "dissolve" in s)
            v = st["dissolve"]
            assert v["by"] == 0 and v["votes"] == [True, True, None]  # the bot agreed
            assert 55 <= v["deadline"] - time.time() <= 61
        ask(b, agree=False)
        for p in (a, b):
            st = p.until(lambda s: s.get("dissolve", {}).get("refused_by") == 2)
            assert st["phase"] == "playing"
        ask(a)
        b.until(lambda s: "dissolve" in s and "refused_by" not in s["dissolve"])
        ask(b)
        for p in (a, b):
            st = p.until(lambda s: s["phase"] == "finished")
            assert st["dissolved"] is True and "summary" in st
        assert a.errors == [] and b.errors == []


def test_silence_agrees_when_the_time_is_up(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(room_module, "DISSOLVE_SECONDS", 0.5)
    r, j = friends_room(client)
    with connect(client, r["room"], r["token"]) as wa, connect(client, r["room"], j["token"]):
        a = Player(wa)
        a.until(lambda s: s["phase"] == "playing")
        ask(a)
        st = a.until(lambda s: s["phase"] == "finished")
        assert st["dissolved"] is True


def test_bad_dissolve_messages_change_nothing(client: TestClient) -> None:
    r, _ = friends_room(client)
    with connect(client, r["room"], r["token"]) as wa:
        a = Player(wa)
        # the bot (seat 1) has nothing to do: no bot move can race the version check. Asked
        # of the room's state as of a pong (a state read before may be behind the room: the
        # bot moved after it, once, on a loaded CI machine)
        while True:
            a.until(lambda s: s["phase"] == "playing" and 1 not in s["view"]["to_act"])
            v = a.ping()["version"]
            st = a.state
            if st["version"] == v and 1 not in st["view"]["to_act"]:  # type: ignore[index]
                break
        ask(a, agree=False)  # nothing to refuse
        wa.send_json({"type": "dissolve"})
        wa.send_json({"type": "dissolve", "agree": "yes"})
        a.ping()
        assert [e["code"] for e in a.errors] == ["no_vote", "bad_message", "bad_message"]
        assert a.ping()["version"] == v and "dissolve" not in a.state  # type: ignore[operator]
    w = create_room(client, bots=0)  # a room still waiting for friends: no match yet
    with connect(client, w["room"], w["token"]) as ws:
        p = Player(ws)
        p.next_state()
        ask(p)
        p.ping()
        assert [e["code"] for e in p.errors] == ["no_match"]


def test_a_dissolved_match_stays_ended_over_a_restart(make_client: Any) -> None:
    c1 = make_client()
    r = create_room(c1, bots=2, hands=4, seed=5)
    with connect(c1, r["room"], r["token"]) as ws:
        me = Player(ws)
        me.until(lambda s: s["phase"] == "playing")
        ask(me)
        end = me.until(lambda s: s["phase"] == "finished")
    c1.__exit__(None, None, None)
    c2 = make_client()  # a new server on the same file
    with connect(c2, r["room"], r["token"]) as ws:
        st = Player(ws).next_state()
    assert st["phase"] == "finished" and st["dissolved"] is True
    assert st["summary"] == end["summary"]
