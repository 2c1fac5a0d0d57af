"""``paohuzi score`` and 醒 (R42), 地胡 (R29): what the engine turns is accepted and
settles alike; what it cannot turn is refused (exit 2), as INTERFACES §1 says of a
position that cannot occur."""

from __future__ import annotations

import json

import pytest

from bot_hands import won_hands
from paohuzi.cli.main import main
from paohuzi.cli.score import score_line
from paohuzi.core.variants import parse

# every 醒 the engine turns: 翻醒 with 连翻 (桂林), 跟醒, offsets (永州 上醒), 双醒, 王 醒牌
XING_RULES = (
    "guilin",
    "guilin:xing=gen",
    "yongzhou",
    "yongzhou:xing_double=on",
    "hengyang:xing=gen",
    "hengyang",
)


@pytest.mark.parametrize("name", XING_RULES)
def test_every_engine_win_rescores_through_the_calculator(name: str) -> None:
    """R42: each won hand's position (with the 醒牌 the engine turned, 连翻 chains
    included) passes the calculator's checks and settles to the recorded 醒数 and 底;
    with its 醒牌 left out under 跟醒 the calculator turns the same one itself."""
    rules = parse(name)
    wins = chained = 0
    for seed, res in won_hands(rules, range(120)):
        assert res.position is not None
        d = res.position.to_dict()
        got, problem = score_line(json.dumps(d, ensure_ascii=False), rules)
        assert problem is None, (seed, d, problem)
        assert (got["di"], got["xing"]) == (res.settlement.di, res.settlement.xing), seed
        chained += len(res.position.xing) > 1
        if rules.xing.value == "gen" and res.position.win is not None and len(d["xing"]) == 1:
            # (a 连翻 chain's later 醒牌 come from the wall: only the first is implied)
            d.pop("xing", None)
            again, problem = score_line(json.dumps(d, ensure_ascii=False), rules)
            assert problem is None and again["xing"] == got["xing"], (seed, again)
        wins += 1
    assert wins >= 30
    if name == "guilin":
        assert chained, "a 连翻 chain among 桂林's wins"


H = "一二三贰柒拾六七八肆伍陆九九叁叁叁"  # + 偎 五五五, wins on 九 (自摸): 21 胡息


@pytest.mark.parametrize(
    ("rules", "extra", "message"),
    [
        ("hunan", ["--xing", "四"], "turn no 醒"),  # hunan: no 醒
        ("loudi", ["--xing", "四"], "turn no 醒"),
        ("guilin:lianfan=off", ["--xing", "叁", "--xing", "九"], "连翻 off"),
        ("guilin", ["--xing", "一", "--xing", "九"], "no four-group"),  # one 一 held
        ("guilin", ["--last-card", "--xing", "叁"], "海底"),  # the wall is empty
        ("guilin:xing=gen", ["--xing", "八"], "跟醒"),  # 跟醒: the winning card's
        ("yongzhou", ["--dihu"], "no 地胡"),  # R29: 永州 has none
    ],
)
def test_what_the_engine_cannot_turn_is_refused(
    rules: str, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["score", H, "--table", "wei:五", "--win", "九", "--rules", rules]
    if "--dihu" not in extra:
        argv.append("--self-drawn")
    assert main([*argv, *extra]) == 2
    assert message in capsys.readouterr().err


def test_a_xing_where_an_option_turns_none_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """衡阳 不带醒: a 14-card hand (R43) given a 醒牌 is refused, with it left out it scores."""
    argv = ["score", "一二三贰柒拾四五六九九九壹贰", "--win", "叁", "--rules", "hengyang:xing=none"]
    assert main([*argv, "--xing", "九"]) == 2
    assert "turn no 醒" in capsys.readouterr().err
    assert main(argv) == 0


@pytest.mark.parametrize(
    ("rules", "extra", "xing"),
    [
        ("guilin", ["--xing", "叁", "--xing", "九"], 3 + 3),  # 叁 ×3 + turned: 连翻 to 九
        ("guilin:xing=gen", [], 3),  # 跟醒 without --xing: the winning card 九 (九九 + 九)
        ("guilin", ["--last-card"], 3),  # 翻醒 after 海底: the winning card again
        ("guilin", ["--xing", "王"], 3),  # a 王 醒牌: the kind held most (九, R42)
        ("guilin", ["--xing", "一"], 1),  # any 醒牌 turned from the wall: one 一 held
    ],
)
def test_the_calculator_turns_what_the_engine_turns(
    rules: str, extra: list[str], xing: int, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["score", H, "--table", "wei:五", "--win", "九", "--self-drawn", "--rules", rules]
    assert main([*argv, *extra, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["xing"] == xing


def test_a_win_on_a_discard_names_what_the_discarder_pays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """R44: ``--discard`` (a batch line's ``"discard": true``) says the card was
    discarded: 衡阳's discarder pays for all three others (包赔), 泸州's his own share;
    rules without discard wins, and a 自摸, refuse it."""
    hy = ["score", "一二三贰柒拾四五六九九九壹贰", "--win", "叁", "--rules", "hengyang"]
    assert main([*hy, "--discard", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["discarder_pays"] == 3 * d["pays"] > 0
    assert main([*hy, "--discard"]) == 0
    assert f"the discarder alone pays {3 * d['pays']}" in capsys.readouterr().out
    base = ["score", H, "--table", "wei:五", "--win", "九"]
    assert main([*base, "--rules", "hunan", "--discard"]) == 2  # no discard wins (R44)
    assert "no win on a discard" in capsys.readouterr().err
    assert main([*base, "--rules", "guilin", "--self-drawn", "--discard"]) == 2
    capsys.readouterr()
    line = {"hand": "一二三贰柒拾四五六九九九壹贰", "win": "叁", "discard": True}
    got, problem = score_line(json.dumps(line, ensure_ascii=False), parse("hengyang"))
    assert problem is None and got["discarder_pays"] == 3 * got["pays"]
    got, problem = score_line(json.dumps({**line, "discard": "yes"}), parse("hengyang"))
    assert problem is not None and got["error"] == "invalid_input"
