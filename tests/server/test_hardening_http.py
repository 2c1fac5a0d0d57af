"""Issue 24's Medium and Low findings over HTTP and the websocket handshake, each with
the behaviour before the fix in its docstring (docs/security.md, "Hardening")."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from paohuzi.server.http import qr
from paohuzi.server.limits import Limits

from .conftest import TEST_LIMITS
from .helpers import Player, create_room, not_playing

PUBLIC = "https://paohuzi.example"


def _limits(**kw: Any) -> Limits:
    from dataclasses import replace

    return replace(TEST_LIMITS, **kw)


# ------------------------------------------------------------------ QR by Host
def test_the_qr_code_encodes_the_public_url_never_the_host(
    make_client: Callable[..., TestClient],
) -> None:
    """Before: the link was the request's Host: 3,000 characters gave a 500 and any Host
    a link to anywhere."""
    c = make_client(public_url=PUBLIC)
    r = create_room(c, bots=1)
    want = qr.svg(f"{PUBLIC}/#/room/{r['room']}")
    for host in ("evil.example", "a" * 3000, "x" * 2200 + ".example"):
        res = c.get(f"/api/rooms/{r['room']}/qr.svg", headers={"host": host})
        assert res.status_code == 200 and res.content == want, host[:20]


def test_qr_codes_are_made_once_and_metered(make_client: Callable[..., TestClient]) -> None:
    c = make_client(public_url=PUBLIC, limits=_limits(read_rate=0.01, read_burst=5))
    r = create_room(c, bots=1)
    qr.cached_svg.cache_clear()
    codes = [c.get(f"/api/rooms/{r['room']}/qr.svg").status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
    info = qr.cached_svg.cache_info()
    assert (info.misses, info.hits) == (1, 4)


# ------------------------------------------------------------------ Origin
def test_the_origin_check_does_not_trust_the_host_header(
    make_client: Callable[..., TestClient],
) -> None:
    """Before: an Origin equal to the request's own Host was let in — an attacker's page
    on evil.example, reached through its own DNS name, passed."""
    c = make_client(public_url=PUBLIC)
    evil = {"origin": "http://evil.example", "host": "evil.example"}
    assert c.post("/api/rooms", json={"bots": 2}, headers=evil).status_code == 403
    r = create_room(c, bots=2)
    with c.websocket_connect(f"/ws/{r['room']}?token={r['token']}", headers=evil) as ws:
        assert ws.receive_json()["code"] == "bad_origin"
    ok = {"origin": PUBLIC}
    assert c.post("/api/rooms", json={"bots": 2}, headers=ok).status_code == 200


# ------------------------------------------------------------------ rooms and caps
def test_rooms_nobody_connects_to_expire_within_minutes(
    make_client: Callable[..., TestClient],
) -> None:
    """Before: rooms created and never used held the global cap for 6 hours."""
    c = make_client(limits=_limits(max_rooms=3))
    mgr = c.app.state.manager  # type: ignore[attr-defined]
    rooms = [create_room(c, bots=2) for _ in range(3)]
    assert c.post("/api/rooms", json={"bots": 2}).status_code == 503
    with c.websocket_connect(f"/ws/{rooms[0]['room']}?token={rooms[0]['token']}") as ws:
        Player(ws).next_state()  # this one has a player
    soon = time.monotonic() + 60  # a minute on: nothing expires yet
    assert c.portal.call(mgr.expire_unclaimed, soon) == 0  # type: ignore[union-attr]
    far = time.monotonic() + mgr.limits.unclaimed_ttl + 1
    expired = c.portal.call(mgr.expire_unclaimed, far)  # type: ignore[union-attr]
    assert expired == 2
    assert c.portal.call(mgr.storage.count_open_rooms) == 1 and rooms[0]["room"] in mgr.rooms
    assert c.post("/api/rooms", json={"bots": 2}).status_code == 200  # room again


def test_a_waiting_room_its_players_left_expires_and_comes_back_if_they_do(
    make_client: Callable[..., TestClient],
) -> None:
    """A room waiting for friends that everyone left stops counting after minutes; its
    creator coming back (before storage deletes it) finds it as it was."""
    c = make_client()
    mgr = c.app.state.manager  # type: ignore[attr-defined]
    r = create_room(c, bots=0)  # waits for two friends
    with c.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        assert Player(ws).next_state()["phase"] == "waiting"
    far = time.monotonic() + mgr.limits.unclaimed_ttl + 1
    assert c.portal.call(mgr.expire_unclaimed, far) == 1  # type: ignore[union-attr]
    assert c.portal.call(mgr.storage.count_open_rooms) == 0 and r["room"] not in mgr.rooms
    with c.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        st = Player(ws).next_state()
    assert st["phase"] == "waiting" and st["room"] == r["room"]
    assert c.portal.call(mgr.storage.count_open_rooms) == 1


def test_a_match_under_way_is_not_expired_while_its_player_is_away(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client()
    mgr = c.app.state.manager  # type: ignore[attr-defined]
    r = create_room(c, bots=2)
    with c.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        assert Player(ws).next_state()["phase"] == "playing"
    far = time.monotonic() + mgr.limits.unclaimed_ttl + 1
    assert c.portal.call(mgr.expire_unclaimed, far) == 0  # type: ignore[union-attr]
    assert c.portal.call(mgr.storage.count_open_rooms) == 1


def test_room_creation_is_counted_per_address_in_a_window(
    make_client: Callable[..., TestClient],
) -> None:
    """Before: a token bucket alone: a steady client made 600 rooms an hour."""
    c = make_client(limits=_limits(create_rate=1000, create_burst=1000, rooms_per_window=4))
    got = [c.post("/api/rooms", json={"bots": 2}).status_code for _ in range(6)]
    assert got == [200] * 4 + [429] * 2


def test_a_rematch_respects_the_caps(make_client: Callable[..., TestClient]) -> None:
    """Before: 再来一场 opened a room past every cap."""
    c = make_client(limits=_limits(rooms_per_client=1))
    r = create_room(c, bots=2, hands=1)
    with c.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        me = Player(ws)
        me.play(random.Random(3), not_playing)
        assert me.until(lambda s: s["phase"] == "finished")["rematch"] is None
        # the finished room no longer counts; another open room of this client does
        assert c.post("/api/rooms", json={"bots": 2}).status_code == 200
        me.errors.clear()
        me.act("rematch")
        me.ping()
        assert "too_many_rooms" in [e["code"] for e in me.errors]
        assert me.state is not None and me.state["rematch"] is None


# ------------------------------------------------------------------ handshake flood
def test_a_handshake_flood_is_refused_before_any_work(
    make_client: Callable[..., TestClient],
) -> None:
    """Before: each reconnection of a valid seat was accepted, looked up and (within the
    seat's meter) attached: 500 in 10 s stopped every room of the node."""
    c = make_client(limits=_limits(handshake_rate=0.01, handshake_burst=10))
    r = create_room(c, bots=2)
    mgr = c.app.state.manager  # type: ignore[attr-defined]
    looked: list[str] = []
    real_get = mgr.get
    mgr.get = lambda code: (looked.append(code), real_get(code))[1]
    refused = 0
    for _ in range(40):
        try:
            with c.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
                ws.receive_json()
        except WebSocketDisconnect as e:
            assert e.code == 4429
            refused += 1
    assert refused == 30 and len(looked) == 10  # the refused ones cost no lookup


def test_a_seat_token_is_metered_before_the_handshake_from_any_address(
    make_client: Callable[..., TestClient],
) -> None:
    c = make_client(limits=_limits(connect_rate=0.01, connect_burst=3))
    r = create_room(c, bots=2)
    outcomes = []
    for _ in range(6):
        try:
            with c.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
                outcomes.append(ws.receive_json()["type"])
        except WebSocketDisconnect as e:
            outcomes.append(e.code)
    assert outcomes[0] == "state" and outcomes[-1] == 4429


# ------------------------------------------------------------------ reads metered
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/rooms/{room}"),
        ("get", "/api/rules/{room}"),
        ("get", "/api/rooms/{room}/rules"),
        ("get", "/api/records/{hand}"),
        ("get", "/api/replays/{hand}"),
        ("get", "/api/my-matches"),
        ("post", "/api/my-matches"),
    ],
)
def test_replays_my_matches_and_room_lookups_are_metered(
    make_client: Callable[..., TestClient], method: str, path: str
) -> None:
    """Before: no rate limit on replays, 我的牌局 and room-code lookups."""
    c = make_client(limits=_limits(read_rate=0.01, read_burst=4))
    r = create_room(c, bots=2)
    url = path.format(room=r["room"], hand="nohandnohandnoha")
    kw: dict[str, Any] = {"json": {"tokens": []}} if method == "post" else {}
    codes = [getattr(c, method)(url, **kw).status_code for _ in range(6)]
    assert 429 not in codes[:4] and codes[4:] == [429, 429], codes


