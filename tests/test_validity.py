"""``paohuzi.evaluate`` and ``core/validity.py``: a position that cannot occur under the
rules is a result with an error code (``impossible_position``), not a score — the checks
``paohuzi score`` makes, for a developer calling the library (R28, R29, R40, R42, R43)."""

from __future__ import annotations

import pytest

from paohuzi import Position, evaluate, preset, settle
from paohuzi.core.validity import position_problem

README = Position.parse(
    "四五六八八九十壹贰叁捌", win="八", table=["peng:拾", "chi:一二三", "wei:七"]
)


def test_a_position_the_rules_can_have_settles_as_settle() -> None:
    rules = preset("hunan")
    assert position_problem(README, rules) is None
    assert evaluate(README, rules) == settle(README, rules)
    assert (evaluate(README, rules).win, evaluate(README, rules).di) == (True, 1)


def test_another_deal_size_is_impossible_not_a_win() -> None:
    """R43: a 20-card position under 衡阳's 14-card deal was scored a win (底 8)."""
    rules = preset("hengyang")
    r = evaluate(README, rules)
    assert (r.win, r.error, r.di) == (False, "impossible_position", 0)
    assert "hand_size=14" in (position_problem(README, rules) or "")
    short = Position.parse("一二三四五六七八九壹贰叁柒捌", "玖", hand_size=14, self_drawn=True)
    assert short.hand_size == 14 and evaluate(short, rules).win


@pytest.mark.parametrize(
    ("rules", "position", "rule"),
    [
        # R40: a 王-holder wins only on his own turned-up card (self-drawn) or by a pattern
        ("yongzhou", Position.parse("一二三四五六七八九壹贰叁肆伍陆柒捌拾拾 王", "拾"), "R40"),
        # R42: 五 ×3 held, one 五 turned (a four: 连翻), a second 五 cannot be turned
        (
            "guilin",
            Position.parse(
                "五五五一二三壹贰叁肆伍陆七八九六七八柒捌", "玖", self_drawn=True, xing=["五", "五"]
            ),
            "R42",
        ),
        # R29: 地胡 before any draw: no 偎 on the table
        (
            "hunan",
            Position.parse(
                "三四五六七八九九九壹壹", "壹", ["wei:d8", "wei:d9", "chi:x4x5x6"], dihu=True
            ),
            "R29",
        ),
        # R28: an elective 天胡 is won with the dealer's own 亮张: self-drawn
        (
            "guilin",
            Position.parse("一二三四五六七八九壹贰叁肆伍陆柒捌玖拾拾", "拾", tianhu=True),
            "R28",
        ),
    ],
)
def test_what_cannot_occur_is_refused_with_its_rule(
    rules: str, position: Position, rule: str
) -> None:
    r = preset(rules)
    problem = position_problem(position, r)
    assert problem is not None and rule in problem, problem
    assert evaluate(position, r).error == "impossible_position"


def test_preset_reads_a_presets_options() -> None:
    """README: ``PRESET:ID=VALUE`` works "on every command and env" — and in Python."""
    assert preset("guilin:zimo=unit").name == "guilin"
    assert preset("guilin:zimo=unit") != preset("guilin")
    assert preset("hunan") is preset("hunan")  # (the preset object itself: memos by identity)
