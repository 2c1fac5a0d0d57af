"""R40/R46: the 王 search of ``paohuzi.core.wang`` against the brute force of
``tests/oracle_wang.py`` (every 王 substituted by every kind, every split) on
generated positions.

Positions are winning hands built from random 门子 (as in
test_second_wave_oracle), in which some concealed cards — and sometimes the
winning card — are then replaced by 王, so that most of them still win in some
way and some do not. The settlement must win exactly when the oracle finds a
split with ≥ 起胡, and then be worth the oracle's best score (R46).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from oracle_wang import best_score
from paohuzi.core.cards import Card, parse_cards
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.position import Position, WangPattern
from paohuzi.core.rules import (
    GUILIN,
    HENGYANG,
    LOUDI,
    PRESETS,
    YONGZHOU,
    YONGZHOU_HONGZHUAN,
    FanCombine,
    Rules,
)
from paohuzi.core.scoring import Settlement, _settle_groups, settle
from paohuzi.core.wang import _SHAPES, most_huxi, wild_splits

from .test_second_wave_oracle import positions


@st.composite
def wild_positions(draw: st.DrawFn, rules: Rules, most: int, least: int = 1) -> Position:
    p = draw(positions(rules))
    hand = list(p.hand)
    assume(len(hand) >= least)
    k = draw(st.integers(least, min(most, len(hand))))
    # a drawn 王 wins instead of the card (then k − 1 concealed cards are 王)
    win_wang = draw(st.integers(0, 3)) == 0 and not p.tianhu
    n = k - 1 if win_wang else k
    idx = set(draw(st.lists(st.integers(0, len(hand) - 1), min_size=n, max_size=n, unique=True)))
    wild = [c for i, c in enumerate(hand) if i not in idx]
    try:
        return Position(
            tuple(wild),
            p.table,
            None if win_wang else p.win,
            self_drawn=p.self_drawn or win_wang,
            last_card=p.last_card,
            tianhu=p.tianhu and not win_wang,
            dihu=p.dihu and not win_wang,
            hand_size=p.hand_size,
            xing=p.xing,
            wang=n,
            win_wang=win_wang,
        )
    except ValueError:
        assume(False)
        raise


def _agree(p: Position, rules: Rules) -> None:
    """The settlement wins exactly when the oracle does, worth its best score; the
    engine's win check (``most_huxi``: C on a compiled build) reaches 起胡 exactly then,
    and is the most 胡息 of the splits listed."""
    s = settle(p, rules)
    want = best_score(p, rules)
    event(f"{p.wang + p.win_wang} 王, " + ("win" if want is not None else "no win"))
    most = most_huxi(p, rules)
    assert most == max((sum(g.huxi(rules) for g in w.groups) for w in wild_splits(p)), default=-1)
    assert (most >= rules.min_huxi) == (want is not None), (str(p), most)
    if want is None:
        assert not s.win, (str(p), s.di, s.wang, [str(g) for g in s.groups])
    else:
        assert s.win, (str(p), s.error, want)
        assert s.di == want[0], (str(p), s.di, want, s.wang, [str(g) for g in s.groups])


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(p=wild_positions(HENGYANG, 3))
def test_hengyang_with_wang_matches_the_oracle(p: Position) -> None:
    """5 门子 (R43) with up to 3 王: splits, 王 kinds, 红黑点 番 and 醒 (R40, R42, R46)."""
    _agree(p, HENGYANG)


@SETTINGS
@given(p=wild_positions(GUILIN, 2))
def test_guilin_with_wang_matches_the_oracle(p: Position) -> None:
    """7 门子 with up to 2 王 (R40, R46)."""
    _agree(p, GUILIN)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=wild_positions(LOUDI, 2))
def test_loudi_with_wang_matches_the_oracle(p: Position) -> None:
    """Exact 20/30 胡息 and 一块匾 through 王 kinds (R46)."""
    _agree(p, LOUDI)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=wild_positions(HENGYANG, 4, least=3))
def test_four_wang_match_the_oracle(p: Position) -> None:
    """Up to 4 王: three alone a 坎, four a 提 of the best kind (R40)."""
    _agree(p, HENGYANG)


# -- R41 王 patterns: the incoming card and 1/2/3 王 as a fixed pair / 坎 / 提 --------
FAN = (4, 8, 8, 16, 16, 32)  # PRESETS.md yongzhou: 王钓, 王钓王, 王闯, 王闯王, 王炸, 王炸王


@st.composite
def pattern_positions(draw: st.DrawFn, rules: Rules) -> Position:
    """A winning hand in which cards of the winning card's kind (then others) turn
    into 王, with a pattern: most such positions win by it, some do not."""
    p = draw(positions(rules))
    assume(not p.tianhu and p.win is not None)
    pat = draw(st.sampled_from(tuple(WangPattern)))
    hand = list(p.hand)
    extra = draw(st.integers(0, 1))  # one more 王 left wild in the rest
    n = pat.hand_wang + extra
    assume(n <= len(hand) and n + pat.on_wang <= 4)
    # 王 first where the winning card's kind lies (so the fixed group often fits)
    order = sorted(range(len(hand)), key=lambda i: (hand[i] != p.win, draw(st.integers(0, 9))))
    idx = set(order[:n])
    wild = [c for i, c in enumerate(hand) if i not in idx]
    try:
        return Position(
            tuple(wild),
            p.table,
            None if pat.on_wang else p.win,
            self_drawn=p.self_drawn or pat.on_wang,
            last_card=p.last_card,
            hand_size=p.hand_size,
            xing=p.xing,
            wang=n,
            win_wang=pat.on_wang,
            pattern=pat,
        )
    except ValueError:
        assume(False)
        raise


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=pattern_positions(HENGYANG))
def test_hengyang_patterns_match_the_oracle(p: Position) -> None:
    """R41: 王钓/王闯/王炸 (and 王 forms) seeded as one fixed group, the rest searched
    with the other 王 wild, the pattern's 番 multiplied, no 自摸 ×2 (R40, R46)."""
    rules = HENGYANG.replace(wang_fan=FAN)
    assert rules.fan_combine == FanCombine.MULTIPLY  # the oracle multiplies
    event(str(p.pattern))
    _agree(p, rules)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=pattern_positions(GUILIN))
