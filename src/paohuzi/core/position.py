"""局面 (júmiàn): a position to score — hand, table melds, winning card, how won.

This is the ``score --batch`` input form of INTERFACES.md §1 and the
``result.position`` of a game record (§4). Constructing a :class:`Position`
validates it against the card counts of R1 and R17, so a position that could
not occur in play is rejected with :class:`PositionError` naming the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cached_property
from operator import itemgetter
from typing import Any

from .cards import _WORD, CARDS, COPIES, Card, CardError, format_cards, parse_tiles
from .melds import MELD_ROWS, TABLE_KINDS, YIWUSHI_KEY, Group, GroupKind, MeldError

# Position.facts' bit above the counts: 王 (R39–R41) or 醒 (R42) take part.
WILD_FACT = 1 << 29


class PositionError(ValueError):
    """A position that is malformed or could not occur in play."""


class WangPattern(StrEnum):
    """王钓 / 王闯 / 王炸 (R41) and their 王 forms (the incoming card a drawn 王): the
    incoming card joins 1 / 2 / 3 王 from the hand as a fixed pair / 坎 / 提."""

    WANGDIAO = "wangdiao"
    WANGDIAO_WANG = "wangdiao_wang"
    WANGCHUANG = "wangchuang"
    WANGCHUANG_WANG = "wangchuang_wang"
    WANGZHA = "wangzha"
    WANGZHA_WANG = "wangzha_wang"

    @property
    def hand_wang(self) -> int:
        """王 taken from the hand into the fixed group."""
        return 1 + _PATTERN_ORDER.index(self) // 2

    @property
    def on_wang(self) -> bool:
        """The incoming card is a 王 just drawn (王钓王 / 王闯王 / 王炸王)."""
        return self.value.endswith("_wang")

    @property
    def zh(self) -> str:
        return ("王钓", "王钓王", "王闯", "王闯王", "王炸", "王炸王")[self.slot]

    @property
    def slot(self) -> int:
        """Place in ``Rules.wang_fan`` (the order of PRESETS.md yongzhou's table)."""
        return _PATTERN_ORDER.index(self)


_PATTERN_ORDER = tuple(WangPattern)


@dataclass(frozen=True, init=False)
class Position:
    """A would-be winning position.

    ``hand`` is the concealed hand *before* the winning card; ``win`` is the
    winning card (``None`` only for a mandatory 天胡, R28). ``self_drawn`` means
    the winner turned the card up himself (自摸); ``last_card`` that it was the
    last wall card (海底). ``tianhu``/``dihu`` mark R28/R29 wins for doubling.
    ``hand_size`` is the deal size (20); ``extra`` carries preset-specific facts
    (e.g. ``tinghu`` for 常德's 听胡) without widening this class for every region.
    """

    hand: tuple[Card, ...]
    table: tuple[Group, ...] = ()
    win: Card | None = None
    self_drawn: bool = False
    last_card: bool = False
    tianhu: bool = False
    dihu: bool = False
    hand_size: int = 20
    extra: tuple[tuple[str, Any], ...] = field(default=())
    xing: tuple[Card, ...] = ()  # R42: the 醒牌 of each card turned (连翻 turns more)
    wang: int = 0  # R39/R40: 王 in the concealed hand (wild; the hand lists natural cards)
    win_wang: bool = False  # the winning card is a 王 the winner just drew (``win`` None)
    pattern: WangPattern | None = None  # R41: a 王钓/王闯/王炸 win (the fixed group)

    # Derived once, so that evaluating many positions does no parsing (not compared).
    packed: int = field(init=False, repr=False, compare=False, default=0)
    table_keys: tuple[int, ...] = field(init=False, repr=False, compare=False, default=())
    # Key of the table 碰/偎/臭偎 the winning card would upgrade to 跑/提 (−1: none).
    up_key: int = field(init=False, repr=False, compare=False, default=-1)
    # evaluator.shape_flags of the holding: which completions make the 门子 of a win.
    shape: tuple[bool, bool, bool] = field(
        init=False, repr=False, compare=False, default=(False, False, False)
    )

    def __init__(
        self,
        hand: tuple[Card, ...],
        table: tuple[Group, ...] = (),
        win: Card | None = None,
        self_drawn: bool = False,
        last_card: bool = False,
        tianhu: bool = False,
        dihu: bool = False,
        hand_size: int = 20,
        extra: tuple[tuple[str, Any], ...] = (),
        xing: tuple[Card, ...] = (),
        wang: int = 0,
        win_wang: bool = False,
        pattern: WangPattern | None = None,
    ) -> None:
        # The dataclass's frozen __init__ sets each field through object.__setattr__;
        # filling __dict__ directly costs a fraction (positions are read in bulk).
        d = self.__dict__
        d["hand"] = tuple(sorted([c if type(c) is Card else Card(c) for c in hand]))
        d["table"] = tuple(table)
        d["win"] = None if win is None else Card(win)
        d["self_drawn"], d["last_card"] = self_drawn or win_wang, last_card  # R39: a 王 wins
        d["tianhu"], d["dihu"], d["hand_size"] = tianhu, dihu, hand_size  # only self-drawn
        d["extra"], d["xing"] = extra, tuple(Card(c) for c in xing) if xing else ()
        d["wang"], d["win_wang"], d["pattern"] = wang, win_wang, pattern
        if pattern is not None:
            try:
                d["pattern"] = WangPattern(pattern)
            except ValueError:
                allowed = ", ".join(p.value for p in WangPattern)
                raise PositionError(f"pattern must be one of {allowed}, got {pattern!r}") from None
        n = self._validate()
        d["packed"] = sum(map(_BITS.__getitem__, d["hand"]))
        keys = d["table_keys"] = tuple([g.key for g in d["table"]])
        d["up_key"] = -1
        for k in keys:
            if k < 60 and k % 20 == win:  # rows 0–2 of MELD_ROWS: 碰, 偎, 臭偎
                d["up_key"] = k
        d["shape"] = shape_flags(len(d["hand"]), len(keys), self.four_count, self.melds_to_win)
        # facts from the counts _validate made (the settlement reads them; every
        # position constructed is settled)
        f = sum(_RED(n)) << 21 | sum(n[10:20]) << 13 | sum(n[:10]) << 5
        f |= (1 if d["self_drawn"] else 0) | (2 if last_card else 0) | (4 if tianhu else 0)
        f |= (8 if dihu else 0) | (16 if len(d["hand"]) == 1 else 0)
        d["facts"] = f | (WILD_FACT if wang or win_wang or d["xing"] else 0)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled alike however made: every field in the class's order (its hand made,
        a field the reader left to the class filled in), then the rest of the dict, the
        counts made on demand left out (made again when asked)."""
        own = self.__dict__
        d = {name: own[name] if name in own else getattr(self, name) for name in _FIELD_NAMES}
        d.update(own)
        d.pop("card_bits", None)
        d.pop("facts", None)
        return d

    # -- derived facts --------------------------------------------------------
    @property
    def melds_to_win(self) -> int:
        """门子 of a winning hand: 7 with 20-card hands, 5 with 14 (R43)."""
        return (self.hand_size + 1) // 3

    @property
    def four_count(self) -> int:
        """k of R17: 跑/提 melds on the table (before the winning card)."""
        k = self.__dict__.get("_fours")  # counted once by _validate
        return k if k is not None else sum(1 for g in self.table if g.kind.is_four)

    @property
    def held(self) -> int:
        """Cards held: concealed hand (王 included) plus table melds (R17)."""
        return len(self.hand) + self.wang + sum(len(g.cards) for g in self.table)

    @property
    def at_deal(self) -> bool:
        """A mandatory 天胡 (R28): won at the deal, with no winning card."""
        return self.win is None and not self.win_wang

    @property
    def wild(self) -> bool:
        """王 take part (R40, R41): the split is searched with :mod:`paohuzi.core.wang`."""
        return self.wang > 0 or self.win_wang

    def xing_count(self) -> int:
        """醒数 (R42): how many of the winner's cards are of each 醒牌's kind, summed."""
        if not self.xing:
            return 0
        cards = self.all_cards()
        return sum(cards.count(x) for x in self.xing)

    # The counts below are kept in the instance's dict under their own names: made
    # with the position (the constructor, the straight read) or once when first asked
    # (an unpickled one). A plain attribute read then (cached_property is a non-data
    # descriptor), not a property call: the settlement asks ``facts`` of every win.
    @cached_property
    def card_bits(self) -> int:
        """:meth:`all_cards` packed, 3 bits a kind (what the 名堂 count from)."""
        bits = self.packed + (0 if self.win is None else 1 << 3 * self.win)
        keys = self.table_keys
        if not keys or max(keys) < _JIAO_KEYS:
            bits += sum(map(_KEY_BITS.__getitem__, keys))
        else:  # a 绞's key does not say which size holds two
            for k, g in zip(keys, self.table, strict=True):
                if k < _JIAO_KEYS:
                    bits += _KEY_BITS[k]
                else:
                    for c in g.cards:
                        bits += 1 << 3 * c
        return bits

    @cached_property
    def facts(self) -> int:
        """What the settlement's memo reads of the position (``scoring.settle``): the
        (red, big, small) counts of :meth:`all_cards`, a byte each, above five flags
        — 自摸, 海底, 天胡, 地胡, one card left in hand (耍猴) — and, above the counts,
        :data:`WILD_FACT` when 王 or 醒 take part (the C settlement then leaves the
        position to Python without reading three more fields)."""
        hand, keys = self.hand, self.table_keys
        n = sum(map(_COLOUR.__getitem__, hand)) + (0 if self.win is None else _COLOUR[self.win])
        if not keys or max(keys) < _JIAO_KEYS:
            n += sum(map(_KEY_COLOUR.__getitem__, keys))
        else:  # a 绞's key does not say which size holds two
            n += sum(_COLOUR[c] for g in self.table for c in g.cards)
        f = n << 5 | (1 if self.self_drawn else 0) | (2 if self.last_card else 0)
        f |= (4 if self.tianhu else 0) | (8 if self.dihu else 0) | (16 if len(hand) == 1 else 0)
        return f | (WILD_FACT if self.wang or self.win_wang or self.xing else 0)

    def all_cards(self) -> list[Card]:
        cards = list(self.hand) + [c for g in self.table for c in g.cards]
        if self.win is not None:
            cards.append(self.win)
        return cards

    def _validate(self) -> list[int]:
        # One pass over the table: kinds, fours and card counts (a list indexed by
        # card: a Counter would hash each IntEnum in Python), returned.
        n = [0] * 21
        hand = self.__dict__["hand"]  # (not through the class's _PackedHand: slower)
        for c in hand:
            n[c] += 1
        hand_four = 4 in n
        fours = 0
        for g in self.table:
            kind = g.kind
            if id(kind) not in _TABLE_KIND_IDS:  # (an Enum hashes in Python: by identity)
                raise PositionError(f"{kind.value} is not a table meld")
            if kind is _PAO or kind is _TI:
                fours += 1
            for c in g.cards:
                n[c] += 1
        self.__dict__["_fours"] = fours  # four_count, read again below and by the evaluator
        if self.win is not None:
            n[self.win] += 1
        if max(n) > COPIES:
            c = CARDS[next(i for i, k in enumerate(n) if k > COPIES)]
            raise PositionError(
                f"{n[c]} copies of {c.zh} ({c.code}) across hand and table; at most 4"
            )
        if hand_four:
            c = next(c for c in hand if hand.count(c) == 4)
            raise PositionError(f"four {c.zh} in hand must already be a 提 (R12)")
        if not isinstance(self.wang, int) or isinstance(self.wang, bool) or self.wang < 0:
            raise PositionError(f"wang must be a count of 王, got {self.wang!r}")
        if self.wang + self.win_wang > 4:
            raise PositionError(f"{self.wang + self.win_wang} 王; a deck holds at most 4 (R39)")
        if self.win_wang and self.win is not None:
            raise PositionError("the winning card is either a card or a 王, not both")
        if self.wild and self.tianhu and self.win is None and not self.win_wang:
            raise PositionError("a mandatory 天胡 with 王 is not scored here")
        if self.win is None and not self.tianhu and not self.win_wang:
            raise PositionError("a winning card is needed (only a mandatory 天胡 has none)")
        pat = self.pattern
        if pat is not None:
            if pat.on_wang != self.win_wang:
                need = "a drawn 王 (--win 王)" if pat.on_wang else "a card, not a 王"
                raise PositionError(f"{pat.value}: the incoming card must be {need} (R41)")
            if self.wang < pat.hand_wang:
                raise PositionError(
                    f"{pat.value} takes {pat.hand_wang} 王 from the hand; it holds "
                    f"{self.wang} (R41)"
                )
        k = fours
        expected = self.hand_size + max(0, k - 1)
        held = sum(n) - (self.win is not None) + self.wang  # (self.held, from the counts)
        if self.win is None and not self.win_wang:
            # Mandatory 天胡 straight from the deal: the dealer holds the 亮张 too.
            ok = held in (self.hand_size, self.hand_size + 1)
        else:
            ok = held == expected
        if not ok:
            raise PositionError(
                f"hand size cannot occur: {len(self.hand) + self.wang} in hand + "
                f"{self.held - len(self.hand) - self.wang} on the table = {self.held} cards held, "
                f"but with {k} 跑/提 a waiting player holds {expected} (R17"
                + (
                    f"; {self.hand_size}-card hands win with {self.melds_to_win} 门子, R43)"
                    if self.hand_size != 20
                    else ")"
                )
            )
        return n

    # -- plain-data round trip (score --batch / record result.position) --------
    @classmethod
    def from_dict(cls, d: dict[str, Any], hand_size: int = 20) -> Position:
        """Read the ``score --batch`` line form; raises :class:`PositionError`."""
        if cls is Position and type(d) is dict:
            p = _read_fast(d, hand_size)  # the common form, read straight (None: not that)
            if p is not None:
                return p
        return cls._from_dict(d, hand_size)

    @classmethod
    def _from_dict(cls, d: dict[str, Any], hand_size: int = 20) -> Position:
        """:meth:`from_dict` through the constructor: every form, every error."""
        if not isinstance(d, dict):
            raise PositionError("a position must be a JSON object")
        unknown = d.keys() - _FIELDS
        if unknown:
            raise PositionError(f"unknown position fields {sorted(unknown)}")
        try:
            hand, wang = parse_tiles(_str(d, "hand", required=True))
            table_in = d.get("table", [])
            if not isinstance(table_in, list) or not all(isinstance(t, str) for t in table_in):
                raise PositionError("table must be a list of 'kind:cards' strings")
            table = tuple([Group.parse(t) for t in table_in])
            win_s = _str(d, "win", required=False)
            win_cards, win_wang = parse_tiles(win_s) if win_s else ([], 0)
            if len(win_cards) + win_wang > 1:
                raise PositionError(f"win must be one card, got {win_s!r}")
            win = win_cards[0] if win_cards else None
            xing: tuple[Card, ...] = ()
            if "xing" in d:
                xing_in = d["xing"]
                if isinstance(xing_in, str):
                    xing_in = [xing_in]
                if not isinstance(xing_in, list) or not all(isinstance(x, str) for x in xing_in):
                    raise PositionError("xing must be a card or a list of cards (the 醒牌)")
                xing = tuple(Card.parse(x) for x in xing_in)
        except (CardError, MeldError) as e:
            raise PositionError(str(e)) from None
        get = d.get
        sd, lc, th, dh = flags = (
            get("self_drawn", False),
            get("last_card", False),
            get("tianhu", False),
            get("dihu", False),
        )
        for f, v in zip(("self_drawn", "last_card", "tianhu", "dihu"), flags, strict=True):
            if v is not True and v is not False:
                raise PositionError(f"{f} must be true or false, got {v!r}")
        extra = get("extra", {})
        if not isinstance(extra, dict):
            raise PositionError("extra must be an object")
        pattern = get("pattern")
        if pattern is not None and not isinstance(pattern, str):
            raise PositionError(f"pattern must be a string, got {pattern!r}")
        return cls(
            hand,  # type: ignore[arg-type]  # sorted into a tuple by __init__
            table,
            win,
            sd,
            lc,
            th,
            dh,
            hand_size,
            tuple(sorted(extra.items())) if extra else (),
            xing,
            wang,
            bool(win_wang),
            pattern,  # type: ignore[arg-type]  # checked in __init__
        )

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "hand": format_cards(self.hand, "code", self.wang),
            "table": [g.code() for g in self.table],
            "self_drawn": self.self_drawn,
            "last_card": self.last_card,
        }
        if self.win is not None:
            d["win"] = self.win.code
        elif self.win_wang:
            d["win"] = "w"
        if self.tianhu:
            d["tianhu"] = True
        if self.dihu:
            d["dihu"] = True
        if self.extra:
            d["extra"] = dict(self.extra)
        if self.xing:
            d["xing"] = [x.code for x in self.xing]
        if self.pattern is not None:
            d["pattern"] = self.pattern.value
        return d

    @classmethod
    def parse(
        cls,
        hand: str,
        win: str | None,
        table: list[str] | tuple[str, ...] = (),
        hand_size: int = 20,
        **flags: Any,
    ) -> Position:
        """Convenience: ``Position.parse("四五六…", "八", ["peng:拾"], self_drawn=True)``;
        ``hand_size=14`` for a 14-card preset's hand (R43: 衡阳)."""
        d: dict[str, Any] = {"hand": hand, "table": list(table), **flags}
        if win is not None:
            d["win"] = win
        return cls.from_dict(d, hand_size=hand_size)

    def __str__(self) -> str:
        parts = [format_cards(self.hand, wang=self.wang)]
        parts += [str(g) for g in self.table]
        if self.win is not None or self.win_wang:
            parts.append(f"胡{self.win.zh if self.win is not None else '王'}")
        if self.pattern is not None:
            parts.append(self.pattern.value)
        return " ".join(parts)


