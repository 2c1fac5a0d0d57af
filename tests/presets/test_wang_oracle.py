"""R40/R46: the 王 search of ``paohuzi.core.wang`` against the brute force of
``tests/oracle_wang.py`` (every 王 substituted by every kind, every split) on
generated positions.

Positions are winning hands built from random 门子 (as in
test_second_wave_oracle), in which some concealed cards — and sometimes the
winning card — are then replaced by 王, so that most of them still win in some
way and some do not. The settlement must win exactly when the oracle finds a
split with ≥ 起胡, and then be worth the oracle's best score (R46).
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from oracle_wang import best_score
from paohuzi.core.position import Position
from paohuzi.core.rules import GUILIN, HENGYANG, LOUDI, Rules
from paohuzi.core.scoring import settle

from .test_second_wave_oracle import positions


@st.composite
def wild_positions(draw: st.DrawFn, rules: Rules, most: int, least: int = 1) -> Position:
    p = draw(positions(rules))
    hand = list(p.hand)
    assume(len(hand) >= least)
    k = draw(st.integers(least, min(most, len(hand))))
    # a drawn 王 wins instead of the card (then k − 1 concealed cards are 王)
    win_wang = draw(st.integers(0, 3)) == 0 and not p.tianhu
    n = k - 1 if win_wang else k
    idx = set(draw(st.lists(st.integers(0, len(hand) - 1), min_size=n, max_size=n, unique=True)))
    wild = [c for i, c in enumerate(hand) if i not in idx]
    try:
        return Position(
            tuple(wild),
            p.table,
            None if win_wang else p.win,
            self_drawn=p.self_drawn or win_wang,
            last_card=p.last_card,
            tianhu=p.tianhu and not win_wang,
            dihu=p.dihu and not win_wang,
            hand_size=p.hand_size,
            xing=p.xing,
            wang=n,
            win_wang=win_wang,
        )
    except ValueError:
        assume(False)
        raise


def _agree(p: Position, rules: Rules) -> None:
    s = settle(p, rules)
    want = best_score(p, rules)
    event(f"{p.wang + p.win_wang} 王, " + ("win" if want is not None else "no win"))
    if want is None:
        assert not s.win, (str(p), s.di, s.wang, [str(g) for g in s.groups])
    else:
        assert s.win, (str(p), s.error, want)
        assert s.di == want[0], (str(p), s.di, want, s.wang, [str(g) for g in s.groups])


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(p=wild_positions(HENGYANG, 3))
def test_hengyang_with_wang_matches_the_oracle(p: Position) -> None:
    """5 门子 (R43) with up to 3 王: splits, 王 kinds, 红黑点 番 and 醒 (R40, R42, R46)."""
    _agree(p, HENGYANG)


@SETTINGS
@given(p=wild_positions(GUILIN, 2))
def test_guilin_with_wang_matches_the_oracle(p: Position) -> None:
    """7 门子 with up to 2 王 (R40, R46)."""
    _agree(p, GUILIN)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=wild_positions(LOUDI, 2))
def test_loudi_with_wang_matches_the_oracle(p: Position) -> None:
    """Exact 20/30 胡息 and 一块匾 through 王 kinds (R46)."""
    _agree(p, LOUDI)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(p=wild_positions(HENGYANG, 4, least=3))
def test_four_wang_match_the_oracle(p: Position) -> None:
    """Up to 4 王: three alone a 坎, four a 提 of the best kind (R40)."""
    _agree(p, HENGYANG)
