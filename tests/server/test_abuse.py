"""Issue 13: the web server on the open internet — one test per finding of the review.

Each test failed on the server before the fix (see each docstring's "Before:").
Default limits are used wherever they are small enough to show the point; the
tests never assert durations (speed lives in benchmarks/server_abuse.py).
"""

from __future__ import annotations

import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from paohuzi.server.http.app import create_app

from .helpers import Player, create_room, my_discard_turn, not_playing


@pytest.fixture
def open_app(db_path: Path) -> Iterator[Callable[..., TestClient]]:
    """``open_app(**create_app kwargs)``: an app with the server's own default limits."""
    opened: list[TestClient] = []

    def make(**kw: Any) -> TestClient:
        kw.setdefault("bot_delay", 0)
        kw.setdefault("away_timeout", 1000)
        kw.setdefault("public_url", "http://testserver")  # the test client's own address
        c = TestClient(create_app(kw.pop("db", db_path), **kw))
        c.__enter__()
        opened.append(c)
        return c

    yield make
    for c in opened:
        c.__exit__(None, None, None)


@pytest.fixture
def app(open_app: Callable[..., TestClient]) -> TestClient:
    return open_app()


def ws_url(r: dict[str, Any]) -> str:
    return f"/ws/{r['room']}?token={r['token']}"


