"""推演 (tuīyǎn): worlds consistent with what one seat sees — for search bots.

:func:`resample` is the inverse of :func:`paohuzi.core.views.view`: it re-deals
every card hidden from a seat (:func:`hidden_from`) at random, keeping all the
seat sees, and reopens a claim window through the state's public
:meth:`~paohuzi.core.state.GameState.reopen_claim`. It never returns the true
state: after too many failed draws it raises :class:`NoConsistentWorld`.
"""

from __future__ import annotations

import random

from .evaluator import LOW
from .melds import GroupKind
from .state import GameState
from .vocab import Phase


def hidden_from(state: GameState, seat: int) -> list[int]:
    """The multiset of cards ``seat`` cannot see (others' hands, 偎, wall, hidden open card)."""
    s = state
    out: list[int] = []
    for t in s.seats:
        if t == seat:
            continue
        for c in range(20):
            out += [c] * s.hands[t][c]
        for g in s.tables[t]:
            if g.kind is GroupKind.WEI:
                out += [int(x) for x in g.cards]
    wall = list(s.wall[s.wall_pos :])
    if s.rules.show_wall_bottom and wall:
        wall.pop()
    out += wall
    w = s.window
    if s.phase == Phase.CLAIM and w is not None and not w.shown and w.owner != seat:
        out.append(w.card)
    return sorted(out)


class NoConsistentWorld(RuntimeError):
    """:func:`resample` found no world consistent with the seat's view."""


def resample(state: GameState, seat: int, rng: random.Random, tries: int = 100) -> GameState:
    """A clone in which every card hidden from ``seat`` is re-dealt at random.

    Kept: everything ``seat`` sees (own hand, shown melds, piles, hand sizes,
    the wall's size and any shown bottom card, the open card if shown). Each
    hidden 偎 gets a kind with three unseen copies. Consistency with the
    history is approximate: no other hand receives four of a kind (it would have
    been 提) nor a 坎 of a kind already seen in a pile (it would have been
    跑), a hidden open card still makes its drawer's 提/偎, and in a claim
    window ``seat`` keeps exactly the options it was offered, and whether
    *others* are still deciding (all the view tells; who they are is private);
    a seat that has decided keeps its decision where still legal (else it
    passes). Other seats' 臭胡 marks are dropped (they depend on hidden 胡息).
    After ``tries`` failed draws :class:`NoConsistentWorld` is raised — never the
    true state, which would hand a search bot every hidden card.
    """
    s = state
    if s.phase == Phase.OVER:
        return s.clone()
    others = [t for t in s.seats if t != seat]
    wei_slots = [
        (t, i) for t in others for i, g in enumerate(s.tables[t]) if g.kind is GroupKind.WEI
    ]
    w = s.window
    hidden_card = s.phase == Phase.CLAIM and w is not None and not w.shown and w.owner != seat
    piled = 0
    for p in s.piles:
        for c in p:
            piled |= 1 << c
    pool0 = hidden_from(s, seat)
    my_ids = s.legal_action_ids(seat) if s.phase == Phase.CLAIM else None
    waiting = s.phase == Phase.CLAIM and seat not in s.to_act()  # the view's others_deciding
    keep_bottom = s.rules.show_wall_bottom and s.wall_left > 0
    for _ in range(tries):
        pool = pool0[:]
        rng.shuffle(pool)
        counts = [0] * 20
        for c in pool:
            counts[c] += 1
        weis = []
        ok = True
        for _slot in wei_slots:
            kinds = [c for c in range(20) if counts[c] >= 3]
            if not kinds:
                ok = False
                break
            k = rng.choice(kinds)
            counts[k] -= 3
            for _j in range(3):
                pool.remove(k)
            weis.append(k)
        if not ok:
            continue
        hands: dict[int, list[int]] = {}
        pos = 0
        for t in others:
            h = [0] * 20
            for c in pool[pos : pos + s.nhand[t]]:
                h[c] += 1
            pos += s.nhand[t]
            if any(n == 4 or (n == 3 and piled >> c & 1) for c, n in enumerate(h)):
                ok = False
                break
            hands[t] = h
        if not ok:
            continue
        card = w.card if w is not None else -1
        if hidden_card:
            card = pool[pos]
            pos += 1
        wall = pool[pos:]
        if keep_bottom:
            wall.append(s.wall[-1])
        new = _rebuild(s, seat, hands, wei_slots, weis, card, wall)
        if new is None or (
            my_ids is not None
            and (
                new.legal_action_ids(seat) != my_ids
                or (waiting and not any(t != seat for t in new.to_act()))
            )
        ):
            continue
        return new
    raise NoConsistentWorld(f"no world consistent with seat {seat}'s view in {tries} draws")


def _rebuild(
    s: GameState,
    seat: int,
    hands: dict[int, list[int]],
    wei_slots: list[tuple[int, int]],
    weis: list[int],
    card: int,
    wall: list[int],
) -> GameState | None:
    new = s.clone()
    by_seat: dict[int, dict[int, int]] = {t: {} for t in hands}
    for (t, i), k in zip(wei_slots, weis, strict=True):
        by_seat[t][i] = k
    for t, h in hands.items():
        new.set_hidden(t, h, by_seat[t])
    new.wall = (*s.wall[: s.wall_pos], *wall)
    assert not any((p >> 2) & LOW for p in new.packed)
    if s.phase == Phase.CLAIM and not new.reopen_claim(card, seat):
        return None
    return new


__all__ = ["NoConsistentWorld", "hidden_from", "resample"]