def test_guilin_patterns_match_the_oracle(p: Position) -> None:
    """R41 with 7 门子 (a fixed 将 needs a four, R22)."""
    _agree(p, GUILIN.replace(wang_fan=FAN))


# -- 永州扯胡子: the preset that deals 王 (PRESETS.md yongzhou) ---------------------------
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=wild_positions(YONGZHOU, 2))
def test_yongzhou_with_wang_matches_the_oracle(p: Position) -> None:
    """7 门子 with up to 2 王: 囤 from 起胡 + 醒 through a 王, 红/点/黑 by the assignment
    (R40, R42, R46)."""
    _agree(p, YONGZHOU)


# the brute force over 3 王 of 7 门子 is slow (4 王: minutes): few examples; 4 王 are
# checked on 衡阳's 5 门子 above and in tests/data/yongzhou-vectors.json
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=wild_positions(YONGZHOU.replace(mingtang=YONGZHOU_HONGZHUAN), 3, least=3))
def test_yongzhou_three_wang_and_hongzhuan_match_the_oracle(p: Position) -> None:
    """3 王 under 红转朱黑: a 王 may buy the 点胡/黑胡 of 13+ red (R40, R46)."""
    _agree(p, YONGZHOU.replace(mingtang=YONGZHOU_HONGZHUAN))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=pattern_positions(YONGZHOU))
def test_yongzhou_patterns_match_the_oracle(p: Position) -> None:
    """R41 under the preset's own 番 (4/8/8/16/16/32), no 自摸 ×2 on a pattern."""
    assert YONGZHOU.wang_fan == FAN
    _agree(p, YONGZHOU)


# -- a 名堂 that counts each kind (归, 团圆) with 王: no preset has both; rules are data ----
GUI_WANG = PRESETS["luzhou"].replace(wang=2, scoring_mode="mingtang")  # 归 counts


def _every_split(p: Position, rules: Rules) -> int | None:
    """The best 底 with every split and 王 assignment settled (R46), none skipped."""
    best = None
    for sp in wild_splits(p):
        gh = tuple(g.huxi(rules) for g in sp.groups)
        if sum(gh) >= rules.min_huxi:
            s = _settle_groups(p, rules, 0, sum(gh), sp.groups, gh, sp.wang)
            best = s.di if best is None else max(best, s.di)
    return best


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=wild_positions(GUI_WANG, 2))
def test_a_mingtang_counting_kinds_settles_every_wang_split(p: Position) -> None:
    """R36, R40, R46: 归 reads which kinds the 王 became, so two splits alike in 胡息,
    colours and 醒 may score apart: none may be skipped as "the same profile"."""
    s = settle(p, GUI_WANG)
    assert (s.di if s.win else None) == _every_split(p, GUI_WANG)


