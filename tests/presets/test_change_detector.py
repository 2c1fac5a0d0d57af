"""Change detectors: one fixed-seed playthrough per preset, its whole record compared exactly.

The files in ``snapshots/`` were written by the engine itself (``PAOHUZI_UPDATE_SNAPSHOTS=1``
rewrites them) and are checked with the engine's own ``records.check``: they prove nothing
about the rules. What they do is flag any change in dealing, turn flow, events, settlement or
the rules' dict as a diff, to be read and either fixed or accepted by rewriting the snapshot.
The rule tests (tests/engine, the other preset tests, the score vectors) are the proof.
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

SNAPSHOTS = Path(__file__).parent / "snapshots"
SEEDS = {"hunan": 107, "changde": 21, "luzhou": 116}


def playthrough(name: str) -> dict:
    seed = SEEDS[name]
    rng = random.Random(seed)
    s = GameState(PRESETS[name], seed)
    while not s.is_terminal():
        s.apply(random_choice(s, rng, 1.0))
    return json.loads(json.dumps(record(s), ensure_ascii=False))


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_playthrough_unchanged_since_its_snapshot(name: str) -> None:
    """Change detector: the record equals the engine's earlier one, event for event."""
    path = SNAPSHOTS / f"{name}.json"
    got = playthrough(name)
    if os.environ.get("PAOHUZI_UPDATE_SNAPSHOTS") == "1":
        path.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    want = json.loads(path.read_text(encoding="utf-8"))
    assert got["events"] == want["events"]
    assert got == want
    assert check(want) == []
    assert want["result"]["winner"] is not None and want["result"]["mingtang"]


def test_luzhou_snapshot_is_a_discard_win_with_a_seat_out() -> None:
    """The snapshot still shows what it was chosen for (so a rewrite cannot lose it)."""
    rec = json.loads((SNAPSHOTS / "luzhou.json").read_text(encoding="utf-8"))
    r = rec["result"]
    out = (rec["dealer"] + 2) % 4
    assert r["discarder"] is not None and r["scores"][out] == 0
    assert r["position"]["discard"] is True  # R44: re-scoring gives what the discarder pays
    assert [t for t, v in enumerate(r["scores"]) if v < 0] == [r["discarder"]]
