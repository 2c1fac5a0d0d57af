"""A seeded room (every other seat a bot, ``seed`` given) plays the same hand again:
the deal and every action, the bots' included (randomness only through seeded RNGs,
the bots' derived from the hand's seed and the actions so far).

The quick levels (初级, 中级) are tested. 高级 searches under a wall-clock budget
(``levels.LEVELS``: at most 1 s a decision, then its pool's grace): on a loaded machine
it may search fewer worlds and choose otherwise, so its rooms replay exactly only from
their record (docs/web.md, ``seed``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from paohuzi.core.events import PASS

from .helpers import Player, create_room


def _hand(client: TestClient, seed: int, bot: str) -> tuple[object, ...]:
    """One hand of a seeded room, its human always taking the last legal action by id
    (a choice the state alone fixes): its seed, deck and events but the passes. (A claim
    window's decisions are sealed until it closes, R16: the order its seats answer in —
    a race between the human's message and a bot's — changes neither the play nor
    anything but the record's order of those passes.)"""
    r = create_room(client, bots=2, seed=seed, hands=1, bot=bot)
    room = client.app.state.manager.rooms[r["room"]]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{r['room']}?token={r['token']}") as ws:
        p = Player(ws)
        st = p.until(lambda s: s["phase"] == "playing")
        for _ in range(3000):
            if st["phase"] != "playing":
                break
            if st["legal_actions"]:
                p.act(max(a["id"] for a in st["legal_actions"]))
            st = p.next_state()
        assert st["phase"] != "playing", "the hand did not end"
    rec, st = room.table.record(), room.table.state
    return rec.seed, tuple(rec.deck), tuple(e for e in st.events if e.type is not PASS)


@pytest.mark.parametrize("bot", ["easy", "normal"])
def test_a_seeded_room_plays_the_same_hand_again(
    make_client: Callable[..., TestClient], bot: str
) -> None:
    first, again = (_hand(make_client(), 11, bot) for _ in range(2))
    assert len(first[2]) > 10  # a hand played, not just dealt
    assert first == again
    assert _hand(make_client(), 12, bot)[1] != first[1]  # another seed, another deal
