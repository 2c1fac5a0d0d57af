"""The terminal and the text/RGB renderers show a 王 (R39) as its own card face."""

from __future__ import annotations

import random

from paohuzi.core.cards import Card
from paohuzi.core.rules import HUNAN
from paohuzi.core.state import GameState
from paohuzi.core.views import view
from paohuzi.rl.render import text_view
from paohuzi.tui import render as R


def test_wang_shows_in_the_hand_last_and_is_never_selectable() -> None:
    s = GameState(HUNAN.replace(wang=4), seed=2)
    rng = random.Random(0)
    seen = 0
    while not s.is_terminal():
        for t in s.seats:
            v = view(s, t)
            if v.wang:
                seen += 1
                assert v.tiles[-v.wang :] == (Card.W,) * v.wang
                slots = R.hand_slots(v.tiles, [a.card for a in v.legal if a.type == "discard"])
                assert [x.card for x in slots][-v.wang :] == [Card.W] * v.wang  # 王 last
                assert not any(x.selectable for x in slots if x.card is Card.W)
                assert "王" * v.wang in R.hand_text(slots).plain.replace(" ", "")
                assert "王" * v.wang in text_view(v)
        s.apply(rng.choice(s.legal_actions(s.current_player)))
    end = view(s, s.seats[0])
    assert end.revealed is not None
    assert [h.count(Card.W) for h in end.revealed] == [s.wang(t) for t in range(s.n)]
    assert seen
