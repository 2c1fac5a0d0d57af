"""观察 memos (issue 27): the view and the encoder reuse what a state shares
between steps and seats (meld views per table tuple, piles per list and length,
a seat's melds-and-pile block per table and pile tuple, the hand's 胡息 per
packed hand). A stale entry would hand a seat an old table, pile or 当前胡息
(R33); these tests play whole hands and compare every seat's view and vector,
at every step, with ones made from scratch.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from paohuzi.core import views
from paohuzi.core.rules import preset
from paohuzi.core.state import GameState
from paohuzi.encoding import observation
from paohuzi.encoding.observation import encode


def _fresh(state: GameState, seat: int) -> tuple[views.View, np.ndarray]:
    """The view and its vector with every memo emptied, the seat blocks encoded
    from lists (which the encoder never memoises)."""
    views._MELDS.clear()
    views._PILES.clear()
    observation._BLOCKS.clear()
    state._ev._hand_huxi.clear()
    v = views.view(state, seat)
    unshared = v._replace(
        tables=tuple(list(t) for t in v.tables), piles=tuple(list(p) for p in v.piles)
    )
    return v, encode(unshared)


@pytest.mark.parametrize("rules", ["hunan", "changde", "luzhou", "yongzhou"])
def test_memoised_views_and_vectors_match_fresh_ones(rules: str) -> None:
    r = preset(rules)
    pick = random.Random(27)
    steps = 0
    for seed in range(4):
        state = GameState(r, seed=seed)
        while not state.is_terminal():
            for seat in range(state.n):  # every seat, as a claim window asks them
                v, x = views.view(state, seat), encode(views.view(state, seat))
                fv, fx = _fresh(state, seat)
                assert v == fv
                assert v.huxi == state._ev.current_huxi(state._packed[seat], state.table(seat))
                np.testing.assert_array_equal(x, fx)
            seat = state.current_player
            state.apply(pick.choice(state.legal_actions(seat)))
            steps += 1
    assert steps > 100  # whole hands were played, with melds and piles growing
