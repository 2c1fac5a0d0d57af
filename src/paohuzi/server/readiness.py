"""准备 (zhǔnbèi): may a room's first hand be dealt? (pure; rooms.py wires it).

By default a room deals as soon as every seat is taken (INTERFACES §5). A room
created with the option ``ready_first`` waits, once every seat is taken, for
every human to send ``{"type": "ready"}``; bots are always ready.
"""

from __future__ import annotations

from collections.abc import Iterable

HUMAN, FREE = "human", "free"  # seats.py's kinds (not imported: this module stays pure)


def can_deal_first(kinds: list[str], ready: Iterable[int], ready_first: bool) -> bool:
    """Every seat taken and, in a ``ready_first`` room, every human seat ready."""
    if FREE in kinds:
        return False
    done = set(ready)
    return not ready_first or all(i in done for i, k in enumerate(kinds) if k == HUMAN)


def may_ready(started: bool, seat_kind: str) -> str | None:
    """The error code refusing a ``ready`` (None: accept): only humans, only before the deal."""
    if started:
        return "not_waiting"
    return None if seat_kind == HUMAN else "bad_message"


__all__ = ["can_deal_first", "may_ready"]
