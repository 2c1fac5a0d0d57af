"""Hypothesis strategies for valid scoring positions (R1, R17, R22–R27).

Most positions are built from a winning shape: seven 门子 are drawn first
(with a 将 when some group is a 跑/提), each is put on the table or in the
hand, the winning card is taken out of one of them (or out of a 跑/提 it would
make: 坎 + card, table 偎/碰 + card), and then the position is sometimes
perturbed. That biases generation towards wins and towards the tricky
completions (坎 + card, pair + card, table upgrades, 破跑胡) without making the
generator decide what wins: the oracle does that.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import assume
from hypothesis import strategies as st

from paohuzi.core.cards import Card
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.position import Position

RUNS = [(s + i, s + i + 1, s + i + 2) for s in (0, 10) for i in range(8)] + [
    (s + 1, s + 6, s + 9) for s in (0, 10)
]
JIAOS = [t for p in range(10) for t in ((p, p, p + 10), (p, p + 10, p + 10))]
# 衡阳's option (PRESETS hengyang): 一五十 / 壹伍拾 a 句 too; listed thrice so that drawn
# shapes hold them often (positions(yiwushi=True))
YIWUSHI_RUNS = [(s, s + 4, s + 9) for s in (0, 10)] * 3

# One drawn 门子: (shape, cards, location, table kind or None).
Drawn = tuple[str, tuple[int, ...], str, GroupKind | None]


def _fits(counts: Counter[int], cards: tuple[int, ...]) -> bool:
    need = Counter(cards)
    return all(counts[c] + n <= 4 for c, n in need.items())


@st.composite
def _group(
    draw: st.DrawFn,
    counts: Counter[int],
    shape: str,
    hand: Counter[int] | None = None,
    runs: list[tuple[int, int, int]] = RUNS,
) -> tuple[int, ...] | None:
    """Cards of one group of ``shape`` that still fit in the deck (R1), or None.

    With ``hand`` (the concealed cards so far) the group is kept from making an
    accidental 坎 there: three of a kind in hand that the shape splits is no win.
    """
    if shape == "four":
        options = [(c,) * 4 for c in range(20)]
    elif shape == "triple":
        options = [(c,) * 3 for c in range(20)]
    elif shape == "pair":
        options = [(c,) * 2 for c in range(20)]
    elif shape == "run":
        options = list(runs)
    else:
        options = list(JIAOS)
    options = [o for o in options if _fits(counts, o)]
    if hand is not None:
        limit = 3 if shape == "triple" else 2
        options = [o for o in options if all(hand[c] + n <= limit for c, n in Counter(o).items())]
    if not options:
        return None
    return draw(st.sampled_from(options))


@st.composite
def winning_shapes(draw: st.DrawFn, runs: list[tuple[int, int, int]] = RUNS) -> Position:
    """A position built from a 7-门子 winning shape (句 from ``runs``), then maybe perturbed."""
    fours = draw(st.sampled_from([0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4]))
    # The winning card may create the only 跑/提 (R17: only with none before).
    win_four = fours == 1 and draw(st.integers(0, 2)) == 0
    # 破跑胡 (R27): a hand 坎 of the winning card, the card used in a 句/绞.
    popao = not win_four and draw(st.integers(0, 4)) == 0
    counts: Counter[int] = Counter()
    drawn: list[Drawn] = []
    win: int | None = None
    if popao:
        sets = [s for s in runs + JIAOS if _fits(counts, s)]
        s = draw(st.sampled_from(sets))
        win = draw(st.sampled_from(sorted(set(s))))
        assume(s.count(win) == 1)
        counts.update(s)
        counts[win] += 3
        drawn += [("run", s, "hand", None), ("triple", (win,) * 3, "hand", None)]
    shapes = ["four"] * fours
    shapes += [
        draw(st.sampled_from(["triple", "run", "run", "run", "jiao"]))
        for _ in range((6 if fours else 7) - fours - len(drawn))
    ]
    if fours:
        shapes.append("pair")
    # Mostly keep accidental 坎s out of the hand (they usually kill the shape).
    tidy = draw(st.integers(0, 3)) > 0
    in_hand: Counter[int] = Counter(c for d in drawn for c in d[1])
    for i, shape in enumerate(shapes):
        meld = "hand"
        if shape == "four":
            where = "win4" if win_four and i == 0 else "table"
        elif shape == "triple":
            meld = draw(st.sampled_from(["hand", "hand", "peng", "wei", "chouwei"]))
            where = "hand" if meld == "hand" else "table"
        elif shape == "pair":
            where = "hand"
        else:
            where = "table" if draw(st.integers(0, 2)) == 0 else "hand"
        guard = in_hand if tidy and where == "hand" else None
        cards = draw(_group(counts, shape, guard, runs))
        assume(cards is not None)  # the deck ran out of that shape (R1): rare
        assert cards is not None
        counts.update(cards)
        if shape == "four" and where == "win4":
            kind = draw(st.sampled_from([None, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.PENG]))
        elif shape == "four":
            kind = draw(st.sampled_from([GroupKind.PAO, GroupKind.TI]))
        elif shape == "triple":
            kind = None if meld == "hand" else GroupKind(meld)
        elif shape == "pair":
            kind = None
        else:
            kind = GroupKind.CHI if where == "table" else None
        if where == "hand":
            in_hand.update(cards)
        drawn.append((shape, cards, where, kind))
    if not win_four and not any(d[2] == "hand" for d in drawn):
        # The winning card has to come out of the concealed part of the shape.
        j = draw(st.sampled_from([i for i, d in enumerate(drawn) if d[0] != "four"]))
        s, c, _, _ = drawn[j]
        drawn[j] = (s, c, "hand", None)
    table: list[Group] = []
    hand: list[int] = []
    for _shape, cards, where, kind in drawn:
        if where == "win4":
            win = cards[0]
            if kind is None:
                hand += cards[:3]  # 坎 + card → 跑/提
            else:
                table.append(Group(kind, cards[:3]))  # 偎/碰 + card → 跑/提
        elif where == "table":
            assert kind is not None
            table.append(Group(kind, cards))
        else:
            hand += cards
    if win is None:
        four_in_hand = [c for c, n in Counter(hand).items() if n == 4]
        win = draw(st.sampled_from(four_in_hand or sorted(set(hand))))
        hand.remove(win)
    elif popao:
        hand.remove(win)  # the 4th card of the 坎 kind is the winning card
    self_drawn = draw(st.booleans())
    hand, win = draw(_perturb(hand, table, win))
    assume(max(Counter(hand).values(), default=0) <= 3)
    return Position(tuple(Card(c) for c in hand), tuple(table), Card(win), self_drawn=self_drawn)


@st.composite
def _perturb(
    draw: st.DrawFn, hand: list[int], table: list[Group], win: int
) -> tuple[list[int], int]:
    """Usually nothing; sometimes swap one hand card or the winning card for another kind."""
    mode = draw(st.sampled_from(["keep"] * 6 + ["hand", "win"]))
    if mode == "keep":
        return hand, win
    used = Counter(hand) + Counter(int(c) for g in table for c in g.cards) + Counter([win])
    if mode == "hand" and hand:
        i = draw(st.integers(0, len(hand) - 1))
        used[hand[i]] -= 1
        free = [c for c in range(20) if used[c] < 4 and Counter(hand)[c] < 3 and c != hand[i]]
        if free:
            hand = list(hand)
            hand[i] = draw(st.sampled_from(free))
        return hand, win
    used[win] -= 1
    free = [c for c in range(20) if used[c] < 4 and c != win]
    return hand, (draw(st.sampled_from(free)) if free else win)


@st.composite
def random_positions(draw: st.DrawFn, runs: list[tuple[int, int, int]] = RUNS) -> Position:
    """Random table melds and a random hand of the R17 size: mostly not winning."""
    counts: Counter[int] = Counter()
    table: list[Group] = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(_TABLE_KINDS))
        shape = "four" if kind.is_four else ("run" if kind is GroupKind.CHI else "triple")
        if kind is GroupKind.CHI and draw(st.integers(0, 3)) == 0:
            shape = "jiao"
        cards = draw(_group(counts, shape, None, runs))
        if cards is None:
            continue
        counts.update(cards)
        table.append(Group(kind, cards))
    k = sum(1 for g in table if g.kind.is_four)
    size = 20 + max(0, k - 1) - sum(len(g.cards) for g in table)
    assume(size >= 0)
    hand: list[int] = []
    for _ in range(size + 1):
        free = [c for c in range(20) if counts[c] < 4 and hand.count(c) < 3]
        assume(free)
        c = draw(st.sampled_from(free))
        counts[c] += 1
        hand.append(c)
    win = hand.pop()
    return Position(
        tuple(Card(c) for c in hand), tuple(table), Card(win), self_drawn=draw(st.booleans())
    )


_TABLE_KINDS = [
    GroupKind.CHI,
    GroupKind.PENG,
    GroupKind.WEI,
    GroupKind.CHOUWEI,
    GroupKind.PAO,
    GroupKind.TI,
]


def positions(yiwushi: bool = False) -> st.SearchStrategy[Position]:
    """Valid positions, mostly from winning shapes (see the module docstring); with
    ``yiwushi`` their 句 (in hand and 吃) include 一五十 / 壹伍拾 (衡阳's option)."""
    runs = RUNS + YIWUSHI_RUNS if yiwushi else RUNS
    return st.integers(0, 5).flatmap(
        lambda i: random_positions(runs) if i == 5 else winning_shapes(runs)
    )


def table_melds() -> st.SearchStrategy[Group]:
    """Any single valid table meld (for the Group round trip, R9/§3)."""
    return st.one_of(
        st.builds(lambda c: Group(GroupKind.CHI, c), st.sampled_from(RUNS + JIAOS)),
        st.builds(
            lambda k, c: Group.of(k, c),
            st.sampled_from(
                [GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.PAO, GroupKind.TI]
            ),
            st.integers(0, 19),
        ),
    )