def recv_until(ws: Any, pred: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """Raw messages up to and including the first that satisfies ``pred``."""
    out = []
    while True:
        out.append(ws.receive_json())
        if pred(out[-1]):
            return out


def pong(ws: Any) -> list[dict[str, Any]]:
    ws.send_json({"type": "ping"})
    return recv_until(ws, lambda m: m["type"] == "pong")


# ====================================================================== High
def test_h1_a_match_longer_than_the_bound_is_refused(app: TestClient) -> None:
    """Before: ``rules.hands_per_match`` = 10,000,000 was accepted (4.6 s, 535 MB)."""
    big = {"rules": {"name": "x", "hands_per_match": 10_000_000}, "bots": 2}
    r = app.post("/api/rooms", json=big)
    assert r.status_code == 400 and r.json()["error"] == "bad_rules"
    ok = {"rules": {"name": "x", "hands_per_match": 64}, "bots": 2, "bot": "easy"}
    assert app.post("/api/rooms", json=ok).status_code == 200
    assert app.post("/api/rooms", json={"hands": 65, "bots": 2}).status_code == 422


def test_h2_clients_choose_a_level_never_bot_options(app: TestClient) -> None:
    """Before: ``"bot": "ismcts:iters=100000000,…"`` ran as asked on the server."""
    for bot in ("ismcts:iters=100000000,top=8", "ismcts", "greedy", "x" * 1000):
        r = app.post("/api/rooms", json={"bots": 2, "bot": bot})
        assert r.status_code == 422, bot
    made = {}
    for level in ("easy", "normal", "hard"):
        r = app.post("/api/rooms", json={"bots": 2, "bot": level}).json()
        room = app.app.state.manager.rooms[r["room"]]  # type: ignore[attr-defined]
        bot = room.table.players[1]
        made[level] = (bot.name, getattr(bot, "iters", None), getattr(bot, "time_ms", None))
        assert app.get(f"/api/rooms/{r['room']}").json()["bot"] == level
    # the one mapping table: fixed settings, a wall-clock budget for the search
    assert made == {
        "easy": ("novice", None, None),
        "normal": ("greedy", None, None),
        "hard": ("ismcts", 16, 1000.0),
    }


def _first_hand(app: TestClient, r: dict[str, Any], token: str) -> list[str]:
    with app.websocket_connect(f"/ws/{r['room']}?token={token}") as ws:
        st = Player(ws).until(lambda s: s["phase"] == "playing")
    return st["view"]["hand"]


def test_h3_a_chosen_seed_deals_known_cards_only_to_bots(app: TestClient) -> None:
    """Before: a room's creator chose the seed, so knew a friend's cards and the wall."""
    friends = []
    for _ in range(2):
        r = create_room(app, bots=1, seed=5)
        friend = app.post(f"/api/rooms/{r['room']}/join").json()
        friends.append(_first_hand(app, r, friend["token"]))
    assert friends[0] != friends[1]  # the server dealt from its own random source
    solo = []
    for _ in range(2):  # every other seat a bot: the seed is honoured (reproducible rooms)
        r = create_room(app, bots=2, seed=5)
        solo.append(_first_hand(app, r, r["token"]))
    assert solo[0] == solo[1]


# ====================================================================== Medium
class ThreeHumans:
    """A room of three humans, each on its own websocket, played at random to a situation."""

    def __init__(self, client: TestClient, stack: ExitStack, **body: Any) -> None:
        r = create_room(client, bots=0, hands=8, **body)
        tokens = [r["token"]] + [
            client.post(f"/api/rooms/{r['room']}/join").json()["token"] for _ in range(2)
        ]
        self.room = client.app.state.manager.rooms[r["room"]]  # type: ignore[attr-defined]
        self.ps = [
            Player(stack.enter_context(client.websocket_connect(f"/ws/{r['room']}?token={t}")))
            for t in tokens
        ]
        self.rng = random.Random(7)
        self.sync()

    def sync(self, first: int | None = None) -> None:
        """Every seat's messages are handled (a ping answered after them)."""
        for i in sorted(range(3), key=lambda i: i != first):
            self.ps[i].ping()

    def play_until(self, found: Callable[[Any], bool], limit: int = 3000) -> None:
        """Random legal play, the highest-priority seat first, until ``found(state)``."""
        for _ in range(limit):
            ph = self.room.phase
            if ph == "finished":
                break
            if ph == "settlement":
                for i, p in enumerate(self.ps):
                    if p.state and any(a["id"] == "ready" for a in p.state["legal_actions"]):
                        p.act("ready")
                        self.sync(i)
                continue
            st = self.room.state
            if found(st):
                return
            seat = st.to_act()[0]
            p = self.ps[seat]
            assert p.state is not None and p.state["legal_actions"], p.state
            p.act(self.rng.choice(p.state["legal_actions"])["id"])
            self.sync(seat)
        pytest.fail("no such situation came up")


def _window(st: Any, pending: int) -> bool:
    """A claim window with ``pending`` seats deciding and one seat with nothing to decide."""
    return st.phase == "claim" and len(st.to_act()) == pending


# The M4 tests drive three seats with a ping after every move: far above a player's
# pace, so they run with the protocol tests' message limits (``client``/``make_client``).


def test_m4_errors_say_nothing_the_view_hides(client: TestClient) -> None:
    """Before: a seat with nothing to decide that sent ``pass`` in a claim window got
    ``seat 0 has no decision pending (waiting for [2, 1])``."""
    with ExitStack() as stack:
        t = ThreeHumans(client, stack)
        t.play_until(lambda st: _window(st, 2))
        (idle,) = {0, 1, 2} - set(t.room.state.to_act())
        p = t.ps[idle]
        assert p.state is not None and p.state["legal_actions"] == []
        v = p.state["version"]
        p.act("pass", version=v)
        p.act("discard:x1", version=v)
        p.ping()
        for e in p.errors[-2:]:
            assert e["code"] == "not_your_turn"
            assert not re.search(r"[0-9]|seat|wait", e["message"]), e
            assert re.search(r"[\u4e00-\u9fff]", e["message"])  # for players, in Chinese
        assert p.ping()["version"] == v


def test_m4_a_silent_pass_moves_no_other_seats_version(client: TestClient) -> None:
    """Before: one version per room — another seat's silent 过 moved every seat's version."""
    with ExitStack() as stack:
        t = ThreeHumans(client, stack)

        def lower_can_pass(st: Any) -> bool:
            return _window(st, 2) and "pass" in st.legal_action_ids(st.to_act()[-1])

        t.play_until(lower_can_pass)
        high, low = t.room.state.to_act()
        (idle,) = {0, 1, 2} - {high, low}
        before = {i: t.ps[i].state["version"] for i in (high, idle)}  # type: ignore[index]
        t.ps[low].act("pass")
        t.sync(low)
        assert t.room.state.to_act() == [high]  # the window is still open, the pass silent
        for i in (high, idle):
            assert t.ps[i].state["version"] == before[i]  # type: ignore[index]
            assert t.ps[i].ping()["version"] == before[i]


def test_m4_a_claim_timeout_raises_no_away_flag(make_client: Callable[..., TestClient]) -> None:
    """Before: a seat that let a claim decision time out was marked away (托管) at once,
    telling everybody it had something to claim."""
    app = make_client(away_timeout=1.0)
    with ExitStack() as stack:
        t = ThreeHumans(app, stack)

        def only_one(st: Any) -> bool:
            return _window(st, 1) and not t.room.seats[st.to_act()[0]].away

        t.play_until(only_one)
        (silent,) = t.room.state.to_act()
        watcher = t.ps[(silent + 1) % 3]
        seen = []
        hand = watcher.state["hand_id"]  # type: ignore[index]
        while True:  # nobody answers: the claim times out and the stand-in answers it
            st = watcher.next_state()
            seen.append(st["players"][silent]["away"])
            v = st["view"]
            if st["hand_id"] != hand or v is None or v["phase"] != "claim" or v["open"] is None:
                break
            if v["log"] != watcher.state["view"]["log"]:  # type: ignore[index]
                break
        assert seen and not any(seen)


def test_m5_hints_are_computed_off_the_lock_once_per_decision(app: TestClient) -> None:
    """Before: every ``hints`` message ran the hint bot under the room lock."""
    manager = app.app.state.manager  # type: ignore[attr-defined]
    real = manager.hint
    calls: list[int] = []
    gate = threading.Event()
    released: list[bool] = []

    def slow_hint(state: Any, seat: int) -> Any:
        calls.append(seat)
        if not released:  # the first computation waits for the test's go
            released.append(gate.wait(5))
        return real(state, seat)

    manager.hint = slow_hint
    # seed 4 (初级 bots): the act and the bots' moves after it bring two more states
    # before the seat's next decision, so three computations at most
    r = create_room(app, bots=2, seed=4)
    with app.websocket_connect(ws_url(r)) as ws:
        me = Player(ws)
        st = me.play(random.Random(1), my_discard_turn)
        for _ in range(30):  # a flood of hint requests
            ws.send_json({"type": "hints", "on": True})
        me.act(st["legal_actions"][0]["id"])  # the room answers while the hint is computed
        after = me.next_state()
        assert after["version"] > st["version"]
        gate.set()
        recv_until(ws, lambda m: m["type"] == "hint")
    assert released[0] is True  # the act was answered before the hint was let go
    assert calls.count(0) <= 3  # once per decision, not once per request


def _limited(msgs: list[dict[str, Any]]) -> bool:
    return any(m.get("code") == "rate_limited" for m in msgs)


def test_m5_messages_per_connection_are_metered(app: TestClient) -> None:
    """Before: nothing limited how many messages a connection could send."""
    r = create_room(app, bots=2)
    with app.websocket_connect(ws_url(r)) as ws:
        assert ws.receive_json()["type"] == "state"
        for _ in range(300):
            ws.send_json({"type": "ping"})
        time.sleep(1.5)  # the bucket refills a little
        ws.send_json({"type": "resume"})  # a marker: answered with a state
        msgs: list[dict[str, Any]] = []
        # bots' states may come in between: read on to a state after the refusals
        while not (msgs and msgs[-1]["type"] == "state" and _limited(msgs)):
            msgs.append(ws.receive_json())
        types = [m["type"] for m in msgs]
        assert types.count("pong") < 300
        assert any(m.get("code") == "rate_limited" for m in msgs)
        assert pong(ws)[-1]["type"] == "pong"  # still connected, and answered again


def test_m5_one_live_connection_per_seat(app: TestClient) -> None:
    """Before: any number of connections could hold one seat (300 slowed other rooms)."""
    r = create_room(app, bots=2)
    with app.websocket_connect(ws_url(r)) as old:
        Player(old).next_state()
        with app.websocket_connect(ws_url(r)) as new:
            assert Player(new).next_state()["type"] == "state"
            old.send_json({"type": "ping"})
            msg = old.receive_json()
            while msg["type"] == "state":  # bots still moving when it was replaced
                msg = old.receive_json()
            assert msg["type"] == "error" and msg["code"] == "replaced"
            with pytest.raises(WebSocketDisconnect) as closed:
                old.receive_json()
            assert closed.value.code == 4409
            assert pong(new)[-1]["type"] == "pong"  # the newest connection plays


def test_m5_reconnections_per_seat_are_metered(app: TestClient) -> None:
    """Before: a seat could be reconnected as fast as a client liked."""
    r = create_room(app, bots=2)
    codes = []
    for _ in range(20):
        try:
            with app.websocket_connect(ws_url(r)) as ws:
                first = ws.receive_json()
                codes.append(first.get("code") if first["type"] == "error" else "ok")
        except WebSocketDisconnect as e:  # refused at the handshake (issue 24): no work done
            assert e.code == 4429
            codes.append("too_many_connections")
    assert codes[0] == "ok" and "too_many_connections" in codes


def test_m5_room_creation_is_metered_per_client(app: TestClient) -> None:
    """Before: one client could create ~100 rooms a second."""
    statuses = []
    for _ in range(30):
        r = app.post("/api/rooms", json={"bots": 2, "bot": "easy"})
        statuses.append(r.status_code)
        if r.status_code == 429:
            assert r.json()["error"] == "too_many_rooms" and r.json()["message"]
    assert statuses[0] == 200 and 429 in statuses


def test_m5_open_rooms_are_capped(open_app: Callable[..., TestClient]) -> None:
    """Before: rooms were never capped, in all or per client."""
    from paohuzi.server.limits import Limits

    app = open_app(limits=Limits(max_rooms=3, rooms_per_client=2))
    other = {"x-forwarded-for": "x"}  # (not trusted: every request is from "testclient")
    assert [app.post("/api/rooms", json={"bots": 2}).status_code for _ in range(2)] == [200] * 2
    r = app.post("/api/rooms", json={"bots": 2}, headers=other)
    assert r.status_code == 429 and r.json()["error"] == "too_many_rooms"
    app = open_app(limits=Limits(max_rooms=2), db=":memory:")
    assert [app.post("/api/rooms", json={"bots": 2}).status_code for _ in range(2)] == [200] * 2
    r = app.post("/api/rooms", json={"bots": 2})
    assert r.status_code == 503 and r.json()["error"] == "server_busy"


def test_m5_abandoned_rooms_expire_and_records_outlive_them(
    open_app: Callable[..., TestClient],
) -> None:
    """Before: rooms never expired and the database grew without bound."""
    app = open_app()
    manager = app.app.state.manager  # type: ignore[attr-defined]
    store = app.app.state.storage  # type: ignore[attr-defined]
    done = create_room(app, bots=2, hands=1)
    with app.websocket_connect(ws_url(done)) as ws:
        end = Player(ws).play(random.Random(2), not_playing)
    assert end["phase"] == "finished"
    waiting = create_room(app, bots=1)  # a friend who never came
    running = create_room(app, bots=2)
    held = create_room(app, bots=2)
    lim = manager.limits
    now = time.time()
    with app.websocket_connect(ws_url(held)):  # someone is at this table: it stays
        app.portal.call(manager.sweep, now + lim.finished_ttl + 60)  # type: ignore[union-attr]
        assert app.get(f"/api/rooms/{done['room']}").status_code == 404
        for r in (waiting, running, held):
            assert app.get(f"/api/rooms/{r['room']}").status_code == 200
        assert app.get(f"/api/records/{end['hand_id']}").status_code == 200  # the replay link
        app.portal.call(manager.sweep, now + lim.room_ttl + 60)  # type: ignore[union-attr]
        for r in (waiting, running):
            assert app.get(f"/api/rooms/{r['room']}").status_code == 404
        assert app.get(f"/api/rooms/{held['room']}").status_code == 200
    counts = app.portal.call(store.counts)  # type: ignore[union-attr]
    assert counts["rooms"] == 1 and counts["records"] == 1
    assert app.get(f"/api/records/{end['hand_id']}").status_code == 200
    app.portal.call(manager.sweep, now + lim.record_ttl + 60)  # type: ignore[union-attr]
    assert app.get(f"/api/records/{end['hand_id']}").status_code == 404
    assert app.portal.call(store.counts)["records"] == 0  # type: ignore[union-attr]


def test_m6_long_fields_and_bodies_are_refused(app: TestClient) -> None:
    """Before: a 10 MB ``rules.name`` and ``bot`` made 52 MB state messages and +67 MB
    of database."""
    huge = "名" * 3_500_000  # 10.5 MB of UTF-8
    r = app.post("/api/rooms", json={"rules": {"name": huge}, "bots": 2, "bot": huge})
    assert r.status_code == 413 and r.json()["error"] == "body_too_large"
    assert len(r.content) < 1000  # the refusal does not echo the input
    bodies = [
        {"rules": {"name": "x" * 200}, "bots": 2},  # within the body cap, beyond the field
        {"rules": "x" * 200, "bots": 2},
        {"name": "x" * 25, "bots": 2},
    ]
    for body in bodies:
        r = app.post("/api/rooms", json=body)
        assert r.status_code in (400, 422), body
        assert len(r.content) < 1000
    assert app.post("/api/rooms/AAAAAA/join", json={"name": "x" * 25}).status_code == 422
    assert app.get("/api/records/" + "x" * 100).status_code == 422
    assert app.post("/api/rooms", json={"name": "名" * 24, "bots": 2}).status_code == 200


def test_m6_long_websocket_messages_get_an_error_and_the_seat_stays(app: TestClient) -> None:
    """Before: any frame up to 16 MB was read and parsed."""
    r = create_room(app, bots=2)
    with app.websocket_connect(ws_url(r)) as ws:
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 10_000}))
        msgs = pong(ws)
        assert [m.get("code") for m in msgs if m["type"] == "error"] == ["too_large"]
        for bad in (
            {"type": "act", "version": 1, "action": "x" * 65},
            {"type": "act", "version": 2**60, "action": "pass"},
        ):
            ws.send_json(bad)
            assert pong(ws)[-2]["code"] == "bad_message"


