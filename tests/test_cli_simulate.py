"""``paohuzi simulate`` (INTERFACES.md §2) and ``paohuzi replay`` (§3) as a user runs them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import paohuzi
from paohuzi.cli.main import main

SUMMARY_KEYS = {
    "games",
    "wins_by_seat",
    "draws",
    "mingtang_counts",
    "mean_di",
    "seconds",
    "games_per_second",
}


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_same_seed_same_games_whatever_the_workers(capsys: pytest.CaptureFixture[str]) -> None:
    one = run_json(capsys, "simulate", "--games", "60", "--seed", "7", "--workers", "1", "--json")
    two = run_json(capsys, "simulate", "--games", "60", "--seed", "7", "--workers", "2", "--json")
    assert set(one) >= SUMMARY_KEYS
    assert "mean_score_by_seat" in one
    for key in (
        "games",
        "wins_by_seat",
        "draws",
        "mingtang_counts",
        "mean_di",
        "mean_score_by_seat",
    ):
        assert one[key] == two[key], key
    assert one["games"] == 60 and one["draws"] + sum(one["wins_by_seat"]) == 60
    assert one["engine"] == ("compiled" if paohuzi.compiled() else "pure")  # an extension
    assert one["kernel"] is paohuzi._native.kernel()  # the evaluator's C kernel
    # zero-sum payments (R37): every seat's mean score adds up to nothing
    assert abs(sum(one["mean_score_by_seat"])) < 1e-3  # means are rounded to 4 places
    other = run_json(capsys, "simulate", "--games", "60", "--seed", "8", "--workers", "1", "--json")
    assert other != {
        **one,
        "seconds": other["seconds"],
        "games_per_second": other["games_per_second"],
    }


def test_records_replay_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(
        capsys,
        "simulate",
        "--games",
        "25",
        "--seed",
        "3",
        "--records",
        str(tmp_path),
        "--json",
        "--workers",
        "2",
    )
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == out["games"] == 25
    for f in files:
        assert main(["replay", "--check", str(f)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["replay", str(files[0])]) == 0
    text = capsys.readouterr().out
    assert "亮张" in text and "摸" in text


def test_replay_check_finds_a_tampered_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_json(
        capsys, "simulate", "--games", "1", "--seed", "4", "--records", str(tmp_path), "--json"
    )
    f = next(tmp_path.glob("*.json"))
    rec = json.loads(f.read_text(encoding="utf-8"))
    rec["deck"][0], rec["deck"][-1] = rec["deck"][-1], rec["deck"][0]  # a different deal
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec), encoding="utf-8")
    assert main(["replay", "--check", str(bad)]) == 1
    assert capsys.readouterr().err.strip()


def _leaves(d: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every number, string, boolean and null in a JSON value."""
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _leaves(v, (*path, i))
    else:
        yield path


def test_replay_check_compares_the_whole_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """INTERFACES §3: ``replay --check`` exits 0 only if the outcome matches the recorded
    one — every value of ``result`` (等, 番, 名堂, 醒, the discarder, the settlement's 门子
    and payments …), changed one at a time or dropped, fails it, naming the place."""
    argv = ["simulate", "--games", "12", "--seed", "5", "--bots", "greedy"]
    run_json(
        capsys, *argv, "--rules", "yongzhou:xing_double=on", "--records", str(tmp_path), "--json"
    )
    recs = [json.loads(f.read_text(encoding="utf-8")) for f in sorted(tmp_path.glob("*.json"))]
    rec = next(r for r in recs if r["result"].get("winner") is not None and r["result"].get("xing"))
    bad = tmp_path / "bad" / "bad.json"
    bad.parent.mkdir()
    paths = list(_leaves(rec["result"]))
    assert len(paths) > 40  # (the settlement's 门子 and the position's cards among them)
    for path in [*paths[:: max(1, len(paths) // 30)], ("xing",), ("settlement", "di")]:
        changed = json.loads(json.dumps(rec))
        node = changed["result"]
        for k in path[:-1]:
            node = node[k]
        old = node[path[-1]]
        node[path[-1]] = (not old) if isinstance(old, bool) else 9999 if old != 9999 else 1
        bad.write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
        assert main(["replay", "--check", str(bad)]) == 1, path
        err = capsys.readouterr().err
        if path[0] != "position":  # (a changed position stops the replay's re-settling)
            assert "result." + str(path[0]) in err, (path, err)
        del node[path[-1]]
        bad.write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
        assert main(["replay", "--check", str(bad)]) == 1, path  # dropped: fails too
        capsys.readouterr()


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "0"],
        ["simulate", "--games", "5", "--bots", "nobot"],
        ["simulate", "--games", "5", "--bots", "random,random"],
        ["simulate", "--games", "5", "--rules", "nowhere"],
        ["simulate", "--games", "5", "--workers", "0"],
    ],
)
def test_simulate_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("paohuzi simulate:")


def test_replay_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    assert main(["replay", str(junk)]) == 2
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["{}", '{"schema": "nope"}', "[]", '{"schema": 1, "deck": 3}'])
def test_replay_refuses_what_is_not_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Shown or checked, a JSON value that is not a §4 record is bad input (exit 2, one
    line naming it): ``{}`` was printed as a blank record with exit 0."""
    f = tmp_path / "x.json"
    f.write_text(text, encoding="utf-8")
    for argv in (["replay", str(f)], ["replay", "--check", str(f)]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and "is not a game record" in err


def test_replay_takes_rules_that_the_records_must_have(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """INTERFACES: every command takes ``--rules``; ``replay`` replays a record under its
    own rules, and with ``--rules`` a record played under others fails (exit 1)."""
    argv = ["simulate", "--games", "3", "--seed", "2", "--records", str(tmp_path), "--json"]
    run_json(capsys, *argv, "--rules", "guilin:zimo=unit")
    assert main(["replay", "--check", str(tmp_path), "--rules", "guilin:zimo=unit"]) == 0
    assert "3 of 3 records ok" in capsys.readouterr().out
    assert main(["replay", "--check", str(tmp_path), "--rules", "guilin"]) == 1
    err = capsys.readouterr().err
    assert "played under rules 'guilin:zimo=unit', not those of --rules 'guilin'" in err
    one = str(next(tmp_path.glob("*.json")))
    assert main(["replay", one, "--rules", "hunan"]) == 1
    assert main(["replay", one, "--rules", "nowhere"]) == 2
    capsys.readouterr()
    assert main(["replay", one, "--rules", "guilin:zimo=unit"]) == 0
    assert "规则 guilin" in capsys.readouterr().out
