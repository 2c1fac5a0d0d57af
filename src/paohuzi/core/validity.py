"""可胡否 (could it occur): whether a position can occur under a rules object.

A :class:`~paohuzi.core.position.Position` is checked against the card counts of R1
and R17 when it is made; what depends on the rules too — the deal size (R43), 王
(R39, R40), 一五十 (衡阳's option), 天胡/地胡 (R28, R29) and the 醒牌 (R42) — is judged
here, as python-chess's ``Board.is_valid`` judges a position it was given. The scorer
settles any position (tests and what-ifs); ``paohuzi score`` and :func:`paohuzi.evaluate`
refuse one for which :func:`position_problem` names a problem.
"""

from __future__ import annotations

from .cards import CARDS, WANG, Card
from .melds import GroupKind, is_yiwushi
from .position import Position, deal_win_problem
from .rules import Dihu, Rules, Xing


def position_problem(position: Position, rules: Rules) -> str | None:
    """Why ``position`` cannot occur under ``rules`` (its deal size, its 王, its 一五十, its
    天胡/地胡 flags, its mandatory 天胡, its 醒牌), or None."""
    return (
        hand_size_problem(position, rules)
        or wang_problem(position, rules)
        or yiwushi_problem(position, rules)
        or dihu_problem(position, rules)
        or deal_win_problem(position)
        or tianhu_problem(position, rules)
        or xing_problem(position, rules)
    )


def hand_size_problem(position: Position, rules: Rules) -> str | None:
    """A position dealt another hand size than the rules deal (R7, R43)."""
    if position.hand_size != rules.hand_size:
        return (
            f"a position of {position.hand_size}-card hands, but these rules ({rules.name}) "
            f"deal {rules.hand_size} (R43): read it with hand_size={rules.hand_size}"
        )
    return None


def wang_problem(position: Position, rules: Rules) -> str | None:
    """Why a position with 王 cannot occur under ``rules`` (R39, R40), or None."""
    n = position.wang + position.win_wang
    if not n:
        return None
    if rules.wang and n > rules.wang:
        return f"{n} 王, but these rules ({rules.name}) deal {rules.wang} (R39)"
    if position.wang and not (position.self_drawn or position.tianhu or position.pattern):
        return (
            "a player holding a 王 wins only on his own turned-up card (self-drawn) or by "
            "a 王 pattern, never on another player's card (R40)"
        )
    return None


def yiwushi_problem(position: Position, rules: Rules) -> str | None:
    """A 吃 of 一五十 / 壹伍拾 is a 句 only under 衡阳's option (``yiwushi``, PRESETS)."""
    if rules.yiwushi:
        return None
    for g in position.table:
        if is_yiwushi(g.cards):
            return (
                f"{g.kind.value}:{g.zh} is no 句 under these rules ({rules.name}): 一五十 is "
                "one only with 衡阳's option (--rules hengyang:yiwushi=on)"
            )
    return None


def dihu_problem(position: Position, rules: Rules) -> str | None:
    """A 地胡 under rules that have none (R29: 永州 wins only on turned-up cards)."""
    if position.dihu and rules.dihu == Dihu.NONE:
        return f"these rules ({rules.name}) have no 地胡 (R29)"
    return None


