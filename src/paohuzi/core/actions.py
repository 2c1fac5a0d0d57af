"""动作 (dòngzuò): the choices a player makes — discard, 吃, 碰, 胡, pass (R14–R21).

Forced steps (提, 偎, 跑, mandatory 天胡, 荒庄) are never actions: the engine runs
them itself. An :class:`Action` is a small frozen value with two string forms:
a short id (``"chi:x2:x1x2x3,x2d2d2"``, ``"discard:d10"``, ``"peng:x5"``,
``"hu"``, ``"pass"``) used by bots and the web protocol, and the record dict of
INTERFACES.md §4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CARDS, CODES, Card, CardError, card_or_wang, parse_cards
from .position import WangPattern
from .vocab import ActionType

DISCARD = ActionType.DISCARD
CHI = ActionType.CHI
PENG = ActionType.PENG
HU = ActionType.HU
PASS = ActionType.PASS
TYPES = tuple(ActionType)
_PATTERNS = frozenset(p.value for p in WangPattern)


class IllegalAction(ValueError):
    """An action that is not legal in the current state (nothing was changed)."""


def canonical_groups(groups: Sequence[Sequence[int]]) -> tuple[tuple[Card, ...], ...]:
    """A 吃 package in canonical order: each group sorted, the groups sorted (R19).

    Every group of a package holds the taken card, so packages with the same
    multiset of groups are one choice, whichever group is called 吃 (the first).
    """
    return tuple(sorted(tuple(sorted(CARDS[int(c)] for c in g)) for g in groups))


@dataclass(frozen=True, slots=True)
class Action:
    """One choice of one seat; ``groups`` only for 吃 (the 吃 group, then each 比)."""

    type: ActionType
    seat: int
    card: Card | None = None
    groups: tuple[tuple[Card, ...], ...] = ()
    pattern: WangPattern | None = None  # a 胡 by 王钓/王闯/王炸 (R41)

    def id(self) -> str:
        """The short stable id, e.g. ``"chi:x2:x1x2x3,x2d2d2"``."""
        t = self.type
        if t == HU and self.pattern is not None:
            return f"hu:{self.pattern.value}"
        if t in (HU, PASS):
            return t
        code = CODES[self.card] if self.card is not None else "?"
        if t == CHI:
            gs = ",".join("".join(CODES[c] for c in g) for g in self.groups)
            return f"chi:{code}:{gs}"
        return f"{t}:{code}"

    @classmethod
    def from_id(cls, seat: int, text: str) -> Action:
        """Parse an id written by :meth:`id`; raises :class:`IllegalAction` if malformed."""
        if not isinstance(text, str):
            raise IllegalAction(f"action id must be a string, got {text!r}")
        parts = text.strip().split(":")
        try:
            t = ActionType(parts[0].lower())
        except ValueError:
            raise IllegalAction(f"bad action id {text!r}") from None
        try:
            if t in (HU, PASS) and len(parts) == 1:
                return cls(t, seat)
            if t == HU and len(parts) == 2 and parts[1] in _PATTERNS:
                return cls(t, seat, pattern=WangPattern(parts[1]))
            if t in (DISCARD, PENG) and len(parts) == 2:
                return cls(t, seat, Card.parse(parts[1]))
            if t == CHI and len(parts) == 3:
                groups = [parse_cards(g) for g in parts[2].split(",")]
                if any(len(g) != 3 for g in groups):
                    raise IllegalAction(f"chi groups need 3 cards each in {text!r}")
                return cls(t, seat, Card.parse(parts[1]), canonical_groups(groups))
        except CardError as e:
            raise IllegalAction(f"bad action id {text!r}: {e}") from None
        raise IllegalAction(f"bad action id {text!r}")

    def to_dict(self) -> dict[str, Any]:
        """The record form of INTERFACES.md §4."""
        d: dict[str, Any] = {"seat": self.seat, "type": self.type}
        if self.card is not None:
            d["card"] = CODES[self.card]
        if self.groups:
            d["groups"] = [[CODES[c] for c in g] for g in self.groups]
        if self.pattern is not None:
            d["pattern"] = self.pattern.value
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Action:
        if not isinstance(d, dict) or d.get("type") not in TYPES:
            raise IllegalAction(f"not an action record: {d!r}")
        seat = d.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalAction(f"action seat must be an integer: {d!r}")
        try:
            # a 胡 or pass on a drawn 王 names it (R39); nothing else may
            read = card_or_wang if d.get("type") in (HU, PASS) else Card.parse
            card = read(d["card"]) if d.get("card") else None
            groups = canonical_groups([parse_cards(" ".join(g)) for g in d.get("groups", [])])
        except (CardError, TypeError) as e:
            raise IllegalAction(f"bad action record {d!r}: {e}") from None
        pattern = d.get("pattern")
        if pattern is not None and (d["type"] != HU or pattern not in _PATTERNS):
            raise IllegalAction(f"bad 王 pattern in action record {d!r} (R41)")
        pat = WangPattern(pattern) if pattern is not None else None
        return cls(ActionType(d["type"]), seat, card, groups, pat)

    def matches(self, other: Action) -> bool:
        """Does this (possibly partial) action name the legal action ``other``?

        ``hu`` and ``pass`` may omit the card; everything else must agree.
        """
        if self.type != other.type or self.seat != other.seat:
            return False
        if self.pattern != other.pattern:  # R41: a plain 胡 is no pattern 胡
            return False
        if self.card is not None and self.card != other.card:
            return False
        if self.type in (DISCARD, PENG, CHI) and self.card is None:
            return False
        return self.type != CHI or canonical_groups(self.groups) == other.groups

    def __str__(self) -> str:
        return f"{self.seat}:{self.id()}"
