"""The evaluator's other questions: 听牌 (every winning card) and 当前总息数 (R33),
checked against the brute-force oracle; and the fast and full paths agreeing."""

from __future__ import annotations

import pickle

from hypothesis import HealthCheck, given, settings

from oracle import oracle_huxi
from paohuzi.core import evaluator
from paohuzi.core.cards import CARDS, Card
from paohuzi.core.evaluator import TableSummary, evaluator_for, pack, summary_key
from paohuzi.core.position import Position, PositionError
from paohuzi.core.rules import HUNAN, LUZHOU, Rules
from strategies import positions

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(positions())
def test_tingpai_is_every_card_the_oracle_wins_with(pos: Position) -> None:
    """听牌 (R22–R27): the cards that would win now, each with its best 胡息."""
    if pos.win is None:
        return
    ev = evaluator_for(HUNAN)
    ting = ev.tingpai(pos.packed, pos.table, pos.self_drawn)
    for c in CARDS:
        try:
            p = Position(pos.hand, pos.table, c, pos.self_drawn)
        except PositionError:  # a fifth copy: cannot be the winning card
            assert c not in ting
            continue
        h = oracle_huxi(p, HUNAN)
        if h is not None and h >= HUNAN.min_huxi:
            assert ting.get(c) == h, (str(p), c)
        else:
            assert c not in ting, (str(p), c)


@SETTINGS
@given(positions())
def test_fast_and_full_paths_agree(pos: Position) -> None:
    """best(position), best_huxi(packed, table, …) and analyse() give one answer."""
    for rules in (HUNAN, LUZHOU):
        ev = evaluator_for(rules)
        a = ev.analyse(pos)
        fast = ev.best(pos)
        if pos.win is not None:
            assert fast == ev.best_huxi(pack(pos.hand), pos.table, pos.win, pos.self_drawn)
        if a.error == "not_winning":
            assert fast == -1
        else:
            assert fast == a.huxi
            assert a.win == (a.huxi >= rules.min_huxi)


def test_tingpai_example() -> None:
    """The issue's example hand waits on 八 (15 胡息) — the winning card of the vector."""
    pos = Position.parse("四五六八八九十壹贰叁捌", "八", ["peng:拾", "chi:一二三", "wei:七"])
    ting = evaluator_for(HUNAN).tingpai(pos.packed, pos.table)
    assert ting.get(Card.X8) == 15


def test_current_huxi_counts_kan_and_valued_runs_only() -> None:
    """R33: table melds + 坎 + 一二三/二七十 the hand can show; leftovers count nothing."""
    ev = evaluator_for(HUNAN)
    # 坎 三 (3) + 壹贰叁 (6) + 二七十 (3) + junk; table 碰拾 (3)
    hand = Position.parse("三三三壹贰叁二七十五八九玖捌六四陆伍", None, ["peng:拾"], tianhu=True)
    assert ev.current_huxi(hand.packed, hand.table) == 3 + 3 + 6 + 3


@SETTINGS
@given(positions())
def test_the_evaluators_answers_pickle(pos: Position) -> None:
    """An analysis, a table summary and the evaluator itself survive pickling on either
    build (mypyc's frozen dataclasses do not unpickle field by field; the evaluator comes
    back as the process's shared one): results can cross a process pool."""
    for rules in (HUNAN, LUZHOU):
        ev = evaluator_for(rules)
        a, t = ev.analyse(pos), ev.summarize(pos.table)
        assert pickle.loads(pickle.dumps(a)) == a
        assert pickle.loads(pickle.dumps(t)) == t
        assert summary_key(pickle.loads(pickle.dumps(t))) == summary_key(t)
        assert pickle.loads(pickle.dumps(ev)) is ev


def _fresh(rules: Rules, p: Position) -> TableSummary:
    """A new summary of ``p``'s table (not the evaluator's kept one)."""
    return evaluator_for(rules)._summarize(tuple(g.key for g in p.table))


@SETTINGS
@given(positions(), positions())
def test_a_table_summarys_key_names_its_fields(p: Position, q: Position) -> None:
    """``summary_key`` (what the bots' memos key on): equal fields give one number
    (melds in any order, a summary made by hand, each preset's own), different fields
    different numbers."""
    tp, tq, tb = _fresh(HUNAN, p), _fresh(HUNAN, q), _fresh(LUZHOU, p)
    for t in (tq, tb, evaluator_for(HUNAN)._summarize(tuple(g.key for g in reversed(p.table)))):
        assert (summary_key(t) == summary_key(tp)) == (t == tp)
    bare = TableSummary(*tp.fields())  # made by hand: no key yet
    assert bare.key == -1 and summary_key(bare) == summary_key(tp)


def test_a_cleared_numbering_never_gives_a_number_again() -> None:
    """The numbering is bounded; once cleared, a summary gets a number never given
    before: a memo may miss (a new number for old fields), never take it for another
    table's."""
    p = Position.parse("一二三四五六七八九十壹贰叁", "伍", ["ti:拾", "peng:陆"])
    seen = {summary_key(_fresh(HUNAN, p)), summary_key(_fresh(LUZHOU, p))}
    evaluator._SERIALS.clear()
    fresh = summary_key(_fresh(HUNAN, p))
    assert fresh not in seen and fresh > max(seen)
    assert summary_key(_fresh(HUNAN, p)) == fresh  # numbered once again
