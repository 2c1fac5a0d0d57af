"""字牌 (zìpái): the 20 card kinds, the 80-card deck and their notation (R1–R4).

A card kind is a small int (0–9 小 一…十, 10–19 大 壹…拾) so that hot loops can
index lists with it; :class:`Card` gives it a name, a point, a size and a colour
and round-trips through both notations of R4 (``"八"`` / ``"x8"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum

SMALL_ZH = "一二三四五六七八九十"
BIG_ZH = "壹贰叁肆伍陆柒捌玖拾"
RED_POINTS = frozenset({2, 7, 10})  # R3: 二七十 / 贰柒拾

WANG_ZH, WANG_CODE = "王", "w"  # R39: a wild card, outside the 20 kinds
# Traditional and variant glyphs seen in the seeds and in players' typing.
_ALIASES = {"貳": "贰", "參": "叁", "陸": "陆"}
_SEPARATORS = frozenset(",，、;；")


class CardError(ValueError):
    """A string that is not a card, or a card list that cannot be parsed."""


class Card(IntEnum):
    """字 (zì): one of the 20 card kinds; four copies of each make the deck (R1)."""

    X1 = 0
    X2 = 1
    X3 = 2
    X4 = 3
    X5 = 4
    X6 = 5
    X7 = 6
    X8 = 7
    X9 = 8
    X10 = 9
    D1 = 10
    D2 = 11
    D3 = 12
    D4 = 13
    D5 = 14
    D6 = 15
    D7 = 16
    D8 = 17
    D9 = 18
    D10 = 19
    W = 20  # 王 (R39): a wild card, no kind of its own; CARDS holds the 20 kinds only

    @property
    def point(self) -> int:
        """牌点 (R2): 1–10, the same for 伍 and 五 (0 for a 王, which has none)."""
        return 0 if self == 20 else self % 10 + 1

    @property
    def is_big(self) -> bool:
        """大字 (壹…拾) rather than 小字 (一…十); a 王 is neither."""
        return 10 <= self < 20

    @property
    def is_wang(self) -> bool:
        """王 (R39): the wild card rather than one of the 20 kinds."""
        return self == 20

    @property
    def is_red(self) -> bool:
        """红字 (R3): 二七十 and 贰柒拾."""
        return self.point in RED_POINTS

    @property
    def zh(self) -> str:
        """The Chinese character: ``一`` … ``十``, ``壹`` … ``拾`` (``王``)."""
        if self == 20:
            return WANG_ZH
        return (BIG_ZH if self.is_big else SMALL_ZH)[self % 10]

    @property
    def code(self) -> str:
        """The ASCII name of R4: ``x1`` … ``x10``, ``d1`` … ``d10`` (``w``)."""
        if self == 20:
            return WANG_CODE
        return ("d" if self.is_big else "x") + str(self.point)

    @property
    def partner(self) -> Card:
        """The same point in the other size (五 ↔ 伍): the third card of a 绞."""
        if self == 20:
            return self
        return Card((self + 10) % 20)

    @classmethod
    def parse(cls, text: str) -> Card:
        """One card from either notation; raises :class:`CardError` otherwise."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise CardError(f"expected one card, got {text!r}")
        return cards[0]

    def __str__(self) -> str:
        return self.zh

    def __repr__(self) -> str:
        return f"Card.{self.name}"


CARDS: tuple[Card, ...] = tuple(Card)[:20]  # the 20 kinds (a 王 is none of them)
WANG = 20  # R39: a 王 among deck ints (the 20 kinds are 0–19): Card.W
MAX_WANG = 4  # R39: a deck holds 0–4 王
# "x1"…"x10", "d1"…"d10" by value, then "w" at index 20: a deck or event card as text
CODES: tuple[str, ...] = tuple(c.code for c in Card)
BY_CODE: dict[str, Card] = {c.code: c for c in CARDS}  # the inverse of CODES
SMALL: tuple[Card, ...] = CARDS[:10]
BIG: tuple[Card, ...] = CARDS[10:]
COPIES = 4
DECK_SIZE = 80

# "x10" must win over "x1" + "0", so longer codes come first in the alternation.
_TOKEN = re.compile(r"\s*(?:([xXdD])(10|[1-9])|(.))\s*")
_ZH_INDEX = {ch: i for i, ch in enumerate(SMALL_ZH + BIG_ZH)}
# Whole words of the fast path of :func:`_tokens`: a code or glyph → card (None: 王).
_WORD: dict[str, Card | None] = {
    **{ch: CARDS[i] for ch, i in _ZH_INDEX.items()},
    **{ch: CARDS[_ZH_INDEX[a]] for ch, a in _ALIASES.items()},
    **{c.code: c for c in CARDS},
    **{c.code.upper(): c for c in CARDS},
    WANG_ZH: None,
    WANG_CODE: None,
    "W": None,
}


