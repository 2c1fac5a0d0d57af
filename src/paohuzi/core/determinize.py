"""推演 (tuīyǎn): worlds consistent with what one seat sees — for search bots.

:func:`resample` is the inverse of :func:`paohuzi.core.views.view`: it re-deals
every card hidden from a seat (:func:`hidden_from`) at random, keeping all the
seat sees (:func:`_set_hidden`), and opens the claim window afresh in the new
world (:func:`_reopen_claim`). It never returns the true state: after too many
failed draws it raises :class:`NoConsistentWorld`.

These are the engine's search hooks: they rewrite a clone's private fields and
drive its private claim machinery, and live here so that ``GameState``'s public
verbs stay the game's (``apply``, ``legal_actions``, ``clone`` …).
"""

from __future__ import annotations

import random

from .actions import HU
from .cards import WANG
from .claims import Otherwise
from .evaluator import BIT, LOW
from .melds import GroupKind
from .state import GameState, _four
from .vocab import Fallback, Phase, Source


def hidden_from(state: GameState, seat: int) -> list[int]:
    """The multiset of cards ``seat`` cannot see (others' hands, 偎, wall, hidden open card)."""
    s = state
    out: list[int] = []
    for t in s.seats:
        if t == seat:
            continue
        for c in range(20):
            out += [c] * s._hands[t][c]
        out += [WANG] * s._wang[t]  # R39: another's 王 are as hidden as his cards
        for g in s._tables[t]:
            if g.kind is GroupKind.WEI and not s.rules.open_wei:
                out += [int(x) for x in g.cards]
    wall = list(s._wall[s._wall_pos :])
    if s.rules.show_wall_bottom and wall:
        wall.pop()
    out += wall
    w = s._window
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
        (t, i)
        for t in others
        for i, g in enumerate(s._tables[t])
        if g.kind is GroupKind.WEI and not s.rules.open_wei
    ]
    w = s._window
    hidden_card = s.phase == Phase.CLAIM and w is not None and not w.shown and w.owner != seat
    piled = 0
    for p in s._piles:
        for pc in p:
            piled |= 1 << pc
    pool0 = hidden_from(s, seat)
    my_ids = s.legal_action_ids(seat) if s.phase == Phase.CLAIM else None
    waiting = s.phase == Phase.CLAIM and seat not in s.to_act()  # the view's others_deciding
    keep_bottom = s.rules.show_wall_bottom and s.wall_left > 0
    for _ in range(tries):
        pool = pool0[:]
        rng.shuffle(pool)
        counts = [0] * 21
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
            h = [0] * 21  # the 20 kinds, then 王 (R39)
            size = s._nhand[t] + s._wang[t]
            for c in pool[pos : pos + size]:
                h[c] += 1
            pos += size
            if any(n == 4 or (n == 3 and piled >> c & 1) for c, n in enumerate(h[:20])):
                ok = False
                break
            hands[t] = h
        if not ok:
            continue
        card = w.card if w is not None else -1
        if hidden_card:
            card = pool[pos]
            pos += 1
            if card == WANG:  # a 王 turned up is always shown (R39)
                continue
        wall = pool[pos:]
        if keep_bottom:
            wall.append(s._wall[-1])
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
        _set_hidden(new, t, h, by_seat[t])
    new._wall = (*s._wall[: s._wall_pos], *wall)
    assert not any((p >> 2) & LOW for p in new._packed)
    if s.phase == Phase.CLAIM and not _reopen_claim(new, card, seat):
        return None
    return new


def _set_hidden(s: GameState, seat: int, counts: list[int], weis: dict[int, int]) -> None:
    """Give ``seat`` another concealed hand (``counts`` per kind) and other kinds for
    its face-down 偎 (``weis``: table index → kind). Its 臭胡 marks go: they hung
    on the old hand."""
    s._hands[seat] = counts[:20]
    s._packed[seat] = sum(BIT[c] * n for c, n in enumerate(counts[:20]))
    if len(counts) > 20:  # 王 dealt afresh: the natural count moves with them
        s._nhand[seat] += s._wang[seat] - counts[WANG]
        s._wang[seat] = counts[WANG]
        t = s._tsum[seat]
        s._shape[seat] = s._ev.shape_of(s._nhand[seat], t)
    if weis:
        tab = list(s._tables[seat])
        for i, k in weis.items():
            old = int(tab[i].cards[0])
            tab[i] = _four(GroupKind.WEI, k)
            s._wei_mask[seat] = (s._wei_mask[seat] & ~(1 << old)) | (1 << k)
        s._tables[seat] = tuple(tab)
        s._tsum[seat] = s._ev.summarize(s._tables[seat])
    s._chouhu[seat] = {}
    s._hucache[seat] = {}
    s._chi_memo = {}


def _reopen_claim(s: GameState, card: int, strict: int) -> bool:
    """Open the current claim window afresh on ``card`` after :func:`_set_hidden`.

    Seats that had decided stay decided: on the same action where it is still
    legal, else they pass — except ``strict``, whose decision must survive.
    False when the world cannot be the true one: the window would not open,
    would have resolved already, or ``strict`` lost its decision.
    """
    w = s._window
    if w is None or s.phase != Phase.CLAIM:
        return False
    old = w.decisions
    if w.source == Source.DRAW and not w.shown:
        forced = s._forced_kind(w.owner, card)
        if not forced or not s._can_hu(w.owner, card, True):
            return False
        s._open(
            card,
            w.owner,
            w.source,
            False,
            w.last,
            [(w.owner, HU)],
            Otherwise(Fallback.FORCED, w.owner, forced),
        )
    else:
        if w.source == Source.LIANGZHANG:
            s._liangzhang = card
        entries, flags, fb = s._offer(card, w.owner, w.source, w.last, s._dihu_seats)
        if not entries:
            return False
        s._open(card, w.owner, w.source, w.shown, w.last, entries, fb, flags)
    new = s._window
    if new is None or s.phase != Phase.CLAIM:
        return False  # a win the rules take at once (R44): in truth no window was open
    for t, d in old.items():
        legal = new.options.get(t, ())
        keep = [a for a in legal if d.matches(a)]
        if not legal or (not keep and t == strict):
            return False
        new.decisions[t] = keep[0] if keep else legal[-1]  # else: pass
    return new.outcome() is None  # still waiting, as it is in truth


__all__ = ["NoConsistentWorld", "hidden_from", "resample"]