# ------------------------------------------------------------------ names, hands
@pytest.mark.parametrize(
    "name", ["a\nb", "x\x1b[31m", "\x07bell", "abc\u202edcba", "a\x85b", "a\x7f"]
)
def test_names_with_control_characters_are_refused(client: TestClient, name: str) -> None:
    """Before: a name could hold newlines, escapes and bidi overrides."""
    res = client.post("/api/rooms", json={"bots": 1, "name": name})
    assert res.status_code == 422 and res.json()["fields"] == ["name"]
    r = create_room(client, bots=1)
    res = client.post(f"/api/rooms/{r['room']}/join", json={"name": name})
    assert res.status_code == 422
    seats = client.get(f"/api/rooms/{r['room']}").json()["seats"]
    assert [s["free"] for s in seats] == [False, False, True]  # nothing changed


def test_printable_names_still_pass(client: TestClient) -> None:
    r = create_room(client, bots=1, name="小明 🀄 O'Neil")
    info = client.get(f"/api/rooms/{r['room']}").json()
    assert info["seats"][0]["name"] == "小明 🀄 O'Neil"


def test_a_room_of_64_hands_is_described_as_64_on_invite_and_rules_pages(
    client: TestClient,
) -> None:
    """Before: the invite page and the rules page said 8局 (the preset's)."""
    r = create_room(client, bots=1, hands=64)
    info = client.get(f"/api/rooms/{r['room']}").json()
    assert info["hands"] == 64 and "64局" in info["summary"]["zh"]
    assert "64 hands" in info["summary"]["en"] and "8局" not in info["summary"]["zh"]
    for url in (f"/api/rooms/{r['room']}/rules", f"/api/rules/{r['room']}"):
        doc = client.get(url).json()
        assert "64局" in doc["summary"]["zh"], url
        items = [i for s in doc["sections"] for i in s["items"] if i.get("id") == "hands"]
        assert items and items[0]["value"] == 64, url


def test_the_unclaimed_sweep_runs_without_a_loop_of_its_own() -> None:
    """expire_unclaimed is a coroutine (the sweep awaits it; nothing blocks the loop)."""
    from paohuzi.server.room.manager import RoomManager

    assert asyncio.iscoroutinefunction(RoomManager.expire_unclaimed)
