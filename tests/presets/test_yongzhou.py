"""永州扯胡子 (preset ``yongzhou``, PRESETS.md) by rule id: R23 起胡, R24 wins only on
turned-up cards, R32/R6 荒庄 and 亡牌, R39–R41 王, R42 醒, R46 best score, 囤 × Π番
with 封顶 and 坐醒.

Hand W (the 王 holder's, 20 cards): 一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌 拾拾 + 王.
On 玖 the 王 is a third 拾: 拾拾王 a big 坎 6 + 一二三 3 + 壹贰叁 6 = 15 胡息.
"""

from __future__ import annotations

import random
import tomllib

import pytest

from engine.helpers import act, ids, pass_claims
from paohuzi.bots import make_bot
from paohuzi.core.match import Match
from paohuzi.core.position import Position
from paohuzi.core.rules import (
    PRESETS,
    YONGZHOU,
    YONGZHOU_HONGZHUAN,
    Dihu,
    HuangzhuangRule,
    Rules,
    RulesError,
    preset,
)
from paohuzi.core.scoring import payments, settle
from paohuzi.core.state import GameState
from paohuzi.table import Table

from .helpers import check_invariants, check_payments, random_choice
from .test_yongzhou_vectors import _wang_deck

W = "一二三四五六七八九壹贰叁肆伍陆柒捌拾拾王"
PLAIN = "一二三四五六七八九壹贰叁肆伍陆柒捌拾拾拾"  # W with a natural 拾 for the 王


def pos(hand: str = W, win: str = "玖", **kw) -> Position:
    return Position.from_dict({"hand": hand, "win": win, **kw})


def stacked(hand: str, wall: str, rules: Rules = YONGZHOU) -> GameState:
    """Seat 2 holds ``hand``; the dealer (0) and seat 1 are filled; ``wall`` is turned next."""
    v = {"hands": {"2": hand}, "liangzhang": "五", "wall": wall}
    return GameState(rules, deck=_wang_deck(v, rules), dealer=0)


# ------------------------------------------------------------------ the preset as data
def test_the_preset_is_listed_and_round_trips_as_toml() -> None:
    """PRESETS.md yongzhou: every number is a field; `paohuzi rules yongzhou --toml` reads back."""
    assert PRESETS["yongzhou"] is YONGZHOU is preset("yongzhou")
    r = YONGZHOU
    assert (r.players, r.wang, r.min_huxi, r.win_on_discard, r.dihu) == (3, 2, 15, False, "none")
    assert r.wang_fan == (4, 8, 8, 16, 16, 32)  # R41: 王钓 王钓王 王闯 王闯王 王炸 王炸王
    assert (r.xing, r.xing_offset, r.xing_double, r.xing_chain) == ("fan", 1, False, False)
    assert (r.cap, r.unit, r.fan_combine, r.decomposition) == (300, "囤", "multiply", "di")
    assert r.doubling == () and (r.tianhu_ti, r.tianhu_kan) == (0, 0)
    assert r.huangzhuang == HuangzhuangRule(pass_after=1)  # nothing paid; 下家 deals
    for rules in (r, r.replace(mingtang=YONGZHOU_HONGZHUAN, cap=600, wang=4)):
        assert Rules.from_dict(tomllib.loads(rules.to_toml())) == rules
        assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"huangzhuang": {"wang_pay": -5}}, "huangzhuang.wang_pay"),
        ({"huangzhuang": {"wang_pay": "5"}}, "huangzhuang.wang_pay"),
        ({"dihu": "never"}, "dihu"),
        ({"wang": 5}, "wang"),
        ({"xing_offset": 2}, "xing_offset"),
    ],
)
def test_bad_option_values_name_the_field(change: dict, field: str) -> None:
    with pytest.raises(RulesError, match=field):
        Rules.from_dict({"preset": "yongzhou", **change})


def test_R41_wang_pay_is_written_only_when_on() -> None:
    """亡牌 off: the 荒庄 table is as before (records without 王 stay byte-identical)."""
    assert "wang_pay" not in YONGZHOU.to_dict()["huangzhuang"]
    on = YONGZHOU.replace(huangzhuang=HuangzhuangRule(pass_after=1, wang_pay=5))
    assert on.to_dict()["huangzhuang"]["wang_pay"] == 5


