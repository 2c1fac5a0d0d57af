"""胡牌判定内核 (the C kernel, core/_kernel.c) ≡ the Python evaluator, move for move (R22–R27).

The kernel is built by ``PAOHUZI_COMPILE=1`` (or ``=kernel``); on a pure install the
comparisons skip and only the fallback and the stamp checks run. CI runs this file
on both builds. Every comparison is against ``HandEvaluator(rules, native=False)``:
the same code path with the kernel left out.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from paohuzi._native import reason_for_no_kernel
from paohuzi.core import position, scoring, wang
from paohuzi.core.cards import CARDS, format_cards
from paohuzi.core.evaluator import (
    BIT,
    FOURS,
    KERNEL,
    KERNEL_KEYS,
    HandEvaluator,
    _all_keys,
    _SizeTable,
    evaluator_for,
    split_count,
)
from paohuzi.core.position import Position, PositionError
from paohuzi.core.rules import PRESETS, HuxiTable, Rules
from paohuzi.core.scoring import Settlement, settle
from presets.test_wang_oracle import pattern_positions, wild_positions
from strategies import positions
from test_score_vectors import VECTORS, position_input
from test_settle_fast import _forms, _spoilt, corpus

needs_kernel = pytest.mark.skipif(
    KERNEL is None, reason="needs the C kernel: PAOHUZI_COMPILE=kernel pip install -e ."
)
RULESETS = [pytest.param(r, id=name) for name, r in PRESETS.items()]
# Distinct 胡息 grids first: the presets share a few (hunan's is the shipped table).
GRIDS = list({r.huxi_table: r for r in PRESETS.values()}.values())


def _pair(rules: Rules) -> tuple[HandEvaluator, HandEvaluator]:
    native = evaluator_for(rules)
    assert native._kernel is not None
    return native, HandEvaluator(rules, native=False)


def _same(native: HandEvaluator, pure: HandEvaluator, pos: Position) -> None:
    """best, the settlement's analysis (groups and 胡息) and every 听牌 candidate agree."""
    assert native.best(pos) == pure.best(pos)
    assert native.analyse(pos) == pure.analyse(pos)
    if pos.win is None:
        return
    assert native.plan(pos) == pure.plan(pos)  # the kernel reads the position's fields
    t = native.summarize(pos.table_keys)
    for c in range(20):  # the engine's path: HandEvaluator._best through best_huxi
        for sd in (False, True):
            assert native.best_huxi(pos.packed, t, c, sd) == pure.best_huxi(pos.packed, t, c, sd)


@needs_kernel
def test_size_tables_match_the_shipped_table() -> None:
    """Every one-size key of the default grid: the C table's values (−1: no split)
    equal the Python table decoded from tabledata."""
    native, pure = _pair(PRESETS["hunan"])
    keys = _all_keys()[0]
    for size in (0, 1):
        table = pure.sizes[size]
        table.preload()
        for key in keys:
            e = table.entry(key)
            assert native._kernel.entry(size, key) == (max(e[0], -1), max(e[1], -1)), oct(key)


@needs_kernel
@pytest.mark.parametrize("rules", GRIDS, ids=lambda r: r.name)
def test_size_tables_match_the_recursion(rules: Rules) -> None:
    """Every preset's grid: sampled keys against a fresh Python table filled by its
    own recursion (_SizeTable._fill, no shipped bytes)."""
    native = evaluator_for(rules)
    keys = random.Random(7).sample(_all_keys()[0], 4000)
    for size, base in ((0, 0), (1, 10)):
        g = rules.huxi_table.grid()
        fresh = _SizeTable(
            run_val=tuple(g["ju123"][base] if p == 0 else g["ju"][base + p] for p in range(8)),
            v2710=g["ju2710"][base + 1],
            pair_val=tuple(g["pair"][base + p] for p in range(10)),
        )
        for key in keys:
            e = fresh._fill(key)
            assert native._kernel.entry(size, key) == (max(e[0], -1), max(e[1], -1)), oct(key)


@needs_kernel
@pytest.mark.parametrize("rules", RULESETS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=positions())
def test_generated_positions(rules: Rules, pos: Position) -> None:
    _same(*_pair(rules), pos)


@needs_kernel
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=positions())
def test_mandatory_tianhu_goes_to_the_python_path(pos: Position) -> None:
    """R28: with no winning card the kernel hands the position back; same answer."""
    assert pos.win is not None
    try:
        deal = Position((*pos.hand, pos.win), pos.table, None, tianhu=True)
    except PositionError:
        assume(False)  # the table's fours leave the dealer's count off (R17)
    _same(*_pair(PRESETS["hunan"]), deal)


@needs_kernel
@pytest.mark.parametrize("rules", RULESETS)
def test_score_vectors(rules: Rules) -> None:
    """The positions of score-vectors.json (RULES.md §7), under every preset."""
    native, pure = _pair(rules)
    for v in VECTORS:
        _same(native, pure, Position.from_dict(position_input(v)))


@needs_kernel
@given(packed=st.integers(0, (1 << 60) - 1), win=st.integers(0, 19), sd=st.booleans())
@settings(max_examples=300, deadline=None)
def test_any_packed_hand(packed: int, win: int, sd: bool) -> None:
    """Arbitrary 3-bit fields (counts up to 7, many 坎, no table): same answer."""
    native, pure = _pair(PRESETS["hunan"])
    for shape in ((False, True, False), (True, True, True), (False, False, True)):
        for gain in (-1, 0, 6):
            a = native._best(packed, 5, shape, gain, win, sd)
            b = pure._best(packed, 5, shape, gain, win, sd)
            assert a == b


@st.composite
def _concealed(draw: st.DrawFn) -> int:
    """A concealed hand as play holds one, packed: up to 21 cards, at most 3 of a kind
    (a fourth is a 提 on the table), 坎 and kinds held in both sizes (绞) often."""
    counts = draw(st.lists(st.integers(0, 3), min_size=20, max_size=20))
    while sum(counts) > 21:
        counts[counts.index(max(counts))] -= 1
    return sum(n << 3 * c for c, n in enumerate(counts))


def _priced(rules: Rules) -> Rules:
    """``rules`` with a 胡息 grid that prices every 句 and 绞 too (no preset prices a 绞:
    the 绞 choices of R33's sum run only under such a grid)."""
    rows = dict(rules.huxi_table.rows)
    rows |= {"ju": (1, 2, 1, 3), "jiao": (2, 3, 4, 5), "ju2710": (3, 6, 3, 6)}
    table = HuxiTable(tuple(rows.items()))
    return dataclasses.replace(rules, name=f"{rules.name}-priced", huxi_table=table)


