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
from .evaluator import evaluator_for, pack
from .melds import Group
from .rules import Rules
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


def tingpai_of(v: View, packed: int | None = None) -> tuple[Ting, ...]:
    """听牌 of the viewing seat's own hand (or of ``packed``, with the same melds)."""
    return tingpai(v.rules, pack(v.hand) if packed is None else packed, v.own_groups())


__all__ = ["Ting", "tingpai", "tingpai_of"]
