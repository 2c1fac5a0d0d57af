"""hints: a legal recommendation with reasons, and the evaluator's 听牌 (R22–R27, R23)."""

from __future__ import annotations

import re

import pytest

from paohuzi.bots import Observation, make_bot
from paohuzi.bots.hints import hint
from paohuzi.core.actions import DISCARD, Action
from paohuzi.core.cards import Card
from paohuzi.core.evaluator import BIT, unpack
from paohuzi.core.rules import HUNAN, PRESETS
from paohuzi.core.tingpai import tingpai_wild
from paohuzi.core.views import view
from paohuzi.table import Table

from .helpers import states

CJK = re.compile(r"[\u4e00-\u9fff]")


def _expected_ting(state, seat, packed):
    v = view(state, seat)
    if v.wang:  # R40: a hand with 王 waits on its own cards only, every assignment tried
        ting = tingpai_wild(state.rules, tuple(unpack(packed)), v.own_groups(), v.wang)
        return {t.card.code: (t.huxi, t.huxi_zimo) for t in ting}
    ev = state._ev
    other = ev.tingpai(packed, state.table(seat), self_drawn=False)
    zimo = ev.tingpai(packed, state.table(seat), self_drawn=True)
    return {Card(c).code: (other.get(c), zimo.get(c)) for c in set(other) | set(zimo)}


def test_hint_recommends_a_legal_action_and_the_evaluators_tingpai():
    checked = ready = 0
    for state in states("hunan", range(12)):
        for seat in state.seats:
            h = hint(state, seat)
            legal = state.legal_action_ids(seat)
            if not legal:
                assert h.action is None
            else:
                assert h.action in legal
                assert h.ranking[0] == h.action and sorted(h.ranking) == sorted(legal)
                assert CJK.search(h.reason.zh) and h.reason.en.isascii()
            packed = state.packed_hand(seat)
            if h.action and h.action.startswith(DISCARD):
                card = Action.from_id(seat, h.action).card
                assert h.tingpai_after == card
                packed -= BIT[int(card)]
            elif state.held(seat) > state.need(seat):
                continue
            got = {t.card.code: (t.huxi, t.huxi_zimo) for t in h.tingpai}
            want = _expected_ting(state, seat, packed)
            assert got == want
            checked += 1
            ready += bool(want)
    assert checked > 100 and ready > 10


def test_hint_from_observation_equals_hint_from_state():
    for i, state in enumerate(states("hunan", range(2))):
        seat = state.current_player
        assert hint(Observation(state, seat)) == hint(state, seat), i


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_hint_in_every_preset(name: str) -> None:
    """提示 under every preset (issue 22: 桂林 醒, 衡阳's 14-card hands that win with 5
    门子 — R43 —, 娄底's forced discard wins — R44): at every decision of a few hands the
    hint names a legal action (a forced win when it is the only one), ranks every legal
    one, gives its reason in both languages, and its 听牌 are the evaluator's for the
    preset (so a 衡阳 hand waits with 5 门子)."""
    checked = ready = 0
    for state in states(name, range(4)):
        seat = state.current_player
        assert seat is not None
        h = hint(state, seat)
        legal = state.legal_action_ids(seat)
        assert h.action in legal and sorted(h.ranking) == sorted(legal)
        assert CJK.search(h.reason.zh) and h.reason.en.isascii()
        packed = state.packed_hand(seat)
        if h.action and h.action.startswith(DISCARD):
            packed -= BIT[int(Action.from_id(seat, h.action).card)]
        elif state.held(seat) > state.need(seat):
            continue
        got = {t.card.code: (t.huxi, t.huxi_zimo) for t in h.tingpai}
        want = _expected_ting(state, seat, packed)
        assert got == want
        checked += 1
        ready += bool(want)
    assert checked > 20 and ready > 0


def test_a_hint_with_wang_tells_the_settled_win_and_waits_on_self_drawn_cards():
    """R40/R41: with 王 the hint's 胡 gives the 胡息 the engine settles (every split and
    assignment), names a 王 pattern, and its 听牌 — after the advised discard too — are
    wins on the seat's own card only (no 胡息 from another seat's card)."""
    rules = HUNAN.replace(name="hunan_pat", wang=2, wang_fan=(4, 8, 8, 16, 16, 32))
    table = Table([make_bot("greedy") for _ in range(3)], rules, 7, 80)
    wins = patterns = tings = 0
    for _ in range(80):  # until a 胡, a pattern 胡 and a 听 after a discard were hinted
        if wins and patterns and tings:
            break
        st = table.deal()
        while not st.is_terminal():
            seat = table.next_bot()
            v = view(st, seat)
            hus = [a for a in v.legal if a.type == "hu"]
            if v.wang and v.legal:
                h = hint(st, seat)
                assert CJK.search(h.reason.zh) and h.reason.en.isascii()
                a = Action.from_id(seat, h.action)
                if a.type == "hu":
                    wins += 1
                    if a.pattern is not None:
                        patterns += 1
                        assert h.reason.zh.startswith(a.pattern.zh + "胡")
                    assert "-1" not in h.reason.zh, h.reason
                    clone = st.clone()
                    clone.apply(a)
                    while clone.result is None:  # the rest of the claim window passes
                        other = clone.to_act()[0]
                        clone.apply(next(x for x in clone.legal_actions(other) if x.type == "pass"))
                    assert clone.result is not None and clone.result.winner == seat
                    assert f"{clone.result.settlement.huxi} 胡息" in h.reason.zh
                assert all(t.huxi is None for t in h.tingpai)  # R40: 自摸 only
                if h.tingpai_after is not None:
                    hand = list(v.hand)
                    hand.remove(h.tingpai_after)
                    want = tingpai_wild(rules, tuple(hand), v.own_groups(), v.wang)
                    assert h.tingpai == want
                    tings += bool(want)
            elif hus and not v.wang:
                hint(st, seat)  # a drawn 王 as the win card: no crash
            table.apply(table.choose(seat))
        table.finish_hand()
    assert wins and patterns and tings, (wins, patterns, tings)