@needs_kernel
@pytest.mark.parametrize(
    "rules", [*GRIDS, _priced(PRESETS["hunan"]), _priced(PRESETS["luzhou"])], ids=lambda r: r.name
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(packed=_concealed(), table_huxi=st.integers(0, 60))
def test_the_c_current_huxi_is_the_python_one(rules: Rules, packed: int, table_huxi: int) -> None:
    """R33 当前总息数 (the view's, the bots' and R30's): the kernel's ``current`` and
    the Python evaluator's sum agree on every hand play can hold."""
    native, pure = _pair(rules)
    c = native._kernel.current(packed, table_huxi)
    mask = packed & packed >> 1 & 0x249249249249249  # the 坎 (kan_mask)
    want = table_huxi + pure.kan_huxi(mask) + pure.partial_huxi(packed - 3 * mask)
    assert c == want
    summary = pure.summarize(())
    assert native.current_huxi(packed, summary) == pure.current_huxi(packed, summary)


@needs_kernel
def test_the_c_current_huxi_hands_back_what_it_does_not_read() -> None:
    """A count of 4 or more in a rest (never in play) is the Python path's (None); bad
    arguments are refused."""
    native, pure = _pair(PRESETS["hunan"])
    k = native._kernel
    four = 4 << 3 * 5 | 1 << 3 * 6
    assert k.current(four, 0) is None
    assert native.current_huxi(four, pure.summarize(())) == pure.current_huxi(
        four, pure.summarize(())
    )
    for args in [(1,), (1, 2, 3), ("1", 0), (1 << 60, 0), (-1, 0), (1, "0")]:
        with pytest.raises((TypeError, ValueError, OverflowError)):
            k.current(*args)
    assert k.current(0, 7) == 7


@needs_kernel
def test_bad_input_is_refused_and_changes_nothing() -> None:
    native = evaluator_for(PRESETS["hunan"])
    k = native._kernel
    packed = sum(1 << (3 * c) for c in (0, 1, 2, 10, 11, 12, 5))
    before = k.core(packed, 0, (False, True, False), -1, 5, False)
    with pytest.raises(ValueError, match="card kind"):
        k.core(packed, 0, (False, True, False), -1, 20, False)
    with pytest.raises(TypeError, match="shape"):
        k.core(packed, 0, (False, True), -1, 5, False)
    with pytest.raises(ValueError, match="20 fields"):
        k.core(1 << 61, 0, (False, True, False), -1, 5, False)
    with pytest.raises(OverflowError):
        k.core(-1, 0, (False, True, False), -1, 5, False)
    with pytest.raises(AttributeError):  # as the Python evaluator: not a Position
        k.best("not a position")
    with pytest.raises(ValueError, match="values expected"):
        size = ((0,) * 8, 0, (0,) * 10)
        grid = [(0,) * 20] * 5
        flat = [(0,) * 180] * 3
        type(k)(((0,) * 7, 0, (0,) * 10), size, (0,) * 10, *grid, *flat, len)  # 7 句 values
    assert k.core(packed, 0, (False, True, False), -1, 5, False) == before


# -- 算分 in C: the settlement's common path (core/scoring.py _settler, issue 27) --------
def _python_settlement(rules: Rules, p: Position, huang: int) -> Settlement:
    return scoring._in_python(scoring._scorer(rules), p, huang)


def _flagged(p: Position, flags: list[bool], wang: int = 0) -> Position:
    """``p`` with 海底, 地胡, 自摸 (and 王 / a 醒牌, 听胡) as drawn: every flag the memo
    keys on."""
    extra: dict[str, Any] = {"last_card": flags[0], "dihu": flags[1], "self_drawn": flags[2]}
    if len(flags) > 4 and flags[4]:  # 常德's 听胡, which only the engine knows (R36)
        extra["extra"] = (("tinghu", True),)
    if wang:
        hand = list(p.hand)
        del hand[:wang]
        extra |= {"hand": tuple(hand), "wang": wang}
    if flags[3]:
        extra["xing"] = (p.hand[0],) if p.hand else ()
    return dataclasses.replace(p, **extra)


C_SETTLED = [r for r in RULESETS if scoring._scorer(r.values[0]).native is not None]


@needs_kernel
def test_the_c_settlement_serves_every_preset() -> None:
    """The C path takes every preset: the 名堂 that read the split (对子胡, 行行息, 一块匾,
    二十卡 …) through the profile the kernel adds up, 听胡 from the position's extra;
    the best-score presets whose 名堂 read the split (常德, 娄底: R46) for hands that
    split one way."""
    assert [r.id for r in C_SETTLED] == list(PRESETS)
    search = {r.id for r in C_SETTLED if not scoring._scorer(r.values[0]).fast}
    assert search == {"changde", "loudi"}


@needs_kernel
@pytest.mark.parametrize("rules", C_SETTLED)
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pos=positions(),
    flags=st.lists(st.booleans(), min_size=5, max_size=5),
    wang=st.sampled_from([0, 0, 0, 1]),
    huang=st.integers(0, 3),
)
def test_the_c_settlement_is_the_python_one(
    rules: Rules, pos: Position, flags: list[bool], wang: int, huang: int
) -> None:
    """R22–R37, R46: where the C path answers, its settlement equals the Python path's
    field for field (门子 and their 胡息 too, made later from the plan it leaves out);
    once the Python path has filled the memos, the C path answers every position with a
    winning card and no 王 or 醒 (under rules that settle every split: that splits one
    way), so the comparison is not empty."""
    try:
        p = _flagged(pos, flags, wang)
    except PositionError:
        assume(False)  # 地胡 / 海底 with a 自摸 this position cannot have
    native = scoring._scorer(rules).native
    first = native(p, huang)
    want = _python_settlement(rules, p, huang)
    again = native(p, huang)
    ours = p.win is not None and not p.wang and not p.xing
    if ours and not scoring._scorer(rules).fast and want.win and split_count(p) > 1:
        # R46: answered unless another split is worth more than the best-胡息 one's
        ours = (want.groups, want.group_huxi) == _plan_split(rules, p)
    assert (again is not None) == ours
    for got in (first, again):
        if got is not None:
            assert got == want and got.to_dict() == want.to_dict()
            assert (got.groups, got.group_huxi) == (want.groups, want.group_huxi)
    assert settle(p, rules, huang) == want


def _plan_split(rules: Rules, p: Position) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """The 门子 of the evaluator's best-胡息 split and their 胡息."""
    ev = evaluator_for(rules)
    groups = ev.split(p, ev.plan(p)[1])
    return groups, tuple(g.huxi(rules) for g in groups)


@needs_kernel
@pytest.mark.parametrize("name", ["changde", "loudi"])
def test_the_c_settlement_searches_hands_of_several_splits(name: str) -> None:
    """R46 under 常德 and 娄底 (名堂 read the split): a hand of several splits settles in C
    when its best-胡息 split stays the best, comparing every split's (胡息, profile)
    through the memos; another split worth more goes to the Python path, which builds
    it (娄底's 二十卡/三十卡: a split of fewer 胡息 may be worth more; no such 常德 hand on
    the corpus). Each equal to the Python settlement."""
    rules = PRESETS[name]
    sc = scoring._scorer(rules)
    seen = {"c": 0, "python": 0}
    for p in corpus(4000, 23):
        if split_count(p) < 2:
            continue
        want = _python_settlement(rules, p, 0)
        got = sc.native(p, 0)
        if got is None:
            assert want.win and (want.groups, want.group_huxi) != _plan_split(rules, p)
        else:
            assert got == want and got.to_dict() == want.to_dict()
        seen["python" if got is None else "c"] += 1
    assert seen["c"] > 20 and (seen["python"] > 0 or name == "changde"), seen


