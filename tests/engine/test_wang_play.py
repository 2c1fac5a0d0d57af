"""R39/R40 in play: the ``wang`` rules field, 王 in the deck, the deal, the draw and the win.

The win test itself (every split and assignment) is checked against a brute force in
tests/presets/test_wang_oracle.py; here the engine around it is.
"""

from __future__ import annotations

import tomllib

import pytest

from paohuzi.core.cards import CODES, Card, card_or_wang, parse_deck_cards
from paohuzi.core.rules import HUNAN, Rules, RulesError


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_rules_wang_field_round_trips(n: int) -> None:
    """R39: ``wang`` (0–4) survives the dict and TOML round trips."""
    r = HUNAN.replace(wang=n)
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules.from_dict(tomllib.loads(r.to_toml())) == r
    assert r.to_dict()["wang"] == n


@pytest.mark.parametrize("bad", [5, -1, True, "2", 1.0])
def test_rules_wang_out_of_range_is_refused_naming_the_field(bad: object) -> None:
    with pytest.raises(RulesError, match="wang"):
        Rules.from_dict({"preset": "hunan", "wang": bad})


def test_wang_card_is_no_kind_and_reads_back() -> None:
    """R39: Card.W names a 王 in events and decks (``w`` / ``王``); it has no point,
    size or colour of its own, and CARDS stays the 20 kinds."""
    assert Card.W == 20 and CODES[Card.W] == "w" and Card.W.zh == "王"
    assert Card.W.point == 0 and not Card.W.is_red and not Card.W.is_big
    assert Card.W.is_wang and not Card.X1.is_wang
    assert card_or_wang("w") is Card.W and card_or_wang("王") is Card.W
    assert parse_deck_cards("一 w 壹") == [Card.X1, Card.W, Card.D1]


# ---------------------------------------------------------------- the engine (R39, R40)
from paohuzi.core.actions import ActionType  # noqa: E402
from paohuzi.core.state import GameState  # noqa: E402
from paohuzi.core.vocab import EventType, Phase, Source  # noqa: E402


def _held_total(st: GameState) -> int:
    total = st.wall_left
    for s in range(st.n):
        total += len(st.hand(s)) + st.wang(s) + len(st.pile(s))
        total += sum(len(g.cards) for g in st.table(s))
    if st.open_card is not None and st.phase == Phase.CLAIM:
        total += 1
    return total


def _walk(st: GameState, seed: int) -> None:
    """Play ``st`` out at random (a 胡 always taken), checking R39/R40 at each step."""
    import random

    rng = random.Random(seed)
    size = 80 + st.rules.wang
    while not st.is_terminal():
        assert _held_total(st) == size  # R1/R39: 80 + 王 cards, none lost or made
        for p in st.to_act():
            for a in st.legal_actions(p):
                # R39: a 王 is never discarded, claimed or used in a 吃
                assert a.type in (ActionType.HU, ActionType.PASS) or a.card is not Card.W
                assert all(Card.W not in g for g in a.groups)
                if a.type == ActionType.HU and st.wang(p):
                    # R40: holding a 王, only his own turned-up card
                    oc = st.open_card
                    assert oc is not None and oc[1] == p
                    assert oc[2] in (Source.DRAW, Source.LIANGZHANG)
        p = st.current_player
        acts = st.legal_actions(p)
        hu = [a for a in acts if a.type == ActionType.HU]
        st.apply(hu[0] if hu else rng.choice(acts))
    for e in st.events:
        if e.card is Card.W:  # R39: shown to all; drawn or dealt, or the card won
            assert e.type in (EventType.DRAW, EventType.LIANGZHANG, EventType.HU, EventType.PASS)
            assert e.shown


