"""``paohuzi score`` (INTERFACES.md §1): readable, ``--json`` and ``--batch`` modes, bad input.

Expected figures are worked out by hand from R9/R22–R37 (and the spec's
score vectors), not copied from the implementation.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys

import pytest

from paohuzi.cli.common import cards_text
from paohuzi.cli.main import main
from paohuzi.cli.score import score_line
from paohuzi.core.cards import Card
from paohuzi.core.rules import preset

# The Done-when position (R9): 碰拾 3 + 吃一二三 3 + 偎七 3 + 句壹贰叁 6
# + 四五六, 八九十, 绞八八捌 0 = 15 胡息 → 1 等 (R34), 平胡 番 1, 底 1 (R37).
DONE_WHEN = ["四五六八八九十壹贰叁捌", "--win", "八"]
DONE_TABLE = ["--table", "peng:拾", "--table", "chi:一二三", "--table", "wei:七"]
ASCII = ["x4 x5 x6 x8 x8 x9 x10 d1 d2 d3 d8", "--win", "x8"]
ASCII_TABLE = ["--table", "peng:d10", "--table", "chi:x1x2x3", "--table", "wei:x7"]
PINGHU_LINE = {
    "hand": "四五六八八九十壹贰叁捌",
    "table": ["peng:d10", "chi:一二三", "wei:x7"],
    "win": "八",
    "self_drawn": False,
    "last_card": False,
}


COLOUR_VARS = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")  # would force escapes


@pytest.fixture(autouse=True)
def plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in COLOUR_VARS:
        monkeypatch.delenv(var, raising=False)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["score", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:
    status, out, err = run(capsys, *argv, "--json")
    lines = out.splitlines()
    assert len(lines) == 1, out  # exactly one JSON object
    return status, json.loads(lines[0]), err


# -- the Done-when example, both notations ------------------------------------------------------
def test_done_when_json(capsys):
    status, obj, err = run_json(capsys, *DONE_WHEN, *DONE_TABLE)
    assert status == 0 and err == ""
    assert obj["win"] is True and obj["error"] is None
    assert (obj["huxi"], obj["deng"], obj["fan"], obj["di"]) == (15, 1, 1, 1)
    assert obj["mingtang"] == []
    assert len(obj["groups"]) == 7  # R22: exactly 7 门子
    assert sum(g["huxi"] for g in obj["groups"]) == 15
    assert {"kind": "peng", "cards": "拾拾拾", "huxi": 3} in obj["groups"]
    assert {"kind": "ju", "cards": "壹贰叁", "huxi": 6} in obj["groups"]


def test_ascii_notation_same_result(capsys):
    """R4: x/d codes and Chinese characters mean the same cards."""
    _, zh, _ = run_json(capsys, *DONE_WHEN, *DONE_TABLE)
    _, ascii_, _ = run_json(capsys, *ASCII, *ASCII_TABLE)
    assert ascii_ == zh


def test_hand_may_be_split_over_arguments(capsys):
    _, obj, _ = run_json(capsys, *ASCII[0].split(), "--win", "x8", *ASCII_TABLE)
    assert obj["huxi"] == 15


def test_readable_breakdown(capsys):
    status, out, err = run(capsys, *DONE_WHEN, *DONE_TABLE)
    assert status == 0 and err == ""
    for text in (
        "拾拾拾",
        "一二三",
        "七七七",
        "壹贰叁",
        "碰",
        "吃",
        "偎",
        "胡息",
        "等",
        "底",
        "平胡",
    ):
        assert text in out, text
    assert "15" in out
    assert "not a win" not in out


def test_self_drawn_adds_one_deng(capsys):
    """R34: 自摸 +1 等 → 2 等, 底 2; the breakdown shows the bonus."""
    _, obj, _ = run_json(capsys, *DONE_WHEN, *DONE_TABLE, "--self-drawn")
    assert (obj["huxi"], obj["deng"], obj["di"]) == (15, 2, 2)
    _, out, _ = run(capsys, *DONE_WHEN, *DONE_TABLE, "--self-drawn")
    assert "自摸" in out


def test_last_card_doubles_huxi(capsys):
    """R35: 海底 doubles H before R34: 30 → 6 等; ``huxi`` stays the undoubled 15."""
    _, obj, _ = run_json(capsys, *DONE_WHEN, *DONE_TABLE, "--last-card")
    assert (obj["huxi"], obj["deng"], obj["fan"], obj["di"]) == (15, 6, 1, 6)
    _, out, _ = run(capsys, *DONE_WHEN, *DONE_TABLE, "--last-card")
    assert "海底" in out and "30" in out


def test_mingtang_shown(capsys):
    """R36 乌胡 5 + 对子胡 5 = 10 番 (the spec's wu-duizi vector): 31 胡息, 6 等, 底 60."""
    argv = ["三三三四四四五", "--win", "五", "--table", "ti:d1", "--table", "pao:d3",
            "--table", "peng:x6", "--table", "wei:x8"]  # fmt: skip
    _, obj, _ = run_json(capsys, *argv)
    assert (obj["huxi"], obj["deng"], obj["fan"], obj["di"]) == (31, 6, 10, 60)
    assert sorted((m["name"], m["fan"]) for m in obj["mingtang"]) == [("乌胡", 5), ("对子胡", 5)]
    _, out, _ = run(capsys, *argv)
    assert "乌胡" in out and "对子胡" in out and "60" in out


def test_below_min_huxi(capsys):
    """R23: 碰七 instead of 偎七 leaves 13 胡息 < 15: not a win, reason given, exit 0."""
    argv = [*DONE_WHEN, "--table", "peng:拾", "--table", "chi:一二三", "--table", "peng:七"]
    status, obj, _ = run_json(capsys, *argv)
    assert status == 0
    assert obj["win"] is False and obj["error"] == "below_min_huxi" and obj["huxi"] == 13
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == ""
    assert "not a win" in out and "13" in out and "15" in out


def test_not_winning(capsys):
    """R22: swap 捌 for 玖 in the hand and 八 no longer completes 7 门子."""
    argv = ["四五六八八九十壹贰叁玖", "--win", "八", *DONE_TABLE]
    _, obj, _ = run_json(capsys, *argv)
    assert obj["win"] is False and obj["error"] == "not_winning"
    _, out, _ = run(capsys, *argv)
    assert "not a win" in out and "7-门子" in out


def test_card_colours():
    """R3 red cards are red; 大字 are bold; 八 is plain."""
    styles = {span.start: str(span.style) for span in cards_text([Card.X7, Card.D8, Card.D7]).spans}
    assert "red" in styles[0] and "bold" not in styles[0]
    assert "bold" in styles[1] and "red" not in styles[1]
    assert "red" in styles[2] and "bold" in styles[2]
    assert cards_text([Card.X8]).spans == []


# -- bad input: exit 2, one stderr line, stdout empty or exactly the invalid_input object --------
BAD = {
    "unknown card": ["四五六八八九十壹贰叁z", "--win", "八", *DONE_TABLE],
    "unknown win card": [*DONE_WHEN[:2], "q", *DONE_TABLE],
    "two win cards": [DONE_WHEN[0], "--win", "八九", *DONE_TABLE],
    "five of a kind": ["四五六七七九十壹贰叁捌", "--win", "八", *DONE_TABLE],  # 七七 + 偎七
    "five in hand": ["五五五五五六六六七七七", "--win", "八", *DONE_TABLE],
    "meld without colon": [*DONE_WHEN, "--table", "peng", "--table", "chi:一二三",
                           "--table", "wei:七"],
    "unknown meld kind": [*DONE_WHEN, "--table", "foo:拾", "--table", "chi:一二三",
                          "--table", "wei:七"],
    "chi not a run": [*DONE_WHEN, "--table", "peng:拾", "--table", "chi:一二四",
                      "--table", "wei:七"],
    "kan is not a table meld": [*DONE_WHEN, "--table", "kan:拾", "--table", "chi:一二三",
                                "--table", "wei:七"],
    "hand too short": ["四五六八八九十壹贰叁", "--win", "八", *DONE_TABLE],
    "four in hand": ["四四四四八九十壹贰叁捌", "--win", "八", *DONE_TABLE],
    "missing win": [DONE_WHEN[0], *DONE_TABLE],
    "missing hand": ["--win", "八", *DONE_TABLE],
    "unknown preset": [*DONE_WHEN, *DONE_TABLE, "--rules", "nosuch"],
    "missing rules file": [*DONE_WHEN, *DONE_TABLE, "--rules", "/nonexistent/rules.toml"],
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_plain(capsys, case):
    status, out, err = run(capsys, *BAD[case])
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("paohuzi score: error: ")
    assert "Traceback" not in err


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_json(capsys, case):
    status, out, err = run(capsys, *BAD[case], "--json")
    assert status == 2
    assert len(err.splitlines()) == 1
    obj = json.loads(out)  # exactly one object, nothing else
    assert obj["error"] == "invalid_input" and obj["message"]
    assert obj["message"] in err  # the same one-line reason on both streams


def test_bad_input_messages_name_the_problem(capsys):
    assert "'z'" in run(capsys, *BAD["unknown card"])[2]
    assert "5 copies of 五" in run(capsys, *BAD["five in hand"])[2]
    assert "nosuch" in run(capsys, *BAD["unknown preset"])[2]
    assert "R17" in run(capsys, *BAD["hand too short"])[2]
    assert "foo" in run(capsys, *BAD["unknown meld kind"])[2]


# -- --rules FILE ---------------------------------------------------------------------------------
def test_rules_toml_file(capsys, tmp_path):
    """A TOML file lowering min_huxi (R23) to 10 makes the 13-胡息 hand a win."""
    f = tmp_path / "low.toml"
    f.write_text('preset = "hunan"\nmin_huxi = 10\n', encoding="utf-8")
    argv = [*DONE_WHEN, "--table", "peng:拾", "--table", "chi:一二三", "--table", "peng:七"]
    _, default, _ = run_json(capsys, *argv)
    assert default["win"] is False
    status, obj, _ = run_json(capsys, *argv, "--rules", str(f))
    assert status == 0 and obj["win"] is True and obj["huxi"] == 13


def test_rules_json_file(capsys, tmp_path):
    """A JSON file raising min_huxi to 16 makes the 15-胡息 Done-when hand fall short."""
    f = tmp_path / "high.json"
    f.write_text(json.dumps({"min_huxi": 16}), encoding="utf-8")
    _, obj, _ = run_json(capsys, *DONE_WHEN, *DONE_TABLE, "--rules", str(f))
    assert obj["win"] is False and obj["error"] == "below_min_huxi" and obj["huxi"] == 15


def test_rules_preset_changde(capsys):
    """常德: 海胡 is a 6-番 名堂, not a doubling (PRESETS.md)."""
    _, obj, _ = run_json(capsys, *DONE_WHEN, *DONE_TABLE, "--last-card", "--rules", "changde")
    assert (obj["deng"], obj["fan"], obj["di"]) == (1, 6, 6)
    assert [m["name"] for m in obj["mingtang"]] == ["海胡"]


@pytest.mark.parametrize(
    "content, name",
    [
        ("min_huxi = [", "broken.toml"),
        ('{"min_huxi": ', "broken.json"),
        ('{"no_such_field": 1}', "unknown.json"),
        ('{"min_huxi": "ten"}', "wrongtype.json"),
        ("[1, 2]", "list.json"),
    ],
)
def test_bad_rules_file(capsys, tmp_path, content, name):
    f = tmp_path / name
    f.write_text(content, encoding="utf-8")
    status, out, err = run(capsys, *DONE_WHEN, *DONE_TABLE, "--rules", str(f), "--json")
    assert status == 2 and len(err.splitlines()) == 1 and name in err
    assert json.loads(out)["error"] == "invalid_input"


# -- --batch --------------------------------------------------------------------------------------
def batch_lines() -> list[str]:
    below = dict(PINGHU_LINE, table=["peng:d10", "chi:一二三", "peng:x7"])
    return [
        json.dumps(PINGHU_LINE, ensure_ascii=False),
        "{not json",
        "",
        json.dumps(dict(PINGHU_LINE, hand="四五六八八九十壹贰叁z")),
        json.dumps(dict(PINGHU_LINE, self_drawn=True)),
        json.dumps(dict(PINGHU_LINE, table=["peng:d10", "chi:一二三"])),  # wrong size (R17)
        json.dumps(below),
        json.dumps(["not", "an", "object"]),
        json.dumps(dict(PINGHU_LINE, last_card="yes")),
    ]


def check_batch_output(out: str) -> None:
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 9  # one per input line, blank and broken lines included
    good = {0: (True, 15, 1, 1), 4: (True, 15, 2, 2)}
    for i, (win, huxi, deng, di) in good.items():
        r = results[i]
        assert (r["win"], r["huxi"], r["deng"], r["di"]) == (win, huxi, deng, di), i
    assert results[6]["win"] is False and results[6]["error"] == "below_min_huxi"
    for i in (1, 2, 3, 5, 7, 8):
        assert results[i]["error"] == "invalid_input" and results[i]["message"], i


def test_batch_file_continues_after_bad_lines(capsys, tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text("\n".join(batch_lines()) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "--batch", str(f))
    check_batch_output(out)
    assert status == 2  # some lines were bad input
    assert len(err.splitlines()) == 6  # one per bad line, naming it
    assert err.splitlines()[0].startswith("paohuzi score: error: line 2: ")


def test_batch_all_good_exits_zero(capsys, tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps(PINGHU_LINE) + "\n" + json.dumps(PINGHU_LINE) + "\n")
    status, out, err = run(capsys, "--batch", str(f))
    assert status == 0 and err == ""
    assert [json.loads(x)["di"] for x in out.splitlines()] == [1, 1]


def test_batch_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(batch_lines()) + "\n"))
    status, out, _ = run(capsys, "--batch", "-")
    check_batch_output(out)
    assert status == 2


def test_batch_with_rules(capsys, tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps(PINGHU_LINE) + "\n")
    _, out, _ = run(capsys, "--batch", str(f), "--rules", "changde")
    assert json.loads(out)["di"] == 1  # 平胡 under 常德 too: 1 等 × 1 番


def test_batch_missing_file(capsys, tmp_path):
    status, out, err = run(capsys, "--batch", str(tmp_path / "nope.jsonl"))
    assert status == 2 and len(err.splitlines()) == 1 and "nope.jsonl" in err
    assert json.loads(out)["error"] == "invalid_input"


def test_batch_and_hand_conflict(capsys, tmp_path):
    status, _, err = run(capsys, *DONE_WHEN, "--batch", str(tmp_path / "x.jsonl"))
    assert status == 2 and len(err.splitlines()) == 1


# -- the installed console script -----------------------------------------------------------------
def plain_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in COLOUR_VARS}


