"""paohuzi ladder: a round-robin in the arena rated with TrueSkill (issue 26, item 8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("trueskill")

from paohuzi.cli.ladder import default_players
from paohuzi.cli.main import main
from paohuzi.core.rules import HUNAN
from paohuzi.sim.arena import run_arena
from paohuzi.sim.ladder import Ladder, place, run_ladder


def test_round_robin_rates_greedy_above_random() -> None:
    ladder = run_ladder(["random", "greedy"], hands=24, seed=1, workers=1)
    assert [(p.lone, p.field) for p in ladder.pairings] == [
        ("random", "greedy"),
        ("greedy", "random"),
    ]
    assert all(len(p.scores) == 24 for p in ladder.pairings)
    ratings = ladder.ratings()
    assert [r.player for r in ratings] == ["greedy", "random"]
    g, r = ratings
    assert g.mu > r.mu and g.games == r.games == 48
    assert g.ci95[0] < g.mu < g.ci95[1]
    # the pairing's numbers are the arena's own
    arena = run_arena(["greedy", "random"], 24, HUNAN, seed=1, workers=1).stats["greedy"]
    pair = ladder.pairing("greedy", "random")
    assert pair is not None and pair.mean == arena.mean and list(pair.ci95) == arena.ci95()
    assert g.mean_score == pytest.approx(sum(pair.scores) / 24)


def test_rating_is_deterministic() -> None:
    a = run_ladder(["random", "greedy", "neural"], hands=6, seed=2, workers=1)
    b = run_ladder(["random", "greedy", "neural"], hands=6, seed=2, workers=2)
    assert [(r.player, r.mu, r.sigma) for r in a.ratings()] == [
        (r.player, r.mu, r.sigma) for r in b.ratings()
    ]
    assert {r.player for r in a.ratings()} == {"random", "greedy", "neural"}


def test_json_round_trip_and_place() -> None:
    ladder = run_ladder(["random", "greedy"], hands=6, seed=3, workers=1)
    again = Ladder.from_json(json.loads(json.dumps(ladder.to_json())))
    assert again.to_json() == ladder.to_json()
    placed = place(again, "neural", workers=1)
    assert placed.players == ["random", "greedy", "neural"]
    assert len(placed.pairings) == 6
    assert placed.pairing("random", "greedy") == ladder.pairing("random", "greedy")  # kept
    assert {(p.lone, p.field) for p in placed.pairings if "neural" in (p.lone, p.field)} == {
        ("neural", "random"),
        ("random", "neural"),
        ("neural", "greedy"),
        ("greedy", "neural"),
    }
    with pytest.raises(ValueError, match="not a ladder"):
        Ladder.from_json({"rules": "hunan"})


def test_default_players_are_every_web_level_and_bot() -> None:
    players = default_players()
    assert players[:2] == ["novice", "greedy"]
    assert players[2].startswith("ismcts:") and {"neural", "random"} <= set(players[3:])


def test_cli_writes_docs_and_places_a_module_policy(tmp_path: Path, monkeypatch, capsys) -> None:
    data, out, png = tmp_path / "l.json", tmp_path / "ladder.md", tmp_path / "img.png"
    argv = ["ladder", "--players", "random,greedy", "--hands", "6", "--workers", "1"]
    assert main([*argv, "--data", str(data), "--out", str(out), "--plot", str(png)]) == 0
    text = out.read_text()
    assert "![TrueSkill ratings](img.png)" in text and "`greedy` (web 中级 normal)" in text
    assert png.stat().st_size > 5000
    (tmp_path / "ladder_policy_mod.py").write_text(
        "import numpy as np\ndef first(obs, mask):\n    return int(np.flatnonzero(mask)[0])\n"
    )
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert (
        main(["ladder", "--place", "ladder_policy_mod:first", "--data", str(data), "--json"]) == 0
    )
    placed = json.loads(capsys.readouterr().out)
    assert [r["player"] for r in placed["ratings"]][-1] in {"random", "ladder_policy_mod:first"}
    assert "ladder_policy_mod:first" in json.loads(data.read_text())["players"]


@pytest.mark.parametrize(
    "argv",
    [
        ["ladder", "--players", "random,nosuchbot", "--hands", "3"],
        ["ladder", "--players", "random", "--hands", "3"],
        ["ladder", "--players", "random,greedy", "--hands", "0"],
        ["ladder", "--place", "greedy"],
        ["ladder", "--players", "random,greedy", "--hands", "3", "--out", "/no/such/dir/x.md"],
        ["ladder", "--players", "random,greedy", "--rules", "atlantis", "--hands", "3"],
    ],
)
def test_cli_bad_input_exits_2(argv: list[str], capsys) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.strip()
