"""恢复 (huīfù): a room rebuilt from storage after a restart.

Every stored hand is re-dealt from its deck and its actions re-applied, so the
match, its results and its hand ids are what they were; a hand whose last
action was stored but not its record is recorded now. The lobby calls this on
a room's first use after a restart; its bots then resume at once.
"""

from __future__ import annotations

from paohuzi.core.state import GameState
from paohuzi.server.room.room import Room
from paohuzi.server.storage.sqlite import HandRow

# Versions jump this far at a restart: past any a client saw, even of changes a power
# loss took back (synchronous=NORMAL), so no act is checked against a state it never saw.
RESTART_JUMP = 10_000


def restore(room: Room, hands: list[HandRow]) -> None:
    """Re-deal every stored hand of ``room`` and re-apply its actions, then publish."""
    table, m = room.table, room.table.match
    for h in hands:
        if h.index != m.index or h.dealer != m.dealer or h.seed != m.hand_seeds[h.index]:
            raise RuntimeError(f"hand {h.index} does not follow the match's dealing")
        st = m.state = GameState(room.rules, h.seed, deck=h.deck, dealer=h.dealer, huang=h.huang)
        table.deal(st)
        for seat, aid in h.actions:
            table.apply_id(seat, aid)
        room.hand_id = h.id
        room.hand_ids.append(h.id)
        if st.is_terminal():
            table.finish_hand()
            if not h.finished:  # the process stopped between the last action and the record
                room.storage.finish_hand(h.id, table.record(), list(m.scores))
    room.start()
    for s in room.seats:  # versions a client held before the restart are all stale
        s.version += RESTART_JUMP
    room.publish()


__all__ = ["RESTART_JUMP", "restore"]
