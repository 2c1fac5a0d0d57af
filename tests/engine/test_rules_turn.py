"""§3–§4 Melds and a turn: R9–R15, R17, R18, R21."""

from __future__ import annotations

from paohuzi.core.actions import CHI, DISCARD, HU, PASS, PENG
from paohuzi.core.cards import Card
from paohuzi.core.rules import HUNAN
from paohuzi.core.state import CLAIM, DISCARDING
from paohuzi.core.views import view

from .helpers import act, discard_quietly, find, game, ids, pass_claims

ALL = "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾"


def test_R9_current_huxi_counts_table_and_hand() -> None:
    """R9 (via R33): opening 提 of 伍 (12) + 坎 of 三 (3) + 句 壹贰叁 (6) = 21."""
    s = game({1: "伍伍伍伍三三三壹贰叁"}, avoid="一二三壹贰叁伍七十柒拾")
    # the filler adds no other 胡息 group: no 一二三/二七十 and no 坎 (avoid + no pairs)
    assert s.current_huxi(1) == 12 + 3 + 6


def test_R10_drawn_card_shown_then_pile_and_next_draw() -> None:
    """R10/R18: a drawn card nobody takes is shown, goes to its owner's pile, 下家 draws."""
    s = game([ALL, ALL, ALL], liangzhang="五", wall="壹贰")
    act(s, 0, "discard:x5")
    pass_claims(s)  # seat 1's 吃 on the discard
    assert (
        s.phase == CLAIM and s._window.card == Card.D1 and s._window.shown
    )  # seat 1 drew 壹 (吃 offers)
    pass_claims(s)
    assert s._piles[1] == (Card.D1,)
    d = find(s.events, "draw")
    assert [(e.seat, e.card, e.shown) for e in d[:2]] == [(1, Card.D1, True), (2, Card.D2, True)]


def test_R11_wei_is_forced_and_hidden() -> None:
    """R11: turning up the third of a pair → 偎 at once, face down; the drawer then discards."""
    s = game({1: "九九"}, wall="九", avoid="九")
    discard_quietly(s, 0, avoid="九")
    wei = find(s.events, "wei", 1)
    assert len(wei) == 1 and not wei[0].shown and wei[0].source == "draw"
    assert [g.code() for g in s.table(1)] == ["wei:x9"]
    assert s.phase == DISCARDING and s._turn == 1  # R17: 21 cards > 20
    other = view(s, 0).to_dict()
    assert other["tables"][1] == [{"kind": "wei", "cards": [None, None, None], "huxi": None}]
    assert all(
        e.get("card") is None
        for e in other["log"]
        if e["type"] in ("wei", "draw") and e["seat"] == 1
    )
    assert view(s, 1).tables[1][0].cards == (Card.X9,) * 3


def test_R12b_kan_plus_draw_is_ti() -> None:
    """R12(b): the 4th card of a 坎 in hand turned up by its holder → 提 (one card shown)."""
    s = game({1: "九九九"}, wall="九")
    discard_quietly(s, 0)
    ti = find(s.events, "ti", 1)
    assert len(ti) == 1 and ti[0].source == "draw" and ti[0].shown
    assert s._fours[1] == 1 and s.phase == DISCARDING and s._turn == 1
    assert view(s, 2).to_dict()["tables"][1] == [
        {"kind": "ti", "cards": ["x9", None, None, None], "huxi": 9}  # 小提: 9 胡息 (R9)
    ]


def test_R12c_wei_plus_draw_is_ti() -> None:
    """R12(c): the 4th card of one's own 偎 turned up → 提."""
    s = game({1: "九九"}, wall="九壹贰九", avoid="九壹贰")
    discard_quietly(s, 0, avoid="九")
    assert [g.code() for g in s.table(1)] == ["wei:x9"]
    discard_quietly(s, 1, avoid="九")  # seat 1 discards after the 偎
    while s._wall_pos < 4:  # 壹 to seat 2, 贰 to seat 0, then seat 1 turns up 九
        if s.phase == CLAIM:
            pass_claims(s)
        elif s.phase == DISCARDING:
            discard_quietly(s, s._turn, avoid="九")
    assert [g.code() for g in s.table(1)] == ["ti:x9"]
    assert find(s.events, "ti", 1)[0].get("base") == "table"


def test_R13a_discard_onto_kan_is_pao() -> None:
    """R13(a): another player discards the 4th card of my 坎 → mandatory 跑, no choice."""
    s = game({0: "九", 1: "九九九"})
    act(s, 0, "discard:x9")
    pao = find(s.events, "pao", 1)
    assert len(pao) == 1 and pao[0].source == "discard" and pao[0].shown
    assert [g.code() for g in s.table(1)] == ["pao:x9"]
    assert s.phase == DISCARDING and s._turn == 1  # first 跑: 21 > 20