@needs_kernel
@pytest.mark.parametrize("rules", GRIDS, ids=lambda r: r.name)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=positions())
def test_the_c_outcomes_are_the_python_ones(rules: Rules, pos: Position) -> None:
    """R25, R27, R46: every split's (胡息, profile) as the kernel finds them is the Python
    evaluator's set (which tests/test_settle_fast.py checks against every split listed)."""
    got = evaluator_for(rules)._kernel.outcomes_of(pos)
    assert got == HandEvaluator(rules, native=False).outcomes(pos)


@needs_kernel
@pytest.mark.parametrize("rules", C_SETTLED)
def test_the_c_settlement_of_the_score_vectors(rules: Rules) -> None:
    """The worked positions (RULES.md §7), 耍猴 among them: the Python path first, then
    the C path, which must answer each position it takes, and the same."""
    sc = scoring._scorer(rules)
    taken = 0
    for v in VECTORS:
        p = Position.from_dict(position_input(v))
        want = _python_settlement(rules, p, 0)
        got = sc.native(p, 0)
        if p.win is not None and not p.wang and not p.xing:
            assert got == want and got.to_dict() == want.to_dict(), v["name"]
            taken += 1
        assert settle(p, rules) == want
    assert taken >= len(VECTORS) // 2


@needs_kernel
def test_the_c_settlement_reads_the_python_memos_as_they_clear() -> None:
    """The templates and colour ids are the Python path's objects, cleared as a full memo
    is: a template the C path misses it asks of the Python code; a colour count not
    asked yet it leaves to the Python path (None), which asks it again."""
    rules = PRESETS["hunan"]
    sc = scoring._scorer(rules)
    wins = [p for p in corpus(300, 3) if settle(p, rules).win]
    assert wins
    p = wins[0]
    want = settle(p, rules, 2)
    assert sc.native(p, 2) == want
    sc.won.clear()
    assert sc.native(p, 2) == want and sc.won  # the template made again (scoring._missed)
    red = sc.ids[0][:]
    sc.ids[0][:] = [-1] * len(red)  # the colour 名堂 of every red count forgotten
    assert sc.native(p, 2) is None
    assert settle(p, rules, 2) == want and sc.native(p, 2) == want


@needs_kernel
def test_the_c_settlement_makes_the_template_of_a_known_key_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R32, R34: a memo key whose 名堂 are known, met with a 胡息 or 荒庄 count not seen
    with it yet, gets its template from the C path (等, 底 and 黄番 added up as
    scoring._won does), not from a call of the Python code; a key not known yet still
    goes to scoring._missed. Each equal to the Python settlement."""
    rules = PRESETS["hunan"]
    sc = scoring._scorer(rules)
    wins = [p for p in corpus(600, 8) if settle(p, rules).win]
    asked: list[Any] = []
    real = scoring._missed
    # each key asked of Python, and whether its 名堂 were known then
    monkeypatch.setattr(scoring, "_missed", lambda *a: asked.append(a[2] in sc.memo) or real(*a))
    native = scoring._settler(sc)  # a Settler of its own on sc's memos, asking this miss
    made = 0
    for p in wins:
        for huang in (0, 1, 5):
            sc.won.clear()
            before = len(asked)
            got = native(p, huang)
            want = scoring._settle(p, rules, huang)
            if got is None:  # a colour count or read key not asked yet: Python's path
                assert settle(p, rules, huang) == want
                continue
            assert got == want and got.to_dict() == want.to_dict()
            made += len(asked) == before  # no Python call: made in C
    assert made > len(wins) and not any(asked), (made, asked)  # Python: only new keys


@needs_kernel
def test_the_c_settlement_refuses_bad_input_and_changes_nothing() -> None:
    rules = PRESETS["hunan"]
    sc = scoring._scorer(rules)
    p = next(p for p in corpus(200, 5) if settle(p, rules).win)
    want = settle(p, rules)
    memo = (dict(sc.won), [ids[:] for ids in sc.ids], dict(sc.below))
    with pytest.raises(AttributeError):
        sc.native("not a position", 0)
    with pytest.raises(TypeError, match="2 arguments"):
        sc.native(p)
    with pytest.raises(TypeError, match="unhashable"):
        sc.native(p, [])  # 荒庄 is part of the memo's key, as in Python
    made = {
        "kernel": sc.ev._kernel,
        "rules": rules,
        "min_huxi": 10,
        "ids": sc.ids,
        "won": {},
        "below": {},
        "not_winning": None,
        "shared": scoring._Shared,
        "colour": True,
        "miss": scoring._missed,
        "rmask": sc.rmask,
        "rids": {},
        "tinghu": False,
        "search": False,
    }
    for change, error in (
        ({"shared": int}, "_t is not a slot"),
        ({"ids": ({}, [], [])}, "3 lists"),
        ({"ids": ([], [])}, "3 lists"),
        ({"miss": 3}, "callable"),
        ({"won": []}, "dict"),
        ({"rids": []}, "dict"),
    ):
        with pytest.raises(TypeError, match=error):
            KERNEL.Settler(**(made | change))
    for change, error in (({"rmask": -1}, "rmask"), ({"rmask": 1 << 62}, "rmask")):
        with pytest.raises(ValueError, match=error):
            KERNEL.Settler(**(made | change))
    # the refusals at sight (core/refusals.py as data) and what each live set reads
    two = {"masks": (0, sc.rmask)}
    for change, error in (
        ({"masks": (sc.rmask,)}, "power of 2"),
        ({"masks": (0, 0, sc.rmask)}, "power of 2"),
        ({"masks": (0, 0)}, "the last rmask"),
        ({"masks": (1 << 61, sc.rmask)}, "parts of rmask"),
        (two | {"sights": ((2, 0, 0, 0),)}, "a bit of a live set"),
        (two | {"sights": ((1, 9, 0, 0),)}, "a known test"),
    ):
        with pytest.raises(ValueError, match=error):
            KERNEL.Settler(**(made | change))
    with pytest.raises(TypeError, match="sights"):
        KERNEL.Settler(**(made | two | {"sights": ((1, 0),)}))
    # what the C path reads to make a template of a known memo key (scoring._templates)
    t = scoring._templates(sc)
    assert t is not None and KERNEL.Settler(**(made | {"templates": t}))
    for bad, exc, error in (
        (t[:7], TypeError, "templates: \\(memo"),
        ((*t[:2], Settlement.__slots__[:-1], *t[3:]), ValueError, "17 slots"),
        ((*t[:4], 0, *t[5:]), ValueError, "17 slots, a step of at least 1"),
        ((*t[:7], (2,) * 9), ValueError, "at most 8"),
        ((*t[:7], (-1,)), ValueError, "a 黄番 of 0"),
        ((*t[:2], tuple(reversed(Settlement.__slots__)), *t[3:]), ValueError, "slot 0"),
        ((*t[:2], ("_win",) * 17, *t[3:]), ValueError, "slot 1 must be _huxi"),
        ((*t[:1], int, *t[2:]), AttributeError, "_win"),
        ((*t[:1], type("Plain", (), dict.fromkeys(t[2])), *t[2:]), TypeError, "not a slot"),
    ):
        with pytest.raises(exc, match=error):
            KERNEL.Settler(**(made | {"templates": bad}))
    assert KERNEL.Settler(**(made | two | {"sights": ((1, 0, 0, 0),)}))
    bare = _bare_kernel()  # a kernel made without the profiles: no split-reading 名堂
    with pytest.raises(ValueError, match="without profiles"):
        KERNEL.Settler(**(made | {"kernel": bare, "rmask": 15 << 4}))
    with pytest.raises(ValueError, match="without profiles"):
        bare.profile_of(p)
    assert KERNEL.Settler(**(made | {"kernel": bare, "rmask": 0}))  # (nothing to add up)
    assert (dict(sc.won), [ids[:] for ids in sc.ids], dict(sc.below)) == memo
    assert sc.native(p, 0) == want


def _bare_kernel() -> Any:
    """A kernel for the hunan grid made without profiles (the argument is optional)."""
    ev = evaluator_for(PRESETS["hunan"])
    small, big = ev.sizes
    g = ev.grid
    return KERNEL.Kernel(
        (small.run_val, small.v2710, small.pair_val),
        (big.run_val, big.v2710, big.pair_val),
        ev.jiao_val,
        *(g[k] for k in ("peng", "wei", "kan", "pao", "ti")),
        ev._flat[:KERNEL_KEYS],  # (the kernel's keys: every row before 一五十's)
        ev._gain_pao[:KERNEL_KEYS],
        ev._gain_ti[:KERNEL_KEYS],
        ev._at_deal,
    )


@needs_kernel
@pytest.mark.parametrize("rules", GRIDS, ids=lambda r: r.name)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=positions())
def test_the_c_profile_and_split_count_are_the_python_ones(rules: Rules, pos: Position) -> None:
    """R26, R36, R46: the profile of the best split the kernel adds up (what the 名堂
    reading the split see) is the Python evaluator's and the built split's; its count of
    distinct splits is ``split_count``'s — under every 胡息 grid."""
    from paohuzi.core.profile import of_split

    k = evaluator_for(rules)._kernel
    py = HandEvaluator(rules, native=False)
    assert k.split_count_of(pos) == split_count(pos)
    if pos.win is None:
        with pytest.raises(ValueError, match="winning card"):
            k.profile_of(pos)
        return
    _, plan = py.plan(pos)
    got = k.profile_of(pos)
    if plan is None:
        assert got is None
        return
    groups = py.split(pos, plan)
    assert got == py.profile(pos, plan) == of_split(groups, [g.huxi(rules) for g in groups])


