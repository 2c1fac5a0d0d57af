"""一五十 (yī wǔ shí): 衡阳's option (PRESETS.md hengyang, "option 一五十 as a 句 worth
3/6"): 一五十 / 壹伍拾 are a 句 like 一二三 and 二七十 (R9's table, §3 一句话), so they
are 吃'd and 比'd (R15, R19), count 3 / 6 胡息 and make hands win (R22–R26). Off, as
every other preset plays, nothing of it shows."""

from __future__ import annotations

import json
import random
import tomllib
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot_hands import won_hands
from engine.helpers import act, game, ids
from paohuzi.bots import make_bot
from paohuzi.cli.main import main
from paohuzi.cli.score import score_line
from paohuzi.core.action_index import ACTION_COUNT, BASE_ACTION_COUNT, index_of
from paohuzi.core.actions import CHI
from paohuzi.core.cards import parse_cards
from paohuzi.core.chi import chi_packages, packages_packed
from paohuzi.core.evaluator import _size_count, evaluator_for, pack, split_count
from paohuzi.core.melds import Group, GroupKind, MeldError, huxi_row, is_run, is_yiwushi
from paohuzi.core.position import Position
from paohuzi.core.records import check, record
from paohuzi.core.rules import HENGYANG, Rules, RulesError, preset
from paohuzi.core.scoring import _settle, decompositions, settle
from paohuzi.core.state import GameState
from paohuzi.core.variants import choice_of, labels, parse, variants
from paohuzi.table import Table
from strategies import positions
from test_settle_fast import _same

from .helpers import check_invariants, check_payments, random_choice

HY = parse("hengyang:yiwushi=on")
YWS = ((0, 4, 9), (10, 14, 19))  # 一五十, 壹伍拾


def P(hand: str, win: str, table: tuple[str, ...] = (), **flags: object) -> Position:
    """A 14-card position (R43: 衡阳 deals 14)."""
    return Position.from_dict({"hand": hand, "win": win, "table": list(table), **flags}, 14)


def n(text: str) -> tuple[int, ...]:
    return tuple(sorted(int(c) for c in parse_cards(text)))


# -- the rules data ----------------------------------------------------------------------
def test_the_option_is_rules_data() -> None:
    """PRESETS hengyang: ``yiwushi`` off by default (every record without it stays as it
    was: the field and the 3 / 6 row are written only when they say something), on
    through the variant, a rules file and TOML; the row may be repriced."""
    assert not HENGYANG.yiwushi and "yiwushi" not in HENGYANG.to_dict()
    assert "ju1510" not in HENGYANG.to_dict()["huxi_table"]
    assert HY.yiwushi and HY.to_dict()["yiwushi"] is True
    assert Rules.from_dict(HY.to_dict()) == HY
    assert Rules.from_dict(tomllib.loads(HY.to_toml())) == HY
    assert Rules.from_dict({"preset": "hengyang", "yiwushi": True}).yiwushi
    assert HY.huxi_table.value("ju1510", 0) == 3 and HY.huxi_table.value("ju1510", 10) == 6
    table = {**HY.to_dict()["huxi_table"], "ju1510": [4, 8]}
    house = Rules.from_dict({"preset": "hengyang", "yiwushi": True, "huxi_table": table})
    assert house.to_dict()["huxi_table"]["ju1510"] == [4, 8, 4, 8]
    assert Group(GroupKind.JU, parse_cards("壹伍拾")).huxi(house) == 8
    with pytest.raises(RulesError, match=r"yiwushi.* must be true"):
        Rules.from_dict({"preset": "hengyang", "yiwushi": 1})


def test_the_option_with_wang_is_refused() -> None:
    """The 王 search (R40) knows no 一五十: the pair is refused in one line, whichever
    way it is asked (rules file, ``--rules`` string, the lobby)."""
    with pytest.raises(RulesError, match=r"yiwushi .* not played with 王"):
        HY.replace(wang=2)
    with pytest.raises(RulesError, match="not played with 王"):
        parse("hengyang:wang=2,yiwushi=on")
    from paohuzi.server.present import options
    from paohuzi.server.wire import RoomError

    with pytest.raises(RoomError) as e:
        options.apply(HENGYANG, {"wang": 2, "yiwushi": "on"})
    # the lobby tells the player which two options, not only "房间选项无效"
    assert e.value.code == "bad_options"
    assert e.value.fields == ["options.wang", "options.yiwushi"]
    assert e.value.detail is not None
    zh, en = e.value.detail
    assert "一五十" in zh and "王" in zh and "无王" in zh and "不带" in zh
    assert "一五十" in en and "王" in en and "1-5-10" in en
    assert options.apply(HENGYANG, {"yiwushi": "on"}).rules.yiwushi


