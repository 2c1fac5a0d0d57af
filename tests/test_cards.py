"""Cards, deck and notation: R1 (deck), R2 (point), R3 (colour), R4 (notation)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paohuzi.core.cards import (
    BIG,
    CARDS,
    SMALL,
    Card,
    CardError,
    format_cards,
    full_deck,
    parse_cards,
)

SMALL_ZH = "一二三四五六七八九十"
BIG_ZH = "壹贰叁肆伍陆柒捌玖拾"


def test_r1_deck_has_80_cards_four_of_each_of_20_kinds() -> None:
    """R1: 80 cards, 20 kinds (10 小 + 10 大), four copies each."""
    deck = full_deck()
    assert len(deck) == 80
    counts = Counter(deck)
    assert len(counts) == 20 and set(counts.values()) == {4}
    assert len(CARDS) == 20 and len(SMALL) == 10 and len(BIG) == 10
    assert all(not c.is_big for c in SMALL) and all(c.is_big for c in BIG)


@pytest.mark.parametrize("point", range(1, 11))
def test_r2_point_ignores_size(point: int) -> None:
    """R2: 牌点 1–10, the same for 小 and 大 (伍 and 五 are both 5)."""
    small = parse_cards(SMALL_ZH[point - 1])[0]
    big = parse_cards(BIG_ZH[point - 1])[0]
    assert small.point == big.point == point
    assert small.partner == big and big.partner == small


def test_r2_five_example() -> None:
    """R2: the spec's own example, 伍 and 五."""
    assert Card.parse("伍").point == Card.parse("五").point == 5


def test_r3_red_cards_are_2_7_10_of_both_sizes() -> None:
    """R3: 二七十 and 贰柒拾 are red (红字), the other 14 kinds black."""
    red = {c for c in CARDS if c.is_red}
    assert red == set(parse_cards("二七十贰柒拾"))
    assert sum(1 for c in full_deck() if c.is_red) == 24


@pytest.mark.parametrize("i", range(20))
def test_r4_both_notations_name_the_same_card(i: int) -> None:
    """R4: 一…十 / 壹…拾 and x1…x10 / d1…d10, round trips both ways."""
    zh = (SMALL_ZH + BIG_ZH)[i]
    code = ("x" if i < 10 else "d") + str(i % 10 + 1)
    c = Card.parse(zh)
    assert Card.parse(code) == c == Card.parse(code.upper())
    assert c.zh == zh and c.code == code and str(c) == zh
    assert Card.parse(c.code) == c and Card.parse(c.zh) == c


@pytest.mark.parametrize(
    "text",
    ["一二三", "x1 x2 x3", "x1,x2,x3", " x1 , x2 ,x3 ", "一 二 三", "一,二,三", "x1二x3", "x1x2x3"],
)
def test_r4_whitespace_and_comma_tolerant(text: str) -> None:
    """R4: `一二三` and `x1 x2 x3` mean the same; spaces/commas do not matter."""
    assert parse_cards(text) == [Card.X1, Card.X2, Card.X3]


def test_r4_x10_is_not_x1_then_zero() -> None:
    """R4: ``x10`` is 十 and ``d10`` is 拾, not 一/壹 followed by junk."""
    assert parse_cards("x10 d10 x1") == [Card.X10, Card.D10, Card.X1]
    assert parse_cards("x10x1") == [Card.X10, Card.X1]


def test_r4_empty_text_is_no_cards() -> None:
    """R4: an empty hand (耍猴 after the last card is played) is legal text."""
    assert parse_cards("") == [] and parse_cards("  ") == []


@pytest.mark.parametrize("junk", ["a", "x0", "x11z", "d", "七q", "🀄", "x", "y3", "1"])
def test_r4_junk_raises_card_error(junk: str) -> None:
    """R4: anything that is not a card raises CardError naming it."""
    with pytest.raises(CardError):
        parse_cards(junk)


def test_r4_zero_glyph_is_junk() -> None:
    """R4: 〇 is no card: ``一〇`` (a mistyped 十) must raise, not silently read as 一."""
    with pytest.raises(CardError):
        parse_cards("一〇")


def test_r4_card_error_is_a_value_error_and_names_the_text() -> None:
    """R4: the error is a ValueError whose message shows the bad input."""
    with pytest.raises(ValueError, match="q"):
        parse_cards("一二q")


def test_r4_non_string_is_rejected() -> None:
    """R4: only strings are parsed."""
    with pytest.raises(CardError):
        parse_cards(123)  # type: ignore[arg-type]


def test_r4_card_parse_wants_exactly_one_card() -> None:
    """R4: Card.parse reads one card, not zero or two."""
    for text in ("", "一二", "x1 x2"):
        with pytest.raises(CardError):
            Card.parse(text)


@given(st.lists(st.sampled_from(CARDS), max_size=25))
def test_r4_format_parse_round_trip(cards: list[Card]) -> None:
    """R4: printing in either notation and parsing back gives the same cards."""
    for style in ("zh", "code"):
        assert parse_cards(format_cards(cards, style)) == cards


def test_r4_format_styles() -> None:
    """R4: the printed forms of both notations."""
    cs = parse_cards("一拾伍")
    assert format_cards(cs) == "一拾伍"
    assert format_cards(cs, "code") == "x1 d10 d5"
    with pytest.raises(ValueError):
        format_cards(cs, "emoji")


def test_r4_full_width_separators() -> None:
    """R4: a Chinese keyboard's ， and 、 separate cards like , does."""
    assert parse_cards("一，二、三") == parse_cards("x1,x2,x3") == parse_cards("一二三")


@pytest.mark.parametrize(
    ("text", "word"),
    [("x11 x2", "x11"), ("x4,x11", "x11"), ("d12", "d12"), ("x0", "x0"), ("x1q", "x1q")],
)
def test_an_unreadable_ascii_card_is_named_whole(text: str, word: str) -> None:
    """'x11' is named as 'x11' with the ASCII range (it read "unknown card '1'")."""
    with pytest.raises(CardError, match=f"unknown card '{word}' .*x1–x10 and d1–d10"):
        parse_cards(text)
    with pytest.raises(CardError, match=r"unknown card 'z' in '一二三z'$"):
        parse_cards("一二三z")