def test_R13a_draw_onto_other_kan_is_pao_and_R18_next() -> None:
    """R13(a) for a turned-up card; R18: after the 跑 and its discard, the discarder's 下家."""
    s = game({2: "九九九"}, wall="九")
    discard_quietly(s, 0)
    assert [g.code() for g in s.table(2)] == ["pao:x9"]
    assert find(s.events, "pao", 2)[0].source == "draw"
    assert s._turn == 2
    n = len(s.events)
    discard_quietly(s, 2)
    assert find(s.events[n:], "draw")[0].seat == 0


def _peng_x8(**kw):  # seat 1 碰s the dealer's 八 and discards
    s = game({0: "八", 1: "八八"}, **kw)
    act(s, 0, "discard:x8")
    pass_claims(s, keep=[1])
    act(s, 1, "peng:x8")
    assert s.phase == DISCARDING and s._turn == 1  # R14 + R17
    discard_quietly(s, 1, avoid="八")
    return s


def test_R13b_own_draw_onto_peng_is_pao() -> None:
    """R13(b): turning up the 4th card of one's own 碰 → 跑 (shown)."""
    s = _peng_x8(wall="壹贰八", avoid="八壹贰")
    while not find(s.events, "pao") and not s.is_terminal():
        if s.phase == CLAIM:
            pass_claims(s)
        else:
            discard_quietly(s, s._turn, avoid="八")
    pao = find(s.events, "pao", 1)[0]
    assert pao.source == "draw" and pao.get("from") == "peng"
    assert [g.code() for g in s.table(1)] == ["pao:x8"]
    draw = find(s.events, "draw", 1)[-1]
    assert draw.card == Card.X8 and draw.shown


def test_R13b_others_draw_onto_peng_is_pao() -> None:
    """R13(b): anybody turning up the 4th card of my 碰 makes my 跑."""
    s = _peng_x8(wall="八", avoid="八")
    assert [g.code() for g in s.table(1)] == ["pao:x8"]
    assert find(s.events, "draw")[-1].seat == 2


def test_R13b_discard_onto_peng_is_not_pao() -> None:
    """R13(b) says turned up, not discarded: a discarded 4th card of a 碰 is no 跑."""
    # seat 2 holds the 4th 八 plus 壹贰 to 吃 seat 1's 叁 and then discards 八.
    s = game({0: "八", 1: "八八叁", 2: "八壹贰"}, avoid="八叁壹贰")
    act(s, 0, "discard:x8")
    pass_claims(s, keep=[1])
    act(s, 1, "peng:x8")
    act(s, 1, "discard:d3")
    pass_claims(s, keep=[2])
    chi = [a for a in ids(s, 2) if a.startswith("chi:d3:d1d2d3")]
    assert chi
    act(s, 2, chi[0])
    act(s, 2, "discard:x8")
    assert not find(s.events, "pao")
    assert [g.code() for g in s.table(1)] == ["peng:x8"]


def test_R13c_other_card_onto_wei_is_pao() -> None:
    """R13(c): another player's discard/draw of the 4th card of my 偎 → 跑."""
    s = game({1: "九九"}, wall="九壹九", avoid="九壹")
    discard_quietly(s, 0, avoid="九")
    assert [g.code() for g in s.table(1)] == ["wei:x9"]
    discard_quietly(s, 1, avoid="九")
    while not find(s.events, "pao"):
        if s.phase == CLAIM:
            pass_claims(s)
        else:
            discard_quietly(s, s._turn, avoid="九")
    pao = find(s.events, "pao", 1)[0]
    assert pao.get("from") == "wei" and [g.code() for g in s.table(1)] == ["pao:x9"]


def test_R14_peng_any_seat_then_discard() -> None:
    """R14: a pair + another's discard may be 碰 by any seat (not only the 下家)."""
    s = game({0: "七", 2: "七七"}, avoid="七")
    act(s, 0, "discard:x7")
    assert "peng:x7" in ids(s, 2)
    pass_claims(s, keep=[2])
    act(s, 2, "peng:x7")
    assert [g.code() for g in s.table(2)] == ["peng:x7"]
    assert s.phase == DISCARDING and s._turn == 2
    n = len(s.events)
    discard_quietly(s, 2)
    assert find(s.events[n:], "draw")[0].seat == 0  # R18: 2's 下家, seat 1 is skipped


def test_R15_only_xiajia_may_chi_a_discard() -> None:
    """R15: a discard may be eaten only by the discarder's 下家."""
    s = game({0: "五", 1: "四六", 2: "四六"}, avoid="五四六")
    act(s, 0, "discard:x5")
    assert any(a.startswith("chi:") for a in ids(s, 1))
    assert not any(a.startswith("chi:") for a in ids(s, 2))


def test_R15_drawer_and_his_xiajia_may_chi_a_drawn_card() -> None:
    """R15: a drawn card: the drawer and his 下家 may 吃 it, his 上家 not."""
    s = game({0: "四六", 1: "四六", 2: "四六"}, wall="五", avoid="五四六")
    discard_quietly(s, 0, avoid="四六五")
    assert s._window.card == Card.X5 and s._window.owner == 1
    assert any(a.startswith("chi:") for a in ids(s, 1))
    assert any(a.startswith("chi:") for a in ids(s, 2))
    assert not ids(s, 0)


