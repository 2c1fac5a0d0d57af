"""视角 (shìjiǎo): what one seat may see — THE single hidden-information filter.

:func:`view` is the only function that turns a :class:`GameState` into data
for a player (web client, terminal UI, bots). Hidden from a seat: the other
seats' concealed hands (only their sizes show), the cards of their 偎 (a 臭偎
or 提 shows one card), a drawn card that became another seat's 偎/提 or is
still in its drawer's private 胡 decision, an unshown 亮张, the wall. Everything
else — derived data such as :func:`information_state` included — is computed
from the view. :func:`resample` is the inverse for search: a world drawn at
random among those consistent with what the seat sees.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import Action
from .cards import CARDS, CODES, WANG, Card
from .events import Event
from .melds import Group, GroupKind
from .result import HandResult
from .rules import Rules
from .vocab import EventType, Phase, Source

if TYPE_CHECKING:
    from .state import GameState

CLAIM, OVER, PASS = Phase.CLAIM, Phase.OVER, EventType.PASS


@dataclass(frozen=True, slots=True)
class MeldView:
    """A table meld as a viewer sees it: ``None`` for a card face down (another
    seat's 偎; one card of a 臭偎 or 提 shows); ``huxi`` None where the kind is hidden."""

    kind: GroupKind
    cards: tuple[Card | None, ...]
    huxi: int | None

    def to_dict(self) -> dict[str, Any]:
        codes = [CODES[c] if c is not None else None for c in self.cards]
        return {"kind": self.kind.value, "cards": codes, "huxi": self.huxi}


@dataclass(frozen=True, slots=True)
class OpenCard:
    """The card open to claims: ``card`` None for a drawn card only its drawer sees."""

    card: Card | None
    owner: int
    source: Source
    shown: bool

    def to_dict(self) -> dict[str, Any]:
        code = CODES[self.card] if self.card is not None else None
        return {"card": code, "owner": self.owner, "source": self.source, "shown": self.shown}


class View(NamedTuple):
    """Everything one seat may know now; :func:`view` is its only maker.

    In a claim window who else may claim, and in which priority order, is private
    (it would reveal pairs and 臭牌): a seat learns only that it must decide
    (``to_act``), or that others still are (``others_deciding``).

    A named tuple rather than a frozen dataclass: just as immutable, and made
    once per seat per step (RL, search, the server), where the dataclass
    constructor alone cost a third of the view.
    """

    seat: int
    rules: Rules
    seats: tuple[int, ...]  # the seats dealt in (a 坐底 seat sits out)
    dealer: int
    phase: Phase
    current_player: int | None  # None in a claim window (private)
    to_act: tuple[int, ...]  # (seat,) when this seat must decide, else ()
    others_deciding: bool
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    tables: tuple[tuple[MeldView, ...], ...]
    piles: tuple[tuple[Card, ...], ...]
    wall: int  # cards left in the wall
    liangzhang: Card | None
    bottom: Card | None  # the shown last wall card (泸州)
    open: OpenCard | None
    chou: tuple[Card, ...]  # this seat's 臭牌 (R20)
    discarded: tuple[Card, ...]  # kinds this seat discarded (never 吃/碰 them, R20)
    discards: tuple[tuple[Card, ...], ...]  # kinds each seat discarded (public, R20)
    huxi: int  # 当前总息数 (R33)
    need: int  # R17 count of a waiting seat
    legal: tuple[Action, ...]
    log: tuple[Event, ...]  # the events this seat may see, cards hidden where unshown
    result: HandResult | None
    reveal_hands: tuple[tuple[Card, ...], ...] | None  # every hand, once the hand is over
    reveal_huxi: tuple[int, ...] | None
    wang: int = 0  # 王 in this seat's hand (R39); ``hand`` lists its natural cards
    reveal_wang: tuple[int, ...] | None = None  # every seat's 王, once the hand is over
    # 坐醒 (``xing_seat``): the seat that sits out sees the dealer's concealed cards, 王 last
    watched: tuple[Card, ...] | None = None

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def table_huxi(self) -> tuple[int, ...]:
        """Per seat: the 胡息 of its melds that this seat can see (INTERFACES §5)."""
        return tuple(sum(m.huxi or 0 for m in t) for t in self.tables)

    @property
    def tiles(self) -> tuple[Card, ...]:
        """The seat's concealed cards as shown: its natural cards, then its 王 (R39)."""
        return self.hand + (Card.W,) * self.wang if self.wang else self.hand

    @property
    def revealed(self) -> tuple[tuple[Card, ...], ...] | None:
        """Every seat's concealed cards once the hand is over, 王 last (R39)."""
        if self.reveal_hands is None:
            return None
        ws = self.reveal_wang or (0,) * len(self.reveal_hands)
        return tuple(h + (Card.W,) * w for h, w in zip(self.reveal_hands, ws, strict=True))

    def legal_ids(self) -> list[str]:
        return [a.id() for a in self.legal]

    def own_groups(self) -> tuple[Group, ...]:
        """The seat's own table melds as Groups (it sees all their cards)."""
        return tuple(
            Group(m.kind, tuple(c for c in m.cards if c is not None))
            for m in self.tables[self.seat]
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form sent to clients (INTERFACES §5 ``view``)."""
        d: dict[str, Any] = {
            "seat": self.seat,
            "rules": self.rules.name,
            "players": self.players,
            "seats": list(self.seats),
            "dealer": self.dealer,
            "phase": self.phase,
            "current_player": self.current_player,
            "to_act": list(self.to_act),
            "others_deciding": self.others_deciding,
            "hand": [CODES[c] for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "tables": [[m.to_dict() for m in t] for t in self.tables],
            "table_huxi": list(self.table_huxi),
            "piles": [[CODES[c] for c in p] for p in self.piles],
            "wall": self.wall,
            "liangzhang": CODES[self.liangzhang] if self.liangzhang is not None else None,
            "bottom": CODES[self.bottom] if self.bottom is not None else None,
            "open": self.open.to_dict() if self.open is not None else None,
            "chou": [CODES[c] for c in self.chou],
            "discarded": [CODES[c] for c in self.discarded],
            "discards": [[CODES[c] for c in d] for d in self.discards],
            "huxi": self.huxi,
            "need": self.need,
            "legal_actions": self.legal_ids(),
            "log": [_event_dict(e) for e in self.log],
            "result": self.result.to_dict() if self.result is not None else None,
        }
        if self.reveal_hands is not None:
            d["reveal"] = {
                "hands": [[CODES[c] for c in h] for h in self.reveal_hands],
                "huxi": list(self.reveal_huxi or ()),
            }
        if self.rules.wang:  # R39: only tables that deal 王 say so (the wire stays as it was)
            d["wang"] = self.wang
            if self.reveal_wang is not None:
                d["reveal"]["wang"] = list(self.reveal_wang)
        if self.watched is not None:  # only a 坐醒 seat's view has it (the wire stays as it was)
            d["watched"] = [CODES[c] for c in self.watched]
        return d


def _meld_views(g: Group, rules: Rules) -> tuple[MeldView, MeldView]:
    """(as its owner sees it, as the others see it)."""
    huxi = g.huxi(rules)
    own = MeldView(g.kind, g.cards, huxi)
    if g.kind is GroupKind.WEI and not rules.open_wei:  # 明偎 (衡阳) lies face up
        return own, MeldView(g.kind, (None,) * 3, None)
    if g.kind in (GroupKind.CHOUWEI, GroupKind.TI):
        return own, MeldView(g.kind, (g.cards[0],) + (None,) * (len(g.cards) - 1), huxi)
    return own, own


# Meld views per (rules, meld) by identity — the 胡息 table and 明偎 decide them: the
# engine shares its Group objects, and hashing a frozen Rules or Group per meld per
# view would cost more than the view.
_MELDS: dict[int, tuple[Any, Any]] = {}  # id(rules) → (rules, {id(g): (g, own, other)})
_LAST_MELDS: tuple[Any, Any] = (None, None)  # the (rules, memo) asked last


def _tables(s: GameState, seat: int, over: bool) -> tuple[tuple[MeldView, ...], ...]:
    """Every seat's melds as ``seat`` sees them (its own, and all at the end, open)."""
    global _LAST_MELDS
    rules = s.rules
    last = _LAST_MELDS  # the rules of the view before, mostly (no id boxed, no dict hit)
    if last[0] is rules:
        memo = last[1]
    else:
        hit = _MELDS.get(id(rules))
        memo = hit[1] if hit is not None and hit[0] is rules else _melds_of(rules)
        _LAST_MELDS = (rules, memo)
    out = []
    slots = _LAST_TABLES
    for t, table in enumerate(s._tables):
        if not table:
            out.append(())
            continue
        # The engine replaces a seat's table tuple when a meld joins or grows: the whole
        # table's two views are kept by the tuple's identity, the one asked last per
        # seat in a slot (most views are of the hand of the view before), the rest in
        # the memo.
        m = slots[t]
        if m[0] is not table or m[3] is not memo:
            found = memo.get(id(table))
            if found is None or found[0] is not table:  # (table, as its owner sees it, others)
                found = _table_hit(memo, table, rules)
            m = slots[t] = (table, found[1], found[2], memo)
        out.append(m[1 if t == seat or over else 2])
    return tuple(out)


# The table views asked last, per seat: (table, as its owner sees it, as others do, memo).
_NO_TABLE: tuple[Any, ...] = (None, (), (), None)
_LAST_TABLES: list[tuple[Any, ...]] = [_NO_TABLE] * 4


def _table_hit(
    memo: dict[int, tuple[Any, ...]], table: tuple[Group, ...], rules: Rules
) -> tuple[Any, ...]:
    """A seat's table as its owner and as the others see it, from each meld's views
    (kept by the meld's identity, in the same memo: the ids of live objects differ)."""
    get = memo.get
    own, other = [], []
    for g in table:
        m = get(id(g))
        if m is None or m[0] is not g:  # (g, as its owner sees it, as others do)
            m = _meld_hit(memo, g, rules)
        own.append(m[1])
        other.append(m[2])
    if len(memo) > 4096:  # bounded: tables of finished hands
        memo.clear()
    hit = memo[id(table)] = (table, tuple(own), tuple(other))
    return hit


def _melds_of(rules: Rules) -> dict[int, tuple[Any, ...]]:
    memo: dict[int, tuple[Any, ...]] = _by_identity(_MELDS, rules, _new_memo, 64)
    return memo


def _meld_hit(memo: dict[int, tuple[Any, ...]], g: Group, rules: Rules) -> tuple[Any, ...]:
    if len(memo) > 4096:  # bounded: groups made outside the engine's
        memo.clear()
    hit = memo[id(g)] = (g, *_meld_views(g, rules))
    return hit


def _new_memo(_: object) -> dict[int, tuple[Any, ...]]:
    return {}


# Events are immutable and shared by every view of a hand: their wire form is
# built once per event (a server sends the whole log to every seat per change)
# and each view gets a shallow copy, so a caller's edits stay its own. The memos
# are bounded to about the hands in play: every object they hold is one more for
# each full garbage collection to walk (a server's tail latency).
_EVENT_DICTS: dict[int, tuple[Any, Any]] = {}
_HIDDEN: dict[int, tuple[Any, Any]] = {}


def _by_identity(memo: dict[int, tuple[Any, Any]], obj: Any, make: Any, limit: int) -> Any:
    """make(obj), memoised on obj's identity (holding obj keeps its id unique)."""
    hit = memo.get(id(obj))
    if hit is None or hit[0] is not obj:
        if len(memo) > limit:
            memo.clear()
        hit = memo[id(obj)] = (obj, make(obj))
    return hit[1]


def _event_dict(e: Event) -> dict[str, Any]:
    return dict(_by_identity(_EVENT_DICTS, e, Event.to_dict, 8192))


def _hidden(e: Event) -> Event:
    """The event as a seat sees it that was not shown the card (one shared copy)."""
    return _by_identity(_HIDDEN, e, _without_card, 4096)


def _without_card(e: Event) -> Event:
    return _event((*e[:_CARD_AT], None, *e[_CARD_AT + 1 :]))  # _replace binds keywords


_event = Event._make  # checks the length
_CARD_AT = Event._fields.index("card")


_MASKS: dict[int, tuple[Card, ...]] = {}
_HANDS: dict[int, tuple[Card, ...]] = {}
_LOGS: dict[int, tuple[list[Event], list[tuple[int, Event | None, tuple[Event, ...]]]]] = {}


def _mask(bits: int) -> tuple[Card, ...]:
    out = _MASKS.get(bits)
    if out is None:
        if len(_MASKS) > 4096:
            _MASKS.clear()
        out = _MASKS[bits] = tuple(CARDS[c] for c in range(20) if bits >> c & 1)
    return out


def _discards(kinds: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    """Every seat's discarded kinds, memoised on the seats' masks (a tuple of ints
    hashes in C; one dict hit instead of a call per seat)."""
    out = _DISCARDS.get(kinds)
    if out is None:
        if len(_DISCARDS) > 4096:
            _DISCARDS.clear()
        out = _DISCARDS[kinds] = tuple([_mask(m) for m in kinds])
    return out


_DISCARDS: dict[tuple[int, ...], tuple[tuple[Card, ...], ...]] = {}


def _hand(s: GameState, seat: int) -> tuple[Card, ...]:
    """The seat's concealed cards, memoised on the packed hand (a unique key)."""
    out = _HANDS.get(s._packed[seat])
    if out is None:
        if len(_HANDS) > 16384:
            _HANDS.clear()
        h = s._hands[seat]
        out = _HANDS[s._packed[seat]] = tuple([CARDS[c] for c in range(20) for _ in range(h[c])])
    return out


def _log(s: GameState, seat: int) -> tuple[Event, ...]:
    """The seat's log: others' passes are private; so is the card of an event not
    shown to all. Kept per (event list, seat) and extended by the new events only:
    the engine's list only grows. A list that shrank or whose last seen event was
    replaced (a caller's undo) is filtered afresh."""
    global _LAST_LOG
    ev = s.events
    entry = _LAST_LOG  # the hand of the view before, mostly (no id boxed, no dict hit)
    if entry[0] is not ev:
        entry = _LOGS.get(id(ev)) or _NO_ENTRY
        if entry[0] is not ev:  # holding ev keeps its id unique
            if len(_LOGS) > 128:  # hands in play at once; a larger memo only slows the GC
                _LOGS.clear()
            entry = _LOGS[id(ev)] = (ev, [_NO_LOG] * s.n)
        _LAST_LOG = entry
    seen, last, out = entry[1][seat]
    n = len(ev)
    if seen != n or (n and ev[n - 1] is not last):
        if seen > n or (seen and ev[seen - 1] is not last):
            seen, out = 0, ()
        # a new tuple, never a list extended in place: views may run in threads
        out += tuple(
            [
                e if e.shown or e.seat == seat or e.card is None else _hidden(e)
                for e in ev[seen:n]
                if e.type is not PASS or e.seat == seat
            ]
        )
        entry[1][seat] = (n, ev[n - 1] if n else None, out)
    return out


_NO_LOG: tuple[int, Event | None, tuple[Event, ...]] = (0, None, ())
_NO_ENTRY: tuple[Any, list[tuple[int, Event | None, tuple[Event, ...]]]] = (None, [])
_LAST_LOG = _NO_ENTRY  # the _LOGS entry asked last


def _sizes(s: GameState) -> tuple[int, ...]:
    """Concealed cards per seat, 王 included (R39): how many shows, not what they are."""
    return tuple([n + w for n, w in zip(s._nhand, s._wang, strict=True)])


def view(state: GameState, seat: int) -> View:
    """What ``seat`` may see of ``state`` — THE hidden-information filter."""
    s = state
    phase = s.phase
    over = phase is OVER
    rules = s.rules
    open_card = None
    w = s._window
    if phase is CLAIM and w is not None:
        visible = w.shown or w.owner == seat
        # (the source by identity: an Enum member hashes in Python)
        key = (w.card if visible else -1, w.owner, id(w.source), w.shown)
        open_card = _OPEN.get(key)
        if open_card is None:  # (a frozen dataclass's __init__ runs in Python)
            card = _CARD[w.card] if visible else None
            open_card = _OPEN[key] = OpenCard(card, w.owner, w.source, w.shown)
    # a 王 亮张 is shown to all (R39)
    lz_visible = rules.show_liangzhang or seat == s.dealer or over or s._liangzhang == WANG
    pending = s.to_act()
    wall = s.wall_left
    discards = _discards(tuple(s._discarded))
    chou = s._chou[seat]
    # Positional, in View's field order: binding 29 keywords cost a sixth of the view,
    # and namedtuple's own _make (Python) an eighth (tests check the length instead).
    return _new(
        View,
        (
            seat,
            rules,
            tuple(s.seats),
            s.dealer,
            phase,
            s.current_player if phase is not CLAIM else None,
            (seat,) if seat in pending else (),  # to_act
            # others_deciding: only "the window is open and I have nothing to
            # decide" — whether others may claim too is private (pairs, R16).
            phase is CLAIM and seat not in pending,
            _hand(s, seat),
            tuple(s._nhand) if not rules.wang else _sizes(s),
            _tables(s, seat, over),
            tuple(s._piles),
            wall,
            _CARD[s._liangzhang] if lz_visible else None,
            _CARD[s._wall[-1]] if rules.show_wall_bottom and wall else None,  # bottom
            open_card,
            _mask(chou) if chou else (),
            discards[seat],
            discards,
            s._ev.current_huxi(s._packed[seat], s._tsum[seat]),  # s.current_huxi(seat)
            s.need(seat),
            tuple(s.legal_actions(seat)),
            _log(s, seat),
            s.result,
            # settlement: every hand and 当前总息数 is shown (R33)
            tuple(tuple(s.hand(t)) for t in range(s.n)) if over else None,
            tuple(s.current_huxi(t) for t in range(s.n)) if over else None,
            s._wang[seat],
            tuple(s._wang) if over else None,
            _watched(s, seat) if rules.xing_seat else None,
        ),
    )


_new: Any = tuple.__new__  # View from its fields, positional

# OpenCard by (card or −1 when hidden, owner, id of the source, shown): immutable, so shared
# (a few hundred at most: 21 cards × seats × sources × shown).
_OPEN: dict[tuple[int, int, int, bool], OpenCard] = {}
_CARD: tuple[Card, ...] = tuple(Card)  # deck int → Card (王 at 20) without an Enum call


def _watched(s: GameState, seat: int) -> tuple[Card, ...] | None:
    """坐醒 (PRESETS yongzhou): the seat that sits out sees the dealer's hand."""
    if not s.rules.xing_seat or seat in s.seats:
        return None
    return _hand(s, s.dealer) + (Card.W,) * s._wang[s.dealer]


def information_state(state: GameState, seat: int) -> str:
    """A compact canonical string of :func:`view` (keys for search bots)."""
    d = view(state, seat).to_dict()
    return json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