class _PackedHand:
    """``Position.hand`` of a position read straight (:func:`_read`): made from
    ``packed`` on first read and kept in the instance, whose dict wins from then on
    (a descriptor without ``__set__``; a ``__getattr__`` would slow every attribute
    read of every position)."""

    def __get__(self, p: Position | None, owner: type | None = None) -> Any:
        if p is None:
            return self
        d = p.__dict__
        if "packed" not in d:  # (not made by either constructor: an object half built)
            raise AttributeError("'Position' object has no attribute 'hand'")
        hand = d["hand"] = _hand(d["packed"])
        return hand


Position.hand = _PackedHand()  # type: ignore[assignment]  # a field: set after the dataclass
_FIELD_NAMES = tuple(f.name for f in fields(Position))  # ``hand`` first


def shape_flags(n_hand: int, melds: int, fours: int, target: int = 7) -> tuple[bool, bool, bool]:
    """Which completions can give exactly ``target`` 门子 (R22: 7; R43: 5 with 14-card
    hands), from card counts alone.

    Returns (将 needed, the winning card may join the hand, it may make a 跑/提
    of a 坎 or table meld). 坎 cancel out of the count: each is one 门子 of 3.
    """
    pair = fours > 0
    m = n_hand + 1 - 2 * pair
    hand_ok = m % 3 == 0 and melds + m // 3 + pair == target
    # With the card in a 跑/提 the four needs a 将: the rest is n_hand − 2 in triples.
    four_ok = (n_hand - 2) % 3 == 0 and melds + (n_hand - 2) // 3 + 1 == target
    return pair, hand_ok, four_ok


