"""算分 (suànfēn) made cheap (issue 27): the lazy groups, the compiled 名堂 and the
fast readers give the answers of the slow paths they skip (R22–R27, R34–R37)."""

from __future__ import annotations

import dataclasses
import pickle
import random
import sys
from pathlib import Path

import pytest

from paohuzi.core.cards import _scan, _tokens
from paohuzi.core.evaluator import FOURS, evaluator_for, pack
from paohuzi.core.mingtang import PATTERNS, Context, find
from paohuzi.core.position import Position
from paohuzi.core.refusals import Refusal
from paohuzi.core.rules import PRESETS as PRESET_RULES
from paohuzi.core.rules import (
    Decomposition,
    DengRule,
    HuangzhuangRule,
    MingtangRule,
    Rules,
    preset,
)
from paohuzi.core.scoring import settle

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from corpus import corpus

PRESETS = ("hunan", "changde", "luzhou")


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return corpus(400, 7)


@pytest.mark.parametrize("name", PRESETS)
def test_lazy_groups_are_the_evaluators_split(positions: list[Position], name: str) -> None:
    """R26: the groups a settlement shows (built on first read) are analyse's best
    split, with their 胡息 summing to the settlement's."""
    rules = preset(name)
    ev = evaluator_for(rules)
    for p in positions:
        s = settle(p, rules)
        a = ev.analyse(p)
        if s.error == "not_winning":
            assert s.groups == () and a.groups == ()
            continue
        if rules.decomposition == "huxi" or not s.win:
            assert s.groups == a.groups
        assert sum(s.group_huxi) == s.huxi


def test_a_settlement_pickles_compares_and_stays_read_only(positions: list[Position]) -> None:
    rules = preset("hunan")
    wins = [s for s in (settle(p, rules) for p in positions) if s.win]
    assert wins
    for s in wins[:20]:
        again = pickle.loads(pickle.dumps(s))
        assert again == s and hash(again) == hash(s)
        assert again.to_dict() == s.to_dict()
    with pytest.raises(AttributeError):
        wins[0].di = 0  # type: ignore[misc]


@pytest.mark.parametrize("name", PRESETS)
def test_compiled_mingtang_match_each_pattern_asked(positions: list[Position], name: str) -> None:
    """R36: the memoised colour patterns and 对子胡's early refusals find what every
    pattern asked on the full split finds."""
    rules = preset(name)
    ev = evaluator_for(rules)
    for p in positions:
        a = ev.analyse(p)
        if not a.win:
            continue
        gh = tuple(g.huxi(rules) for g in a.groups)
        got = find(Context(p, a.groups, gh), rules)
        top = ("none", "basic", "half", "full").index(rules.effective_level)
        want = []
        for r in rules.mingtang:
            if ("none", "basic", "half", "full").index(r.level) > top:
                continue
            f = PATTERNS[r.id].fan(Context(p, a.groups, gh), r, rules.fan_combine)
            if f:
                want.append((r.id, f))
        assert [(m.id, m.fan) for m in got] == want


def test_fast_tokens_read_as_the_scanner() -> None:
    """R4: codes between spaces, glyphs run together, either case, 王 and aliases
    read as the regex scanner reads them; anything else goes to the scanner."""
    rng = random.Random(3)
    glyphs = "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾貳參陸王"
    codes = [f"{s}{n}" for s in "xXdD" for n in range(1, 11)] + ["w", "W"]
    for _ in range(300):
        texts = [
            " ".join(rng.choices(codes, k=rng.randint(0, 8))),
            "".join(rng.choices(glyphs, k=rng.randint(1, 8))),
            " ".join(rng.choices(list(glyphs), k=rng.randint(1, 8))),
        ]
        for t in texts:
            assert list(_tokens(t)) == list(_scan(t)), t


def test_from_dict_round_trips(positions: list[Position]) -> None:
    for p in positions:
        q = Position.from_dict(p.to_dict())
        assert q == p and q.packed == p.packed and q.shape == p.shape
        assert q.table_keys == p.table_keys and q.up_key == p.up_key


