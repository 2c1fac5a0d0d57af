"""Worked vectors of the second-wave presets (R42–R46): 桂林, 衡阳, 娄底.

Each vector of ``tests/data/second-wave-vectors.json`` is a ``score --batch``
position with the preset it is scored under and the expected settlement; the
derivation of every number is written out by hand in docs/presets/guilin.md,
hengyang.md and loudi.md ("Worked vectors"). They run through the library and,
grouped by preset, through ``paohuzi score --batch``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paohuzi.cli.main import main
from paohuzi.core.position import Position
from paohuzi.core.rules import Rules, preset
from paohuzi.core.scoring import settle

DATA = Path(__file__).resolve().parents[1] / "data" / "second-wave-vectors.json"
VECTORS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))
POSITION_KEYS = ("hand", "table", "win", "self_drawn", "last_card", "tianhu", "dihu", "xing")


def rules_of(v: dict[str, Any]) -> Rules:
    r = v["rules"]
    return preset(r) if isinstance(r, str) else Rules.from_dict(r)


def test_at_least_six_vectors_per_preset() -> None:
    names = [v["rules"] if isinstance(v["rules"], str) else v["rules"]["preset"] for v in VECTORS]
    for p in ("guilin", "hengyang", "loudi"):
        assert names.count(p) >= 6, p


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector(v: dict[str, Any]) -> None:
    rules = rules_of(v)
    pos = Position.from_dict({k: v[k] for k in POSITION_KEYS if k in v}, rules.hand_size)
    s = settle(pos, rules)
    e = v["expect"]
    assert s.win, s.error
    got = {"huxi": s.huxi, "deng": s.deng, "xing": s.xing, "fan": s.fan, "di": s.di}
    assert got == {k: e[k] for k in got}
    assert [m.name for m in s.mingtang] == e["mingtang"]


@pytest.mark.parametrize("name", ["guilin", "hengyang", "loudi"])
def test_the_calculator_scores_them_in_batch(name: str, tmp_path: Path, capsys) -> None:
    """INTERFACES §1 --batch with the preset: one result line per position."""
    mine = [v for v in VECTORS if v["rules"] == name]
    f = tmp_path / "in.jsonl"
    f.write_text(
        "\n".join(json.dumps({k: v[k] for k in POSITION_KEYS if k in v}) for v in mine) + "\n",
        encoding="utf-8",
    )
    assert main(["score", "--batch", str(f), "--rules", name]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(o["huxi"], o["deng"], o["xing"], o["fan"], o["di"]) for o in out] == [
        tuple(v["expect"][k] for k in ("huxi", "deng", "xing", "fan", "di")) for v in mine
    ]
    assert all(o["unit"] == preset(name).unit for o in out)