_PAO, _TI = GroupKind.PAO, GroupKind.TI
_TABLE_KIND_IDS = frozenset(map(id, TABLE_KINDS))
_BITS = tuple(1 << 3 * c for c in range(20))  # a card in the evaluator's packed form
_MASK60 = (1 << 60) - 1
# R3: a card's (red, big, small) counts, a byte each (the colour 名堂's key).
_COLOUR = tuple(c.is_red << 16 | c.is_big << 8 | (not c.is_big) for c in CARDS)
_RED = itemgetter(*(c for c in CARDS if c.is_red))  # the red counts of a count list
# A table meld's cards packed, and their colour counts, by its key (``MELD_ROWS``: peng
# wei chouwei pao ti ju123 ju2710 ju; the key's card is the lowest), every row but 绞.
_JIAO_KEYS = MELD_ROWS.index("jiao") * 20
_OFFSETS = ((0,) * 3, (0,) * 3, (0,) * 3, (0,) * 4, (0,) * 4, (0, 1, 2), (0, 5, 8), (0, 1, 2))
_KEY_BITS = tuple(
    sum(_BITS[c + d] for d in offsets if c + d < 20) for offsets in _OFFSETS for c in range(20)
)
_KEY_COLOUR = tuple(
    sum(_COLOUR[c + d] for d in offsets if c + d < 20) for offsets in _OFFSETS for c in range(20)
)
_FIELDS = frozenset(
    (
        "hand",
        "table",
        "win",
        "self_drawn",
        "last_card",
        "tianhu",
        "dihu",
        "extra",
        "xing",
        "pattern",
    )
)


