"""The second-wave mechanisms in play (R42–R45), on stacked decks, by rule id.

Most hands here end at the deal: the dealer's 20 cards and the 亮张 win (天胡,
R28), so the 醒牌 is the wall's top card and every number can be worked by
hand. Hand W (the dealer's) is 一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 + 拾拾;
with the 亮张 拾 it is 偎拾 6 + 一二三 3 + 壹贰叁 6 = 15 胡息.
"""

from __future__ import annotations

import random

import pytest

from engine.helpers import act, game, ids
from paohuzi.core.match import Match
from paohuzi.core.records import HandRecord
from paohuzi.core.rules import GUILIN, HENGYANG, HUNAN, LOUDI, RaceRule
from paohuzi.core.scoring import huangzhuang_payments, payments
from paohuzi.core.state import GameState
from paohuzi.core.views import view

W = "一二三四五六七八九壹贰叁肆伍陆柒捌玖拾拾"


def xing_events(s: GameState) -> list[dict]:
    return [e.to_dict() for e in s.events if e.type == "xing"]


def tianhu_game(rules, wall: str, hand: str = W, lz: str = "拾"):
    return game({0: hand}, liangzhang=lz, wall=wall, rules=rules, avoid="拾" + wall)


# ------------------------------------------------------------------ R42 醒
def test_R42_fanxing_turns_the_next_wall_card() -> None:
    """翻醒 (桂林): the card after the win is the wall's top, 五: one 五 (in 四五六) → 醒 1.
    子 = 1 + ⌊(15 − 10)/3⌋ = 2, + 1 醒 = 3; 天胡 is 自摸 ×2 → 6 each (有胡必胡: taken at once)."""
    s = tianhu_game(GUILIN, "五")
    assert s.is_terminal() and s.actions == []  # R44: no choice was made
    hu = next(e for e in s.events if e.type == "hu")
    assert hu.get("auto") and hu.get("tianhu")
    assert xing_events(s) == [
        {
            "type": "xing",
            "seat": 0,
            "card": "x5",
            "source": "wall",
            "shown": True,
            "count": 1,
            "turned": "x5",
        }
    ]
    kinds = [e.type for e in s.events]
    assert kinds.index("hu") < kinds.index("xing") < kinds.index("settle")  # INTERFACES §4
    st = s.result.settlement
    assert (st.huxi, st.xing, st.deng, st.fan, st.di) == (15, 1, 3, 2, 6)
    assert s.result.scores == (12, -6, -6)
    assert s.result.position.xing == (s.result.position.xing[0],) and s.result.to_dict()[
        "position"
    ]["xing"] == ["x5"]


def test_R42_genxing_takes_the_winning_card() -> None:
    """跟醒: the 醒牌 is the winning card 拾, of which the winner holds three → 醒 3:
    (2 + 3) × 2 = 10."""
    s = tianhu_game(GUILIN.replace(xing="gen"), "五")
    assert [(e["card"], e["count"]) for e in xing_events(s)] == [("d10", 3)]
    assert "source" not in xing_events(s)[0]  # one of his own cards, not turned from the wall
    assert s.result.settlement.di == 10


@pytest.mark.parametrize(
    ("offset", "turned", "xing", "count"),
    [(-1, "五", "x4", 1), (1, "五", "x6", 1), (1, "拾", "d1", 1), (-1, "一", "x10", 0)],
)
def test_R42_the_offset_moves_a_point_within_the_size(offset, turned, xing, count) -> None:
    """上醒 / 下醒: ±1 point, same size, 10 ↔ 1 (拾 + 1 → 壹, 一 − 1 → 十)."""
    hand, lz = W, "拾"
    if turned == "拾":  # keep a 拾 for the wall: the dealer's pair becomes 十十 + 亮张 十
        hand, lz = W.replace("拾拾", "十十"), "十"
    s = game({0: hand}, liangzhang=lz, wall=turned, rules=GUILIN.replace(xing_offset=offset))
    code = {"五": "x5", "拾": "d10", "一": "x1"}[turned]
    assert [(e["turned"], e["card"], e["count"]) for e in xing_events(s)] == [(code, xing, count)]


def test_R42_shuangxing_doubles() -> None:
    """双醒: 醒数 × 2 → (2 + 2) × 2 = 8."""
    s = tianhu_game(GUILIN.replace(xing_double=True), "五")
    assert (s.result.settlement.xing, s.result.settlement.di) == (2, 8)