def test_the_variant_reads_back() -> None:
    """衡阳's 玩法 (core/variants.py): 一五十 off (the preset's) or on; a rules object says
    which it plays, and the summary names it only when on."""
    v = next(v for v in variants("hengyang") if v.id == "yiwushi")
    assert [c.value for c in v.choices] == ["off", "on"]
    assert choice_of(v, HENGYANG).value == "off" and choice_of(v, HY).value == "on"
    assert choice_of(v, Rules.from_dict({"preset": "hengyang", "yiwushi": True})).value == "on"
    assert ("一五十", "1-5-10 run (一五十)") in labels(HY)
    assert not any("一五十" in zh for zh, _ in labels(HENGYANG))
    assert not any(v.id == "yiwushi" for name in ("hunan", "guilin") for v in variants(name))


# -- the 句 and its 胡息 (§3, R9) ---------------------------------------------------------
def test_yiwushi_is_a_ju_only_with_the_option() -> None:
    """§3 with the option: 一五十 / 壹伍拾 (one size, any order) are a 句; mixed sizes
    and other gaps are not."""
    for text in ("一五十", "十五一", "壹伍拾"):
        assert is_run(n(text), True) and not is_run(n(text)) and is_yiwushi(n(text))
    for text in ("一五拾", "壹五十", "一四十", "二五十", "一五九"):
        assert not is_run(n(text), True) and not is_yiwushi(n(text))
    assert is_run(n("二七十"), True) and not is_yiwushi(n("二七十"))
    with pytest.raises(MeldError):
        Group(GroupKind.JU, parse_cards("一五拾"))


def test_R9_yiwushi_is_worth_3_small_6_big() -> None:
    """R9 as PRESETS hengyang prices it: 一五十 3, 壹伍拾 6, like 一二三 / 二七十."""
    small = Group(GroupKind.JU, parse_cards("一五十"))
    big = Group.parse("chi:壹伍拾")
    assert huxi_row(small.kind, small.cards) == huxi_row(big.kind, big.cards) == "ju1510"
    assert (small.huxi(HY), big.huxi(HY)) == (3, 6)
    assert Group.parse(big.code()) == big and big.key >= 180  # a row after the kernel's 9


def test_the_rules_page_and_the_rules_command_show_the_row() -> None:
    """The rules page (web) and ``paohuzi rules`` list 一五十's 3 / 6 where it is played,
    and only there."""
    from paohuzi.cli.rules import render
    from paohuzi.server.present import rulesdoc

    def items(r: Rules) -> dict[str, dict[str, object]]:
        return {i["id"]: i for sec in rulesdoc.document(r)["sections"] for i in sec["items"]}

    assert items(HY)["huxi_ju1510"]["values"] == [3, 6, 3, 6]
    assert "huxi_ju1510" not in items(HENGYANG)
    from rich.console import Console

    console = Console(record=True, width=160)
    for t in render(HY):
        console.print(t)
    text = console.export_text()
    assert "一五十 ju1510" in text and "yiwushi" in text
    # the row stands with the other 句 that score, after 二七十 (as on the rules page)
    assert text.index("二七十") < text.index("句 一五十") < text.index("other 句")
    assert "一五十 by 一 (black)" in " ".join(text.split())
    plain = Console(record=True, width=160)
    for t in render(HENGYANG):
        plain.print(t)
    assert "句 一五十" not in plain.export_text() and "一五十 by" not in plain.export_text()


# -- 吃 and 比 (R15, R19) ----------------------------------------------------------------
def _counts(text: str) -> list[int]:
    c = Counter(int(x) for x in parse_cards(text))
    return [c[k] for k in range(20)]


def test_R15_chi_a_yiwushi() -> None:
    """R15: holding 一 and 十, a 五 is 吃'd into 一五十 (a 十 into 一五十 holding 一五; 壹伍
    take 拾) — with the option only."""
    assert ((0, 4, 9), ()) in chi_packages(_counts("一十"), 4, True)
    assert chi_packages(_counts("一十"), 4) == []
    assert chi_packages(_counts("一五"), 9, True) == [((0, 4, 9), ())]
    assert ((10, 14, 19), ()) in chi_packages(_counts("壹伍八九"), 19, True)
    assert ((10, 14, 19), ()) not in chi_packages(_counts("壹伍八九"), 19)


