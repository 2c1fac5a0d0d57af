"""The rules object as data (PRESETS.md): every field, exact file round trips, clear errors."""

from __future__ import annotations

import json
import tomllib

import pytest

from paohuzi.cli.common import load_rules
from paohuzi.core.rules import (
    CHANGDE,
    HUNAN,
    LUZHOU,
    PRESETS,
    DengRule,
    HuangzhuangRule,
    HuxiTable,
    MingtangRule,
    Rules,
    RulesError,
)

# PRESETS.md "Fields (at least)", with the name each has in the rules object.
SPEC_FIELDS = {
    "players": "players",
    "sit_out": "sit_out",
    "min_huxi": "min_huxi",
    "huxi_table": "huxi_table",
    "win_on_discard": "win_on_discard",
    "deng": "deng",
    "zimo_bonus": "zimo_bonus",
    "doubling": "doubling",
    "mingtang": "mingtang",
    "mingtang level": "mingtang_level",
    "fan_combine": "fan_combine",
    "dihu": "dihu",
    "payment": "payment",
    "huangzhuang": "huangzhuang",
    "hands_per_match": "hands_per_match",
    # 泸州's own fields
    "show_liangzhang": "show_liangzhang",
    "show_wall_bottom": "show_wall_bottom",
    "scoring mode": "scoring_mode",
}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_spec_field_is_in_every_preset_and_record(name: str) -> None:
    """PRESETS.md lists the fields; each preset's dict (what a record stores) has them all."""
    d = PRESETS[name].to_dict()
    missing = [spec for spec, key in SPEC_FIELDS.items() if key not in d]
    assert missing == []


def test_hunan_defaults_are_the_spec_table() -> None:
    """PRESETS.md 'hunan (default)' column, R9, R23, R34–R38."""
    r = HUNAN
    assert (r.players, r.sit_out, r.min_huxi, r.win_on_discard) == (3, False, 15, False)
    assert r.huxi_table.to_dict()["pao"] == [6, 9, 6, 9]  # R9, colour-blind
    assert [r.deng(h) for h in (15, 17, 18, 20, 21)] == [1, 1, 2, 2, 3]  # R34
    assert r.zimo_bonus == 1 and set(r.doubling) == {"tianhu", "dihu", "haidi"}
    assert r.mingtang_level == "full" and r.fan_combine == "add"
    assert r.dihu == "first_discard" and r.payment == "all"
    assert r.huangzhuang == HuangzhuangRule(fan=(), cost=0, pass_after=3)  # nothing; R6
    assert r.hands_per_match == 8 and r.decomposition == "huxi"
    assert {m.id: m.fan for m in r.mingtang} == {
        "honghu": 2,
        "dianhu": 4,
        "wuhu": 5,
        "duizihu": 5,
        "dazihu": 6,
        "xiaozihu": 8,
        "shuahou": 8,
    }


def test_changde_is_hunan_except_the_listed_points() -> None:
    """PRESETS.md 常德: only 名堂, doubling, 地胡, 黄番 (and the split choice) differ."""
    diff = {k for k, v in CHANGDE.to_dict().items() if HUNAN.to_dict()[k] != v}
    rules = {"name", "mingtang", "doubling", "dihu", "huangzhuang", "decomposition"}
    assert diff == rules | {"reward_scale"}  # RL's normalisation, no rule: bigger 番 here
    assert CHANGDE.doubling == () and CHANGDE.dihu == "liangzhang"
    assert CHANGDE.huangzhuang.fan == (2, 3)
    assert {m.id: (m.fan, m.per_extra, m.threshold, m.max_fan) for m in CHANGDE.mingtang} == {
        "honghu": (3, 1, 10, 0),
        "wuhu": (8, 0, 0, 0),
        "dianhu": (6, 0, 0, 0),
        "dazihu": (8, 1, 18, 0),
        "xiaozihu": (10, 1, 16, 0),
        "duizihu": (8, 0, 0, 0),
        "haihu": (6, 0, 0, 0),
        "tianhu": (6, 0, 0, 0),
        "dihu": (6, 0, 0, 0),
        "tinghu": (6, 0, 0, 0),
        "shuahou": (8, 0, 0, 0),
        "tuanyuan": (8, 0, 0, 0),
        "hanghangxi": (8, 0, 0, 0),
        "jiahanghang": (4, 0, 0, 0),
        "siqihong": (2, 0, 0, 0),
    }