def test_R17_second_pao_needs_no_discard() -> None:
    """R17: 重跑 — a second 跑/提 (k = 2) needs no discard; the 下家 draws (R18)."""
    s = game({0: "九", 1: "四四四四九九九"})
    act(s, 0, "discard:x9")
    assert s._fours[1] == 2 and s.held(1) == 21 == s.need(1)
    assert not find(s.events, "discard", 1)
    assert find(s.events, "draw")[0].seat == 2


def test_R17_kan_cards_cannot_be_discarded() -> None:
    """R17/R§3: a 坎 may not be broken to discard."""
    s = game({0: "三三三"})
    assert s.phase == DISCARDING
    assert "discard:x3" not in ids(s, 0)


SIX_KAN = "二二二三三三四四四五五五六六六七七七"
NO_TIANHU = HUNAN.replace(tianhu_kan=99)  # 6 坎 would otherwise be a mandatory 天胡


def test_R17_peng_leaving_only_kan_is_not_offered() -> None:
    """R17: a 碰 after which the taker owes a discard but holds only 坎 is never offered,
    and not taking it is no refusal (R20: the card does not become his 臭牌)."""
    s = game({0: "一", 1: SIX_KAN + "一一"}, rules=NO_TIANHU, avoid="一二三四五六七壹")
    act(s, 0, "discard:x1")
    assert "peng:x1" not in ids(s, 1)
    pass_claims(s)
    assert not s._chou[1] >> Card.X1 & 1
    # Control: with a card to spare outside the 坎, the same 碰 is offered.
    s = game({0: "一", 1: SIX_KAN[:15] + "一一八九十"}, rules=NO_TIANHU, avoid="一八九十壹")
    act(s, 0, "discard:x1")
    assert "peng:x1" in ids(s, 1)


def test_R17_chi_and_bi_leaving_only_kan_is_not_offered() -> None:
    """R17/R19: 吃 一二三 比 一二三 would leave only 坎: no 吃 is offered, no 臭牌 follows."""
    kan5 = "六六六七七七八八八九九九十十十"
    s = game({0: "一", 1: kan5 + "一二三二三"}, rules=NO_TIANHU, avoid="一二三壹")
    act(s, 0, "discard:x1")
    assert not [a for a in ids(s, 1) if a.startswith("chi")]
    pass_claims(s)
    assert not s._chou[1] >> Card.X1 & 1
    # Control: with 壹贰叁 outside the 坎 the same package is offered and leaves them.
    kan4 = kan5[:12]
    s = game({0: "一", 1: kan4 + "一二三二三壹贰叁"}, rules=NO_TIANHU, avoid="一二三壹")
    act(s, 0, "discard:x1")
    assert "chi:x1:x1x2x3,x1x2x3" in ids(s, 1)
    pass_claims(s, keep=[1])
    act(s, 1, "chi:x1:x1x2x3,x1x2x3")
    assert sorted(ids(s, 1)) == ["discard:d1", "discard:d2", "discard:d3"]


def test_R17_forced_wei_leaving_only_kan_owes_no_discard() -> None:
    """R17: a forced 偎 that leaves only 坎 in hand owes no discard; the 下家 draws."""
    s = game({1: SIX_KAN + "一一"}, wall="一", rules=NO_TIANHU, avoid="一二三四五六七壹")
    discard = next(a for a in ids(s, 0) if a.startswith("discard"))
    act(s, 0, discard)
    pass_claims(s)
    if s.phase == CLAIM and s.to_act() == [1]:  # 7 坎 in all: he may 胡, and declines
        assert ids(s, 1) == ["hu", "pass"]
        act(s, 1, "pass")
    wei = find(s.events, "wei")
    assert wei and wei[0].seat == 1 and wei[0].card == Card.X1
    assert not find(s.events, "discard")[1:]  # seat 1 discarded nothing
    assert s.held(1) == 21 and all(n in (0, 3) for n in s.hand_counts(1))
    draws = [e.seat for e in find(s.events, "draw")]
    assert draws[:2] == [1, 2]  # seat 1's 偎, then his 下家 draws


def test_R18_untaken_discard_goes_to_pile() -> None:
    """R18: an open discard nobody takes goes face up to the discarder's pile."""
    s = game([ALL, ALL, ALL], liangzhang="五")
    act(s, 0, "discard:x5")
    pass_claims(s)
    assert s._piles[0] == (Card.X5,)


def test_R21_choices_only() -> None:
    """R21: only choices are actions; 提/偎/跑 and 天胡 never appear among them."""
    s = game({0: "九", 1: "九九九", 2: "四四四四"})
    act(s, 0, "discard:x9")  # triggers a 跑 by itself
    assert {a.type for a in s.actions} <= {DISCARD, CHI, PENG, HU, PASS}
    assert [a.type for a in s.actions] == [DISCARD]
    assert find(s.events, "pao") and find(s.events, "ti")