def test_R42_lianfan_turns_again_on_a_four() -> None:
    """连翻 (桂林): the winner holds 坎五; 翻醒 turns the fourth 五 from the wall — the 醒牌
    makes a four-group with his three (醒 3) — so the next card, 十, is turned too (醒 0).
    坎五 3 + 一二三 3 + 壹贰叁 6 = 12: 子 1 + 醒 3 = 4, × 2 (天胡) = 8."""
    hand = "五五五一二三壹贰叁肆伍陆七八九六七八柒捌"
    s = game({0: hand}, liangzhang="玖", wall="五十", rules=GUILIN)
    assert [(e["turned"], e["card"], e["count"], e["source"]) for e in xing_events(s)] == [
        ("x5", "x5", 3, "wall"),
        ("x10", "x10", 0, "wall"),
    ]
    assert (s.result.settlement.xing, s.result.settlement.di) == (3, 8)
    assert s.result.to_dict()["xing"] == 3  # INTERFACES §4: the result carries 醒数
    once = game({0: hand}, liangzhang="玖", wall="五十", rules=GUILIN.replace(xing_chain=False))
    assert len(xing_events(once)) == 1  # without 连翻: one card
    held4 = game(
        {0: "三三三三四五六七八九壹贰叁肆伍陆柒捌玖十"},
        liangzhang="十",
        wall="二五",
        rules=GUILIN.replace(xing_offset=1),
    )
    # 上醒: 二 → 醒牌 三, and he holds all four already: it makes no four-group, no 2nd card
    assert [(e["card"], e["count"]) for e in xing_events(held4)] == [("x3", 4)]


def test_R42_no_xing_in_the_old_presets() -> None:
    s = tianhu_game(HUNAN.replace(min_huxi=15), "五")
    assert "hu" in ids(s, 0) and not xing_events(s)  # elective 天胡 (R28): a choice there
    act(s, 0, "hu")
    assert s.is_terminal() and not xing_events(s) and s.result.settlement.xing == 0


# ------------------------------------------------------------------ R43 short hands
def test_R43_fourteen_card_deal_and_five_groups() -> None:
    """衡阳: four seats dealt 14 (the dealer 15 with the 亮张), 80 − 57 = 23 in the wall;
    R17 waits at 14. A 5-门子 hand with the 亮张 is an elective 天胡 (no 提/坎 count)."""
    s = GameState(HENGYANG, seed=3)
    deal = {e.seat: e.get("count") for e in s.events if e.type == "deal"}
    assert deal == {0: 14, 1: 14, 2: 14, 3: 14} and s.wall_left <= 23
    assert all(s.need(t) == 14 for t in s.seats)
    t = game({0: "一二三四五六七八九壹贰叁柒捌"}, liangzhang="玖", wall="五", rules=HENGYANG)
    assert "hu" in ids(t, 0) and "pass" in ids(t, 0)  # not forced in 衡阳 (R44 off)
    act(t, 0, "hu")
    st = t.result.settlement
    assert len(st.groups) == 5 and st.huxi == 9  # 一二三 3 + 壹贰叁 6
    # 囤 = 1 + ⌊(9 − 6)/3⌋ = 2, + 醒 五 (one) = 3; 4 red: no 番 but 天胡 2 → 6, from each of 3
    assert (st.deng, st.fan, st.di) == (3, 2, 6) and t.result.scores == (18, -6, -6, -6)


def test_R43_mingwei_is_face_up() -> None:
    """明偎 (衡阳): another seat sees a 偎's cards and 胡息; in 湖南 they are hidden."""
    for rules, shown in ((HENGYANG, True), (HUNAN, False)):
        for seed in range(200):
            s = GameState(rules, seed)
            rng = random.Random(seed)
            while not s.is_terminal() and not any(e.type == "wei" for e in s.events):
                s.apply(rng.choice(s.legal_actions()))
            wei = [e for e in s.events if e.type == "wei"]
            if wei:
                break
        seat = wei[0].seat
        other = next(t for t in s.seats if t != seat)
        meld = next(m for m in view(s, other).tables[seat] if m.kind == "wei")
        assert (None not in meld.cards) == shown and (meld.huxi is not None) == shown
        assert wei[0].shown == shown


# ------------------------------------------------------------------ R44 discard wins
LOUDI_SEAT1 = "一二三壹贰叁贰柒拾四五六七八九肆伍陆十十"  # 16 胡息 with 碰十, waiting on 十