def test_R19_bi_with_a_yiwushi() -> None:
    """R19: a hand holding another 五 must lay it out too (比). Holding 一十五三四 and
    taking 五: 吃 一五十 比 三四五 (one package, whichever is called 吃); without the
    option 三四五 leaves 五 with no 比 group: no 吃 at all."""
    hand = _counts("一十五三四")
    assert chi_packages(hand, 4, True) == [((0, 4, 9), ((2, 3, 4),))]
    assert chi_packages(hand, 4) == []
    # 一五十 as the 比 group of another 吃: 四五六 taking 五, 一五十 for the held 五
    assert ((0, 4, 9), ((3, 4, 5),)) in chi_packages(_counts("一十五四六"), 4, True)


def test_packed_packages_keep_the_option_apart() -> None:
    """The engine's cached form (keyed on the hand's neighbourhood of X) answers as
    :func:`chi_packages` does for both options, asked in turn on the same hands."""
    rng = random.Random(7)
    for _ in range(400):
        hand = [rng.randrange(20) for _ in range(rng.randint(4, 14))]
        counts = [min(3, hand.count(k)) for k in range(20)]
        packed = sum(c << 3 * k for k, c in enumerate(counts))
        x = rng.choice((0, 4, 9, 10, 14, 19, rng.randrange(20)))
        for yws in (False, True, False):
            got = [(g[0], g[1:]) for g, _ in packages_packed(packed, x, yws)]
            assert got == chi_packages(counts, x, yws), (hand, x, yws)


def test_the_engine_offers_the_chi_only_with_the_option() -> None:
    """R15/R19 in play: seat 1 holding 一十 (and 三四) is offered 吃 一五十 on the dealer's
    五 under the option, 吃 三四五 only without it."""
    hands = {0: "五六七八九壹贰叁柒捌肆肆陆陆", 1: "一十三四二二捌捌玖玖七七叁叁"}
    for rules, want in ((HENGYANG, False), (HY, True)):
        t = game(hands, liangzhang="拾", rules=rules, avoid="五伍一十")
        act(t, 0, "discard:x5")
        offered = ids(t, 1)
        assert ("chi:x5:x1x5x10" in offered) is want and "chi:x5:x3x4x5" in offered
    act(t, 1, "chi:x5:x1x5x10")
    meld = t.table(1)[0]
    assert meld.kind is GroupKind.CHI and n("一五十") == tuple(meld.cards)


# -- winning (R22–R26) ---------------------------------------------------------------------
def test_a_hand_that_wins_only_with_yiwushi() -> None:
    """R22/R23: 一五十 壹伍拾 二三四 贰叁肆 七八 + 九 is 5 门子 only with 一五十 a 句:
    一五十 3 + 壹伍拾 6 = 9 ≥ 起胡 6; 囤 = 1 + ⌊(9 − 6)/3⌋ = 2; two red (十 拾): no 番."""
    p = P("一五十壹伍拾二三四贰叁肆七八", "九")
    off = settle(p, HENGYANG)
    assert not off.win and off.error == "not_winning"
    s = settle(p, HY)
    assert s.win and (s.huxi, s.deng, s.fan, s.di) == (9, 2, 1, 2)
    assert sorted(str(g) for g in s.groups) == [
        "句一五十", "句七八九", "句二三四", "句壹伍拾", "句贰叁肆"
    ]  # fmt: skip
    ref = _settle(p, HY, 0)  # the reference path, every step asked
    assert (ref.win, ref.huxi, ref.di) == (s.win, s.huxi, s.di)


def test_a_table_yiwushi_counts_and_is_refused_without_the_option() -> None:
    """R9/R33: a 吃 一五十 on the table counts 3; under rules without the option it is
    no 句, and the evaluator says so rather than price it."""
    p = P("壹伍拾二三四贰叁肆七八", "九", ("chi:一五十",))
    s = settle(p, HY)
    assert s.win and s.huxi == 9
    assert evaluator_for(HY).current_huxi(pack(p.hand), p.table) == 9
    ev = evaluator_for(HENGYANG)
    for ask in (lambda: settle(p, HENGYANG), lambda: ev.best(p), lambda: ev.plan(p)):
        with pytest.raises(ValueError, match="only where the rules play it"):  # either build
            ask()


