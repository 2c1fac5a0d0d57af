"""``paohuzi simulate --match``: whole matches (R38) with dealer rotation (R6) and 黄番 streaks."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from paohuzi.cli.main import main
from paohuzi.core.records import check
from paohuzi.core.rules import preset

NAME = re.compile(r"match-(\d{6})-hand-(\d{2,})\.json")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def load_matches(directory: Path) -> dict[int, list[dict]]:
    """Records by match index, each match's hands in play order (from the file names)."""
    by_match: dict[int, dict[int, dict]] = defaultdict(dict)
    for f in directory.iterdir():
        m = NAME.fullmatch(f.name)
        assert m, f"unexpected record name {f.name}"
        by_match[int(m[1])][int(m[2])] = json.loads(f.read_text(encoding="utf-8"))
    out = {}
    for i, hands in by_match.items():
        assert sorted(hands) == list(range(len(hands))), f"match {i}: hands missing"
        out[i] = [hands[k] for k in range(len(hands))]
    return out


# changde has 黄番 (huangzhuang.fan = [2, 3]); random bots draw ~95 % of its hands, so 24
# matches see dozens of dealer passes and several wins (some after 荒庄). luzhou (4 seats,
# 坐底, no 黄番) checks the same rules where one seat sits out; its few wins are not required.
@pytest.mark.parametrize(
    ("preset_name", "matches", "every_branch"), [("changde", 24, True), ("luzhou", 8, False)]
)
def test_match_records_follow_R6_and_carry_huang(
    preset_name: str,
    matches: int,
    every_branch: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """R6: the winner deals; 荒庄 keeps the dealer; after ``pass_after`` 荒庄 in a row the
    下家 deals. Each hand is dealt with the 荒庄 streak before it (黄番 multiplies the win)."""
    rules = preset(preset_name)
    out = run_json(
        capsys,
        *("simulate", "--match", "--games", str(matches), "--rules", preset_name),
        *("--seed", "5", "--workers", "2", "--records", str(tmp_path), "--json"),
    )
    recs = load_matches(tmp_path)
    hands = rules.hands_per_match
    assert len(recs) == out["matches"] == matches
    assert out["games"] == matches * hands == out["hands_per_match"] * matches
    seen = Counter()
    huang_hist: Counter[int] = Counter()
    totals = [0] * rules.players
    for match in recs.values():
        assert len(match) == hands
        dealer, streak, in_row = match[0]["dealer"], 0, 0
        for rec in match:
            assert check(rec) == [], check(rec)
            assert rec["dealer"] == dealer and rec["huang"] == streak
            assert rec["bots"] == ["random"] * rules.players
            if rules.sit_out:  # 坐底: the seat opposite the dealer is not dealt in
                assert rec["result"]["scores"][(dealer + rules.players // 2) % rules.players] == 0
            huang_hist[rec["huang"]] += 1
            res = rec["result"]
            for s, v in enumerate(res["scores"]):
                totals[s] += v
            if res["winner"] is None:
                seen["huangzhuang"] += 1
                streak += 1
                in_row += 1
                if in_row == rules.huangzhuang.pass_after:
                    dealer, in_row = (dealer + 1) % rules.players, 0
                    seen["passed"] += 1
            else:
                mult = res["settlement"]["huang_multiplier"]
                assert mult == rules.huangzhuang.multiplier(streak)
                seen["huangfan"] += mult > 1
                seen["new_dealer"] += res["winner"] != dealer
                dealer, streak, in_row = res["winner"], 0, 0
    assert seen["huangzhuang"] and seen["passed"]
    if every_branch:  # a winner other than the dealer took the deal; 黄番 paid
        assert seen["new_dealer"] and seen["huangfan"]
    if not rules.huangzhuang.fan:
        assert not seen["huangfan"]
    assert out["draws"] == seen["huangzhuang"]
    assert out["hands_by_huang"] == {str(k): v for k, v in sorted(huang_hist.items())}
    assert out["mean_match_score_by_seat"] == [round(t / matches, 4) for t in totals]
    f = next(iter(sorted(tmp_path.iterdir())))
    assert main(["replay", "--check", str(f)]) == 0


def test_match_same_seed_same_games_whatever_the_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = []
    for w in ("1", "2"):
        d = tmp_path / w
        out = run_json(
            capsys,
            *("simulate", "--match", "--games", "5", "--hands-per-match", "3"),
            *("--rules", "changde", "--seed", "11", "--workers", w),
            *("--records", str(d), "--json"),
        )
        for k in ("seconds", "games_per_second", "workers"):
            out.pop(k)
        files = {f.name: f.read_bytes() for f in d.iterdir()}
        runs.append((out, files))
    assert runs[0] == runs[1]
    out, files = runs[0]
    assert out["games"] == 15 and out["hands_per_match"] == 3 and len(files) == 15
    assert "match-000004-hand-02.json" in files
    d = tmp_path / "other"
    run_json(
        capsys,
        *("simulate", "--match", "--games", "5", "--hands-per-match", "3"),
        *("--rules", "changde", "--seed", "12", "--workers", "1"),
        *("--records", str(d), "--json"),
    )
    other = {f.name: json.loads(f.read_bytes())["deck"] for f in d.iterdir()}
    assert other.keys() == files.keys()
    assert all(other[k] != json.loads(files[k])["deck"] for k in files)  # other seed, other deals


def test_lone_hands_keep_their_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --match nothing changes: no match keys, lone hands dealt with huang 0."""
    out = run_json(
        capsys,
        *("simulate", "--games", "4", "--workers", "1", "--bots", "greedy,random,random"),
        *("--records", str(tmp_path), "--json"),
    )
    assert not {"matches", "hands_per_match", "hands_by_huang"} & set(out)
    names = sorted(f.name for f in tmp_path.iterdir())
    assert names == [f"hand-{i:06d}.json" for i in range(4)]
    for name in names:
        rec = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        assert rec["huang"] == 0 and rec["bots"] == ["greedy", "random", "random"]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--hands-per-match", "3"], "needs --match"),
        (["--match", "--hands-per-match", "0"], "--hands-per-match"),
        (["--match", "--hands-per-match", "101"], "--hands-per-match"),
        (["--match", "--games", "0"], "--games"),
    ],
)
def test_match_bad_input(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    games = [] if "--games" in argv else ["--games", "2"]
    assert main(["simulate", *games, *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("paohuzi simulate:") and needle in err[0]


def test_records_dir_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "file"
    f.write_text("x", encoding="utf-8")
    assert main(["simulate", "--games", "2", "--match", "--records", str(f / "sub")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--records" in err[0]


@pytest.mark.parametrize("players", [2, 3])
def test_a_race_match_plays_to_its_end(
    players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R45 (娄底): every match goes on until the hand in which a running total reaches the
    target — not one hand more — or to the safety cap of hands; a match's score is the
    pairwise settlement of its rounded totals (each record's hand scores summed)."""
    from paohuzi.core.match import race_final

    rules = preset("loudi").with_players(players)
    out = run_json(
        capsys,
        *("simulate", "--match", "--games", "6", "--rules", "loudi", "--players", str(players)),
        *("--bots", "greedy", "--seed", "3", "--workers", "1"),
        *("--records", str(tmp_path), "--json"),
    )
    recs = load_matches(tmp_path)
    assert out["matches"] == len(recs) == 6 and out["games"] == sum(map(len, recs.values()))
    finals = []
    reached = 0
    for hands in recs.values():
        run = [0] * players
        for rec in hands:
            assert max(run) < rules.race.target, "a hand after the race was won"
            assert check(rec) == []
            run = [a + b for a, b in zip(run, rec["result"]["scores"], strict=True)]
        assert max(run) >= rules.race.target or len(hands) == rules.hands_per_match
        reached += max(run) >= rules.race.target
        finals.append(race_final(rules.race, run))
    assert reached >= 4  # greedy bots finish most races well before the cap
    mean = [sum(f[s] for f in finals) / len(finals) for s in range(players)]
    assert out["mean_match_score_by_seat"] == pytest.approx(mean, abs=1e-3)
