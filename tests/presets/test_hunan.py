"""``hunan`` (the default, RULES.md) and the fields every preset shares: one hand under all
three presets, R35 doubling, and the 荒庄 field (cost, dealer rule)."""

from __future__ import annotations

import random

from engine.helpers import discard_quietly, game, pass_claims
from paohuzi.core.match import Match
from paohuzi.core.records import check, record
from paohuzi.core.rules import CHANGDE, HUNAN, LUZHOU, HuangzhuangRule
from paohuzi.core.state import CLAIM

from .helpers import names, pos, random_choice, score

# 提拾 + 跑柒 on the table; 坎二, 壹贰叁, 四五六, 肆伍陆 and 十 in hand; 自摸 十 makes the 将.
RED = ("二二二壹贰叁四五六肆伍陆十", "十", ("ti:拾", "pao:柒"))


def test_one_hand_three_presets() -> None:
    """Red: 拾×4 柒×4 二×3 贰 十×2 = 14; 大字 14, 小字 8.
    hunan: 提拾 12 + 跑柒 9 + 坎二 3 + 壹贰叁 6 = 30 → 等 6 + 1 (自摸) = 7; 红胡 2 + 4 = 6
    → 底 42. changde: same 等; 红胡 3 + 4 = 7 → 底 49. luzhou: 18 + 15 + 9 + 6 = 48 →
    等 1 + 3 = 4 (no 自摸 等); 红胡 2 → 底 8."""
    p = pos(*RED[:2], RED[2], self_drawn=True)
    h, c, lz = score(p, HUNAN), score(p, CHANGDE), score(p, LUZHOU)
    assert (h.huxi, h.deng, names(h), h.di) == (30, 7, {"红胡": 6}, 42)
    assert (c.huxi, c.deng, names(c), c.di) == (30, 7, {"红胡": 7}, 49)
    assert (lz.huxi, lz.deng, names(lz), lz.di) == (48, 4, {"红胡": 2}, 8)


def test_r35_doubling_stacks() -> None:
    """坎壹 6 + 坎八 3 + 一二三 3 + 贰柒拾 6 = 18. 海底 doubles: 36 → 等 8. 海底 + 地胡:
    72 → 等 20 (R35 each doubles H). 4 red: no 名堂 in hunan → 底 = 等."""
    hand, win = "壹壹壹八八八一二三贰柒拾四五六肆伍陆九九", "玖"
    s = score(pos(hand, win, last_card=True), HUNAN)
    assert (s.scored_huxi, s.deng, s.di, s.doubled) == (36, 8, 8, ("haidi",))
    s2 = score(pos(hand, win, last_card=True, dihu=True), HUNAN)
    assert (s2.scored_huxi, s2.deng, s2.di) == (72, 20, 20)


def _huangzhuang(rules):
    """Deal with a fixed filler and pass/discard quietly until the wall runs out."""
    s = game(fill_seed=3, rules=rules)
    while not s.is_terminal():
        if s.phase == CLAIM:
            pass_claims(s)
        else:
            discard_quietly(s, s._turn)
    return s


def test_huangzhuang_costs_nothing_by_default_and_cost_is_paid_by_the_dealer() -> None:
    """R32: 荒庄 scores nothing; with ``huangzhuang.cost = 1`` the dealer (seat 0) pays 1 to
    each other dealt-in seat."""
    assert _huangzhuang(HUNAN).returns() == [0, 0, 0]
    costly = HUNAN.replace(huangzhuang=HuangzhuangRule(cost=1))
    s = _huangzhuang(costly)
    assert s.result.winner is None and s.returns() == [-2, 1, 1]
    assert check(record(s)) == []


def _dealers(rules, hands: int = 6) -> list[int]:
    """Dealers of a match in which nobody ever takes a 胡 (every hand a 荒庄)."""
    m = Match(rules, seed=9, hands=hands)
    rng = random.Random(0)
    out = []
    while not m.is_over():
        s = m.new_hand()
        out.append(s.dealer)
        while not s.is_terminal():
            s.apply(random_choice(s, rng, 0.0))
        assert m.finish_hand(s).winner is None  # (seed 9 deals no mandatory 天胡)
    return out


def test_huangzhuang_dealer_rule() -> None:
    """R6: the dealer keeps the deal through 荒庄 and passes to his 下家 after 3 in a row;
    ``pass_after = 1`` passes at every 荒庄, ``0`` never."""
    d = _dealers(HUNAN)
    assert d == [d[0]] * 3 + [(d[0] + 1) % 3] * 3
    once = _dealers(HUNAN.replace(huangzhuang=HuangzhuangRule(pass_after=1)))
    assert once == [(once[0] + i) % 3 for i in range(6)]
    never = _dealers(HUNAN.replace(huangzhuang=HuangzhuangRule(pass_after=0)))
    assert never == [never[0]] * 6