# ====================================================================== Low
def test_l_tokens_stay_out_of_the_logs(db_path: Path) -> None:
    """Before: uvicorn logged ``/ws/ROOM?token=…`` (the seat's secret) at info level."""
    uvicorn = pytest.importorskip("uvicorn")
    import socket

    import httpx
    import websockets.sync.client as wsc

    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(self.format(record))

    handler = Keep()
    loggers = [logging.getLogger(n) for n in ("uvicorn.access", "uvicorn.error")]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(db_path, bot_delay=0, away_timeout=1000)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="info"))
    t = threading.Thread(target=server.run, daemon=True)
    t.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        for lg in loggers:
            lg.addHandler(handler)
        base = f"127.0.0.1:{port}"
        r = httpx.post(f"http://{base}/api/rooms", json={"bots": 2, "bot": "easy"}).json()
        with wsc.connect(f"ws://{base}/ws/{r['room']}?token={r['token']}") as ws:
            json.loads(ws.recv())
        httpx.get(f"http://{base}/api/health?token={r['token']}")
        time.sleep(0.2)
    finally:
        for lg in loggers:
            lg.removeHandler(handler)
        server.should_exit = True
        t.join(10)
    assert any("/ws/" in line for line in records)  # the lines are there …
    assert not any(r["token"] in line for line in records)  # … without the token