@needs_kernel
def test_the_c_profile_on_the_corpus() -> None:
    """The same on the benchmark's corpus, hands of two splits among them."""
    seen = [0, 0, 0]
    for rules in GRIDS:
        k, py = evaluator_for(rules)._kernel, HandEvaluator(rules, native=False)
        for pos in corpus(1500, 17):
            n = k.split_count_of(pos)
            assert n == split_count(pos)
            seen[n] += 1
            _, plan = py.plan(pos)
            assert k.profile_of(pos) == (None if plan is None else py.profile(pos, plan))
    assert all(seen), seen


# -- 王 in C: the search's most 胡息 (core/wang.py most_huxi, issue 27) ------------------
# Cards of 门子 a rest is made of: 句, 二七十, 绞, 将, three and four alike.
_PIECES = [
    *((s + i, s + i + 1, s + i + 2) for s in (0, 10) for i in range(8)),
    (1, 6, 9),
    (11, 16, 19),
    *((p, p, p + 10) for p in range(10)),
    *((p, p + 10, p + 10) for p in range(10)),
    *((c, c) for c in range(20)),
    *((c,) * 3 for c in range(20)),
    *((c,) * 4 for c in range(20)),
]


@st.composite
def _rests(draw: st.DrawFn) -> tuple[tuple[int, ...], int, int]:
    """A rest made of ``need`` 门子 with up to four cards turned into 王 (counts ≤ 7),
    or, one time in four, any counts."""
    need = draw(st.integers(0, 7))
    if draw(st.integers(0, 3)) == 0:
        return tuple(draw(st.lists(st.integers(0, 3), min_size=20, max_size=20))), 0, need
    cards = [c for _ in range(need) for c in draw(st.sampled_from(_PIECES))]
    w = draw(st.integers(0, min(4, len(cards))))
    for _ in range(w):
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    r = [0] * 20
    for c in cards:
        r[c] += 1
    assume(max(r) <= 7)
    return tuple(r), w, need + draw(st.sampled_from([0, 0, 0, -1, 1]))


@needs_kernel
@pytest.mark.parametrize("rules", GRIDS, ids=lambda r: r.name)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rest=_rests(), pair_free=st.booleans())
def test_the_c_wild_search_is_the_python_one(
    rules: Rules, rest: tuple[tuple[int, ...], int, int], pair_free: bool
) -> None:
    """R40, R46: the most 胡息 per (将, four) of a rest — 门子 with some cards turned into
    王, or any counts — into a number of 门子 equals the Python search's, under every
    胡息 grid."""
    r, w, need = rest
    assume(0 <= need <= 7)
    packed = sum(n << 3 * k for k, n in enumerate(r))
    assert wang._wild_kernel(rules).most(packed, w, pair_free, need) == wang._most(
        packed, w, pair_free, need, rules
    )


@needs_kernel
def test_a_rest_with_no_wang_left_is_read_from_the_size_tables_or_walked() -> None:
    """R22, R40: a rest with no 王 left is read from the grid's size tables, which know one
    绞 a point; one holding a point thrice in both sizes (两绞: 一一壹 and 一壹壹, never in
    play) is walked, and a Wild made without the tables walks every rest alike."""
    rules = PRESETS["yongzhou"]
    k = wang._wild_kernel(rules)
    *args, kinds, _ = wang._wild_parts(rules)
    bare = KERNEL.Wild(*args, loose_kinds=kinds)  # no size tables: every rest walked
    two_jiao = 3 * BIT[0] + 3 * BIT[10]
    for packed, need in ((two_jiao, 2), (BIT[1] + BIT[2] + BIT[3] + 2 * BIT[14], 2), (BIT[5], 1)):
        for pair_free in (False, True):
            want = wang._most(packed, 0, pair_free, need, rules)
            assert (
                k.most(packed, 0, pair_free, need) == want == bare.most(packed, 0, pair_free, need)
            )
    assert k.most(two_jiao, 0, False, 2)[0] is not None  # the two 绞
    with pytest.raises(TypeError):
        KERNEL.Wild(*args, sizes=object())


_WILD_RULES = {
    "hengyang": (PRESETS["hengyang"], 4),  # 5 门子 (R43)
    "yongzhou": (PRESETS["yongzhou"], 3),
    "guilin+patterns": (PRESETS["guilin"].replace(wang_fan=(4, 8, 8, 16, 16, 32)), 2),
    # classes told apart by red, big and 醒 (大字胡/小字胡 read the sizes: axes 3)
    "hengyang+sizes": (
        PRESETS["hengyang"].replace(
            mingtang=tuple(
                m
                for m in PRESETS["hunan"].mingtang
                if m.id in ("honghu", "dianhu", "wuhu", "dazihu", "xiaozihu")
            )
        ),
        3,
    ),
}