def test_duizihu_refuses_early_only_hands_with_a_run(positions: list[Position]) -> None:
    """对子胡 (R36): its refusals before the split (a 吃 on the table, a lone
    concealed card) agree with reading the split itself."""
    rules = preset("hunan")
    ev = evaluator_for(rules)
    runs = {"chi", "ju", "jiao"}
    rule = next(r for r in rules.mingtang if r.id == "duizihu")
    for p in positions:
        a = ev.analyse(p)
        if not a.groups or p.at_deal:
            continue
        gh = tuple(g.huxi(rules) for g in a.groups)
        has = PATTERNS["duizihu"].measure(Context(p, a.groups, gh), rule) is not None
        assert has == (not any(g.kind.value in runs for g in a.groups))


# -- the memoised common path of settle (issue 27) against the path that asks every step --
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from paohuzi.core.scoring import _FIELDS, Settlement, _settle  # noqa: E402
from strategies import positions as position_strategy  # noqa: E402

ALL_PRESETS = ("hunan", "changde", "luzhou", "guilin", "hengyang", "loudi", "yongzhou")
# Rules no preset combines, that take the memoised path too: 黄番 (R32) with the
# most-胡息 split, and 常德's 名堂 (团圆, 行行息, 听胡 …) on it; 等 counted from a base
# above 起胡 (R34: a negative difference floors, 等 stops at 0) with two 黄番, the last
# holding for longer streaks (the C path makes these templates itself: scoring._made).
VARIANTS = ("hunan+huangfan", "changde+huxi", "guilin+shuangxing", "hunan+deng")


def _rules(name: str) -> Rules:
    if name == "guilin+shuangxing":  # R42's 双醒: 醒数 × 2
        return dataclasses.replace(preset("guilin"), xing_double=True)
    if name == "hunan+huangfan":
        return dataclasses.replace(preset("hunan"), huangzhuang=preset("changde").huangzhuang)
    if name == "hunan+deng":
        deng, huang = DengRule(base=21, step=4, offset=1), HuangzhuangRule(fan=(2, 3))
        return dataclasses.replace(preset("hunan"), deng=deng, huangzhuang=huang)
    if name == "changde+huxi":
        return dataclasses.replace(preset("changde"), decomposition=Decomposition.HUXI)
    return preset(name)


def _same(fast: object, slow: object) -> None:
    """Field by field (the memo's shared template read through), then as a whole."""
    for k in _FIELDS:
        assert getattr(fast, k) == getattr(slow, k), k
    assert fast == slow and slow == fast and hash(fast) == hash(slow)
    assert repr(fast) == repr(slow) and isinstance(fast, Settlement)
    assert fast.to_dict() == slow.to_dict()  # type: ignore[attr-defined]
    again = pickle.loads(pickle.dumps(fast))
    assert again == slow and type(again) is Settlement


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    position_strategy(),
    st.sampled_from(ALL_PRESETS + VARIANTS),
    st.integers(0, 3),
    st.fixed_dictionaries(
        {
            "self_drawn": st.booleans(),
            "last_card": st.booleans(),
            "tianhu": st.booleans(),
            "dihu": st.booleans(),
            "tinghu": st.booleans(),
        }
    ),
    st.lists(st.integers(0, 19), max_size=2),
)
def test_memoised_settlement_is_the_stepwise_one(
    p: Position, name: str, huang: int, flags: dict[str, bool], xing: list[int]
) -> None:
    """R34–R37, R42, R46: settle's common path (memo on 胡息-free facts: flags, colour
    名堂, the 名堂 that read the split, 醒数; for ``di`` rules with no such 名堂 the
    most-胡息 split alone) gives what the path asking every step gives (every split
    settled) — every field, the groups, pickling — for any preset, 荒庄 count, flags
    (自摸, 海底, 天胡, 地胡, 听胡) and 醒牌, asked twice (the second time from the
    memo), of the position constructed and read straight."""
    tinghu = flags.pop("tinghu")
    extra = (("tinghu", True),) if tinghu else ()
    q = Position(p.hand, p.table, p.win, extra=extra, xing=tuple(xing), **flags)
    assert q.card_bits == pack(q.all_cards())  # the packed table keys (绞 from cards)
    rules = _rules(name)
    r = Position.from_dict(q.to_dict())  # read straight: its counts made by the read
    for _ in range(2):
        _same(settle(q, rules, huang), _settle(q, rules, huang))
        _same(settle(r, rules, huang), _settle(q, rules, huang))