@pytest.mark.parametrize("wang", [1, 2, 4])
def test_random_hands_with_wang_keep_r39_r40(wang: int) -> None:
    """R39/R40 over many random hands: card conservation with 王, no 王 discarded or
    claimed, a 王 holder wins only on his own card, and some hands are won with 王."""
    wild_wins = 0
    for seed in range(60):
        st = GameState(HUNAN.replace(wang=wang), seed=seed)
        _walk(st, seed)
        r = st.result
        assert r is not None
        if r.winner is not None and r.position.wild:
            wild_wins += 1
            assert r.position.self_drawn and r.discarder is None
            assert len(r.settlement.wang) == r.position.wang + r.position.win_wang
    assert wild_wins > 0


def test_a_deck_with_wang_deals_them_and_a_wang_liangzhang_is_shown() -> None:
    """R39: the deck holds 80 + 王; a 王 as the 亮张 is shown and joins the dealer's hand;
    a 王 turned up from the wall is shown and joins the drawer's hand."""
    import random

    from paohuzi.core.cards import full_deck

    d = [c.code for c in full_deck()]
    random.Random(7).shuffle(d)
    d[60:60] = ["w", "w"]  # the 亮张 (3 × 20 dealt) and the first wall card
    st = GameState(HUNAN.replace(wang=2), deck=d, dealer=0)
    lz = next(e for e in st.events if e.type == EventType.LIANGZHANG)
    assert lz.card is Card.W and lz.shown
    assert st.wang(0) == 1 and st.held(0) == 21
    with pytest.raises(ValueError, match="王"):
        GameState(HUNAN.replace(wang=1), deck=d, dealer=0)  # two 王 where one is dealt
    with pytest.raises(ValueError, match="80"):
        GameState(HUNAN, deck=d, dealer=0)
    seen_draw = False
    rng = random.Random(0)
    while not st.is_terminal() and not seen_draw:
        p = st.current_player
        acts = st.legal_actions(p)
        passes = [a for a in acts if a.type == ActionType.PASS]
        before = [st.wang(s) for s in range(3)]
        evs = st.apply(passes[0] if passes else rng.choice(acts))
        for e in evs:
            if e.type == EventType.DRAW and e.card is Card.W:
                seen_draw, s = True, e.seat
                assert e.shown and s is not None
                hu = [a for a in st.legal_actions(s) if a.type == ActionType.HU]
                if not hu:  # no win: the 王 is in his hand and he owes a discard (R17)
                    assert st.wang(s) == before[s] + 1
                    assert st.phase == Phase.DISCARD and st.current_player == s
    assert seen_draw


def test_clone_copies_the_wang_counts() -> None:
    st = GameState(HUNAN.replace(wang=4), seed=3)
    c = st.clone()
    assert [c.wang(s) for s in range(3)] == [st.wang(s) for s in range(3)]
    c._wang[0] += 1
    assert c.wang(0) == st.wang(0) + 1


# ---------------------------------------------------------------- views and search (R39)
@pytest.mark.parametrize("wang", [1, 2, 4])
def test_a_concealed_wang_is_never_revealed(wang: int) -> None:
    """R39: another seat's 王 are hidden like any concealed card. Re-dealing every card
    hidden from a seat (王 among them) leaves its view unchanged, the hidden multiset
    keeps its 王, and in some resampled worlds the 王 sit elsewhere than in truth —
    so the view cannot be telling where they are. Cards (王 incl.) are conserved."""
    import random
    from collections import Counter

    from paohuzi.core.determinize import hidden_from
    from paohuzi.core.views import view

    from .helpers import all_cards, random_play, try_resample

    rng = random.Random(wang)
    moved = 0
    for seed in range(8):
        s = GameState(HUNAN.replace(wang=wang), seed)
        while not s.is_terminal():
            total = all_cards(s)
            assert total[20] == wang and sum(total.values()) == 80 + wang
            seat = rng.choice(s.seats)
            v = view(s, seat)
            assert v.wang == s.wang(seat) and v.to_dict()["wang"] == s.wang(seat)
            for t in s.seats:  # sizes show, 王 included; what they are does not
                assert v.hand_sizes[t] == len(s.hand(t)) + s.wang(t)
            w = try_resample(s, seat, rng)
            if w is not None:
                assert view(w, seat) == v
                assert Counter(hidden_from(w, seat)) == Counter(hidden_from(s, seat))
                moved += any(w.wang(t) != s.wang(t) for t in s.seats if t != seat)
                for t in w.seats:  # R17 counts hold in the resampled world too
                    assert w.held(t) == s.held(t)
            s.apply(random_play(s, rng))
        end = view(s, s.seats[0]).to_dict()
        assert end["reveal"]["wang"] == [s.wang(t) for t in range(s.n)]
    assert moved > 0