@st.composite
def _table_up(draw: st.DrawFn) -> Position:
    """A hand of 碰/偎 on the table (none a four yet), 句 and a 将 in hand, some cards
    turned into 王, winning often on a table meld's kind: the readings that upgrade
    a table meld to 跑/提 (R25) and lift another 偎 with a 王 (R40)."""
    from paohuzi.core.melds import Group, GroupKind

    kinds = draw(st.lists(st.integers(0, 19), min_size=1, max_size=3, unique=True))
    table = tuple(
        Group.of(draw(st.sampled_from([GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI])), k)
        for k in kinds
    )
    runs = [x for x in _PIECES if len(x) == 3]
    hand = [c for _ in range(6 - len(kinds)) for c in draw(st.sampled_from(runs))]
    hand += [draw(st.integers(0, 19))] * 2
    n = draw(st.integers(0, min(3, len(hand) - 1)))
    for _ in range(n):
        hand.pop(draw(st.integers(0, len(hand) - 1)))
    win = draw(st.sampled_from(kinds)) if draw(st.booleans()) else draw(st.integers(0, 19))
    try:
        return Position(
            tuple(CARDS[c] for c in hand), table, CARDS[win], self_drawn=draw(st.booleans()), wang=n
        )
    except PositionError:
        assume(False)
        raise


@needs_kernel
@pytest.mark.parametrize("rules", GRIDS, ids=lambda r: r.name)
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=_table_up())
def test_the_c_wild_readings_of_table_melds_are_the_python_ones(rules: Rules, p: Position) -> None:
    """R25, R40: a table 碰/偎 made a 跑/提 by the winning card, another 偎 lifted to a 提
    by a 王 (not the one just upgraded): the C readings' most 胡息 is Python's."""
    assert wang.most_huxi(p, rules) == wang._most_huxi(p, rules)


@needs_kernel
@pytest.mark.parametrize("name", _WILD_RULES)
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_c_wild_readings_are_the_python_ones(name: str, data: st.DataObject) -> None:
    """R25, R40, R41: ``Wild.most_of`` — the readings of a hand with 王 (the winning card
    joining the rest, a 碰/偎 or 坎 made a four, a 王 drawn lifting a 碰/偎, a 坎 taking a
    王 to a 提, a table 偎 lifted, a pattern's fixed group) and their rests searched —
    gives the Python readings' most 胡息, for hands with and without 王 patterns."""
    rules, most = _WILD_RULES[name]
    if rules.wang_fan and data.draw(st.booleans()):
        p = data.draw(pattern_positions(rules))
    else:
        p = data.draw(wild_positions(rules, most))
    assert wang.most_huxi(p, rules) == wang._most_huxi(p, rules)


def _classes_both(p: Position, rules: Rules, xing: tuple[int, ...]) -> None:
    """``Wild.classes_of`` gives ``wang._split_classes``' answer: the most 胡息 and, per
    class, the same first best split (胡息, reading, path, 王 kinds)."""
    px = dataclasses.replace(p, xing=tuple(CARDS[c] for c in xing))
    most, found = wang.split_classes(px, rules)  # the kernel's (no four alike in hand)
    want_most, want = wang._split_classes(px, rules, tuple(xing.count(c) for c in range(20)))
    assert most == want_most
    assert sorted(found) == sorted(want)


@needs_kernel
@pytest.mark.parametrize("name", _WILD_RULES)
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_c_wild_classes_are_the_python_ones(name: str, data: st.DataObject) -> None:
    """R40, R42, R46: ``Wild.classes_of`` — every reading's rest walked in ``_solve``'s
    order, the splits kept per red, big and 醒 count of what their 王 became — keeps
    the Python classes' splits, with and without 王 patterns and 醒牌 (one turned twice
    too), and table melds upgraded or lifted."""
    rules, most = _WILD_RULES[name]
    pick = data.draw(st.integers(0, 2))
    if pick == 0 and rules.wang_fan:
        p = data.draw(pattern_positions(rules))
    elif pick == 1:
        p = data.draw(_table_up())
    else:
        p = data.draw(wild_positions(rules, most))
    assume(not p.packed & FOURS)
    xing = tuple(data.draw(st.lists(st.integers(0, 19), max_size=3)))
    _classes_both(p, rules, xing)


@needs_kernel
def test_the_c_wild_search_finds_splits_and_refuses_bad_input() -> None:
    rules = PRESETS["yongzhou"]
    k = wang._wild_kernel(rules)
    r = [0] * 20
    r[0] = r[1] = r[2] = 1  # 一二三 and two 王 left: the 将 of any kind
    packed = sum(n << 3 * c for c, n in enumerate(r))
    got = k.most(packed, 2, True, 2)
    assert got == wang._most(packed, 2, True, 2, rules) and got[2] is not None
    assert k.most(packed, 2, False, 2) == (None, None, None, None)  # no 将 allowed: none
    for bad, error in (
        ((-1, 0, True, 1), OverflowError),
        ((1 << 61, 0, True, 1), ValueError),
        ((packed, 8, True, 1), ValueError),
        ((packed, 0, True, -1), ValueError),
        (("x", 0, True, 1), TypeError),
    ):
        with pytest.raises(error):
            k.most(*bad)
    with pytest.raises(TypeError, match="4 arguments"):
        k.most(packed, 0)
    p = Position.parse("一二三四五六七八九壹贰叁肆伍陆柒捌拾王王", "玖", [], self_drawn=True)
    args = (p.packed, (), int(p.win), True, 2, False, 0, 7)
    assert k.most_of(*args) == wang._most_huxi(p, rules) == wang.most_huxi(p, rules) >= 0
    for i, v in ((0, 1 << 61), (1, (1,) * 8), (1, (180,)), (2, 20), (4, 8), (6, 4), (7, 0)):
        with pytest.raises(ValueError if i != 1 or v == (180,) else TypeError):
            k.most_of(*args[:i], v, *args[i + 1 :])
    with pytest.raises(TypeError, match="8 arguments"):
        k.most_of(*args[:7])
    # most_in: the same search, the fields read off a Position (or anything with them)
    assert k.most_in(p) == k.most_of(*args)
    fields = dict(packed=p.packed, table_keys=(), win=p.win, self_drawn=True, wang=2)
    fields |= dict(win_wang=False, pattern=None, hand_size=20)
    assert k.most_in(SimpleNamespace(**fields)) == k.most_of(*args)
    four = fields | {"packed": p.packed - (1 << 3 * 5) + (3 << 3 * 4)}  # 五 held four times
    assert k.most_in(SimpleNamespace(**four)) is None  # (wang.py answers: R12 never plays it)
    for bad, error in (
        ({"hand_size": 40}, ValueError),
        ({"hand_size": "20"}, TypeError),
        ({"table_keys": [1]}, TypeError),
        ({"win": 20}, ValueError),
        ({"packed": -1}, OverflowError),
    ):
        with pytest.raises(error):
            k.most_in(SimpleNamespace(**(fields | bad)))
    with pytest.raises(AttributeError):
        k.most_in(SimpleNamespace(packed=p.packed))
    assert k.most_in(p) == k.most_of(*args)  # nothing kept from the refusals
    flat, loose = [0] * 180, [[0]] * 3
    with pytest.raises(ValueError, match="20"):
        KERNEL.Wild([[]] * 19, [[0] * 20] * 3, flat, loose)
    with pytest.raises(ValueError, match=r"0\.\.19"):
        KERNEL.Wild([[((20,), 0, 3)]] * 20, [[0] * 20] * 3, flat, loose)
    with pytest.raises(ValueError):
        KERNEL.Wild([[]] * 20, [[0] * 19] * 3, flat, loose)
    with pytest.raises(ValueError, match="values expected"):
        KERNEL.Wild([[]] * 20, [[0] * 20] * 3, [0] * 179, loose)
    for bad in ([[0]] * 2, [[0], [], [0]], [[0], [0] * 65, [0]], [[0], [5000], [0]], [[0], 3, [0]]):
        with pytest.raises((ValueError, TypeError)):
            KERNEL.Wild([[]] * 20, [[0] * 20] * 3, flat, bad)
    assert k.most(packed, 2, True, 2) == got  # nothing changed
    with pytest.raises(TypeError, match="10 arguments"):
        k.classes_of(*args, 0)
    with pytest.raises(ValueError, match="packed"):
        k.classes_of(*args, 1 << 61, 3)
    for axes in (-1, 4):
        with pytest.raises(ValueError, match="axes"):
            k.classes_of(*args, 0, axes)
    bare = KERNEL.Wild([[]] * 20, [[0] * 20] * 3, flat, [[0] * 20, [0] * 58, [0] * 20])
    with pytest.raises(ValueError, match="loose_kinds"):
        bare.classes_of(*args, 0, 3)  # made without the loose groups' kinds
    for bad in ([[(0, 0)]] * 3, [[(0, 0)] * 20, [(0, 0, 20)] * 58, [(0,) * 4] * 20]):
        with pytest.raises(ValueError, match="loose_kinds"):
            KERNEL.Wild([[]] * 20, [[0] * 20] * 3, flat, [[0] * 20, [0] * 58, [0] * 20], bad)
    most, found = k.classes_of(*args, 0, 3)
    assert most == k.most_of(*args) and max(c[3] for c in found) == most


