"""词汇 (cíhuì): the game's vocabulary — phases, card sources, action and event types.

Each is a :class:`~enum.StrEnum`, so a member *is* its wire string: it compares
equal to ``"chi"``, serialises as ``"chi"`` and parses back with ``ActionType("chi")``.
Records and web messages therefore carry exactly the strings of INTERFACES.md.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """What the hand waits for: claims on an open card, a discard, or nothing (over)."""

    CLAIM = "claim"
    DISCARD = "discard"
    OVER = "over"


class Source(StrEnum):
    """Where a card came from (INTERFACES §4 ``source``)."""

    DEAL = "deal"
    HAND = "hand"
    DRAW = "draw"  # turned up from the wall
    DISCARD = "discard"
    TABLE = "table"
    LIANGZHANG = "liangzhang"  # the dealer's 亮张
    WALL = "wall"  # a shown bottom card (泸州)


class ActionType(StrEnum):
    """动作: the choices a player makes (R14–R21); forced steps are never actions."""

    DISCARD = "discard"
    CHI = "chi"
    PENG = "peng"
    HU = "hu"
    PASS = "pass"


class EventType(StrEnum):
    """事件: everything that happens in a hand (INTERFACES §4 ``events``)."""

    DEAL = "deal"
    LIANGZHANG = "liangzhang"
    BOTTOM = "bottom"  # show_wall_bottom presets: the wall's last card, shown
    TI = "ti"
    WEI = "wei"
    CHOUWEI = "chouwei"
    PAO = "pao"
    DRAW = "draw"
    DISCARD = "discard"
    CHI = "chi"
    PENG = "peng"
    PASS = "pass"
    PILE = "pile"  # an untaken open card goes face up to its owner's pile
    HU = "hu"  # a mandatory 天胡 (R28) too: ``tianhu`` true, no card
    HUANGZHUANG = "huangzhuang"
    SETTLE = "settle"


__all__ = ["ActionType", "EventType", "Phase", "Source"]