def test_a_wang_discard_or_claim_is_refused_and_changes_nothing() -> None:
    """R39 bad input: ``discard:w`` / ``peng:w`` (a web client's message) are refused with
    a clear error naming the 王; the state is unchanged."""
    import json

    from paohuzi.core.actions import IllegalAction
    from paohuzi.core.records import record

    def holder_discarding() -> GameState:
        for seed in range(50):
            st = GameState(HUNAN.replace(wang=4), seed=seed)
            while not st.is_terminal():
                if st.phase == Phase.DISCARD and st.wang(st.current_player):
                    return st
                acts = st.legal_actions(st.current_player)
                st.apply(next((a for a in acts if a.type == ActionType.PASS), acts[0]))
        raise AssertionError("no 王 holder ever discarded")

    st = holder_discarding()
    before = json.dumps(record(st), sort_keys=True)
    for bad in ("discard:w", "peng:w", "discard:王", "chi:w:x1x2w"):
        with pytest.raises(IllegalAction, match=r"王|bad action"):
            st.apply_id(st.current_player, bad)
    assert json.dumps(record(st), sort_keys=True) == before


def test_resample_in_a_wang_window_keeps_the_view() -> None:
    """A drawn 王 the drawer may 胡 is a claim window of its own (R39: nobody else is
    asked); resampling every seat's hidden cards there reopens it the same way."""
    import random

    from paohuzi.core.determinize import NoConsistentWorld, resample
    from paohuzi.core.views import view

    rng = random.Random(3)
    windows = 0
    for seed in range(120):
        st = GameState(HUNAN.replace(wang=4), seed=seed)
        while not st.is_terminal():
            oc = st.open_card
            if oc is not None and oc[0] is Card.W:
                windows += 1
                assert st.to_act() == [oc[1]]  # the drawer alone decides
                for seat in st.seats:
                    try:
                        w = resample(st, seat, rng)
                    except NoConsistentWorld:
                        continue
                    assert view(w, seat) == view(st, seat)
            acts = st.legal_actions(st.current_player)
            st.apply(next((a for a in acts if a.type == ActionType.PASS), rng.choice(acts)))
        if windows >= 5:
            break
    assert windows > 0


def test_tingpai_with_wang_agrees_with_the_engine() -> None:
    """听牌 of a 王 holder (R40: 自摸 only) lists exactly the turned-up cards the engine
    lets him 胡: at every window on his own drawn card, 胡 is offered iff the card (or a
    drawn 王) is in his 听 list; no card is listed as winning on another's card."""
    import random

    from paohuzi.core.tingpai import tingpai_of
    from paohuzi.core.views import view

    checked = offered = 0
    for seed in range(60):
        st = GameState(HUNAN.replace(wang=2), seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            oc = st.open_card
            if (
                oc is not None
                and oc[2] == Source.DRAW
                and st.wang(oc[1])
                and not st._window.decisions
            ):
                card, s = oc[0], oc[1]  # the window as it opened (nobody decided yet)
                ting = tingpai_of(view(st, s))
                assert all(t.huxi is None for t in ting)
                hu = any(a.type == ActionType.HU for a in st.legal_actions(s))
                if int(card) not in st._chouhu[s]:
                    assert hu == any(t.card is card and t.huxi_zimo is not None for t in ting)
                    checked += 1
                    offered += hu
            acts = st.legal_actions(st.current_player)
            st.apply(next((a for a in acts if a.type == ActionType.PASS), rng.choice(acts)))
    assert checked > 20 and offered > 0