def test_four_of_a_kind_through_a_wang_earns_gui() -> None:
    """R40: 一一一 on the table (偎) and a 王 as the fourth 一 (提), a 碰拾 and a 王 as
    the third 拾 of 捌玖拾: 归 twice (番 16, 底 32), which the profile of a split
    without the second 归 (底 16) once hid."""
    p = Position.parse(
        "六六七七八贰贰陆陆柒捌玖王王", "柒", ["wei:一", "peng:拾"], self_drawn=True, tianhu=True
    )
    s = settle(p, GUI_WANG)
    assert (s.di, s.fan) == (32, 16) and [m.id for m in s.mingtang].count("gui") == 1
    assert s.di == _every_split(p, GUI_WANG)


def test_eight_of_a_kind_with_four_wang_keeps_its_colours() -> None:
    """R40, R42, R46: four 王 as a 提 of 壹 beside a 碰壹 and 吃壹贰叁 make eight 壹,
    more than the packed form's 3-bit field holds. Its overflow once ran into 贰's
    field, so the hand read two red cards, lost 一点红 and the best split settled at 78
    instead of 84 (found by test_four_wang_match_the_oracle)."""
    p = Position(
        hand=tuple(parse_cards("三四五玖玖")),
        table=(Group.parse("chi:壹贰叁"), Group.parse("peng:壹")),
        win=None,
        self_drawn=True,
        last_card=True,
        hand_size=14,
        xing=(Card.D1, Card.X1),
        wang=3,
        win_wang=True,
    )
    s = settle(p, HENGYANG)
    assert (s.di, s.huxi) == best_score(p, HENGYANG) == (84, 21)
    assert s.wang == (Card.D1,) * 4 and s.xing == 8
    assert [m.id for m in s.mingtang] == ["dianhu", "zimo"]


def test_three_wang_alone_may_be_a_run_of_any_kinds() -> None:
    """R40, R46: three 王 left when no natural card remains are any group of three —
    a 句 too, not only a 坎: 壹贰叁 brings one 醒 (壹) and one red (贰), worth more here
    than any 坎 (壹壹壹: three 醒, 9 red; 贰贰贰: 12 red, no 醒). Found by the hypothesis
    test above (the search had offered a 坎 alone)."""
    p = Position(
        (Card.X4, Card.X4),
        tuple(Group.parse(t) for t in ("wei:d3", "chi:x2d2d2", "peng:x1", "peng:x2", "peng:x10")),
        Card.D4,
        dihu=True,
        xing=(Card.D1,),
        wang=3,
    )
    for rules in (YONGZHOU, YONGZHOU.replace(mingtang=YONGZHOU_HONGZHUAN)):
        s = settle(p, rules)
        assert (s.di, s.huxi) == best_score(p, rules) == (6, 15)
        assert s.wang == (Card.D1, Card.D2, Card.D3) and "句壹贰叁" in [str(g) for g in s.groups]
        assert (s.xing, [m.id for m in s.mingtang]) == (1, ["honghu"])  # 10 red: 红胡 ×2
        assert most_huxi(p, rules) == 21  # (the win check: 提肆肆肆肆 with the 将 四四)


def _settled_first(p: Position, rules: Rules) -> Settlement | None:
    """The reference of a 王 settlement: every split settled, the best kept (ties: the
    one listed first), none skipped."""
    best = None
    for sp in wild_splits(p):
        gh = tuple(g.huxi(rules) for g in sp.groups)
        if sum(gh) >= rules.min_huxi:
            s = _settle_groups(p, rules, 0, sum(gh), sp.groups, gh, sp.wang)
            if best is None or (s.di, s.huxi) > (best.di, best.huxi):
                best = s
    return best


# By class with every colour count read (大字胡/小字胡 read big and small), with red only
# (衡阳) and with none (桂林's 名堂: flags only).
_SIZE_READ = HENGYANG.replace(
    mingtang=tuple(
        m
        for m in PRESETS["hunan"].mingtang
        if m.id in ("honghu", "dianhu", "wuhu", "dazihu", "xiaozihu")
    )
)
_BY_CLASS = {
    "sizes": _SIZE_READ,
    "red": HENGYANG,
    "none": HENGYANG.replace(mingtang=GUILIN.mingtang),
}


