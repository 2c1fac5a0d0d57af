"""恢复 (huīfù): a room rebuilt from storage after a restart.

Every stored hand becomes a :class:`~paohuzi.core.records.HandRecord` that the
room's table resumes (re-dealt from its deck, its actions re-applied), so the
match, its results and its hand ids are what they were; a hand whose last
action was stored but not its record is recorded now. The lobby calls this on
a room's first use after a restart; its bots then resume at once.
"""

from __future__ import annotations

from paohuzi.core import fairness
from paohuzi.core.actions import Action
from paohuzi.core.cards import Card
from paohuzi.core.records import HandRecord
from paohuzi.core.rules import Rules
from paohuzi.server.room.room import Room
from paohuzi.server.storage.sqlite import HandRow

# Versions jump this far at a restart: past any a client saw, even of changes a power
# loss took back (synchronous=NORMAL), so no act is checked against a state it never saw.
RESTART_JUMP = 10_000


def restore(room: Room, hands: list[HandRow]) -> None:
    """Re-deal every stored hand of ``room`` and re-apply its actions, then publish."""
    table, m = room.table, room.table.match
    for h in hands:
        if h.index != m.index:
            raise RuntimeError(f"hand {h.index} is stored where hand {m.index} should be")
        st = table.resume(record_of(h, room.rules), own_seed=room.own_seeds)
        room.hand_id = h.id
        room.commitment = fairness.commitment(h.deck, room.manager.deal_salt(h.id))
        room.hand_ids.append(h.id)
        if st.is_terminal():
            table.finish_hand()
            if not h.finished:  # the process stopped between the last action and the record
                rec = room.record()
                room.storage.finish_hand(h.id, rec.to_dict(), list(m.scores))
    room.start()
    for s in room.seats:  # versions a client held before the restart are all stale
        s.shown.version += RESTART_JUMP
    room.publish()


def record_of(h: HandRow, rules: Rules) -> HandRecord:
    """A stored hand as the record of what was played of it so far."""
    deck = tuple(Card.parse(c) for c in h.deck)
    actions = tuple(Action.from_id(seat, aid) for seat, aid in h.actions)
    return HandRecord(rules, h.seed, h.dealer, h.huang, deck, actions)


__all__ = ["RESTART_JUMP", "record_of", "restore"]
