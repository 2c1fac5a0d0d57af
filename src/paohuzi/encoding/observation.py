"""观察 (guānchá): one seat's view as a fixed-size float32 vector.

:func:`encode` reads only the seat's :class:`~paohuzi.core.views.View`, never
the state, so it can show nothing the seat may not see. The RL environments
and the ``neural`` bot read the view only through :mod:`paohuzi.encoding`:
when the view changes shape, only this package changes.

Seats are relative: slot 0 is the viewer, slot 1 the next seat in play order
(the 下家 when seated), and so on; there are always four slots (a three-player
preset leaves slot 3 empty; 泸州's 坐底 seat shows as not seated). Counts are
divided by four, so every entry lies in [0, 1]. A 王 (R39) has no kind: the
size stays as it was (the shipped ``neural`` weights read it), a visible 王 —
the 亮张, the open card, an event's card — is a shown card with no kind bit set
and not marked hidden. The vector is a concatenation
of named blocks (:data:`LAYOUT`, :func:`blocks`):

Global blocks, in order: ``phase`` (claim window, discard, over), ``deciding``
(the viewer must decide; others are deciding), ``rules`` (hunan, changde,
luzhou, other), ``wall`` (cards left / 80), ``hand`` (count per kind),
``chou`` (the viewer's 臭牌, R20), ``huxi`` (当前总息数 / 100, capped),
``need`` (R17 count / 40), ``liangzhang`` and ``bottom`` (one-hot, when
visible), ``open_card`` (one-hot when visible), ``open_hidden`` (a card is
open but hidden from the viewer), ``open_shown``, ``open_source`` (draw,
discard, 亮张), ``open_owner`` (slot).

Then per slot 0–3: ``seated``, ``dealer``, ``turn`` (must discard now),
``hand_size`` (/ 24; 王 included, so the viewer's own 王 count is its slot-0
``hand_size`` less its ``hand`` block), ``chi`` (count per 句/绞 kind, :data:`CHI_GROUPS`;
衡阳's 一五十 has no entry: the vector keeps the size trained networks read, and a 吃
一五十 shows in no ``chi`` count),
``peng``, ``wei`` (kinds visible to the viewer: its own, or all at the end),
``wei_hidden`` (face-down 偎 of unknown kind, / 7), ``chouwei``, ``pao``,
``ti`` (kind masks), ``pile`` (count per kind), ``discarded`` (kinds the seat
has discarded: they are barred to it by R20).
"""

from __future__ import annotations

from array import array
from typing import Any, cast

import numpy as np

from ..core.action_index import groups_with
from ..core.cards import BY_CODE, Card
from ..core.melds import GroupKind
from ..core.views import MeldView, View

KINDS = 20
SLOTS = 4
CHI_GROUPS: tuple[tuple[int, int, int], ...] = tuple(
    sorted({g for x in range(KINDS) for g in groups_with(x)})
)
_CHI_GROUP = {g: i for i, g in enumerate(CHI_GROUPS)}
PHASES = ("claim", "discard", "over")
RULES = ("hunan", "changde", "luzhou")  # then "other"
SOURCES = ("draw", "discard", "liangzhang")

GLOBAL: tuple[tuple[str, int], ...] = (
    ("phase", len(PHASES)),
    ("deciding", 2),
    ("rules", len(RULES) + 1),
    ("wall", 1),
    ("hand", KINDS),
    ("chou", KINDS),
    ("huxi", 1),
    ("need", 1),
    ("liangzhang", KINDS),
    ("bottom", KINDS),
    ("open_card", KINDS),
    ("open_hidden", 1),
    ("open_shown", 1),
    ("open_source", len(SOURCES)),
    ("open_owner", SLOTS),
)
PER_SEAT: tuple[tuple[str, int], ...] = (
    ("seated", 1),
    ("dealer", 1),
    ("turn", 1),
    ("hand_size", 1),
    ("chi", len(CHI_GROUPS)),
    ("peng", KINDS),
    ("wei", KINDS),
    ("wei_hidden", 1),
    ("chouwei", KINDS),
    ("pao", KINDS),
    ("ti", KINDS),
    ("pile", KINDS),
    ("discarded", KINDS),
)


def _layout() -> tuple[tuple[str, int, int], ...]:
    out: list[tuple[str, int, int]] = []
    at = 0
    for name, size in GLOBAL:
        out.append((name, at, size))
        at += size
    for slot in range(SLOTS):
        for name, size in PER_SEAT:
            out.append((f"seat{slot}.{name}", at, size))
            at += size
    return tuple(out)