# Every (rules, 名堂 rule) whose pattern refuses at sight (Mingtang.refusal): each preset's
# 胡息 table (which 句, 绞 and 将 are worth nothing) with each rule a preset gives it.
_RULES_OF = {r.id: r for name in ALL_PRESETS for r in preset(name).mingtang}
REFUSALS = [
    (name, mid)
    for name in ALL_PRESETS
    for mid, r in sorted(_RULES_OF.items())
    if PATTERNS[mid].refusal(preset(name), r) is not None
]


def _refusal_is_sound(p: Position, name: str, mid: str) -> bool | None:
    """Whether the refusal refused ``p`` (None: no split to ask), after checking that a
    refused pattern is absent from every split :func:`decompositions` lists."""
    from paohuzi.core.scoring import decompositions

    if p.win is None or p.wang:
        return None
    rules, rule = preset(name), _RULES_OF[mid]
    splits = [(g, tuple(x.huxi(rules) for x in g)) for g in decompositions(p)]
    if not splits:
        return None
    most = max(sum(gh) for _, gh in splits)
    refused = _refusal(rules, rule).refuses(p, most)
    if refused:
        for groups, gh in splits:
            assert PATTERNS[mid].measure(Context(p, groups, gh), rule) is None, (mid, groups)
    return refused


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position_strategy(), st.sampled_from(REFUSALS), st.booleans())
def test_a_refusal_at_sight_holds_for_every_split(
    p: Position, which: tuple[str, str], self_drawn: bool
) -> None:
    """R36, R46: a 名堂 refused before any split (对子胡, 团圆, 行行息, 假行行, 一块匾,
    二十卡/三十卡: the settlement then reads no split for it, and compares no other split
    when all are refused) is absent from every split of the position."""
    q = dataclasses.replace(p, self_drawn=self_drawn) if p.win is not None else p
    _refusal_is_sound(q, *which)


def test_refusals_at_sight_refuse_most_hands_and_not_all(positions: list[Position]) -> None:
    """Each refusal decides on the corpus both ways (not a test that never fires), and
    is sound there too; 常德's four refuse together most of its wins."""
    for name, mid in REFUSALS:
        seen = [_refusal_is_sound(p, name, mid) for p in positions]
        assert seen.count(True) and seen.count(False), (name, mid)
    rules = preset("changde")
    wins = [p for p in positions if settle(p, rules).win]
    tests = [_refusal(rules, r) for r in rules.mingtang if r.id in _CHANGDE_SPLIT]
    best = evaluator_for(rules).best
    every = sum(all(t.refuses(p, best(p)) for t in tests) for p in wins)
    assert len(tests) == 4 and every > len(wins) // 2, (every, len(wins))


_CHANGDE_SPLIT = {"duizihu", "tuanyuan", "hanghangxi", "jiahanghang"}


def _refusal(rules: Rules, rule: MingtangRule) -> Refusal:
    r = PATTERNS[rule.id].refusal(rules, rule)
    assert r is not None
    return r


@pytest.mark.parametrize("name", ALL_PRESETS + VARIANTS)
def test_memoised_settlement_on_the_corpus(positions: list[Position], name: str) -> None:
    """The same on the benchmark's corpus (400 positions; 40 % win under hunan), the
    memo filled by the first pass and read by the second."""
    rules = _rules(name)
    for _ in range(2):
        for p in positions:
            for huang in (0, 1):
                _same(settle(p, rules, huang), _settle(p, rules, huang))