# ------------------------------------------------------------------ 囤 and 番
@pytest.mark.parametrize(
    ("h", "qihu", "tun"), [(15, 15, 2), (17, 15, 2), (18, 15, 3), (24, 15, 5), (18, 18, 2),
                           (21, 18, 3), (21, 21, 2), (30, 21, 5)],
)  # fmt: skip
def test_tun_counts_from_qihu(h: int, qihu: int, tun: int) -> None:
    """囤 = 2 + ⌊(H − 起胡)/3⌋ (起胡 15, options 18 and 21)."""
    assert YONGZHOU.replace(min_huxi=qihu).deng_of(h) == tun


def test_R23_qihu_options_18_and_21() -> None:
    """W + 玖 has 15 胡息: a win at 起胡 15, not at 18 or 21 (R23)."""
    assert settle(pos(self_drawn=True), YONGZHOU).win
    for q in (18, 21):
        s = settle(pos(self_drawn=True), YONGZHOU.replace(min_huxi=q))
        assert not s.win and s.error == "below_min_huxi"


def test_fan_multiply_zimo_and_red() -> None:
    """番 multiplied: 自摸 2 × 红胡 2 = 4; a 王 standing for a red card counts red.
    W with 二七十 for 四五六: reds 二 二七十 七 贰 柒 拾拾 = 9, + the 王 as 拾 = 10;
    18 胡息 (+ 二七十 3) → 囤 3 → 3 × 4 = 12."""
    s = settle(pos(W.replace("四五六", "二七十"), self_drawn=True), YONGZHOU)
    assert sum(1 for g in s.groups for c in g.cards if c.is_red) == 10
    assert (s.huxi, s.deng, s.fan, s.di) == (18, 3, 4, 12)
    assert [m.name for m in s.mingtang] == ["红胡", "自摸"]


@pytest.mark.parametrize("flag", ["last_card", "dihu"])
def test_no_haidi_or_dihu_fan_or_doubling(flag: str) -> None:
    """PRESETS yongzhou: no 天胡/地胡/海底 名堂 or doubling — the flags change nothing."""
    base = settle(pos(PLAIN), YONGZHOU)
    s = settle(pos(PLAIN, **{flag: True}), YONGZHOU)
    assert (s.huxi, s.scored_huxi, s.deng, s.fan, s.di) == (base.huxi, 15, 2, 1, 2)


def test_the_dealers_liangzhang_win_is_a_zimo() -> None:
    """Doubt (docs/spec-notes.md): the dealer winning on his own 亮张 wins on a card he
    turned up himself: 自摸 2 番 once (shown 天胡(自摸), as 桂林's), no 天胡 番 besides."""
    s = settle(pos(PLAIN, self_drawn=True, tianhu=True), YONGZHOU)
    assert [(m.name, m.fan) for m in s.mingtang] == [("天胡(自摸)", 2)] and s.di == 4


def test_R41_a_pattern_takes_no_zimo_double() -> None:
    """王钓 on his own card: 4 番 alone, where the plain 自摸 would be 2."""
    hand, table = "一二三四五六七八九壹贰叁肆伍陆王", ["ti:拾"]
    own = settle(pos(hand, table=table, pattern="wangdiao", self_drawn=True), YONGZHOU)
    plain = settle(pos(hand, table=table, self_drawn=True), YONGZHOU)
    assert own.fan == 4 and not own.zimo and [m.name for m in own.mingtang] == ["王钓"]
    assert plain.fan == 2 and plain.zimo


@pytest.mark.parametrize(
    ("change", "xing", "tun"),
    [({}, 3, 5), ({"xing_double": True}, 6, 8), ({"xing_offset": 0}, 3, 5)],
)
def test_R42_xing_counts_through_the_wang(change: dict, xing: int, tun: int) -> None:
    """醒牌 拾: 拾拾 + the 王 as 拾 → 醒数 3 (双醒: 6), each +1 囤."""
    s = settle(pos(self_drawn=True, xing=["拾"]), YONGZHOU.replace(**change))
    assert (s.xing, s.deng, s.di) == (xing, tun, tun * 2)


