"""Action/Event value objects: id and dict round trips (INTERFACES.md §4)."""

from __future__ import annotations

import json

import pytest

from paohuzi.core.actions import Action, IllegalAction
from paohuzi.core.cards import Card
from paohuzi.core.events import Event
from paohuzi.core.rules import PRESETS
from paohuzi.core.state import GameState

from .helpers import play_out


def test_ids_are_short_and_stable() -> None:
    a = Action("chi", 1, Card.X2, ((Card.X1, Card.X2, Card.X3), (Card.X2, Card.D2, Card.D2)))
    assert a.id() == "chi:x2:x1x2x3,x2d2d2"
    assert Action("discard", 0, Card.D10).id() == "discard:d10"
    assert Action("peng", 2, Card.X5).id() == "peng:x5"
    assert Action("hu", 2, Card.X5).id() == "hu" and Action("pass", 0).id() == "pass"
    assert Action.from_id(1, "chi:二:一二三,二贰贰") == a  # Chinese notation accepted (R4)
    assert a.to_dict() == {
        "seat": 1,
        "type": "chi",
        "card": "x2",
        "groups": [["x1", "x2", "x3"], ["x2", "d2", "d2"]],
    }


@pytest.mark.parametrize(
    "bad", ["", "chi", "discard", "discard:zz", "peng:x1:x2", "chi:x1:x1x2", "fly:x1"]
)
def test_bad_ids_raise(bad: str) -> None:
    with pytest.raises(IllegalAction):
        Action.from_id(0, bad)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_round_trips_over_played_hands(name: str) -> None:
    for seed in range(8):
        s = play_out(GameState(PRESETS[name], seed), seed)
        for a in s.actions:
            assert Action.from_id(a.seat, a.id()).matches(a)
            assert Action.from_dict(json.loads(json.dumps(a.to_dict()))) == a
        for e in s.events:
            d = json.loads(json.dumps(e.to_dict()))
            assert Event.from_dict(d).to_dict() == d
