"""算分 (suànfēn) made cheap (issue 27): the lazy groups, the compiled 名堂 and the
fast readers give the answers of the slow paths they skip (R22–R27, R34–R37)."""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path

import pytest

from paohuzi.core.cards import _scan, _tokens
from paohuzi.core.evaluator import evaluator_for
from paohuzi.core.mingtang import PATTERNS, Context, find
from paohuzi.core.position import Position
from paohuzi.core.rules import preset
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
