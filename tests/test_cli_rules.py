"""``paohuzi rules [PRESET] [--json]`` and the shared ``--rules`` loader (PRESETS.md)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from paohuzi.cli.common import load_rules
from paohuzi.cli.main import main
from paohuzi.core.rules import PRESETS, Rules, RulesError


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["rules", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_json_round_trips(capsys, name):
    """--json prints Rules.to_dict(); reading it back gives the same preset."""
    status, out, err = run(capsys, name, "--json")
    assert status == 0 and err == ""
    d = json.loads(out)
    assert d["name"] == name
    assert Rules.from_dict(d) == PRESETS[name]


def test_json_preset_values(capsys):
    """PRESETS.md: 泸州 min 10 胡息, wins on discards; hunan min 15 (R23)."""
    luzhou = json.loads(run(capsys, "luzhou", "--json")[1])
    hunan = json.loads(run(capsys, "--json")[1])  # default preset
    assert (luzhou["min_huxi"], luzhou["win_on_discard"]) == (10, True)
    assert (hunan["name"], hunan["min_huxi"], hunan["win_on_discard"]) == ("hunan", 15, False)


def test_table_lists_every_field_in_chinese(capsys):
    status, out, err = run(capsys, "hunan")
    assert status == 0 and err == ""
    for key in Rules().to_dict():
        assert key in out, key
    for zh in ("起胡胡息", "胡息表", "名堂", "翻倍", "海底胡", "红胡", "耍猴", "全花样"):
        assert zh in out, zh


def test_table_shows_preset_differences(capsys):
    """常德 has 听胡 and 团圆 and no doubling; hunan has neither 名堂."""
    changde = run(capsys, "changde")[1]
    hunan = run(capsys, "hunan")[1]
    assert "听胡" in changde and "团圆" in changde
    assert "听胡" not in hunan and "团圆" not in hunan


def test_rules_file(capsys, tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('preset = "changde"\nmin_huxi = 12\n', encoding="utf-8")
    d = json.loads(run(capsys, str(f), "--json")[1])
    assert (d["name"], d["min_huxi"]) == ("changde", 12)


@pytest.mark.parametrize("json_mode", [False, True])
def test_unknown_preset(capsys, json_mode):
    status, out, err = run(capsys, "nosuch", *(["--json"] if json_mode else []))
    assert status == 2 and len(err.splitlines()) == 1 and "nosuch" in err
    if json_mode:
        assert json.loads(out)["error"] == "invalid_input"
    else:
        assert out == ""


# -- load_rules: the --rules loader every command shares ---------------------------------------
def test_load_rules_preset_and_default():
    assert load_rules(None) == PRESETS["hunan"]
    assert load_rules("luzhou") == PRESETS["luzhou"]


def test_load_rules_json_and_record(tmp_path):
    """A plain rules object, or a game record (§4) whose ``rules`` is used."""
    plain = tmp_path / "r.json"
    plain.write_text(json.dumps({"preset": "luzhou", "players": 3, "sit_out": False}))
    assert load_rules(str(plain)).players == 3
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"schema": 1, "rules": PRESETS["changde"].to_dict(), "seed": 7}))
    assert load_rules(str(record)) == PRESETS["changde"]


@pytest.mark.parametrize(
    "content", ["players = 9", "nonsense = 1", "min_huxi = ", "sit_out = true\nplayers = 3"]
)
def test_load_rules_rejects_bad_files(tmp_path, content):
    f = tmp_path / "bad.toml"
    f.write_text(content, encoding="utf-8")
    with pytest.raises(RulesError, match=r"bad\.toml"):
        load_rules(str(f))


def test_load_rules_missing_file(tmp_path):
    with pytest.raises(RulesError, match="does not exist"):
        load_rules(str(tmp_path / "absent.json"))


def test_console_script():
    exe = shutil.which("paohuzi")
    cmd = [exe] if exe else [sys.executable, "-m", "paohuzi.cli.main"]
    p = subprocess.run(
        [*cmd, "rules", "changde", "--json"],
        capture_output=True, text=True, encoding="utf-8", timeout=60,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["name"] == "changde"


def test_rules_without_a_preset_lists_them(capsys):
    """``paohuzi rules`` lists the presets (docs/calculator.md: "paohuzi rules lists
    them"); with ``--json`` it still prints the default preset's rules."""
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for name in PRESETS:
        assert name in out
    assert "永州扯胡子" in out and "衡阳六胡抢" in out
    assert main(["rules", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "hunan"