# -- 局面 read straight in C (Position.from_dict's common form, issue 27) --------------
def _read_outcome(read: Any, d: object, hand_size: object = 20) -> tuple[object, ...]:
    """What a reader gives: None, the position's dict in order (its hand not yet made),
    or the error."""
    try:
        p = read(d, hand_size)
    except Exception as e:
        return ("error", type(e), str(e))
    return ("none",) if p is None else ("ok", type(p), list(vars(p).items()))


def _same_read(d: object, hand_size: object = 20) -> tuple[object, ...]:
    fast = _read_outcome(position._read_fast, d, hand_size)
    assert fast == _read_outcome(position._read, d, hand_size), d
    return fast


@needs_kernel
def test_from_dict_reads_with_the_kernel() -> None:
    assert type(position._read_fast).__name__ == "Reader"


def test_a_pure_install_reads_with_python() -> None:
    if KERNEL is None:
        assert position._read_fast is position._read


@needs_kernel
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    p=positions(),
    rng=st.randoms(use_true_random=False),
    flags=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_the_c_reader_reads_as_python(p: Position, rng: random.Random, flags: list[bool]) -> None:
    """R1, R12, R17: the C reader and ``_read`` agree field for field, in the same
    order (or both hand the line to the constructor's path) on every form a program
    or a person writes and on each damage a line may carry."""
    extra = (("tinghu", True),) if flags[3] else ()
    q = Position(p.hand, p.table, p.win, flags[0], flags[1], flags[2], extra=extra)
    for form in _forms(q, rng):
        # as a program builds it (its keys interned) and as a JSON line reads (not)
        for d in (form, json.loads(json.dumps(form, ensure_ascii=False))):
            got = _same_read(d)
            assert got[0] == "ok"
            p2 = position._read_fast(d, 20)
            assert p2 == q and vars(p2)["facts"] == q.facts
            assert vars(p2)["card_bits"] == q.card_bits
            assert Position.from_dict(d) == q
            _same_read(_spoilt(d, rng))


# Tokens near the ASCII codes the C reader reads in place (x1…x10, d1…d10, upper-case
# too) and separators str.split() splits on, for the hand of a line.
_NEAR = ["x1", "X10", "d10", "D7", "x0", "x01", "x11", "d100", "y3", "x", "10", "一", "xx1"]
_GAPS = [" ", "  ", "\t", "\n", "\x1c", "\x1f", "\x0b", "", "\xa0", "\u3000"]


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(
    tokens=st.lists(st.sampled_from(_NEAR), min_size=1, max_size=16),
    gaps=st.lists(st.sampled_from(_GAPS), min_size=17, max_size=17),
)
def test_the_c_reader_reads_ascii_codes_as_python(tokens: list[str], gaps: list[str]) -> None:
    """The C reader's in-place read of ASCII codes between spaces gives what ``_read``
    gives (a card count, None for the constructor's path, or an error) for hands of
    codes, near-codes and any of the separators ``str.split`` knows, ASCII or not."""
    hand = gaps[0] + "".join(t + g for t, g in zip(tokens, gaps[1:], strict=False))
    d = {"hand": hand, "table": ["ti:x5", "peng:d6", "pao:d9"], "win": "x3"}
    for size in (20, len(tokens) + 10):
        _same_read(d, size)


class _Str(str):
    pass


@needs_kernel
def test_the_c_reader_refuses_what_python_refuses() -> None:
    """Odd input: the same None (the constructor's path then speaks) or error."""
    base = Position.parse("一二三四五六七八九十壹贰叁", "伍", ["ti:拾", "peng:陆"]).to_dict()
    odd: list[tuple[object, object]] = [
        (base, True),  # a bool is no deal size
        (base, 2**80),
        (base, -1),
        ({**base, "extra": {"b": 1, "a": 2}}, 20),
        ({**base, "extra": {1: 1, "a": 2}}, 20),  # unsortable: the same TypeError
        ({**base, "table": [*base["table"], ["peng:x1"]]}, 20),  # not a meld text
        ({**base, "table": [*base["table"], _Str("peng:x1")]}, 20),
        ({**base, "table": (*base["table"],)}, 20),  # a tuple is not the JSON list
        ({**base, "table": ["peng:x1"] * 8}, 20),
        ({**base, "hand": ""}, 20),
        ({**base, "hand": "一二三 w"}, 20),
        ({**base, "hand": base["hand"] + " x1"}, 21),
        ({**base, "win": "  x5  "}, 20),
        ({**base, "win": "x5 x6"}, 20),
        ({**base, "win": 5}, 20),
        ({k: v for k, v in base.items() if k != "hand"}, 20),
        ({**base, 1: 2}, 20),
        ({**base, "self_drawn": 1}, 20),
        ({**base, "wang": 1}, 20),
        ({**base, "händ": 1}, 20),  # a key no field is, not ASCII
        ({**base, "hand ": 1}, 20),
        ({**base, "extrA": {}}, 20),  # a field's name but its last letter
        ({(_Str(k) if k == "hand" else k): v for k, v in base.items()}, 20),  # equal to one
        ({**base, _Str("colour"): 1}, 20),
    ]
    for d, n in odd:
        _same_read(d, n)
    assert _same_read(base)[0] == "ok"
    assert position._read_fast("not a dict", 20) is None  # from_dict's path then refuses it
    with pytest.raises(PositionError, match="JSON object"):
        Position.from_dict("not a dict")  # type: ignore[arg-type]


