"""结果 (jiéguǒ): how a hand ended — a settled 胡, or 荒庄 (R32–R37).

:class:`HandResult` is what :attr:`GameState.result` holds once the hand is
over. ``to_dict`` gives the ``result`` object of a game record (INTERFACES §4)
— for a win the winner, 胡息, 等, 番, 底, 名堂, payments, the discarder who
pays alone, the winning ``position`` in ``score --batch`` form and the full
settlement; for 荒庄 ``"huangzhuang": true`` and the payments. ``from_dict``
reads it back, re-settling the position under the record's rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .mingtang import MingtangHit
from .position import Position, PositionError
from .rules import Rules
from .scoring import Settlement, settle


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand: ``winner`` None means 荒庄 (then there is no settlement)."""

    scores: tuple[int, ...]  # net payment per seat (R37, R32); sums to 0
    winner: int | None = None
    position: Position | None = None  # the winning position (R22–R27)
    settlement: Settlement | None = None
    discarder: int | None = None  # the seat whose discard was won on, who pays alone
    # won on that discard under rules with discard wins (R44): ``result.position`` says
    # ``"discard": true``, as ``score --batch`` reads it, so re-scoring gives what he pays
    discard: bool = False

    @property
    def huangzhuang(self) -> bool:
        return self.winner is None

    @property
    def huxi(self) -> int:
        return self.settlement.huxi if self.settlement else 0

    @property
    def deng(self) -> int:
        return self.settlement.deng if self.settlement else 0

    @property
    def fan(self) -> int:
        return self.settlement.fan if self.settlement else 0

    @property
    def di(self) -> int:
        return self.settlement.di if self.settlement else 0

    @property
    def mingtang(self) -> tuple[MingtangHit, ...]:
        return self.settlement.mingtang if self.settlement else ()

    def to_dict(self) -> dict[str, Any]:
        """The record's ``result`` object (INTERFACES §4)."""
        if self.winner is None or self.settlement is None or self.position is None:
            return {
                "winner": None,
                "huangzhuang": True,
                "huxi": 0,
                "di": 0,
                "scores": list(self.scores),
            }
        st = self.settlement
        position = self.position.to_dict()
        if self.discard:
            position["discard"] = True
        out: dict[str, Any] = {
            "winner": self.winner,
            "huxi": st.huxi,
            "deng": st.deng,
            "fan": st.fan,
            "di": st.di,
            "mingtang": [{"name": m.name, "fan": m.fan} for m in st.mingtang],
            "scores": list(self.scores),
            "discarder": self.discarder,
            "position": position,
            "settlement": st.to_dict(),
        }
        if self.position.xing:  # R42, INTERFACES §4: 醒数 (presets with 醒 only)
            out["xing"] = st.xing
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any], rules: Rules, huang: int = 0) -> HandResult:
        """Read a record's ``result``; the settlement is recomputed from its position.

        Raises ``ValueError`` (``PositionError`` for a bad position) on malformed data.
        """
        if not isinstance(d, dict):
            raise ValueError("a result must be a JSON object")
        scores = d.get("scores")
        if not isinstance(scores, list) or not all(type(v) is int for v in scores):
            raise ValueError("result scores must be a list of integers")
        winner = d.get("winner")
        if winner is None:
            return cls(tuple(scores))
        if type(winner) is not int:
            raise ValueError(f"result winner must be a seat, got {winner!r}")
        fields, discard = position_fields(d.get("position"))
        pos = Position.from_dict(fields, hand_size=rules.hand_size)
        discarder = d.get("discarder")
        st = settle(pos, rules, huang=huang)
        return cls(tuple(scores), winner, pos, st, discarder, discard)


def position_fields(d: Any) -> tuple[Any, bool]:
    """A record's ``result.position`` → (the position's own fields, won on a discard):
    ``"discard": true`` is ``score --batch``'s (R44), not a field of the position.
    ``PositionError`` when it is not true or false."""
    if not isinstance(d, dict) or "discard" not in d:
        return d, False
    d = dict(d)
    discard = d.pop("discard")
    if not isinstance(discard, bool):
        raise PositionError(f"result.position discard must be true or false, got {discard!r}")
    return d, discard


__all__ = ["HandResult", "position_fields"]
