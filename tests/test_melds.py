"""门子 (§3), the 胡息 tables (R9, PRESETS.md) and position validation (R1, R12, R17)."""

from __future__ import annotations

import pytest
from hypothesis import given

from paohuzi.core.cards import CARDS, Card, parse_cards
from paohuzi.core.melds import Group, GroupKind, MeldError, is_jiao, is_run
from paohuzi.core.position import Position, PositionError
from paohuzi.core.rules import HUNAN, LUZHOU
from strategies import RUNS, table_melds


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


# -- §3 group definitions -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["一二三", "二三四", "八九十", "二七十", "壹贰叁", "捌玖拾", "贰柒拾", "三一二", "十七二"],
)
def test_s3_ju_runs(text: str) -> None:
    """§3 一句话: three same-size consecutive points, or 二七十 / 贰柒拾 (any order)."""
    assert is_run(cards(text))
    assert Group(GroupKind.JU, cards(text)).kind is GroupKind.JU


@pytest.mark.parametrize(
    "text",
    [
        "一二叁",
        "壹二三",
        "贰七十",
        "九十壹",
        "十一二",
        "一三五",
        "二七九",
        "一一二",
        "一一一",
        "一二",
    ],
)
def test_s3_not_runs(text: str) -> None:
    """§3: sizes never mix in a 句; no wrap-around; 二七十 is the only special run."""
    assert not is_run(cards(text))
    with pytest.raises(MeldError):
        Group(GroupKind.JU, cards(text))


@pytest.mark.parametrize("text", ["一一壹", "一壹壹", "拾十十", "伍伍五"])
def test_s3_jiao(text: str) -> None:
    """§3 绞: one point, mixed sizes (一一壹 / 一壹壹)."""
    assert is_jiao(cards(text)) and not is_run(cards(text))
    Group(GroupKind.JIAO, cards(text))
    Group(GroupKind.CHI, cards(text))  # 吃 may make a 绞


@pytest.mark.parametrize("text", ["一一一", "壹壹壹", "一一二", "一壹贰", "一壹"])
def test_s3_not_jiao(text: str) -> None:
    """§3: three of a kind is a 坎, not a 绞; points must agree."""
    assert not is_jiao(cards(text))
    with pytest.raises(MeldError):
        Group(GroupKind.JIAO, cards(text))


def test_s3_chi_is_a_run_or_jiao() -> None:
    """§3 吃: a 句 or 绞 completed with a taken card; anything else is a MeldError."""
    for good in ["一二三", "贰柒拾", "一一壹"]:
        assert Group(GroupKind.CHI, cards(good)).kind is GroupKind.CHI
    for bad in ["一一一", "一二四", "一二叁"]:
        with pytest.raises(MeldError):
            Group(GroupKind.CHI, cards(bad))


@pytest.mark.parametrize(
    ("kind", "size"),
    [("peng", 3), ("wei", 3), ("chouwei", 3), ("kan", 3), ("pao", 4), ("ti", 4), ("jiang", 2)],
)
def test_s3_identical_groups(kind: str, size: int) -> None:
    """§3: 碰/偎/臭偎/坎 are three identical cards, 跑/提 four, the 将 two."""
    g = Group.of(kind, Card.X5)
    assert g.cards == (Card.X5,) * size
    with pytest.raises(MeldError):
        Group(GroupKind(kind), (Card.X5,) * (size - 1) + (Card.D5,))
    with pytest.raises(MeldError):
        Group(GroupKind(kind), (Card.X5,) * (size + 1))


def test_s3_table_kinds_and_fours() -> None:
    """§3/R17: six table melds; only 跑 and 提 count as fours (k)."""
    table = {k for k in GroupKind if k.is_table}
    assert {k.value for k in table} == {"chi", "peng", "wei", "chouwei", "pao", "ti"}
    assert {k.value for k in GroupKind if k.is_four} == {"pao", "ti"}


# -- R9 胡息 tables ---------------------------------------------------------------------

# (group, 湖南 R9, 泸州 PRESETS.md): values written from the spec tables, not the code.
HUXI_CASES = [
    ("peng:一", 1, 1),
    ("peng:壹", 3, 3),
    ("peng:二", 1, 6),
    ("peng:贰", 3, 9),
    ("kan:三", 3, 6),
    ("kan:叁", 6, 9),
    ("kan:七", 3, 9),
    ("kan:柒", 6, 12),
    ("wei:四", 3, 6),
    ("wei:拾", 6, 12),
    ("chouwei:五", 3, 6),
    ("chouwei:贰", 6, 12),
    ("pao:六", 6, 9),
    ("pao:陆", 9, 12),
    ("pao:十", 6, 12),
    ("pao:拾", 9, 15),
    ("ti:八", 9, 12),
    ("ti:捌", 12, 15),
    ("ti:二", 9, 15),
    ("ti:柒", 12, 18),
    ("ju:一二三", 3, 3),
    ("ju:壹贰叁", 6, 6),
    ("chi:一二三", 3, 3),
    ("chi:壹贰叁", 6, 6),
    ("ju:二七十", 3, 6),
    ("chi:贰柒拾", 6, 9),
    ("ju:二三四", 0, 0),
    ("chi:捌玖拾", 0, 0),
    ("jiao:一一壹", 0, 0),
    ("chi:贰贰二", 0, 0),
    ("jiang:七", 0, 0),
    ("jiang:捌", 0, 0),
]


