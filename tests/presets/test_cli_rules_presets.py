"""``paohuzi rules PRESET [--json|--toml]`` shows every field of every preset, in Chinese
with English glosses, and prints files that ``--rules`` reads back."""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib

import pytest

from paohuzi.cli.main import main
from paohuzi.cli.rules import FIELDS
from paohuzi.core.mingtang import PATTERNS
from paohuzi.core.rules import PRESETS, Rules

CJK = re.compile(r"[\u4e00-\u9fff]")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["rules", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_every_field_and_mingtang_has_a_chinese_name_and_a_gloss() -> None:
    # every field (yiwushi, 一五十, is written to a dict only when on)
    assert set(FIELDS) == {f.name for f in dataclasses.fields(Rules)}
    for key, (zh, gloss) in FIELDS.items():
        assert CJK.search(zh), key
        assert re.search(r"[a-z]{3}", gloss), key
    for m in PATTERNS.values():  # the name shown is the 名堂 class's own
        assert CJK.search(m.name), m.id


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_table_shows_every_field_and_every_mingtang(capsys, name: str) -> None:
    status, out, err = run(capsys, name)
    assert status == 0 and err == ""
    flat = re.sub(r"\s+", "", out)
    for key, (zh, _) in FIELDS.items():
        assert key in out and zh.replace(" ", "") in flat, key
    for m in PRESETS[name].mingtang:  # the region's own name where it has one (一点朱 …)
        assert f"{m.name or PATTERNS[m.id].name} {m.id}" in out
    for row in PRESETS[name].huxi_table.to_dict():
        assert row in out


def test_luzhou_table_says_which_mingtang_count(capsys) -> None:
    """hongwu counts only the 基本 名堂: 自摸 is listed but marked as not counting."""
    out = run(capsys, "luzhou")[1]
    zimo = next(line for line in out.splitlines() if "自摸 zimo" in line)
    wuhu = next(line for line in out.splitlines() if "乌胡 wuhu" in line)
    assert "否 no" in zimo and "是 yes" in wuhu


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_json_and_toml_output_read_back(capsys, name: str) -> None:
    d = json.loads(run(capsys, name, "--json")[1])
    t = tomllib.loads(run(capsys, name, "--toml")[1])
    assert Rules.from_dict(d) == Rules.from_dict(t) == PRESETS[name]


def test_json_and_toml_together_is_a_usage_error(capsys) -> None:
    status, out, err = run(capsys, "hunan", "--json", "--toml")
    assert status == 2 and "not allowed with" in err
    assert json.loads(out)["error"] == "invalid_input"  # (--json given: the error object)


# ------------------------------------------------------------------ 玩法 on the command line
def test_a_regions_options_by_name_on_every_rules_flag(capsys) -> None:
    """``--rules yongzhou:xing=gen,hongzhuan=on`` (every command reads --rules the same
    way): the preset played with those options; ``rules`` lists them, * on the one played."""
    status, out, err = run(capsys, "--json", "yongzhou:xing=gen, hongzhuan=on")
    d = json.loads(out)
    assert status == 0 and err == "" and (d["xing"], d["xing_offset"]) == ("gen", 0)
    assert [m["id"] for m in d["mingtang"]][:3] == ["honghu", "shisanhong", "dahong"]
    status, out, _ = run(capsys, "guilin:lianfan=off")
    flat = re.sub(r"\s+", " ", out)
    assert status == 0 and "玩法 options" in out and "*off 不带" in flat and " on 带" in flat
    status, out, _ = run(capsys, "hunan")
    # no region's options in PRESETS.md: the table holds the house's 封顶 alone
    flat = re.sub(r"\s+", " ", out)
    assert status == 0 and "玩法 options" in out and "cap 封顶" in flat
    assert "*0 now" in flat and "region's other" not in flat
    status, out, _ = run(capsys, "loudi:cap=400")
    assert "*400 now" in re.sub(r"\s+", " ", out)
    assert main(["simulate", "--rules", "hengyang:tun=1", "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])


@pytest.mark.parametrize(
    ("arg", "says"),
    [
        ("yongzhou:xing=up", "xing is one of fan+1/fan0/fan-1/gen, not 'up'"),
        ("yongzhou:xing", "xing needs a value: xing=fan+1/fan0/fan-1/gen"),
        ("hunan:xing=gen", "hunan has no option 'xing' (options: players, wang, min_huxi, cap)"),
        ("guilin:zi_step=4", "zi_step is one of 3/5"),
        ("yongzhou:xing=gen,xing=fan0", "option xing is given twice"),
        ("loudi:cap=four", "cap (封顶) is a whole number 0–1000000, not 'four'"),
        ("yongzhou:players=5", "players (人数) is a whole number 2–4, not '5'"),
        ("hunan:wang=9", "wang (王) is a whole number 0–4, not '9'"),
        ("guilin:players=2,players=3", "option players is given twice"),
    ],
)
def test_an_option_not_offered_is_a_clear_error(capsys, arg: str, says: str) -> None:
    status, out, err = run(capsys, arg)
    assert status == 2 and out == "" and says in err, (status, err)


def test_the_house_options_every_preset_takes(capsys) -> None:
    """As the web lobby offers them: 人数 (4 at 永州 is 坐醒: one seat sits out and
    collects 醒, PRESETS), 王 (亡牌 needs them), 起胡; a play at four seats runs."""
    status, out, _ = run(capsys, "--json", "yongzhou:players=4")
    d = json.loads(out)
    assert status == 0 and (d["players"], d["sit_out"], d["xing_seat"]) == (4, True, True)
    status, out, _ = run(capsys, "--json", "hunan:wang=2")
    assert json.loads(out)["wang"] == 2
    status, out, _ = run(capsys, "--json", "yongzhou:wang=4,wangpai=on,min_huxi=18")
    d = json.loads(out)
    assert (d["wang"], d["min_huxi"], d["extra"]) == (4, 18, {"variants": "wangpai=on"})
    status, out, _ = run(capsys, "--json", "hengyang:players=2")
    assert json.loads(out)["players"] == 2 and not json.loads(out)["sit_out"]
    argv = ["simulate", "--rules", "yongzhou:players=4", "--games", "3", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])


def test_a_cap_and_options_are_recorded_with_the_rules(capsys) -> None:
    """PRESETS.md's other caps (永州 600, 娄底 400) on the command line; the options chosen
    travel in the rules (extra.variants), so records and simulate's summary name them."""
    status, out, _ = run(capsys, "--json", "loudi:cap=400")
    assert status == 0 and json.loads(out)["cap"] == 400
    status, out, _ = run(capsys, "--json", "yongzhou:cap=600,xing=gen,xing_double=off")
    d = json.loads(out)
    assert status == 0 and d["cap"] == 600 and d["extra"] == {"variants": "xing=gen"}
    assert main(["simulate", "--rules", "guilin:zimo=unit", "--games", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert (summary["rules"], summary["variants"]) == ("guilin", "zimo=unit")
