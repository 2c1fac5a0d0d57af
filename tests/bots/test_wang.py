"""王 (wáng) and the bots (R39–R41): greedy values a 王 as the card it could best stand
for, counts it among its holdings (R17), takes the best-paying of several 胡 (自摸,
王钓 / 王闯 / 王炸), and decides from its view alone; every bot plays hands with 王."""

from __future__ import annotations

import random

import pytest

from paohuzi.bots import Observation, make_bot
from paohuzi.bots.heuristics import HandValue
from paohuzi.bots.knowledge import knowledge
from paohuzi.core.actions import CHI, HU, PENG
from paohuzi.core.cards import parse_cards
from paohuzi.core.evaluator import BIT, pack
from paohuzi.core.player import Bot
from paohuzi.core.rules import HUNAN
from paohuzi.core.state import GameState
from paohuzi.core.views import view

from .helpers import SMALL_ISMCTS, same_choice_in_resampled_worlds, states

FAN = (4, 8, 8, 16, 16, 32)  # PRESETS.md yongzhou: 王钓 4 … 王炸王 32 (R41)
WANG4 = HUNAN.replace(wang=4, wang_fan=FAN)
WANG2 = HUNAN.replace(wang=2, wang_fan=FAN)


def test_a_wang_is_valued_as_the_best_card_it_could_stand_for() -> None:
    """R40: one 王 is worth exactly the best natural card in its place (胡息 and shape),
    and more than no card at all."""
    hv = HandValue(WANG2)
    tsum = hv.ev.summarize(())
    hand = pack(parse_cards("一二四五七八壹贰叁肆伍陆柒捌玖拾拾"))
    best = max(
        hv.value(hand + BIT[c], tsum, with_ting=False)
        for c in range(20)
        if (hand >> (3 * c)) & 7 < 3
    )
    assert hv.value(hand, tsum, with_ting=False, wang=1) == pytest.approx(best)
    assert best > hv.value(hand, tsum, with_ting=False)
    two = hv.value(hand, tsum, with_ting=False, wang=2)
    assert two >= best  # a second 王 never lowers the value


def test_holdings_that_wait_on_a_wang_pattern_are_seen() -> None:
    """R41: eighteen natural cards in six 门子 (18 胡息) and two 王 wait on 王闯 — any
    card joins the two 王 as a 坎 — so greedy values them above the plain reading; one
    card out of place and no pattern waits (the gate and the settlement agree)."""
    hv = HandValue(WANG2)
    tsum = hv.ev.summarize(())
    ready = pack(parse_cards("壹贰叁贰柒拾一二三二七十四五六七八九"))
    assert hv.pattern_fan(ready, (), 2) == FAN[2]  # 王闯
    assert hv.pattern_fan(ready, (), 1) == 0  # one 王: 19 cards cannot make 6 门子 + a pair
    broken = ready - BIT[8] + BIT[19]  # 七八九 → 七八 + 拾
    assert hv.pattern_fan(broken, (), 2) == 0
    plain = hv.value(ready, tsum, [3] * 20, wang=2)
    assert hv.value(ready, tsum, [3] * 20, wang=2, table=()) > plain


def test_knowledge_counts_wang_among_the_holdings() -> None:
    """R17 counts every card held, 王 included: greedy's count must match the engine's,
    or it scores a 吃 without the discard that follows it."""
    checked = 0
    for st in states(WANG4, range(3), policy="greedy"):
        for seat in st.to_act():
            k = knowledge(view(st, seat))
            assert k.wang == st.wang(seat)
            assert k.held == st.held(seat)
            checked += k.wang > 0
    assert checked > 20


def test_a_claim_with_wang_is_scored_with_its_discard() -> None:
    """R17/R39: a seat holding 王 that 吃/碰s and then owes a discard has greedy score the
    claim with a natural discard (a 王 is never one)."""
    greedy = make_bot("greedy")
    seen = 0
    for st in states(WANG4, range(6), policy="random"):
        for seat in st.to_act():
            if not st.wang(seat):
                continue
            obs = Observation(st, seat)
            for ch in greedy.choices(obs):  # type: ignore[attr-defined]
                if ch.action.type in (CHI, PENG) and st.held(seat) + 1 > st.need(seat):
                    assert ch.discard is not None and 0 <= ch.discard < 20
                    seen += 1
    assert seen > 0


def test_greedy_takes_the_best_paying_of_several_hu() -> None:
    """R41: where 自摸 and 王 patterns are offered together, greedy takes one that the
    engine settles for the most (each option applied to a copy of the state); and these
    positions do tell the options apart (the first offered is not always the best)."""
    greedy = make_bot("greedy")
    positions = differ = 0
    for st in states(WANG4, (35, 57, 74, 146), policy="random"):
        pending = st.to_act()
        if len(pending) != 1:
            continue
        seat = pending[0]
        hus = [a for a in st.legal_actions(seat) if a.type == HU]
        if len(hus) < 2:
            continue
        pay = {}
        for a in hus:
            c = st.clone()
            c.apply(a)
            assert c.is_terminal()
            pay[a.id()] = c.returns()[seat]
        chosen = greedy.act(Observation(st, seat), random.Random(0))
        assert chosen.type == HU and pay[chosen.id()] == max(pay.values()), pay
        positions += 1
        differ += pay[hus[0].id()] < max(pay.values())
    assert positions >= 4 and differ >= 1


@pytest.mark.parametrize(("spec", "step"), [("greedy", 2), (SMALL_ISMCTS, 5)])
def test_decisions_with_wang_depend_on_the_view_only(spec: str, step: int) -> None:
    """R39: a 王 dealt to another seat is hidden; resampling every hidden card (王 too)
    must not change the bot's choice (same RNG seed)."""
    checked = list(same_choice_in_resampled_worlds(make_bot(spec), states(WANG4, range(3)), step))
    holding = sum(st.wang(seat) > 0 for st, seat in checked)
    assert len(checked) * step >= 40 and holding * step >= 10


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "greedy:free_wang=0", SMALL_ISMCTS, "neural", "policy"]
)
def test_every_bot_plays_hands_with_wang_to_the_end(spec: str) -> None:
    """R39–R41: with four 王 and the pattern 番, every seat's choice is legal and the
    hand ends (no stall, no crash in determinization or the features). ``policy``: a
    (observation, mask) policy taking the highest legal index — a 王 pattern (908 +
    slot) whenever one is offered."""
    if spec in ("neural", "policy"):
        np = pytest.importorskip("numpy")
    bot: Bot
    if spec == "policy":
        from paohuzi.bots.policy import PolicyBot

        bot = PolicyBot(lambda _obs, mask: int(np.flatnonzero(mask)[-1]))
    else:
        bot = make_bot(spec)
    for seed in range(2):
        st = GameState(WANG4, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if st.is_terminal():
                break
            seat = st.current_player
            a = bot.act(Observation(st, seat), rng)
            assert a.id() in st.legal_action_ids(seat)
            st.apply(a)
        assert st.is_terminal()
