"""Claim windows: R16 priority, R19 比 in play, R20 臭牌, R30 臭胡, R31 ties."""

from __future__ import annotations

import pytest

from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.cards import Card, parse_cards
from paohuzi.core.state import CLAIM, DISCARDING
from paohuzi.core.views import view

from .hands import A, B, P
from .helpers import act, discard_quietly, find, game, ids, pass_claims, run_until, window_on


def _tie():
    """Seat 1 (A) and seat 2 (B) both wait for 捌; seat 1 turns it up."""
    s = game({1: A, 2: B}, wall="捌", avoid="捌")
    discard_quietly(s, 0)
    assert s.phase == CLAIM and s._window.card == Card.D8 and s._window.owner == 1
    return s


def test_R16_1_drawer_hu_outranks_others() -> None:
    """R16.1/R31: the drawer's 自摸 beats another seat's 胡, whatever the order of decisions."""
    s = _tie()
    assert "hu" in ids(s, 1) and "hu" in ids(s, 2)
    act(s, 2, "hu")  # decided first, but outranked
    assert s.phase == CLAIM and s.to_act() == [1] and s.current_player == 1
    act(s, 1, "hu")
    assert s.result.winner == 1 and s.result.position.self_drawn is True


def test_R16_3_others_hu_when_drawer_passes() -> None:
    """R16.3: when the drawer passes, the other seat's 胡 takes the card (not 自摸)."""
    s = _tie()
    act(s, 1, "pass")
    act(s, 2, "hu")
    assert s.result.winner == 2 and s.result.position.self_drawn is False


def test_R31_nearest_downstream_of_owner_wins() -> None:
    """R31: seats 2 and 0 can both 胡 seat 1's card: 2 (nearer downstream) wins."""
    s = game({0: A, 2: B}, liangzhang="叁", wall="捌", avoid="捌")
    act(s, 0, "discard:d3")
    pass_claims(s)
    assert s._window.owner == 1 and s._window.card == Card.D8
    act(s, 0, "hu")
    assert s.phase == CLAIM and 2 in s.to_act()
    act(s, 2, "hu")
    assert s.result.winner == 2


def test_R16_2_drawer_wei_hides_card_from_other_hu() -> None:
    """R16.2/R24: a card that becomes the drawer's 偎 is never shown; nobody may 胡 it."""
    s = game({1: "捌捌", 2: A}, wall="捌", avoid="捌")
    discard_quietly(s, 0)
    assert find(s.events, "wei", 1)
    assert s.phase == DISCARDING and s._turn == 1
    assert not s._chouhu[2]  # seat 2 was never offered the 胡


def test_R16_1_drawer_may_hu_the_card_of_his_wei() -> None:
    """R16.1: the drawer may 胡 with a card that would make his 偎; decided in private."""
    s = game({1: P}, wall="捌", avoid="捌")
    discard_quietly(s, 0)
    assert s.phase == CLAIM and not s._window.shown and s.to_act() == [1]
    assert ids(s, 1) == ["hu", "pass"]
    assert view(s, 2).open.card is None and view(s, 1).open.card == Card.D8
    t = s.clone()
    act(t, 1, "pass")  # → forced 偎
    assert [g.code() for g in t.table(1)] == ["wei:d8"]
    act(s, 1, "hu")
    assert s.result.winner == 1 and s.result.huxi == 21  # 偎 6 + 壹贰叁 6 + 坎拾 6 + 3


def test_R16_4_R27_hu_beats_pao_and_only_hu_is_asked() -> None:
    """R16.4/R27: a pending 跑 asks only the seats that can 胡; 胡 beats 跑 (破跑胡)."""
    s = game({0: "捌捌捌", 2: A}, wall="捌")
    discard_quietly(s, 0)
    assert s.phase == CLAIM and s.to_act() == [2] and ids(s, 2) == ["hu", "pass"]
    t = s.clone()
    act(t, 2, "pass")
    assert [g.code() for g in t.table(0)] == ["pao:d8"]
    act(s, 2, "hu")
    assert s.result.winner == 2 and not find(s.events, "pao")


def _peng_vs_chi():
    s = game({0: "五", 1: "四六", 2: "五五"}, avoid="五四六")
    act(s, 0, "discard:x5")
    assert "chi:x5:x4x5x6" in ids(s, 1) and "peng:x5" in ids(s, 2)
    return s


