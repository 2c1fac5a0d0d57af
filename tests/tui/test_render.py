"""The terminal game's text pieces, from view data only (R3 colours, R8/R11–R13 automations,
R19 比 packages, hidden 偎/提 cards)."""

from __future__ import annotations

import pytest

from bot_hands import bot_hand
from paohuzi.core.actions import Action
from paohuzi.core.cards import Card, parse_cards
from paohuzi.core.events import Event
from paohuzi.core.melds import GroupKind
from paohuzi.core.views import MeldView, view
from paohuzi.core.vocab import EventType, Source
from paohuzi.tui import render as R


def c(code: str) -> Card:
    return Card.parse(code)


def cards(codes: str) -> list[Card]:
    return parse_cards(codes)


def styles(text) -> set[str]:
    return {str(span.style) for span in text.spans} | {str(text.style)}


def test_red_and_big_cards_are_distinct() -> None:
    """R3: 二七十 / 贰柒拾 red; 大字 bold (and underlined) so 八 and 捌 differ."""
    for code in ("x2", "x7", "x10", "d2", "d7", "d10"):
        assert "red" in R.card_text(c(code)).style, code
    for code in ("x1", "x8", "d1", "d8"):
        assert "red" not in R.card_text(c(code)).style, code
    for code in ("d1", "d8", "d10"):
        assert "bold" in R.card_text(c(code)).style, code
    for code in ("x1", "x8"):
        assert "bold" not in R.card_text(c(code)).style, code
    assert R.card_text(c("d8")).plain == "捌" and R.card_text(c("x8")).plain == "八"
    assert R.card_text(Card.X1).plain == "一"  # card 0 is a card, not "no card"
    assert R.card_text(None).plain == "▒▒"


def test_hand_groups_kan_first_then_by_point() -> None:
    hand = cards("x10 x3 d2 x1 x3 x1 d1 x2 x1 d9 d9 d9")
    assert R.group_hand(hand) == [
        cards("x1 x1 x1"),
        cards("d9 d9 d9"),
        cards("d1"),
        cards("x2 d2"),
        cards("x3 x3"),
        cards("x10"),
    ]


def test_only_discardable_cards_get_numbers() -> None:
    """R17: a 坎 is never offered as a discard, so its cards carry no number."""
    slots = R.hand_slots(cards("x1 x1 x1 x5 d5 x9"), cards("x5 d5 x9"))
    shown, numbers = R.hand_text(slots, cursor=3, numbered=True).plain.split("\n")
    assert shown.split() == ["一", "一", "一", "五", "伍", "九"]
    assert numbers.split() == ["1", "2", "3"]
    assert R.selectable_indices(slots) == [3, 4, 5]


def test_face_down_melds_are_hidden() -> None:
    """Another seat's 偎 shows nothing, its 提/臭偎 one card (the view gives None)."""
    wei = MeldView(GroupKind.WEI, (None,) * 3, None)
    assert R.meld_text(wei).plain == "偎▒▒▒▒▒▒"
    ti = MeldView(GroupKind.TI, (c("x4"), None, None, None), 12)
    assert R.meld_text(ti).plain == "提四▒▒▒▒▒▒"
    peng = MeldView(GroupKind.PENG, (c("d3"),) * 3, 3)
    assert R.meld_text(peng).plain == "碰叁叁叁"
    assert R.melds_text([]).plain == "—"


def test_automatic_melds_are_announced() -> None:
    """R8/R11–R13: 提, 偎, 跑 happen by themselves and say so in the log."""
    names = {0: "你", 1: "下家"}
    ti = R.event_text(Event(EventType.TI, 0, c("x4"), Source.HAND), names)
    assert ti is not None and ti.plain == "你 提 四▒▒▒▒▒▒  自动"
    wei = R.event_text(Event(EventType.WEI, 1, None, Source.DRAW, shown=False), names)
    assert wei is not None and wei.plain == "下家 偎 ▒▒▒▒▒▒  自动"
    pao = R.event_text(Event(EventType.PAO, 1, c("d5"), Source.DISCARD), names)
    assert pao is not None and pao.plain == "下家 跑 伍伍伍伍  自动"
    assert R.event_text(Event(EventType.PILE, 1, c("d5")), names) is None