def test_R44_fangpao_bihu_and_dihu_for_any_seat() -> None:
    """娄底 放炮必胡: the dealer's first discard 十 completes seat 1's hand — taken by the
    rules (no action), 地胡 (R29, any non-dealer) → 100 息; a race (R45): seat 1 +100,
    the discarder −100 (his cap), seat 2 nothing."""
    s = game({1: LOUDI_SEAT1, 0: "十"}, rules=LOUDI, avoid="十")
    act(s, 0, "discard:x10")
    assert s.is_terminal() and [a.type for a in s.actions] == ["discard"]
    hu = next(e for e in s.events if e.type == "hu")
    assert (hu.seat, hu.get("auto"), hu.get("dihu")) == (1, True, True)
    assert [m.name for m in s.result.settlement.mingtang] == ["地胡"]
    assert s.result.scores == (-100, 100, 0) and s.result.discarder == 0
    assert HandRecord.of(s).check() == []


def test_R44_a_turned_up_win_may_be_passed_in_loudi() -> None:
    """放炮必胡 forces discard wins only: the dealer's elective 天胡 on the 亮张 is his choice."""
    s = tianhu_game(LOUDI, "五")
    assert not s.is_terminal() and {"hu", "pass"} <= set(ids(s, 0))


def test_R44_discarder_pays_for_everyone() -> None:
    """包赔 × (seats dealt in − 1): 桂林 3 seats → 2 × 底; 衡阳 4 seats → 3 × 底. A win on
    a turned-up card is paid by every other seat."""
    assert payments(5, 1, [0, 1, 2], GUILIN, discarder=0) == [-10, 10, 0]
    assert payments(5, 1, [0, 1, 2, 3], HENGYANG, discarder=3) == [0, 15, 0, -15]
    assert payments(5, 1, [0, 1, 2, 3], HENGYANG) == [-5, 15, -5, -5]
    off = HENGYANG.replace(baopei=False)
    assert payments(5, 1, [0, 1, 2, 3], off, discarder=3) == [0, 5, 0, -5]


def test_R44_xing_seat_collects_from_each_loser() -> None:
    """坐醒/数醒 (4 seats, the one opposite the dealer sits out): each loser also pays it
    番 × 醒数."""
    four = GUILIN.replace(players=4, sit_out=True, xing_seat=True)
    assert payments(6, 0, [0, 1, 3], four, xing_seat=2, xing_pay=4) == [12, -10, 8, -10]


# ------------------------------------------------------------------ R45 race
def test_R45_race_payments_and_huangzhuang_penalty() -> None:
    """The winner gains 底 (≤ 封顶 200); only a discarder loses, at most 100; 荒庄: −10."""
    assert payments(150, 0, [0, 1, 2], LOUDI, discarder=2) == [150, 0, -100]
    assert payments(300, 0, [0, 1, 2], LOUDI) == [200, 0, 0]  # 自摸 / turned-up: nobody pays
    assert huangzhuang_payments(1, [0, 1, 2], LOUDI) == [0, -10, 0]


def test_R45_rounding_and_the_pairwise_settlement() -> None:
    """Totals 104, −37, 15 round to 100, −40, 20; each seat gets Σ (own − other):
    300 − 80 = 220, −120 − 80 = −200, 60 − 80 = −20."""
    race = RaceRule()
    assert [race.rounded(x) for x in (104, -37, 15, 45, -45, 5)] == [100, -40, 20, 50, -50, 10]
    m = Match(LOUDI, seed=1)
    m.scores = [104, -37, 15]
    assert m.final() == [220, -200, -20] and sum(m.final()) == 0
    assert m.is_over()  # a total reached 100


def test_R45_a_race_plays_to_its_target() -> None:
    """Self-play of whole 娄底 matches: each ends after the first hand that lifts a total to
    100 (or at the 30-hand safety cap); the dealer keeps the deal after a 荒庄."""
    from paohuzi.bots import make_bot
    from paohuzi.table import Table

    for seed in range(6):
        t = Table([make_bot("greedy") for _ in range(3)], LOUDI, seed=seed)
        dealers = []
        while not t.match.is_over():
            dealers.append(t.match.dealer)
            res = t.play_hand()
            if res.winner is None:
                assert t.match.dealer == dealers[-1]  # 荒庄: the dealer stays (R45)
        m = t.match
        assert max(m.scores) >= 100 or m.index == LOUDI.hands_per_match
        before = [sum(r.scores[i] for r in m.results[:-1]) for i in range(3)]
        assert max(before) < 100  # it did not go on past the target
        assert t.match.final() == [
            3 * LOUDI.race.rounded(x) - sum(map(LOUDI.race.rounded, m.scores)) for x in m.scores
        ]
