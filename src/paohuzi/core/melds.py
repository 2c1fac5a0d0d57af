"""门子 (ménzi): the groups a winning hand is made of, and the table melds (§3).

A :class:`Group` is a small value object with a string round-trip
(``Group.parse("peng:x10").code() == "peng:x10"``). Its 胡息 is not stored: it
comes from the rules' table (R9), so that presets can price groups differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import CARDS, Card, CardError, format_cards, names_wang, parse_cards


class GroupKind(StrEnum):
    """The kinds of 门子; the first six are table melds (进牌区)."""

    CHI = "chi"  # 吃: a 句 or 绞 completed with a taken card
    PENG = "peng"  # 碰: a pair + someone else's card
    WEI = "wei"  # 偎: a pair + one's own turned-up card, face down
    CHOUWEI = "chouwei"  # 臭偎: a 偎 of one's own 臭牌, one card shown
    PAO = "pao"  # 跑: four of a kind, shown
    TI = "ti"  # 提: four of a kind, one card shown
    KAN = "kan"  # 坎: three of a kind in hand, never split
    JU = "ju"  # 一句话: a run (or 二七十; 一五十 with 衡阳's option) in hand
    JIAO = "jiao"  # 绞: three of one point, mixed sizes, in hand
    JIANG = "jiang"  # 将: the one pair a hand with 跑/提 needs

    @property
    def zh(self) -> str:
        return _ZH[self]

    @property
    def is_table(self) -> bool:
        return self in TABLE_KINDS

    @property
    def is_four(self) -> bool:
        """跑 and 提: the melds that count towards k in R17 and need a 将 (R22)."""
        return self is GroupKind.PAO or self is GroupKind.TI


_ZH = {
    GroupKind.CHI: "吃",
    GroupKind.PENG: "碰",
    GroupKind.WEI: "偎",
    GroupKind.CHOUWEI: "臭偎",
    GroupKind.PAO: "跑",
    GroupKind.TI: "提",
    GroupKind.KAN: "坎",
    GroupKind.JU: "句",
    GroupKind.JIAO: "绞",
    GroupKind.JIANG: "将",
}
TABLE_KINDS = frozenset(
    {GroupKind.CHI, GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.PAO, GroupKind.TI}
)
_SIZE = {GroupKind.PAO: 4, GroupKind.TI: 4, GroupKind.JIANG: 2}


# Rows of a table meld's integer key (``Group.key = row * 20 + card``): what the
# evaluator needs to price and upgrade it without looking at the Group again.
# 一五十 (``ju1510``) comes last: the rows before it keep their keys (the C kernel reads 180).
MELD_ROWS = ("peng", "wei", "chouwei", "pao", "ti", "ju123", "ju2710", "ju", "jiao", "ju1510")
YIWUSHI_KEY = MELD_ROWS.index("ju1510") * 20  # a table 一五十's Group.key is at least this


class MeldError(ValueError):
    """Cards that do not make the named group."""


def is_run(cards: tuple[int, ...] | list[int], yiwushi: bool = False) -> bool:
    """一句话 (R§3): three cards of one size, consecutive points or 二七十 — and
    一五十 with ``yiwushi`` (衡阳's option, ``Rules.yiwushi``)."""
    if len(cards) != 3:
        return False
    a, b, c = sorted(cards)
    if a // 10 != c // 10:
        return False
    pa, pb, pc = a % 10 + 1, b % 10 + 1, c % 10 + 1
    return (
        (pb == pa + 1 and pc == pb + 1)
        or (pa, pb, pc) == (2, 7, 10)
        or (yiwushi and (pa, pb, pc) == (1, 5, 10))
    )


def is_yiwushi(cards: tuple[int, ...] | list[int]) -> bool:
    """一五十 / 壹伍拾: the 句 衡阳's option adds (one size, points 1, 5, 10)."""
    return is_run(cards, True) and not is_run(cards)


def is_jiao(cards: tuple[int, ...] | list[int]) -> bool:
    """绞: three cards of one point, both sizes present (一一壹 / 一壹壹)."""
    if len(cards) != 3:
        return False
    points = {c % 10 for c in cards}
    sizes = {c // 10 for c in cards}
    return len(points) == 1 and len(sizes) == 2


def huxi_row(kind: GroupKind, cards: tuple[int, ...]) -> str:
    """The row of the 胡息 table (R9) that prices this group."""
    if kind in (GroupKind.CHI, GroupKind.JU):
        if is_jiao(cards):
            return "jiao"
        points = sorted(c % 10 + 1 for c in cards)
        if points == [1, 2, 3]:
            return "ju123"
        if points == [2, 7, 10]:
            return "ju2710"
        if points == [1, 5, 10]:
            return "ju1510"
        return "ju"
    if kind is GroupKind.CHOUWEI:
        return "wei"
    if kind is GroupKind.JIANG:
        return "pair"
    return kind.value


@dataclass(frozen=True, slots=True)
class Group:
    """One 门子: its kind and its cards (sorted)."""

    kind: GroupKind
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(Card(c) for c in self.cards)))
        _check(self.kind, self.cards)

    @classmethod
    def of(cls, kind: GroupKind | str, card: int, count: int | None = None) -> Group:
        """A group of identical cards: ``Group.of("ti", Card.X1)``."""
        k = GroupKind(kind)
        n = count if count is not None else _SIZE.get(k, 3)
        return cls(k, (Card(card),) * n)

    @classmethod
    def parse(cls, text: str) -> Group:
        """``"peng:x10"``, ``"chi:一二三"``, ``"ti:一"`` or ``"ti:一一一一"``.

        Groups are immutable: one read of each text is kept and shared (a batch
        of positions repeats the same few hundred melds)."""
        g = _PARSED.get(text) if isinstance(text, str) else None
        if g is None:
            g = cls._parse(text)
            if len(_PARSED) >= 4096:
                _PARSED.clear()
            _PARSED[text] = g
        return g

    @classmethod
    def _parse(cls, text: str) -> Group:
        kind_s, sep, cards_s = text.partition(":")
        if not sep:
            raise MeldError(f"meld {text!r} is not KIND:CARDS")
        try:
            kind = GroupKind(kind_s.strip().lower())
        except ValueError:
            raise MeldError(
                f"unknown meld kind {kind_s!r} in {text!r} "
                f"(one of {', '.join(k.value for k in TABLE_KINDS)})"
            ) from None
        try:
            cards = parse_cards(cards_s)
        except CardError as e:
            if names_wang(cards_s):
                raise MeldError(
                    f"a 王 is never in a table meld: {text!r} (R39: a 王 is never "
                    "吃/碰/偎/跑/提'd, nor used in a 吃 or 比; put it in the hand)"
                ) from None
            raise MeldError(f"{e} in meld {text!r}") from None
        need = _SIZE.get(kind, 3)
        if kind not in (GroupKind.CHI, GroupKind.JU, GroupKind.JIAO) and len(cards) == 1:
            cards = cards * need
        return cls(kind, tuple(cards))

    def code(self) -> str:
        """The ASCII form ``kind:cards`` that :meth:`parse` reads back."""
        if self.kind in (GroupKind.CHI, GroupKind.JU, GroupKind.JIAO):
            return f"{self.kind.value}:{''.join(c.code for c in self.cards)}"
        return f"{self.kind.value}:{self.cards[0].code}"

    @property
    def zh(self) -> str:
        return format_cards(self.cards)

    @property
    def key(self) -> int:
        """A small int naming a table meld's pricing row and card (``MELD_ROWS``)."""
        hit = _KEYS.get(id(self))  # parsed and engine groups are shared: by identity
        if hit is not None and hit[0] is self:
            return hit[1]
        row = huxi_row(self.kind, self.cards) if self.kind is GroupKind.CHI else self.kind.value
        key = MELD_ROWS.index(row) * 20 + self.cards[0]
        if len(_KEYS) >= 4096:
            _KEYS.clear()
        _KEYS[id(self)] = (self, key)  # holding the group keeps its id unique
        return key

    def huxi(self, rules: object) -> int:
        """胡息 of this group under ``rules`` (a :class:`~paohuzi.core.rules.Rules`)."""
        table = rules.huxi_table  # type: ignore[attr-defined]
        hit = _HUXI.get(id(self))  # a 王 settlement prices the same groups thousands of times
        if hit is not None and hit[0] is self and hit[1] is table:
            return hit[2]
        value: int = table.value(huxi_row(self.kind, self.cards), self.cards[0])
        if len(_HUXI) >= 4096:
            _HUXI.clear()
        _HUXI[id(self)] = (self, table, value)  # holding both keeps their ids unique
        return value

    def __str__(self) -> str:
        return f"{self.kind.zh}{self.zh}"


