"""Issue 15 at the table (server side): 快捷语 relayed, 准备 before the first hand,
a room's own 出牌时间, and the match-end summary (kept over a restart)."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paohuzi.core.result import HandResult
from paohuzi.server.messages import SaidMessage, ServerMessage
from paohuzi.server.present import tally
from paohuzi.server.present.options import TURN_CHOICES
from paohuzi.server.room import phrases
from paohuzi.server.room.seats import Link

from .helpers import Player, create_room


def connect(client: TestClient, room: str, token: str) -> Any:
    return client.websocket_connect(f"/ws/{room}?token={token}")


def until_type(ws: Any, kind: str) -> list[dict[str, Any]]:
    """Messages up to and including the first of type ``kind``."""
    seen = []
    while True:
        msg = ws.receive_json()
        seen.append(msg)
        if msg["type"] == kind:
            return seen


def friends_room(c: TestClient, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A 3-seat room: the creator (seat 0), one bot (seat 1), a friend who joined (seat 2)."""
    r = create_room(c, bots=1, **body)
    j = c.post(f"/api/rooms/{r['room']}/join", json={"name": "友"}).json()
    return r, j


# ---------------------------------------------------------------------- 快捷语
def test_say_is_relayed_to_every_connected_seat_and_changes_no_version(
    client: TestClient,
) -> None:
    # ready_first: nothing moves until a human is ready, so only the phrase could
    # change the version (with the deal under way a bot's move raced the ping, 1 CI run)
    r, j = friends_room(client, options={"ready_first": True})
    with connect(client, r["room"], r["token"]) as wa, connect(client, r["room"], j["token"]) as wb:
        a, b = Player(wa), Player(wb)
        a.next_state(), b.next_state()
        va = a.ping()["version"]
        wa.send_json({"type": "say", "phrase": "nice"})
        want = {"type": "said", "seat": 0, "phrase": "nice", "text_zh": "打得好！"}
        for ws in (wa, wb):
            said = until_type(ws, "said")[-1]
            assert want.items() <= said.items()
            assert said["text_en"] == "Nice play!" and "zh" not in said  # one text per language
        assert a.ping()["version"] == va  # a phrase is not a change of the game


def test_bad_or_too_frequent_phrases_get_an_error_and_reach_nobody(
    client: TestClient,
) -> None:
    r, j = friends_room(client)
    with connect(client, r["room"], r["token"]) as wa, connect(client, r["room"], j["token"]) as wb:
        for bad in ("zzz", "", 3, "<script>" * 3):
            wa.send_json({"type": "say", "phrase": bad})
            err = until_type(wa, "error")[-1]
            assert err["code"] in ("bad_phrase", "bad_message") and "script" not in str(err)
        wa.send_json({"type": "say", "phrase": "zzz"})
        assert until_type(wa, "error")[-1]["code"] == "bad_phrase"
        wb.send_json({"type": "say", "phrase": "hello"})
        wb.send_json({"type": "say", "phrase": "bye"})  # within SAY_EVERY_S of the first
        got = until_type(wb, "error")
        assert got[-1]["code"] == "rate_limited"
        assert [m["phrase"] for m in got if m["type"] == "said"] == ["hello"]
        wb.send_json({"type": "ping"})
        assert all(m["type"] != "said" for m in until_type(wb, "pong"))
        wa.send_json({"type": "ping"})  # a heard "hello" once, and nothing of the rest
        heard = [m["phrase"] for m in until_type(wa, "pong") if m["type"] == "said"]
        assert heard == ["hello"]


def test_the_say_limit_is_per_seat_and_lifts_after_its_interval() -> None:
    class Out:
        sent = 0

        def __init__(self) -> None:
            self.got: list[ServerMessage] = []

        def send(self, msg: ServerMessage) -> None:
            self.got.append(msg)

        def close(self, code: int = 1000) -> None:
            pass

    heard = Out()
    links = [Link(Out()), Link(heard), Link()]  # two humans connected, a bot
    assert phrases.relay(links, 0, "hello", 100.0) is None
    assert phrases.relay(links, 1, "hello", 100.5) is None  # another seat: its own
    assert phrases.relay(links, 0, "hello", 101.0) == "rate_limited"
    assert phrases.relay(links, 0, "nope", 200.0) == "bad_phrase"
    assert phrases.relay(links, 0, "bye", 100.0 + phrases.SAY_EVERY_S) is None
    assert all(isinstance(m, SaidMessage) for m in heard.got)
    got = [(m.seat, m.phrase) for m in heard.got if isinstance(m, SaidMessage)]
    assert got == [(0, "hello"), (1, "hello"), (0, "bye")]