def script() -> list[str]:
    exe = shutil.which("paohuzi")
    return [exe] if exe else [sys.executable, "-m", "paohuzi.cli.main"]


def test_console_script_json():
    p = subprocess.run(
        [*script(), "score", *DONE_WHEN, *DONE_TABLE, "--json"],
        capture_output=True, text=True, encoding="utf-8", timeout=60, env=plain_env(),
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    obj = json.loads(p.stdout)
    assert (obj["huxi"], obj["deng"], obj["di"]) == (15, 1, 1)


def test_console_script_readable_and_bad_input():
    ok = subprocess.run(
        [*script(), "score", *ASCII, *ASCII_TABLE],
        capture_output=True, text=True, encoding="utf-8", timeout=60, env=plain_env(),
    )  # fmt: skip
    assert ok.returncode == 0 and "壹贰叁" in ok.stdout and "\x1b[" not in ok.stdout  # no TTY
    bad = subprocess.run(
        [*script(), "score", "五五五五五六六六七七七", "--win", "八", *DONE_TABLE],
        capture_output=True, text=True, encoding="utf-8", timeout=60, env=plain_env(),
    )  # fmt: skip
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "Traceback" not in bad.stderr


def test_console_script_batch_stdin():
    p = subprocess.run(
        [*script(), "score", "--batch", "-"],
        input="\n".join(batch_lines()) + "\n",
        capture_output=True, text=True, encoding="utf-8", timeout=60, env=plain_env(),
    )  # fmt: skip
    check_batch_output(p.stdout)
    assert p.returncode == 2


# -- found by a researcher's pass (2026-12-05) ------------------------------------------------
NO_TI_NO_KAN = "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾一"  # 21 cards: no 提, no 坎
FIVE_KAN = "一一一二二二三三三四四四五五五六七八九十壹"  # 5 坎 with the 亮张 (R28)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        ([NO_TI_NO_KAN, "--tianhu"], "needs 3 提 or 5 坎"),  # R28: no mandatory 天胡
        ([*DONE_WHEN, *DONE_TABLE, "--self-drawn", "--dihu"], "never self-drawn"),  # R29
        ([*DONE_WHEN, *DONE_TABLE, "--tianhu", "--dihu"], "not both"),
        ([*DONE_WHEN, *DONE_TABLE, "--dihu", "--last-card"], "not 海底"),
        ([*DONE_WHEN, *DONE_TABLE, "--tianhu"], "only 提"),  # 吃/碰 before the deal ends
    ],
)
def test_deal_wins_that_cannot_occur_are_refused(capsys, argv, says):
    """天胡/地胡 come before any draw (R28, R29): the calculator refuses what cannot occur
    with exit 2 and says why (each of these was scored as a win)."""
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and says in err
    status, obj, _ = run_json(capsys, *argv)
    assert status == 2 and obj["error"] == "invalid_input" and says in obj["message"]


