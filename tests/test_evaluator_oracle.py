"""The fast evaluator against the brute-force oracle (R22–R27, R33).

The oracle (tests/oracle.py) enumerates every placement of the winning card and
every partition of the hand; the evaluator uses per-size tables. They must agree
on win/not, on the best 胡息 and on 当前总息数, for the 湖南 and 泸州 胡息 tables.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings

from oracle import oracle_current_huxi, oracle_huxi
from paohuzi.core.cards import CARDS
from paohuzi.core.evaluator import evaluator_for, pack
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.position import Position
from paohuzi.core.rules import HUNAN, LUZHOU, Rules
from strategies import positions

RULESETS = (HUNAN, LUZHOU)
HAND_KINDS = {GroupKind.KAN, GroupKind.JU, GroupKind.JIAO, GroupKind.JIANG}
MAIN = settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_decomposition(pos: Position, groups: tuple[Group, ...], huxi: int, rules: Rules) -> None:
    """R22/R25: ``groups`` are exactly the position's cards as 7 legal 门子 worth ``huxi``."""
    assert pos.win is not None
    win, sd = pos.win, pos.self_drawn
    assert len(groups) == 7, f"{len(groups)} 门子 in {groups}"
    assert Counter(c for g in groups for c in g.cards) == Counter(pos.all_cards())
    assert sum(g.huxi(rules) for g in groups) == huxi
    # Every table meld is kept, except one 偎/臭偎/碰 of the winning card upgraded (R25).
    remaining = list(groups)
    upgraded = 0
    for m in pos.table:
        if m in remaining:
            remaining.remove(m)
            continue
        assert m.cards[0] == win and m.kind in (GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI)
        want = GroupKind.TI if sd and m.kind is not GroupKind.PENG else GroupKind.PAO
        up = Group.of(want, win)
        assert up in remaining, f"{m} + {win} should be {up} in {groups}"
        remaining.remove(up)
        upgraded += 1
    assert upgraded <= 1
    # The other groups hold exactly the concealed hand (+ the winning card unless it
    # went into a table meld).
    hand = Counter(pos.hand)
    assert Counter(c for g in remaining for c in g.cards) == hand + Counter([win] * (1 - upgraded))
    for g in remaining:
        if g.kind in HAND_KINDS:
            if g.kind is GroupKind.KAN:
                assert hand[g.cards[0]] == 3, f"坎 {g} not from three cards in hand"
            continue
        # Completions of R25 with the winning card.
        c = g.cards[0]
        assert c == win, f"{g} in hand without the winning card"
        if len(g.cards) == 3:  # pair + card → 碰 (discard/other's) or 偎 (self-drawn)
            assert hand[c] == 2 and g.kind is (GroupKind.WEI if sd else GroupKind.PENG), g
        else:  # 坎 + card → 跑 or 提 (self-drawn)
            assert hand[c] == 3 and g.kind is (GroupKind.TI if sd else GroupKind.PAO), g
    # 坎 never split (R22): the three cards sit in one group.
    for c, n in hand.items():
        if n == 3:
            assert any(g.cards.count(c) >= 3 for g in groups), f"坎 {c.zh} split in {groups}"
    fours = sum(1 for g in groups if g.kind.is_four)
    pairs = sum(1 for g in groups if len(g.cards) == 2)
    assert pairs == (1 if fours else 0), f"{pairs} pairs with {fours} 跑/提 (R22)"


@pytest.mark.slow  # ~30 s: 2,500 positions through the exhaustive oracle
@MAIN
@given(positions())
def test_evaluator_agrees_with_oracle(pos: Position) -> None:
    """R22–R27: win/not, best 胡息 and the decomposition, hunan and luzhou tables."""
    for rules in RULESETS:
        ev = evaluator_for(rules)
        expect = oracle_huxi(pos, rules)
        a = ev.analyse(pos)
        assert pos.win is not None
        got = ev.best_huxi(pack(pos.hand), pos.table, int(pos.win), pos.self_drawn)
        assert got == (-1 if expect is None else expect), (str(pos), rules.name)
        if expect is None:
            assert (a.win, a.error, a.groups) == (False, "not_winning", ()), str(pos)
            continue
        assert a.huxi == expect, (str(pos), rules.name)
        wins = expect >= rules.min_huxi
        assert a.win is wins and a.error == (None if wins else "below_min_huxi"), str(pos)
        check_decomposition(pos, a.groups, a.huxi, rules)
        if rules is HUNAN:
            event("win" if wins else "shape below min")
    if oracle_huxi(pos, HUNAN) is None:
        event("no shape")
    _record_shape(pos)


