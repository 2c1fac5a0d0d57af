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
import random
from typing import Any

from .cards import CARDS
from .evaluator import BIT, LOW
from .melds import Group, GroupKind
from .state import CLAIM, OVER, GameState, _four

CODES = tuple(c.code for c in CARDS)


def _meld(g: Group, own: bool) -> dict[str, Any]:
    cards: list[str | None] = [CODES[c] for c in g.cards]
    if not own:
        if g.kind is GroupKind.WEI:
            cards = [None] * 3
        elif g.kind in (GroupKind.CHOUWEI, GroupKind.TI):
            cards = cards[:1] + [None] * (len(cards) - 1)
    return {"kind": g.kind.value, "cards": cards}


def public_event(e: Any, seat: int) -> dict[str, Any]:
    """An event as ``seat`` may see it: the card of an unshown event is hidden.

    (Other seats' ``pass`` events are left out of views altogether: a pass shows
    that its seat could have claimed.)"""
    d = e.to_dict()
    if not e.shown and e.seat != seat and "card" in d:
        d["card"] = None
    return d


class LogCache:
    """One seat's public log of one hand, kept by a caller that views it again and
    again (the server): :func:`view` then converts only the events that are new."""

    __slots__ = ("entries", "events", "seat", "seen")

    def __init__(self) -> None:
        self.events: list[Any] | None = None  # the state's event list it follows
        self.seat = -1
        self.seen = 0
        self.entries: list[dict[str, Any]] = []


def _log(s: GameState, seat: int, cache: LogCache | None) -> list[dict[str, Any]]:
    """The events ``seat`` may see (others' ``pass`` left out, unshown cards hidden)."""
    if cache is None:
        return [public_event(e, seat) for e in s.events if e.type != "pass" or e.seat == seat]
    if cache.events is not s.events or cache.seat != seat or cache.seen > len(s.events):
        cache.events, cache.seat, cache.seen, cache.entries = s.events, seat, 0, []
    for e in s.events[cache.seen :]:
        if e.type != "pass" or e.seat == seat:
            cache.entries.append(public_event(e, seat))
    cache.seen = len(s.events)
    return list(cache.entries)


def view(state: GameState, seat: int, log: LogCache | None = None) -> dict[str, Any]:
    """Everything ``seat`` may know now, as plain JSON-able data.

    ``log``: a :class:`LogCache` the caller keeps for this seat, to convert only
    new events; the result is the same with or without it.
    """
    s = state
    over = s.phase == OVER
    open_card: dict[str, Any] | None = None
    if s.phase == CLAIM:
        visible = s.shown or s.owner == seat
        open_card = {
            "card": CODES[s.card] if visible else None,
            "owner": s.owner,
            "source": s.source,
            "shown": s.shown,
        }
    lz_visible = s.rules.show_liangzhang or seat == s.dealer or over
    v: dict[str, Any] = {
        "seat": seat,
        "rules": s.rules.name,
        "players": s.n,
        "seats": list(s.seats),
        "dealer": s.dealer,
        "phase": s.phase,
        # In a claim window who else may claim, and in which priority order, is
        # private (it would reveal pairs and 臭牌): a seat learns only that it must
        # decide, or that others still are.
        "current_player": s.current_player if s.phase != CLAIM else None,
        "to_act": [seat] if seat in s.to_act() else [],
        "others_deciding": s.phase == CLAIM and any(t != seat for t in s.to_act()),
        "hand": [CODES[c] for c in s.hand(seat)] if seat in s.seats else [],
        "hand_sizes": list(s.nhand),
        "tables": [[_meld(g, own=(t == seat or over)) for g in s.tables[t]] for t in range(s.n)],
        "piles": [[CODES[c] for c in p] for p in s.piles],
        "wall": s.wall_left,
        "liangzhang": CODES[s.liangzhang] if lz_visible else None,
        "bottom": CODES[s.wall[-1]] if s.rules.show_wall_bottom and s.wall_left else None,
        "open": open_card,
        "chou": [CODES[c] for c in range(20) if s.chou[seat] >> c & 1],
        "discarded": [CODES[c] for c in range(20) if s.discarded[seat] >> c & 1],
        "huxi": s.current_huxi(seat),
        "need": s.need(seat),
        "legal_actions": s.legal_action_ids(seat),
        "log": _log(s, seat, log),
        "result": s.result,
    }
    if over:  # settlement: every hand and 当前总息数 is shown (R33)
        v["reveal"] = {
            "hands": [[CODES[c] for c in s.hand(t)] for t in range(s.n)],
            "huxi": [s.current_huxi(t) for t in range(s.n)],
        }
    return v


def information_state(state: GameState, seat: int) -> str:
    """A compact canonical string of :func:`view` (keys for search bots)."""
    return json.dumps(view(state, seat), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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
    if s.phase == CLAIM and not s.shown and s.owner != seat:
        out.append(s.card)
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
    if s.phase == OVER:
        return s.clone()
    others = [t for t in s.seats if t != seat]
    wei_slots = [
        (t, i) for t in others for i, g in enumerate(s.tables[t]) if g.kind is GroupKind.WEI
    ]
    hidden_card = s.phase == CLAIM and not s.shown and s.owner != seat
    piled = 0
    for p in s.piles:
        for c in p:
            piled |= 1 << c
    pool0 = hidden_from(s, seat)
    my_ids = s.legal_action_ids(seat) if s.phase == CLAIM else None
    others_deciding = any(t != seat for t in s.to_act())
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
        card = s.card
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
                or any(t != seat for t in new.to_act()) != others_deciding
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
    for t, h in hands.items():
        new.hands[t] = h
        new.packed[t] = sum(BIT[c] * n for c, n in enumerate(h))
        new.chouhu[t] = {}
    for (t, i), k in zip(wei_slots, weis, strict=True):
        old = int(new.tables[t][i].cards[0])
        tab = list(new.tables[t])
        tab[i] = _four(GroupKind.WEI, k)
        new.tables[t] = tuple(tab)
        new.wei_mask[t] = (new.wei_mask[t] & ~(1 << old)) | (1 << k)
    for t in hands:
        new.tsum[t] = new.ev.summarize(new.tables[t])
        new.hucache[t] = {}
    new.wall = (*s.wall[: s.wall_pos], *wall)
    assert not any((p >> 2) & LOW for p in new.packed)
    if s.phase == CLAIM and not _reopen(new, seat, card):
        return None
    return new


def _reopen(new: GameState, seat: int, card: int) -> bool:
    """Recompute the claim window on ``card`` in the resampled world (False: inconsistent)."""
    old = dict(new.decisions)
    owner, source, last = new.owner, new.source, new.last
    if source == "draw" and not new.shown:
        forced = new._forced_kind(owner, card)
        if not forced or not new._can_hu(owner, card, True):
            return False
        new._open(card, owner, source, False, last, [(owner, "hu")], ("forced", forced))
    else:
        if source == "liangzhang":
            new.liangzhang = card
        entries, flags, fb = new._offer(card, owner, source, last, new.dihu_seat)
        if not entries:
            return False
        new._open(card, owner, source, new.shown, last, entries, fb, flags)
    for t, d in old.items():  # seats that had decided stay decided (that much is public)
        legal = new.options.get(t, ())
        if not legal:
            return False
        keep = [a for a in legal if d.matches(a)]
        if not keep and t == seat:
            return False
        new.decisions[t] = keep[0] if keep else legal[-1]  # else: pass
    for t, typ in new.entries:  # the window must still be waiting, as it is in truth
        dec = new.decisions.get(t)
        if dec is None:
            return True
        if dec.type == typ:
            return False
    return False
