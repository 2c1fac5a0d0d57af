"""泸州大贰 (``luzhou``): colour-aware 胡息, 招/垅, 等, 红/乌 番, payments, 坐底, 底牌.

Every expected number below is worked out by hand from PRESETS.md (泸州) and the
seeds; the docstrings show the arithmetic.
"""

from __future__ import annotations

import random

from engine.helpers import act, game, pass_claims, run_until
from paohuzi.core.cards import Card
from paohuzi.core.records import check, record
from paohuzi.core.rules import HUNAN, LUZHOU
from paohuzi.core.scoring import payments, settle
from paohuzi.core.state import CLAIM, GameState
from paohuzi.core.views import view

from .helpers import check_invariants, groups, names, pos, random_choice, score

LUZHOU3 = LUZHOU.replace(players=3, sit_out=False)

# 坎三 6 + 坎捌 9 + 四五六 肆伍陆 叁肆伍 一一壹 0, 九玖 waiting for 九 (九九玖 绞 0): all black.
BLACK = "三三三捌捌捌四五六肆伍陆叁肆伍一一壹九玖"


def test_black_hand_on_a_discard_is_wuhu_paid_by_the_discarder() -> None:
    """碰伍 (black 大) 3 + 坎三 (black 小) 6 + 坎捌 (black 大) 9 + 四五六 肆伍陆 一一壹 九九玖 0
    = 18 胡息 ≥ 10. 等 = 1 + ⌊(18 − 10)/10⌋ = 1; no 自摸 bonus. No red card: 乌胡 4 番.
    底 = 1 × 4 = 4. Won on seat 2's discard: only seat 2 pays (seat 3 sits out)."""
    s = score(pos("三三三捌捌捌四五六肆伍陆一一壹九玖", "九", ("peng:伍",)), LUZHOU)
    assert groups(s) == sorted(
        [
            ("peng:d5", 3),
            ("kan:x3", 6),
            ("kan:d8", 9),
            ("ju:x4x5x6", 0),
            ("ju:d4d5d6", 0),
            ("jiao:x1x1d1", 0),
            ("jiao:x9x9d9", 0),
        ]
    )
    assert (s.huxi, s.deng, s.fan, s.di) == (18, 1, 4, 4)
    assert names(s) == {"乌胡": 4}
    assert payments(s.di, 0, [0, 1, 2], LUZHOU, discarder=2) == [4, 0, -4, 0]


RED = "二二二壹贰叁四五六肆伍陆十"
RED_TABLE = ("ti:拾", "pao:柒")


def test_red_hand_colour_table_and_honghu() -> None:
    """垅拾 (red 大 提) = 招 + 3 = 坎 12 + 6 = 18 (the cap); 招柒 (red 大 跑) = 12 + 3 = 15;
    坎二 (red 小) 9; 壹贰叁 6 (大 一二三 = 3 + 3); 四五六 肆伍陆 0; 将 十十 0 → 48.
    等 = 1 + ⌊38/10⌋ = 4. Red: 拾×4 柒×4 二×3 贰 十×2 = 14 ≥ 10 → 红胡 2 番 (no per-extra).
    底 8; 自摸: both other dealt-in seats pay 8 (seat 2 sits out)."""
    s = score(pos(RED, "十", RED_TABLE, self_drawn=True), LUZHOU)
    assert groups(s) == sorted(
        [
            ("ti:d10", 18),
            ("pao:d7", 15),
            ("kan:x2", 9),
            ("ju:d1d2d3", 6),
            ("ju:x4x5x6", 0),
            ("ju:d4d5d6", 0),
            ("jiang:x10", 0),
        ]
    )
    assert (s.huxi, s.deng, s.fan, s.di) == (48, 4, 2, 8)
    assert names(s) == {"红胡": 2}
    assert payments(s.di, 1, [0, 1, 3], LUZHOU) == [-8, 16, 0, -8]


def test_scoring_modes_deng_and_mingtang() -> None:
    """The same red hand, 48 胡息 → 4 等. ``deng``: 底 4. ``mingtang`` (大二名堂, 番 multiply):
    红胡 2 × 自摸 2 × 归 (all four 拾 and all four 柒: 2 × 2 = 4) = 16 → 底 64."""
    p = pos(RED, "十", RED_TABLE, self_drawn=True)
    d = score(p, LUZHOU.replace(scoring_mode="deng"))
    assert (d.deng, d.fan, d.di, names(d)) == (4, 1, 4, {})
    m = score(p, LUZHOU.replace(scoring_mode="mingtang"))
    assert names(m) == {"红胡": 2, "自摸": 2, "归": 4}
    assert (m.fan, m.di) == (16, 64)


