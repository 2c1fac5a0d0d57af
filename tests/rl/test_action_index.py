"""The fixed action enumeration (pure Python: runs without the ``rl`` extra)."""

from __future__ import annotations

import pytest

from paohuzi.core import action_index as ai
from paohuzi.core.actions import CHI, DISCARD, HU, PASS, PENG, Action
from paohuzi.core.cards import CARDS, Card, parse_cards
from paohuzi.core.rules import PRESETS

from .helpers import random_states


def chi(card: str, *groups: str) -> Action:
    return Action(CHI, 0, Card.parse(card), tuple(tuple(parse_cards(g)) for g in groups))


def test_layout_is_fixed() -> None:
    # Changing the enumeration breaks every trained policy: it must be deliberate.
    # 908 → 914 when R41's six 王 pattern wins were appended (indices below unchanged);
    # 914 → 1036 when 衡阳's 一五十 吃 were appended (PRESETS hengyang; 914 below unchanged)
    assert ai.BASE_ACTION_COUNT == 914 and ai.PATTERN_BASE == 908
    assert ai.YIWUSHI_BASE == 914 and ai.ACTION_COUNT == 1036
    assert (ai.PENG_BASE, ai.HU_INDEX, ai.PASS_INDEX, ai.CHI_BASE) == (20, 40, 41, 42)
    assert ai.index_of(Action(DISCARD, 1, Card.X1)) == 0
    assert ai.index_of(Action(DISCARD, 1, Card.D10)) == 19
    assert ai.index_of(Action(PENG, 2, Card.X5)) == 24
    assert ai.index_of(Action(HU, 0, Card.X3)) == ai.index_of(Action(HU, 1)) == 40
    assert ai.index_of(Action(PASS, 0)) == 41


def test_first_914_indices_mean_what_they_meant() -> None:
    """Indices 0 … 913 name the actions they named before 一五十 (a digest of their
    canonical ids, taken before the change): trained networks and records read them."""
    import hashlib

    ids = "\n".join(ai.action_meaning(i) for i in range(ai.BASE_ACTION_COUNT))
    digest = hashlib.sha256(ids.encode()).hexdigest()
    assert digest == "3e1347f5bc5a26545ba4317513bc7ca05ba67e53febfe900f28874849f002146"


def test_yiwushi_packages_come_after_the_rest() -> None:
    """PRESETS hengyang (一五十 a 句): every 吃 package with a 一五十 / 壹伍拾 group has
    an index ≥ 914, every other one below; the rules' action space says how many."""
    from paohuzi.core.variants import parse

    for i, (x, groups) in enumerate(ai.YIWUSHI_KEYS):
        assert any(g in ((0, 4, 9), (10, 14, 19)) for g in groups)
        assert all(x in g for g in groups)
        assert ai.index_of(ai.action_for(ai.YIWUSHI_BASE + i, 0)) == ai.YIWUSHI_BASE + i
    for _x, groups in ai.CHI_KEYS:
        assert not any(g in ((0, 4, 9), (10, 14, 19)) for g in groups)
    assert ai.index_of(chi("x1", "x1x5x10")) == ai.YIWUSHI_BASE  # the first: X 一, 一五十
    assert ai.action_meaning(ai.YIWUSHI_BASE) == "chi:x1:x1x5x10"
    assert ai.action_count(PRESETS["hengyang"]) == 914
    assert ai.action_count(parse("hengyang:yiwushi=on")) == ai.ACTION_COUNT
    # X 十 with 一五十 and 八九十 (比): one package, whichever is called 吃
    a = chi("x10", "x1x5x10", "x8x9x10")
    assert ai.index_of(a) == ai.index_of(chi("x10", "x8x9x10", "x1x5x10")) >= 914


