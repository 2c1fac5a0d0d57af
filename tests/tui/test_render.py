"""The terminal game's text pieces, from view data only (R3 colours, R8/R11–R13 automations,
R19 比 packages, hidden 偎/提 cards)."""

from __future__ import annotations

from paohuzi.tui import render as R


def styles(text) -> set[str]:
    return {str(span.style) for span in text.spans} | {str(text.style)}


def test_red_and_big_cards_are_distinct() -> None:
    """R3: 二七十 / 贰柒拾 red; 大字 bold (and underlined) so 八 and 捌 differ."""
    for code in ("x2", "x7", "x10", "d2", "d7", "d10"):
        assert "red" in R.card_text(code).style, code
    for code in ("x1", "x8", "d1", "d8"):
        assert "red" not in R.card_text(code).style, code
    for code in ("d1", "d8", "d10"):
        assert "bold" in R.card_text(code).style, code
    for code in ("x1", "x8"):
        assert "bold" not in R.card_text(code).style, code
    assert R.card_text("d8").plain == "捌" and R.card_text("x8").plain == "八"


def test_hand_groups_kan_first_then_by_point() -> None:
    hand = ["x10", "x3", "d2", "x1", "x3", "x1", "d1", "x2", "x1", "d9", "d9", "d9"]
    assert R.group_hand(hand) == [
        ["x1", "x1", "x1"],
        ["d9", "d9", "d9"],
        ["d1"],
        ["x2", "d2"],
        ["x3", "x3"],
        ["x10"],
    ]


def test_only_discardable_cards_get_numbers() -> None:
    """R17: a 坎 is never offered as a discard, so its cards carry no number."""
    slots = R.hand_slots(["x1", "x1", "x1", "x5", "d5", "x9"], ["x5", "d5", "x9"])
    cards, numbers = R.hand_text(slots, cursor=3, numbered=True).plain.split("\n")
    assert cards.split() == ["一", "一", "一", "五", "伍", "九"]
    assert numbers.split() == ["1", "2", "3"]
    assert R.selectable_indices(slots) == [3, 4, 5]


def test_face_down_melds_are_hidden() -> None:
    """Another seat's 偎 shows nothing, its 提/臭偎 one card (the view gives None)."""
    assert R.meld_text({"kind": "wei", "cards": [None] * 3}).plain == "偎▒▒▒▒▒▒"
    assert R.meld_text({"kind": "ti", "cards": ["x4", None, None, None]}).plain == "提四▒▒▒▒▒▒"
    assert R.meld_text({"kind": "peng", "cards": ["d3"] * 3}).plain == "碰叁叁叁"
    assert R.melds_text([]).plain == "—"


def test_automatic_melds_are_announced() -> None:
    """R8/R11–R13: 提, 偎, 跑 happen by themselves and say so in the log."""
    names = {0: "你", 1: "下家"}
    ti = R.event_text({"type": "ti", "seat": 0, "card": "x4", "source": "hand"}, names)
    assert ti is not None and ti.plain == "你 提 四▒▒▒▒▒▒  自动"
    wei = R.event_text({"type": "wei", "seat": 1, "card": None, "source": "draw"}, names)
    assert wei is not None and wei.plain == "下家 偎 ▒▒▒▒▒▒  自动"
    pao = R.event_text({"type": "pao", "seat": 1, "card": "d5", "source": "discard"}, names)
    assert pao is not None and pao.plain == "下家 跑 伍伍伍伍  自动"
    assert R.event_text({"type": "pile", "seat": 1, "card": "d5"}, names) is None


def test_chi_option_shows_every_bi_group() -> None:
    """R19 seed example 2: 吃 一二三 with 比 二二贰 is one option, shown as card groups."""
    opt = R.option_text("chi:x2:x1x2x3,x2x2d2", "x2").plain
    assert opt == "吃 一二三  比 二二贰"
    two = R.option_text("chi:x2:x2d2d2,x1x2x3,x2x3x4", "x2").plain
    assert two == "吃 一二三  比 二三四 二贰贰"  # canonical order: groups sorted (§4)
    assert R.option_text("peng:d5", "d5").plain == "碰 伍伍伍"
    assert R.option_text("pass", "d5").plain.startswith("过")


def test_claim_marks_the_cards_it_takes() -> None:
    slots = R.hand_slots(["x1", "x2", "x2", "x3", "x3", "x4", "d2", "d2"])
    taken = [slots[i].code for i in R.used_from_hand("chi:x2:x1x2x3,x2x2d2", slots)]
    # the 吃 uses 一 三 from hand (二 is the taken card); the 比 uses 二 二 贰
    assert sorted(taken) == sorted(["x1", "x3", "x2", "x2", "d2"])
    assert [slots[i].code for i in R.used_from_hand("peng:d2", slots)] == ["d2", "d2"]


def test_only_own_passes_are_logged() -> None:
    """Another seat's 过 would reveal that it could 吃/碰 (R20 臭牌 are private)."""
    names = {0: "你", 1: "下家"}
    mine = R.event_text({"type": "pass", "seat": 0, "card": "x3"}, names, me=0)
    assert mine is not None and mine.plain == "你 过 三"
    assert R.event_text({"type": "pass", "seat": 1, "card": "x3"}, names, me=0) is None
