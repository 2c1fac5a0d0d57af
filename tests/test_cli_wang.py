"""``paohuzi simulate`` / ``replay --check`` / ``score`` with 王 (R39–R40, INTERFACES §4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paohuzi.cli.main import main
from paohuzi.core.records import HandRecord, check
from paohuzi.core.rules import HUNAN


@pytest.mark.parametrize(("wang", "bots"), [(1, "random"), (2, "greedy"), (4, "greedy")])
def test_simulated_wang_hands_replay_and_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], wang: int, bots: str
) -> None:
    """~200 hands with 王 from a rules file (hunan + wang), records written, then
    ``replay --check`` finds every one ok; the deck names each 王 ``w`` and a win
    with 王 records the position (``w`` in the hand) and the 王 assignment."""
    rules = tmp_path / "wang.toml"
    rules.write_text(HUNAN.replace(name=f"hunan_w{wang}", wang=wang).to_toml(), encoding="utf-8")
    out = tmp_path / "rec"
    argv = ["simulate", "--games", "200", "--seed", str(wang), "--workers", "1"]
    assert main([*argv, "--bots", bots, "--rules", str(rules), "--records", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", "--check", str(out)]) == 0
    assert "200 of 200 records ok" in capsys.readouterr().out
    wild, narrated = 0, False
    for f in sorted(out.glob("*.json")):
        rec = json.loads(f.read_text(encoding="utf-8"))
        assert rec["deck"].count("w") == wang and len(rec["deck"]) == 80 + wang
        assert HandRecord.from_dict(rec).to_dict() == rec
        res = rec["result"]
        pos = res.get("position") or {}
        if "w" in pos.get("hand", "").split() or pos.get("win") == "w":
            wild += 1
            assert pos["self_drawn"] is True and res.get("discarder") is None  # R40
            n = pos["hand"].split().count("w") + (pos.get("win") == "w")
            assert len(res["settlement"]["wang"]) == n
            if not narrated:  # `paohuzi replay` tells what each 王 became (R40)
                assert main(["replay", str(f)]) == 0
                text = capsys.readouterr().out
                assert (
                    "王 作 "
                    + "".join(
                        {"x": "一二三四五六七八九十", "d": "壹贰叁肆伍陆柒捌玖拾"}[c[0]][
                            int(c[1:]) - 1
                        ]
                        for c in res["settlement"]["wang"]
                    )
                    in text
                )
                narrated = True
    assert wild > 0


def test_a_tampered_wang_record_fails_the_check(tmp_path: Path) -> None:
    """A record whose deck lost its 王 (or gained one) is refused by the check."""
    from paohuzi.core.state import GameState

    st = GameState(HUNAN.replace(wang=2), seed=5)
    rec = json.loads(json.dumps(HandRecord.of(st).to_dict()))
    i = rec["deck"].index("w")
    rec["deck"][i] = "x1"
    assert check(rec)


def test_simulated_pattern_wins_replay_and_pass_the_referee(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R41 end to end: hunan + 2 王 + yongzhou's pattern 番, 300 greedy hands; every
    record replays ok, the referee finds 0 problems, and pattern wins happen — each a
    ``hu`` action and event with its ``pattern``, the position and 番 line carrying it."""
    import referee

    rules = tmp_path / "wang.toml"
    r = HUNAN.replace(name="hunan_pat", wang=2, wang_fan=(4, 8, 8, 16, 16, 32))
    rules.write_text(r.to_toml(), encoding="utf-8")
    out = tmp_path / "rec"
    argv = ["simulate", "--games", "300", "--seed", "5", "--workers", "1", "--bots", "greedy"]
    assert main([*argv, "--rules", str(rules), "--records", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", "--check", str(out)]) == 0
    assert "300 of 300 records ok" in capsys.readouterr().out
    patterns = 0
    for f in sorted(out.glob("*.json")):
        rec = json.loads(f.read_text(encoding="utf-8"))
        assert referee.check(rec) == [], f.name
        hu = [e for e in rec["events"] if e["type"] == "hu" and e.get("pattern")]
        if hu:
            patterns += 1
            pat = hu[0]["pattern"]
            assert any(a.get("pattern") == pat for a in rec["actions"])
            assert rec["result"]["position"]["pattern"] == pat
            ids = [m["id"] for m in rec["result"]["settlement"]["mingtang"]]
            assert pat in ids and "zimo" not in ids
    assert patterns > 0


# -- `paohuzi score` with 王 (R39–R41) -------------------------------------------------------
# 一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 and 拾 + 王: the 王 completes 拾拾拾 (6) on a 拾
WANG_HAND = "一二三四五六七八九壹贰叁肆伍陆柒捌玖拾王"


@pytest.fixture
def wang_rules(tmp_path: Path) -> str:
    """hunan with 2 王 and yongzhou's pattern 番 (PRESETS.md), as a rules file."""
    f = tmp_path / "w2.toml"
    r = HUNAN.replace(name="hunan_w2", wang=2, wang_fan=(4, 8, 8, 16, 16, 32))
    f.write_text(r.to_toml(), encoding="utf-8")
    return str(f)


def _score(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_with_wang_in_the_hand(capsys: pytest.CaptureFixture[str], wang_rules: str) -> None:
    """R40: the 王 becomes the card that scores best (拾: 坎 拾拾拾, 6 胡息; 3 + 6 + 6 = 15),
    the breakdown shows the 王 held and what it became; JSON carries the assignment."""
    code, out, _ = _score(capsys, WANG_HAND, "--win", "拾", "--self-drawn", "--rules", wang_rules)
    assert code == 0
    assert "一二三四五六七八九壹贰叁肆伍陆柒捌玖拾王" in out  # the hand line shows its 王
    assert "as 拾" in out and "拾拾拾" in out
    code, out, _ = _score(
        capsys, WANG_HAND, "--win", "拾", "--self-drawn", "--rules", wang_rules, "--json"
    )
    s = json.loads(out)
    assert code == 0 and s["win"] and s["huxi"] == 15 and s["wang"] == ["d10"]
    # a drawn 王 as the winning card: two 王 stand for 贰 and 柒 (贰柒拾, 6)
    code, out, _ = _score(capsys, WANG_HAND, "--win", "王", "--rules", wang_rules, "--json")
    s = json.loads(out)
    assert code == 0 and s["win"] and s["huxi"] == 15 and sorted(s["wang"]) == ["d2", "d7"]


def test_score_refuses_a_wang_holders_win_on_another_players_card(
    capsys: pytest.CaptureFixture[str], wang_rules: str
) -> None:
    """R40: holding a 王, only 自摸 or a pattern — a plain win on another's card (or 地胡,
    the dealer's discard) is refused with the rule named, in both modes."""
    for extra in ([], ["--dihu"]):
        code, out, err = _score(capsys, WANG_HAND, "--win", "拾", "--rules", wang_rules, *extra)
        assert code == 2 and out == ""
        assert "holding a 王" in err and "R40" in err
    code, out, err = _score(capsys, WANG_HAND, "--win", "拾", "--rules", wang_rules, "--json")
    assert code == 2 and json.loads(out)["error"] == "invalid_input" and "R40" in err


def test_score_batch_refuses_it_in_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], wang_rules: str
) -> None:
    """--batch: the bad line is answered in place, the good ones still scored."""
    f = tmp_path / "in.jsonl"
    lines = [
        {"hand": WANG_HAND, "win": "拾", "self_drawn": True},
        {"hand": WANG_HAND, "win": "拾"},
        {"hand": WANG_HAND.replace("捌玖", "王王"), "win": "拾", "self_drawn": True},
    ]
    f.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), encoding="utf-8")
    code, out, err = _score(capsys, "--batch", str(f), "--rules", wang_rules)
    got = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(got) == 3
    assert got[0]["win"] and got[0]["wang"] == ["d10"]
    assert got[1]["error"] == "invalid_input" and "R40" in got[1]["message"]
    assert got[2]["error"] == "invalid_input" and "deal 2 (R39)" in got[2]["message"]
    assert "line 2:" in err and "line 3:" in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        # five 王: a deck holds at most 4 (R39)
        (["一二三四五六七八九壹贰叁肆伍陆王王王王王", "--win", "拾", "--self-drawn"], "at most 4"),
        (["一二三四五六七八九壹贰叁肆伍陆柒王王王王", "--win", "王"], "at most 4"),
        # a 王 in a table meld: never 吃'd, never used in a 吃/比 (R39)
        (
            ["四五六七八九壹贰叁肆伍陆柒捌玖拾王", "--table", "chi:一二王", "--win", "拾"],
            "never in a table meld",
        ),
        (
            ["四五六七八九壹贰叁肆伍陆柒捌玖拾王", "--table", "chi:x1x2w", "--win", "拾"],
            "never in a table meld",
        ),
        (["一二三四五六七八九壹贰叁肆伍陆柒拾王", "--table", "peng:w", "--win", "拾"], "R39"),
    ],
)
def test_score_refuses_five_wang_and_a_wang_in_a_meld(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    """Bad input gets one clear line on stderr, exit 2, and nothing on stdout."""
    code, out, err = _score(capsys, *argv)
    assert code == 2 and out == "", out
    assert says in err and err.startswith("paohuzi score: error:"), err
    assert "Traceback" not in err


def test_score_says_how_many_wang_the_rules_deal(
    capsys: pytest.CaptureFixture[str], wang_rules: str
) -> None:
    """R39: three 王 where the rules deal two is refused, naming both counts."""
    hand = "一二三四五六七八九壹贰叁肆伍陆柒捌王王王"
    code, _, err = _score(capsys, hand, "--win", "拾", "--self-drawn", "--rules", wang_rules)
    assert code == 2 and "3 王, but these rules (hunan_w2) deal 2 (R39)" in err


def test_the_breakdown_names_the_card_each_wang_stood_for_in_its_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R40: ``score``'s 门子 table gains a column ``王 as`` on a hand with 王: the 坎 that
    the 王 completed names 拾 there, and no other 门子 names anything."""
    rules = tmp_path / "w2.toml"
    rules.write_text(HUNAN.replace(name="hunan_w2", wang=2).to_toml(), encoding="utf-8")
    hand = "一二三四五六七八九壹贰叁肆伍陆柒捌玖拾王"
    argv = ["score", hand, "--win", "拾", "--self-drawn", "--rules", str(rules)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "王 as" in next(line for line in lines if "门子 group" in line)
    rows = [line.split() for line in lines if line.split()[:1] in (["1"], ["4"], ["7"])]
    assert rows[-1][1:] == ["坎", "kan", "拾拾拾", "6", "拾"], rows
    assert all(len(r) == 5 for r in rows[:-1]), rows  # (#, 句, run, cards, 胡息): no 王
    assert main(["score", "一二三四五六七八九壹贰叁肆伍陆柒捌玖拾拾", "--win", "拾"]) == 0
    assert "王 as" not in capsys.readouterr().out  # no 王, no column
