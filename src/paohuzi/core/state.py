"""牌局 (páijú): one hand of 跑胡子, every step enforced by the rules (R5–R32).

Vocabulary (pokerkit/OpenSpiel style): the only way to change a
:class:`GameState` is :meth:`GameState.apply`, which takes one player's
:class:`~paohuzi.core.actions.Action` and returns the tuple of
:class:`~paohuzi.core.events.Event` it caused. Forced steps — opening 提, 偎,
提, 跑, mandatory 天胡, 荒庄, drawing — run inside ``apply`` (and the
constructor) until some player must choose.

Claim windows (R16). When a card is open, every seat with an option (胡, 碰,
吃) is asked at once; decisions come in any order. ``entries`` lists the
options by priority: the drawer's 胡, the others' 胡 (nearest downstream of the
card's owner first, R31), 碰, then 吃 (drawer, then his 下家). The window
resolves as soon as the first entry whose seat has chosen that very option is
reached with every earlier entry's seat decided. A pending 跑 (mandatory) or
the drawer's 提/偎 is the window's *fallback*: it happens when nobody takes the
card, so only 胡 is asked then (破跑胡, R27).

R17 and 坎: a 坎 is never broken. A 吃 or 碰 after which the taker would owe a
discard but hold only 坎 cards (or none) is never offered, and not being able
to take it is no refusal (R20). A seat that a forced 偎/提/跑 leaves owing a
discard with only 坎 cards (or none) discards nothing; its 下家 draws.
Hands never grow after the deal (taken cards go to the table), so R12(a) —
four in hand before a draw — only ever arises from the deal (R8).

State is kept in flat lists of ints (hand counts per seat and the packed hand
of the evaluator) so that :meth:`clone` is cheap.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from . import events as E
from .actions import CHI, DISCARD, HU, PASS, PENG, Action, IllegalAction
from .cards import CARDS, DECK_SIZE, WANG, Card, CardError, full_deck, parse_deck_cards
from .chi import packages_packed
from .claims import LIANGZHANG_IN, PILE, ClaimWindow, Otherwise
from .evaluator import BIT, LOW, TableSummary, evaluator_for, unpack
from .events import Event
from .melds import Group, GroupKind
from .position import Position, WangPattern, shape_flags
from .result import HandResult
from .rules import HUNAN, Dihu, ForcedWin, Rules, Xing
from .scoring import huangzhuang_payments, payments, settle, xing_seat_pay
from .vocab import ActionType, Base, Fallback, Phase, Source
from .wang import most_huxi_of

CLAIM = Phase.CLAIM
DISCARDING = Phase.DISCARD
OVER = Phase.OVER
_DRAW, _DISCARD, _LZ, _HAND = Source.DRAW, Source.DISCARD, Source.LIANGZHANG, Source.HAND
PILE_IT, FORCED, PAO, WANG_IN = Fallback.PILE, Fallback.FORCED, Fallback.PAO, Fallback.WANG
TERMINAL = -1  # current_player once the hand is over

_KIND = GroupKind
_CW = (*CARDS, Card.W)  # deck ints to cards: the 20 kinds, then 王 (20, R39)
_RED = frozenset(c for c in range(20) if c % 10 in (1, 6, 9))


@cache
def _group(kind: GroupKind, cards: tuple[int, ...]) -> Group:
    return Group(kind, tuple(_CW[c] for c in cards))


@lru_cache(maxsize=1 << 16)
def _card_groups(groups: tuple[tuple[int, ...], ...]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(_CW[x] for x in g) for g in groups)


_KEYS: dict[int, int] = {}


def _key(g: Group) -> int:
    """The evaluator's small-int key of a meld, cached per (shared) Group object."""
    k = _KEYS.get(id(g))
    if k is None:
        k = _KEYS[id(g)] = g.key
        _PINNED.append(g)  # keep the object alive so that its id stays unique
    return k


_PINNED: list[Group] = []
_DECK = tuple(int(c) for c in full_deck())
# Shared 吃 actions by (package list, card, seat, R17 room): see _chi_actions.
_CHI_ACTS: dict[int, tuple[Action, ...]] = {}


@cache
def _act(typ: ActionType, seat: int, c: int) -> Action:
    """Shared immutable Action objects (the hot loop creates the same ones again and again)."""
    return Action(typ, seat, _CW[c])


_DISCARDS = tuple(tuple(_act(DISCARD, s, c) for c in range(20)) for s in range(4))


def _four(kind: GroupKind, c: int) -> Group:
    return _group(kind, (c,) * (4 if kind.is_four else 3))


def _deck_from(deck: Sequence[Any], wang: int = 0) -> list[int]:
    """An explicit deck (R7 dealing order) as ints; 80 cards, four of each kind, and
    ``wang`` 王 (20, R39)."""
    if isinstance(deck, str):
        cards = parse_deck_cards(deck)
    else:
        cards = []
        for c in deck:
            cards.append(parse_deck_cards(c)[0] if isinstance(c, str) else Card(int(c)))
    size = DECK_SIZE + wang
    if len(cards) != size:
        raise ValueError(f"a deck has {size} cards ({wang} 王), got {len(cards)}")
    counts = [0] * 21
    for c in cards:
        counts[c] += 1
    bad = [_CW[c].code for c in range(20) if counts[c] != 4]
    if bad:
        raise ValueError(f"a deck holds each card four times; wrong counts for {bad}")
    if counts[WANG] != wang:
        raise ValueError(f"these rules deal {wang} 王 (R39), the deck holds {counts[WANG]}")
    return [int(c) for c in cards]


# Every attribute of a GameState (its __slots__; clone() walks them).
_FIELDS = (
    "_chi_memo",
    "_pat_memo",
    "_dcache",
    "actions",
    "_chou",
    "_chouhu",
    "dealer",
    "_dealer_discarded",
    "deck",
    "_dihu_seats",
    "_discarded",
    "_down",
    "_ev",
    "events",
    "_fours",
    "_hands",
    "_held",
    "huang",
    "_hucache",
    "_liangzhang",
    "n",
    "_needs",
    "_nhand",
    "_nxt",
    "_packed",
    "_peng_mask",
    "phase",
    "_piles",
    "result",
    "rules",
    "seats",
    "seed",
    "_shape",
    "_tables",
    "_took_in",
    "_tsum",
    "_turn",
    "_wall",
    "_wall_pos",
    "_wang",
    "_wei_mask",
    "_window",
)