def test_di_claims_a_split_with_less_huxi_when_it_is_worth_more() -> None:
    """R46 (娄底, best score): 三十卡 (exactly 30 胡息) makes a 30-胡息 split worth more
    than the hand's 33-胡息 one, so rules with a 名堂 that reads the split settle every
    split; rules with none (桂林, 衡阳, 永州) settle the most-胡息 split alone, the same
    answer (the test above compares both with every split settled)."""
    p = Position.from_dict(
        {
            "hand": "x5 x5 d5 d5",
            "table": ["pao:x2", "ti:d8", "chouwei:x9", "chouwei:d1", "wei:x8"],
            "win": "x5",
            "self_drawn": True,
        }
    )
    loudi = preset("loudi")
    s = settle(p, loudi)
    assert (s.huxi, s.di) == (30, 400) and "sanshika" in [m.id for m in s.mingtang]
    most = settle(p, dataclasses.replace(loudi, decomposition=Decomposition.HUXI))
    assert (most.huxi, most.di) == (33, 132)
    assert s == _settle(p, loudi, 0)
    from paohuzi.core.scoring import _scorer

    fast = {name: _scorer(preset(name)).fast for name in ALL_PRESETS}
    assert fast == {
        "hunan": True,
        "changde": False,
        "luzhou": True,
        "guilin": True,
        "hengyang": True,
        "loudi": False,
        "yongzhou": True,
    }


def _distinct_splits(p: Position) -> int:
    from paohuzi.core.scoring import decompositions

    return len({tuple(sorted(d, key=lambda g: (g.kind, g.cards))) for d in decompositions(p)})


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position_strategy())
def test_split_count_counts_the_distinct_splits(p: Position) -> None:
    """R22, R25, R46: ``split_count`` (per size and choice of 绞, no groups built) is the
    number of distinct splits ``decompositions`` lists (0, 1, or 2 for more): a ``di``
    settlement skips the search only where there is one."""
    from paohuzi.core.evaluator import split_count

    assert split_count(p) == min(2, _distinct_splits(p))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    position_strategy(), st.sampled_from(("hunan", "changde", "luzhou", "loudi", "losing_fours"))
)
def test_the_plans_split_count_is_split_count(p: Position, name: str) -> None:
    """R25, R46: ``plan_splits`` — the count a settlement asks right after the plan, from
    the uses of the winning card the plan found splitting and the plan's rest — is
    ``split_count``; also under a house table where a four made with the winning card is
    worth less than the 碰/坎 it replaces (the plan leaves that use untried: counted the
    long way), and for a position other than the one just planned."""
    from paohuzi.core.evaluator import HandEvaluator, split_count
    from paohuzi.core.rules import HuxiTable

    if name == "losing_fours":
        table = preset("hunan").huxi_table.to_dict() | {"pao": [0, 0, 0, 0], "ti": [0, 0, 0, 0]}
        rules = preset("hunan").replace(huxi_table=HuxiTable.from_dict(table))
    else:
        rules = preset(name)
    ev = HandEvaluator(rules, native=False)
    assert ev._four_loses == (name == "losing_fours")
    if p.win is None:
        return
    _, plan = ev.plan(p)
    if plan is None:
        return
    assert ev.plan_splits(p, plan) == split_count(p)
    other = Position(p.hand, p.table, p.win, self_drawn=not p.self_drawn)
    assert ev.plan_splits(other, plan) == split_count(other)  # (not the position planned)


def test_split_count_on_the_corpus(positions: list[Position]) -> None:
    """The same on the benchmark's corpus, where hands with two splits (二七十 or a 句
    from the same 二, a 绞 or two 句 …) are few but there."""
    from paohuzi.core.evaluator import split_count

    seen = [0, 0, 0]
    for p in corpus(3000, 5):
        n = split_count(p)
        assert n == min(2, _distinct_splits(p))
        seen[n] += 1
    assert all(seen), seen