LAYOUT: tuple[tuple[str, int, int], ...] = _layout()
"""(name, offset, size) of every block, in vector order."""
OBSERVATION_SIZE = LAYOUT[-1][1] + LAYOUT[-1][2]
_AT = {name: at for name, at, _ in LAYOUT}
_SEAT_SIZE = sum(size for _, size in PER_SEAT)
_SEAT0 = _AT["seat0.seated"]
_SEAT = {name: _AT[f"seat0.{name}"] - _SEAT0 for name, _ in PER_SEAT}
_MELD = {k: _SEAT[k] for k in ("peng", "wei", "chouwei", "pao", "ti")}


def blocks(vector: np.ndarray) -> dict[str, np.ndarray]:
    """Named views into an encoded vector (for inspection and docs)."""
    return {name: vector[at : at + size] for name, at, size in LAYOUT}


# Offsets of the global blocks, as constants for the hot path.
_PHASE = _AT["phase"]
_DECIDING = _AT["deciding"]
_RULES = _AT["rules"]
_WALL = _AT["wall"]
_HAND = _AT["hand"]
_CHOU = _AT["chou"]
_HUXI = _AT["huxi"]
_NEED = _AT["need"]
_LZ = _AT["liangzhang"]
_BOTTOM = _AT["bottom"]
_OPEN_CARD = _AT["open_card"]
_OPEN_HIDDEN = _AT["open_hidden"]
_OPEN_SHOWN = _AT["open_shown"]
_OPEN_SOURCE = _AT["open_source"]
_OPEN_OWNER = _AT["open_owner"]
_S_SEATED, _S_DEALER, _S_TURN, _S_SIZE = (
    _SEAT[k] for k in ("seated", "dealer", "turn", "hand_size")
)
_S_CHI, _S_WEI_HIDDEN, _S_PILE, _S_DISCARDED = (
    _SEAT[k] for k in ("chi", "wei_hidden", "pile", "discarded")
)
_PHASE_AT = {p: _PHASE + i for i, p in enumerate(PHASES)}
_RULES_AT = {r: _RULES + i for i, r in enumerate(RULES)}
_SOURCE_AT = {s: _OPEN_SOURCE + i for i, s in enumerate(SOURCES)}
_ZEROS = bytes(4 * OBSERVATION_SIZE)
_FLOAT32 = np.dtype(np.float32)  # made once: numpy converting the type per call costs
# A meld view is a dataclass whose hash runs in Python: the hot path never keys
# a table by one, and finds a 句/绞 by its sorted cards packed into one int.
_CHI_AT = {(a * KINDS + b) * KINDS + c: _S_CHI + i for i, (a, b, c) in enumerate(CHI_GROUPS)}
_CHI_KIND = GroupKind.CHI


def encode(view: View) -> np.ndarray:
    """The observation vector (float32, :data:`OBSERVATION_SIZE`) of one seat's view."""
    if _KERNEL is not None and not view.rules.yiwushi:  # (the C encoder knows no 一五十)
        # the same vector made in C (tests/rl/test_shared_slots.py)
        return np.frombuffer(_KERNEL(view), _FLOAT32)
    return _encode(view, True)


def _encode(view: View, shared: bool) -> np.ndarray:
    """:func:`encode`; ``shared``: each seat's slot block is copied from the last one
    made of equal inputs (:func:`_slot`), else made afresh (the plain path tests
    compare it with)."""
    # Filled in place in a C float array: only the few non-zero entries cost
    # anything (converting a list of 853 Python floats would dominate).
    o = array("f", _ZEROS)
    me = view.seat
    n = len(view.hand_sizes)
    phase = view.phase

    o[_PHASE_AT[phase]] = 1.0
    if view.to_act:
        o[_DECIDING] = 1.0
    if view.others_deciding:
        o[_DECIDING + 1] = 1.0
    o[_RULES_AT.get(view.rules.name, _RULES + len(RULES))] = 1.0
    o[_WALL] = min(view.wall, 80) / 80
    for c in view.hand:
        o[_HAND + c] += 0.25
    for c in view.chou:
        o[_CHOU + c] = 1.0
    o[_HUXI] = min(view.huxi, 100) / 100
    o[_NEED] = min(view.need, 40) / 40
    # A 王 (R39, card 20) is no kind: a visible card with no kind bit set is a 王.
    if view.liangzhang is not None and view.liangzhang < KINDS:
        o[_LZ + view.liangzhang] = 1.0
    if view.bottom is not None and view.bottom < KINDS:
        o[_BOTTOM + view.bottom] = 1.0
    op = view.open
    if op is not None:
        if op.card is None:
            o[_OPEN_HIDDEN] = 1.0
        elif op.card < KINDS:  # a drawn 王: shown, hidden not set, no kind
            o[_OPEN_CARD + op.card] = 1.0
        if op.shown:
            o[_OPEN_SHOWN] = 1.0
        o[_SOURCE_AT[op.source]] = 1.0
        o[_OPEN_OWNER + (op.owner - me) % n] = 1.0

    seats = view.seats
    dealer = view.dealer
    turn = view.current_player if phase == "discard" else None
    sizes = view.hand_sizes
    tables = view.tables
    piles = view.piles
    # Every seat's discarded kinds are public (R20 bars those kinds to it).
    discards = view.discards
    for t in range(n):
        s0 = _SEAT0 + ((t - me) % n) * _SEAT_SIZE
        inputs = (tables[t], piles[t], discards[t], sizes[t], t in seats, t == dealer, t == turn)
        if not shared:
            _slot(o, s0, inputs)
            continue
        # A seat's block is public but for its own 偎 and 提 (its melds as the
        # viewer sees them are an input): the seats of one state, and the states
        # between two melds or discards, share it.
        at = 2 * t + (t == me)
        hit = _SLOTS[at]
        if hit is None or hit[0] != inputs:  # tuples of shared objects: pointer tests
            block = array("f", _SLOT_ZEROS)
            _slot(block, 0, inputs)
            hit = _SLOTS[at] = (inputs, block)  # one tuple: threads see all of it or none
        o[s0 : s0 + _SEAT_SIZE] = hit[1]
    return np.frombuffer(o, _FLOAT32)