# 坎五 + 将 三三 + 壹贰叁 6 + 肆伍陆 柒捌玖 六七八 八九十 0 (the 五 cannot join the rest).
ZHAO = "五五五三三壹贰叁肆伍陆柒捌玖六七八八九十"


def test_zhao_and_long_on_a_kan() -> None:
    """招 (跑): another's 五 on 坎五 = black 小 坎 6 + 3 = 9 → 9 + 6 = 15 胡息, 等 1.
    垅 (提): the winner's own 五 = 招 + 3 = 12 → 18 胡息, 等 1. Red 贰 柒 七 十 = 4: no 番.
    Discard win: the discarder pays 1; 自摸: everybody pays 1."""
    other = score(pos(ZHAO, "五"), LUZHOU)
    assert ("pao:x5", 9) in groups(other) and (other.huxi, other.deng, other.di) == (15, 1, 1)
    own = score(pos(ZHAO, "五", self_drawn=True), LUZHOU)
    assert ("ti:x5", 12) in groups(own) and (own.huxi, own.deng, own.di) == (18, 1, 1)
    assert payments(1, 0, [0, 1, 3], LUZHOU, discarder=3) == [1, 0, 0, -1]
    assert payments(1, 0, [0, 1, 3], LUZHOU) == [2, -1, 0, -1]


def test_min_huxi_and_table_differ_from_hunan() -> None:
    """坎三 + 坎四 + 壹贰叁 + 五六七 柒捌玖 肆伍陆 八九十 (0 each). 泸州: 6 + 6 + 6 = 18 ≥ 10,
    等 1. hunan (R9): 3 + 3 + 6 = 12 < 15: no win (R23)."""
    p = pos("三三三四四四五六七柒捌玖壹贰叁肆伍陆八九", "十")
    s = score(p, LUZHOU)
    assert (s.huxi, s.deng) == (18, 1)
    h = settle(p, HUNAN)
    assert (h.win, h.huxi, h.error) == (False, 12, "below_min_huxi")


def test_two_and_three_players() -> None:
    """2 or 3 seats without 坐底: everybody is dealt in; a discard win is still the
    discarder's alone, a 自摸 is paid by each other seat."""
    two = LUZHOU.replace(players=2, sit_out=False)
    assert two.seated == 2
    assert payments(4, 1, [0, 1], two, discarder=0) == [-4, 4]
    assert payments(4, 1, [0, 1, 2], LUZHOU3) == [-4, 8, -4]
    s = GameState(two, seed=5)
    assert s.seats == (s.dealer, 1 - s.dealer) and len(s._wall) == 80 - 41


# -- the engine under luzhou -------------------------------------------------------------
def test_sit_out_seat_gets_nothing_and_is_skipped() -> None:
    """坐底: with 4 players the seat opposite the dealer is dealt nothing and never acts."""
    for dealer in range(4):
        s = GameState(LUZHOU, seed=dealer, dealer=dealer)
        out = (dealer + 2) % 4
        assert out not in s.seats and s._nhand[out] == 0
        assert s._nxt[(dealer + 1) % 4] == (dealer + 3) % 4  # turn order skips the seat
        assert len(s._wall) == 19  # 80 − 3 × 20 − 亮张


def test_four_kan_is_a_mandatory_tianhu() -> None:
    """天胡 (泸州: 4 坎). Seat 1: 坎三 坎四 坎五 坎六 (6 each = 24) + 壹贰叁 6 + 肆伍陆 柒捌
    (nothing) = 30 胡息 → 等 1 + ⌊20/10⌋ = 3; 天胡 2 番 → 底 6; 自摸: seats 0 and 3 pay 6.
    With hunan's 5 坎 the same deal is no 天胡."""
    hands = {1: "三三三四四四五五五六六六壹贰叁肆伍陆柒捌"}
    s = game(hands, dealer=0, rules=LUZHOU, avoid="三四五六")
    hu = s.events[-2]
    assert s.is_terminal() and (hu.type, hu.card, hu.get("tianhu")) == ("hu", None, True)
    r = s.result
    assert (r.winner, r.huxi, r.deng, r.fan, r.di) == (1, 30, 3, 2, 6)
    assert {m.name for m in r.mingtang} == {"天胡"}
    assert r.scores == (-6, 12, 0, -6)
    assert check(record(s)) == []
    five = game(hands, dealer=0, rules=LUZHOU.replace(tianhu_kan=5), avoid="三四五六")
    assert not five.is_terminal()


