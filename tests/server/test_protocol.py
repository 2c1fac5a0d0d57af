"""The web game protocol of INTERFACES.md §5, driven through FastAPI's TestClient."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from paohuzi.core import records
from paohuzi.core.actions import Action

from .helpers import Player, create_room, my_discard_turn, not_playing


def connect(client: TestClient, room: str, token: str) -> Any:
    return client.websocket_connect(f"/ws/{room}?token={token}")


def test_health_and_page(client: TestClient) -> None:
    assert client.get("/api/health").json() == {"ok": True}
    page = client.get("/")
    assert page.status_code == 200
    assert "跑胡子" in page.text and "app.js" in page.text
    assert client.get("/static/app.js").status_code == 200


def test_create_room_answers_room_seat_token(client: TestClient) -> None:
    r = create_room(client, bots=2)
    assert set(r) == {"room", "seat", "token"}
    assert r["seat"] == 0 and len(r["room"]) == 6 and r["token"]
    info = client.get(f"/api/rooms/{r['room'].lower()}").json()  # codes are case-insensitive
    assert info["phase"] == "playing" and info["free_seats"] == []
    assert [p["kind"] for p in info["players"]] == ["human", "bot", "bot"]


@pytest.mark.parametrize(
    ("body", "status"),
    [({"rules": "nope"}, 400), ({"bots": 3}, 400), ({"bots": -1}, 422), ({"hands": 0}, 422)],
)
def test_create_room_rejects_bad_requests(client: TestClient, body: dict, status: int) -> None:
    assert client.post("/api/rooms", json=body).status_code == status


def test_join_fills_free_seats_then_the_hand_starts(client: TestClient) -> None:
    r = create_room(client, bots=1)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.next_state()
        assert st["phase"] == "waiting" and st["view"] is None and st["legal_actions"] == []
        j = client.post(f"/api/rooms/{r['room']}/join", json={"name": "小明"})
        assert j.status_code == 200 and j.json()["seat"] == 2 and j.json()["token"] != r["token"]
        st = me.until(lambda s: s["phase"] != "waiting")
        assert st["phase"] == "playing" and len(st["hand_id"]) >= 16
        assert r["room"] not in st["hand_id"]  # a replay id tells nothing of its room
        assert st["players"][2]["name"] == "小明"
    assert client.post(f"/api/rooms/{r['room']}/join").status_code == 409  # full
    assert client.post("/api/rooms/ZZZZZZ/join").status_code == 404


def test_play_a_whole_hand_and_fetch_its_record(client: TestClient) -> None:
    """R5–R37 end to end: legal actions only, settlement, §4 record that replays."""
    r = create_room(client, bots=2, seed=11, hands=2)
    rng = random.Random(3)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        seen_playing = 0
        st = me.next_state()
        while st["phase"] == "playing":
            seen_playing += 1
            v = st["view"]
            # legal_actions and result are carried once, beside the view
            assert "legal_actions" not in v and "result" not in v
            assert all(a["label"] and a["type"] for a in st["legal_actions"])
            assert len(v["hand"]) == v["hand_sizes"][0]
            assert "reveal" not in v  # nobody's concealed hand before the end
            if st["legal_actions"]:
                me.act(rng.choice(st["legal_actions"])["id"])
            st = me.next_state()
        assert seen_playing > 1
        assert st["phase"] == "settlement", st["phase"]
        assert st["legal_actions"] == [{"id": "ready", "type": "ready", "label": "下一局"}]
        res = st["result"]
        assert sum(res["payments"]) == 0
        assert res["match_scores"] == res["payments"] == st["scores"]
        assert len(res["current_huxi"]) == 3 and len(res["hands"]) == 3
        assert "reveal" in st["view"]
        if not res["huangzhuang"]:
            assert res["groups"] and res["di"] == res["deng"] * max(res["fan"], 1)
        rec = client.get(f"/api/records/{st['hand_id']}").json()
    replayed = records.replay(rec)
    assert replayed.is_terminal()
    assert replayed.result is not None and replayed.returns() == res["payments"]
    assert len(rec["deck"]) == 80 and rec["actions"]


def test_record_of_unknown_or_running_hand_is_404(client: TestClient) -> None:
    r = create_room(client, bots=2)
    with connect(client, r["room"], r["token"]) as ws:
        running = Player(ws).next_state()["hand_id"]
    # a running hand has no record yet: its deck is secret
    assert client.get(f"/api/records/{running}").status_code == 404
    assert client.get("/api/records/nope-1").status_code == 404
    assert client.get("/api/replays/nope-1").status_code == 404


def test_wrong_token_is_refused(client: TestClient) -> None:
    r = create_room(client, bots=2)
    with connect(client, r["room"], "not-a-token") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with connect(client, "NOROOM", r["token"]) as ws:
        assert ws.receive_json()["code"] == "unknown_room"


def test_bad_messages_get_errors_and_change_nothing(client: TestClient) -> None:
    r = create_room(client, bots=2, seed=5)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.play(random.Random(1), my_discard_turn)
        v = st["version"]
        legal = {a["id"] for a in st["legal_actions"]}
        codes = [f"{k}{p}" for k in "xd" for p in range(1, 11)]
        absent = next(c for c in codes if f"discard:{c}" not in legal)
        cases = [
            (
                # older than the decision (which may have begun before v: any version
                # from its start on is current)
                {"type": "act", "version": 0, "action": st["legal_actions"][0]["id"]},
                "stale_version",
            ),
            (
                {"type": "act", "version": v + 7, "action": st["legal_actions"][0]["id"]},
                "stale_version",
            ),
            ({"type": "act", "version": v, "action": f"discard:{absent}"}, "illegal_action"),
            ({"type": "act", "version": v, "action": "peng:x5"}, "illegal_action"),
            ({"type": "act", "version": v, "action": "ready"}, "illegal_action"),
            ({"type": "act", "version": v, "action": "chi:zz"}, "bad_action"),
            ({"type": "act", "version": v, "action": "fly"}, "bad_action"),
            ({"type": "act", "version": "x", "action": "hu"}, "bad_message"),
            ({"type": "dance"}, "bad_message"),
            ([1, 2], "bad_message"),
        ]
        for payload, code in cases:
            ws.send_text(json.dumps(payload))
            assert me.ping()["version"] == v
            assert me.errors[-1]["code"] == code, (payload, me.errors[-1])
            assert me.errors[-1]["message"]
        ws.send_text("{not json")
        assert me.ping()["version"] == v
        assert me.errors[-1]["code"] == "bad_json"
        # and a legal act with the same version still works afterwards
        me.act(st["legal_actions"][0]["id"])
        assert me.next_state()["version"] > v


def test_reconnect_with_the_same_token_gets_the_full_state(client: TestClient) -> None:
    r = create_room(client, bots=2, seed=8)
    rng = random.Random(2)
    with connect(client, r["room"], r["token"]) as ws:
        before = Player(ws).play(rng, my_discard_turn)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        after = me.next_state()
        assert after["version"] >= before["version"]
        assert after["view"] == before["view"]
        assert after["legal_actions"] == before["legal_actions"]
        end = me.play(rng, not_playing)
        assert end["phase"] == "settlement"


def test_server_restart_mid_match_resumes_from_the_last_action(
    make_client: Any, db_path: Any
) -> None:
    """Every applied action is stored: a new app on the same file resumes the match (R38)."""
    c1 = make_client()
    r = create_room(c1, bots=2, seed=21, hands=2)
    rng = random.Random(4)
    with connect(c1, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.play(rng, not_playing)
        first = st["result"]
        hand_ids = [st["hand_id"]]
        me.act("ready")
        me.until(lambda s: s["phase"] == "playing" and s["hand_id"] != hand_ids[0])
        for _ in range(3):  # a few decisions into the second hand
            me.play(rng, lambda s: bool(s["legal_actions"]))
            me.act(me.state["legal_actions"][0]["id"])  # type: ignore[index]
            me.next_state()
        before = me.play(rng, my_discard_turn)
    room = c1.app.state.manager.rooms[r["room"]]  # type: ignore[attr-defined]
    rec_before = records.record(room.state)
    c1.__exit__(None, None, None)

    c2 = make_client()
    with connect(c2, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.next_state()
        assert st["hand_id"] == before["hand_id"] and st["phase"] == "playing"
        assert st["view"]["log"] == before["view"]["log"]
        assert st["view"]["hand"] == before["view"]["hand"]
        assert st["scores"] == first["payments"]
        room2 = c2.app.state.manager.rooms[r["room"]]  # type: ignore[attr-defined]
        rec_after = records.record(room2.state)
        assert rec_after["actions"] == rec_before["actions"]
        assert rec_after["events"] == rec_before["events"]
        # the stale pre-restart version is refused, the current one accepted
        me.act(st["legal_actions"][0]["id"], version=before["version"] - 1)
        me.ping()
        assert me.errors and me.errors[-1]["code"] == "stale_version"
        end = me.play(rng, lambda s: s["phase"] == "finished")
        hand_ids.append(end["hand_id"])
    assert end["result"]["hand_index"] == 2
    assert end["scores"] == [
        a + b for a, b in zip(first["payments"], end["result"]["payments"], strict=True)
    ]
    assert hand_ids[0] != hand_ids[1]
    for h in hand_ids:
        rec = c2.get(f"/api/records/{h}").json()
        assert records.replay(rec).is_terminal()


def test_an_evicted_room_is_reloaded_from_storage(client: TestClient) -> None:
    r = create_room(client, bots=2, seed=14)
    rng = random.Random(9)
    with connect(client, r["room"], r["token"]) as ws:
        before = Player(ws).play(rng, my_discard_turn)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    deadline = time.monotonic() + 5
    while r["room"] in manager.rooms:  # once the server has seen the socket close
        assert time.monotonic() < deadline, "the idle room stayed in memory"
        manager._evict_idle()
        time.sleep(0.02)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        after = me.next_state()
        assert after["view"] == before["view"] and after["legal_actions"] == before["legal_actions"]
        assert me.play(rng, not_playing)["phase"] == "settlement"


def test_claim_answers_are_accepted_in_any_order(client: TestClient) -> None:
    """R16: seats deciding on the same open card may answer in any order, each with the
    version it saw — the lowest-priority seat answers first here."""
    r = create_room(client, bots=0, seed=1, hands=8)
    tokens = [r["token"]] + [
        client.post(f"/api/rooms/{r['room']}/join").json()["token"] for _ in range(2)
    ]
    room = client.app.state.manager.rooms[r["room"]]  # type: ignore[attr-defined]
    rng = random.Random(7)
    windows = 0
    with (
        connect(client, r["room"], tokens[0]) as w0,
        connect(client, r["room"], tokens[1]) as w1,
        connect(client, r["room"], tokens[2]) as w2,
    ):
        ps = [Player(w) for w in (w0, w1, w2)]

        def sync(first: Player | None = None) -> None:
            # a ping on the acting seat first: its act is handled before the others' pings
            for p in sorted(ps, key=lambda p: p is not first):
                p.ping()
            assert not any(p.errors for p in ps), [p.errors for p in ps]

        sync()
        while windows < 3 and room.table.match.index < 8:
            if room.phase != "playing":
                if room.phase == "finished":
                    break
                for p in ps:
                    p.act("ready")
                    sync(p)
                continue
            pending = room.state.to_act()  # priority order: only the server knows it
            assert {i for i, p in enumerate(ps) if p.state["legal_actions"]} == set(pending)  # type: ignore[index]
            if len(pending) > 1:
                windows += 1
            seen = {i: ps[i].state["version"] for i in pending}  # type: ignore[index]
            for seat in reversed(pending):  # lowest priority first, each on the version it saw
                p = ps[seat]
                assert p.state is not None
                p.act(rng.choice(p.state["legal_actions"])["id"], version=seen[seat])
                sync(p)
    assert windows >= 1


def test_luzhou_seats_four_with_one_sitting_out(client: TestClient) -> None:
    r = create_room(client, rules="luzhou", bots=3, seed=2)
    with connect(client, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.next_state()
        assert len(st["players"]) == 4 and len(st["view"]["seats"]) == 3
        out = ({0, 1, 2, 3} - set(st["view"]["seats"])).pop()
        assert out == (st["view"]["dealer"] + 2) % 4  # 坐底: opposite the dealer
        end = me.play(random.Random(5), not_playing)
    assert len(end["result"]["payments"]) == 4 and end["result"]["payments"][out] == 0


def test_away_seat_is_played_by_a_bot_until_its_player_is_back(make_client: Any) -> None:
    c = make_client(away_timeout=0.2)
    r = create_room(c, bots=2, seed=3, hands=1)
    away_seen = []
    with connect(c, r["room"], r["token"]) as ws:
        me = Player(ws)

        def done(s: dict) -> bool:
            away_seen.append(s["players"][0]["away"])
            return s["phase"] == "finished"

        st = me.until(done)  # never acting ourselves
        assert st["result"]["hand_index"] == 1
        assert me.errors == []
    rec = c.get(f"/api/records/{st['hand_id']}").json()
    if any(a["seat"] == 0 for a in rec["actions"]):  # seat 0's decisions were made by its 托管 bot
        assert any(away_seen)


def test_away_flag_shows_and_acting_takes_the_seat_back(make_client: Any) -> None:
    c = make_client(away_timeout=0.2, bot_delay=0.05)
    r = create_room(c, bots=2, seed=9)
    with connect(c, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.until(lambda s: s["players"][0]["away"])
        assert st["away"] is True
        ws.send_json({"type": "resume"})
        st = me.until(lambda s: not s["players"][0]["away"])
        assert st["away"] is False


def test_replay_frames_step_through_a_finished_hand(client: TestClient) -> None:
    r = create_room(client, bots=2, seed=4)
    with connect(client, r["room"], r["token"]) as ws:
        end = Player(ws).play(random.Random(6), not_playing)
    rec = client.get(f"/api/records/{end['hand_id']}").json()
    rp = client.get(f"/api/replays/{end['hand_id']}").json()
    assert len(rp["frames"]) == len(rec["actions"]) + 1
    assert [f["action"] for f in rp["frames"][1:]] == rec["actions"]
    # the frames' events, concatenated, are the record's events
    assert [e for f in rp["frames"] for e in f["events"]] == rec["events"]
    # a replay shows everything: every seat's concealed hand and every table card,
    # beside a view shaped as the live table's (the same renderer draws it)
    for f in rp["frames"]:
        rv = f["reveal"]
        assert all(None not in h for h in rv["hands"])
        assert all(None not in m["cards"] for t in rv["tables"] for m in t)
        assert rv["hands"][f["view"]["seat"]] == f["view"]["hand"]
        assert {"hand", "hand_sizes", "tables", "piles", "wall", "open"} <= set(f["view"])
    first = rp["frames"][0]
    rv, v = first["reveal"], first["view"]
    dealt = sum(len(h) for h in rv["hands"]) + sum(len(m["cards"]) for t in rv["tables"] for m in t)
    assert dealt + v["wall"] + bool(v["open"]) == 80
    seat0 = Action.from_dict(rec["actions"][0]).seat
    assert rv["to_act"] == [seat0]
    # the seats' names as the table showed them, so a shared link shows them too
    assert rp["names"] == [p["name"] for p in end["players"]] and all(rp["names"])


def test_a_seats_replay_is_what_that_seat_saw(client: TestClient) -> None:
    """``?seat=S``: the frames are seat S's own views and log (R16: others' 过 stay
    private; 偎 face down), no reveal; a seat not dealt in is refused."""
    r = create_room(client, bots=2, seed=4)
    with connect(client, r["room"], r["token"]) as ws:
        end = Player(ws).play(random.Random(6), not_playing)
    rec = client.get(f"/api/records/{end['hand_id']}").json()
    passes = {e["seat"] for e in rec["events"] if e["type"] == "pass"}
    assert passes, "the hand should hold some 过 to hide"
    hand = records.HandRecord.from_dict(rec)
    for seat in range(3):
        rp = client.get(f"/api/replays/{end['hand_id']}?seat={seat}").json()
        mine = list(hand.frames(seat))
        assert len(rp["frames"]) == len(mine)
        for f, m in zip(rp["frames"], mine, strict=True):
            assert "reveal" not in f and f["view"]["seat"] == seat
            assert f["view"]["hand"] == [c.code for c in m.view.hand]
            assert f["events"] == [e.to_dict() for e in m.events]
            assert all(e["seat"] == seat for e in f["events"] if e["type"] == "pass")
            a = f["action"]
            assert a is None or a["type"] != "pass" or a["seat"] == seat
        log = [e for f in rp["frames"] for e in f["events"]]
        assert log == [e.to_dict() for e in mine[-1].view.log]
    bad = client.get(f"/api/replays/{end['hand_id']}?seat=3")
    assert bad.status_code == 400 and bad.json()["error"] == "bad_seat"


def test_hard_bots_think_in_the_pool_easy_ones_in_the_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """高级 (a search bot) thinks in a worker process, on the hand as it was; 初级 decides
    in the event loop. Either way the hand plays to its end by the rules."""
    manager = client.app.state.manager  # type: ignore[attr-defined]
    pool = manager.pool
    jobs: list[tuple[object, str | None]] = []
    run = pool.run

    async def counting(job: object, timeout: float) -> str | None:
        aid = await run(job, timeout)
        jobs.append((job, aid))
        return aid

    monkeypatch.setattr(pool, "run", counting)
    seen = {}
    for level in ("hard", "easy"):
        before = len(jobs)
        r = create_room(client, bots=2, seed=5, hands=1, bot=level)
        with connect(client, r["room"], r["token"]) as ws:
            st = Player(ws).play(random.Random(1), lambda s: s["phase"] != "playing")
        assert st["phase"] == "finished"
        seen[level] = len(jobs) - before
        rec = client.get(f"/api/records/{st['hand_id']}").json()
        assert records.replay(rec).is_terminal()
        assert rec["bots"][1:] == (["ismcts", "ismcts"] if level == "hard" else ["novice"] * 2)
    assert seen["hard"] > 0 and seen["easy"] == 0
    assert all(aid is not None for _, aid in jobs)  # every worker answered in time