def test_R16_5_peng_beats_chi_and_loser_is_not_chou() -> None:
    """R16.5/R20: 碰 beats 吃; the seat that wanted to 吃 has not refused the card."""
    s = _peng_vs_chi()
    act(s, 1, "chi:x5:x4x5x6")
    assert s.phase == CLAIM and s.current_player == 2  # the 碰 still outranks
    act(s, 2, "peng:x5")
    assert [g.code() for g in s.table(2)] == ["peng:x5"] and not s.table(1)
    assert not s._chou[1] >> Card.X5 & 1


def test_R16_6_chi_after_refused_peng_makes_peng_chou() -> None:
    """R16.6/R20: 碰 passed → the 吃 goes through; the passer's card becomes 臭."""
    s = _peng_vs_chi()
    act(s, 2, "pass")
    act(s, 1, "chi:x5:x4x5x6")
    assert [g.code() for g in s.table(1)] == ["chi:x4x5x6"]
    assert s._chou[2] >> Card.X5 & 1


def _two_chi():
    s = game({1: "四六", 2: "四六"}, wall="五", avoid="五四六")
    discard_quietly(s, 0, avoid="四五六")
    assert s._window.owner == 1 and s._window.card == Card.X5
    return s


def test_R16_6_drawer_chi_before_xiajia() -> None:
    """R16.6: both may 吃: the drawer first; the 下家 lost to a higher claim, not 臭."""
    s = _two_chi()
    act(s, 2, "chi:x5:x4x5x6")
    assert s.phase == CLAIM
    act(s, 1, "chi:x5:x4x5x6")
    assert s.table(1) and not s.table(2)
    assert not s._chou[2] >> Card.X5 & 1


def test_R16_6_xiajia_chi_when_drawer_passes() -> None:
    """R16.6/R20: the drawer passes his 吃 (→ 臭), the 下家 eats."""
    s = _two_chi()
    act(s, 1, "pass")
    act(s, 2, "chi:x5:x4x5x6")
    assert s.table(2) and not s.table(1)
    assert s._chou[1] >> Card.X5 & 1


def test_R16_illegal_actions_raise_and_change_nothing() -> None:
    """R16: a seat without a pending decision or an illegal action raises IllegalAction."""
    s = _peng_vs_chi()
    before = (len(s.events), s.to_act(), dict(s._window.decisions))
    for bad in [
        Action.from_id(0, "pass"),
        Action.from_id(2, "chi:x5:x4x5x6"),
        Action.from_id(1, "peng:x5"),
        Action.from_id(1, "discard:x4"),
        Action.from_id(2, "hu"),
    ]:
        with pytest.raises(IllegalAction):
            s.apply(bad)
    assert (len(s.events), s.to_act(), dict(s._window.decisions)) == before
    act(s, 2, "pass")
    with pytest.raises(IllegalAction):
        act(s, 2, "peng:x5")  # already decided


def test_R19_seed_example_2_in_play() -> None:
    """R19 example 2 through the engine: each distinct package offered once, in canonical
    order (groups sorted, INTERFACES §4); any order of the same groups names it."""
    s = game({0: "二", 1: "一二二三三四贰贰"}, avoid="一二三四七十贰")
    act(s, 0, "discard:x2")
    chis = [a for a in s.legal_actions(1) if a.type == "chi"]
    got = [tuple("".join(c.zh for c in g) for g in a.groups) for a in chis]
    assert sorted(got) == sorted(
        [("一二三", "二三四", "二贰贰"), ("一二三", "二二贰"), ("二二贰", "二三四")]
    )  # see test_chi.py for why these three
    assert [a.id() for a in chis if len(a.groups) == 3] == ["chi:x2:x1x2x3,x2x3x4,x2d2d2"]
    pass_claims(s, keep=[1])
    held = s.held(1)
    act(s, 1, "chi:x2:x2d2d2,x1x2x3,x2x3x4")  # the seeds' order: 吃 二贰贰 first
    assert sorted(g.code() for g in s.table(1)) == ["chi:x1x2x3", "chi:x2d2d2", "chi:x2x3x4"]
    hand = s.hand(1)
    assert not any(c in hand for c in parse_cards("一二三四贰"))
    assert s.held(1) == held + 1 and s.phase == DISCARDING


def test_R19_example_1_bi_required_and_impossible() -> None:
    """R19 example 1: 一 must be 比'd with the remaining 二三; without them no 吃 at all."""
    s = game({0: "一", 1: "一二三二三"}, avoid="一二三壹")
    act(s, 0, "discard:x1")
    assert [a for a in ids(s, 1) if a.startswith("chi")] == ["chi:x1:x1x2x3,x1x2x3"]
    s = game({0: "一", 1: "一二三"}, avoid="一二三壹")
    act(s, 0, "discard:x1")
    assert not window_on(s, "一", 0) or not [a for a in ids(s, 1) if a.startswith("chi")]