class _Sub(Position):
    pass


def test_from_dict_reads_every_form_and_refuses_bad_calls() -> None:
    """``Position.from_dict`` (a classmethod over the C reader when the kernel is built,
    Python otherwise): the same position as the constructor's path for the common form
    and any other, the deal size by position or keyword, a subclass made as itself,
    and a call with the wrong arguments refused."""
    base = Position.parse("一二三四五六七八九十壹贰叁", "伍", ["ti:拾", "peng:陆"])
    d = base.to_dict()
    for form in (d, {**d, "hand": format_cards(base.hand)}, {**d, "xing": ["x1"]}):
        assert Position.from_dict(form) == Position._from_dict(form)
    assert Position.from_dict(d, 20) == Position.from_dict(d, hand_size=20) == base
    small = Position._from_dict(
        {"hand": "一二三四五六七八", "win": "九", "table": ["peng:拾", "peng:壹"]}, 14
    )
    assert Position.from_dict(small.to_dict(), hand_size=14) == small
    with pytest.raises(PositionError, match="hand size"):
        Position.from_dict(small.to_dict())  # a 14-card hand read as a 20-card deal
    sub = _Sub.from_dict(d)
    assert type(sub) is _Sub and sub == _Sub._from_dict(d)
    with pytest.raises(PositionError, match="JSON object"):
        Position.from_dict(["hand"])  # type: ignore[arg-type]
    for args, kwargs in (
        ((), {}),
        ((d, 20, 1), {}),
        ((d, 20), {"hand_size": 20}),
        ((d,), {"size": 20}),
    ):
        with pytest.raises(TypeError):
            Position.from_dict(*args, **kwargs)  # type: ignore[misc]
    if KERNEL is not None:  # the classmethod is the reader's
        assert Position.from_dict.__func__ == position._read_fast.from_dict  # type: ignore[attr-defined]


@needs_kernel
def test_the_c_reader_keeps_its_melds_while_the_cache_clears() -> None:
    """The meld cache is bounded (4,096): a read whose new melds clear it midway still
    holds the ones it read before (and reads as Python does)."""
    position._MELDS.clear()
    for i in range(4095):  # one short of the bound: the next new meld clears it
        position._MELDS[f"filler{i}"] = position._MELDS.get("peng:x1") or position._meld("peng:x1")  # type: ignore[assignment]
    d = Position.parse("一二三四五六七八九十", "贰", ["peng:叁", "wei:肆", "ti:拾"]).to_dict()
    got = _read_outcome(position._read_fast, d)
    position._MELDS.clear()
    assert got[0] == "ok" and got == _read_outcome(position._read, d)
    assert position._read_fast(d, 20) == Position._from_dict(d)


@needs_kernel
def test_the_c_reader_reads_a_meld_text_again_as_python() -> None:
    """The C reader keeps the melds it read by their ASCII text (512 slots, found by a
    hash of the bytes, a text replacing another in its slot): every table meld of a
    corpus, lower- and upper-case codes, read alone with each deal size and three
    times in shuffled orders (slots filled, hit and replaced), reads as ``_read``. (Only
    a str not hashed yet — a JSON line's — is read through the slots.)"""
    texts: set[str] = set()
    for p in corpus(3000, 5):
        texts.update(p.to_dict()["table"])
    texts |= {t.replace("x", "X").replace("d", "D") for t in texts}
    assert len(texts) > 200  # more than a few texts share a slot among 512
    order = sorted(texts)
    ok = 0
    for seed in range(3):
        random.Random(seed).shuffle(order)
        for t in order:
            for size in range(3, 9):
                # fresh strs, as a JSON line gives (a str hashed before is looked up)
                d = json.loads(json.dumps({"hand": "x1 x2 x3", "table": [t], "win": "d5"}))
                ok += _same_read(d, size)[0] == "ok"
    # each read whole at its own deal size, but those that make five of a hand card or
    # of the winning card (both readers refuse those: R1)
    assert ok >= 0.9 * 3 * len(texts)


