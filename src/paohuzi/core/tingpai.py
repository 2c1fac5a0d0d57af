"""听牌 (tīngpái): the cards that would win a seat's hand now, with the 胡息 each brings.

One list for everyone who shows it — the web table, the hint, the terminal —
computed by the evaluator (R22–R27, R23) from what the seat itself holds (its
view): each winning card with its 胡息 when another seat turns it up
(``huxi``) and when the seat turns it up itself (``huxi_zimo``, 自摸), ``None``
where that way does not win.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from .cards import CARDS, Card
from .evaluator import evaluator_for, pack, unpack
from .melds import Group
from .position import Position, PositionError
from .rules import Rules
from .scoring import settle
from .views import View


class Ting(NamedTuple):
    """One card the seat waits on (听)."""

    card: Card
    huxi: int | None  # won on a card another seat turned up
    huxi_zimo: int | None  # won on his own turned-up card (自摸)

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card.code,
            "zh": self.card.zh,
            "huxi": self.huxi,
            "huxi_zimo": self.huxi_zimo,
        }


@lru_cache(maxsize=2048)
def tingpai(rules: Rules, packed: int, table: tuple[Group, ...]) -> tuple[Ting, ...]:
    """听牌 of a packed concealed hand with these table melds.

    Cached: a seat's 听 changes only when its hand or melds do, while a server
    sends it with every message."""
    ev = evaluator_for(rules)
    other = ev.tingpai(packed, table, self_drawn=False)
    zimo = ev.tingpai(packed, table, self_drawn=True)
    return tuple(Ting(CARDS[c], other.get(c), zimo.get(c)) for c in sorted(set(other) | set(zimo)))


@lru_cache(maxsize=512)
def tingpai_wild(
    rules: Rules, hand: tuple[Card, ...], table: tuple[Group, ...], wang: int
) -> tuple[Ting, ...]:
    """听牌 of a hand holding 王 (R40): it wins only on its own turned-up card, so only
    ``huxi_zimo`` is set; a drawn 王 is listed too (:attr:`Card.W`). Each card is
    settled with the wild search (every split and assignment)."""
    out = []
    for c in (*CARDS, Card.W):
        try:
            pos = Position(
                hand,
                table,
                None if c is Card.W else c,
                self_drawn=True,
                wang=wang,
                win_wang=c is Card.W,
                hand_size=rules.hand_size,
            )
        except PositionError:  # a fifth copy, or a count R17 rules out: no win there
            continue
        st = settle(pos, rules)
        if st.win:
            out.append(Ting(c, None, st.huxi))
    return tuple(out)


def tingpai_of(v: View, packed: int | None = None) -> tuple[Ting, ...]:
    """听牌 of the viewing seat's own hand (or of ``packed``, with the same melds and 王:
    the hint's hand after a discard)."""
    if v.wang:
        hand = v.hand if packed is None else tuple(unpack(packed))
        return tingpai_wild(v.rules, hand, v.own_groups(), v.wang)
    return tingpai(v.rules, pack(v.hand) if packed is None else packed, v.own_groups())


__all__ = ["Ting", "tingpai", "tingpai_of"]