_SLOT_ZEROS = bytes(4 * _SEAT_SIZE)
# Per seat (0–3) and side (as others see it, as its owner does): the last block
# made and its inputs. Any encoder call may replace one; a stale block is never
# used, since its inputs must equal the view's.
_SLOTS: list[tuple[tuple[object, ...], array[float]] | None] = [None] * (2 * SLOTS)


def _slot(o: array[float], s0: int, inputs: tuple[object, ...]) -> None:
    """One seat's block at ``s0``: seated, dealer, turn, hand size, melds as the
    viewer sees them, pile and discarded kinds."""
    melds, pile, discarded, size, seated, is_dealer, is_turn = cast("_SlotInputs", inputs)
    if seated:
        o[s0 + _S_SEATED] = 1.0
    if is_dealer:
        o[s0 + _S_DEALER] = 1.0
    if is_turn:
        o[s0 + _S_TURN] = 1.0
    o[s0 + _S_SIZE] = min(size, 24) / 24
    for m in melds:
        cards = m.cards
        if m.kind is _CHI_KIND:
            x, y, z = sorted(cast("tuple[int, int, int]", cards))  # 吃 melds always show
            at = _CHI_AT.get((x * KINDS + y) * KINDS + z)
            if at is not None:  # (None: 一五十, which has no entry)
                o[s0 + at] += 0.25
        elif cards[0] is None:  # another seat's face-down 偎: only the count shows
            o[s0 + _S_WEI_HIDDEN] += 1 / 7
        else:  # one meld per kind and seat: a mask entry
            o[s0 + _MELD[m.kind] + cards[0]] = 1.0
    base = s0 + _S_PILE
    for c in pile:
        o[base + c] += 0.25
    base = s0 + _S_DISCARDED
    for c in discarded:
        o[base + c] = 1.0


_SlotInputs = tuple[tuple[MeldView, ...], tuple[Card, ...], tuple[Card, ...], int, bool, bool, bool]


def _kernel_encoder() -> Any:
    """:func:`_encode` in C (``core/_kernel.c``'s ``Encoder``, issue 27), given this
    module's layout; None without the kernel (the default, pure install)."""
    try:
        from ..core import _kernel
    except ImportError:
        return None
    fields = View._fields
    read = (
        *("seat", "rules", "seats", "dealer", "phase", "current_player", "to_act"),
        *("others_deciding", "hand", "hand_sizes", "tables", "piles", "wall", "liangzhang"),
        *("bottom", "open", "chou", "discards", "huxi", "need"),
    )
    at = (
        *(_DECIDING, _WALL, _HAND, _CHOU, _HUXI, _NEED, _LZ, _BOTTOM, _OPEN_CARD),
        *(_OPEN_HIDDEN, _OPEN_SHOWN, _OPEN_OWNER, _SEAT0, _SEAT_SIZE, _S_SEATED),
        *(_S_DEALER, _S_TURN, _S_SIZE, _S_WEI_HIDDEN, _S_PILE, _S_DISCARDED),
    )
    return _kernel.Encoder(
        size=OBSERVATION_SIZE,
        view=tuple(fields.index(f) for f in read),
        at=at,
        phases=PHASES,
        phase_at=tuple(_PHASE_AT[p] for p in PHASES),
        discard=PHASES.index("discard"),
        rules=RULES,
        rule_at=(*(_RULES_AT[r] for r in RULES), _RULES + len(RULES)),
        sources=SOURCES,
        source_at=tuple(_SOURCE_AT[s] for s in SOURCES),
        chi=_CHI_KIND,
        kinds=tuple(GroupKind(k) for k in _MELD),
        kind_at=tuple(_MELD.values()),
        chi_at=dict(_CHI_AT),
    )


