"""常德全名堂 (``changde``): the big 番 table, 听胡, 黄番, 天/地/海胡 as 番, the split claimed.

Standard R9 胡息 and R34 等 (⌊(H − 12)/3⌋, 自摸 +1); 番 of several 名堂 are added;
底 = 等 × Σ番 × 黄番. Every number is worked out by hand in the docstrings.
"""

from __future__ import annotations

import random

from engine.helpers import act, game, pass_claims
from paohuzi.core.match import Match
from paohuzi.core.records import check, record
from paohuzi.core.rules import CHANGDE, HUNAN, STANDARD_HUXI, HuxiTable
from paohuzi.core.scoring import settle
from paohuzi.core.state import CLAIM, GameState

from .helpers import groups, names, pos, random_choice, score

# 坎壹 6 + 坎八 3 + 一二三 3 + 贰柒拾 6 + 四五六 肆伍陆 0, 九九 waiting for 玖 (九九玖 绞 0).
# Red cards: 二 + 贰柒拾 = 4. 大字 10, 小字 11.
SIQI = ("壹壹壹八八八一二三贰柒拾四五六肆伍陆九九", "玖")


def test_siqihong_and_the_plain_numbers() -> None:
    """18 胡息 → 等 ⌊6/3⌋ = 2. Exactly 4 red → 四七红 2 → 底 4. hunan: 平胡, 底 2."""
    s = score(pos(*SIQI), CHANGDE)
    assert (s.huxi, s.deng, s.fan, s.di, names(s)) == (18, 2, 2, 4, {"四七红": 2})
    h = score(pos(*SIQI), HUNAN)
    assert (h.huxi, h.deng, h.fan, h.di, names(h)) == (18, 2, 1, 2, {})


def test_siqihong_with_seven_red() -> None:
    """坎壹 6 + 坎贰 6 + 一二三 3 + 四五六 七八九 伍陆柒 捌玖拾 0 = 15 → 1 等 (自摸: 2).
    Red: 贰×3 二 七 柒 拾 = 7 → 四七红 2 → 底 2 (自摸 4)."""
    hand = "壹壹壹贰贰贰一二三四五六七八九伍陆柒玖拾"
    assert score(pos(hand, "捌"), CHANGDE).di == 2
    s = score(pos(hand, "捌", self_drawn=True), CHANGDE)
    assert (s.deng, names(s), s.di) == (2, {"四七红": 2}, 4)


def test_huangfan_multiplies_the_next_win() -> None:
    """黄番: ×2 after one 荒庄, ×3 after two (and after more); hunan has none."""
    p = pos(*SIQI)
    assert [score(p, CHANGDE, huang=k).di for k in (0, 1, 2, 5)] == [4, 8, 12, 12]
    assert settle(p, CHANGDE, huang=1).to_dict()["huang_multiplier"] == 2
    assert score(p, HUNAN, huang=1).di == 2


def test_haihu_dihu_tianhu_are_fan_not_doubling() -> None:
    """海胡 / 地胡 6 番 each, added to 四七红 2 → 8; 胡息 stays 18 (等 2) → 底 16.
    hunan doubles instead (R35): 36 胡息 → 等 8, 平胡 → 底 8."""
    for flag, name in (("last_card", "海胡"), ("dihu", "地胡")):
        s = score(pos(*SIQI, **{flag: True}), CHANGDE)
        assert (s.scored_huxi, s.deng, names(s), s.di) == (18, 2, {name: 6, "四七红": 2}, 16)
        h = score(pos(*SIQI, **{flag: True}), HUNAN)
        assert (h.scored_huxi, h.deng, h.di) == (36, 8, 8)
    t = score(pos(*SIQI, tianhu=True, self_drawn=True), CHANGDE)
    assert names(t) == {"天胡": 6, "四七红": 2} and (t.deng, t.di) == (3, 24)


def test_tinghu_from_the_position_fact() -> None:
    """听胡 6 番 when the engine marks the win ``tinghu``: 2 等 × (6 + 2) = 16."""
    s = score(pos(*SIQI, extra={"tinghu": True}), CHANGDE)
    assert (names(s), s.di) == ({"听胡": 6, "四七红": 2}, 16)
    assert score(pos(*SIQI, extra={"tinghu": True}), HUNAN).di == 2


def test_tuanyuan_counts_each_point() -> None:
    """团圆 8 each: 一×4 + 壹×4 and 二×4 + 贰×4. 提一 9 + 跑壹 9 + 提二 9 + 跑贰 9 +
    三四五 叁肆伍 0 + 将九 0 = 36 → 等 8; 团圆 ×2 = 16 → 底 128 (red 8: no 红胡)."""
    s = score(pos("三四五叁肆伍九", "九", ("ti:一", "pao:壹", "ti:二", "pao:贰")), CHANGDE)
    assert (s.huxi, s.deng, names(s), s.di) == (36, 8, {"团圆": 16}, 128)