@pytest.mark.parametrize("name", _BY_CLASS)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), xing=st.lists(st.sampled_from(list(Card)[:20]), max_size=3))
def test_split_classes_keep_the_first_best_split_of_each_class_and_settle_alike(
    name: str, data: st.DataObject, xing: list[Card]
) -> None:
    """R40, R42, R46: ``split_classes`` keeps, per class of the red, big and 醒 count of
    what the 王 became (a 醒牌 turned twice counts twice: 连翻; the red or big count 0 when
    no 名堂 in use reads it: ``mingtang.Compiled.axes``), the first split ``wild_splits``
    lists with the class's most 胡息 — its 胡息, 门子 and 王 — and the most 胡息 of any
    split; the settlement that settles one split per class gives what settling every
    split gives — every field, the 门子 and 王 of the first best split."""
    from dataclasses import replace

    from paohuzi.core.mingtang import compiled
    from paohuzi.core.wang import class_split, split_classes

    rules = _BY_CLASS[name]
    axes = compiled(rules).axes
    assert axes == {"sizes": 3, "red": 1, "none": 0}[name]
    p = replace(data.draw(wild_positions(rules, 3)), xing=tuple(xing))
    want: dict[tuple[int, int, int], tuple[int, object, object]] = {}
    most = -1
    for sp in wild_splits(p):
        h = sum(g.huxi(rules) for g in sp.groups)
        most = max(most, h)
        cls = (
            sum(c.is_red for c in sp.wang) if axes & 1 else 0,
            sum(c.is_big for c in sp.wang) if axes & 2 else 0,
            sum(sp.wang.count(c) for c in p.xing),
        )
        if cls not in want or h > want[cls][0]:
            want[cls] = (h, sorted(sp.groups, key=lambda g: (g.kind, g.cards)), sp.wang)
    got_most, classes = split_classes(p, rules)
    assert got_most == most
    got = {}
    for red, big, x, h, reading, path, kinds in classes:
        whole = class_split(p, reading, path)
        assert h == sum(g.huxi(rules) for g in whole)
        got[red, big, x] = (
            h,
            sorted(whole, key=lambda g: (g.kind, g.cards)),
            tuple(map(Card, kinds)),
        )
    assert got == want
    s, want = settle(p, rules), _settled_first(p, rules)
    if want is None:
        assert not s.win
    else:
        assert s == want and (s.groups, s.wang, s.xing) == (want.groups, want.wang, want.xing)


# -- a rest with no 王 left: one class, its first best completion (_natural_in) ----------
_NATURAL_GROUPS = sorted(
    {
        tuple(sorted((c, *others)))
        for c in range(20)
        for kind, others in _SHAPES[c]
        if kind in (GroupKind.JU, GroupKind.JIAO)
    }
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    groups=st.lists(st.sampled_from(_NATURAL_GROUPS), min_size=1, max_size=4),
    pair=st.one_of(st.none(), st.integers(0, 19)),
    swap=st.one_of(st.none(), st.tuples(st.integers(0, 11), st.integers(0, 19))),
    pair_free=st.booleans(),
)
def test_a_rest_with_no_wang_left_keeps_its_first_best_completion(
    groups: list[tuple[int, ...]],
    pair: int | None,
    swap: tuple[int, int] | None,
    pair_free: bool,
) -> None:
    """R22, R40, R46: a rest with no 王 left (some built of 句/绞 and a 将, some with a
    card swapped so that most do not complete) has one class at most; ``_natural_in``
    gives the most 胡息 of ``_solve``'s completions and the first path with it, as the
    class walk gave before a rest without 王 had its own walk; ``_natural_most`` (the
    win check's) gives that most 胡息 in its one (将, four) entry."""
    from paohuzi.core import wang
    from paohuzi.core.evaluator import pack

    cards = [c for g in groups for c in g] + ([pair, pair] if pair is not None else [])
    if swap is not None:
        cards[swap[0] % len(cards)] = swap[1]
    assume(max(cards.count(c) for c in cards) <= 2)  # natural 坎 are set aside (R22)
    n = len(cards)
    need = (n + 1) // 3
    r = pack(cards)
    sols = wang._solve(r, 0, pair_free, need)
    natural = wang._priced(HENGYANG)[3]
    got = wang._natural_in(r, n, pair_free, need, {}, natural)
    entry = wang._natural_most(r, n, pair_free, need, natural, {})
    event("completes" if sols else "dead")
    if not sols:
        assert got == () and entry is wang._DEAD
        return
    most = max(sum(g.huxi(HENGYANG) for g in gs) for gs, *_ in sols)
    path, p = min(
        (path, p) for gs, _, _, p, path in sols if sum(g.huxi(HENGYANG) for g in gs) == most
    )
    assert got == ((0, 0, 0, 0, p, most, path, ()),)
    assert entry == tuple(most if i == 2 * p else None for i in range(4))