def _tokens(text: str) -> Iterable[Card | None]:
    """The cards of ``text`` in order, ``None`` for each 王."""
    if not isinstance(text, str):
        raise CardError(f"cards must be a string, not {type(text).__name__}")
    # The forms a program writes — codes between spaces, or glyphs run together —
    # are read by dict lookups; anything else (commas, aliases, errors) by the
    # tokenizer below, which says where it stopped.
    words = text.split()
    try:
        return [_WORD[w] for w in words]
    except KeyError:
        pass
    if len(words) == 1:
        try:
            return [_WORD[ch] for ch in words[0]]
        except KeyError:
            pass
    return _scan(text)


def _scan(text: str) -> Iterator[Card | None]:
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:  # pragma: no cover - the pattern always matches a char
            raise CardError(f"cannot read cards at {text[pos:]!r}")
        size, num, ch = m.groups()
        if size is not None:
            yield CARDS[(10 if size in "dD" else 0) + int(num) - 1]
        else:
            ch = _ALIASES.get(ch, ch)
            if ch in _SEPARATORS:
                pass
            elif ch in _ZH_INDEX:
                yield CARDS[_ZH_INDEX[ch]]
            elif ch in (WANG_ZH, WANG_CODE, "W"):
                yield None
            else:
                raise CardError(_unknown(text, pos, ch))
        pos = m.end()


def _unknown(text: str, pos: int, ch: str) -> str:
    """The message for an unreadable character: the whole ASCII word it ends (the
    second 1 of ``x11`` names ``x11``), with the ASCII cards' range."""
    start, end = pos, pos + 1
    while start and text[start - 1].isascii() and text[start - 1].isalnum():
        start -= 1
    while end < len(text) and text[end].isascii() and text[end].isalnum():
        end += 1
    word = text[start:end]
    if word[:1] in "xXdD" and len(word) > 1:
        return f"unknown card {word!r} in {text!r} (ASCII cards are x1–x10 and d1–d10)"
    return f"unknown card {ch!r} in {text!r}"


def parse_cards(text: str) -> list[Card]:
    """Parse a card list in either notation (R4), tolerant of spaces and commas
    (also the full-width ``，`` and ``、`` a Chinese keyboard types).

    ``parse_cards("一二三") == parse_cards("x1 x2 x3") == parse_cards("x1,x2,x3")``.
    A 王 is refused here (it is no card kind): see :func:`parse_tiles`.
    """
    out = list(_tokens(text))
    if None in out:
        raise CardError(f"a 王 (wild card) cannot stand here: {text!r}")
    return out  # type: ignore[return-value]


def parse_tiles(text: str) -> tuple[list[Card], int]:
    """Cards and 王 (R39, ``王`` / ``w``): the natural cards and how many 王."""
    out = list(_tokens(text))
    if None not in out:
        return out, 0  # type: ignore[return-value]  # no 王: every entry is a Card
    return [c for c in out if c is not None], out.count(None)


def names_wang(text: str) -> bool:
    """Does ``text`` name a 王 (R39) among otherwise readable cards? (to say why a
    card list that must hold card kinds only was refused)"""
    try:
        return parse_tiles(text)[1] > 0
    except CardError:
        return False


def parse_deck_cards(text: str) -> list[Card]:
    """Cards and 王 in their order (a deck or a wall, R39): a 王 is :attr:`Card.W`."""
    return [Card.W if c is None else c for c in _tokens(text)]


def card_or_wang(text: str) -> Card:
    """One card or a 王 (``w`` / ``王`` → :attr:`Card.W`): an event's card."""
    cards = parse_deck_cards(text)
    if len(cards) != 1:
        raise CardError(f"expected one card, got {text!r}")
    return cards[0]


def format_cards(cards: Iterable[int], style: str = "zh", wang: int = 0) -> str:
    """Cards as text: ``"zh"`` → ``一二三``, ``"code"`` → ``x1 x2 x3``; ``wang``
    王 follow them (``王`` / ``w``)."""
    cs = [Card(c) for c in cards]
    if style == "zh":
        return "".join(c.zh for c in cs) + WANG_ZH * wang
    if style == "code":
        return " ".join([c.code for c in cs] + [WANG_CODE] * wang)
    raise ValueError(f"unknown card style {style!r}")


def full_deck() -> list[Card]:
    """The 80 cards of R1 in a fixed order (four of each kind, 一 first)."""
    return [c for c in CARDS for _ in range(COPIES)]
