"""局面 (júmiàn) read straight (issue 27): a position from ``from_dict`` keeps its
hand packed until read and its cards' counts made with it (``card_bits``, ``facts``,
which a constructed position makes when first asked); to a user it is the position
the constructor makes."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paohuzi.core.evaluator import pack
from paohuzi.core.position import WILD_FACT, Position, _read
from strategies import positions


def _facts(p: Position) -> int:
    """:attr:`Position.facts` counted card by card (R3's colours, the flags)."""
    cards = p.all_cards()
    red = sum(c.is_red for c in cards)
    big = sum(c.is_big for c in cards)
    flags = [p.self_drawn, p.last_card, p.tianhu, p.dihu, len(p.hand) == 1]
    bits = sum(1 << i for i, f in enumerate(flags) if f)
    wild = WILD_FACT if p.wang or p.win_wang or p.xing else 0  # R39–R42: Python settles
    return (red << 16 | big << 8 | len(cards) - big) << 5 | bits | wild


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    positions(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["", "xing", "wang"]),
)
def test_counts_made_with_the_position_are_its_cards(
    p: Position, sd: bool, last: bool, tianhu: bool, dihu: bool, wild: str
) -> None:
    """``card_bits`` and ``facts`` (the settlement's colour counts and flags, and
    whether 王 or 醒 take part) made by the constructor, the straight read, or when
    first asked, are the cards counted one by one."""
    q = Position(p.hand, p.table, p.win, sd, last, tianhu, dihu)
    if wild == "xing":  # R42: a 醒牌
        q = dataclasses.replace(q, xing=(q.win or q.hand[0],))
    elif wild == "wang" and q.hand:  # R39: a card of the hand a 王
        q = dataclasses.replace(q, hand=q.hand[1:], wang=1)
    r = Position.from_dict(q.to_dict())
    if not wild:
        assert "hand" not in vars(r)  # read straight: the hand still packed
    for x in (q, r, pickle.loads(pickle.dumps(r))):  # (unpickled: counted when asked)
        assert x.card_bits == pack(x.all_cards())
        assert x.facts == _facts(x)
        assert bool(x.facts & WILD_FACT) == (x.wild or bool(x.xing))
    assert r == q


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.randoms(use_true_random=False))
def test_a_position_read_straight_behaves_as_one_constructed(
    p: Position, rng: random.Random
) -> None:
    """Fields, equality, hashing, repr, str, to_dict, copies, pickling (the same bytes),
    ``dataclasses`` helpers: no difference, whichever is asked first."""
    d = p.to_dict()
    asks = [
        lambda x: x.hand,
        lambda x: [getattr(x, f.name) for f in dataclasses.fields(x)],
        hash,
        repr,
        str,
        lambda x: x.to_dict(),
        lambda x: pickle.dumps(x),
        lambda x: pickle.loads(pickle.dumps(x)),
        copy.copy,
        copy.deepcopy,
        dataclasses.asdict,
        lambda x: dataclasses.replace(x, last_card=True),
        lambda x: (x.held, x.four_count, x.all_cards(), x.xing_count()),
    ]
    r, made = _read(d, 20), Position._from_dict(d)  # read straight; by the constructor
    assert r is not None and made == p
    for ask in rng.sample(asks, len(asks)):
        fresh = _read(d, 20)  # asked first, before anything made its hand
        assert ask(fresh) == ask(made) == ask(r)
    assert r == made and made == r and hash(r) == hash(made)
    assert {r: 1}[made] == 1
    made.card_bits, made.facts  # noqa: B018  # made when first read (by the read: with it)
    # every field and derived count, the hand made; the read leaves to the class the
    # fields at their class default (a smaller object), and holds nothing else
    assert r.__getstate__() == made.__getstate__()
    assert vars(r).items() <= vars(made).items()
    left = vars(made).keys() - vars(r).keys()
    assert all(getattr(Position, k) == vars(made)[k] for k in left), left


def test_a_missing_attribute_is_still_missing() -> None:
    p = _read(
        Position.parse("一二三四五六七八九十壹贰叁", "伍", ["ti:拾", "peng:陆"]).to_dict(), 20
    )
    assert p is not None
    for name in ("hand_", "_hand", "__deepcopy_x__"):
        try:
            getattr(p, name)
        except AttributeError as e:
            assert str(e) == f"'Position' object has no attribute {name!r}"
        else:  # pragma: no cover - the failure
            raise AssertionError(name)
    assert not hasattr(p, "nothing") and getattr(p, "nothing", 7) == 7