def test_R26_the_best_split_uses_yiwushi_where_it_pays() -> None:
    """R26 with the option: 一一五五十十 splits as 绞 一一壹… or as two 一五十; the
    evaluator takes the 一五十 (3 + 3) and counts both splits (R46)."""
    p = P("一一五五十十壹伍拾七八九捌捌", "捌")
    off, on = settle(p, HENGYANG), settle(p, HY)
    assert not off.win and off.huxi == 3  # 碰捌 3 only: below 起胡 6
    assert on.win and on.huxi == 3 + 3 + 3 + 6  # 碰捌, 一五十 ×2, 壹伍拾
    assert (split_count(p), split_count(p, True)) == (1, 2)
    assert len(set(map(frozenset, decompositions(p, True)))) == 2


def test_memos_never_mix_the_options() -> None:
    """Every memo keyed on a hand (the size tables, split counts, the packed 吃) keeps
    the option apart: asked in turn, each side answers its own."""
    p = P("一五十壹伍拾二三四贰叁肆七八", "九")
    key = pack(parse_cards("一五十"))
    for _ in range(2):
        assert _size_count(key, False, 0) == 0 and _size_count(key, False, 0, True) == 1
        assert evaluator_for(HENGYANG).best(p) == -1 and evaluator_for(HY).best(p) == 9
        assert (split_count(p), split_count(p, True)) == (0, 1)
    assert evaluator_for(HY).sizes is not evaluator_for(HENGYANG).sizes
    assert evaluator_for(HY)._kernel is None  # the C kernel knows no 一五十


