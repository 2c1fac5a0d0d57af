"""王 as a web seat meets it (issue 23): the 胡 choices name their 王 pattern (R41), the
settlement says which card each 王 became (R40) and which pattern won, replays reveal
every seat's 王 (R39), and a move that puts a 王 where a card kind stands is refused
with its own error and changes nothing (R39)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paohuzi.bots import make_bot
from paohuzi.core import records
from paohuzi.core.actions import HU
from paohuzi.core.rules import HUNAN
from paohuzi.core.views import view
from paohuzi.server.present.choices import described
from paohuzi.server.present.replay import replay_frames
from paohuzi.server.present.settlement import hand_settlement
from paohuzi.server.vocab import RoomPhase
from paohuzi.table import Table

from .helpers import Player, create_room, my_discard_turn

# hunan with 2 王 and the yongzhou table of pattern 番 (PRESETS.md), so R41 is offered
PATTERN_RULES = HUNAN.replace(name="hunan_pat", wang=2, wang_fan=(4, 8, 8, 16, 16, 32))


def test_pattern_wins_are_named_and_each_wang_card_is_sent() -> None:
    """Greedy bots play hands with 2 王: every 胡 listed with a pattern carries it and
    names it in its label (R41), a 胡 on a drawn 王 is listed as 胡 王; every settlement of a win with 王 sends one card per 王
    the winner held (R40: the scorer's assignment, never ``w``) and the pattern won by."""
    rules = PATTERN_RULES
    table = Table([make_bot("greedy") for _ in range(3)], rules, 7, 40)
    listed = wins = patterns = on_wang = 0
    while not table.match.is_over() and patterns < 2:
        st = table.deal()
        while not st.is_terminal():
            seat = table.next_bot()
            assert seat is not None
            v = view(st, seat)
            for c in described({a.id(): a for a in v.legal}, rules, RoomPhase.PLAYING):
                if c.type == HU and c.card == "w":  # a 王 just drawn wins (R39/R41)
                    on_wang += 1
                    assert c.label.startswith("胡 王")
                if c.type == HU and c.id != "hu":
                    listed += 1
                    assert c.pattern is not None and c.id == f"hu:{c.pattern}"
                    assert next(a for a in v.legal if a.id() == c.id).pattern.zh in c.label
            table.apply(table.choose(seat))
        table.finish_hand()
        r, m = st.result, table.match
        assert r is not None
        sheet = hand_settlement(r, view(st, st.dealer), m.scores, m.index, m.hands, rules)
        pos = r.position
        held = (pos.wang + pos.win_wang) if pos is not None else 0
        if not held:
            assert sheet.wang is None and sheet.pattern is None
            continue
        wins += 1
        assert r.settlement is not None
        assert sheet.wang == tuple(c.code for c in r.settlement.wang)
        assert len(sheet.wang) == held and "w" not in sheet.wang
        assert sheet.pattern == (pos.pattern.value if pos.pattern is not None else None)
        patterns += pos.pattern is not None
        dumped = sheet.model_dump(mode="json", exclude_none=True)
        assert dumped["wang"] == list(sheet.wang)
    assert listed and wins and on_wang and patterns == 2, (listed, wins, on_wang, patterns)


def test_a_public_replay_reveals_every_seats_wang() -> None:
    """R39: each frame's ``reveal.wang`` is the 王 each seat held then (its own view's),
    so a replay draws them as at the table; a seat's own frames carry its ``wang``."""
    table = Table([make_bot("greedy") for _ in range(3)], PATTERN_RULES, 3, 1)
    st = table.deal()
    while not st.is_terminal():
        seat = table.next_bot()
        assert seat is not None
        table.apply(table.choose(seat))
    rec = records.record(st)
    data = replay_frames(json.loads(json.dumps(rec)))
    steps = [s for _, s in records.HandRecord.from_dict(rec).steps()]
    assert len(steps) == len(data["frames"])
    for f, s in zip(data["frames"], steps, strict=True):
        assert f["reveal"]["wang"] == [view(s, k).wang for k in range(3)]
    assert sum(data["frames"][0]["reveal"]["wang"]) >= 1  # seed 3 deals 王 into hands
    mine = replay_frames(rec, seat=0)["frames"]
    assert [f["view"].get("wang", 0) for f in mine] == [view(s, 0).wang for s in steps]


@pytest.mark.parametrize(
    "move",
    ["discard:w", "discard:王", "peng:w", "chi:w:x1x2w", "chi:x2:x1x2w", "chi:x2:x1x2x3,x2x2w"],
)
def test_a_wang_discard_or_chi_is_refused_and_changes_nothing(
    client: TestClient, move: str
) -> None:
    """R39: a 王 is never discarded, claimed or used in a 吃/比: the client that sends it
    gets ``wang_move`` (a clear text naming R39 in both languages), the same version,
    and its next legal move still works."""
    r = create_room(client, rules={"preset": "hunan", "wang": 4}, seed=5, bots=2)
    with client.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        me = Player(ws)
        st = me.play(random.Random(1), lambda s: my_discard_turn(s) and s["view"].get("wang"))
        v = st["version"]  # the seat holds a 王 and must discard
        ws.send_text(json.dumps({"type": "act", "version": v, "action": move}))
        assert me.ping()["version"] == v
        err: dict[str, Any] = me.errors[-1]
        assert err["code"] == "wang_move", err
        assert "R39" in err["message_en"] and "wild" in err["message_en"]
        assert "王" in err["message_zh"]
        assert me.state is not None and me.state["version"] == v
        legal = st["legal_actions"]
        assert not any("w" in a["id"].split(":", 1)[-1] for a in legal if a["type"] != "hu")
        me.act(legal[0]["id"])
        assert me.next_state()["version"] > v


def test_the_zuoxing_seat_is_sent_the_dealers_hand_and_no_one_else() -> None:
    """坐醒 (R42, PRESETS yongzhou with 4 players): the seat that sits out is sent the
    dealer's concealed cards, 王 as ``w``, in a view the wire model accepts; no dealt-in
    seat is sent them (R16)."""
    from paohuzi.core.cards import CODES
    from paohuzi.core.rules import PRESETS
    from paohuzi.core.state import GameState
    from paohuzi.server.messages import ViewWire
    from paohuzi.server.present.state import view_wire

    rules = PRESETS["yongzhou"].with_players(4)
    for seed in range(4):
        st = GameState(rules, seed=seed)
        (out,) = [s for s in range(4) if s not in st.seats]
        sent = {s: view_wire(view(st, s)) for s in range(4)}
        for d in sent.values():
            ViewWire.model_validate(d)
        dealer = view(st, st.dealer)
        expected = [CODES[c] for c in dealer.hand] + ["w"] * dealer.wang
        assert sent[out] is not None and sorted(sent[out]["watched"]) == sorted(expected)
        assert all("watched" not in d for s, d in sent.items() if s != out and d)
