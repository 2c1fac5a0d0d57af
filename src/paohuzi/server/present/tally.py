"""总成绩 (zǒng chéngjì): the match-end summary a ``finished`` state carries.

Built from the match's :class:`~paohuzi.core.result.HandResult` list and the
room's hand ids alone — both rebuilt from storage at a restart — so the
summary after a restart is the summary before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from paohuzi.core.match import race_final, race_transfers
from paohuzi.core.result import HandResult
from paohuzi.core.rules import HUNAN, MatchKind, Rules
from paohuzi.server.messages import (
    BestHand,
    HandLine,
    MatchSummary,
    RaceFinal,
    SeatBest,
    Transfer,
)


def race_final_line(
    results: Sequence[HandResult], totals: Sequence[int], rules: Rules
) -> RaceFinal:
    """放炮罚 (R45): the totals rounded and settled pair by pair, as ``Match.final``
    and ``Match.transfers`` give them, and what 荒庄 cost each seat on the way."""
    race = rules.race
    huang = [0] * len(totals)
    for r in results:
        if r.winner is None:
            for s, v in enumerate(r.scores):
                huang[s] -= v
    return RaceFinal.make(
        target=race.target,
        round_to=race.round_to,
        totals=tuple(totals),
        rounded=tuple(race.rounded(x) for x in totals),
        transfers=tuple(
            Transfer.make(payer=a, payee=b, amount=n) for a, b, n in race_transfers(race, totals)
        ),
        final=tuple(race_final(race, totals)),
        huang_penalties=tuple(huang),
        reached=max(totals, default=0) >= race.target,
    )


def summary(
    results: Sequence[HandResult], hand_ids: Sequence[str], players: int, rules: Rules = HUNAN
) -> MatchSummary:
    """Each hand's line, the totals, the ranking, 大赢家 and the best hands (docs/web.md);
    for a race (R45) its pairwise final settlement."""
    hands = []
    totals = [0] * players
    best: BestHand | None = None
    per_seat: list[SeatBest | None] = [None] * players  # each player's best hand
    for i, r in enumerate(results):
        won = r.winner is not None
        pat = r.position.pattern if won and r.position is not None else None
        hands.append(
            HandLine.make(
                index=i + 1,
                hand_id=hand_ids[i] if i < len(hand_ids) else None,
                scores=tuple(r.scores),
                winner=r.winner,
                huxi=r.huxi if won else None,
                fan=r.fan if won else None,
                pattern=pat.value if pat is not None else None,  # R41, named as on the sheet
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
    race = race_final_line(results, totals, rules) if rules.match == MatchKind.RACE else None
    # a race (R45) is decided by its settlement (pair by pair), not by its 息 totals
    result = list(race.final) if race is not None else totals
    ranking = sorted(range(players), key=lambda s: (-result[s], s))
    top = max(result, default=0)
    big = [s for s in range(players) if result[s] == top] if top > 0 else []
    return MatchSummary.make(
        hands=tuple(hands),
        totals=tuple(totals),
        ranking=tuple(ranking),
        big_winner=tuple(big),
        best_hand=best,
        best_hands=tuple(per_seat),
        race=race,
    )


__all__ = ["summary"]