_PARSED: dict[str, Group] = {}
_KEYS: dict[int, tuple[Group, int]] = {}
_HUXI: dict[int, tuple[Group, object, int]] = {}
_SHARED: dict[tuple[GroupKind, tuple[int, ...]], Group] = {}


def shared_group(kind: GroupKind, cards: tuple[int, ...]) -> Group:
    """The one :class:`Group` of ``kind`` with these card kinds (any order): groups are
    immutable, so the evaluator's splits and the 王 search share them, and each one's
    key and 胡息 are worked out once (their memos go by object). There are a few
    hundred in all (every 门子 shape of 20 kinds), so the cache is not bounded."""
    k = (kind, tuple(sorted(cards)))
    g = _SHARED.get(k)
    if g is None:
        g = _SHARED[k] = Group(kind, tuple([CARDS[c] for c in k[1]]))
    return g


def _check(kind: GroupKind, cards: tuple[Card, ...]) -> None:
    need = _SIZE.get(kind, 3)
    if len(cards) != need:
        raise MeldError(f"{kind.value} needs {need} cards, got {len(cards)}")
    # 一五十 is a shape here; the rules say whether it is played (the engine offers it
    # only with Rules.yiwushi, the evaluator refuses a table 一五十 without)
    if kind in (GroupKind.CHI,):
        if not (is_run(cards, True) or is_jiao(cards)):
            raise MeldError(f"chi {format_cards(cards)} is neither a 句 nor a 绞")
    elif kind is GroupKind.JU:
        if not is_run(cards, True):
            raise MeldError(f"{format_cards(cards)} is not a 句")
    elif kind is GroupKind.JIAO:
        if not is_jiao(cards):
            raise MeldError(f"{format_cards(cards)} is not a 绞")
    elif len(set(cards)) != 1:
        raise MeldError(f"{kind.value} needs identical cards, got {format_cards(cards)}")