def test_a_mandatory_tianhu_with_its_five_kan_is_scored(capsys):
    """R28: 5 坎 (the 亮张 among the 21 cards) is a mandatory 天胡, scored without a win card."""
    status, obj, _ = run_json(capsys, FIVE_KAN, "--tianhu")
    assert status == 0 and obj["win"] and obj["doubled"] == ["tianhu"] and obj["zimo"]


def test_the_payment_line_and_pays_apply_the_cap(capsys, tmp_path):
    """封顶 (R37): 永州 with four 王, 王炸王: 底 384, each other player pays 300 (the
    vector yz-cap-300); the readable line says so and ``pays`` carries it."""
    rules = tmp_path / "yz4.toml"
    rules.write_text('preset = "yongzhou"\nwang = 4\n', encoding="utf-8")
    argv = ["伍伍伍三四五四五六八八捌九九玖一一王王王", "--win", "王", "--pattern", "wangzha_wang"]
    status, obj, _ = run_json(capsys, *argv, "--rules", str(rules))
    assert status == 0 and (obj["di"], obj["pays"]) == (384, 300)
    status, out, _ = run(capsys, *argv, "--rules", str(rules))
    assert status == 0 and "each other player pays 300 (底 384, 封顶 300)" in out
    status, obj, _ = run_json(capsys, *DONE_WHEN, *DONE_TABLE)
    assert (obj["di"], obj["pays"]) == (1, 1)
    status, out, _ = run(capsys, *DONE_WHEN, *DONE_TABLE)
    assert "each other player pays 底 1" in out


