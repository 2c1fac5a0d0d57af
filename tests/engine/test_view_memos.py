"""views.view keeps memos across calls (the seat's log extended by new events
only, meld views per meld) and builds the View positionally: a view of a live
state seen many times must equal the view of the same position made afresh,
and every field must read what the state says (issue 27)."""

from __future__ import annotations

import random

import pytest

from paohuzi.core.cards import CARDS
from paohuzi.core.rules import PRESETS
from paohuzi.core.state import GameState
from paohuzi.core.views import OpenCard, View, view
from paohuzi.core.vocab import EventType

from .helpers import random_play


def _replayed(s: GameState) -> GameState:
    """The same position made anew: the deal again, every action applied again
    (new event list, new table tuples and groups: no memo of ``s`` applies)."""
    fresh = GameState(s.rules, s.seed, dealer=s.dealer, huang=s.huang)
    for a in s.actions:
        fresh.apply(a)
    return fresh


def _log(s: GameState, seat: int) -> tuple:
    """The seat's log filtered from scratch: others' passes are private, and so is
    the card of an event not shown to all."""
    return tuple(
        e if e.shown or e.seat == seat or e.card is None else e._replace(card=None)
        for e in s.events
        if e.type != EventType.PASS or e.seat == seat
    )


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_live_views_equal_views_made_afresh(name: str) -> None:
    """Every seat viewed at every step, the acting seat twice (memo hits): each
    equals the view of the replayed position, to the wire form."""
    compared = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = GameState(PRESETS[name], seed)
        step = 0
        while True:
            seats = list(range(s.n))
            rng.shuffle(seats)  # seats' memos fall behind by different amounts
            for seat in seats[: 1 + step % s.n]:
                v = view(s, seat)
                assert view(s, seat) == v
                if step % 4 == 0 or s.is_terminal():  # replaying is quadratic
                    fresh = view(_replayed(s), seat)
                    assert v == fresh
                    assert v.to_dict() == fresh.to_dict()
                    compared += 1
            if s.is_terminal():
                break
            s.apply(random_play(s, rng))
            step += 1
    assert compared > 20


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_field_reads_the_state(name: str) -> None:
    """Field by field against the state's public accessors (the View is built
    positionally: a field out of order fails here)."""
    for seed in range(2):
        rng = random.Random(seed)
        s = GameState(PRESETS[name], seed)
        while True:
            for seat in range(s.n):
                v = view(s, seat)
                assert isinstance(v, View) and len(v) == len(View._fields)
                over = s.is_terminal()
                assert (v.seat, v.rules, v.seats, v.dealer) == (seat, s.rules, s.seats, s.dealer)
                assert v.phase == s.phase
                assert v.to_act == ((seat,) if seat in s.to_act() else ())
                assert v.hand == tuple(s.hand(seat)) and v.wang == s.wang(seat)
                assert v.hand_sizes == tuple(len(s.hand(t)) + s.wang(t) for t in range(s.n))
                assert v.piles == tuple(s.pile(t) for t in range(s.n))
                assert v.wall == s.wall_left
                assert v.huxi == s.current_huxi(seat) and v.need == s.need(seat)
                oc = s.open_card
                if oc is None:
                    assert v.open is None
                else:  # the card only where shown or its own (R18: a drawn card seen by all)
                    shown = s._window.shown  # type: ignore[union-attr]
                    seen = oc[0] if shown or oc[1] == seat else None
                    assert v.open == OpenCard(seen, oc[1], oc[2], shown)
                assert v.legal == tuple(s.legal_actions(seat))
                assert v.log == _log(s, seat)
                kinds = [
                    {e.card for e in s.events if e.type == "discard" and e.seat == t}
                    for t in range(s.n)
                ]
                assert [set(d) for d in v.discards] == kinds and v.discarded == v.discards[seat]
                assert v.chou == tuple(c for c in CARDS if s._chou[seat] >> c & 1)  # R20
                assert v.result is s.result
                own = v.tables[seat]
                assert [m.kind for m in own] == [g.kind for g in s.table(seat)]
                assert [m.cards for m in own] == [g.cards for g in s.table(seat)]
                if over:
                    assert v.reveal_hands == tuple(tuple(s.hand(t)) for t in range(s.n))
                    assert v.reveal_huxi == tuple(s.current_huxi(t) for t in range(s.n))
                    assert v.reveal_wang == tuple(s.wang(t) for t in range(s.n))
                    assert v.open is None
                else:
                    assert v.reveal_hands is None and v.reveal_huxi is None
            if s.is_terminal():
                break
            s.apply(random_play(s, rng))


def test_a_log_cut_short_is_filtered_afresh() -> None:
    """The log memo extends a seat's filtered log by the new events; an event list
    that shrank, or whose events were replaced (a caller's undo), is read again."""
    rng = random.Random(3)
    s = GameState(PRESETS["hunan"], 3)
    for _ in range(12):
        s.apply(random_play(s, rng))
    seat = s.current_player
    assert view(s, seat).log == _log(s, seat)
    kept = s.events[:]
    del s.events[-4:]  # shorter
    assert view(s, seat).log == _log(s, seat)
    s.events[-2:] = kept[-2:]  # as long as a log seen before, other events
    assert view(s, seat).log == _log(s, seat)
    s.events[:] = kept
    assert view(s, seat).log == _log(s, seat)