def test_chi_event_shows_every_bi_group() -> None:
    """R19: a 吃 with 比 in the log — the event carries its groups as codes (§4)."""
    groups = (("x1", "x2", "x3"), ("x2", "x2", "d2"))
    e = Event(EventType.CHI, 1, c("x2"), Source.DISCARD, data=(("groups", groups),))
    line = R.event_text(e, {1: "下家"})
    assert line is not None and line.plain == "下家 吃 二  一二三  比 二二贰"


def test_chi_option_shows_every_bi_group() -> None:
    """R19 seed example 2: 吃 一二三 with 比 二二贰 is one option, shown as card groups."""
    opt = R.option_text(Action.from_id(0, "chi:x2:x1x2x3,x2x2d2"), c("x2")).plain
    assert opt == "吃 一二三  比 二二贰"
    two = R.option_text(Action.from_id(0, "chi:x2:x2d2d2,x1x2x3,x2x3x4"), c("x2")).plain
    assert two == "吃 一二三  比 二三四 二贰贰"  # canonical order: groups sorted (§4)
    assert R.option_text(Action.from_id(0, "peng:d5"), c("d5")).plain == "碰 伍伍伍"
    assert R.option_text(Action.from_id(0, "pass"), c("d5")).plain.startswith("过")
    assert R.option_text(Action.from_id(0, "hu"), Card.X1).plain == "胡 一  (win)"
    # R41: a 王 pattern's 胡 says its 番 (王钓 4, 王闯 8 in 永州): two on a card differ
    from paohuzi.core.rules import PRESETS

    yz = PRESETS["yongzhou"]
    diao = R.option_text(Action.from_id(0, "hu:wangdiao"), Card.D10, yz).plain
    chuang = R.option_text(Action.from_id(0, "hu:wangchuang"), Card.D10, yz).plain
    assert "王钓 4番" in diao and "王闯 8番" in chuang, (diao, chuang)
    # R41: a pattern 胡 names its pattern, so it reads apart from a plain 胡
    assert (
        R.option_text(Action.from_id(0, "hu:wangdiao"), Card.X1).plain == "胡 一  王钓 (win, R41)"
    )


def test_claim_marks_the_cards_it_takes() -> None:
    slots = R.hand_slots(cards("x1 x2 x2 x3 x3 x4 d2 d2"))
    chi = Action.from_id(0, "chi:x2:x1x2x3,x2x2d2")
    taken = [slots[i].card for i in R.used_from_hand(chi, slots)]
    # the 吃 uses 一 三 from hand (二 is the taken card); the 比 uses 二 二 贰
    assert sorted(taken) == sorted(cards("x1 x3 x2 x2 d2"))
    peng = Action.from_id(0, "peng:d2")
    assert [slots[i].card for i in R.used_from_hand(peng, slots)] == cards("d2 d2")


def test_only_own_passes_are_logged() -> None:
    """Another seat's 过 would reveal that it could 吃/碰 (R20 臭牌 are private)."""
    names = {0: "你", 1: "下家"}
    mine = R.event_text(Event(EventType.PASS, 0, c("x3")), names, me=0)
    assert mine is not None and mine.plain == "你 过 三"
    assert R.event_text(Event(EventType.PASS, 1, c("x3")), names, me=0) is None


def test_open_card_verb() -> None:
    assert R.source_zh(Source.DRAW) == "翻出" and R.source_zh(Source.DISCARD) == "打出"
    assert R.source_zh(Source.LIANGZHANG) == "亮张" and R.source_zh(None) == "出"


def test_the_log_tells_each_xing_card_turned() -> None:
    """R42: the terminal's log writes each 醒牌, the card turned for it and how many of
    its kind the winner holds (it once wrote no line for them)."""
    from paohuzi.core.variants import parse
    from paohuzi.core.vocab import EventType
    from paohuzi.tui import render as R

    told = 0
    for name in ("guilin", "guilin:xing=gen"):
        rules = parse(name)
        for seed in range(12):
            st = bot_hand(rules, seed)
            for e in st.events:
                if e.type is EventType.XING:
                    line = R.event_text(e, {s: f"P{s}" for s in range(3)})
                    assert line is not None
                    text = line.plain
                    assert f"醒牌 {e.card.zh}" in text and f"门子中 {e.get('count')} 张" in text
                    assert ("跟醒" in text) == (name.endswith("gen") and e.source is None)
                    told += 1
    assert told >= 10


