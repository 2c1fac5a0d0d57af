"""总成绩 (zǒng chéngjì): the match-end summary a ``finished`` state carries.

Built from the match's :class:`~paohuzi.core.result.HandResult` list and the
room's hand ids alone — both rebuilt from storage at a restart — so the
summary after a restart is the summary before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from paohuzi.core.result import HandResult
from paohuzi.server.messages import BestHand, HandLine, MatchSummary, SeatBest


def summary(results: Sequence[HandResult], hand_ids: Sequence[str], players: int) -> MatchSummary:
    """Each hand's line, the totals, the ranking, 大赢家 and the best hands (docs/web.md)."""
    hands = []
    totals = [0] * players
    best: BestHand | None = None
    per_seat: list[SeatBest | None] = [None] * players  # each player's best hand
    for i, r in enumerate(results):
        won = r.winner is not None
        hands.append(
            HandLine.make(
                index=i + 1,
                hand_id=hand_ids[i] if i < len(hand_ids) else None,
                scores=tuple(r.scores),
                winner=r.winner,
                huxi=r.huxi if won else None,
                fan=r.fan if won else None,
            )
        )
        for s, v in enumerate(r.scores):
            totals[s] += v
            # strictly larger: ties keep the earlier hand, then the lower seat
            if v > 0 and (best is None or v > best.score):
                best = BestHand.make(index=i + 1, seat=s, score=v)
            mine = per_seat[s]
            if v > 0 and (mine is None or v > mine.score):
                per_seat[s] = SeatBest.make(index=i + 1, score=v)
    ranking = sorted(range(players), key=lambda s: (-totals[s], s))
    top = max(totals, default=0)
    big = [s for s in range(players) if totals[s] == top] if top > 0 else []
    return MatchSummary.make(
        hands=tuple(hands),
        totals=tuple(totals),
        ranking=tuple(ranking),
        big_winner=tuple(big),
        best_hand=best,
        best_hands=tuple(per_seat),
    )


__all__ = ["summary"]
