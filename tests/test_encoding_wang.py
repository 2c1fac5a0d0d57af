"""编码 with 王 (R39): the observation keeps its size, writes nothing into the wrong
block, and the viewer's own 王 count can be read from it."""

from __future__ import annotations

import random

import numpy as np

from paohuzi.bots.greedy import greedy_choice, greedy_values
from paohuzi.core.actions import ActionType
from paohuzi.core.cards import Card
from paohuzi.core.player import Observation
from paohuzi.core.rules import HUNAN
from paohuzi.core.state import GameState
from paohuzi.core.views import view
from paohuzi.encoding.features import ACTION_SIZE, action_features
from paohuzi.encoding.observation import (
    EVENT_FEATURES,
    EVENT_TYPES,
    HISTORY_EVENTS,
    KINDS,
    OBSERVATION_SIZE,
    SLOTS,
    blocks,
    encode,
    encode_history,
)


def test_wang_observations_are_well_formed_and_tell_the_own_wang() -> None:
    rng = random.Random(1)
    drawn_wang = 0
    for seed in range(30):
        s = GameState(HUNAN.replace(wang=4), seed)
        while not s.is_terminal():
            for seat in s.seats:
                v = view(s, seat)
                o = encode(v)
                assert o.shape == (OBSERVATION_SIZE,) and o.min() >= 0.0 and o.max() <= 1.0
                b = blocks(o)
                # own 王 = hand size (王 incl.) − natural cards in the hand block
                own = round(b["seat0.hand_size"][0] * 24) - round(b["hand"].sum() * 4)
                assert own == s.wang(seat)
                assert b["bottom"].sum() == 0  # hunan shows no bottom card: nothing leaks there
                if v.open is not None and v.open.card is Card.W:
                    drawn_wang += 1  # shown, not hidden, no kind bit
                    assert b["open_shown"][0] == 1 and b["open_hidden"][0] == 0
                    assert b["open_card"].sum() == 0
                h = encode_history(v).reshape(HISTORY_EVENTS, EVENT_FEATURES)
                at = len(EVENT_TYPES) + SLOTS + 1  # the card block: 20 kinds, then hidden
                for row, e in zip(h, v.log[-HISTORY_EVENTS:], strict=False):
                    if e.card is Card.W:  # a 王 event: no kind, not hidden
                        assert row[at : at + KINDS + 1].sum() == 0
            p = s.current_player
            obs = Observation(s, p)
            vals = greedy_values(obs)
            af = action_features(obs, vals, greedy_choice(obs.legal, vals))
            assert af.shape == (len(obs.legal), ACTION_SIZE)
            for a, row in zip(obs.legal, af, strict=True):
                if a.type == ActionType.HU and a.card is Card.W:
                    assert row[5 : 5 + KINDS].sum() == 0  # no kind for a 王
            acts = s.legal_actions(p)
            hu = [a for a in acts if a.type == ActionType.HU]
            s.apply(hu[0] if hu else rng.choice(acts))
    assert drawn_wang > 0
    assert np.isfinite(encode(view(s, 0))).all()