def test_luzhou_fields() -> None:
    """PRESETS.md 泸州: 4 seats with 坐底, min 10, discards, table by colour, 等, hongwu."""
    r = LUZHOU
    assert (r.players, r.sit_out, r.seated, r.min_huxi, r.win_on_discard) == (4, True, 3, 10, True)
    t = r.huxi_table.to_dict()  # (black 小, black 大, red 小, red 大)
    assert t["peng"] == [1, 3, 6, 9] and t["kan"] == t["wei"] == [6, 9, 9, 12]
    assert t["pao"] == [k + 3 for k in t["kan"]] and t["ti"] == [p + 3 for p in t["pao"]]
    assert max(t["ti"]) == 18
    assert t["ju123"][:2] == [3, 6] and t["ju2710"][2:] == [6, 9]  # priced by 一 / 二
    assert [r.deng(h) for h in (10, 19, 20, 29, 30)] == [1, 1, 2, 2, 3]
    assert (r.scoring_mode, r.payment, r.dihu) == ("hongwu", "discarder", "first_discard")
    assert (r.show_liangzhang, r.show_wall_bottom, r.tianhu_ti, r.tianhu_kan) == (
        False,
        True,
        3,
        4,
    )
    basic = {m.id: m.fan for m in r.mingtang if m.level == "basic"}
    assert basic == {"honghu": 2, "wuhu": 4, "tianhu": 2, "dihu": 2}