def _profile_cases(p: Position, rules: Rules) -> list[tuple[str, int, int]]:
    """(use of the winning card, profile from the plan, profile of the built groups) for
    ``p``'s best split, on the Python evaluator and (when built) the C kernel's."""
    from paohuzi.core.evaluator import HandEvaluator
    from paohuzi.core.profile import JIANG, MELDS, RUNS, of_split

    out = []
    for ev in (evaluator_for(rules), HandEvaluator(rules, native=False)):
        if p.win is None or p.wild:
            continue
        _, plan = ev.plan(p)
        if plan is None:
            continue
        groups = ev.split(p, plan)
        gh = tuple(g.huxi(rules) for g in groups)
        counts = 15 << MELDS | 15 << RUNS | 15 << JIANG  # what a profile not followed has
        assert ev.profile(p, plan, whole=False) & counts == of_split(groups, gh) & counts
        out.append((plan[3], ev.profile(p, plan), of_split(groups, gh)))
    return out


_GRIDS = ("hunan", "changde", "luzhou", "loudi")  # four 胡息 tables (R9 and the regions')


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position_strategy(), st.sampled_from(_GRIDS))
def test_the_profile_from_the_plan_is_the_groups_profile(p: Position, name: str) -> None:
    """R36: the profile a structural 名堂 reads (门子, runs, 将, 门子 without 胡息, 门子
    holding red), added up from the plan's parts without building the split, is the
    profile counted 门子 by 门子 on the split built — for every use of the winning card
    and 胡息 table."""
    for _, fast, built in _profile_cases(p, preset(name)):
        assert fast == built


def test_the_profile_on_the_corpus_covers_every_use() -> None:
    """The same on the benchmark's corpus, where every use of the winning card (hand,
    pair + card, 坎 + card, table 碰/偎 + card) occurs."""
    seen: dict[str, int] = {}
    for name in _GRIDS:
        for p in corpus(1500, 13):
            for how, fast, built in _profile_cases(p, preset(name)):
                assert fast == built, (name, p.to_dict())
                seen[how] = seen.get(how, 0) + 1
    assert set(seen) == {"hand", "triple", "kan", "table"}, seen  # (table: few; see above)


def _listed_outcomes(p: Position, rules: Rules) -> set[tuple[int, int]]:
    """(胡息, profile) of every split ``decompositions`` lists, counted on its groups."""
    from paohuzi.core.profile import of_split
    from paohuzi.core.scoring import decompositions

    out = set()
    for groups in decompositions(p):
        gh = [g.huxi(rules) for g in groups]
        out.add((sum(gh), of_split(groups, gh)))
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position_strategy(), st.sampled_from(_GRIDS))
def test_the_outcomes_are_those_of_every_split_listed(p: Position, name: str) -> None:
    """R25, R27, R46: ``HandEvaluator.outcomes`` — each split's (胡息, profile), found per
    use of the winning card, 绞 and size without building a split — is the set of those
    of every split ``decompositions`` lists, under every 胡息 table; a hand that splits
    one way has one, its best split's."""
    from paohuzi.core.evaluator import HandEvaluator, split_count

    rules = preset(name)
    got = HandEvaluator(rules, native=False).outcomes(p)
    if p.win is None or p.packed & FOURS:
        assert got == set()
        return
    assert got == _listed_outcomes(p, rules)
    if split_count(p) == 1:
        assert len(got) == 1


def test_the_outcomes_on_the_corpus() -> None:
    """The same on the corpus, where hands of two splits are few; some have more than one
    (胡息, profile) — the ones a best-score settlement must compare."""
    from paohuzi.core.evaluator import HandEvaluator, split_count

    several = 0
    for name in _GRIDS:
        rules = preset(name)
        ev = HandEvaluator(rules, native=False)
        for p in corpus(1500, 19):
            if split_count(p) > 1:
                got = ev.outcomes(p)
                assert got == _listed_outcomes(p, rules)
                several += len(got) > 1
    assert several > 10, several


