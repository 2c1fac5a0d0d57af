"""准备 (zhǔnbèi): may a room's next hand be dealt? (pure; rooms.py asks).

By default a room deals as soon as every seat is taken (INTERFACES §5). A room
created with the option ``ready_first`` waits, once every seat is taken, for
every human to choose ``ready`` (``{"type": "ready"}`` says the same); bots are
always ready. After a hand, the next one waits for every connected human.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

HUMAN, FREE = "human", "free"  # seats.py's kinds (not imported: this module stays pure)


def can_deal_first(kinds: list[str], ready: Iterable[int], ready_first: bool) -> bool:
    """Every seat taken and, in a ``ready_first`` room, every human seat ready."""
    if FREE in kinds:
        return False
    done = set(ready)
    return not ready_first or all(i in done for i, k in enumerate(kinds) if k == HUMAN)


def all_ready(seats: Sequence[Any], ready: Iterable[int]) -> bool:
    """At a settlement: every bot and every connected human is ready (and somebody is
    there to see it). A settlement has no timer, so a human reading it is never put on
    托管; a human who left is not waited for (their next decision's timer covers them)."""
    done = set(ready)
    here = [s for s in seats if s.kind == HUMAN and s.conn is not None]
    return bool(here) and all(
        s.index in done or (s.kind == HUMAN and s.conn is None) for s in seats
    )


def may_ready(started: bool, seat_kind: str) -> str | None:
    """The error code refusing a ``ready`` (None: accept): only humans, only before the deal."""
    if started:
        return "not_waiting"
    return None if seat_kind == HUMAN else "bad_message"


__all__ = ["all_ready", "can_deal_first", "may_ready"]