@pytest.mark.parametrize(("name", "why"), [("yongzhou:wangpai=on", "亡牌"), ("loudi", "罚 10 息")])
def test_a_huangzhuang_that_moves_points_says_why(name: str, why: str) -> None:
    """R32/R45, 亡牌: the terminal's 荒庄 sheet once said "no score" beside payments."""
    from paohuzi.core.variants import parse
    from paohuzi.tui import render as R

    rules = parse(name)
    for seed in range(80):
        st = bot_hand(rules, seed, "random")
        if st.result is not None and st.result.winner is None and any(st.result.scores):
            names = {s: f"P{s}" for s in range(rules.players)}
            text = R.settlement_text(view(st, st.seats[0]), names, [0] * rules.players, "").plain
            assert why in text and "no score" not in text
            return
    raise AssertionError("no 荒庄 that moved points")


def test_the_sit_out_seat_says_what_it_collects() -> None:
    """永州 坐醒 (4 seats): the sheet names the seat that sits out and 番 × 醒数, what
    each loser pays it — the payments column alone did not add up to 底."""
    from paohuzi.core.rules import PRESETS

    rules = PRESETS["yongzhou"].with_players(4)
    for seed in range(40):
        st = bot_hand(rules, seed)
        res = st.result
        if res is None or res.settlement is None or not res.settlement.xing:
            continue
        out = next(s for s in range(4) if s not in st.seats)
        names = {s: f"P{s}" for s in range(4)}
        text = R.settlement_text(view(st, st.seats[0]), names, [0] * 4, "").plain
        each = res.settlement.fan * res.settlement.xing
        assert (
            f"坐醒 P{out} 收每家 番{res.settlement.fan} × 醒{res.settlement.xing} = {each}" in text
        )
        assert res.scores[out] == each * (len(st.seats) - 1)
        return
    raise AssertionError("no win with 醒 at four seats")


def test_a_race_says_its_target_and_at_its_end_the_pairwise_settlement() -> None:
    """R45 (娄底): under each hand the race's target; when the match is over the totals
    rounded to 10 and settled pairwise — the match's result, which the terminal once
    never showed (only the raw totals)."""
    from paohuzi.core.rules import PRESETS

    names = {0: "你", 1: "下家", 2: "上家"}
    loudi = PRESETS["loudi"]
    during = R.race_text(loudi, [10, 46, 64], names, over=False).plain
    assert "先到 100 息" in during and "两两" not in during
    end = R.race_text(loudi, [10, 106, 64], names, over=True).plain
    assert "取整到 10: 你 10  下家 110  上家 60" in end
    assert "你 -150  下家 +150  上家 +0" in end  # Σ (own − other), R45
    assert R.race_text(PRESETS["hunan"], [3, -3, 0], names, over=True).plain == ""


def test_a_win_on_a_turned_up_card_says_who_turned_it() -> None:
    """The sheet's first line names how the hand was won (docs/terminal.md): 自摸, or who
    放炮 — and, for a card another seat turned up from the wall, who turned it (翻出)."""
    from paohuzi.core.rules import HUNAN

    names = {0: "甲", 1: "乙", 2: "丙"}
    seen = {"turned": 0, "zimo": 0}
    for seed in range(60):
        st = bot_hand(HUNAN, seed)
        res = st.result
        if res is None or res.winner is None or res.position is None:
            continue
        line = R.settlement_text(view(st, 0), names, [0, 0, 0], "").plain.splitlines()[1]
        pos = res.position
        draws = [e for e in st.events if e.type == EventType.DRAW]
        if res.discarder is None and not (pos.self_drawn or pos.tianhu):
            assert draws[-1].card == pos.win and draws[-1].seat != res.winner
            assert line.endswith(f"{names[draws[-1].seat]}翻出"), line
            seen["turned"] += 1
        else:
            assert "翻出" not in line, line
            seen["zimo"] += pos.self_drawn
    assert seen["turned"] >= 3 and seen["zimo"] >= 1, seen