def _discard_win(winner: int) -> GameState:
    """Dealer 0 discards 九; ``winner`` holds BLACK (waiting for 九) and takes it."""
    s = game({0: "九", winner: BLACK}, dealer=0, rules=LUZHOU, avoid="九玖一壹")
    if s.phase == CLAIM:  # the unshown 亮张 may open a window for the dealer alone
        pass_claims(s)
    act(s, 0, "discard:x9")
    assert s.phase == CLAIM and "hu" in s.legal_action_ids(winner)
    act(s, winner, "hu")
    return s


def test_discard_win_is_paid_by_the_discarder_alone() -> None:
    """Seat 3 (not the dealer's 下家) wins the dealer's discard 九: BLACK = 坎三 6 + 坎捌 9
    = 15 胡息 → 1 等; 乌胡 4 → 底 4, paid by the dealer only (seat 1 pays nothing)."""
    s = _discard_win(3)
    r = s.result
    assert (r.huxi, r.di, r.discarder) == (15, 4, 0)
    assert r.scores == (-4, 0, 0, 4)
    assert check(record(s)) == []


def test_dihu_is_two_fan_multiplied() -> None:
    """地胡: the 下家 (seat 1) wins the dealer's first discard: 乌胡 4 × 地胡 2 = 8 → 底 8."""
    r = _discard_win(1).result
    assert {m.name: m.fan for m in r.mingtang} == {"乌胡": 4, "地胡": 2}
    assert (r.di, r.scores) == (8, (-8, 8, 0, 0))


def test_liangzhang_hidden_and_red_bottom_moved_to_top() -> None:
    """The dealer's 21st card is not shown; the wall's last card is shown, and red bottom
    cards go to the top in turn (七 first, then 二 above it) until the bottom is black."""
    s = game({}, liangzhang="伍", dealer=0, rules=LUZHOU, bottom="四二七", avoid="四二七伍")
    lz = next(e for e in s.events if e.type == "liangzhang")
    assert lz.shown is False
    assert view(s, 1).liangzhang is None and view(s, 0).liangzhang == Card.D5
    bottom = next(e for e in s.events if e.type == "bottom")
    assert bottom.card == Card.X4 and bottom.get("moved") == 2
    assert bottom.to_dict()["to_top"] == ["x2", "x7"]  # seen by all when they moved
    assert s._wall[0] == Card.X2 and s._wall[1] == Card.X7 and s._wall[-1] == Card.X4
    assert view(s, 3).bottom == Card.X4


def test_haidi_is_the_last_card_that_may_be_won() -> None:
    """With the bottom card shown (and unwinnable), 海底捞 is the card before it: seat 1
    wins 捌 turned up 18th of 19 → last_card; in 名堂 mode 海胡 (海底捞) is a 番."""
    rules = LUZHOU3.replace(scoring_mode="mingtang")
    hand = "壹壹壹贰贰贰一二三四五六七八九伍陆柒玖拾"  # 坎壹 9 + 坎贰 12 + 一二三 3, waits 捌
    s = game({0: "捌壹", 1: hand, 2: "捌捌贰"}, rules=rules, bottom="捌四", avoid="捌四壹贰")
    if s.phase == CLAIM:
        pass_claims(s)
    run_until(s, 18, avoid="捌壹贰")
    assert s.wall_left == 1 and s._window.card == Card.D8
    assert s.phase == CLAIM and "hu" in s.legal_action_ids(1)
    act(s, 1, "hu")
    r = s.result
    assert r.position.last_card is True
    assert "海胡" in {m.name for m in r.mingtang}


def test_random_games_all_player_counts() -> None:
    """Seeded random play under 2, 3 and 4 (坐底) seats: invariants hold, records replay,
    scores sum to zero, and a discard win is paid by the discarder alone."""
    for rules in (LUZHOU, LUZHOU3, LUZHOU.replace(players=2, sit_out=False)):
        for seed in range(25):
            rng = random.Random(seed)
            s = GameState(rules, seed)
            while not s.is_terminal():
                check_invariants(s)
                s.apply(random_choice(s, rng))
            r = s.result
            assert sum(r.scores) == 0
            if r.winner is not None and r.discarder is not None:
                payers = [t for t, v in enumerate(r.scores) if v < 0]
                assert payers == [r.discarder]
            assert check(record(s)) == []