# ------------------------------------------------------------------ in play
def test_R40_no_normal_win_on_anothers_card_while_holding_a_wang() -> None:
    """Seat 1 turns up 玖: seat 2 with 王 gets no 胡; the same hand with a natural 拾
    instead of the 王 (R24: wins on any turned-up card) does."""
    st = stacked(W, "玖玖五")
    act(st, 0, "discard:x1")
    pass_claims(st)
    assert st._window is not None and st._window.owner == 1
    assert "hu" not in ids(st, 2)
    plain = stacked(PLAIN, "玖玖五", YONGZHOU.replace(wang=0))
    act(plain, 0, "discard:x1")
    pass_claims(plain)
    assert plain._window is not None and plain._window.owner == 1
    assert "hu" in ids(plain, 2)


def test_R24_no_dihu_on_the_dealers_first_discard() -> None:
    """Wins only on turned-up cards: the 下家 whose hand the dealer's first discard
    completes is offered no 胡 (dihu = none), where hunan's 地胡 rule offers it."""
    for rules, offered in ((YONGZHOU.replace(wang=0), False), (YONGZHOU.replace(
            wang=0, dihu=Dihu.FIRST_DISCARD), True)):  # fmt: skip
        v = {"hands": {"0": "玖", "1": PLAIN}, "liangzhang": "五", "wall": ""}
        v["hands"] = {"1": PLAIN, "0": "玖"}
        st = GameState(rules, deck=_wang_deck(v, rules), dealer=0)
        act(st, 0, "discard:d9")
        assert ("hu" in ids(st, 1)) is offered


def test_R42_fanxing_plus_one_and_the_play_vector_payments() -> None:
    """翻醒 +1: after seat 2's 自摸 on 玖 the next wall card 五 is turned; the 醒牌 is 六
    (one in 四五六): 囤 2 + 1 = 3, × 自摸 2 = 6 from each other seat."""
    st = stacked(W, "玖玖五")
    act(st, 0, "discard:x1")
    pass_claims(st)
    pass_claims(st)
    act(st, 2, "hu")
    xing = [e.to_dict() for e in st.events if e.type == "xing"]
    assert [(x["turned"], x["card"], x["count"]) for x in xing] == [("x5", "x6", 1)]
    assert st.result is not None and st.result.scores == (-6, -6, 12)


def test_R6_after_a_huangzhuang_the_dealers_xiajia_deals() -> None:
    """荒庄: nothing is paid and the deal passes at once (pass_after 1); a win keeps the
    winner as dealer (R6)."""
    bots = [make_bot("random") for _ in range(3)]
    t = Table(bots, YONGZHOU, seed=3, hands=12)
    seen = set()
    while not t.match.is_over():
        d = t.match.dealer
        res = t.play_hand()
        if res.winner is None:
            assert res.scores == (0, 0, 0) and t.match.dealer == (d + 1) % 3
            seen.add("荒庄")
        else:
            assert t.match.dealer == res.winner
            seen.add("胡")
    assert seen == {"荒庄", "胡"}


def test_R32_wangpai_at_a_huangzhuang_in_play() -> None:
    """亡牌: at a 荒庄 every two dealt-in seats settle 5 per 王 of difference (R32);
    random hands (胡 rarely taken) until eight 荒庄 where the 王 lie unevenly."""
    rules = YONGZHOU.replace(huangzhuang=HuangzhuangRule(pass_after=1, wang_pay=5), wang=3)
    uneven = 0
    for seed in range(200):
        rng = random.Random(seed)
        s = GameState(rules, seed)
        while not s.is_terminal():
            s.apply(random_choice(s, rng, 0.05))
        check_payments(s)
        assert s.result is not None
        if s.result.winner is not None:
            continue
        w = [s.wang(t) for t in range(3)]
        assert list(s.result.scores) == [-5 * sum(w[t] - w[u] for u in range(3)) for t in range(3)]
        uneven += len(set(w)) > 1
        if uneven == 8:
            return
    pytest.fail(f"only {uneven} uneven 荒庄 in 200 hands")