# -- the common form read straight (issue 27) ------------------------------------------
# What :func:`_read` accepts: no 王 (R39), 醒 (R42) or 王 pattern (R41).
_READ_FIELDS = frozenset(("hand", "table", "win", "self_drawn", "last_card", "tianhu", "dihu"))
_READ_FIELDS |= {"extra"}
# The words cards._tokens reads as one card (a 王 is none: its words are left out).
_CARD_WORD: dict[str, Card] = {w: c for w, c in _WORD.items() if c is not None}
# A card's weight: one sum over the cards gives every count the read needs. Fields,
# low to high: its count 5 bits a kind (bits 0–99, room to 31: R1's and R12's checks —
# a hand's field ≥ 4 sets one of its top 3 bits, a total's field ≥ 5 does once 3 is
# added to each), 3 bits a kind (100–159: ``packed``, exact once no count reaches 8),
# its (red, big, small) counts (160–183: ``facts``). A table meld's weight adds its
# size (184–189) and one 跑/提 (190–192).
_W = tuple(1 << 5 * c | _BITS[c] << 100 | _COLOUR[c] << 160 for c in range(20))
_WORD_W = {w: _W[c] for w, c in _CARD_WORD.items()}
_LOW100 = (1 << 100) - 1
_TOP3 = sum(0b11100 << 5 * c for c in range(20))
_THREES = sum(3 << 5 * c for c in range(20))
_TOP2 = sum(0b11000 << 5 * c for c in range(20))
_SIZE, _FOUR = 1 << 184, 1 << 190
# shape_flags by (cards in hand, melds, 跑/提, deal size) packed: a few dozen keys.
_SHAPES: dict[int, tuple[bool, bool, bool]] = {}
# A table meld's text → (Group, key, weight, cards): the weight for _read, the cards
# for the C reader.
_MELDS: dict[str, tuple[Group, int, int, tuple[Card, ...]]] = {}
# The hand of a position read straight, made on first read from ``packed``: five
# kinds at a time (3 bits a kind, at most 3 of each: ≤ 1024 runs per memo).
_RUNS: tuple[dict[int, tuple[Card, ...]], ...] = ({}, {}, {}, {})