def test_tuanyuan_once() -> None:
    """提一 9 + 跑壹 9 + 二七十 3 + 贰柒拾 6 + 坎三 3 + 四五六 0 + 将九 0 = 30 → 等 6;
    团圆 (一/壹) 8; 6 red, 7 大字, 15 小字: nothing else → 底 48."""
    p = pos("二七十贰柒拾三三三四五九九", "六", ("ti:一", "pao:壹"))
    s = score(p, CHANGDE)
    assert (s.huxi, s.deng, names(s), s.di) == (30, 6, {"团圆": 8}, 48)


def test_hanghangxi_every_menzi_has_huxi() -> None:
    """碰八 1 + 坎六 3 + 坎肆 6 + 一二三 3 + 壹贰叁 6 + 贰柒拾 6 + 二七十 3 = 28 → 等 5.
    All 7 门子 have 胡息 → 行行息 8 (8 red, 9 大字, 12 小字) → 底 40."""
    s = score(pos("六六六肆肆肆一二三壹贰叁贰柒拾二七", "十", ("peng:八",)), CHANGDE)
    assert all(h > 0 for _, h in groups(s))
    assert (s.huxi, s.deng, names(s), s.di) == (28, 5, {"行行息": 8}, 40)


def test_jiahanghang_six_with_huxi_and_the_pair() -> None:
    """提五 9 + 坎六 3 + 一二三 3 + 壹贰叁 6 + 二七十 3 + 贰柒拾 6 + 将九 0 = 30 → 等 6;
    假行行 4 → 底 24. Self-drawn 拾: 等 7 → 底 28."""
    p = ("六六六一二三壹贰叁二七十贰柒九九", "拾", ("ti:五",))
    s = score(pos(*p), CHANGDE)
    assert (s.huxi, s.deng, names(s), s.di) == (30, 6, {"假行行": 4}, 24)
    assert score(pos(*p, self_drawn=True), CHANGDE).di == 28


def test_wuhu_duizihu_hanghangxi_add_up() -> None:
    """碰三 1 + 碰肆 3 + 偎五 3 + 坎六 3 + 坎捌 6 + 坎九 3 + 碰壹 (the winning 壹 on 壹壹) 3
    = 22 → 等 3. No red: 乌胡 8; no 句: 对子胡 8; every 门子 has 胡息: 行行息 8 → 24 → 底 72.
    hunan: 乌胡 5 + 对子胡 5 = 10 (the seeds) → 底 30."""
    p = pos("六六六捌捌捌九九九壹壹", "壹", ("peng:三", "peng:肆", "wei:五"))
    s = score(p, CHANGDE)
    assert (s.huxi, s.deng, names(s), s.di) == (22, 3, {"乌胡": 8, "对子胡": 8, "行行息": 8}, 72)
    assert score(p, HUNAN).di == 30


def test_shuahou_single_card_left() -> None:
    """耍猴: one card in hand, won on its pair. 提一 9 + 碰三 1 + 碰四 1 + 吃五六七 0 +
    吃壹贰叁 6 + 偎捌 6 + 将九 0 = 23 → 等 3; 耍猴 8 → 底 24. With 吃二七十 (3) instead
    of 五六七: 26 → 等 4; 耍猴 8 + 假行行 4 + 四七红 (二七十 贰: 4 red) 2 = 14 → 底 56."""
    t = ("ti:一", "peng:三", "peng:四", "chi:五六七", "chi:壹贰叁", "wei:捌")
    s = score(pos("九", "九", t), CHANGDE)
    assert (s.huxi, s.deng, names(s), s.di) == (23, 3, {"耍猴": 8}, 24)
    t2 = (*t[:3], "chi:二七十", *t[4:])
    s2 = score(pos("九", "九", t2), CHANGDE)
    assert (s2.deng, names(s2), s2.di) == (4, {"耍猴": 8, "假行行": 4, "四七红": 2}, 56)


def test_the_split_worth_most_di_is_claimed() -> None:
    """Decision (docs/presets/changde.md): 行行息/假行行/对子胡 depend on the split, so 常德
    scores the split worth most 底. With the R9 table the two rules agree (the 名堂 split is
    also the top-胡息 one); a house table pricing every 句 at 1 shows the difference:
    自摸 四 on 坎四 + 三五 叁叁肆肆伍伍 陆柒捌 + 吃二七十 吃壹贰叁.
    R26: 提四 9 + 二七十 3 + 壹贰叁 6 + 陆柒捌 1 + 绞三叁叁 绞五伍伍 将肆肆 0 = 19 → 等 2 + 1
    (自摸) = 3, no 名堂 → 底 3. Claimed: 坎四 3 + 三四五 1 + 叁肆伍 1 + 叁肆伍 1 + 陆柒捌 1 +
    3 + 6 = 16 → 等 1 + 1 = 2, 行行息 8 → 底 16."""
    table = STANDARD_HUXI.to_dict() | {"ju": [1, 1]}
    house = CHANGDE.replace(huxi_table=HuxiTable.from_dict(table))
    p = pos("三四四四五叁叁肆肆伍伍陆柒捌", "四", ("chi:二七十", "chi:壹贰叁"), self_drawn=True)
    r26 = score(p, house.replace(decomposition="huxi"))
    assert (r26.huxi, r26.deng, r26.di, names(r26)) == (19, 3, 3, {})
    claimed = score(p, house)
    assert (claimed.huxi, claimed.deng, claimed.di, names(claimed)) == (16, 2, 16, {"行行息": 8})
    assert ("kan:x4", 3) in groups(claimed)