def test_cap_300_and_option_600_per_payer() -> None:
    """Score = 囤 × Π番 capped at 300 (option 600); every other dealt-in seat pays it."""
    assert payments(384, 0, [0, 1, 2], YONGZHOU) == [600, -300, -300]
    assert payments(384, 0, [0, 1, 2], YONGZHOU.replace(cap=600)) == [768, -384, -384]
    assert payments(12, 2, [0, 1, 2], YONGZHOU) == [-12, -12, 24]


def test_four_players_have_a_zuoxing_seat_that_collects() -> None:
    """4 players = 坐醒: the seat opposite the dealer is dealt nothing and each losing
    dealt-in seat pays it Π番 × 醒数 (played: greedy hands until a win with 醒)."""
    rules = YONGZHOU.with_players(4)
    assert rules.sit_out and rules.xing_seat and rules.seated == 3
    for seed in range(60):
        t = Table([make_bot("greedy") for _ in range(4)], rules, seed=seed, hands=1)
        res = t.play_hand()
        st = res.settlement
        if st is None or not st.xing:
            continue
        out = next(s for s in range(4) if s not in t.match.state.seats)
        assert res.scores[out] == 2 * st.fan * st.xing  # from each of the two losers
        assert sum(res.scores) == 0
        return
    pytest.fail("no win with 醒 in 60 greedy hands")


def test_random_hands_of_every_wang_count_keep_the_invariants() -> None:
    """R39: 0–4 王 (无王 … 四王), 2 and 4 players: the engine's invariants hold."""
    for wang in range(5):
        for n in (2, 3, 4):
            rules = YONGZHOU.replace(wang=wang).with_players(n)
            rng = random.Random(wang * 10 + n)
            s = GameState(rules, wang + n)
            while not s.is_terminal():
                check_invariants(s)
                s.apply(random_choice(s, rng))
            check_invariants(s)
            check_payments(s)


def test_match_of_the_preset_plays() -> None:
    m = Match(YONGZHOU, seed=0)
    assert m.new_hand().rules.name == "yongzhou"


def test_the_zuoxing_seat_sees_the_dealers_hand() -> None:
    """4 players = 坐醒: the seat opposite the dealer is dealt nothing and sees the
    dealer's concealed cards (王 included); nobody else does, and without 坐醒 nobody."""
    from paohuzi.core.views import view

    rules = YONGZHOU.with_players(4)
    s = GameState(rules, 5)
    rng = random.Random(5)
    steps = 0
    while not s.is_terminal() and steps < 40:
        steps += 1
        out = next(t for t in range(4) if t not in s.seats)
        v = view(s, out)
        assert v.watched == view(s, s.dealer).tiles and v.hand == ()
        assert v.to_dict()["watched"] == [c.code for c in v.watched]
        assert all(view(s, t).watched is None for t in s.seats)
        assert "watched" not in view(s, s.dealer).to_dict()
        s.apply(random_choice(s, rng))
    plain = GameState(rules.replace(xing_seat=False), 5)
    assert all(view(plain, t).watched is None for t in range(4))


def test_R42_the_xing_events_count_the_wang_as_the_settlement_does() -> None:
    """R42: a 王 standing for the 醒牌's kind counts in 醒数. The log, the ticker and the
    replay read the ``xing`` events: their counts add up to the settlement's 醒数 (a
    player read "醒 九, 2 held" beside a sheet counting four: two 九 and two 王 as 九)."""
    from paohuzi.core.variants import parse

    rules = parse("yongzhou:wang=4")
    seen = with_wang = 0
    for seed in range(600):
        t = Table([make_bot("greedy") for _ in range(3)], rules, seed, 1)
        res = t.play_hand()
        if res is None or res.position is None or not res.position.xing:
            continue
        st, pos = res.settlement, res.position
        counts = [dict(e.data)["count"] for e in t.state.events if e.type == "xing"]
        assert sum(counts) * (2 if rules.xing_double else 1) == st.xing, (seed, counts, st.wang)
        seen += 1
        with_wang += any(w in pos.xing for w in st.wang)
        if with_wang >= 3:
            break
    assert with_wang >= 3, (seen, with_wang)
