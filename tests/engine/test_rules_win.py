"""§5 Winning in play: R22–R29, R32 (and 海底)."""

from __future__ import annotations

from functools import cache

import pytest

from paohuzi.core.cards import Card, parse_cards
from paohuzi.core.rules import CHANGDE, HUNAN
from paohuzi.core.state import CLAIM, DISCARDING, OVER

from .hands import A12, A, B, P, Q
from .helpers import act, counts, discard_quietly, find, game, ids, pass_claims, run_until


# -- an independent brute force of R9/R22/R25/R26 for hands without table melds --------
def _run_value(cards: tuple[int, ...]) -> int:
    pts = sorted(c % 10 + 1 for c in cards)
    big = cards[0] >= 10
    if pts in ([1, 2, 3], [2, 7, 10]):
        return 6 if big else 3
    return 0


@cache
def _split(cnt: tuple[int, ...], pair: bool) -> int:
    """Best 胡息 splitting ``cnt`` into 句/绞 (+ exactly one pair if ``pair``), or −1."""
    if not any(cnt):
        return -1 if pair else 0
    c = next(i for i, n in enumerate(cnt) if n)
    best = -1
    options: list[tuple[tuple[int, ...], bool]] = []
    base, p = (c // 10) * 10, c % 10
    if p <= 7:
        options.append(((c, c + 1, c + 2), pair))
    if p == 1:
        options.append(((c, base + 6, base + 9), pair))
    q = (c + 10) % 20
    options += [((c, c, q), pair), ((c, q, q), pair)]
    if pair:
        options.append(((c, c), False))
    for group, still in options:
        rest = list(cnt)
        ok = True
        for x in group:
            rest[x] -= 1
            ok &= rest[x] >= 0
        if not ok:
            continue
        v = _split(tuple(rest), still)
        if v >= 0:
            g = 0 if len(group) == 2 or len(set(g % 10 for g in group)) == 1 else _run_value(group)
            best = max(best, g + v)
    return best


def brute_huxi(hand: str, win: str, self_drawn: bool) -> int:
    """Best 胡息 of a table-less hand + win card over every R25 completion (R26)."""
    cnt = counts(parse_cards(hand))
    w = Card.parse(win)
    big = [c >= 10 for c in range(20)]
    kan = [c for c in range(20) if cnt[c] == 3]
    kan_v = sum(6 if big[c] else 3 for c in kan)
    rest = [0 if c in kan else n for c, n in enumerate(cnt)]
    best = -1
    # the card joins the 句/绞 (no 跑/提 → no pair); a 坎 of its kind stays whole (R27)
    r = rest[:]
    r[w] += 1
    v = _split(tuple(r), False)
    if v >= 0:
        best = max(best, kan_v + v)
    if rest[w] == 2:  # pair + card = 碰 (偎 when self-drawn)
        r = rest[:]
        r[w] = 0
        v = _split(tuple(r), False)
        if v >= 0:
            best = max(best, kan_v + _triple(w, self_drawn) + v)
    if w in kan:  # 坎 + card = 跑 (提 when self-drawn), now a 将 is required
        v = _split(tuple(rest), True)
        if v >= 0:
            four = (12 if big[w] else 9) if self_drawn else (9 if big[w] else 6)
            k = kan_v - (6 if big[w] else 3) + four
            best = max(best, k + v)
    return best


def _triple(w: int, self_drawn: bool) -> int:
    if self_drawn:  # 偎
        return 6 if w >= 10 else 3
    return 3 if w >= 10 else 1  # 碰


def _seat2_wins_on_seat1_draw(hand: str, win: str, **kw):
    """Seat 2 holds ``hand``; seat 1 turns up ``win`` with his first draw."""
    s = game({2: hand}, wall=win, avoid=win, **kw)
    discard_quietly(s, 0, avoid=win)
    return s


def test_R22_R23_min_huxi_gate() -> None:
    """R22/R23: a 7-门子 shape with 12 胡息 does not win at 15 (hunan), does at 10."""
    s = _seat2_wins_on_seat1_draw(A12, "捌")
    assert not (s.phase == CLAIM and "hu" in ids(s, 2))
    s = _seat2_wins_on_seat1_draw(A12, "捌", rules=HUNAN.replace(min_huxi=10))
    assert "hu" in ids(s, 2)
    s = _seat2_wins_on_seat1_draw(A, "捌")
    assert "hu" in ids(s, 2)  # control: 15 胡息 wins


def test_R22_no_shape_no_hu() -> None:
    """R22: one card short of a shape (四 instead of 捌) offers no 胡."""
    s = _seat2_wins_on_seat1_draw(A.replace("玖拾", "玖十"), "捌")
    assert not (s.phase == CLAIM and "hu" in ids(s, 2))


def test_R24_no_hu_on_a_discard_unless_rules_allow() -> None:
    """R24: default — a discard cannot be won on (seat 2 is not the 地胡 seat); 泸州-style can."""
    s = game({0: "捌", 2: A}, avoid="捌")
    act(s, 0, "discard:d8")
    assert not (s.phase == CLAIM and "hu" in ids(s, 2))
    s = game({0: "捌", 2: A}, avoid="捌", rules=HUNAN.replace(win_on_discard=True))
    act(s, 0, "discard:d8")
    assert "hu" in ids(s, 2)
    act(s, 2, "hu")
    assert s.result.winner == 2 and s.result.position.self_drawn is False


def test_R24_payment_discarder_only() -> None:
    """R24/R37 (泸州 payment): on a discard win only the discarder pays."""
    rules = HUNAN.replace(win_on_discard=True, payment="discarder")
    s = game({0: "捌", 2: A}, avoid="捌", rules=rules)
    act(s, 0, "discard:d8")
    act(s, 2, "hu")
    di = s.result.di
    assert di > 0 and s.returns() == [-di, 0, di]


def test_R25_win_card_makes_pao_from_kan() -> None:
    """R25: 拾 turned up by another onto the winner's 坎 counts as 跑: 9 + 6 + 3 = 18."""
    s = _seat2_wins_on_seat1_draw(P, "拾")
    assert ids(s, 2) == ["hu", "pass"]  # the 跑 is pending: only 胡 is asked
    act(s, 2, "hu")
    r = s.result.to_dict()  # the record's result (INTERFACES §4)
    assert r["huxi"] == 18 == brute_huxi(P, "拾", False)
    assert r["position"]["win"] == "d10" and r["position"]["self_drawn"] is False
    assert sorted(parse_cards(r["position"]["hand"])) == sorted(parse_cards(P))
    assert r["scores"] == [-r["di"], -r["di"], 2 * r["di"]]  # R37: each other seat pays


def test_R25_self_drawn_onto_kan_is_ti() -> None:
    """R25: self-drawn onto the 坎 counts as 提: 12 + 6 + 3 = 21."""
    s = game({2: P}, wall="十拾", avoid="十拾")
    discard_quietly(s, 0, avoid="拾")
    run_until(s, 2, avoid="拾")
    assert s._window.owner == 2 and s._window.card == Card.D10 and not s._window.shown
    act(s, 2, "hu")
    assert s.result.huxi == 21 == brute_huxi(P, "拾", True)
    assert s.result.position.self_drawn is True


@pytest.mark.parametrize(
    "hand,win", [(A, "捌"), (B, "捌"), (P, "捌"), (P, "八"), (P, "拾"), (Q, "二")]
)
def test_R26_best_decomposition(hand: str, win: str) -> None:
    """R26: the settled 胡息 is the maximum over every decomposition (brute force here)."""
    s = _seat2_wins_on_seat1_draw(hand, win)
    act(s, 2, "hu")
    assert s.result.huxi == brute_huxi(hand, win, False)


def test_R27_pao_card_won_keeping_the_kan() -> None:
    """R27: 二 onto the winner's own 坎二: the 坎 stays whole and 二七十 is made (18)."""
    s = _seat2_wins_on_seat1_draw(Q, "二")
    assert ids(s, 2) == ["hu", "pass"]
    t = s.clone()
    act(t, 2, "pass")
    assert [g.code() for g in t.table(2)] == ["pao:x2"]  # declined: the 跑 is forced
    act(s, 2, "hu")
    assert s.result.huxi == 18
    kinds = [g.kind for g in s.result.settlement.groups]
    assert "kan" in kinds and "pao" not in kinds


def test_R28_mandatory_tianhu_three_ti() -> None:
    """R28: 3 提 after the deal win at once, automatically, as 自摸, shape not needed."""
    s = game({1: "一一一一二二二二三三三三"})
    assert s.phase == OVER and not s.actions  # no action: an automation (R21)
    (hu,) = find(s.events, "hu")
    # INTERFACES §4: a `hu` event with "tianhu": true and no card.
    assert hu.seat == 1 and hu.card is None and hu.get("tianhu") is True
    d = hu.to_dict()
    assert d["type"] == "hu" and d["tianhu"] is True and "card" not in d
    r = s.result.to_dict()
    assert r["winner"] == 1 and r["position"]["tianhu"] is True and "win" not in r["position"]
    assert r["di"] > 0 and r["scores"] == [-r["di"], 2 * r["di"], -r["di"]]
    assert s.held(0) == 21  # the deal (亮张 included) completed before the win


def test_R28_mandatory_tianhu_five_kan_with_ti_counting() -> None:
    """R28: 5 坎, a 提 counting as a 坎 (1 提 + 4 坎) is 天胡 too."""
    s = game({2: "一一一二二二三三三四四四五五五"})
    assert s.result.winner == 2
    s = game({2: "一一一一二二二三三三四四四五五五"})
    assert s.result.winner == 2


def test_R28_kan_does_not_count_as_ti() -> None:
    """R28: 2 提 + 2 坎 is neither 3 提 nor 5 坎: no 天胡."""
    s = game({1: "一一一一二二二二三三三四四四"}, avoid="一二三四")
    assert s.result is None


def test_R28_liangzhang_makes_third_ti() -> None:
    """R28: the 亮张 giving the dealer his 3rd 提 is a mandatory 天胡 (自摸)."""
    s = game({0: "一一一一二二二二三三三"}, liangzhang="三")
    r = s.result
    assert r.winner == 0 and r.position.tianhu is True
    assert len(r.position.table) == 3


def test_R28_elective_tianhu_with_liangzhang() -> None:
    """R28: the dealer may 胡 with the 亮张 (normal rules) → 天胡 + 自摸; or decline."""
    s = game({0: A}, liangzhang="捌")
    assert s.phase == CLAIM and s.to_act() == [0] and ids(s, 0) == ["hu", "pass"]
    t = s.clone()
    act(t, 0, "pass")
    assert t.phase == DISCARDING and Card.D8 in t.hand(0)
    act(s, 0, "hu")
    pos = s.result.to_dict()["position"]
    assert pos["tianhu"] is True and pos["self_drawn"] is True and pos["win"] == "d8"


def test_R29_dihu_on_dealers_first_discard() -> None:
    """R29: the dealer's 下家 wins on the dealer's first discard (地胡, not 自摸)."""
    s = game({0: "捌", 1: A}, avoid="捌")
    act(s, 0, "discard:d8")
    assert "hu" in ids(s, 1)
    act(s, 1, "hu")
    pos = s.result.to_dict()["position"]
    assert pos["dihu"] is True and pos["self_drawn"] is False
    di = s.result.di
    assert s.returns() == [-di, 2 * di, -di]


def test_R29_baopei_discarder_pays_for_all() -> None:
    """R29 + R37 包赔: on 地胡 the discarder pays for everybody."""
    s = game({0: "捌", 1: A}, avoid="捌", rules=HUNAN.replace(baopei=True))
    act(s, 0, "discard:d8")
    act(s, 1, "hu")
    di = s.result.di
    assert s.returns() == [-2 * di, 2 * di, 0]


def test_R29_only_the_first_discard() -> None:
    """R29: a later discard of the dealer is no 地胡 (default preset)."""
    s = game({0: "捌四六", 1: A}, wall="十五", avoid="捌四五六十")
    discard_quietly(s, 0, avoid="捌四六")
    run_until(s, 2)
    assert s._window.owner == 2 and s._window.card == Card.X5
    pass_claims(s, keep=[0])
    act(s, 0, "chi:x5:x4x5x6")
    act(s, 0, "discard:d8")
    assert not (s.phase == CLAIM and "hu" in ids(s, 1))


def test_R29_changde_dihu_on_liangzhang() -> None:
    """R29 (常德 ``dihu = liangzhang``): a non-dealer may 胡 the 亮张; hunan: not."""
    s = game({1: A}, liangzhang="捌", rules=CHANGDE)
    assert s.phase == CLAIM and "hu" in ids(s, 1)
    act(s, 1, "hu")
    pos = s.result.to_dict()["position"]
    assert pos["dihu"] is True and pos["self_drawn"] is False
    s = game({1: A}, liangzhang="捌")
    assert not (s.phase == CLAIM and "hu" in ids(s, 1))


def test_R32_huangzhuang_when_wall_runs_out() -> None:
    """R32: nobody wins and the wall is exhausted → 荒庄, no score."""
    s = game(fill_seed=3)
    while not s.is_terminal():
        if s.phase == CLAIM:
            pass_claims(s)
        else:
            discard_quietly(s, s._turn) if s.phase == DISCARDING else None
    assert s.result.winner is None and s.returns() == [0, 0, 0]
    assert s.events[-1].type == "huangzhuang" and s.wall_left == 0


def _haidi(rules=HUNAN):
    """Seat 1 (A) turns up the last wall card, 捌; the other 捌 are held elsewhere."""
    s = game({0: "捌", 1: A, 2: "捌捌"}, bottom="捌", rules=rules, avoid="捌")
    discard_quietly(s, 0, avoid="捌")
    run_until(s, 19, avoid="捌")
    return s


def test_R32_haidi_last_card_win() -> None:
    """海底 (R35): winning on the last wall card sets last_card; it doubles 胡息."""
    s = _haidi()
    assert s.wall_left == 0 and s._window.owner == 1 and s._window.card == Card.D8
    act(s, 1, "hu")
    r = s.result
    assert r.position.last_card is True and "haidi" in r.settlement.doubled


def test_R32_bottom_card_cannot_be_won_when_shown() -> None:
    """泸州 ``show_wall_bottom``: the shown last card can be won by nobody."""
    s = _haidi(HUNAN.replace(show_wall_bottom=True))
    assert find(s.events, "bottom")[0].card == Card.D8
    assert not (s.phase == CLAIM and "hu" in ids(s, 1))