def test_every_index_is_a_distinct_action() -> None:
    ids = [ai.canonical_id(ai.action_for(i, 0)) for i in range(ai.ACTION_COUNT)]
    assert len(set(ids)) == ai.ACTION_COUNT
    for i in range(ai.ACTION_COUNT):
        assert ai.index_of(ai.action_for(i, 2)) == i
    with pytest.raises(ValueError):
        ai.action_for(ai.ACTION_COUNT, 0)


def test_groups_with_each_card() -> None:
    # 一: 一二三, 一一壹, 一壹壹; 七: 五六七, 六七八, 七八九, 二七十, 七七柒, 七柒柒.
    assert [len(ai.groups_with(c)) for c in (Card.X1, Card.X7)] == [3, 6]
    assert (1, 6, 9) in ai.groups_with(int(Card.X7))
    # 衡阳's 一五十: one more group for 一 五 十 (壹 伍 拾), none for 七
    assert (0, 4, 9) not in ai.groups_with(int(Card.X5))
    assert (0, 4, 9) in ai.groups_with(int(Card.X5), True)
    assert (10, 14, 19) in ai.groups_with(int(Card.D10), True)
    assert ai.groups_with(int(Card.X7), True) == ai.groups_with(int(Card.X7))
    for c in CARDS:
        for g in ai.groups_with(int(c)):
            assert int(c) in g and list(g) == sorted(g)


def test_chi_packages_are_keyed_by_their_multiset_of_groups() -> None:
    # R19 seed example 2: the same groups in another order are the same package.
    a = chi("x2", "x2d2d2", "x1x2x3", "x2x3x4")
    b = chi("x2", "x1x2x3", "x2x3x4", "x2d2d2")
    c = chi("x2", "x1x2x3", "x2x2d2")
    assert ai.index_of(a) == ai.index_of(b) != ai.index_of(c)
    assert ai.canonical_id(a) == ai.canonical_id(b) == "chi:x2:x1x2x3,x2x3x4,x2d2d2"
    # the same cards taking another card are another action
    assert ai.index_of(chi("x1", "x1x2x3")) != ai.index_of(chi("x3", "x1x2x3"))


def test_infeasible_packages_have_no_index() -> None:
    # five 二 laid out: more copies than the deck holds
    with pytest.raises(ValueError):
        ai.index_of(chi("x2", "x2x2d2", "x2x2d2", "x1x2x3"))
    with pytest.raises(ValueError):
        ai.index_of(chi("x2", "x3x4x5"))  # not a group containing X


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_legal_action_round_trips(name: str) -> None:
    chis = 0
    for state in random_states(PRESETS[name], hands=700, seed=1):
        seat = state.current_player
        legal = state.legal_actions(seat)
        index = ai.legal_by_index(legal)
        # one index per legal action: the engine offers each 吃 package once,
        # whichever of its groups would be called the 吃 group
        assert len(index) == len(legal) == len({ai.canonical_id(a) for a in legal})
        for a in legal:
            i = ai.index_of(a)
            back = ai.action_for(i, seat)
            assert ai.canonical_id(back) == ai.canonical_id(a)
            assert back.seat == seat
            chis += a.type == CHI
        for i, a in index.items():
            assert ai.index_of(a) == i
    assert chis > 1000  # the hands did exercise 吃 packages


def test_pattern_wins_round_trip() -> None:
    """R41: with 王 and pattern 番 the engine offers ``hu:<pattern>`` actions; each has
    its own index (908 + slot) and comes back as the same action."""
    from paohuzi.core.rules import HUNAN

    rules = HUNAN.replace(wang=4, wang_fan=(4, 8, 8, 16, 16, 32))
    seen: set[str] = set()
    for state in random_states(rules, hands=400, seed=3):
        seat = state.current_player
        for a in state.legal_actions(seat):
            i = ai.index_of(a)
            back = ai.action_for(i, seat)
            assert ai.canonical_id(back) == ai.canonical_id(a) and back.matches(a)
            if a.pattern is not None:
                assert i == ai.PATTERN_BASE + a.pattern.slot
                seen.add(a.pattern.value)
    assert seen  # the hands did offer pattern wins
