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
    XING = "xing"  # R42: a 醒牌 turned after a win (``count``: 醒 it brings)
    SETTLE = "settle"


class Base(StrEnum):
    """What a 偎, 跑 or 提 is made from (event ``base``/``from``, R11–R13)."""

    KAN = "kan"  # a 坎 in hand
    WEI = "wei"  # a 偎 on the table
    PENG = "peng"  # a 碰 on the table
    PAIR = "pair"  # a pair in hand (a 偎)
    HAND = "hand"  # four in hand, or a 坎 joined by a card (the meld was in hand)
    TABLE = "table"  # a meld already on the table


class Fallback(StrEnum):
    """What becomes of an open card nobody claims (R13, R16.2, R18)."""

    PILE = "pile"  # face up to its owner's pile; his 下家 draws
    FORCED = "forced"  # the drawer's own 偎/提 (R11, R12)
    PAO = "pao"  # someone's mandatory 跑 (R13)
    LIANGZHANG = "liangzhang"  # the 亮张 joins the dealer's hand
    WANG = "wang"  # a 王 turned up joins its drawer's hand (R39)


__all__ = ["ActionType", "Base", "EventType", "Fallback", "Phase", "Source"]