def _record_shape(pos: Position) -> None:
    """hypothesis events: how often the tricky completions of R25/R27 are generated."""
    hand, w = Counter(pos.hand), pos.win
    if hand[w] == 3:
        event("坎 + winning card")
        groups = evaluator_for(HUNAN).analyse(pos).groups
        if Group.of(GroupKind.KAN, w) in groups:
            event("破跑胡: 坎 kept whole in the best shape")
    elif hand[w] == 2:
        event("pair + winning card")
    if any(m.cards[0] == w and len(m.cards) == 3 for m in pos.table):
        event("table 偎/碰 + winning card")
    event(f"{pos.four_count} 跑/提 on the table, self-drawn={pos.self_drawn}")


@pytest.mark.slow  # ~10 s
@settings(max_examples=1000, deadline=None)
@given(positions())
def test_current_huxi_agrees_with_oracle(pos: Position) -> None:
    """R33: 当前总息数 of the hand before the winning card, and of the hand with it."""
    assert pos.win is not None
    for rules in RULESETS:
        ev = evaluator_for(rules)
        assert ev.current_huxi(pack(pos.hand), pos.table) == oracle_current_huxi(
            pos.hand, pos.table, rules
        ), (str(pos), rules.name)
        with_win = (*pos.hand, pos.win)
        if max(Counter(with_win).values()) <= 3:
            assert ev.current_huxi(pack(with_win), pos.table) == oracle_current_huxi(
                with_win, pos.table, rules
            ), (str(pos), rules.name)


@pytest.mark.slow  # ~10 s
@settings(max_examples=300, deadline=None)
@given(positions())
def test_tingpai_agrees_with_oracle(pos: Position) -> None:
    """听牌: every card not already held four times that wins (≥ min 胡息), with its 胡息."""
    held = Counter(pos.hand) + Counter(c for m in pos.table for c in m.cards)
    for rules in RULESETS:
        expect = {}
        for c in CARDS:
            if held[c] >= 4:
                continue
            alt = Position(pos.hand, pos.table, c, self_drawn=pos.self_drawn)
            h = oracle_huxi(alt, rules)
            if h is not None and h >= rules.min_huxi:
                expect[int(c)] = h
        got = evaluator_for(rules).tingpai(pack(pos.hand), pos.table, pos.self_drawn)
        assert got == expect, (str(pos), rules.name)


YIWUSHI_RULES = (HUNAN.replace(yiwushi=True), LUZHOU.replace(yiwushi=True))


def _distinct_oracle_splits(pos: Position, rules: Rules) -> int:
    """Distinct splits (as multisets of (R9 row, cards)) the oracle finds, any 胡息."""
    from oracle_score import splits

    return len({tuple(sorted((r, tuple(sorted(c))) for r, c in sp)) for sp in splits(pos, rules)})


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(yiwushi=True))
def test_yiwushi_agrees_with_oracle(pos: Position) -> None:
    """PRESETS hengyang's option (一五十 / 壹伍拾 a 句, 3 / 6) under R22–R27 and R33:
    win/not, best 胡息, the split, 当前总息数 and how many splits (R46) — the brute
    force with 一五十 among its 句 (tests/oracle.py), positions drawn with 一五十 in
    their shapes. The evaluator runs its Python path for these rules (no kernel)."""
    from paohuzi.core.evaluator import split_count

    assert pos.win is not None
    for rules in YIWUSHI_RULES:
        ev = evaluator_for(rules)
        expect = oracle_huxi(pos, rules)
        got = ev.best_huxi(pack(pos.hand), pos.table, int(pos.win), pos.self_drawn)
        assert got == (-1 if expect is None else expect), (str(pos), rules.name)
        a = ev.analyse(pos)
        if expect is not None:
            assert a.huxi == expect, (str(pos), rules.name)
            check_decomposition(pos, a.groups, a.huxi, rules)
            if rules.name == "hunan" and any(
                tuple(map(int, g.cards)) in ((0, 4, 9), (10, 14, 19)) for g in a.groups
            ):
                event("best split holds a 一五十")
        assert ev.current_huxi(pack(pos.hand), pos.table) == oracle_current_huxi(
            pos.hand, pos.table, rules
        ), (str(pos), rules.name)
    n = _distinct_oracle_splits(pos, YIWUSHI_RULES[0])
    assert split_count(pos, True) == min(2, n), str(pos)
    event(f"{min(n, 2)} splits with 一五十")