_KERNEL: Any = _kernel_encoder()


# --------------------------------------------------------------- history
# The seat's log, one row per event, for perfect-recall tensors (OpenSpiel's
# information state). Random play never logged more than 85 events in 4,500
# hands; a longer log keeps its last HISTORY_EVENTS rows.
EVENT_TYPES = (
    "deal",
    "liangzhang",
    "bottom",
    "ti",
    "wei",
    "chouwei",
    "pao",
    "draw",
    "discard",
    "chi",
    "peng",
    "pass",
    "pile",
    "hu",
    "huangzhuang",
    "settle",
)
EVENT_SOURCES = ("hand", "draw", "discard", "deal", "wall", "liangzhang", "table")
HISTORY_EVENTS = 200
# type, seat slot (or none), card (or hidden), source, 吃 groups laid out
EVENT_FEATURES = len(EVENT_TYPES) + SLOTS + 1 + KINDS + 1 + len(EVENT_SOURCES) + len(CHI_GROUPS)
HISTORY_SIZE = HISTORY_EVENTS * EVENT_FEATURES
_E_TYPE = {t: i for i, t in enumerate(EVENT_TYPES)}
_E_SLOT = len(EVENT_TYPES)
_E_CARD = _E_SLOT + SLOTS + 1
_E_SOURCE = {s: _E_CARD + KINDS + 1 + i for i, s in enumerate(EVENT_SOURCES)}
_E_CHI = _E_CARD + KINDS + 1 + len(EVENT_SOURCES)
_HISTORY_ZEROS = bytes(4 * HISTORY_SIZE)
# Events that always concern a card: one without a card was hidden from the viewer.
_CARD_EVENTS = frozenset(EVENT_TYPES) - {"deal", "hu", "huangzhuang", "settle"}


def encode_history(view: View, events: int = HISTORY_EVENTS) -> np.ndarray:
    """The seat's last ``events`` log entries as a flat float32 (``events`` ×
    EVENT_FEATURES), oldest first.

    Each row: event type, the acting seat's slot (relative, or "none"), the
    card (or "hidden", for a card the seat may not see), its source, and the
    吃 and 比 groups of a 吃 event (0.5 a group: two alike read 1.0). Rows past the
    log are zero. Every value is in [0, 1], as the envs' observation spaces say.
    """
    if not 0 < events <= HISTORY_EVENTS:
        raise ValueError(f"events must be 1–{HISTORY_EVENTS}, got {events}")
    o = array(
        "f", _HISTORY_ZEROS if events == HISTORY_EVENTS else bytes(4 * events * EVENT_FEATURES)
    )
    me, n = view.seat, len(view.hand_sizes)
    for row, e in enumerate(view.log[-events:]):
        r = row * EVENT_FEATURES
        t = _E_TYPE.get(e.type)
        if t is not None:
            o[r + t] = 1.0
        o[r + _E_SLOT + (SLOTS if e.seat is None else (e.seat - me) % n)] = 1.0
        if e.card is not None:
            if e.card < KINDS:  # a 王 (R39) sets neither a kind nor "hidden"
                o[r + _E_CARD + e.card] = 1.0
        elif e.type in _CARD_EVENTS:  # a card this seat may not see
            o[r + _E_CARD + KINDS] = 1.0
        src = _E_SOURCE.get(e.source)  # type: ignore[arg-type]
        if src is not None:
            o[r + src] = 1.0
        for g in e.get("groups", ()):
            # at most two alike (a third would need a third card of a kind beside the
            # 吃's, i.e. a 坎, which stays whole): 0.5 a group keeps the row in [0, 1]
            at = _CHI_GROUP.get(tuple(sorted(BY_CODE[c] for c in g)))  # type: ignore[arg-type]
            if at is not None:  # (None: 一五十, which has no entry)
                o[r + _E_CHI + at] += 0.5
    return np.frombuffer(o, _FLOAT32)


__all__ = [
    "CHI_GROUPS",
    "EVENT_FEATURES",
    "HISTORY_EVENTS",
    "HISTORY_SIZE",
    "LAYOUT",
    "OBSERVATION_SIZE",
    "blocks",
    "encode",
    "encode_history",
]
