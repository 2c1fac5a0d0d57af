"""RULES.md §7: every vector of score-vectors.json through the settlement (R22–R37).

The vectors are read at test time from the shared spec when it is present, else
from the copy shipped in tests/data; when both exist they must be identical.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import oracle_huxi
from paohuzi.core.cards import parse_cards
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.position import Position, PositionError
from paohuzi.core.rules import HUNAN
from paohuzi.core.scoring import settle
from strategies import positions

SHARED = Path(__file__).resolve().parents[1].parent / "shared/spec/score-vectors.json"
SHIPPED = Path(__file__).resolve().parent / "data" / "score-vectors.json"
SOURCE = SHARED if SHARED.exists() else SHIPPED
VECTORS: list[dict[str, Any]] = json.loads(SOURCE.read_text(encoding="utf-8"))


def position_input(vector: dict[str, Any]) -> dict[str, Any]:
    """The ``score --batch`` part of a vector (INTERFACES.md §1): no name, no expectation."""
    return {k: v for k, v in vector.items() if k not in ("name", "expect")}


def over_r1(vector: dict[str, Any]) -> list[str]:
    """Cards that appear more than 4 times across hand, table and win (R1)."""
    cards = parse_cards(vector["hand"]) + [
        c for t in vector.get("table", []) for c in Group.parse(t).cards
    ]
    if vector.get("win"):
        cards += parse_cards(vector["win"])
    return [f"{c.zh}×{n}" for c, n in Counter(cards).items() if n > 4]


def _params() -> list[Any]:
    return [pytest.param(v, id=v["name"]) for v in VECTORS]


def test_every_vector_is_a_possible_position() -> None:
    """R1: no vector holds a card more than four times (the scorer would reject it)."""
    assert {v["name"]: over_r1(v) for v in VECTORS if over_r1(v)} == {}


def test_five_of_a_card_is_rejected() -> None:
    """R1 / INTERFACES §1: five copies of a card are invalid input, named in the error."""
    v = next(v for v in VECTORS if v["name"] == "xiaozi-shuahou")
    broken = {**v, "table": [t if t != "chi:二七十" else "chi:一二三" for t in v["table"]]}
    assert over_r1(broken) == ["三×5"]
    with pytest.raises(PositionError, match="三"):
        Position.from_dict(position_input(broken))


def test_vector_file_copies_agree() -> None:
    """The shipped copy is the shared spec file, byte for byte, when both exist."""
    assert SHIPPED.exists(), "tests/data/score-vectors.json must be shipped"
    if SHARED.exists():
        assert SHARED.read_bytes() == SHIPPED.read_bytes()
    assert len(VECTORS) >= 10 and len({v["name"] for v in VECTORS}) == len(VECTORS)


@pytest.mark.parametrize("vector", _params())
def test_score_vector(vector: dict[str, Any]) -> None:
    """R22–R37 for one vector: win, 胡息, 等, 番, 底, 名堂 (names and 番), error."""
    expect = vector["expect"]
    s = settle(Position.from_dict(position_input(vector)), HUNAN)
    assert s.win is expect["win"]
    assert s.huxi == expect["huxi"]
    assert s.error == expect.get("error")
    for key in ("deng", "fan", "di"):
        if key in expect:
            assert getattr(s, key) == expect[key], key
    if "mingtang" in expect:
        got = sorted((m.name, m.fan) for m in s.mingtang)
        assert got == sorted((m["name"], m["fan"]) for m in expect["mingtang"])
    if s.win:
        assert len(s.groups) == 7 and sum(s.group_huxi) == s.huxi


@pytest.mark.parametrize("vector", _params())
def test_oracle_reproduces_vector(vector: dict[str, Any]) -> None:
    """The brute-force oracle itself gets the spec's 胡息 (R22–R27), so it can be trusted."""
    pos = Position.from_dict(position_input(vector))
    assert oracle_huxi(pos, HUNAN) == vector["expect"]["huxi"]


def test_vectors_round_trip_through_position() -> None:
    """INTERFACES §1 batch form: Position.to_dict → from_dict keeps every valid vector."""
    for v in VECTORS:
        pos = Position.from_dict(position_input(v))
        assert Position.from_dict(pos.to_dict()) == pos


# -- R34–R37 on generated positions, computed here from RULES.md -----------------------


def expected_mingtang(pos: Position, groups: tuple[Group, ...]) -> list[tuple[str, int]]:
    """R36 with the default 番 table (全花样), from the cards and the chosen 门子."""
    cards = pos.all_cards()
    red = sum(1 for c in cards if c.point in (2, 7, 10))
    big = sum(1 for c in cards if c >= 10)
    small = len(cards) - big
    out = []
    if red >= 10:
        out.append(("红胡", 2 + (red - 10)))
    if red == 1:
        out.append(("点胡", 4))
    if red == 0:
        out.append(("乌胡", 5))
    if not any(g.kind in (GroupKind.CHI, GroupKind.JU, GroupKind.JIAO) for g in groups):
        out.append(("对子胡", 5))
    if big >= 18:
        out.append(("大字胡", min(14, 6 + (big - 18))))
    if small >= 16:
        out.append(("小字胡", min(16, 8 + (small - 16))))
    if len(pos.hand) == 1:
        out.append(("耍猴", 8))
    return sorted(out)


@settings(max_examples=500, deadline=None)
@given(positions(), st.booleans())
def test_settlement_follows_r34_to_r37(pos: Position, last_card: bool) -> None:
    """R34 等 = ⌊(H − 12)/3⌋ (+1 自摸), R35 海底 doubles H, R36 番 added, R37 底 = 等 × 番."""
    pos = replace(pos, last_card=last_card)
    best = oracle_huxi(pos, HUNAN)
    s = settle(pos, HUNAN)
    if best is None or best < HUNAN.min_huxi:
        assert not s.win and s.error == ("not_winning" if best is None else "below_min_huxi")
        return
    assert s.win and s.error is None and s.huxi == best
    h = best * (2 if last_card else 1)
    assert s.deng == (h - 12) // 3 + (1 if pos.self_drawn else 0)
    hits = expected_mingtang(pos, s.groups)
    assert sorted((m.name, m.fan) for m in s.mingtang) == hits
    assert s.fan == (sum(f for _, f in hits) if hits else 1)
    assert s.di == s.deng * s.fan
