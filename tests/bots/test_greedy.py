"""greedy / ismcts behaviour: 胡 is taken when offered (R16, R24), greedy beats random."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from paohuzi.bots import Observation, make_bot
from paohuzi.bots.greedy import discard_kinds
from paohuzi.bots.heuristics import HandValue
from paohuzi.core.actions import HU
from paohuzi.core.rules import HUNAN, LUZHOU
from paohuzi.sim.arena import run_arena

from .helpers import SMALL_ISMCTS, states


def _hu_offers(rules_name: str, limit: int):
    found = []
    for state in states(rules_name, range(200), policy="greedy"):
        for seat in state.to_act():
            ids = state.legal_action_ids(seat)
            if HU in ids and len(ids) > 1:
                found.append((state, seat))
        if len(found) >= limit:
            break
    return found


def test_greedy_and_ismcts_take_an_offered_win():
    offers = _hu_offers("hunan", 8) + _hu_offers("luzhou", 4)
    assert len(offers) >= 10
    for spec in ("greedy", SMALL_ISMCTS):
        bot = make_bot(spec)
        for state, seat in offers:
            assert bot.act(Observation(state, seat), random.Random(1)).type == HU, spec


def test_greedy_is_deterministic():
    bot = make_bot("greedy")
    for i, state in enumerate(states("hunan", range(3))):
        for seat in state.to_act():
            obs = Observation(state, seat)
            a = bot.act(obs, random.Random(i)).id()
            assert bot.act(Observation(state, seat), random.Random(i + 99)).id() == a


def test_greedy_beats_random():
    res = run_arena(["greedy", "random"], 60, HUNAN, seed=5, workers=1).to_json()["bots"]
    g, r = res["greedy"], res["random"]
    assert g["mean_score"] > 0 > r["mean_score"]
    assert g["win_rate"] > 0.2 > r["win_rate"]


def test_ready_gate_never_hides_a_win():
    """HandValue only asks the evaluator for 听牌 when its cheap gate allows: the gate
    must pass every hand that has a winning card (R22 shape, any 胡息)."""
    for rules in (HUNAN, LUZHOU):
        hv = HandValue(rules)
        ev = hv.ev
        winning = 0
        for state in states(rules.name, range(10), policy="random"):
            for s in state.seats:
                if state.held(s) != state.need(s):
                    continue
                p, t = state.packed_hand(s), state.table_summary(s)
                if any(ev.best_huxi(p, t, c, sd) >= 0 for c in range(20) for sd in (False, True)):
                    winning += 1
                    assert hv.near_ready(p, t.fours)
        assert winning > 5


def test_the_memos_answer_what_they_were_asked() -> None:
    """HandValue's memos (keyed by one int: the holding, the table's summary_key and
    each call's flags) give what a fresh HandValue computes, for each flag asked in
    turn on the same holding: 听牌 valued or not, every kind or some, won by 自摸 or
    not, one 王 or two (R40)."""
    for rules in (HUNAN, LUZHOU, HUNAN.replace(wang=2)):
        hv = HandValue(rules)
        asked = 0
        for state in states(rules, range(4), policy="greedy"):
            for s in state.seats:
                p, t = state.packed_hand(s), state.table_summary(s)
                for flag in (True, False):
                    assert hv.static(p, t, flag) == HandValue(rules).value(p, t, None, flag)
                for cards, sd in ((0xFFFFF, False), (0xFFFFF, True), (0x3FF, False)):
                    assert hv.ting(p, t, cards, sd) == HandValue(rules).ting(p, t, cards, sd)
                if rules.wang:
                    for w in (1, 2):
                        assert hv.wild(p, t, w) == HandValue(rules).wild(p, t, w)
                asked += 1
        assert asked > 40


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=20, max_size=20))
def test_discard_kinds_are_those_r17_allows(counts: list[int]) -> None:
    """R17 (via greedy and the search's rollouts): a discard is a kind held once or
    twice; with only 坎 (or fours) left, any kind held; nothing held, none."""
    packed = sum(n << 3 * c for c, n in enumerate(counts))
    loose = [c for c, n in enumerate(counts) if 0 < n < 3]
    assert discard_kinds(packed) == (loose or [c for c, n in enumerate(counts) if n])