def test_l_websockets_and_posts_from_other_sites_are_refused(
    open_app: Callable[..., TestClient],
) -> None:
    """Before: any web page could open a seat's websocket (no Origin check)."""
    app = open_app(origins=("https://friend.example",))
    r = create_room(app, bots=2)
    evil = {"origin": "https://evil.example"}
    with app.websocket_connect(ws_url(r), headers=evil) as ws:
        assert ws.receive_json()["code"] == "bad_origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    assert app.post("/api/rooms", json={"bots": 2}, headers=evil).status_code == 403
    for origin in ("http://testserver", "https://friend.example"):  # itself; a configured one
        with app.websocket_connect(ws_url(r), headers={"origin": origin}) as ws:
            assert ws.receive_json()["type"] == "state"


def test_l_api_docs_only_in_dev_mode(open_app: Callable[..., TestClient]) -> None:
    """Before: /docs and /openapi.json were public."""
    app = open_app()
    for path in ("/docs", "/redoc", "/openapi.json"):
        assert app.get(path).status_code == 404, path
    dev = open_app(dev=True, db=":memory:")
    assert dev.get("/openapi.json").status_code == 200


def test_l_pages_carry_security_headers(app: TestClient) -> None:
    """Before: no Content-Security-Policy, X-Frame-Options or Referrer-Policy."""
    for path in ("/", "/static/app.js", "/api/health"):
        h = app.get(path).headers
        assert "default-src 'self'" in h["content-security-policy"]
        assert "frame-ancestors 'none'" in h["content-security-policy"]
        assert h["x-frame-options"] == "DENY" and h["referrer-policy"] == "no-referrer"


