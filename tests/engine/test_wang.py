"""R39/R40 by hand: 王 notation, what a 王 may stand for, and bad input.

The search itself is checked against an independent brute force in
tests/presets/test_wang_oracle.py; these are the cases a player would try first.
"""

from __future__ import annotations

import pytest

from paohuzi.core.cards import CardError, format_cards, parse_cards, parse_tiles
from paohuzi.core.position import Position, PositionError
from paohuzi.core.rules import HENGYANG
from paohuzi.core.scoring import settle


def test_wang_notation_round_trips() -> None:
    """R39/INTERFACES §4: 王 is ``王`` / ``w`` in a card list; never a card kind."""
    cards, n = parse_tiles("一二 王 w W")
    assert [c.code for c in cards] == ["x1", "x2"] and n == 3
    assert format_cards(cards, "code", n) == "x1 x2 w w w"
    assert format_cards(cards, "zh", n) == "一二王王王"
    with pytest.raises(CardError, match="王"):
        parse_cards("一王")


def test_three_wang_alone_are_a_kan_of_the_best_kind() -> None:
    """R40: three 王 with no natural card are a 坎, of the kind worth most: 大 (6)."""
    p = Position.from_dict(
        {"hand": "一二三四五六七八九壹贰王王王", "win": "叁", "self_drawn": True}, hand_size=14
    )
    s = settle(p, HENGYANG)
    # 一二三 3 + 壹贰叁 6 + 坎 of a 大 card 6 = 15 → 囤 1 + 9//3 = 4; 自摸 2 番
    assert s.win and s.huxi == 15 and s.di == 8
    assert len(set(s.wang)) == 1 and s.wang[0].is_big and len(s.wang) == 3


def test_a_drawn_wang_wins_as_self_drawn_and_may_make_a_pao() -> None:
    """R39/R25: a 王 just drawn wins only as the winner's own card; it may turn a table
    碰 into a 跑 (here 碰壹 → 跑壹, 9 胡息) and is settled 自摸."""
    p = Position.from_dict(
        {"hand": "三五六六七八王王", "table": ["peng:一一一", "peng:壹壹壹"], "win": "王"},
        hand_size=14,
    )
    assert p.self_drawn and p.win_wang and p.to_dict()["win"] == "w"
    s = settle(p, HENGYANG)
    assert s.win and s.huxi == 10 and s.zimo
    assert "跑壹壹壹壹" in [str(g) for g in s.groups]
    assert sorted(c.zh for c in s.wang) == ["六", "四", "壹"]
    assert Position.from_dict(p.to_dict(), hand_size=14) == p


def test_a_hand_that_no_assignment_completes_does_not_win() -> None:
    s = settle(
        Position.from_dict({"hand": "一三五七九壹叁伍柒玖拾捌陆王", "win": "二"}, hand_size=14),
        HENGYANG,
    )
    assert not s.win and s.error == "not_winning"


@pytest.mark.parametrize(
    ("d", "message"),
    [
        ({"hand": "一二三王王王王王", "win": "四"}, "at most 4"),
        ({"hand": "一二三", "table": ["chi:一二王"], "win": "四"}, "王"),
        ({"hand": "一二", "win": "三王"}, "one card"),
        ({"hand": "一二三王王王王", "win": "王"}, "at most 4"),
    ],
)
def test_bad_wang_input_is_refused_with_a_clear_error(d: dict[str, object], message: str) -> None:
    """Bad input (issue 23): 5 王, a 王 in a 吃 group, two winning cards."""
    with pytest.raises(PositionError, match=message):
        Position.from_dict(d)