@pytest.mark.parametrize(("meld", "hunan", "luzhou"), HUXI_CASES)
def test_r9_huxi_tables(meld: str, hunan: int, luzhou: int) -> None:
    """R9 (湖南) and the 泸州 colour table of PRESETS.md (招 = 坎+3, 垅 = 招+3, ≤ 18)."""
    g = Group.parse(meld)
    assert g.huxi(HUNAN) == hunan
    assert g.huxi(LUZHOU) == luzhou


def test_r9_luzhou_pao_ti_derive_from_kan() -> None:
    """PRESETS 泸州: 招 (跑) = 坎 + 3 and 垅 (提) = 招 + 3, at most 18, for every card."""
    for c in CARDS:
        kan = Group.of("kan", c).huxi(LUZHOU)
        assert Group.of("pao", c).huxi(LUZHOU) == kan + 3
        assert Group.of("ti", c).huxi(LUZHOU) == min(18, kan + 6)
        assert Group.of("wei", c).huxi(LUZHOU) == kan


# -- Group text round trip ----------------------------------------------------------------


@given(table_melds())
def test_group_code_round_trip(g: Group) -> None:
    """INTERFACES §1 KIND:CARDS: Group.parse(g.code()) == g, also from the Chinese form."""
    assert Group.parse(g.code()) == g
    assert Group.parse(f"{g.kind.value}:{g.zh}") == g


def test_group_parse_forms() -> None:
    """INTERFACES §1: one card for identical melds, all cards too, any case and notation."""
    assert Group.parse("peng:x10") == Group.of("peng", Card.X10)
    assert Group.parse("ti:一") == Group.parse("ti:一一一一") == Group.parse("TI: x1")
    assert Group.parse("chi:x1 x2 x3") == Group.parse("chi:一二三")
    assert Group.parse("peng:x10").code() == "peng:x10"
    assert Group.parse("chi:三一二").code() == "chi:x1x2x3"
    assert len(RUNS) == 18  # 8 runs + 二七十, per size


@pytest.mark.parametrize(
    "text",
    [
        "peng",
        "peng:",
        "peng:一二",
        "peng:一一二",
        "chi:一二四",
        "chi:一二叁",
        "chi:一一一",
        "pao:一一一",
        "ti:一一一一一",
        "foo:一",
        "chi:一二q",
        ":一二三",
    ],
)
def test_meld_error_on_non_melds(text: str) -> None:
    """§3: anything that is not the named group raises MeldError (a ValueError)."""
    with pytest.raises(MeldError):
        Group.parse(text)


# -- Position validation: R1, R12, R17 ----------------------------------------------------


def test_valid_position_examples() -> None:
    """R17: 20 held with no 跑/提, 20 with one, 21 with two."""
    Position.parse("一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾", "一")
    Position.parse("二三四五六七八九十壹贰叁肆伍陆柒", "一", ["ti:捌"])
    p = Position.parse("三四五六七八九十壹贰叁肆伍", "一", ["ti:捌", "pao:二"])
    assert p.four_count == 2 and p.held == 21


def test_r1_five_of_a_kind_is_rejected() -> None:
    """R1: at most 4 copies of a card across hand, table and the winning card."""
    with pytest.raises(PositionError, match="copies"):
        Position.parse("一二三四五六七八九十壹贰叁肆伍陆", "二", ["ti:一"])
    with pytest.raises(PositionError, match="copies"):
        Position.parse("一二三四五六七八九十壹贰叁肆伍陆柒", "一", ["peng:一"])


def test_r12_four_in_hand_is_rejected() -> None:
    """R12(a): four identical cards in hand must already be a 提."""
    with pytest.raises(PositionError, match="提"):
        Position.parse("一一一一五六七八九十壹贰叁肆伍陆柒捌玖拾", "二")


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("一二三四五六七八九十壹贰叁肆伍陆柒捌玖", []),  # 19, no 跑/提
        ("一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾三", []),  # 21, no 跑/提
        ("二三四五六七八九十壹贰叁肆伍陆柒捌", ["ti:玖"]),  # 21 with one 提
        ("三四五六七八九十壹贰叁肆", ["ti:捌", "pao:二"]),  # 20 with two
    ],
)
def test_r17_impossible_hand_size_is_rejected(hand: str, table: list[str]) -> None:
    """R17: a waiting player holds exactly 20 + max(0, k − 1) cards."""
    with pytest.raises(PositionError, match="R17"):
        Position.parse(hand, "一", table)


def test_position_needs_a_winning_card_unless_tianhu() -> None:
    """R28: only a mandatory 天胡 has no winning card."""
    hand = "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾"
    with pytest.raises(PositionError):
        Position.parse(hand, None)
    assert Position.parse(hand, None, tianhu=True).win is None


def test_position_rejects_hand_groups_on_the_table() -> None:
    """§3: only 吃/碰/偎/臭偎/跑/提 are table melds."""
    with pytest.raises(PositionError):
        Position(cards("二三四五六七八九十壹贰叁肆伍陆柒捌"), (Group.of("kan", Card.X1),), Card.D10)


@pytest.mark.parametrize(
    "d",
    [
        {"hand": "一二q", "win": "一"},
        {"hand": "一二三", "win": "一", "table": ["peng:一二"]},
        {"hand": "一二三", "win": "一", "self_drawn": "yes"},
        {"hand": "一二三", "win": "一", "bogus": 1},
        {"win": "一"},
        {"hand": "一二三", "win": "一", "table": "peng:x1"},
        [],
    ],
)
def test_position_from_dict_errors(d: object) -> None:
    """INTERFACES §1: bad input is a PositionError (→ invalid_input), never a crash."""
    with pytest.raises(PositionError):
        Position.from_dict(d)  # type: ignore[arg-type]
