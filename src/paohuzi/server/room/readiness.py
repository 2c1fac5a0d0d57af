"""准备 (zhǔnbèi): may a room's next hand be dealt? (pure; the room asks).

By default a room deals as soon as every seat is taken (INTERFACES §5). A room
created with the option ``ready_first`` waits, once every seat is taken, for
every human to choose ``ready`` (``{"type": "ready"}`` says the same); bots are
always ready. After a hand, the next one waits for every connected human.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from paohuzi.server.vocab import SeatKind

HUMAN = SeatKind.HUMAN


def can_deal_first(kinds: Sequence[SeatKind], ready: Collection[int], ready_first: bool) -> bool:
    """Every seat taken and, in a ``ready_first`` room, every human seat ready."""
    if SeatKind.FREE in kinds:
        return False
    return not ready_first or all(i in ready for i, k in enumerate(kinds) if k == HUMAN)


def all_ready(
    kinds: Sequence[SeatKind], connected: Collection[int], ready: Collection[int]
) -> bool:
    """At a settlement: every bot and every connected human is ready (and somebody is
    there to see it). A settlement has no timer, so a human reading it is never put on
    托管; a human who left is not waited for (their next decision's timer covers them)."""
    here = [i for i, k in enumerate(kinds) if k == HUMAN and i in connected]
    return bool(here) and all(
        i in ready or (k == HUMAN and i not in connected) for i, k in enumerate(kinds)
    )


def may_ready(started: bool, kind: SeatKind) -> str | None:
    """The error code refusing a ``ready`` (None: accept): only humans, only before the deal."""
    if started:
        return "not_waiting"
    return None if kind == HUMAN else "bad_message"


__all__ = ["all_ready", "can_deal_first", "may_ready"]