def test_claimed_split_never_pays_less_and_stays_a_win() -> None:
    """On the R9 table: over random hands the 底 claimed is ≥ the R26 split's, and the
    claimed split itself reaches min 胡息 (R23)."""
    rng = random.Random(7)
    checked = 0
    for _ in range(150):
        s = GameState(CHANGDE, rng.getrandbits(32))
        while not s.is_terminal():
            s.apply(random_choice(s, rng, 1.0))
        p = s.result.position
        if p is None:
            continue
        a, b = settle(p, CHANGDE), settle(p, CHANGDE.replace(decomposition="huxi"))
        assert a.win and a.di >= b.di and a.huxi >= CHANGDE.min_huxi
        checked += 1
    assert checked > 5


# -- the engine under changde -----------------------------------------------------------
# Seat 1: opening 提四 (dealt), 坎十, 壹贰叁 一二三 五六七 肆伍陆, 玖 waiting for the 将.
TING = "四四四四十十十壹贰叁一二三五六七肆伍陆玖"


def _tinghu_game(rules=CHANGDE) -> GameState:
    """Dealer 0 discards 十: seat 1 must 跑 it — a 重跑 (he has the opening 提), so no
    discard and no 'taking in'. Seat 2 turns up 玖 and seat 1 wins on it."""
    s = game({0: "十", 1: TING}, wall="玖", dealer=0, rules=rules, avoid="十玖")
    if s.phase == CLAIM:
        pass_claims(s)
    act(s, 0, "discard:x10")
    pao = [e for e in s.events if e.type == "pao"]
    assert len(pao) == 1 and pao[0].seat == 1 and s.held(1) == 21  # no discard (R17)
    assert s.phase == CLAIM and s._window.owner == 2 and "hu" in s.legal_action_ids(1)
    act(s, 1, "hu")
    return s


def test_tinghu_in_play_with_a_chongpao() -> None:
    """提四 9 + 跑十 6 + 壹贰叁 6 + 一二三 3 + 五六七 肆伍陆 将玖 0 = 24 → 等 4. Red 十×4 二
    贰 七 = 7 → 四七红 2; never took a card in (重跑 aside) → 听胡 6 → 底 32 from each.
    hunan: no such 名堂, 平胡 → 底 4."""
    s = _tinghu_game()
    r = s.result
    assert r.position.extra == (("tinghu", True),)
    assert {m.name: m.fan for m in r.mingtang} == {"听胡": 6, "四七红": 2}
    assert (r.huxi, r.deng, r.di, r.scores) == (24, 4, 32, (-32, 64, -32))
    assert check(record(s)) == []
    h = _tinghu_game(HUNAN).result
    assert not h.position.extra and (h.di, h.scores) == (4, (-4, 8, -4))


def _took_in_from_log(events: list, seat: int) -> bool:
    """听胡's condition re-derived from the events: any 吃/碰/偎/臭偎, or a 跑/提 in play
    while the seat had none yet (a 重跑 does not count; the dealt 提 neither)."""
    fours, started = 0, False
    for e in events:
        if e.type in ("draw", "discard"):
            started = True
        if e.seat != seat:
            continue
        if e.type in ("ti", "pao"):
            if started and fours == 0:
                return True
            fours += 1
        elif e.type in ("chi", "peng", "wei", "chouwei"):
            return True
    return False


def test_tinghu_matches_the_event_log_in_random_games() -> None:
    seen = {True: 0, False: 0}
    for seed in range(400):
        rng = random.Random(seed)
        s = GameState(CHANGDE, seed)
        while not s.is_terminal():
            s.apply(random_choice(s, rng, 1.0))
        r = s.result
        if r.winner is None:
            continue
        p = r.position
        special = p.tianhu or p.dihu
        expect = not special and not _took_in_from_log(s.events[:-2], r.winner)
        got = ("tinghu", True) in p.extra
        assert got == expect, seed
        seen[got] += 1
    assert seen[False] > 0 and seen[True] > 0


def test_huangfan_in_a_match() -> None:
    """Match passes the 荒庄 streak; each win's multiplier is ×1, ×2, ×3 for 0, 1, ≥2."""
    m = Match(CHANGDE, seed=4, hands=40)
    rng = random.Random(1)
    streaks = []
    while not m.is_over():
        s = m.new_hand()
        while not s.is_terminal():
            s.apply(random_choice(s, rng, 1.0))
        r = m.finish_hand(s)
        if r.winner is not None:
            want = {0: 1, 1: 2}.get(s.huang, 3)
            assert r.settlement.huang_multiplier == want
            streaks.append(s.huang)
            assert check(record(s)) == []
    assert any(k > 0 for k in streaks)
