"""R46 (best score) and R42/R43 checked against the independent brute force of
``tests/oracle_score.py`` on many generated positions of 桂林, 衡阳, 娄底 and 永州.

Positions are built from random 门子 (table melds, 坎, 句, 绞, a 将 beside any
跑/提), 7 of them — 5 for 衡阳's 14-card hands (R43) — with random 醒牌 and win
flags; the engine's settlement must be a win exactly when the oracle finds a
split with ≥ 起胡, and then be worth the oracle's best score.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from oracle import JIAOS, RUNS
from oracle_score import best_score
from paohuzi.core.cards import Card
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.position import Position, PositionError
from paohuzi.core.rules import GUILIN, HENGYANG, LOUDI, YONGZHOU, YONGZHOU_HONGZHUAN, Rules
from paohuzi.core.scoring import settle

SETS = RUNS + JIAOS
K = GroupKind


@st.composite
def positions(draw: st.DrawFn, rules: Rules) -> Position:
    n = rules.melds_to_win
    four = draw(st.sampled_from([None, K.PAO, K.TI]))
    table: list[Group] = []
    hand: list[int] = []
    slots = n - (1 if four else 0) - (1 if four else 0)  # a four and its 将
    if four:
        table.append(Group.of(four, draw(st.integers(0, 19))))
        p = draw(st.integers(0, 19))
        hand += [p, p]
    for _ in range(slots):
        kind = draw(st.sampled_from(["set", "set", "set", "kan", "peng", "wei", "chi"]))
        if kind == "set":
            hand += list(draw(st.sampled_from(SETS)))
        elif kind == "kan":
            hand += [draw(st.integers(0, 19))] * 3
        elif kind == "chi":
            table.append(Group(K.CHI, tuple(Card(c) for c in draw(st.sampled_from(SETS)))))
        else:
            table.append(Group.of(K.PENG if kind == "peng" else K.WEI, draw(st.integers(0, 19))))
    assume(hand)
    win = draw(st.sampled_from(hand))
    hand.remove(win)
    counts = Counter(hand)
    for g in table:
        counts.update(int(c) for c in g.cards)
    assume(max(counts.values()) + (win in counts) <= 4)
    self_drawn = draw(st.booleans())
    flags = {
        "self_drawn": self_drawn,
        "last_card": draw(st.booleans()) and not draw(st.booleans()),
        "tianhu": self_drawn and draw(st.integers(0, 5)) == 0,
        "dihu": not self_drawn and draw(st.integers(0, 5)) == 0,
    }
    xing = draw(st.lists(st.integers(0, 19), max_size=2)) if rules.xing != "none" else []
    try:
        return Position(
            tuple(Card(c) for c in hand),
            tuple(table),
            Card(win),
            hand_size=rules.hand_size,
            xing=tuple(Card(x) for x in xing),
            **flags,
        )
    except PositionError:
        assume(False)
        raise


def _agree(p: Position, rules: Rules) -> None:
    s = settle(p, rules)
    want = best_score(p, rules)
    event("win" if want is not None else "no win")
    if want is None:
        assert not s.win, (p, s)
    else:
        assert s.win, (p, s.error)
        assert s.di == want[0], (p, s.di, want, [(m.name, m.fan) for m in s.mingtang])


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(p=positions(GUILIN))
def test_guilin_matches_the_oracle(p: Position) -> None:
    """子, 海底 +2 子, 醒 +1 子, × 自摸/天胡 × 地胡 (R42, R46)."""
    _agree(p, GUILIN)


@SETTINGS
@given(p=positions(HENGYANG))
def test_hengyang_matches_the_oracle(p: Position) -> None:
    """5 门子 of 14-card hands (R43), 囤 + 醒, 红黑点 番 multiplied (R46)."""
    _agree(p, HENGYANG)


@SETTINGS
@given(p=positions(LOUDI))
def test_loudi_matches_the_oracle(p: Position) -> None:
    """+100 and ×2 名堂; the split worth most, not the most 胡息 (R46)."""
    _agree(p, LOUDI)


@SETTINGS
@given(p=positions(YONGZHOU))
def test_yongzhou_matches_the_oracle(p: Position) -> None:
    """囤 = 2 + ⌊(H − 15)/3⌋ + 醒 (翻醒 +1), 红/点/黑 and 自摸 番 multiplied, no 天胡/地胡/
    海底 番 (R42, R46; PRESETS yongzhou)."""
    _agree(p, YONGZHOU)


@SETTINGS
@given(p=positions(YONGZHOU))
def test_yongzhou_options_match_the_oracle(p: Position) -> None:
    """The options: 红转朱黑 (13–15 red ×3, ≥ 16 ×4), 起胡 18, 双醒."""
    rules = YONGZHOU.replace(mingtang=YONGZHOU_HONGZHUAN, min_huxi=18, xing_double=True)
    _agree(p, rules)