def test_profiles_count_melds_by_kind_value_and_colour() -> None:
    """profile.py's fields on a hand worked out by hand: 行行息 needs every 门子 worth
    胡息, 假行行 all but the 将, 一块匾 the red cards in one 门子, 对子胡 no run."""
    from paohuzi.core import profile as prof
    from paohuzi.core.melds import Group

    rules = preset("changde")
    groups = [
        Group.parse(t)
        for t in (
            "ti:x3",
            "peng:d5",
            "kan:x10",
            "ju:x1x2x3",
            "ju:d4d5d6",
            "jiao:x7x7d7",
            "jiang:d9",
        )
    ]
    gh = [g.huxi(rules) for g in groups]
    assert gh == [9, 3, 3, 3, 0, 0, 0], gh  # R9: 提三 9, 碰伍 3, 坎十 3, 一二三 3
    p = prof.of_split(groups, gh)
    assert prof.get(p, prof.MELDS) == 7 and prof.get(p, prof.JIANG) == 1
    assert prof.get(p, prof.RUNS) == 3  # 一二三, 肆伍陆, the 绞
    assert prof.get(p, prof.BARE) == 2  # 肆伍陆 and the 绞: no 胡息 (the 将 apart)
    assert prof.get(p, prof.BARE_JIANG) == 1
    assert prof.get(p, prof.RED_MELDS) == 3  # 十 (坎), 一二三 holds 二, 七七柒
    assert p == sum(prof.of_meld(g.kind, g.cards, h) for g, h in zip(groups, gh, strict=True))


def test_duizihu_reads_the_plan_without_building_the_split() -> None:
    """对子胡 (R36) read from the evaluator's plan (the split not built) agrees with
    reading the groups, on hands built to pass the early refusals."""
    from paohuzi.core.scoring import Split

    rules = preset("hunan")
    ev = evaluator_for(rules)
    rule = next(r for r in rules.mingtang if r.id == "duizihu")
    seen = {True: 0, False: 0}
    for p in corpus(6000, 13):
        _, plan = ev.plan(p)
        if plan is None or PATTERNS["duizihu"].refuses(p):
            continue
        groups = ev.split(p, plan)
        gh = tuple(g.huxi(rules) for g in groups)
        want = PATTERNS["duizihu"].measure(Context(p, groups, gh), rule)
        ctx = Context(p, (), (), (), Split(rules, p, plan))
        assert PATTERNS["duizihu"].measure(ctx, rule) == want
        assert ctx._split is not None  # decided without building the split
        seen[want is not None] += 1
    assert seen[True] > 5 and seen[False] > 5, seen


# -- Position.from_dict's straight reading against the constructor's path (issue 27) --
from paohuzi.core.cards import format_cards  # noqa: E402
from paohuzi.core.position import PositionError, _read  # noqa: E402


def _outcome(read: object, d: object) -> tuple[object, ...]:
    try:
        p = read(d)  # type: ignore[operator]
    except Exception as e:  # the very error is what is compared
        return ("error", type(e), str(e))
    p.hand, p.card_bits, p.facts  # noqa: B018  # each made when first read, or with p
    # every field (those the reader leaves to the class filled in) and derived count
    return ("ok", p, {**p.__getstate__(), "card_bits": p.card_bits, "facts": p.facts})


def _forms(p: Position, rng: random.Random) -> list[dict[str, object]]:
    """The position as a program writes it (codes) and as a person might (glyphs run
    together, glyphs or upper-case codes between spaces)."""
    d = p.to_dict()
    zh = dict(d, hand=format_cards(p.hand), win=p.win.zh if p.win is not None else None)
    spaced = dict(d, hand=" ".join(c.zh for c in p.hand))
    upper = dict(d, hand=d["hand"].upper(), win=str(d.get("win", "")).upper())
    return [d, zh, spaced, upper][: rng.randint(1, 4)]