# -- round trips ---------------------------------------------------------------------------
VARIANTS = [
    *PRESETS.values(),
    LUZHOU.replace(players=3, sit_out=False, scoring_mode="mingtang"),
    LUZHOU.replace(players=2, sit_out=False, extra=(("note", "两人"), ("x", 1))),
    CHANGDE.replace(huangzhuang=HuangzhuangRule((2, 3, 4), cost=1, pass_after=0)),
    HUNAN.replace(name="house rules", mingtang=(), doubling=("haidi",), baopei=True),
    LUZHOU.replace(name="luzhou", reward_scale=100),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
def test_json_and_toml_files_round_trip_exactly(rules: Rules, tmp_path) -> None:
    """to_dict → JSON/TOML file → ``--rules FILE`` gives the very same rules object."""
    j = tmp_path / "r.json"
    j.write_text(json.dumps(rules.to_dict(), ensure_ascii=False), encoding="utf-8")
    t = tmp_path / "r.toml"
    t.write_text(rules.to_toml(), encoding="utf-8")
    assert load_rules(str(j)) == rules
    assert load_rules(str(t)) == rules
    assert tomllib.loads(rules.to_toml()) == rules.to_dict()
    assert Rules.from_dict(rules.to_dict()).to_dict() == rules.to_dict()


def test_partial_file_starts_from_preset(tmp_path) -> None:
    f = tmp_path / "two.toml"
    f.write_text('preset = "luzhou"\nplayers = 2\nsit_out = false\n', encoding="utf-8")
    r = load_rules(str(f))
    assert r == LUZHOU.replace(players=2, sit_out=False) and r.seated == 2


def test_old_flat_huangzhuang_fan_key_still_reads() -> None:
    assert Rules.from_dict({"huangzhuang_fan": [2, 3]}).huangzhuang.fan == (2, 3)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_records_from_before_reward_scale_read_as_their_preset(name: str) -> None:
    """A record's rules written before the field existed: the scale RL then took by name."""
    old = PRESETS[name].to_dict()
    del old["reward_scale"]
    assert Rules.from_dict(old) == PRESETS[name]
    assert Rules.from_dict({**old, "name": "house"}).reward_scale == HUNAN.reward_scale


def test_reward_scale_is_data() -> None:
    assert [PRESETS[n].reward_scale for n in ("hunan", "changde", "luzhou")] == [48, 64, 8]
    assert Rules.from_dict({"preset": "luzhou", "name": "mine"}).reward_scale == 8
    assert Rules.from_dict({"preset": "luzhou", "reward_scale": 3}).reward_scale == 3


BAD = [
    ({"players": 5}, "players must be 2–4"),
    ({"players": 4}, "sit_out"),  # 4 × 20 + 1 > 80
    ({"players": 3, "sit_out": True}, "sit_out needs 4 players"),
    ({"hand_size": 13}, "hand_size must be 14, 17 or 20"),  # R43
    ({"xing_offset": 5}, "xing_offset must be -1, 0 or 1, got 5"),  # R42
    ({"xing": "shuang"}, "xing must be one of"),
    ({"xing_double": "yes"}, "xing_double"),
    ({"xing_seat": True}, "xing_seat needs sit_out"),
    ({"forced_win": "always"}, "forced_win must be one of"),  # R44
    ({"race": {"target": 0}}, "race.target must be ≥ 1, got 0"),  # R45
    ({"race": {"goal": 100}}, "race has unknown keys"),
    ({"match": "race"}, "match = race and payment = race go together"),
    ({"payment": "race"}, "match = race and payment = race go together"),
    ({"unit": ""}, "unit must be a short name"),
    ({"deng": {"from_min": 1}}, "deng.from_min must be true or false"),
    ({"mingtang": [{"id": "wuhu", "fan": 2, "effect": "double"}]}, "wuhu.effect must be one of"),
    ({"mingtang": [{"id": "xiaohong", "fan": 2, "upto": -1}]}, "xiaohong.upto must be ≥ 0"),
    ({"min_huxi": -1}, "min_huxi must be ≥ 0"),
    ({"min_huxi": "15"}, "must be an integer"),
    ({"sit_out": 1}, "true/false"),
    ({"scoring_mode": "kaikai"}, "scoring_mode must be one of"),
    ({"decomposition": "best"}, "decomposition must be one of"),
    ({"fan_combine": "max"}, "fan_combine"),
    ({"doubling": ["tianhu", "zimo"]}, "unknown doubling events"),
    ({"deng": {"base": 12, "step": 0}}, "deng.step must be ≥ 1"),
    ({"deng": {"base": 12, "stride": 3}}, "deng has unknown keys"),
    ({"deng": 3}, "deng must be a table"),
    ({"huxi_table": {"peng": [1, 3]}}, "huxi_table"),
    ({"mingtang": [{"id": "qidui", "fan": 2}]}, "unknown 名堂 'qidui'"),
    ({"mingtang": [{"id": "wuhu"}]}, "needs 'id' and 'fan'"),
    ({"mingtang": [{"id": "wuhu", "fan": 2, "level": "half-ish"}]}, "level must be one of"),
    ({"mingtang": [{"id": "wuhu", "fan": 2}, {"id": "wuhu", "fan": 3}]}, "more than once"),
    ({"huangzhuang": {"fan": [0]}}, "huangzhuang.fan entries must be ≥ 1"),
    ({"huangzhuang": {"cost": -2}}, "huangzhuang.cost"),
    ({"preset": "zunyi"}, "unknown preset 'zunyi'"),
    ({"colour": "red"}, "unknown rules fields"),
    ({"reward_scale": 0}, "reward_scale must be ≥ 1"),
    ({"reward_scale": 8.5}, "rules field 'reward_scale' must be an integer"),
]


@pytest.mark.parametrize(("data", "message"), BAD, ids=[m for _, m in BAD])
def test_bad_rules_are_one_line_errors(data: dict, message: str, tmp_path) -> None:
    """Each mistake in a rules file is reported on one line that names the file and field."""
    with pytest.raises(RulesError) as e:
        Rules.from_dict(data)
    assert message in str(e.value) and "\n" not in str(e.value)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(RulesError, match=r"bad\.json") as e2:
        load_rules(str(f))
    assert "\n" not in str(e2.value)


def test_nested_objects_validate_themselves() -> None:
    with pytest.raises(RulesError):
        MingtangRule("wuhu", fan=-1)
    with pytest.raises(RulesError):
        DengRule(step=-3)
    with pytest.raises(RulesError):
        HuxiTable.from_dict({**HUNAN.huxi_table.to_dict(), "peng": [1, 2, 3]})


def test_uses_follows_scoring_mode_and_level() -> None:
    """hongwu counts only the 基本 名堂, deng none, mingtang up to mingtang_level (R36)."""
    assert LUZHOU.uses("wuhu") and not LUZHOU.uses("zimo")
    assert LUZHOU.replace(scoring_mode="mingtang").uses("zimo")
    assert not LUZHOU.replace(scoring_mode="deng").uses("wuhu")
    assert CHANGDE.uses("tinghu") and not CHANGDE.replace(mingtang_level="half").uses("tinghu")
    assert not HUNAN.uses("tinghu")
