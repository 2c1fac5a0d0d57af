"""One hand played by bots to its end, for tests that read what a finished hand shows
(its events, its settlement, a seat's view): the state itself, not only its result."""

from __future__ import annotations

from paohuzi.bots import make_bot
from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState
from paohuzi.table import Table


def bot_hand(rules: Rules, seed: int, bot: str = "greedy") -> GameState:
    """The hand of ``seed`` under ``rules``, ``bot`` at every seat, played to its end."""
    table = Table([make_bot(bot) for _ in range(rules.players)], rules, seed, 1)
    state = table.deal()
    while not state.is_terminal():
        seat = table.next_bot()
        assert seat is not None
        table.apply(table.choose(seat))
    return state