def _spoilt(d: dict[str, object], rng: random.Random) -> dict[str, object]:
    """One damage a line of input may carry (each refused by the constructor's path)."""
    d = dict(d)
    hand = str(d["hand"])
    table = list(d.get("table", []))  # type: ignore[call-overload]
    first = hand.split()[0] if hand.split() else "x1"
    how = rng.randrange(15)
    if how == 0:
        d["hand"] = f"{hand} {first}"  # one card too many (R17)
    elif how == 1:
        d["hand"] = " ".join(hand.split()[1:])  # one too few
    elif how == 2:
        d["hand"] = f"{hand} w"  # a 王 among the cards
    elif how == 3:
        d["table"] = [*table, f"peng:{first}"]  # copies beyond four (R1), or the size
    elif how == 4:
        d["table"] = [*table, "kan:x1"]  # not a table meld
    elif how == 5:
        d["table"] = [*table, "chi:x1x2x4"]  # not a 句
    elif how == 6:
        d["table"] = "peng:x1"  # not a list
    elif how == 7:
        d[rng.choice(["self_drawn", "last_card", "tianhu", "dihu"])] = rng.choice([1, "yes", None])
    elif how == 8:
        d["extra"] = ["tinghu"]  # not an object
    elif how == 9:
        d["win"] = f"{d.get('win')} {first}"  # two winning cards
    elif how == 10:
        d.pop("win", None)  # no winning card and no 天胡
    elif how == 11:
        d["colour"] = "red"  # an unknown field
    elif how == 12:
        d["hand"] = f"{hand} x11"  # no such card
    elif how == 13:  # a fifth copy of a 跑/提's card, the count of cards unchanged (R1)
        four = [str(t).split(":")[1] for t in table if str(t).startswith(("pao:", "ti:"))]
        d["hand"] = " ".join([four[0] if four else first, *hand.split()[1:]])
    else:
        words = hand.split()
        d["hand"] = " ".join([*words[:-3], *[first] * 3]) if len(words) > 3 else hand
    return d


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    position_strategy(),
    st.randoms(use_true_random=False),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_from_dict_reads_as_the_constructor(
    p: Position, rng: random.Random, last: bool, tianhu: bool, tinghu: bool
) -> None:
    """R1, R12, R17: ``from_dict`` of the common forms (read straight, without the
    constructor) gives the position the constructor's path gives — every field, the
    derived ones included — and any damaged line gets the same error."""
    extra = (("tinghu", True),) if tinghu else ()
    q = Position(p.hand, p.table, p.win, p.self_drawn, last, tianhu, extra=extra)
    for d in _forms(q, rng):
        fast, slow = _outcome(Position.from_dict, d), _outcome(Position._from_dict, d)
        assert fast == slow and fast[0] == "ok"
        assert fast[1] == q
        assert _read(d, 20) is not None  # the straight reading took it
        bad = _spoilt(d, rng)
        fast, slow = _outcome(Position.from_dict, bad), _outcome(Position._from_dict, bad)
        assert fast == slow
        if fast[0] == "error":
            assert fast[1] is PositionError


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position_strategy(), st.booleans(), st.booleans(), st.sampled_from(sorted(PRESET_RULES)))
def test_a_position_read_straight_scores_as_one_constructed(
    p: Position, self_drawn: bool, last: bool, name: str
) -> None:
    """A position read straight leaves the fields at their class default to the class
    (fewer stores: reading costs less than scoring, issue 27); the evaluator and the
    settlement (the C kernel's on the compiled build) read them there and answer as for
    the position the constructor made, under every preset."""
    rules = PRESET_RULES[name]
    q = Position(p.hand, p.table, p.win, self_drawn, last)
    r = Position.from_dict(q.to_dict())
    assert "wang" not in vars(r) and "tianhu" not in vars(r) and r.wang == 0
    assert ("self_drawn" in vars(r)) == self_drawn and ("last_card" in vars(r)) == last
    assert r.last_card is last and r == q
    ev = evaluator_for(rules)
    assert ev.best(r) == ev.best(q)
    assert settle(r, rules) == settle(q, rules)  # r first: its misses fill the memos


def test_from_dict_refuses_what_the_constructor_refuses(positions: list[Position]) -> None:
    """Every damage of :func:`_spoilt` on the corpus: the same error, word for word."""
    rng = random.Random(11)
    errors = 0
    for p in positions:
        for _ in range(4):
            bad = _spoilt(p.to_dict(), rng)
            fast, slow = _outcome(Position.from_dict, bad), _outcome(Position._from_dict, bad)
            assert fast == slow, bad
            errors += fast[0] == "error"
    assert errors > 1000
    with pytest.raises(PositionError, match="JSON object"):
        Position.from_dict(["hand", "x1"])  # type: ignore[arg-type]