class GameState:
    """One hand: deal, turns, claims, win or 荒庄 (R5–R32).

    ``GameState(rules, seed)`` shuffles with ``random.Random(seed)`` (R7) and,
    without ``dealer``, picks the dealer from the same RNG after the shuffle
    (R6). ``deck`` deals an explicit 80-card deck in record order instead.
    ``huang`` is the number of 荒庄 just before this hand (黄番 presets).
    """

    __slots__ = _FIELDS

    def __init__(
        self,
        rules: Rules = HUNAN,
        seed: int | None = None,
        deck: Sequence[Any] | str | None = None,
        dealer: int | None = None,
        huang: int = 0,
    ) -> None:
        if deck is _NO_DEAL:  # clone's blank object, its fields set by the copy
            return
        n = rules.players
        rng = random.Random(seed)
        if deck is None:
            d = [*_DECK, *(WANG,) * rules.wang]
            rng.shuffle(d)
        else:
            try:
                d = _deck_from(deck, rules.wang)
            except CardError as e:
                raise ValueError(f"bad deck: {e}") from None
        if dealer is None:
            dealer = rng.randrange(n)
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0–{n - 1}, got {dealer!r}")
        self.rules = rules
        self._ev = evaluator_for(rules)
        self.n = n
        self.dealer = dealer
        self.seed = seed
        self.huang = huang
        self.deck = tuple(d)
        out = (dealer + n // 2) % n if rules.sit_out else -1  # 坐底: opposite the dealer
        seats = tuple((dealer + i) % n for i in range(n) if (dealer + i) % n != out)
        self.seats = seats
        self._nxt = [-1] * n
        self._down: list[tuple[int, ...]] = [()] * n
        for i, s in enumerate(seats):
            self._nxt[s] = seats[(i + 1) % len(seats)]
            self._down[s] = tuple(seats[(i + j) % len(seats)] for j in range(1, len(seats)))
        size = rules.hand_size
        if size * len(seats) + 1 > len(d):
            raise ValueError(f"{len(seats)} seats × {size} cards + 亮张 exceed the deck")
        self._hands = [[0] * 20 for _ in range(n)]
        self._packed = [0] * n
        self._nhand = [0] * n  # natural cards in hand (a 王 is never discarded: R39)
        self._wang = [0] * n  # 王 in hand (R39), apart from the 20 kinds' counts
        pos = 0
        for s in seats:
            for c in d[pos : pos + size]:
                if c == WANG:
                    self._wang[s] += 1
                    continue
                self._hands[s][c] += 1
                self._packed[s] += BIT[c]
                self._nhand[s] += 1
            pos += size
        self._liangzhang = d[pos]
        wall = d[pos + 1 :]
        moved = 0
        if rules.show_wall_bottom:
            # 泸州: a red bottom card goes to the top until the bottom is black.
            while wall and wall[-1] in _RED and moved < len(wall):
                wall.insert(0, wall.pop())
                moved += 1
        self._wall = tuple(wall)
        self._wall_pos = 0
        self._held = [size if s in seats else 0 for s in range(n)]
        self._fours = [0] * n
        self._tables: list[tuple[Group, ...]] = [()] * n
        self._tsum = [self._ev.summarize(())] * n
        self._needs = [size] * n  # R17 count of a waiting seat, kept by _changed
        self._shape = [
            shape_flags(size, 0, 0, rules.melds_to_win)
        ] * n  # evaluator shape flags, kept by _changed
        self._wei_mask = [0] * n
        self._peng_mask = [0] * n
        # each seat's pile as the tuple views hand out: made once per card piled,
        # not once per view (issue 27)
        self._piles: list[tuple[Card, ...]] = [()] * n
        self._chou = [0] * n
        self._discarded = [0] * n
        self._chouhu: list[dict[int, int]] = [{} for _ in range(n)]
        self._hucache: list[dict[int, int]] = [{} for _ in range(n)]
        self._took_in = [False] * n  # 进牌 in play, 重跑 aside (常德 听胡)
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self.result: HandResult | None = None
        self.phase = CLAIM
        self._turn = -1
        self._window: ClaimWindow | None = None  # the open card's claims (kept after a 胡)
        self._dealer_discarded = False
        self._dihu_seats = 0  # bit per seat that wins 地胡 on the open discard (R29)
        self._dcache: tuple[Action, ...] | None = None
        self._chi_memo: dict[int, tuple[Action, ...]] = {}
        self._pat_memo: dict[int, tuple[Action, ...]] = {}  # R41: a seat's 胡 options
        self._opening(moved)

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        """The seat to act (highest-priority undecided claimant), or ``TERMINAL``."""
        if self.phase == DISCARDING:
            return self._turn
        if self.phase == CLAIM and self._window is not None:
            return self._window.current()
        return TERMINAL

    def to_act(self) -> list[int]:
        """Every seat with a pending decision, highest priority first."""
        if self.phase == DISCARDING:
            return [self._turn]
        if self.phase != CLAIM or self._window is None:
            return []
        return self._window.pending()

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions ``seat`` (default: :attr:`current_player`) may take now."""
        if seat is None:
            seat = self.current_player
        if self.phase == DISCARDING:
            return list(self._discard_actions()) if seat == self._turn else []
        if self.phase == CLAIM and self._window is not None:
            return list(self._window.legal(seat))
        return []

    def legal_action_ids(self, seat: int | None = None) -> list[str]:
        return [a.id() for a in self.legal_actions(seat)]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[int]:
        """Net score per seat (0 for all until a win is settled)."""
        if self.result is None:
            return [0] * self.n
        return list(self.result.scores)

    def hand(self, seat: int) -> list[Card]:
        """The natural cards of ``seat``'s concealed hand (its 王: :meth:`wang`)."""
        return unpack(self._packed[seat])

    def wang(self, seat: int) -> int:
        """王 in ``seat``'s concealed hand (R39): wild, never discarded or claimed."""
        return self._wang[seat]

    def table(self, seat: int) -> tuple[Group, ...]:
        return self._tables[seat]

    def current_huxi(self, seat: int) -> int:
        """当前总息数 (R33) of ``seat``."""
        return self._ev.current_huxi(self._packed[seat], self._tsum[seat])

    @property
    def wall_left(self) -> int:
        return len(self._wall) - self._wall_pos

    def need(self, seat: int) -> int:
        """R17: cards a waiting player holds, 20 + max(0, k − 1)."""
        return self._needs[seat]

    def held(self, seat: int) -> int:
        """Cards ``seat`` holds: concealed hand plus table melds (R17)."""
        return self._held[seat]

    def hand_counts(self, seat: int) -> list[int]:
        """The concealed hand of ``seat`` as a count per card kind (a copy)."""
        return self._hands[seat][:]

    def packed_hand(self, seat: int) -> int:
        """The concealed hand of ``seat`` in the evaluator's packed form."""
        return self._packed[seat]

    def table_summary(self, seat: int) -> TableSummary:
        """The evaluator's summary of ``seat``'s table melds (胡息, 门子, fours)."""
        return self._tsum[seat]

    def pile(self, seat: int) -> tuple[Card, ...]:
        """The open cards nobody took from ``seat`` (its pile), in order."""
        return self._piles[seat]

    @property
    def liangzhang(self) -> Card:
        """The dealer's 亮张 (R7) — shown to all unless the rules hide it."""
        return _CW[self._liangzhang]

    @property
    def open_card(self) -> tuple[Card, int, Source] | None:
        """The card open to claims, its owner and where it came from (None: none open)."""
        w = self._window
        if self.phase != CLAIM or w is None:
            return None
        return _CW[w.card], w.owner, w.source

    # ------------------------------------------------------------------ actions
    def apply(self, action: Action) -> tuple[Event, ...]:
        """Apply one player's choice; returns the events it caused (R16–R21).

        A claim decision that does not settle its window yet (a higher-priority
        seat is still deciding) returns ``()``; its events come when it does.
        Raises :class:`IllegalAction` — and changes nothing — for a seat that
        has no pending decision or an action not among its legal actions.
        """
        legal = self._match(action)
        start = len(self.events)
        self.actions.append(legal)
        if self.phase == DISCARDING:
            self._discard(legal.seat, int(legal.card))  # type: ignore[arg-type]
        else:
            self._window.decisions[legal.seat] = legal  # type: ignore[union-attr]
            self._resolve()
        return tuple(self.events[start:])

    def apply_id(self, seat: int, action_id: str) -> tuple[Event, ...]:
        """:meth:`apply` by id, e.g. ``state.apply_id(0, "discard:x1")`` (python-chess'
        ``push_san``); raises :class:`IllegalAction` — changing nothing — for an id
        that is malformed or not legal for ``seat`` now."""
        return self.apply(Action.from_id(seat, action_id))

    def _match(self, action: Action) -> Action:
        if not isinstance(action, Action):
            raise IllegalAction(f"not an Action: {action!r}")
        # Fast path: bots hand back one of the very objects legal_actions() gave out.
        seat = action.seat
        if self.phase == DISCARDING:
            if seat == self._turn:
                for a in self._discard_actions():
                    if a is action:
                        return a
        elif self.phase == CLAIM and self._window is not None:
            for a in self._window.legal(seat):
                if a is action:
                    return a
        if self.phase == OVER:
            raise IllegalAction("the hand is over")
        pending = self.to_act()
        if action.seat not in pending:
            raise IllegalAction(
                f"seat {action.seat} has no decision pending (waiting for {pending})"
            )
        for a in self.legal_actions(action.seat):
            if action.matches(a):
                return a
        ids = ", ".join(self.legal_action_ids(action.seat))
        raise IllegalAction(f"{action.id()} is not legal for seat {action.seat} (legal: {ids})")

    def clone(self) -> GameState:
        """An independent copy; applying to it leaves this state untouched."""
        # (not GameState.__new__: a compiled class's __new__ runs __init__, a whole deal)
        new = GameState(self.rules, deck=_NO_DEAL)
        for name in _FIELDS:
            v = getattr(self, name)
            if name in _CACHES:
                v = [{} for _ in v]
            elif name not in _SHARED:
                v = _copy(v)
            object.__setattr__(new, name, v)
        return new

    # ------------------------------------------------------------------ the deal
    def _opening(self, moved: int) -> None:
        """R7 deal, R8 opening 提, R28 天胡, R29 地胡 on the 亮张, then the dealer."""
        rules, d, lz = self.rules, self.dealer, self._liangzhang
        ev = self.events
        for s in self.seats:
            ev.append(Event(E.DEAL, s, data=(("count", self._nhand[s] + self._wang[s]),)))
        shown = rules.show_liangzhang or lz == WANG  # a 王 is shown to all (R39)
        ev.append(Event(E.LIANGZHANG, d, _CW[lz], Source.DEAL, shown=shown))
        if rules.show_wall_bottom and self._wall:
            # Red bottom cards went to the top in view of everybody: the event names them.
            top = tuple(_CW[c].code for c in self._wall[:moved])
            data = (("moved", moved), ("to_top", top))
            ev.append(Event(E.BOTTOM, None, _CW[self._wall[-1]], Source.WALL, data=data))
        for s in self.seats:  # R8: the dealt cards only; the 亮张 joins after R28/R29
            for c in range(20):
                if self._hands[s][c] == 4:
                    self._ti_hand(s, c)
        for s in self.seats:  # R28 mandatory 天胡: dealer first, then downstream
            if self._wang[s] or (s == d and lz == WANG):
                continue  # holding a 王: no mandatory 天胡 (docs/spec-notes.md, R39)
            cnt = self._hands[s][:]
            if s == d:
                cnt[lz] += 1
            ti = self._fours[s] + cnt.count(4)
            kan = cnt.count(3)
            if rules.mandatory_tianhu(ti, kan):
                self._liangzhang_in(check_discard=False)  # the deal completes first
                self._tianhu(s)
                return
        entries, flags, fb = self._offer(lz, d, _LZ, False)
        if entries:
            self._open(lz, d, _LZ, shown, False, entries, fb, flags)
            return
        self._run(self._liangzhang_in())

    def _liangzhang_in(self, check_discard: bool = True) -> int | None:
        """The 亮张 joins the dealer's hand (a 4th card makes 提, R8); R17 for the dealer."""
        d, c = self.dealer, self._liangzhang
        if c == WANG:  # R39: a 王 as 亮张 joins the dealer's hand like any 王
            self._wang[d] += 1
            self._held[d] += 1
            return self._finish_intake(d) if check_discard else None
        self._hands[d][c] += 1
        self._packed[d] += BIT[c]
        self._nhand[d] += 1
        self._held[d] += 1
        if self._hands[d][c] == 4:
            self._ti_hand(d, c)
        self._changed(d, table=False)
        return self._finish_intake(d) if check_discard else None

    # ------------------------------------------------------------------ turn flow
    def _run(self, nxt: int | None) -> None:
        while nxt is not None:
            nxt = self._draw(nxt)

    def _loose(self, s: int) -> int:
        """Concealed cards of ``s`` outside 坎: the only cards he may discard or lay out."""
        p = self._packed[s]
        return self._nhand[s] - 3 * (p & (p >> 1) & LOW).bit_count()

    def _finish_intake(self, s: int) -> int | None:
        """R17/R18: discard if holding too many (never from a 坎), else the 下家 draws."""
        if self._held[s] > self.need(s) and self._loose(s) > 0:
            self.phase = DISCARDING
            self._turn = s
            self._dcache = None
            return None
        return self._nxt[s]

    def _draw(self, s: int) -> int | None:
        """R10: turn up the top wall card; forced 提/偎, or open it to claims."""
        if self._wall_pos >= len(self._wall):
            self._huangzhuang()
            return None
        if (self._packed[s] >> 2) & LOW:  # R12(a): four in hand → 提 before drawing
            for c in range(20):
                if self._hands[s][c] == 4:
                    self._ti_hand(s, c)
        c = self._wall[self._wall_pos]
        self._wall_pos += 1
        last = self._wall_pos == len(self._wall)
        if c == WANG:  # R39: shown to all, offered to nobody; the drawer may 自摸 it
            self.events.append(Event(E.DRAW, s, Card.W, shown=True))
            entries, flags, fallback = self._offer(c, s, _DRAW, last)
            if entries:
                self._open(c, s, _DRAW, True, last, entries, fallback, flags)
                return None
            self._wang_in(s)
            return self._finish_intake(s)
        forced = self._forced_kind(s, c)
        if forced:  # R16.2: the card is never shown; only the drawer may 胡 it
            self.events.append(Event(E.DRAW, s, _CW[c], shown=False))
            if not (last and self.rules.show_wall_bottom) and self._can_hu(s, c, True):
                self._open(c, s, _DRAW, False, last, [(s, HU)], Otherwise(FORCED, s, forced))
                return None
            self._forced(s, c, forced)
            return self._finish_intake(s)
        self.events.append(Event(E.DRAW, s, _CW[c], shown=True))
        entries, flags, fallback = self._offer(c, s, _DRAW, last)
        if entries:
            self._open(c, s, _DRAW, True, last, entries, fallback, flags)
            return None
        return self._fallback(fallback, c, s, _DRAW)

    def _forced_kind(self, s: int, c: int) -> Base | None:
        """R11/R12: does the drawer's own card make 提 (on a 坎 / 偎) or 偎 (on a pair)?"""
        if self._hands[s][c] == 3:
            return Base.KAN
        if (self._wei_mask[s] >> c) & 1:
            return Base.WEI
        if self._hands[s][c] == 2:
            return Base.PAIR
        return None

    def _offer(
        self, c: int, owner: int, source: Source, last: bool, dihu_seats: int = 0
    ) -> tuple[list[tuple[int, ActionType]], dict[int, tuple[bool, bool]], Otherwise]:
        """Who may claim open card ``c``, by R16 priority: (entries, 胡 flags, fallback).

        ``flags`` maps a seat to (天胡, 地胡) for its 胡. R24: the default preset
        wins only on wall cards; discards only with ``win_on_discard`` or as 地胡
        (``dihu_seats``, a bit per seat, R29); the 亮张 by the dealer (elective 天胡, R28) and, with
        ``dihu == "liangzhang"``, by the others unless it is the dealer's 提.
        """
        rules = self.rules
        entries: list[tuple[int, ActionType]] = []
        flags: dict[int, tuple[bool, bool]] = {}
        if c == WANG:  # R39: offered to nobody; only its drawer (dealer: 亮张) may 胡 it
            if not (last and rules.show_wall_bottom) and self._can_hu(owner, c, True):
                entries.append((owner, HU))
                if source == _LZ:
                    flags[owner] = (True, False)
            if source == _DRAW and not (last and rules.show_wall_bottom):
                self._add_patterns(entries, owner, c, True)
            return entries, flags, LIANGZHANG_IN if source == _LZ else Otherwise(WANG_IN, owner)
        if source == _LZ:
            if self._can_hu(owner, c, True):
                entries.append((owner, HU))
                flags[owner] = (True, False)
            if (
                rules.dihu == Dihu.LIANGZHANG
                and rules.show_liangzhang
                and self._hands[owner][c] != 3
            ):
                for t in self._down[owner]:
                    if self._can_hu(t, c, False):
                        entries.append((t, HU))
                        flags[t] = (False, True)
            return entries, flags, LIANGZHANG_IN
        if source == _DRAW:
            if not (last and rules.show_wall_bottom):  # 泸州: nobody wins the shown bottom card
                if self._can_hu(owner, c, True):
                    entries.append((owner, HU))
                self._add_patterns(entries, owner, c, True)
                for t in self._down[owner]:
                    if self._can_hu(t, c, False):
                        entries.append((t, HU))
            fb = self._claims(c, owner, True, entries, (owner, self._nxt[owner]))
            if fb.kind != PAO and not (last and rules.show_wall_bottom):
                self._add_patterns(entries, self._nxt[owner], c, False)
            return entries, flags, fb
        for t in self._down[owner]:
            dihu = (dihu_seats >> t) & 1
            if (rules.win_on_discard or dihu) and self._can_hu(t, c, False):
                entries.append((t, HU))
                if dihu:
                    flags[t] = (False, True)
        fb = self._claims(c, owner, False, entries, (self._nxt[owner],))
        if fb.kind != PAO:
            self._add_patterns(entries, self._nxt[owner], c, False)
        return entries, flags, fb

    def _add_patterns(
        self, entries: list[tuple[int, ActionType]], s: int, c: int, own: bool
    ) -> None:
        """R41: seat ``s``'s 王 pattern wins on card ``c`` — the drawer's beside his 胡
        (first), the next seat's after every other claim (胡 > 跑 > 碰 > 吃 > pattern)."""
        fans = self.rules.wang_fan
        if not self._wang[s] or not any(fans) or self._held[s] != self._needs[s]:
            return
        card = _CW[c]
        wang = self._wang[s]
        acts = tuple(
            Action(HU, s, card, pattern=p)
            for p in _played_patterns(fans, c == WANG)
            if p.hand_wang <= wang and self._wild_most(s, c, own, p) >= self.rules.min_huxi
        )
        if not acts:
            return
        if (s, HU) in entries:  # the drawer's own 自摸 stays his first option
            self._pat_memo[s] = (_act(HU, s, c), *acts)
        else:
            self._pat_memo[s] = acts
            if own:
                entries.insert(0, (s, HU))
            else:
                entries.append((s, HU))

    def _claims(
        self,
        c: int,
        owner: int,
        drawn: bool,
        entries: list[tuple[int, ActionType]],
        eaters: tuple[int, ...],
    ) -> Otherwise:
        """Append 碰/吃 entries (R14, R15) unless a 跑 is due (R13); return the fallback."""
        for t in self.seats:
            if t != owner and (self._hands[t][c] == 3 or (self._wei_mask[t] >> c) & 1):
                return Otherwise(PAO, t, Base.KAN if self._hands[t][c] == 3 else Base.WEI)
            if drawn and (self._peng_mask[t] >> c) & 1:
                return Otherwise(PAO, t, Base.PENG)
        for t in self.seats:
            if t != owner and self._hands[t][c] == 2 and self._may_eat(t, c, 2):
                entries.append((t, PENG))
                break
        memo: dict[int, tuple[Action, ...]] = {}
        for t in eaters:
            acts = self._chi_actions(t, c)
            if acts:
                entries.append((t, CHI))
                memo[t] = acts
        self._chi_memo = memo  # read back by _open for the same window
        return PILE

    def _may_eat(self, t: int, c: int, cards_out: int) -> bool:
        """R20 (臭牌, own discards) and R17 (a discard owed must not break a 坎)."""
        if ((self._chou[t] | self._discarded[t]) >> c) & 1:
            return False
        if self._held[t] + 1 > self.need(t):
            return self._loose(t) - cards_out > 0
        return True

    def _chi_actions(self, t: int, c: int) -> tuple[Action, ...]:
        """Every legal 吃 package of seat ``t`` on card ``c`` (R15, R19, R20, R17)."""
        if self._hands[t][c] >= 3 or ((self._chou[t] | self._discarded[t]) >> c) & 1:
            return ()
        # R17: a seat that must discard afterwards needs a card outside 坎 left
        # over; with at most two 比 groups that only bites when 6 or fewer remain.
        pk = packages_packed(self._packed[t], c, self.rules.yiwushi)
        if not pk:
            return ()
        left = max(0, min(self._loose(t) - 2, 7)) if self._held[t] + 1 > self.need(t) else 7
        # pk objects live on in chi's cache, so their ids stay unique; the same
        # package list can answer two cards (一三 taking 二, 二三 taking 一).
        key = ((id(pk) << 5 | c) << 3 | t) << 3 | left
        acts = _CHI_ACTS.get(key)
        if acts is None:
            if len(_CHI_ACTS) >= 1 << 14:  # bounded: a long-lived server's GC walks it all
                _CHI_ACTS.clear()
            card = _CW[c]
            acts = _CHI_ACTS[key] = tuple(
                Action(CHI, t, card, _card_groups(groups))
                for groups, nbi in pk
                if left - 3 * nbi > 0
            )
        return acts

    def _open(
        self,
        c: int,
        owner: int,
        source: Source,
        shown: bool,
        last: bool,
        entries: list[tuple[int, ActionType]],
        fallback: Otherwise,
        flags: dict[int, tuple[bool, bool]] | None = None,
    ) -> None:
        """Open a claim window on card ``c`` with these prioritised entries."""
        self.phase = CLAIM
        opts: dict[int, list[Action]] = {}
        pats, self._pat_memo = self._pat_memo, {}
        for seat, typ in entries:
            lst = opts.setdefault(seat, [])
            if typ == CHI:
                memo = self._chi_memo.get(seat)
                lst.extend(memo if memo is not None else self._chi_actions(seat, c))
            elif typ == HU and seat in pats:
                lst.extend(pats[seat])
            else:
                lst.append(_act(typ, seat, c))
        options = {seat: (*lst, _act(PASS, seat, c)) for seat, lst in opts.items()}
        self._window = ClaimWindow(
            c, owner, source, shown, last, tuple(entries), options, fallback, flags or {}
        )
        if entries and entries[0][1] == HU and self._must_win(source):
            self._win(entries[0][0], auto=True)  # R44 有胡必胡 / 放炮必胡: no choice

    def _must_win(self, source: Source) -> bool:
        """R44: is a win on a card from ``source`` taken whether the seat wants it or not?"""
        f = self.rules.forced_win
        return f == ForcedWin.ANY or (f == ForcedWin.DISCARD and source == _DISCARD)

    def _resolve(self) -> None:
        """R16 priority walk; R20 臭牌 and R30 臭胡 bookkeeping; then the outcome."""
        w = self._window
        assert w is not None
        win_i = w.outcome()
        if win_i is None:
            return  # an undecided seat outranks whatever was decided
        c, card = w.card, _CW[w.card]
        info = w.info
        for seat, d in w.decisions.items():
            offered_hu, eat_i = info[seat]
            passed = d.type == PASS
            if passed:
                self.events.append(Event(E.PASS, seat, card, w.source, w.shown))
            if offered_hu and d.type != HU and c != WANG:  # R30 ignores 王
                self._chouhu[seat][c] = self.current_huxi(seat)  # R30
            if passed and eat_i >= 0 and (win_i < 0 or win_i > eat_i):
                self._chou[seat] |= 1 << c  # R20, unless lost to a higher claim
        if win_i >= 0:
            seat, typ = w.entries[win_i]
            if typ == HU:
                self._win(seat)
                return
            src = w.source
            self._took_in[seat] = True
            if typ == PENG:
                self._remove(seat, c, 2)
                self._held[seat] += 1
                self._add(seat, _four(_KIND.PENG, c))
                self._peng_mask[seat] |= 1 << c
                self.events.append(Event(E.PENG, seat, card, src))
            else:
                self._chi(seat, w.decisions[seat], w.source)
            self._changed(seat)
            nxt = self._finish_intake(seat)
        else:
            nxt = self._fallback(w.fallback, c, w.owner, w.source)
        self._run(nxt)

    def _fallback(self, fb: Otherwise, c: int, owner: int, source: Source) -> int | None:
        """What happens to an open card nobody claimed (R13, R16.2, R18)."""
        kind = fb.kind
        if kind == PILE_IT:
            self._piles[owner] = (*self._piles[owner], _CW[c])
            self.events.append(Event(E.PILE, owner, _CW[c], source))
            return self._nxt[owner]
        if kind == FORCED:
            assert fb.base is not None
            self._forced(owner, c, fb.base)
            return self._finish_intake(owner)
        if kind == PAO:
            assert fb.base is not None
            self._pao(fb.seat, c, fb.base, source)
            return self._finish_intake(fb.seat)
        if kind == WANG_IN:
            self._wang_in(owner)
            return self._finish_intake(owner)
        return self._liangzhang_in()

    def _wang_in(self, s: int) -> None:
        """R39: a 王 turned up joins the drawer's hand (he then owes a discard, R17)."""
        self._wang[s] += 1
        self._held[s] += 1
        self._hucache[s] = {}

    def _discard(self, s: int, c: int) -> None:
        """R17 出牌, then the discard's claim window (R16, R24, R29)."""
        self._remove(s, c, 1)
        self._held[s] -= 1
        self._discarded[s] |= 1 << c
        self._changed(s, table=False)
        first = s == self.dealer and not self._dealer_discarded
        if s == self.dealer:
            self._dealer_discarded = True
        self.events.append(Event(E.DISCARD, s, _CW[c], _HAND))
        dihu_seats = 0
        if first and self.rules.dihu == Dihu.FIRST_DISCARD:
            dihu_seats = 1 << self._nxt[s]
        elif first and self.rules.dihu == Dihu.FIRST_DISCARD_ANY:
            dihu_seats = sum(1 << t for t in self._down[s])
        self._dihu_seats = dihu_seats
        entries, flags, fallback = self._offer(c, s, _DISCARD, False, dihu_seats)
        if entries:
            self._open(c, s, _DISCARD, True, False, entries, fallback, flags)
            return
        self._run(self._fallback(fallback, c, s, _DISCARD))

    def _discard_actions(self) -> tuple[Action, ...]:
        if self._dcache is None:
            s, h = self._turn, self._hands[self._turn]
            acts = _DISCARDS[s]
            self._dcache = tuple([acts[c] for c in range(20) if 0 < h[c] < 3])
        return self._dcache

    # ------------------------------------------------------------------ melds
    def _remove(self, s: int, c: int, k: int) -> None:
        self._hands[s][c] -= k
        self._packed[s] -= k * BIT[c]
        self._nhand[s] -= k

    def _add(self, s: int, g: Group) -> None:
        self._tables[s] = (*self._tables[s], g)
        if g.kind.is_four:
            self._fours[s] += 1

    def _upgrade(self, s: int, c: int, kind: GroupKind) -> None:
        """Turn the 偎/臭偎/碰 of ``c`` on the table into a 提/跑 (R12c, R13b/c)."""
        t = list(self._tables[s])
        for i, g in enumerate(t):
            if g.cards[0] == c and len(g.cards) == 3 and g.kind in _UPGRADABLE:
                t[i] = _four(kind, c)
                break
        self._tables[s] = tuple(t)
        self._fours[s] += 1
        self._wei_mask[s] &= ~(1 << c)
        self._peng_mask[s] &= ~(1 << c)

    def _ti_hand(self, s: int, c: int) -> None:
        """R8/R12(a): four identical cards in hand → 提."""
        self._remove(s, c, 4)
        self._add(s, _four(_KIND.TI, c))
        self.events.append(Event(E.TI, s, _CW[c], _HAND, data=(("base", Base.HAND),)))
        self._changed(s)

    def _forced(self, s: int, c: int, how: Base) -> None:
        """R11/R12(b, c): the drawer's own card makes 偎 (臭偎) or 提."""
        card = _CW[c]
        self._took(s, how != Base.PAIR)
        if how == Base.KAN:
            self._remove(s, c, 3)
            self._add(s, _four(_KIND.TI, c))
            self.events.append(Event(E.TI, s, card, _DRAW, data=(("base", Base.KAN),)))
        elif how == Base.WEI:
            self._upgrade(s, c, _KIND.TI)
            self.events.append(Event(E.TI, s, card, _DRAW, data=(("base", Base.TABLE),)))
        else:
            chou = bool((self._chou[s] >> c) & 1)  # R20: own 臭牌 → 臭偎, one card shown
            kind = _KIND.CHOUWEI if chou else _KIND.WEI
            self._remove(s, c, 2)
            self._add(s, _four(kind, c))
            self._wei_mask[s] |= 1 << c
            shown = chou or self.rules.open_wei  # 明偎: the 偎 lies face up
            self.events.append(Event(E.CHOUWEI if chou else E.WEI, s, card, _DRAW, shown=shown))
        self._held[s] += 1
        self._changed(s)

    def _pao(self, s: int, c: int, base: Base, source: Source) -> None:
        """R13: mandatory 跑 from a 坎 in hand or a 偎/碰 on the table."""
        self._took(s, True)
        if base == Base.KAN:
            self._remove(s, c, 3)
            self._add(s, _four(_KIND.PAO, c))
        else:
            self._upgrade(s, c, _KIND.PAO)
        self._held[s] += 1
        data = (("base", Base.HAND if base == Base.KAN else Base.TABLE), ("from", base))
        self.events.append(Event(E.PAO, s, _CW[c], source, data=data))
        self._changed(s)

    def _took(self, s: int, four: bool) -> None:
        """A card taken in during play (常德 听胡); a second 跑/提 (重跑) does not count."""
        if not (four and self._fours[s]):
            self._took_in[s] = True

    def _chi(self, s: int, a: Action, source: Source) -> None:
        """R15/R19: lay out the 吃 group and every 比 group."""
        c = int(a.card)  # type: ignore[arg-type]
        used = [int(x) for x in a.groups[0]]
        used.remove(c)
        for g in a.groups[1:]:
            used += [int(x) for x in g]
        for x in used:
            self._remove(s, x, 1)
        self._held[s] += 1
        for g in a.groups:
            self._add(s, _group(_KIND.CHI, tuple(int(x) for x in g)))
        groups = tuple(tuple(_CW[x].code for x in g) for g in a.groups)
        self.events.append(Event(E.CHI, s, _CW[c], source, data=(("groups", groups),)))

    def _changed(self, s: int, table: bool = True) -> None:
        """Holdings of ``s`` changed: refresh caches; R30 臭胡 lapses if 胡息 moved."""
        if table:
            t = self._tsum[s] = self._ev.summarize_keys(tuple(map(_key, self._tables[s])))
            self._needs[s] = self.rules.hand_size + max(0, t.fours - 1)
        t = self._tsum[s]
        self._shape[s] = self._ev.shape_of(self._nhand[s], t)
        self._hucache[s] = {}
        ch = self._chouhu[s]
        if ch:
            h = self.current_huxi(s)
            for k in [k for k, v in ch.items() if v != h]:
                del ch[k]

    # ------------------------------------------------------------------ winning
    def _can_hu(self, s: int, c: int, self_drawn: bool) -> bool:
        """Could seat ``s`` 胡 card ``c`` now? (R17 count, R22–R27, R23, R30)."""
        if self._held[s] != self._needs[s] or c in self._chouhu[s]:
            return False
        key = c * 2 + self_drawn
        cache = self._hucache[s]
        v = cache.get(key)
        if v is None:
            if self._wang[s] or c == WANG:
                v = self._wild_win(s, c, self_drawn)
            else:
                t = self._tsum[s]
                up = (t.up_ti if self_drawn else t.up_pao)[c]
                v = self._ev._best(self._packed[s], t.huxi, self._shape[s], up, c, self_drawn)
            cache[key] = v
        return v >= self.rules.min_huxi

    def _wild_win(self, s: int, c: int, self_drawn: bool) -> int:
        """R40 with 王 in hand or drawn: only on his own turned-up card (自摸), and only
        if some split and 王 assignment reaches 起胡 (R46, as the settlement finds): the
        most 胡息 of any, −1 without one (:meth:`_can_hu` compares with 起胡)."""
        if not self_drawn:
            return -1
        return self._wild_most(s, c, True, None)

    def _wild_most(self, s: int, c: int, self_drawn: bool, pattern: WangPattern | None) -> int:
        """The most 胡息 of seat ``s``'s hand winning card ``c`` (20: a 王) with 王 (R40,
        R41): :func:`~paohuzi.core.wang.most_huxi` of :meth:`_position`, from the fields."""
        win = None if c == WANG else _CW[c]
        wang, rules = self._wang[s], self.rules
        table = self._tables[s]
        return most_huxi_of(
            rules,
            self._packed[s],
            table,
            win,
            self_drawn,
            wang,
            c == WANG,
            pattern,
            rules.hand_size,
            tuple(map(_key, table)),
        )

    def _position(self, s: int, c: int, self_drawn: bool, **flags: Any) -> Position:
        """The Position of seat ``s`` winning on card ``c`` (a 王 when ``c`` is 20)."""
        return Position(
            tuple(unpack(self._packed[s])),
            self._tables[s],
            None if c == WANG else _CW[c],
            self_drawn=self_drawn,
            hand_size=self.rules.hand_size,
            wang=self._wang[s],
            win_wang=c == WANG,
            **flags,
        )

    def _win(self, s: int, auto: bool = False) -> None:
        """胡 on the open card: build the Position, settle it, pay (R22–R37); ``auto``:
        taken by the rules (R44), not chosen."""
        w = self._window
        assert w is not None
        c, owner, source = w.card, w.owner, w.source
        rules = self.rules
        self_drawn = s == owner and source in (_DRAW, _LZ)
        tianhu, dihu = w.hu_flags.get(s, (False, False))
        # 海底: the last wall card that may be won (the shown bottom card may not).
        haidi = source == _DRAW and self._wall_pos == len(self._wall) - int(rules.show_wall_bottom)
        tinghu = not (self._took_in[s] or tianhu or dihu) and rules.uses("tinghu")
        # R41: the chosen 胡 may be a pattern (taken automatically: the first option)
        chosen = w.options[s][0] if auto else w.decisions.get(s)
        pattern = chosen.pattern if chosen is not None else None
        by_other = source == _DISCARD or (source == _LZ and s != owner)
        discarder = owner if by_other else None
        data: tuple[tuple[str, Any], ...] = (
            ("self_drawn", self_drawn),
            ("tianhu", tianhu),
            ("dihu", dihu),
            ("last_card", haidi),
        )
        if auto:
            data = (*data, ("auto", True))
        if pattern is not None:
            data = (*data, ("pattern", pattern.value))
        self.events.append(Event(E.HU, s, _CW[c], source, data=data))
        pos = self._position(
            s,
            c,
            self_drawn,
            last_card=haidi,
            tianhu=tianhu,
            dihu=dihu,
            extra=(("tinghu", True),) if tinghu else (),
            xing=self._xing(s, c),
            pattern=pattern,
        )
        self._settle(s, pos, discarder, dihu)

    def _tianhu(self, s: int) -> None:
        """R28 mandatory 天胡: automatic, 自摸, no shape needed."""
        # INTERFACES §4: a `hu` event with no card; it is no action.
        data = (("self_drawn", True), ("tianhu", True), ("dihu", False), ("last_card", False))
        self.events.append(Event(E.HU, s, data=(*data, ("ti", self._fours[s]))))
        pos = Position(
            tuple(unpack(self._packed[s])),
            self._tables[s],
            None,
            self_drawn=True,
            tianhu=True,
            hand_size=self.rules.hand_size,
            xing=self._xing(s, -1),
        )
        self._settle(s, pos, None, False)

    def _xing(self, s: int, win: int) -> tuple[Card, ...]:
        """R42 醒: the 醒牌 after the win of ``s`` (``win`` −1: a 天胡 without a card), one
        ``xing`` event each. 跟醒 takes the winning card, 翻醒 the next wall card (the
        winning card if the wall is empty); the offset moves it a point, same size,
        10 ↔ 1. 连翻: while the 醒牌 makes a four-group in the winner's 门子 — a card
        turned from the wall with his three of its kind, or one of his own cards when he
        holds all four — the next wall card is turned too."""
        rules = self.rules
        if rules.xing == Xing.NONE:
            return ()
        held = self._hands[s][:]
        for g in self._tables[s]:
            for x in g.cards:
                held[x] += 1
        if 0 <= win < WANG:
            held[win] += 1
        pos, wall = self._wall_pos, self._wall
        outside = True  # the card turned is from the wall (not one of the winner's)
        if rules.xing == Xing.GEN and win >= 0:
            turned, outside = win, False
        elif pos < len(wall):
            turned, pos = wall[pos], pos + 1
        else:
            turned, outside = (win, False) if win >= 0 else (self._liangzhang, True)
        out: list[Card] = []
        while True:
            kind = rules.xing_kind(turned, held)  # (a 王: the kind held most)
            n = held[kind]
            data = (("count", n), ("turned", _CW[turned].code))
            src = Source.WALL if outside else None
            self.events.append(Event(E.XING, s, _CW[kind], src, data=data))
            out.append(_CW[kind])
            if not (rules.xing_chain and n + int(outside) == 4 and pos < len(wall)):
                return tuple(out)
            turned, pos, outside = wall[pos], pos + 1, True

    def _xing_with_wang(self, wang: tuple[Card, ...]) -> None:
        """R42: 醒数 counts a 王 standing for the 醒牌's kind too — as the settlement's split
        has them (``wang``: what each 王 stands for), known only once settled: the ``xing``
        events just made (the last ones) say so. (连翻 turned on the natural cards.)"""
        ev = self.events
        i = len(ev) - 1
        while i >= 0 and ev[i].type is E.XING:
            e = ev[i]
            data = tuple((k, v + wang.count(e.card) if k == "count" else v) for k, v in e.data)
            ev[i] = e._replace(data=data)
            i -= 1

    def _settle(self, s: int, pos: Position, discarder: int | None, dihu: bool) -> None:
        st = settle(pos, self.rules, huang=self.huang)
        if not st.win:  # the engine only offers 胡 that the evaluator accepts
            raise AssertionError(f"engine offered a non-winning 胡: {pos} ({st.error})")
        if st.wang and pos.xing:
            self._xing_with_wang(st.wang)
        rules = self.rules
        xing_seat = next((t for t in range(self.n) if t not in self.seats), None)
        xing_pay = xing_seat_pay(st.fan, st.xing, rules) if xing_seat is not None else 0
        scores = payments(st.di, s, list(self.seats), rules, discarder, dihu, xing_seat, xing_pay)
        scores = (scores + [0] * self.n)[: self.n]
        on_discard = discarder is not None and rules.win_on_discard  # R44: as score --discard
        self.result = HandResult(tuple(scores), s, pos, st, discarder, on_discard)
        self.events.append(
            Event(E.SETTLE, s, data=(("huxi", st.huxi), ("di", st.di), ("scores", tuple(scores))))
        )
        self.phase = OVER

    def _huangzhuang(self) -> None:
        """R32: the wall is exhausted and nobody won (the dealer may pay a cost)."""
        self.events.append(Event(E.HUANGZHUANG))
        self.result = HandResult(
            tuple(huangzhuang_payments(self.dealer, list(self.seats), self.rules, self._wang))
        )
        self.phase = OVER

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        return (
            f"<GameState {self.rules.name} dealer={self.dealer} phase={self.phase} "
            f"to_act={self.to_act()} wall={self.wall_left}>"
        )


_UPGRADABLE = (_KIND.WEI, _KIND.CHOUWEI, _KIND.PENG)
# clone() shares only these fields — values that are never changed in place, only
# replaced — and copies every other field (a new field is copied unless listed here).
_SHARED = frozenset(
    {
        "_chi_memo",  # replaced whole by each _claims call, read by the next _open
        "_pat_memo",  # likewise: filled by _offer, emptied by the next _open
        "_dcache",
        "dealer",
        "_dealer_discarded",
        "deck",
        "_dihu_seats",
        "_down",
        "_ev",
        "huang",
        "_liangzhang",
        "n",
        "_nxt",
        "phase",
        "result",
        "rules",
        "seats",
        "seed",
        "_turn",
        "_wall",
        "_wall_pos",
    }
)
_NO_DEAL: tuple[str, ...] = ("no deal",)  # GameState(deck=_NO_DEAL): a blank, for clone
_CACHES = frozenset({"_hucache"})  # per-seat caches: a clone starts them afresh
assert set(_FIELDS) >= _SHARED | _CACHES


@lru_cache(maxsize=64)
def _played_patterns(fans: tuple[int, ...], on_wang: bool) -> tuple[WangPattern, ...]:
    """R41: the patterns a preset pays (``fans``, by slot) on a natural card or on a
    drawn 王 (the enum's properties look themselves up: asked at every card offered)."""
    return tuple(p for p in WangPattern if fans[p.slot] and p.on_wang == on_wang)


def _copy(v: Any) -> Any:
    """A copy of a mutable field, one level into lists of lists or dicts."""
    t = type(v)
    if t is list:
        return [_copy(x) for x in v] if v and type(v[0]) in (list, dict) else v[:]
    if t is dict:
        return {k: _copy(x) for k, x in v.items()}
    if t is ClaimWindow:
        return v.copy()
    return v


__all__ = ["CLAIM", "DISCARDING", "OVER", "TERMINAL", "GameState", "IllegalAction"]