def test_a_line_nested_too_deep_or_with_a_bom_keeps_the_batch(capsys, monkeypatch):
    """A JSON line nested past the parser's depth is bad input (it aborted the batch with
    an internal error); a byte-order mark before line 1 is read past."""
    good = json.dumps(PINGHU_LINE, ensure_ascii=False)
    lines = ["\ufeff" + good, "[" * 100_000 + "]" * 100_000, good]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    status, out, err = run(capsys, "--batch", "-")
    got = [json.loads(x) for x in out.splitlines()]
    assert status == 2 and len(got) == 3
    assert got[0]["win"] and got[2]["win"] and got[1]["error"] == "invalid_input"
    assert "line 2: not a position: JSON nested too deep" in err


def test_records_after_a_huangzhuang_rescore_with_their_huang(capsys, tmp_path, monkeypatch):
    """A record's ``result.position`` with the record's ``huang`` (a batch line's key, or
    ``--huang``) re-scores to the record's 底 under 黄番 (常德: a win after 荒庄 scored
    ×2 or ×3, and re-scored without it, 1×)."""
    assert main(["simulate", "--games", "40", "--match", "--rules", "changde", "--seed", "3",
                 "--records", str(tmp_path), "--json"]) == 0  # fmt: skip
    capsys.readouterr()
    lines, want = [], []
    for f in sorted(tmp_path.rglob("*.json")):
        rec = json.loads(f.read_text(encoding="utf-8"))
        pos = rec["result"].get("position")
        if pos is not None and rec["huang"] > 0:
            lines.append(json.dumps({**pos, "huang": rec["huang"]}, ensure_ascii=False))
            want.append(rec["result"]["di"])
    assert len(want) >= 5
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    status, out, _ = run(capsys, "--batch", "-", "--rules", "changde")
    got = [json.loads(x)["di"] for x in out.splitlines()]
    assert status == 0 and got == want
    first = json.loads(lines[0])
    argv = [first["hand"], "--win", first["win"], "--rules", "changde"]
    argv += [x for t in first.get("table", []) for x in ("--table", t)]
    argv += ["--self-drawn"] * first.get("self_drawn", False)
    argv += ["--last-card"] * first.get("last_card", False)
    status, obj, _ = run_json(capsys, *argv, "--huang", str(first["huang"]))
    assert status == 0 and obj["di"] == want[0] and obj["huang_multiplier"] > 1