def tianhu_problem(position: Position, rules: Rules) -> str | None:
    """A mandatory 天胡 (no winning card) without the 提 or 坎 that make it, or an elective
    one (with the 亮张 as its winning card) whose 亮张 makes them (R28), or None."""
    if position.win_wang or not position.tianhu:
        return None
    ti = sum(g.kind is GroupKind.TI for g in position.table)
    if position.win is not None:  # elective: unless the 亮张 makes the 3rd 提 or 5th 坎
        cards = [*position.hand, position.win]
        counts = [cards.count(c) for c in set(cards)]
        if rules.mandatory_tianhu(ti + counts.count(4), counts.count(3)):
            return (
                f"with the 亮张 {position.win.zh} the dealer holds the 提/坎 of a mandatory 天胡 "
                "(R28): it is won at the deal with no winning card — give the 亮张 in the "
                "hand, without --win"
            )
        return None
    counts = [position.hand.count(c) for c in set(position.hand)]
    kan = counts.count(3)
    if rules.mandatory_tianhu(ti, kan):
        return None
    need = " or ".join(
        x
        for x in (
            f"{rules.tianhu_ti} 提" if rules.tianhu_ti else "",
            f"{rules.tianhu_kan} 坎 (a 提 counts as one)" if rules.tianhu_kan else "",
        )
        if x
    )
    return (
        f"a mandatory 天胡 (no winning card) needs {need or 'what these rules do not have'}; "
        f"this hand has {ti} 提 and {kan} 坎 (R28, {rules.name}): give --win for an elective 天胡"
    )


def xing_problem(position: Position, rules: Rules) -> str | None:
    """醒牌 that cannot follow this win (R42), as the engine turns them: none where the
    rules turn no 醒; the winning card's first under 跟醒, and under 翻醒 after 海底
    (the wall is empty); a second only under 连翻, with wall left, after a 醒牌 that
    made a four-group in the winner's 门子 — his three of it and the card turned from
    the wall, or all four his own when the 醒牌 was the winning card's."""
    xing = position.xing
    if not xing:
        return None
    if rules.xing == Xing.NONE:
        return f"these rules ({rules.name}) turn no 醒 (R42): leave out the 醒牌"
    win = position.win
    # the first 醒牌 is the winning card's (not one turned from the wall)
    own = win is not None and (rules.xing == Xing.GEN or position.last_card)
    if own and xing[0] != win_xing(win, rules):  # type: ignore[arg-type]
        why = "跟醒" if rules.xing == Xing.GEN else "海底 (the wall is empty)"
        want = win_xing(win, rules).zh  # type: ignore[arg-type]
        return f"under {why} the 醒牌 is the winning card's: {want} (R42), not {xing[0].zh}"
    held = held_kinds(position)
    # R1: each 醒牌 turned from the wall is a natural card the wall still held — the card
    # whose 醒牌 it is (the rules' offset), unless a 王 turned gave it (its kind held most)
    wild = CARDS[rules.xing_kind(WANG, held)] if rules.wang else None
    turned = [0] * 20
    for i, x in enumerate(xing):
        if (own and i == 0) or x == wild:
            continue
        card = next(c for c in CARDS if rules.xing_kind(c, ()) == x)
        if held[card] + turned[card] >= 4:
            gone = "the winner's" if not turned[card] else "the winner's or turned already"
            return f"醒牌 {x.zh} cannot have been turned: all four {card.zh} are {gone} (R1, R42)"
        turned[card] += 1
    if len(xing) == 1:
        return None
    if not rules.xing_chain:
        return f"one 醒牌: these rules ({rules.name}) do not turn again (连翻 off, R42)"
    if position.last_card:
        return "one 醒牌: after 海底 no wall card is left to turn (连翻, R42)"
    for i, x in enumerate(xing[:-1]):
        need = 4 if own and i == 0 else 3  # (+1: the card turned from the wall)
        if held[x] != need:
            return (
                f"醒牌 {x.zh} makes no four-group with the winner's cards ({held[x]} held), "
                "so no further 醒牌 is turned (连翻, R42)"
            )
    return None


def held_kinds(position: Position) -> list[int]:
    """The winner's natural cards per kind (hand, table, winning card): what R42 counts."""
    held = [0] * 20
    for c in position.all_cards():
        held[c] += 1
    return held


def win_xing(card: int, rules: Rules) -> Card:
    """The 醒牌 the winning card gives (R42: :meth:`Rules.xing_kind`)."""
    return CARDS[rules.xing_kind(card, ())]