# ---------------------------------------------------------------------- 准备
def test_a_ready_first_room_deals_when_every_human_is_ready(client: TestClient) -> None:
    r, j = friends_room(client, options={"ready_first": True})
    with connect(client, r["room"], r["token"]) as wa, connect(client, r["room"], j["token"]) as wb:
        a, b = Player(wa), Player(wb)
        st = a.next_state()
        assert st["phase"] == "waiting"  # every seat is taken, and still no deal
        assert st["legal_actions"] == [{"id": "ready", "type": "ready", "label": "准备"}]
        assert [p["ready"] for p in st["players"]] == [False, True, False]  # the bot (seat 1)
        a.act("ready")
        st = a.until(lambda s: s["players"][0]["ready"])
        assert st["phase"] == "waiting" and st["legal_actions"] == []
        b.next_state()
        wb.send_json({"type": "ready"})  # the message says the same as the act
        assert b.until(lambda s: s["phase"] == "playing")["hand_index"] == 1
        assert a.until(lambda s: s["phase"] == "playing")["hand_id"] is not None
        wb.send_json({"type": "ready"})
        assert until_type(wb, "error")[-1]["code"] == "not_waiting"


def test_a_ready_first_room_with_bots_only_waits_for_its_creator(client: TestClient) -> None:
    r = create_room(client, bots=2, options={"ready_first": True})
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.next_state()
        assert st["phase"] == "waiting" and [a["id"] for a in st["legal_actions"]] == ["ready"]
        me.act("ready")
        assert me.until(lambda s: s["phase"] == "playing")["hand_index"] == 1


def test_without_ready_first_nothing_waits_and_ready_is_not_offered(client: TestClient) -> None:
    r = create_room(client, bots=1)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.next_state()
        assert st["phase"] == "waiting" and st["legal_actions"] == []  # a friend's seat is free
        client.post(f"/api/rooms/{r['room']}/join", json={})
        assert me.until(lambda s: s["phase"] == "playing")["hand_index"] == 1


# ---------------------------------------------------------------------- 出牌时间
def test_a_rooms_turn_time_is_its_away_timeout(make_client: Any) -> None:
    c = make_client(away_timeout=1000)
    r = create_room(c, bots=2, options={"turn_time": 15})
    plain = create_room(c, bots=2)
    with connect(c, r["room"], r["token"]) as ws:
        st = Player(ws).until(lambda s: s["timers"] != [])
        assert st["away_timeout"] == 15
        t = next(x for x in st["timers"] if x["seat"] == 0)
        assert 0 < t["deadline"] - st["server_time"] <= 15.1
    with connect(c, plain["room"], plain["token"]) as ws:
        assert Player(ws).next_state()["away_timeout"] == 1000
    room = c.app.state.manager.rooms[r["room"]]
    room.config = replace(room.config, turn_time=10_000)  # a stored value past the choices
    assert room.away_timeout == max(TURN_CHOICES)
    room.config = replace(room.config, turn_time=1)
    assert room.away_timeout == min(TURN_CHOICES)


