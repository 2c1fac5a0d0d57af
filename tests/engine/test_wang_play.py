"""R39/R40 in play: the ``wang`` rules field, 王 in the deck, the deal, the draw and the win.

The win test itself (every split and assignment) is checked against a brute force in
tests/presets/test_wang_oracle.py; here the engine around it is.
"""

from __future__ import annotations

import tomllib

import pytest

from paohuzi.core.cards import CODES, Card, card_or_wang, parse_deck_cards
from paohuzi.core.rules import HUNAN, Rules, RulesError


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_rules_wang_field_round_trips(n: int) -> None:
    """R39: ``wang`` (0–4) survives the dict and TOML round trips."""
    r = HUNAN.replace(wang=n)
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules.from_dict(tomllib.loads(r.to_toml())) == r
    assert r.to_dict()["wang"] == n


@pytest.mark.parametrize("bad", [5, -1, True, "2", 1.0])
def test_rules_wang_out_of_range_is_refused_naming_the_field(bad: object) -> None:
    with pytest.raises(RulesError, match="wang"):
        Rules.from_dict({"preset": "hunan", "wang": bad})


def test_wang_card_is_no_kind_and_reads_back() -> None:
    """R39: Card.W names a 王 in events and decks (``w`` / ``王``); it has no point,
    size or colour of its own, and CARDS stays the 20 kinds."""
    assert Card.W == 20 and CODES[Card.W] == "w" and Card.W.zh == "王"
    assert Card.W.point == 0 and not Card.W.is_red and not Card.W.is_big
    assert Card.W.is_wang and not Card.X1.is_wang
    assert card_or_wang("w") is Card.W and card_or_wang("王") is Card.W
    assert parse_deck_cards("一 w 壹") == [Card.X1, Card.W, Card.D1]
