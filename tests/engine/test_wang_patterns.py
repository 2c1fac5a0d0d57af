"""R41 王钓 / 王闯 / 王炸 (and their 王 forms) in the calculator, worked by hand.

Rules: 桂林 (子 = 1 + ⌊(H − 10)/3⌋, 番 multiplied, 自摸 2 番) with the yongzhou
pattern 番 of PRESETS.md (4, 8, 8, 16, 16, 32). The search against an independent
brute force is in tests/presets/test_wang_oracle.py (``*_patterns_*``).
"""

from __future__ import annotations

import json
import tomllib

import pytest

from paohuzi.core.cards import Card
from paohuzi.core.melds import GroupKind
from paohuzi.core.position import Position, PositionError, WangPattern
from paohuzi.core.rules import GUILIN, HUNAN, Rules, RulesError
from paohuzi.core.scoring import settle

FAN = (4, 8, 8, 16, 16, 32)
RULES = GUILIN.replace(wang_fan=FAN)
# 提壹 12 + 一二三 3 + 贰柒拾 6 + three 句 of 0 = 21 胡息, the pair 十十 the 将 (R22)
DIAO = "一二三四五六七八九贰柒拾叁肆伍王"


def _pos(hand: str, win: str, pattern: str | None, table: tuple[str, ...] = (), **kw) -> Position:
    d: dict[str, object] = {"hand": hand, "win": win, "table": list(table), **kw}
    if pattern is not None:
        d["pattern"] = pattern
    return Position.from_dict(d)


def test_wangdiao_pair_on_another_players_card() -> None:
    """R41 王钓: the card + 1 王 are the 将; 21 胡息 → 子 1 + 11//3 = 4; 4 番 → 16."""
    s = settle(_pos(DIAO, "十", "wangdiao", ("ti:壹",)), RULES)
    assert s.win and s.huxi == 21 and s.deng == 4 and s.fan == 4 and s.di == 16
    assert s.wang == (Card.X10,)
    assert any(g.kind is GroupKind.JIANG and g.cards == (Card.X10,) * 2 for g in s.groups)
    assert [m.name for m in s.mingtang] == ["王钓"]


def test_a_pattern_takes_no_zimo_double() -> None:
    """R41: a pattern win does not also take 自摸 ×2 — on his own card the drawer
    scores 4 番, where the same hand won as plain 自摸 (R40) scores 2 番."""
    pattern = settle(_pos(DIAO, "十", "wangdiao", ("ti:壹",), self_drawn=True), RULES)
    plain = settle(_pos(DIAO, "十", None, ("ti:壹",), self_drawn=True), RULES)
    assert pattern.fan == 4 and not pattern.zimo
    assert plain.fan == 2 and plain.zimo and plain.di == 8


def test_wangdiao_wang_is_a_pair_of_two_wang() -> None:
    """R41 王钓王: a drawn 王 + 1 王 from the hand as the 将 (of any kind): 8 番 → 32."""
    s = settle(_pos(DIAO, "王", "wangdiao_wang", ("ti:壹",)), RULES)
    assert s.win and s.huxi == 21 and s.fan == 8 and s.di == 32
    assert len(s.wang) == 2 and s.wang[0] == s.wang[1]


def test_wangchuang_is_a_kan_of_the_card() -> None:
    """R41 王闯: 拾 + 2 王 = a 坎 of 拾 (6); 一二三 3 + 壹贰叁 6 → 15 胡息, 子 2, 8 番."""
    s = settle(_pos("一二三四五六七八九壹贰叁肆伍陆柒捌玖王王", "拾", "wangchuang"), RULES)
    assert s.win and s.huxi == 15 and s.deng == 2 and s.fan == 8 and s.di == 16
    assert s.wang == (Card.D10, Card.D10)
    assert any(g.kind is GroupKind.KAN and g.cards[0] == Card.D10 for g in s.groups)


def test_wangzha_is_a_ti_of_the_card_with_a_pair() -> None:
    """R41 王炸: 拾 + 3 王 = a 提 of 拾 (12) and so a 将 (柒柒, R22): 12 + 3 + 6 = 21
    胡息, 子 4, 16 番 → 64."""
    s = settle(_pos("一二三四五六七八九壹贰叁肆伍陆柒柒王王王", "拾", "wangzha"), RULES)
    assert s.win and s.huxi == 21 and s.fan == 16 and s.di == 64
    assert any(g.kind is GroupKind.TI and g.cards[0] == Card.D10 for g in s.groups)


def test_wangzha_wang_picks_the_best_kind_for_the_ti() -> None:
    """R41 王炸王: a drawn 王 + 3 王 are a 提 of the kind worth most (a big one, 12):
    12 + 一二三 3 + 壹贰叁 6 = 21 胡息, 子 4, 32 番 → 128."""
    s = settle(_pos("一二三四五六七八九壹贰叁肆伍陆柒柒王王王", "王", "wangzha_wang"), RULES)
    assert s.win and s.huxi == 21 and s.fan == 32 and s.di == 128
    assert len(set(s.wang)) == 1 and s.wang[0].is_big and len(s.wang) == 4


def test_the_rest_must_reach_the_minimum() -> None:
    """R41: the fixed group and the rest need ≥ 起胡: 王闯 on 一 (坎 3) + 壹贰叁 6 is
    9 < 10."""
    s = settle(_pos("二三四四五六七八九壹贰叁肆伍陆柒捌玖王王", "一", "wangchuang"), RULES)
    assert not s.win and s.error == "below_min_huxi" and s.huxi == 9


def test_a_pattern_needs_its_shape() -> None:
    """R41: the rest must make the other 门子: 王钓 without a four has no room for a 将."""
    s = settle(_pos("一二三四五六七八九壹贰叁肆伍陆柒捌玖拾王", "十", "wangdiao"), RULES)
    assert not s.win and s.error == "not_winning"