@pytest.mark.parametrize("bad", [-1, 1001, "2", True, 1.5, None])
def test_a_bad_huang_line_is_refused(capsys, monkeypatch, bad):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**PINGHU_LINE, "huang": bad}) + "\n"))
    status, out, err = run(capsys, "--batch", "-")
    assert status == 2 and json.loads(out)["error"] == "invalid_input" and "huang" in err


@pytest.mark.parametrize("bad", ["-1", "1001", "1.5", "two", ""])
def test_a_bad_huang_flag_is_refused(capsys, bad):
    assert main(["score", *DONE_WHEN, *DONE_TABLE, "--huang", bad]) == 2
    assert "--huang" in capsys.readouterr().err


# -- a developer's pass (2026-12-06): the checks a newcomer hit --------------------------------
GUILIN_TIANHU = ["一二三四五六七八九壹贰叁肆伍陆柒捌玖拾拾", "--win", "拾", "--rules", "guilin"]


def test_an_elective_tianhu_is_self_drawn(capsys):
    """R28: the dealer's 天胡 is won with his own 亮张: ``--tianhu`` implies ``--self-drawn``
    (the 拾拾拾 it completes is a 偎, not a 碰: the guilin-tianhu-wei vector, 底 10); a batch
    line saying 天胡 but not self-drawn is refused."""
    status, obj, _ = run_json(capsys, *GUILIN_TIANHU, "--tianhu", "--xing", "拾")
    assert status == 0 and (obj["huxi"], obj["di"]) == (15, 10), obj
    assert {"kind": "wei", "cards": "拾拾拾", "huxi": 6} in obj["groups"]
    line = {"hand": GUILIN_TIANHU[0], "win": "拾", "tianhu": True, "xing": ["拾"]}
    _, problem = score_line(json.dumps(line, ensure_ascii=False), preset("guilin"))
    assert problem is not None and "self-drawn" in problem and "R28" in problem