def _hand(packed: int) -> tuple[Card, ...]:
    """The sorted hand of ``packed`` (at most 3 of a kind)."""
    hand: tuple[Card, ...] = ()
    for i, memo in enumerate(_RUNS):
        k = packed >> 15 * i & 0x7FFF
        if k:
            run = memo.get(k)
            if run is None:
                run = memo[k] = tuple(
                    CARDS[5 * i + j] for j in range(5) for _ in range(k >> 3 * j & 7)
                )
            hand += run
    return hand


def _meld(text: str) -> tuple[Group, int, int, tuple[Card, ...]] | None:
    try:
        g = Group.parse(text)
    except (MeldError, CardError):
        return None
    if id(g.kind) not in _TABLE_KIND_IDS or g.key >= YIWUSHI_KEY:
        return None  # (a 吃 一五十, 衡阳's option: the constructor reads it; the C reader cannot)
    four = g.kind is _PAO or g.kind is _TI
    m = (g, g.key, sum(_W[c] for c in g.cards) + len(g.cards) * _SIZE + four * _FOUR, g.cards)
    if len(_MELDS) >= 4096:  # bounded, as Group.parse's own memo
        _MELDS.clear()
    _MELDS[text] = m
    return m


def deal_win_problem(p: Position) -> str | None:
    """Why the 天胡 (R28) or 地胡 (R29) flags of ``p`` cannot go with the rest, or None:
    both come before any card is drawn. The constructor takes any flags (the scorer
    applies each doubling asked: tests and what-ifs), as python-chess's ``Board``
    takes any position and ``is_valid`` judges it; ``paohuzi score`` refuses these."""
    if p.tianhu and p.dihu:
        return "a win is 天胡 (the dealer, R28) or 地胡 (another seat, R29), not both"
    if p.dihu and p.self_drawn:
        return "地胡 is a win on the dealer's card (R29), never self-drawn"
    if (p.tianhu or p.dihu) and p.last_card:
        return "天胡 and 地胡 come before any card is drawn: not 海底 (R28, R29)"
    if p.tianhu and any(g.kind is not _TI for g in p.table):
        return "天胡 comes right after the deal: only 提 lie on the table (R28)"
    if p.tianhu and not p.self_drawn and not p.at_deal:
        return "天胡 is won with the dealer's own 亮张: it is self-drawn (自摸, R28)"
    if p.dihu and any(g.kind is not _TI for g in p.table):
        return "地胡 comes before this seat draws a card: only 提 lie on its table (R29)"
    return None