def test_l_odd_json_gets_an_error_not_a_dropped_connection(app: TestClient) -> None:
    """Before: a 5,000-digit integer or deeply nested JSON closed the connection (1006)."""
    r = create_room(app, bots=2)
    with app.websocket_connect(ws_url(r)) as ws:
        for raw in (
            '{"type": "act", "version": ' + "9" * 5000 + ', "action": "pass"}',
            "[" * 1500 + "]" * 1500,
            '{"type": "ping", "x": "\\ud800"}',
        ):
            ws.send_text(raw)
            # (bots may still be moving: their states can come between the error and the pong)
            errs = [m for m in pong(ws) if m["type"] == "error"]
            assert len(errs) == 1 and errs[0]["code"] in ("bad_json", "bad_message", "too_large")
        ws.send_text('{"type": "ping", "n": ' + "9" * 4000 + "}")  # within the frame bound
        errs = [m for m in pong(ws) if m["type"] == "error"]
        assert [e["code"] for e in errs] == ["bad_json"]  # orjson: no integer past 64 bits


def test_l_odd_values_are_a_4xx_not_a_500(app: TestClient) -> None:
    """Before: a seed ≥ 2⁶³ or a name with a lone surrogate made the server fail (500)."""
    cases = [
        '{"bots": 2, "seed": 9223372036854775808}',
        '{"bots": 2, "name": "\\ud800"}',
        '{"bots": 2, "seed": ' + "9" * 5000 + "}",
        "[" * 3000 + "]" * 3000,
        "{not json",
    ]
    for body in cases:
        r = app.post("/api/rooms", content=body, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, body[:40]
        assert r.json()["message"]
    ok = '{"bots": 2, "seed": 9223372036854775807}'
    assert app.post("/api/rooms", content=ok).status_code == 200


def test_l_replay_ids_cannot_be_guessed(app: TestClient) -> None:
    """Before: a finished hand's id was ``ROOM-N``, so anyone could read anyone's records."""
    r = create_room(app, bots=2, hands=1)
    with app.websocket_connect(ws_url(r)) as ws:
        end = Player(ws).play(random.Random(3), not_playing)
    hand = end["hand_id"]
    assert app.get(f"/api/records/{r['room']}-1").status_code == 404
    assert r["room"] not in hand and len(hand) >= 16
    assert app.get(f"/api/records/{hand}").json()["actions"]  # the link still works
