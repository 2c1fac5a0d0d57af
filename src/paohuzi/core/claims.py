"""吃碰胡 (chī pèng hú): the claim window on an open card (R16).

When a card is turned up or discarded, every seat with an option is asked at
once and may decide in any order. ``entries`` lists (seat, claim) by R16
priority: the drawer's 胡, the others' 胡 (nearest downstream of the card's
owner first, R31), 碰, then 吃 (the drawer, then his 下家). The window resolves
as soon as the first entry whose seat chose that very claim is reached with
every earlier entry's seat decided. ``fallback`` is what happens when nobody
takes the card: a pile, a forced 偎/提 of the drawer, a pending 跑 (R13), or
the 亮张 joining the dealer's hand.

Everything but ``decisions`` is fixed when the window opens.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .actions import Action
from .vocab import ActionType, Base, Fallback, Source


class Otherwise(NamedTuple):
    """What becomes of the open card if nobody claims it: the window's fallback.

    ``seat`` makes the 偎/提 (``FORCED``) or the 跑 (``PAO``) from ``base``."""

    kind: Fallback
    seat: int = -1
    base: Base | None = None


PILE = Otherwise(Fallback.PILE)
LIANGZHANG_IN = Otherwise(Fallback.LIANGZHANG)


class ClaimWindow:
    """One open card and the claims on it; see the module docstring."""

    __slots__ = (
        "card",
        "decisions",
        "entries",
        "fallback",
        "hu_flags",
        "info",
        "last",
        "options",
        "owner",
        "shown",
        "source",
    )

    def __init__(
        self,
        card: int,
        owner: int,
        source: Source,
        shown: bool,
        last: bool,
        entries: tuple[tuple[int, ActionType], ...],
        options: dict[int, tuple[Action, ...]],
        fallback: Otherwise,
        hu_flags: dict[int, tuple[bool, bool]],
        info: dict[int, tuple[bool, int]] | None = None,
    ) -> None:
        self.card = card
        self.owner = owner
        self.source = source
        self.shown = shown  # False: a drawn card only its drawer sees (R16.2)
        self.last = last  # the last wall card (海底)
        self.entries = entries
        self.options = options  # per seat: its legal claims, pass last
        self.fallback = fallback
        self.hu_flags = hu_flags  # per seat: (天胡, 地胡) of its 胡
        # Per seat: (was offered 胡, index of its first 碰/吃 entry or −1), for R20/R30
        # (given: a copy's, made from the same entries).
        if info is None:
            info = {}
            for i, (seat, typ) in enumerate(entries):
                hu, eat = info.get(seat, (False, -1))
                is_hu = typ == ActionType.HU
                info[seat] = (hu or is_hu, i if eat < 0 and not is_hu else eat)
        self.info = info
        self.decisions: dict[int, Action] = {}

    def pending(self) -> list[int]:
        """Seats still to decide, highest priority first."""
        out: list[int] = []
        for seat, _ in self.entries:
            if seat not in self.decisions and seat not in out:
                out.append(seat)
        return out

    def current(self) -> int:
        """The highest-priority undecided seat, or −1."""
        for seat, _ in self.entries:
            if seat not in self.decisions:
                return seat
        return -1

    def legal(self, seat: int) -> tuple[Action, ...]:
        if seat in self.decisions:
            return ()
        return self.options.get(seat, ())

    def outcome(self) -> int | None:
        """R16 priority walk: None while an undecided seat outranks every decision
        taken; else the index of the winning entry, or −1 when nobody claims."""
        decisions = self.decisions
        for i, (seat, typ) in enumerate(self.entries):
            d = decisions.get(seat)
            if d is None:
                return None
            if d.type == typ:
                return i
        return -1

    def copy(self) -> ClaimWindow:
        """The same window with its own decisions (what :meth:`GameState.clone` needs),
        its fixed parts shared."""
        return _restore(self._fixed(), self.decisions)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as :meth:`copy` makes one: through the constructor (the compiled
        class cannot be made bare, as pickle's default would)."""
        return _restore, (self._fixed(), self.decisions)

    def _fixed(self) -> tuple[Any, ...]:
        """The constructor's arguments: everything fixed when the window opened."""
        return (
            *(self.card, self.owner, self.source, self.shown, self.last, self.entries),
            *(self.options, self.fallback, self.hu_flags, self.info),
        )


def _restore(fixed: tuple[Any, ...], decisions: dict[int, Action]) -> ClaimWindow:
    w = ClaimWindow(*fixed)
    w.decisions = dict(decisions)
    return w


__all__ = ["ClaimWindow"]