# ---------------------------------------------------------------------- 总成绩
def test_a_reload_keeps_the_time_a_decision_had_used(make_client: Any) -> None:
    """Alone at a table, the timer pauses while nobody watches; a reload (disconnect,
    connect) runs it on from where it stopped, not from a fresh 出牌时间."""
    c = make_client(away_timeout=1000)
    r = create_room(c, bots=2, seed=3)

    def remaining(st: dict[str, Any]) -> float:
        t = next(x for x in st["timers"] if x["seat"] == 0)
        return float(t["deadline"] - st["server_time"])

    with connect(c, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.until(lambda s: any(t["seat"] == 0 for t in s["timers"]))
        version, legal = st["version"], st["legal_actions"]
        time.sleep(1.5)  # the decision uses 1.5 s of its 1,000
        me.ping()
        assert me.state is not None and me.state["version"] == version  # still deciding
    time.sleep(1.0)  # nobody watches: paused
    with connect(c, r["room"], r["token"]) as ws:
        st = Player(ws).next_state()
        assert st["legal_actions"] == legal  # the same decision
        assert 1000 - 1.5 - 0.5 <= remaining(st) <= 1000 - 1.4, st["timers"]


def test_the_summary_totals_ranks_and_finds_the_best_hand() -> None:
    results = [
        HandResult((6, -3, -3), 0),
        HandResult((0, 0, 0)),  # 荒庄
        HandResult((-8, 4, 4), 1),
    ]
    s = tally.summary(results, ["h1", "h2", "h3"], 3).model_dump(mode="json")
    assert s["totals"] == [-2, 1, 1]
    assert s["ranking"] == [1, 2, 0]  # ties by seat
    assert s["big_winner"] == [1, 2]
    assert s["best_hand"] == {"index": 1, "seat": 0, "score": 6}
    # each player's own best hand (seat 0's +6 in hand 1; seats 1 and 2: +4 in hand 3)
    assert s["best_hands"] == [
        {"index": 1, "score": 6},
        {"index": 3, "score": 4},
        {"index": 3, "score": 4},
    ]
    assert s["hands"][1] == {
        "index": 2,
        "hand_id": "h2",
        "scores": [0, 0, 0],
        "winner": None,
        "huxi": None,
        "fan": None,
    }
    assert s["hands"][0]["huxi"] == 0 and s["hands"][0]["fan"] == 0  # no settlement here
    empty = tally.summary([HandResult((0, 0))], [], 2).model_dump(mode="json")
    assert empty["big_winner"] == [] and empty["best_hand"] is None
    assert empty["best_hands"] == [None, None]
    assert empty["hands"][0]["hand_id"] is None


@pytest.mark.slow
def test_the_finished_state_carries_the_summary_over_a_restart(make_client: Any) -> None:
    c1 = make_client()
    r = create_room(c1, bots=2, seed=31, hands=2)
    hand_ids: list[str] = []

    def seen(st: dict[str, Any]) -> bool:
        if st["phase"] in ("settlement", "finished") and st["hand_id"] not in hand_ids:
            hand_ids.append(st["hand_id"])
        assert st["phase"] == "finished" or "summary" not in st
        return st["phase"] == "finished"

    with connect(c1, r["room"], r["token"]) as ws:
        end = Player(ws).play(random.Random(5), seen)
    s = end["summary"]
    assert [h["index"] for h in s["hands"]] == [1, 2]
    assert [h["hand_id"] for h in s["hands"]] == hand_ids
    assert s["totals"] == end["scores"]
    assert s["ranking"] == sorted(range(3), key=lambda i: (-s["totals"][i], i))
    top = max(s["totals"])
    assert s["big_winner"] == ([i for i in range(3) if s["totals"][i] == top] if top > 0 else [])
    for h in s["hands"]:
        res = c1.get(f"/api/records/{h['hand_id']}").json()["result"]
        assert h["scores"] == res["scores"] and h["winner"] == res.get("winner")
        if h["winner"] is not None:
            assert (h["huxi"], h["fan"]) == (res["huxi"], res["fan"])
    best = max(
        ((v, -h["index"], -i) for h in s["hands"] for i, v in enumerate(h["scores"]) if v > 0),
        default=None,
    )
    want = None if best is None else {"index": -best[1], "seat": -best[2], "score": best[0]}
    assert s["best_hand"] == want
    for seat in range(3):
        mine = [(v, -h["index"]) for h in s["hands"] if (v := h["scores"][seat]) > 0]
        top_v = max(mine, default=None)
        assert s["best_hands"][seat] == (
            None if top_v is None else {"index": -top_v[1], "score": top_v[0]}
        )
    c1.__exit__(None, None, None)

    c2 = make_client()  # a new server on the same file rebuilds the room from storage
    with connect(c2, r["room"], r["token"]) as ws:
        st = Player(ws).next_state()
    assert st["phase"] == "finished" and st["summary"] == s