def test_a_xing_card_needs_a_copy_left_to_turn(capsys):
    """R1, R42: a 醒牌 turned from the wall is a card the wall still held — not a fifth 五
    after 连翻 turned the fourth, nor one of four 五 already on the winner's table."""
    hand = ["五五五一二三壹贰叁肆伍陆七八九六七八柒捌", "--win", "玖", "--self-drawn"]
    status, _, err = run(capsys, *hand, "--rules", "guilin", *["--xing", "五", "--xing", "五"])
    assert status == 2 and "all four 五" in err and "R42" in err
    status, obj, _ = run_json(capsys, *hand, "--rules", "guilin", *["--xing", "五", "--xing", "二"])
    assert status == 0 and obj["xing"] == 3 + 1  # 五 ×3 (with the 五 turned a four: 连翻), 二 ×1
    table = ["一二三壹贰叁肆伍陆七八九六七八十", "--table", "ti:五", "--win", "十"]
    status, _, err = run(capsys, *table, "--self-drawn", "--rules", "guilin", "--xing", "五")
    assert status == 2 and "all four 五" in err


def test_a_dihu_table_holds_only_ti(capsys):
    """R29: 地胡 comes before the winner draws: no 偎, 吃 or 碰 on his table."""
    argv = ["三四五六七八九九九壹壹", "--table", "wei:d8", "--table", "wei:d9"]
    status, _, err = run(capsys, *argv, "--table", "chi:x4x5x6", "--win", "壹", "--dihu")
    assert status == 2 and "R29" in err


