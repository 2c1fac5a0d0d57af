"""§2 Seating, dealer, deal: R5–R8."""

from __future__ import annotations

from collections import Counter

import pytest

from paohuzi.core.cards import Card, full_deck, parse_cards
from paohuzi.core.rules import HUNAN, LUZHOU
from paohuzi.core.state import DISCARDING, GameState

from .helpers import act, deck, find, game, pass_claims, quiet_discard

ALL = "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾"  # one of each kind


def test_R5_downstream_draws_after_discard() -> None:
    """R5: 下家 = seat + 1 mod n — after the dealer's discard seat 1 draws."""
    s = game([ALL, ALL, ALL], liangzhang="五", wall="壹")
    assert s.phase == DISCARDING and s.current_player == 0
    act(s, 0, "discard:x5")
    pass_claims(s)
    draws = find(s.events, "draw")
    assert draws[0].seat == 1 and draws[0].card == Card.D1


@pytest.mark.parametrize("dealer", [0, 1])
def test_R5_two_players(dealer: int) -> None:
    """R5 with 2 players: the other seat is the 下家; 2×20 + 1 dealt, 39 in the wall."""
    rules = HUNAN.replace(players=2)
    s = GameState(rules, deck=deck([ALL, ALL], rules=rules, dealer=dealer), dealer=dealer)
    assert s.wall_left == 39
    act(s, dealer, quiet_discard(s, dealer))
    pass_claims(s)
    assert find(s.events, "draw")[0].seat == 1 - dealer


def test_R5_sit_out_seat_is_skipped() -> None:
    """R5 + 坐底 (luzhou): with 4 players the seat opposite the dealer is dealt nothing."""
    s = GameState(LUZHOU, seed=11, dealer=1)
    assert s.seats == (1, 2, 0)
    assert s._nhand[3] == 0 and not s.table(3)
    assert s._nxt[0] == 1 and s._nxt[2] == 0
    assert 3 not in {e.seat for e in s.events if e.seat is not None}


def test_R6_first_dealer_random_but_seeded() -> None:
    """R6: the first dealer is drawn from the seeded RNG — reproducible, every seat occurs."""
    dealers = [GameState(HUNAN, seed=k).dealer for k in range(60)]
    assert set(dealers) == {0, 1, 2}
    assert dealers == [GameState(HUNAN, seed=k).dealer for k in range(60)]
    assert GameState(HUNAN, seed=5, dealer=2).dealer == 2


def test_R7_deal_order_and_counts() -> None:
    """R7: dealer 20 + 亮张, others 20, 19 in the wall, dealt in record order."""
    d = deck(["一一二三四五六七八九十壹贰叁肆伍陆柒捌玖"], liangzhang="拾", dealer=0)
    s = GameState(HUNAN, deck=d, dealer=0)
    assert s.liangzhang == Card.D10
    assert sorted(s.hand(0)) == sorted([*d[:20], d[60]])
    assert sorted(s.hand(1)) == sorted(d[20:40])
    assert sorted(s.hand(2)) == sorted(d[40:60])
    assert s.wall_left == 19 and list(s._wall) == [int(c) for c in d[61:]]
    lz = find(s.events, "liangzhang")[0]
    assert lz.card == Card.D10 and lz.shown


def test_R7_seeded_shuffle_is_a_permutation_and_reproducible() -> None:
    """R7: the injected RNG decides the deck; the same seed deals the same cards."""
    a, b = GameState(HUNAN, seed=42), GameState(HUNAN, seed=42)
    assert a.deck == b.deck
    assert Counter(a.deck) == Counter(int(c) for c in full_deck())
    assert GameState(HUNAN, seed=43).deck != a.deck


def test_R7_bad_decks_rejected() -> None:
    """R7: an explicit deck must be 80 cards, four of each kind."""
    with pytest.raises(ValueError):
        GameState(HUNAN, deck=list(full_deck())[:79])
    with pytest.raises(ValueError):
        GameState(HUNAN, deck=[Card.X1] * 80)


def test_R8_R12a_opening_ti_is_automatic() -> None:
    """R8/R12(a): four of a kind dealt → 提 laid down at once (one card shown), not a choice.

    Hands only ever shrink after the deal (taken cards go to the table), so R12(a)'s
    "four in hand before his draw" can only arise from the deal itself.
    """
    s = game({1: "四四四四"})
    ti = find(s.events, "ti", 1)
    assert len(ti) == 1 and ti[0].card == Card.X4 and ti[0].source == "hand"
    assert [g.code() for g in s.table(1)] == ["ti:x4"]
    assert Card.X4 not in s.hand(1)
    assert not s.actions  # nothing was chosen


def test_R8_dealer_one_ti_still_discards() -> None:
    """R8 + R17: a dealer with one 提 holds 21 = 20 + 1 > 20 and discards."""
    s = game({0: "四四四四"})
    assert s._fours[0] == 1 and s.phase == DISCARDING and s._turn == 0


def test_R8_dealer_two_ti_does_not_discard() -> None:
    """R8 + R17: two 提 → 21 ≤ 20 + (2 − 1): no discard, the 下家 draws (seeds)."""
    s = game({0: "四四四四伍伍伍伍"})
    assert s._fours[0] == 2
    assert not find(s.events, "discard")
    assert find(s.events, "draw")[0].seat == 1


def test_R8_liangzhang_makes_second_ti() -> None:
    """R8: the 亮张 completing a 坎 is the dealer's 提 too; with an earlier 提, no discard."""
    s = game({0: "四四四四伍伍伍"}, liangzhang="伍")
    assert [e.card for e in find(s.events, "ti", 0)] == [Card.X4, Card.D5]
    assert s._fours[0] == 2 and not find(s.events, "discard")
    assert find(s.events, "draw")[0].seat == 1


def test_R8_non_dealer_two_ti_skips_first_discard() -> None:
    """R8 + R17: a non-dealer with two opening 提 needs no discard after his first intake."""
    s = game({0: "六", 1: "四四四四伍伍伍伍六六"}, avoid="六")
    act(s, 0, "discard:x6")
    assert "peng:x6" in s.legal_action_ids(1)
    pass_claims(s, keep=[1])
    ev = act(s, 1, "peng:x6")
    assert s.held(1) == 21 == s.need(1)
    assert not find(s.events, "discard", 1)
    assert find(ev, "draw")[0].seat == 2  # R18: the taker's 下家 draws


def test_R8_hand_parse_sanity() -> None:
    assert len(parse_cards(ALL)) == 20
