"""Random play through the engine, shared by the RL tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState


def random_states(rules: Rules, hands: int, seed: int = 0) -> Iterator[GameState]:
    """Every decision point of ``hands`` hands of uniformly random legal play."""
    for h in range(hands):
        state = GameState(rules, seed=seed * 100_003 + h)
        pick = random.Random(h)
        while not state.is_terminal():
            yield state
            state.apply(pick.choice(state.legal_actions(state.current_player)))
