"""Deck stacking and small drivers for the engine tests.

``deck(...)`` builds an 80-card deck in record order (R7: the dealer's 20, then
each other dealt seat's 20 in turn order, the 亮张, the wall top to bottom)
from partly given hands, 亮张 and wall top. Missing hand cards are filled so
that the filler makes no pair and no 坎 where it can avoid it (so it triggers
no 碰/偎/跑 of its own); the rest of the wall is shuffled with ``fill_seed``.
"""

from __future__ import annotations

import inspect
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from paohuzi.core.actions import Action
from paohuzi.core.cards import CARDS, Card, parse_cards
from paohuzi.core.determinize import NoConsistentWorld, resample
from paohuzi.core.events import Event
from paohuzi.core.rules import HUNAN, Rules
from paohuzi.core.state import CLAIM, GameState


def dealt_seats(rules: Rules, dealer: int) -> list[int]:
    n = rules.players
    out = (dealer + n // 2) % n if rules.sit_out else -1
    return [(dealer + i) % n for i in range(n) if (dealer + i) % n != out]


def deck(
    hands: dict[int, str] | Sequence[str] = (),
    liangzhang: str | None = None,
    wall: str = "",
    dealer: int = 0,
    rules: Rules = HUNAN,
    fill_seed: int = 0,
    avoid: str = "",
    bottom: str = "",
) -> list[Card]:
    """A stacked deck. ``avoid``: kinds the filler keeps out of hands and the 亮张;
    ``bottom``: the last wall cards (drawn last)."""
    given = dict(enumerate(hands)) if not isinstance(hands, dict) else dict(hands)
    left = [4] * 20
    seats = dealt_seats(rules, dealer)

    def take(cards: Iterable[int]) -> None:
        for c in cards:
            left[c] -= 1
            if left[c] < 0:
                raise ValueError(f"more than four {CARDS[c].zh} in the stacked deck")

    parsed = {s: [int(c) for c in parse_cards(given.get(s, ""))] for s in seats}
    for s, cs in parsed.items():
        if len(cs) > rules.hand_size:
            raise ValueError(f"seat {s} given {len(cs)} cards")
        take(cs)
    lz = [int(Card.parse(liangzhang))] if liangzhang else []
    take(lz)
    top = [int(c) for c in parse_cards(wall)]
    take(top)
    low = [int(c) for c in parse_cards(bottom)]
    take(low)
    rng = random.Random(fill_seed)
    bad = {int(c) for c in parse_cards(avoid)}
    for s in seats:
        h = parsed[s]
        while len(h) < rules.hand_size:
            kinds = [c for c in range(20) if left[c] > 0]
            rng.shuffle(kinds)
            # fewest copies already in this hand first; avoided kinds last
            kinds.sort(key=lambda c: (c in bad, h.count(c)))
            c = kinds[0]
            h.append(c)
            take([c])
    if not lz:
        dh = parsed[dealer]
        kinds = [c for c in range(20) if left[c] > 0]
        rng.shuffle(kinds)
        kinds.sort(key=lambda c: (c in bad, dh.count(c)))
        lz = [kinds[0]]
        take(lz)
    rest = [c for c in range(20) for _ in range(left[c])]
    rng.shuffle(rest)
    out = [c for s in seats for c in parsed[s]] + lz + top + rest + low
    assert len(out) == 80
    return [CARDS[c] for c in out]


def game(*args: Any, **kwargs: Any) -> GameState:
    """A hand dealt from :func:`deck` (same arguments)."""
    bound = inspect.signature(deck).bind(*args, **kwargs)
    bound.apply_defaults()
    rules, dealer = bound.arguments["rules"], bound.arguments["dealer"]
    return GameState(rules, deck=deck(*bound.args, **bound.kwargs), dealer=dealer)


def act(state: GameState, seat: int, aid: str) -> tuple[Event, ...]:
    return state.apply(Action.from_id(seat, aid))


def ids(state: GameState, seat: int) -> list[str]:
    return state.legal_action_ids(seat)


def pass_claims(state: GameState, keep: Iterable[int] = ()) -> list[Event]:
    """Pass the pending claims of seats not in ``keep`` in the current window only."""
    keep = set(keep)
    out: list[Event] = []
    window = state._window
    while state.phase == CLAIM and state._window is window:
        seats = [s for s in state.to_act() if s not in keep]
        if not seats:
            break
        out += state.apply(Action.from_id(seats[0], "pass"))
    return out


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def find(events: Iterable[Event], typ: str, seat: int | None = None) -> list[Event]:
    return [e for e in events if e.type == typ and (seat is None or e.seat == seat)]


def counts(cards: Iterable[int]) -> list[int]:
    out = [0] * 20
    for c in cards:
        out[c] += 1
    return out


def codes(text: str) -> list[str]:
    return [c.code for c in parse_cards(text)]


def quiet_discard(state: GameState, seat: int, avoid: str = "") -> str:
    """A legal discard of ``seat`` that no other seat can 碰 or 跑 (held ≤ 1, no meld)."""
    bad = {int(c) for c in parse_cards(avoid)}
    for a in state.legal_actions(seat):
        c = int(a.card)  # type: ignore[arg-type]
        if c in bad:
            continue
        if any(
            state.hand_counts(t)[c] >= 2
            or any(g.cards[0] == c and len(set(g.cards)) == 1 for g in state.table(t))
            for t in state.seats
            if t != seat
        ):
            continue
        return a.id()
    raise AssertionError("no quiet discard")


def discard_quietly(state: GameState, seat: int, avoid: str = "") -> list[Event]:
    """Discard a quiet card and pass every claim on that discard (only)."""
    out = list(act(state, seat, quiet_discard(state, seat, avoid)))
    if state.phase == CLAIM and state._window.source == "discard" and state._window.owner == seat:
        out += pass_claims(state)
    return out


def window_on(state: GameState, card: str, owner: int | None = None) -> bool:
    """Is a claim window open on ``card`` (of ``owner``)? No window: nobody could claim."""
    c = Card.parse(card)
    return (
        state.phase == CLAIM
        and state._window.card == c
        and (owner is None or state._window.owner == owner)
    )


def run_until(state: GameState, wall_pos: int, avoid: str = "") -> None:
    """Pass every claim and discard quietly until ``wall_pos`` wall cards are turned up.

    Stops as soon as the wall_pos-th card is turned up: if it opened a window the
    state waits in it, otherwise the card was already dealt with automatically.
    """
    while state._wall_pos < wall_pos and not state.is_terminal():
        if state.phase == CLAIM:
            pass_claims(state)
        else:
            discard_quietly(state, state._turn, avoid)


def random_play(state: GameState, rng: random.Random, hu: float = 0.7) -> Action:
    """A random legal decision of a random pending seat (胡 taken with probability ``hu``)."""
    seat = rng.choice(state.to_act())
    acts = state.legal_actions(seat)
    wins = [a for a in acts if a.type == "hu"]
    if wins and rng.random() < hu:
        return wins[0]
    return rng.choice(acts)


def play_out(state: GameState, seed: int, hu: float = 0.7) -> GameState:
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(random_play(state, rng, hu))
    return state


def all_cards(s: GameState) -> Counter:
    """Hands + table melds + piles + wall + the open card in flight or won (R1: 80 cards,
    and the 王 of R39 as 20)."""
    out: Counter = Counter()
    for t in range(s.n):
        for c in range(20):
            out[c] += s.hand_counts(t)[c]
        for g in s.table(t):
            out.update(int(c) for c in g.cards)
        out.update(s._piles[t])
        if s.wang(t):
            out[20] += s.wang(t)  # R39: 王 in hand (deck int 20)
    out.update(s._wall[s._wall_pos :])
    pos = s.result.position if s.result is not None else None
    won = pos is not None and (pos.win is not None or pos.win_wang)
    if s.phase == CLAIM or won:
        out[s._window.card] += 1  # drawn/discarded/亮张 in flight, or the winning card
    return out


def try_resample(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """``determinize.resample``, or None in the rare claim window with no consistent world."""
    try:
        return resample(state, seat, rng)
    except NoConsistentWorld:
        return None