def test_generator_produces_wins() -> None:
    """The strategy is biased towards wins: ≥ 25 % of 400 draws win (R23: 15 胡息)."""
    drawn: list[Position] = []

    @settings(max_examples=400, deadline=None, database=None)
    @given(positions())
    def collect(pos: Position) -> None:
        drawn.append(pos)

    collect()
    results = [oracle_huxi(p, HUNAN) for p in drawn]
    wins = sum(1 for h in results if h is not None and h >= HUNAN.min_huxi)
    losers = sum(1 for h in results if h is None)
    assert wins >= 0.25 * len(drawn), f"{wins}/{len(drawn)} winning positions"
    assert losers >= 0.1 * len(drawn), f"only {losers}/{len(drawn)} positions without a shape"


# A 20-card hand with a 坎 of 二 and no 跑/提 on the table (R17: 20 cards held).
KAN_HAND = "二二二四五六七八九壹贰叁肆伍陆柒捌玖拾拾"
POPAO_HAND = "二二二七十四五六壹贰叁肆伍陆柒捌玖拾拾拾"


@pytest.mark.parametrize(
    ("hand", "table", "win", "self_drawn", "huxi"),
    [
        # RULES §7: 坎 小二 + 小二 turned up by another player → 跑 6 (+ 壹贰叁 6) …
        (KAN_HAND, [], "二", False, 6 + 6),
        # … and self-drawn → 提 9.
        (KAN_HAND, [], "二", True, 9 + 6),
        # Pair + card → 碰 (1 小 / 3 大) or, self-drawn, 偎 (6 大); no 将 then (R22).
        (KAN_HAND, [], "拾", False, 3 + 6 + 3),
        (KAN_HAND, [], "拾", True, 3 + 6 + 6),
        # Nothing takes 一: no shape.
        (KAN_HAND, [], "一", False, None),
        # 破跑胡 (R27): keep the 坎 (3), the card goes into 二七十 (3); 跑 has no shape here.
        (POPAO_HAND, [], "二", False, 3 + 3 + 6 + 6),
        (POPAO_HAND, [], "二", True, 3 + 3 + 6 + 6),
        # R17: with a 提 already down a second 跑/提 (重跑) cannot win on that card, but
        # 破跑胡 can: 提一 9 + 坎二 3 + 二七十 3 + 壹贰叁 6 (+ 四五六, 肆伍陆, 将 拾拾).
        ("二二二七十四五六壹贰叁肆伍陆拾拾", ["ti:一"], "二", False, 9 + 3 + 3 + 6),
        ("二二二七八四五六壹贰叁肆伍陆拾拾", ["ti:一"], "二", True, None),
        # Table 偎 + card → 跑 (not self-drawn) / 提 (self-drawn); table 碰 + card → always 跑.
        ("四五六七八九壹贰叁肆伍陆柒捌玖拾拾", ["wei:二"], "二", False, 6 + 6),
        ("四五六七八九壹贰叁肆伍陆柒捌玖拾拾", ["wei:二"], "二", True, 9 + 6),
        ("四五六七八九壹贰叁肆伍陆柒捌玖拾拾", ["peng:二"], "二", True, 6 + 6),
    ],
)
def test_hand_made_completions(
    hand: str, table: list[str], win: str, self_drawn: bool, huxi: int | None
) -> None:
    """R17/R25/R27: figures quoted in RULES.md §7 and worked by hand; oracle and evaluator."""
    pos = Position.parse(hand, win, table, self_drawn=self_drawn)
    assert pos.win is not None
    assert oracle_huxi(pos, HUNAN) == huxi
    got = evaluator_for(HUNAN).best_huxi(pack(pos.hand), pos.table, int(pos.win), self_drawn)
    assert got == (-1 if huxi is None else huxi)