def test_rules_without_pattern_fan_do_not_play_patterns() -> None:
    """R41 is a preset's choice: 番 0 means the pattern is not played."""
    s = settle(_pos(DIAO, "十", "wangdiao", ("ti:壹",)), GUILIN)
    assert not s.win and s.error == "pattern_not_played"


@pytest.mark.parametrize(
    ("hand", "win", "pattern", "message"),
    [
        (DIAO, "十", "wangzha", "takes 3 王 from the hand; it holds 1"),
        (DIAO, "十", "wangdiao_wang", "must be a drawn 王"),
        (DIAO, "王", "wangdiao", "must be a card, not a 王"),
        (DIAO, "十", "wangbomb", "pattern must be one of"),
    ],
)
def test_bad_patterns_are_refused(hand: str, win: str, pattern: str, message: str) -> None:
    """Bad input: a pattern the position cannot hold is a clear PositionError."""
    with pytest.raises(PositionError, match=message):
        _pos(hand, win, pattern, ("ti:壹",))


def test_pattern_round_trips_in_the_batch_form() -> None:
    """INTERFACES §1/§4: ``pattern`` is a field of the position's plain form."""
    p = _pos(DIAO, "王", "wangdiao_wang", ("ti:壹",))
    d = p.to_dict()
    assert d["pattern"] == "wangdiao_wang" and d["win"] == "w"
    assert Position.from_dict(d) == p
    assert p.pattern is WangPattern.WANGDIAO_WANG and p.pattern.hand_wang == 1


@pytest.mark.parametrize("bad", [[4, 8, 8, 16, 16], [4, 8, 8, 16, 16, -1], [4, 8, 8, 16, 16, True]])
def test_wang_fan_must_be_six_counts(bad: list[object]) -> None:
    """R41 番 table: six 番 ≥ 0, named in the error."""
    with pytest.raises(RulesError, match="wang_fan"):
        Rules.from_dict({"preset": "guilin", "wang_fan": bad})


def test_wang_fan_round_trips_through_toml() -> None:
    r = Rules.from_dict(tomllib.loads(RULES.to_toml()))
    assert r.wang_fan == FAN and r == RULES


def test_score_cli_takes_a_pattern(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``paohuzi score --pattern NAME`` (R41): the pattern's 番 in the JSON result;
    a pattern the hand cannot hold is a clear error (exit 2)."""
    from paohuzi.cli.main import main

    rules = tmp_path / "r.toml"
    rules.write_text('preset = "guilin"\nwang_fan = [4, 8, 8, 16, 16, 32]\n', encoding="utf-8")
    argv = ["score", DIAO, "--win", "十", "--table", "ti:壹", "--rules", str(rules), "--json"]
    assert main([*argv, "--pattern", "wangdiao"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["win"] and out["fan"] == 4 and out["di"] == 16 and out["wang"] == ["x10"]
    assert [m["id"] for m in out["mingtang"]] == ["wangdiao"]
    assert main([*argv, "--pattern", "wangzha"]) == 2
    assert "takes 3 王" in capsys.readouterr().out


def test_pattern_fan_adds_where_the_rules_add() -> None:
    """R41 with fan_combine = add (湖南): 提贰 12 + 二七十 3 + 二七十 3 = 18 胡息 → 2 等;
    red: 贰×4 + 二七十×2 (6) + the 将 柒柒 (a 王 as 柒, R40) = 12 → 红胡 2 + 2 = 4 番;
    王钓 4 番 added → 8 番, 底 16; no 自摸 等 (zimo_bonus) on a pattern."""
    rules = HUNAN.replace(wang_fan=FAN)
    hand = "二七十二七十四五六四五六叁肆伍王"
    s = settle(_pos(hand, "柒", "wangdiao", ("ti:贰",), self_drawn=True), rules)
    assert s.win and s.huxi == 18 and s.deng == 2 and not s.zimo
    assert sorted((m.name, m.fan) for m in s.mingtang) == [("王钓", 4), ("红胡", 4)]
    assert s.fan == 8 and s.di == 16 and s.wang == (Card.D7,)


def test_pattern_claims_rank_below_every_other_claim() -> None:
    """R41/R16 in play: 胡 > 跑 > 碰 > 吃 > 王 pattern. Over random hands with 4 王, a
    pattern offered on another seat's card goes to the owner's 下家 alone, in the
    window's last entry (after every 胡/碰/吃), never where a 跑 is due; the drawer's
    own pattern shares his first entry, a plain 自摸 listed before it."""
    import random

    from paohuzi.core.state import GameState
    from paohuzi.core.vocab import Fallback

    rules = HUNAN.replace(wang=4, wang_fan=FAN)
    other = own = 0
    for h in range(300):
        state = GameState(rules, seed=h)
        pick = random.Random(h)
        while not state.is_terminal():
            w = state._window  # the open claim window (R16), read only
            if w is not None and state.phase == "claim":
                for i, (seat, typ) in enumerate(w.entries):
                    pats = [a for a in w.options[seat] if a.pattern is not None]
                    if typ != "hu" or not pats:
                        continue
                    if seat == w.owner and w.source == "draw":
                        own += 1
                        assert i == 0
                        plain = [a for a in w.options[seat] if a.type == "hu" and not a.pattern]
                        assert not plain or w.options[seat][0] == plain[0]
                    else:
                        other += 1
                        assert seat == state._nxt[w.owner] and i == len(w.entries) - 1
                        assert w.fallback.kind != Fallback.PAO
            state.apply(pick.choice(state.legal_actions(state.current_player)))
    assert other > 0 and own > 0
