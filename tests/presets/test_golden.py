"""Golden playthroughs: one fixed seed per preset, the whole record compared exactly.

The files in ``golden/`` are written only with ``PAOHUZI_UPDATE_GOLDEN=1``; any change in
dealing, turn flow, events, settlement or the rules' dict shows up here as a diff.
Seeds: hunan 107 (红胡 + 耍猴), changde 21 (四七红), luzhou 116 (a discard win paid by the
discarder alone, one seat sitting out).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from paohuzi.core.records import check, record
from paohuzi.core.rules import PRESETS
from paohuzi.core.state import GameState

from .helpers import random_choice

GOLDEN = Path(__file__).parent / "golden"
SEEDS = {"hunan": 107, "changde": 21, "luzhou": 116}


def playthrough(name: str) -> dict:
    seed = SEEDS[name]
    rng = random.Random(seed)
    s = GameState(PRESETS[name], seed)
    while not s.is_terminal():
        s.apply(random_choice(s, rng, 1.0))
    return json.loads(json.dumps(record(s), ensure_ascii=False))


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    got = playthrough(name)
    if os.environ.get("PAOHUZI_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    want = json.loads(path.read_text(encoding="utf-8"))
    assert got["events"] == want["events"]
    assert got == want
    assert check(want) == []
    assert want["result"]["winner"] is not None and want["result"]["mingtang"]


def test_luzhou_golden_is_a_discard_win_with_a_seat_out() -> None:
    rec = json.loads((GOLDEN / "luzhou.json").read_text(encoding="utf-8"))
    r = rec["result"]
    out = (rec["dealer"] + 2) % 4
    assert r["discarder"] is not None and r["scores"][out] == 0
    assert [t for t, v in enumerate(r["scores"]) if v < 0] == [r["discarder"]]
