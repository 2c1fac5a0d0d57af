"""The table's flows on the server (issue 14): a settlement has no timer and never puts
anybody reading it on 托管; the next hand starts when every present human is ready;
再来一场 seats everybody in a new match; 吃 choices carry their 胡息; 听牌 is sent."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient

from paohuzi.core.cards import Card
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.rules import preset

from .helpers import Player, create_room, not_playing


def connect(client: TestClient, room: str, token: str) -> Any:
    return client.websocket_connect(f"/ws/{room}?token={token}")


def test_settlement_has_no_timer_and_never_puts_the_reader_on_tuoguan(make_client: Any) -> None:
    c = make_client(away_timeout=1.0)
    r = create_room(c, bots=2, seed=11, hands=2)
    with connect(c, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.play(random.Random(1), not_playing)
        assert st["phase"] == "settlement" and st["timers"] == []
        time.sleep(2.0)  # twice the 托管 timer
        me.ping()
        st = me.state
        assert st is not None and st["phase"] == "settlement"
        assert st["players"][0]["away"] is False and st["away"] is False
        assert [a["id"] for a in st["legal_actions"]] == ["ready"]
        assert all(p["ready"] for p in st["players"][1:])  # the bots are ready at once
        me.act("ready")
        st = me.until(lambda s: s["phase"] == "playing")
        assert st["hand_index"] == 2


def test_a_human_who_left_is_not_waited_for(make_client: Any) -> None:
    c = make_client()
    r = create_room(c, bots=1, seed=5, hands=2)
    j = c.post(f"/api/rooms/{r['room']}/join", json={"name": "友"}).json()
    rng = random.Random(2)
    with connect(c, r["room"], r["token"]) as ws0:
        a = Player(ws0)
        with connect(c, r["room"], j["token"]) as ws1:
            b = Player(ws1)
            a.next_state()
            b.next_state()
            for _ in range(3000):  # both humans play at random until the hand is over
                moved = False
                for p in (a, b):
                    p.ping()
                    st = p.state
                    assert st is not None
                    if st["phase"] == "playing" and st["legal_actions"]:
                        p.act(rng.choice(st["legal_actions"])["id"])
                        moved = True
                if a.state["phase"] == "settlement" and b.state["phase"] == "settlement":
                    break
                if not moved:
                    time.sleep(0.005)
            assert a.state["phase"] == "settlement"
        # b left without tapping 下一局: a's 下一局 is enough
        a.act("ready")
        st = a.until(lambda s: s["phase"] == "playing")
        assert st["hand_index"] == 2


def test_rematch_seats_everybody_in_a_new_match(make_client: Any) -> None:
    c = make_client()
    r = create_room(c, bots=2, seed=8, hands=1, name="甲")
    with connect(c, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.play(random.Random(3), not_playing)
        assert st["phase"] == "finished" and st["rematch"] is None
        assert [a["id"] for a in st["legal_actions"]] == ["rematch"]
        me.errors.clear()  # play() met stale answers (claims other seats won)
        me.act("rematch")
        st = me.until(lambda s: s["rematch"] is not None)
        new = st["rematch"]
        me.act("rematch")  # a second 再来一场 goes to the same room
        me.ping()
        assert me.state["rematch"] == new and me.errors == []
    assert new != r["room"]
    with connect(c, new, r["token"]) as ws:  # the same token opens the same seat there
        st = Player(ws).until(lambda s: s["phase"] == "playing")
        assert st["seat"] == 0 and st["hands"] == 1 and st["hand_index"] == 1
        assert [p["kind"] for p in st["players"]] == ["human", "bot", "bot"]
        assert st["players"][0]["name"] == "甲"
    c.__exit__(None, None, None)  # a restart: the old room's 再来一场 link is found again
    c2 = make_client()
    with connect(c2, r["room"], r["token"]) as ws:
        me = Player(ws)
        st = me.until(lambda s: s["phase"] == "finished")
        assert st["rematch"] == new
        me.act("rematch")  # and 再来一场 still goes there, not to a third room
        me.ping()
        assert me.state["rematch"] == new and me.errors == []


def test_chi_choices_carry_their_huxi_and_tingpai_is_sent(make_client: Any) -> None:
    c = make_client()
    rules = preset("hunan")
    seen = 0
    for seed in range(1, 8):
        r = create_room(c, bots=2, seed=seed, hands=1)
        with connect(c, r["room"], r["token"]) as ws:
            me = Player(ws)

            def check(st: dict[str, Any]) -> bool:
                nonlocal seen
                if st["phase"] == "playing":
                    assert isinstance(st["tingpai"], list)
                for a in st["legal_actions"]:
                    if a["type"] == "chi":
                        groups = [tuple(Card.parse(x) for x in g) for g in a["groups"]]
                        want = sum(Group(GroupKind.CHI, g).huxi(rules) for g in groups)
                        assert a["huxi"] == want
                        seen += 1
                return not_playing(st)

            me.play(random.Random(seed), check)
        if seen:
            break
    assert seen
