"""The terminal and the text/RGB renderers show a 王 (R39) as its own card face."""

from __future__ import annotations

import random
import re

from bot_hands import bot_hand
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


def test_the_settlement_names_what_each_wang_stood_for_after_its_group() -> None:
    """R40: the terminal's 结算 writes 王作X after each 门子 a 王 completed, one card per
    王 the winner held, never after a meld that lay on the table."""
    from paohuzi.core.rules import PRESETS

    rules = PRESETS["yongzhou"]
    shown = 0
    for seed in range(40):
        st = bot_hand(rules, seed)
        res = st.result
        if res is None or res.settlement is None or not res.settlement.wang:
            continue
        text = R.settlement_text(view(st, res.winner), {s: f"P{s}" for s in st.seats}, [0] * 3, "")
        # "王作X…" one 王 per card named, "2王作X": two 王 as X
        notes = re.findall(r"(\d?)王作(\S+)", text.plain)
        named = "".join(cards * int(n) if n else cards for n, cards in notes)
        assert sorted(named) == sorted(c.zh for c in res.settlement.wang), notes
        table = {g.zh for g in res.position.table} if res.position else set()
        for line in text.plain.splitlines():
            if "王作" in line:
                assert line.split()[1] not in table or line.split()[0] in ("提", "跑")
        shown += 1
    assert shown >= 5
