"""paohuzi — 跑胡子 (Paohuzi, Hunan 字牌): rules engine, hand calculator, bots and games.

The public API for the hand calculator::

    from paohuzi import Position, evaluate, preset
    pos = Position.parse("四五六八八九十壹贰叁捌", win="八",
                         table=["peng:拾", "chi:一二三", "wei:七"])
    result = evaluate(pos, preset("hunan"))
    result.win, result.huxi, result.deng, result.di   # True, 15, 1, 1
"""

from . import _native  # first: picks the compiled or the pure engine
from .core.cards import Card, CardError, format_cards, parse_cards
from .core.evaluator import HandEvaluator, evaluator_for
from .core.melds import Group, GroupKind, MeldError
from .core.position import Position, PositionError
from .core.rules import PRESETS, Rules, RulesError, preset
from .core.scoring import Settlement, payments, settle

evaluate = settle
"""``evaluate(position, rules)`` → :class:`Settlement` (alias of :func:`settle`)."""

__version__ = "0.1.0"
compiled = _native.compiled
"""``compiled()``: whether the engine runs mypyc-compiled (see setup.py)."""

__all__ = [
    "PRESETS",
    "Card",
    "CardError",
    "Group",
    "GroupKind",
    "HandEvaluator",
    "MeldError",
    "Position",
    "PositionError",
    "Rules",
    "RulesError",
    "Settlement",
    "evaluate",
    "evaluator_for",
    "format_cards",
    "parse_cards",
    "payments",
    "preset",
    "settle",
]