def test_a_race_discarder_loses_what_the_winner_gains(capsys):
    """R45 (娄底): on a discard win the discarder's running total loses the hand's score
    (at most the race's cap): ``--json`` says it as ``discarder_pays``."""
    argv = ["x8 x8 x8 d1 d3 d8 d8", "--table", "chi:x1x2x3", "--table", "wei:d5"]
    argv += ["--table", "pao:x9", "--table", "wei:x6", "--win", "d2", "--rules", "loudi"]
    status, obj, _ = run_json(capsys, *argv, "--discard")
    assert status == 0 and (obj["pays"], obj["discarder_pays"]) == (27, 27)


@pytest.mark.parametrize("bad", [["--huang", "-1"], ["--pattern", "foo"]])
def test_a_bad_option_under_json_is_an_error_object(capsys, bad):
    """docs/calculator.md: bad input under ``--json`` gives the error object on stdout and
    one stderr line (argparse's own refusals too), exit 2."""
    status, obj, err = run_json(capsys, *DONE_WHEN, *bad)
    assert status == 2 and obj["error"] == "invalid_input" and bad[0] in obj["message"]
    assert len(err.splitlines()) == 1 and "usage" not in err


def test_python_dash_m_paohuzi_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "paohuzi", "score", *DONE_WHEN, *DONE_TABLE, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["di"] == 1, done.stderr


def test_a_liangzhang_that_makes_a_mandatory_tianhu_is_said_so(capsys):
    """R28: if the 亮张 gives the dealer his 5th 坎, the 天胡 is mandatory, won at the deal
    with no winning card (a newcomer got "not_winning" for it); the command says how to
    give it, and given so it wins."""
    hand = "一一一二二二三三三四四四五五五六七八九十"
    status, _, err = run(capsys, hand, "--tianhu", "--win", "壹")
    assert status == 2 and "mandatory 天胡" in err and "without --win" in err
    status, obj, _ = run_json(capsys, hand + "壹", "--tianhu")
    assert status == 0 and obj["win"] and obj["doubled"] == ["tianhu"]