def test_R20_refused_peng_is_chou() -> None:
    """R20: a seat that could 碰 and passed may never 碰 that kind again."""
    s = game({0: "七", 2: "七七"}, wall="七", avoid="七")
    act(s, 0, "discard:x7")
    assert "peng:x7" in ids(s, 2)
    pass_claims(s)
    assert s._chou[2] >> Card.X7 & 1
    run_until(s, 1)
    assert find(s.events, "draw")[0].card == Card.X7
    assert not window_on(s, "七", 1) or "peng:x7" not in ids(s, 2)
    assert not find(s.events, "peng")


def test_R20_own_chou_card_drawn_is_chouwei() -> None:
    """R20: turning up one's own 臭牌 onto the pair → 臭偎, one card shown."""
    s = game({0: "七", 2: "七七"}, wall="十七", avoid="七十")
    act(s, 0, "discard:x7")
    pass_claims(s)
    run_until(s, 2, avoid="七")
    cw = find(s.events, "chouwei", 2)
    assert len(cw) == 1 and cw[0].shown
    assert [g.code() for g in s.table(2)] == ["chouwei:x7"]
    assert view(s, 0).to_dict()["tables"][2] == [
        {"kind": "chouwei", "cards": ["x7", None, None], "huxi": 3}  # 臭偎 七 shows: 3 胡息
    ]


@pytest.mark.parametrize("discard_first", [True, False])
def test_R20_never_eat_own_discard(discard_first: bool) -> None:
    """R20: a seat never 吃s a kind it discarded earlier (control: it may otherwise)."""
    s = game({0: "五四六八"}, wall="十五", avoid="四五六八十")
    act(s, 0, "discard:x5" if discard_first else "discard:x8")
    pass_claims(s)
    run_until(s, 2)
    assert find(s.events, "draw")[1].card == Card.X5 and find(s.events, "draw")[1].seat == 2
    offered = window_on(s, "五", 2) and any(a.startswith("chi") for a in ids(s, 0))
    assert offered is (not discard_first)


def test_R30_passed_hu_is_chouhu_until_huxi_changes() -> None:
    """R30: a passed 胡 on a kind blocks that kind while the seat's 当前胡息 is unchanged."""
    s = game({2: A}, wall="捌十叁捌", avoid="捌十叁")
    discard_quietly(s, 0)
    assert s._window.owner == 1 and "hu" in ids(s, 2)
    pass_claims(s)
    assert Card.D8 in s._chouhu[2]
    run_until(s, 4, avoid="捌")
    second = find(s.events, "draw")[3]
    assert second.card == Card.D8 and second.seat == 1
    assert not window_on(s, "捌", 1) or "hu" not in ids(s, 2)
    assert s.result is None


def test_R30_chouhu_lapses_when_huxi_changes() -> None:
    """R30: after the seat's 胡息 changes (here a 吃 breaking 一二三), the block is gone."""
    s = game({2: A}, wall="捌四", avoid="捌四")
    discard_quietly(s, 0)
    pass_claims(s)
    assert Card.D8 in s._chouhu[2]
    assert s._window.owner == 2 and s._window.card == Card.X4
    before = s.current_huxi(2)
    pass_claims(s, keep=[2])
    act(s, 2, "chi:x4:x2x3x4,x4x5x6")
    assert s.current_huxi(2) != before
    assert Card.D8 not in s._chouhu[2]


def test_R16_a_window_copies_and_pickles_with_its_decisions() -> None:
    """R16: a window taken mid-way (one decision in) is copied (``GameState.clone``) and
    pickled (OpenSpiel serialises states) whole, on both builds: the compiled class can
    only be made through its constructor. The copy's decisions are its own."""
    import copy
    import pickle

    s = _tie()
    act(s, 2, "hu")  # decided first, outranked: the window stays open
    w = s._window
    for other in (w.copy(), pickle.loads(pickle.dumps(w)), copy.deepcopy(w)):
        assert type(other) is type(w) and other is not w
        for name in _WINDOW_FIELDS:
            assert getattr(other, name) == getattr(w, name), name
        other.decisions.clear()
        assert w.decisions and w.pending() == [1] and w.legal(2) == ()
    t = pickle.loads(pickle.dumps(s))
    act(t, 1, "hu")
    assert t.result.winner == 1 and s.phase == CLAIM  # the original window is untouched


# ClaimWindow's fields (the compiled class has no ``__slots__`` to list them).
_WINDOW_FIELDS = ("card", "owner", "source", "shown", "last", "entries", "options")
_WINDOW_FIELDS += ("fallback", "hu_flags", "info", "decisions")