def test_without_the_extension_the_python_evaluator_runs() -> None:
    """The fallback: with paohuzi.core._kernel absent, the evaluator imports and scores
    a position with its Python code (what a pure install does)."""
    code = (
        "import sys\n"
        "sys.modules['paohuzi.core._kernel'] = None\n"  # as if it had never been built
        "import paohuzi\n"
        "from paohuzi import Position, evaluate, preset\n"
        "from paohuzi.core.evaluator import KERNEL, evaluator_for\n"
        "assert KERNEL is None and evaluator_for(preset('hunan'))._kernel is None\n"
        "assert not paohuzi._native.kernel()\n"
        "pos = Position.parse('四五六八八九十壹贰叁捌', win='八',"
        " table=['peng:拾', 'chi:一二三', 'wei:七'])\n"
        "r = evaluate(pos, preset('hunan'))\n"
        "print(r.win, r.huxi)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "15"]


def _kernel_dir(tmp_path: Path, source: bool = True, ext: bool = True) -> dict[str, str]:
    stamp = {}
    if source:
        src = tmp_path / "_kernel.c"
        src.write_text("/* kernel */\n", encoding="utf-8")
        stamp["_kernel"] = hashlib.sha256(src.read_bytes()).hexdigest()
    if ext:
        (tmp_path / "_kernel.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
        (tmp_path / "_kernel.abi3.so").write_bytes(b"")
    return stamp


def test_stale_kernel_is_never_used(tmp_path: Path) -> None:
    stamp = _kernel_dir(tmp_path)
    assert reason_for_no_kernel(tmp_path, stamp) is None
    assert reason_for_no_kernel(tmp_path, stamp, pure=True) == "PAOHUZI_PURE is set"
    assert "changed" in (reason_for_no_kernel(tmp_path, None) or "")
    (tmp_path / "_kernel.c").write_text("/* edited */\n", encoding="utf-8")
    assert "core/_kernel.c changed" in (reason_for_no_kernel(tmp_path, stamp) or "")


def test_no_extension_or_no_source(tmp_path: Path) -> None:
    _kernel_dir(tmp_path, ext=False)
    assert reason_for_no_kernel(tmp_path, None, pure=True) is None  # nothing built
    other = tmp_path / "wheel"
    other.mkdir()
    _kernel_dir(other, source=False)  # a wheel: the extension without its source
    assert reason_for_no_kernel(other, None) is None


@pytest.mark.parametrize(
    ("value", "mode", "mypy"),
    [("", "", False), ("0", "", False), ("kernel", "kernel", False), ("1", "all", True)],
)
def test_compile_switch(monkeypatch: pytest.MonkeyPatch, value: str, mode: str, mypy: bool) -> None:
    """PAOHUZI_COMPILE: unset/0 pure, ``kernel`` the C kernel alone (no mypy fetched),
    anything else mypyc and the kernel (the build backend adds mypy)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "build_backend"))
    try:
        import paohuzi_backend as backend
    finally:
        sys.path.pop(0)
    monkeypatch.setenv("PAOHUZI_COMPILE", value)
    assert backend.compile_mode() == mode
    assert backend.compile_requested() == bool(mode)
    assert (backend.MYPYC in backend._extra()) == mypy


# -- settle's front door (scoring.settle through _kernel.Front, issue 27) -------------
@needs_kernel
def test_the_settle_front_door_reads_as_the_function_and_settles_alike() -> None:
    """R34–R37: ``scoring.settle`` on a kernel build is the C front door — a call with
    the rules of the call before goes straight to their Settler — and gives what the
    unmemoised reference settles, for every preset in turn, positionally and with
    keywords, with 荒庄, for 王 hands (handed back to Python) and hands that do not win;
    it reads as the Python function (name, doc, signature) and pickles by name."""
    import inspect
    import pickle

    front = scoring.settle
    assert isinstance(front, KERNEL.Front)
    assert front.__name__ == "settle" and front.__doc__ == scoring._settle_slow.__doc__
    assert inspect.signature(front) == inspect.signature(scoring._settle_slow)
    assert pickle.loads(pickle.dumps(front)) is front
    ps = corpus(120, 11)
    wilds = [dataclasses.replace(p, hand=p.hand[1:], wang=1) for p in ps[:30]]
    for name in ("hunan", "changde", "loudi", "yongzhou", "hunan"):
        rules = PRESETS[name]
        for p in [*ps, *wilds]:
            want = scoring._settle(p, rules, 0)
            assert front(p, rules) == want
            assert front(p, rules=rules) == front(p, rules, 0) == want
            assert front(p, rules, 2) == scoring._settle(p, rules, 2)
    assert any(scoring._settle(p, PRESETS["yongzhou"], 0).win for p in wilds)
    assert front(ps[0]) == scoring._settle(ps[0], PRESETS["hunan"], 0)  # the default rules
    with pytest.raises(TypeError):
        front()
    with pytest.raises(TypeError):
        front(ps[0], PRESETS["hunan"], 0, 1)
    with pytest.raises(TypeError, match="3 arguments"):
        front.remember(PRESETS["hunan"])
    with pytest.raises(TypeError, match="callable"):
        front.remember(PRESETS["hunan"], 3, None)
    assert front(ps[0], PRESETS["hunan"]) == scoring._settle(ps[0], PRESETS["hunan"], 0)


@needs_kernel
def test_the_settle_front_door_settles_alike_from_threads_with_other_rules() -> None:
    """Threads that score different presets at once: each call settles under its own
    rules (the front holds the Settler and Python path it picked for the whole call,
    whatever the other threads make it remember meanwhile)."""
    from concurrent.futures import ThreadPoolExecutor

    ps = corpus(150, 13)
    wilds = [dataclasses.replace(p, hand=p.hand[1:], wang=1) for p in ps[:40]]
    names = ("hunan", "changde", "loudi", "yongzhou")
    want = {n: [scoring._settle(p, PRESETS[n], 0) for p in [*ps, *wilds]] for n in names}

    def run(name: str) -> bool:
        rules = PRESETS[name]
        return all(
            [scoring.settle(p, rules) for p in [*ps, *wilds]] == want[name] for _ in range(3)
        )

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can
    try:
        with ThreadPoolExecutor(4) as pool:
            assert all(pool.map(run, names * 2))
    finally:
        sys.setswitchinterval(switch)


@needs_kernel
def test_the_c_encoder_encodes_and_refuses_bad_input() -> None:
    """The RL observation (encoding/observation.py) is made by the kernel's ``Encoder``
    when it is built (tests/rl/test_shared_slots.py compares it with both Python paths
    on every seat of every step of every preset); what is not a View of valid cards is
    refused with an error, and nothing is kept from one call to the next."""
    import numpy as np

    from paohuzi.core.melds import GroupKind
    from paohuzi.core.state import GameState
    from paohuzi.core.views import MeldView, view
    from paohuzi.encoding import observation as ob

    assert type(ob._KERNEL).__name__ == "Encoder"
    s, rng = GameState(PRESETS["hunan"], seed=5), random.Random(5)
    while not any(s._tables) and not s.is_terminal():  # until a meld lies on a table
        s.apply(rng.choice(s.legal_actions(s.current_player)))
    v = view(s, 0)
    good = ob._KERNEL(v)
    assert np.frombuffer(good, np.float32).tobytes() == ob._encode(v, False).tobytes()
    meld = MeldView(GroupKind.KAN, (CARDS[3],) * 3, 0)  # a 坎 never lies on a table
    bad: list[tuple[object, type[Exception]]] = [
        ({}, TypeError),
        ((0, 1, 2), TypeError),
        (v._replace(seat="0"), TypeError),
        (v._replace(hand=(CARDS[2], 25)), ValueError),
        (v._replace(hand=(-1,)), ValueError),
        (v._replace(hand=[CARDS[2]]), TypeError),
        (v._replace(chou=(20,)), ValueError),
        (v._replace(phase="nonsense"), KeyError),
        (v._replace(hand_sizes=()), ValueError),
        (v._replace(hand_sizes=(20,) * 5), ValueError),
        (v._replace(tables=((meld,),) * 3), KeyError),
        (
            v._replace(tables=((MeldView(GroupKind.CHI, (CARDS[0], CARDS[5], CARDS[9]), 0),),) * 3),
            KeyError,
        ),
        (v._replace(tables=((MeldView(GroupKind.PENG, (), 0),),) * 3), ValueError),
        (v._replace(tables=(("peng",),) * 3), AttributeError),
        # (stand-ins: the compiled OpenCard checks its own fields)
        (
            v._replace(open=SimpleNamespace(card=3, owner=0, source="elsewhere", shown=True)),
            KeyError,
        ),
        (
            v._replace(open=SimpleNamespace(card=3, owner=None, source="draw", shown=True)),
            TypeError,
        ),
        (v._replace(open=SimpleNamespace(card=3, owner=0, source="draw")), AttributeError),
        (v._replace(liangzhang=21), ValueError),
        (v._replace(wall=None), TypeError),
    ]
    for view_in, error in bad:
        with pytest.raises(error):
            ob._KERNEL(view_in)
    with pytest.raises(TypeError):
        ob._KERNEL(v, v)
    with pytest.raises(TypeError):
        ob._KERNEL(view=v)
    assert ob._KERNEL(v) == good  # nothing kept from the refused calls
    with pytest.raises(ValueError):  # a layout that would write past the vector
        type(ob._KERNEL)(**{**_encoder_layout(), "size": 10})
    with pytest.raises(ValueError):
        type(ob._KERNEL)(**{**_encoder_layout(), "chi_at": {8000: 1}})
    with pytest.raises(ValueError):
        type(ob._KERNEL)(**{**_encoder_layout(), "phase_at": (1, 2)})


def _encoder_layout() -> dict[str, Any]:
    """The arguments encoding/observation.py makes its Encoder with (caught in passing)."""
    from paohuzi.core import _kernel
    from paohuzi.encoding import observation as ob

    got: dict[str, Any] = {}
    real = _kernel.Encoder

    class Catch:
        def __init__(self, **kw: Any) -> None:
            got.update(kw)

    _kernel.Encoder = Catch  # type: ignore[misc]
    try:
        ob._kernel_encoder()
    finally:
        _kernel.Encoder = real  # type: ignore[misc]
    return got
