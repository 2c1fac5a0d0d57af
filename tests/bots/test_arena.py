"""paohuzi arena (INTERFACES.md §6): seat rotation, seeding, pooling, the JSON shape."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from paohuzi.cli.arena import split_bots
from paohuzi.cli.main import main
from paohuzi.core.records import check
from paohuzi.core.rules import HUNAN, LUZHOU
from paohuzi.sim.arena import DeckTask, aggregate, lineup, play_deck, rotations, run_arena

HAS_RAY = importlib.util.find_spec("ray") is not None
BOT_KEYS = {"mean_score", "ci95", "win_rate", "mean_huxi_of_wins", "decision_ms"}


def _timeless(result: dict) -> dict:
    out = json.loads(json.dumps(result))
    for b in out["bots"].values():
        b.pop("decision_ms")
    return out


def test_every_bot_plays_every_seat():
    line = lineup(["ismcts", "greedy"], 3)
    assert line == ["ismcts", "greedy", "greedy"]
    rots = rotations(line)
    for s in range(3):
        assert {r[s] for r in rots} == {"ismcts", "greedy"}
    assert sorted(r.count("ismcts") for r in rots) == [1, 1, 1]
    with pytest.raises(ValueError):
        lineup(["a", "b", "c", "d"], 3)


def test_rotations_share_the_deck():
    res = play_deck(DeckTask(HUNAN, ("greedy", "random", "random"), 3, 0))
    assert res.hands == 3 and len(res.seats) == 9
    assert sum(sh.bot == "greedy" for sh in res.seats) == 3
    assert sum(sh.score for sh in res.seats) == 0  # R37: payments balance in every hand


def test_same_seed_same_result_whatever_the_workers():
    a = run_arena(["greedy", "random"], 18, HUNAN, seed=42, workers=1).to_json()
    b = run_arena(["greedy", "random"], 18, HUNAN, seed=42, workers=2).to_json()
    c = run_arena(["greedy", "random"], 18, HUNAN, seed=43, workers=2).to_json()
    assert _timeless(a) == _timeless(b)
    assert _timeless(a) != _timeless(c)


def test_sit_out_seats_are_not_counted():
    # 泸州: four seats, the one opposite the dealer sits out each hand (坐底).
    r = run_arena(["greedy", "random"], 8, LUZHOU, seed=1, workers=1)
    assert r.hands == 8
    assert sum(b.seat_hands for b in r.stats.values()) == 8 * 3


def test_pooled_ci_is_a_cluster_interval():
    r = run_arena(["greedy", "random"], 30, HUNAN, seed=9, workers=1)
    g = r.stats["greedy"]
    lo, hi = g.ci95()
    assert lo < g.mean < hi
    # the same decks twice: the interval must shrink by about √2
    twice = aggregate(
        [play_deck(DeckTask(HUNAN, r.lineup, 9, i)) for i in range(10)] * 2, r.lineup
    ).stats["greedy"]
    lo2, hi2 = twice.ci95()
    assert twice.mean == pytest.approx(g.mean)
    assert (hi2 - lo2) < (hi - lo) * 0.8


def test_split_bots_keeps_options_together():
    assert split_bots("greedy,random") == ["greedy", "random"]
    assert split_bots("ismcts:iters=4,top=2,greedy") == ["ismcts:iters=4,top=2", "greedy"]
    assert split_bots("ismcts:iters=4;top=2,random") == ["ismcts:iters=4,top=2", "random"]


def test_cli_json_shape(capsys):
    rc = main(
        [
            "arena",
            "--bots",
            "greedy,greedy,random",
            "--hands",
            "6",
            "--json",
            "--workers",
            "1",
            "--seed",
            "3",
        ]
    )
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"hands", "draw_rate", "bots"}
    assert out["hands"] == 6 and 0 <= out["draw_rate"] <= 1
    assert set(out["bots"]) == {"greedy", "random"}  # the same name twice is pooled
    for b in out["bots"].values():
        assert set(b) == BOT_KEYS
        assert len(b["ci95"]) == 2 and 0 <= b["win_rate"] <= 1 and b["decision_ms"] >= 0


def test_cli_rounds_hands_up_to_whole_rotations(capsys):
    rc = main(["arena", "--bots", "random", "--hands", "4", "--json", "--workers", "1"])
    captured = capsys.readouterr()
    assert rc == 0 and json.loads(captured.out)["hands"] == 6
    assert "rounded up" in captured.err


def test_cli_plot(tmp_path):
    png = tmp_path / "scores.png"
    argv = [
        "arena",
        "--bots",
        "greedy,random",
        "--hands",
        "3",
        "--workers",
        "1",
        "--json",
        "--plot",
    ]
    rc = main([*argv, str(png)])
    assert rc == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["--bots", "nosuchbot", "--hands", "3"],
        ["--bots", "greedy:bogus=1", "--hands", "3"],
        ["--bots", "greedy,greedy,greedy,greedy", "--hands", "3"],
        ["--bots", "greedy", "--hands", "0"],
        ["--bots", "greedy", "--hands", "3", "--rules", "nowhere"],
    ],
)
def test_cli_bad_input_exits_2(argv, capsys):
    assert main(["arena", *argv, "--json"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["error"] == "invalid_input"
    assert len(captured.err.strip().splitlines()) == 1


def test_records_one_per_hand_named_by_deck_and_rotation(tmp_path: Path):
    line = ("greedy", "random", "random")
    dirs = {w: tmp_path / str(w) for w in (1, 2)}
    for w, d in dirs.items():
        run_arena(list(line), 6, HUNAN, seed=5, workers=w, records=str(d))
    one = {f.name: f.read_bytes() for f in dirs[1].iterdir()}
    assert one == {f.name: f.read_bytes() for f in dirs[2].iterdir()}  # whatever the workers
    assert sorted(one) == [f"deck-{i:06d}-rot-{r}.json" for i in range(2) for r in range(3)]
    rots = rotations(line)
    for name, data in one.items():
        rec = json.loads(data)
        deck, rot = int(name[5:11]), int(name[16])
        assert rec["bots"] == list(rots[rot]) and check(rec) == []
        # every rotation of a deck is dealt the same cards by the same dealer seat
        first = json.loads(one[f"deck-{deck:06d}-rot-0.json"])
        assert (rec["deck"], rec["dealer"]) == (first["deck"], first["dealer"])
    assert (
        json.loads(one["deck-000000-rot-0.json"])["deck"]
        != json.loads(one["deck-000001-rot-0.json"])["deck"]
    )


def test_cli_records_replay(tmp_path: Path, capsys):
    d = tmp_path / "recs"
    argv = ["arena", "--bots", "greedy,random", "--hands", "3", "--workers", "1", "--json"]
    assert main([*argv, "--rules", "luzhou", "--records", str(d)]) == 0
    out = json.loads(capsys.readouterr().out)
    files = sorted(d.iterdir())
    assert len(files) == out["hands"] == 4  # rounded up to a whole rotation of 4 seats
    for f in files:
        assert main(["replay", "--check", str(f)]) == 0, capsys.readouterr().err


def test_cli_records_not_a_directory(tmp_path: Path, capsys):
    f = tmp_path / "file"
    f.write_text("x", encoding="utf-8")
    argv = ["arena", "--bots", "greedy", "--hands", "3", "--json", "--records", str(f)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["error"] == "invalid_input"
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "--records" in err[0]


@pytest.mark.skipif(HAS_RAY, reason="ray is installed")
def test_cli_ray_missing_exits_2(capsys):
    assert main(["arena", "--bots", "greedy", "--hands", "3", "--ray", "auto"]) == 2
    assert "ray" in capsys.readouterr().err


@pytest.mark.skipif(not HAS_RAY, reason="ray is not installed (optional extra)")
def test_ray_local_matches_processes():
    a = run_arena(["greedy", "random"], 6, HUNAN, seed=4, ray_address="local").to_json()
    b = run_arena(["greedy", "random"], 6, HUNAN, seed=4, workers=1).to_json()
    assert _timeless(a) == _timeless(b)


# -- whole matches: a race preset (R45) ---------------------------------------------------
def test_a_race_is_played_whole_under_every_rotation(tmp_path: Path):
    """R45: each rotation plays the same match seed to its end — a total reaches the
    target or the safety cap ends it — and a seat-match scores ``Match.final()``, the
    pairwise settlement of the rounded totals; the first hand of every rotation is dealt
    the same cards by the same dealer seat (rotated-deck fairness)."""
    from paohuzi.core.match import race_final
    from paohuzi.core.rules import LOUDI

    line = ("greedy", "random", "random")
    res = play_deck(DeckTask(LOUDI, line, 3, 0, str(tmp_path), matches=True))
    assert len(res.matches) == 3 and len(res.seats) == 9
    for m in res.matches:
        assert m.seating == rotations(line)[m.rotation]
        assert max(m.totals) >= LOUDI.race.target or m.hands == LOUDI.hands_per_match
        assert list(m.final) == race_final(LOUDI.race, m.totals) and sum(m.final) == 0
        names = sorted(tmp_path.glob(f"deck-000000-rot-{m.rotation}-hand-*.json"))
        assert len(names) == m.hands
        recs = [json.loads(f.read_text(encoding="utf-8")) for f in names]
        assert all(check(r) == [] for r in recs)
        totals = [sum(r["result"]["scores"][s] for r in recs) for s in range(3)]
        assert totals == list(m.totals)  # the running totals are the hands' scores
        # the race ended at the first hand that took a total to the target, not later
        run = [0, 0, 0]
        for r in recs[:-1]:
            run = [a + b for a, b in zip(run, r["result"]["scores"], strict=True)]
            assert max(run) < LOUDI.race.target
    firsts = [
        json.loads((tmp_path / f"deck-000000-rot-{r}-hand-00.json").read_text(encoding="utf-8"))
        for r in range(3)
    ]
    assert len({(json.dumps(f["deck"]), f["dealer"]) for f in firsts}) == 1
    # a seat-match's score is its final settlement; the winner finished highest
    for sh, (m, s) in zip(res.seats, [(m, s) for m in res.matches for s in range(3)], strict=True):
        assert sh.bot == m.seating[s] and sh.score == m.final[s]
        assert sh.won == (m.totals[s] == max(m.totals))


def test_cli_race_matches_json_and_refuses_hands(capsys):
    argv = ["arena", "--bots", "greedy,random", "--rules", "loudi", "--workers", "1", "--json"]
    assert main([*argv, "--matches", "2", "--seed", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matches"] == 3 == len(out["per_match"])  # rounded up to a whole rotation
    assert out["hands"] == sum(m["hands"] for m in out["per_match"])
    assert set(out["bots"]) == {"greedy", "random"}
    for m in out["per_match"]:
        assert sum(m["final"]) == 0 and len(m["bots"]) == 3
    g = out["bots"]["greedy"]
    mine = [m["final"][m["bots"].index("greedy")] for m in out["per_match"]]
    assert g["mean_score"] == pytest.approx(sum(mine) / 3)
    # the race's hands are not separate games: --hands is refused with one line
    assert main([*argv, "--hands", "3"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["error"] == "invalid_input"
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "--matches" in err[0] and "race" in err[0]


def _first_legal(obs, mask):
    import numpy as np

    return int(np.flatnonzero(mask)[0])


def test_evaluate_is_the_cli_arena(capsys):
    """Issue 26 item 4: the Python API gives the CLI's numbers (same decks, same CIs)."""
    from paohuzi.sim.arena import evaluate

    api = evaluate("greedy", "random", hands=18, seed=5, rules="hunan", workers=1).to_json()
    assert main(["arena", "--bots", "greedy,random", "--hands", "18", "--seed", "5", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert _timeless(api) == _timeless(cli)
    lo, hi = api["bots"]["greedy"]["ci95"]
    assert lo < api["bots"]["greedy"]["mean_score"] < hi


def test_evaluate_a_live_policy_and_a_bot_object():
    from paohuzi.bots.greedy import GreedyBot
    from paohuzi.sim.arena import _BOTS, evaluate

    live_greedy = GreedyBot()
    live = evaluate(live_greedy, "random", hands=12, seed=2, workers=2)
    spec = evaluate("greedy", "random", hands=12, seed=2, workers=1)
    assert _timeless(live.to_json()) == _timeless(spec.to_json())  # an object plays as its spec
    res = evaluate(_first_legal, ["greedy", GreedyBot()], hands=6, seed=1)
    assert set(res.stats) == {"_first_legal", "greedy", "greedy#2"}
    assert res.stats["_first_legal"].seat_hands == 6
    assert "_first_legal" not in _BOTS and "greedy#2" not in _BOTS  # nothing left behind
    assert _BOTS["greedy"] is not live_greedy
    with pytest.raises(ValueError, match="Ray"):
        evaluate(_first_legal, "greedy", hands=3, ray_address="local")


def test_cli_arena_takes_module_attr(tmp_path: Path, monkeypatch, capsys):
    (tmp_path / "arena_policy_mod.py").write_text(
        "import numpy as np\ndef first(obs, mask):\n    return int(np.flatnonzero(mask)[0])\n"
    )
    monkeypatch.chdir(tmp_path)
    argv = ["arena", "--bots", "arena_policy_mod:first,greedy", "--hands", "6", "--json"]
    assert main([*argv, "--workers", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["bots"]) == {"arena_policy_mod:first", "greedy"}
    assert main(["arena", "--bots", "arena_policy_mod:nothere,greedy", "--hands", "3"]) == 2
    assert "no attribute" in capsys.readouterr().err