# The fast settlement against the reference path and the splits listed, 20-card hands
# drawn with 一五十 in their shapes: 湖南's table (most 胡息, R26), 常德's and 娄底's
# (best 底 over every split, R46, with 名堂 that read the split).
SETTLE_RULES = tuple(preset(name).replace(yiwushi=True) for name in ("hunan", "changde", "loudi"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(yiwushi=True), st.sampled_from(range(len(SETTLE_RULES))), st.booleans())
def test_the_fast_settlement_is_the_stepwise_one(p: Position, i: int, drawn: bool) -> None:
    """R34–R37, R46 with the option: settle's memoised path (the plan, its split count,
    the outcomes of every split) gives what the path asking every step gives; the
    outcomes are those of every split :func:`decompositions` lists with 一五十."""
    from paohuzi.core.evaluator import FOURS
    from paohuzi.core.profile import of_split

    rules = SETTLE_RULES[i]
    q = Position(p.hand, p.table, p.win, self_drawn=drawn)
    for _ in range(2):
        _same(settle(q, rules), _settle(q, rules, 0))
    if q.win is None or q.packed & FOURS:
        return
    listed = set()
    for groups in decompositions(q, True):
        gh = [g.huxi(rules) for g in groups]
        listed.add((sum(gh), of_split(groups, gh)))
    assert evaluator_for(rules).outcomes(q) == listed


# -- play (R1, R17, records) ---------------------------------------------------------------
def test_seeded_hands_with_the_option_keep_invariants() -> None:
    """Seeded random play of 衡阳 with 一五十 to the end of each hand: R1/R8/R12/R17
    invariants, zero-sum payments, a record that checks; some hand lays out a 一五十."""
    laid = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = GameState(HY, seed)
        while not s.is_terminal():
            check_invariants(s)
            a = random_choice(s, rng, 0.9)
            if a.type == CHI and any(tuple(sorted(map(int, g))) in YWS for g in a.groups):
                laid += 1
                assert index_of(a) >= BASE_ACTION_COUNT
            s.apply(a)
        check_invariants(s)
        check_payments(s)
        rec = json.loads(json.dumps(record(s), ensure_ascii=False))
        assert rec["rules"]["yiwushi"] is True and check(rec) == []
    assert laid, "no 一五十 was 吃'd in 40 seeded hands"


def test_the_independent_referee_judges_yiwushi() -> None:
    """The referee (tests/referee.py, RULES.md and PRESETS.md alone) passes a record whose
    hand 吃'd a 一五十 under the option, and flags that 吃 (R15) once the record's rules
    say the option is off."""
    from referee import check as referee_check
    from referee import tag

    for seed in range(40):
        rng = random.Random(seed)
        s = GameState(HY, seed)
        laid = False
        while not s.is_terminal():
            a = random_choice(s, rng, 0.9)
            laid |= a.type == CHI and any(tuple(sorted(map(int, g))) in YWS for g in a.groups)
            s.apply(a)
        if laid:
            break
    assert laid
    rec = json.loads(json.dumps(record(s), ensure_ascii=False))
    assert referee_check(rec) == []
    del rec["rules"]["yiwushi"]
    assert "R15" in {tag(p) for p in referee_check(rec)}


def test_bots_play_the_option_and_the_calculator_agrees() -> None:
    """Greedy bots play 衡阳 with 一五十 (4 seats, 14 cards): each win rescores through
    the calculator (``score_line``) to the recorded 底; some win holds a 一五十."""
    wins = with_yws = 0
    for seed, res in won_hands(HY, range(60)):
        assert res.position is not None
        got, problem = score_line(json.dumps(res.position.to_dict(), ensure_ascii=False), HY)
        assert problem is None and got["di"] == res.settlement.di, seed
        with_yws += any(tuple(map(int, g.cards)) in YWS for g in res.settlement.groups)
        wins += 1
    assert wins >= 15 and with_yws


def test_bot_heuristics_know_yiwushi() -> None:
    """The bots' hand shape (bots/heuristics.py): under the option 一五十 is a made 门子
    (no card left over) and 一十 a partial; without it three loose cards."""
    from paohuzi.bots.heuristics import _shapes

    key = pack(parse_cards("一五十"))
    on, off = _shapes(3.0, 2.2, 0.7, True), _shapes(3.0, 2.2, 0.7)
    assert (on.leftover(key), off.leftover(key)) == (0, 3)
    assert on.score(key) == 3.0 and off.score(key) == 0.0
    assert on.score(pack(parse_cards("一十"))) == 0.7
    # the two-size memo keeps the option apart (asked in turn on one hand)
    from paohuzi.bots.heuristics import _leftover

    for _ in range(2):
        assert (_leftover(off, key, 0), _leftover(on, key, 0)) == (3, 0)


# -- the calculator (docs/calculator.md) ---------------------------------------------------
HAND = "一五十壹伍拾二三四贰叁肆七八"


def test_cli_scores_with_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    """``paohuzi score --rules hengyang:yiwushi=on``: 9 胡息, 2 囤; without the option
    the same hand does not win."""
    assert main(["score", HAND, "--win", "九", "--rules", "hengyang:yiwushi=on", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["win"], d["huxi"], d["di"]) == (True, 9, 2)
    assert {"kind": "ju", "cards": "壹伍拾", "huxi": 6} in d["groups"]
    main(["score", HAND, "--win", "九", "--rules", "hengyang", "--json"])
    assert json.loads(capsys.readouterr().out)["win"] is False


def test_cli_refuses_a_table_yiwushi_without_the_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A 吃 一五十 on the table cannot occur without the option (INTERFACES §1: exit 2)."""
    argv = ["score", "壹伍拾二三四贰叁肆七八", "--table", "chi:一五十", "--win", "九"]
    assert main([*argv, "--rules", "hengyang"]) == 2
    assert "yiwushi=on" in capsys.readouterr().err
    assert main([*argv, "--rules", "hengyang:yiwushi=on"]) == 0


# -- RL (core/action_index.py) -------------------------------------------------------------
def test_rl_spaces_follow_the_option() -> None:
    """Rules without 一五十 keep the 914 indices trained networks know; with it the
    environments offer all of them, and a 一五十 吃 is a legal index ≥ 914."""
    pytest.importorskip("pettingzoo")
    from paohuzi.rl import paohuzi_v0

    env = paohuzi_v0.env(rules="hengyang:yiwushi=on")
    assert env.action_space("player_0").n == ACTION_COUNT
    assert paohuzi_v0.env(rules="hengyang").action_space("player_0").n == BASE_ACTION_COUNT
    env.reset(seed=3)
    rng = random.Random(3)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].shape == (ACTION_COUNT,)
        env.step(int(rng.choice(list(obs["action_mask"].nonzero()[0]))))


def test_a_914_policy_plays_the_option() -> None:
    """A policy trained on 914 indices (``actions=914``) sits at a 一五十 table: it is
    handed 914-long masks, the 一五十 吃 masked out for it, and plays hands to the end."""
    pytest.importorskip("numpy")
    from paohuzi.bots.policy import PolicyBot

    seen: list[int] = []

    def policy(obs: object, mask: object) -> int:
        import numpy as np

        m = np.asarray(mask)
        seen.append(m.size)
        return int(np.flatnonzero(m)[-1])

    for seed in range(3):
        bots = [PolicyBot(policy, "p914", actions=914), *(make_bot("greedy") for _ in range(3))]
        Table(bots, HY, seed, 1).play_hand()
    assert seen and set(seen) == {914}
