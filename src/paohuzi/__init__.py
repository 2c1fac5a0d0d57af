"""paohuzi — 跑胡子 (Paohuzi, Hunan 字牌): rules engine, hand calculator, bots and games.

The engine, python-chess style::

    from paohuzi import GameState, Table, make_bot, preset, view
    state = GameState(preset("hunan"), seed=7)       # deal; forced steps run by themselves
    state.legal_action_ids()                          # e.g. ['discard:x3', ...]
    state.apply_id(state.current_player, "discard:x3")  # IllegalAction if not legal now
    view(state, 0)                                    # what seat 0 may see
    Table([make_bot("greedy")] * 3, preset("hunan"), seed=1).play()  # a match of bots

The hand calculator::

    from paohuzi import Position, evaluate, preset
    pos = Position.parse("四五六八八九十壹贰叁捌", win="八",
                         table=["peng:拾", "chi:一二三", "wei:七"])
    result = evaluate(pos, preset("hunan"))
    result.win, result.huxi, result.deng, result.di   # True, 15, 1, 1
"""

from . import _native  # first: picks the compiled or the pure engine
from .bots import Bot, make_bot
from .core.actions import Action, IllegalAction
from .core.cards import Card, CardError, format_cards, parse_cards
from .core.determinize import NoConsistentWorld, resample
from .core.evaluator import HandEvaluator, evaluator_for
from .core.events import Event
from .core.match import Match
from .core.melds import Group, GroupKind, MeldError
from .core.position import Position, PositionError
from .core.records import ReplayError, record, replay
from .core.result import HandResult
from .core.rules import PRESETS, Rules, RulesError
from .core.scoring import Settlement, evaluate, payments, settle
from .core.state import GameState
from .core.variants import preset
from .core.views import view
from .core.vocab import ActionType, EventType, Phase, Source
from .table import Table

__version__ = "0.1.0"
compiled = _native.compiled
"""``compiled()``: whether the engine runs mypyc-compiled (see setup.py)."""

__all__ = [
    "PRESETS",
    "Action",
    "ActionType",
    "Bot",
    "Card",
    "CardError",
    "Event",
    "EventType",
    "GameState",
    "Group",
    "GroupKind",
    "HandEvaluator",
    "HandResult",
    "IllegalAction",
    "Match",
    "MeldError",
    "NoConsistentWorld",
    "Phase",
    "Position",
    "PositionError",
    "ReplayError",
    "Rules",
    "RulesError",
    "Settlement",
    "Source",
    "Table",
    "evaluate",
    "evaluator_for",
    "format_cards",
    "make_bot",
    "parse_cards",
    "payments",
    "preset",
    "record",
    "replay",
    "resample",
    "settle",
    "view",
]
