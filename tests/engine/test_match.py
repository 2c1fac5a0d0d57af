"""match.py: N hands, dealer rotation (R6), cumulative scores (R38)."""

from __future__ import annotations

import random

from paohuzi.core.match import Match, race_final, race_transfers
from paohuzi.core.rules import CHANGDE, HUNAN, LOUDI, LUZHOU

from .helpers import random_play


def _play(m: Match, seed: int, hu: float) -> list[int]:
    rng = random.Random(seed)
    dealers = []
    while not m.is_over():
        s = m.new_hand()
        dealers.append(s.dealer)
        while not s.is_terminal():
            s.apply(random_play(s, rng, hu))
        m.finish_hand(s)
    return dealers


def test_R6_R38_dealer_rotation_and_scores() -> None:
    """R6: winner deals; 荒庄 keeps the dealer; 3 荒庄 in a row → the 下家 deals. R38 sums."""
    seen_win = seen_three = False
    for seed in range(6):
        m = Match(HUNAN, seed, hands=30)
        dealers = _play(m, seed, hu=1.0)
        want, streak = dealers[0], 0
        for i, r in enumerate(m.results):
            assert dealers[i] == want
            if r.winner is not None:
                want, streak = r.winner, 0
                seen_win = True
            else:
                streak += 1
                if streak == 3:
                    want, streak = (want + 1) % 3, 0
                    seen_three = True
        totals = [sum(r.scores[p] for r in m.results) for p in range(3)]
        assert m.scores == totals and sum(m.scores) == 0
    assert seen_win and seen_three


def test_R38_match_is_reproducible() -> None:
    a, b = Match(HUNAN, 9, hands=5), Match(HUNAN, 9, hands=5)
    assert a.hand_seeds == b.hand_seeds and a.dealer == b.dealer
    assert _play(a, 1, 1.0) == _play(b, 1, 1.0) and a.scores == b.scores
    assert Match(HUNAN, 10, hands=5).hand_seeds != a.hand_seeds
    assert len(Match(HUNAN, 1).hand_seeds) == HUNAN.hands_per_match


def test_huangfan_streak_passed_to_hands() -> None:
    """黄番 (常德): the hand after k 荒庄 in a row is dealt with huang = k."""
    m = Match(CHANGDE, 3, hands=12)
    rng = random.Random(0)
    streak = 0
    while not m.is_over():
        s = m.new_hand()
        assert s.huang == streak
        while not s.is_terminal():
            s.apply(random_play(s, rng, 1.0))
        r = m.finish_hand(s)
        streak = 0 if r.winner is not None else streak + 1


def test_R5_R38_sit_out_seat_neither_pays_nor_gets() -> None:
    """坐底 (luzhou): the seat opposite each hand's dealer is dealt nothing and scores 0."""
    m = Match(LUZHOU, 4, hands=16)
    rng = random.Random(2)
    while not m.is_over():
        s = m.new_hand()
        out = (s.dealer + 2) % 4
        assert out not in s.seats and s._nhand[out] == 0
        while not s.is_terminal():
            s.apply(random_play(s, rng, 1.0))
        assert m.finish_hand(s).scores[out] == 0
    assert sum(m.scores) == 0


def test_race_transfers_pair_by_pair() -> None:
    """R45: totals rounded to 10 (halves away from 0), then between every two seats the
    lower rounded total pays the difference; each seat's sum is ``race_final``."""
    race = LOUDI.race
    totals = [104, 45, -15]  # → 100, 50, −20
    assert race_transfers(race, totals) == [(1, 0, 50), (2, 0, 120), (2, 1, 70)]
    assert race_final(race, totals) == [170, 20, -190]
    sums = [0, 0, 0]
    for payer, payee, n in race_transfers(race, totals):
        sums[payer] -= n
        sums[payee] += n
    assert sums == race_final(race, totals)
    assert race_transfers(race, [101, 96, 0]) == [(2, 0, 100), (2, 1, 100)]  # 100 = 100: no pair