def _read(d: dict[str, Any], hand_size: int) -> Position | None:
    """:meth:`Position.from_dict` of the form a program writes (``to_dict``: codes
    between spaces or glyphs, a winning card, no 王/醒/pattern), read straight into
    the fields the constructor would fill (``hand`` made when first read); None for
    anything else or anything invalid, which the constructor's path then reads (and
    refuses, with its message). The checks are the constructor's (R1: at most 4 of a
    kind; R12: no four in hand; R17: the cards held), made on the cards' weights."""
    if not d.keys() <= _READ_FIELDS or type(hand_size) is not int:
        return None
    hand_s, win_s = d.get("hand"), d.get("win")
    if type(hand_s) is not str or type(win_s) is not str:
        return None
    words = hand_s.split()  # as cards._tokens reads them
    try:
        hw = sum(map(_WORD_W.__getitem__, words))
    except KeyError:
        if len(words) != 1:
            return None
        words = words[0]  # type: ignore[assignment]  # glyphs run together
        try:
            hw = sum(map(_WORD_W.__getitem__, words))
        except KeyError:
            return None
    win = _CARD_WORD.get(win_s)
    if win is None:
        words_w = win_s.split()
        win = _CARD_WORD.get(words_w[0]) if len(words_w) == 1 else None
        if win is None:  # not one card, a 王, or a glyph run
            return None
    table_in = d.get("table", [])
    if type(table_in) is not list or len(table_in) > 7:  # (7: no field overflows)
        return None
    groups: tuple[Group, ...] = ()
    table_keys: tuple[int, ...] = ()
    tw = 0
    if table_in:
        try:
            melds: list[Any] = list(map(_MELDS.__getitem__, table_in))
        except (KeyError, TypeError):  # not read before (or not a meld text)
            melds = [_MELDS.get(t) or _meld(t) if type(t) is str else None for t in table_in]
            if None in melds:
                return None
        groups, table_keys, ws, _ = zip(*melds, strict=True)
        tw = sum(ws)
    get = d.get
    sd, lc = get("self_drawn", False), get("last_card", False)
    th, dh = get("tianhu", False), get("dihu", False)
    if not (sd is True or sd is False) or not (lc is True or lc is False):
        return None
    if not (th is True or th is False) or not (dh is True or dh is False):
        return None
    extra = get("extra", {})
    if type(extra) is not dict:
        return None
    n = len(words)
    held, fours = n + (tw >> 184 & 63), tw >> 190
    if held != hand_size + max(0, fours - 1) or held > 27:  # R17 (27: no field overflows)
        return None
    tw += hw + _W[win]
    if hw & _TOP3 or ((tw & _LOW100) + _THREES) & _TOP2:
        return None  # four alike in hand (R12), or five of a kind held (R1)
    p = object.__new__(Position)
    # The fields in the constructor's order, ``hand`` made when read; a field at its
    # class default is left to the class (fewer stores, a smaller dict: the reading
    # costs less than the settlement, issue 27). xing, wang, win_wang, pattern: always.
    dd = p.__dict__
    if groups:
        dd["table"] = groups
    dd["win"] = win
    if sd:
        dd["self_drawn"] = sd
    if lc:
        dd["last_card"] = lc
    if th:
        dd["tianhu"] = th
    if dh:
        dd["dihu"] = dh
    if hand_size != 20:
        dd["hand_size"] = hand_size
    if extra:
        dd["extra"] = tuple(sorted(extra.items()))
    dd["_fours"] = fours
    dd["packed"] = hw >> 100 & _MASK60
    if table_keys:
        dd["table_keys"] = table_keys
    for k in table_keys:
        if k < 60 and k % 20 == win:  # rows 0–2 of MELD_ROWS: 碰, 偎, 臭偎
            dd["up_key"] = k
    shape = _SHAPES.get(m := n | len(table_keys) << 8 | fours << 16 | hand_size << 24)
    if shape is None:  # (each part < 28)
        shape = _SHAPES[m] = shape_flags(n, len(table_keys), fours, (hand_size + 1) // 3)
    dd["shape"] = shape
    dd["card_bits"] = tw >> 100 & _MASK60
    dd["facts"] = (tw >> 160 & 0xFFFFFF) << 5 | sd | lc << 1 | th << 2 | dh << 3 | (n == 1) << 4
    return p


def _kernel_reader() -> Any:
    """:func:`_read` in C (``core/_kernel.c``'s ``Reader``, issue 27), sharing its
    caches; None without the kernel (the default, pure install)."""
    try:
        from . import _kernel
    except ImportError:
        return None
    return _kernel.Reader(
        words=_CARD_WORD,
        melds=_MELDS,
        meld=_meld,
        shapes=_SHAPES,
        shape_flags=shape_flags,
        fields=_READ_FIELDS,
        position=Position,
        colour=_COLOUR,
        four_rows=1 << MELD_ROWS.index("pao") | 1 << MELD_ROWS.index("ti"),
    )


# What Position.from_dict reads the common form with: the same fields either way.
_KERNEL_READER = _kernel_reader()
_read_fast: Any = _KERNEL_READER or _read
if _KERNEL_READER is not None:  # from_dict itself in C: no Python frame a line
    Position.from_dict = classmethod(_KERNEL_READER.from_dict)  # type: ignore[method-assign,assignment]


def _str(d: dict[str, Any], key: str, required: bool) -> str:
    v = d.get(key)
    if v is None:
        if required:
            raise PositionError(f"missing {key!r}")
        return ""
    if not isinstance(v, str):
        raise PositionError(f"{key} must be a string of cards, got {v!r}")
    return v
