"""结算 (jiésuàn): the settlement screen of a finished hand, from the engine's own values.

Built from the hand's :class:`~paohuzi.core.result.HandResult` (its
:class:`~paohuzi.core.scoring.Settlement` and winning
:class:`~paohuzi.core.position.Position`) and the revealed hands of the seat's
:class:`~paohuzi.core.views.View` (``reveal_hands``, ``reveal_huxi``: R33) — no
record dict is built and read back.
"""

from __future__ import annotations

from collections.abc import Sequence

from paohuzi.core.cards import CODES
from paohuzi.core.events import turned_up_by
from paohuzi.core.labels import DOUBLING_EN, DOUBLING_ZH
from paohuzi.core.result import HandResult
from paohuzi.core.rules import HUNAN, MatchKind, Payment, Rules, Xing
from paohuzi.core.scoring import Settlement, discarder_shares, xing_seat_pay
from paohuzi.core.views import View
from paohuzi.core.wang import wang_places
from paohuzi.server.messages import (
    GroupLine,
    HandSettlement,
    HuangLine,
    MingtangLine,
    RaceLine,
    XingSeatLine,
)
from paohuzi.server.present.options import mingtang_label


def xing_seat_line(st: Settlement, v: View | None, rules: Rules) -> XingSeatLine | None:
    """坐醒 / 数醒: the seat that sat out and what each loser paid it — 番 × 醒数, capped by
    封顶 like 底 (core.scoring ``xing_seat_pay``, as the engine pays it)."""
    if not rules.xing_seat or v is None:
        return None
    seat = next((t for t in range(rules.players) if t not in v.seats), None)
    if seat is None:
        return None
    each = xing_seat_pay(st.fan, st.xing, rules)
    losers = 0 if rules.payment == Payment.RACE else len(v.seats) - 1
    return XingSeatLine.make(seat=seat, fan=st.fan, xing=st.xing, each=each, losers=losers)


def huang_line(v: View | None, rules: Rules) -> HuangLine | None:
    """Why money moved on a 荒庄 (core.scoring ``huangzhuang_payments``): the dealer's race
    penalty (R45) or his cost to each other seat (R32), and 亡牌 with the 王 each held.
    None where nothing moved by the rules."""
    if v is None:
        return None
    if rules.payment == Payment.RACE:
        pen = rules.race.huangzhuang_penalty
        return HuangLine.make(dealer=v.dealer, penalty=pen) if pen else None
    cost, pay = rules.huangzhuang.cost, rules.huangzhuang.wang_pay
    wang = v.reveal_wang if pay and rules.wang else None
    if not cost and wang is None:
        return None
    return HuangLine.make(
        dealer=v.dealer, cost=cost, wang_pay=pay if wang is not None else 0, wang=wang
    )


def hand_settlement(
    result: HandResult,
    v: View | None,
    scores: Sequence[int],
    index: int,
    total: int,
    rules: Rules = HUNAN,
) -> HandSettlement:
    """门子 with their 胡息, 胡息 (before and after doubling, R35), 等 (子/囤/息: the
    preset's unit), 名堂 with 番 and how each counts, 醒牌 and 醒数 (R42), the card each 王
    stood for (R40) and a 王 pattern (R41), 底, each
    seat's payment (R37; 荒庄: R32), every revealed hand and 当前总息数 (R33), and the
    match after it: ``scores``, ``index`` hands of ``total`` played (R38) or, in a race,
    the running totals against the target (R45)."""
    st, pos = result.settlement, result.position
    payments, match = tuple(result.scores), tuple(scores)
    # every concealed hand, its 王 last (R39: shown as ``w`` at the end of the hand)
    hands = tuple(tuple(CODES[c] for c in h) for h in v.revealed or ()) if v else ()
    reveal = tuple(v.reveal_huxi or ()) if v else ()
    race = (
        RaceLine.make(target=rules.race.target, round_to=rules.race.round_to, totals=match)
        if rules.match == MatchKind.RACE
        else None
    )
    # what every settlement carries, a 荒庄 or a win (the wire's field order is kept)
    after = {
        "payments": payments,
        "hands": hands,
        "current_huxi": reveal,
        "match_scores": match,
        "hand_index": index,
        "hands_total": total,
        "unit": rules.unit,
        "fan_combine": rules.fan_combine.value,
    }
    if result.winner is None or st is None or pos is None:  # 荒庄 (R32)
        return HandSettlement.make(
            winner=None,
            huangzhuang=True,
            discarder=None,
            self_drawn=False,
            tianhu=False,
            win_card=None,
            groups=(),
            huxi=0,
            scored_huxi=0,
            doubled=(),
            doubled_zh=(),
            zimo=False,
            deng=0,
            fan=0,
            mingtang=(),
            di=0,
            **after,
            xing_cards=None,
            xing=None,
            race=race,
            huang=huang_line(v, rules),
        )
    has_xing = rules.xing != Xing.NONE
    # 包赔 (R37, R44): why the discarder's line is several shares (衡阳: ×3)
    shares = discarder_shares(rules, result.discarder, pos.dihu, rules.seated - 1)
    wang = tuple(c.code for c in st.wang) or None  # R40: the card each 王 stood for
    # R42: what each 醒牌 counted (its kind in the winner's 门子, 王 standing for it too)
    held = pos.all_cards()
    counts = tuple(held.count(x) + st.wang.count(x) for x in pos.xing)
    return HandSettlement.make(
        winner=result.winner,
        huangzhuang=False,
        discarder=result.discarder,
        self_drawn=pos.self_drawn or pos.tianhu,
        tianhu=pos.tianhu,
        win_card=pos.win.code if pos.win is not None else ("w" if pos.win_wang else None),
        groups=tuple(
            GroupLine.make(kind=g.kind.value, cards=g.zh, huxi=h, wang=w)
            for g, h, w in zip(
                st.groups, st.group_huxi, wang_places(st.groups, st.wang, pos), strict=True
            )
        ),
        huxi=st.huxi,
        scored_huxi=st.scored_huxi,
        doubled=st.doubled,
        doubled_zh=tuple(DOUBLING_ZH.get(d, d) for d in st.doubled),
        doubled_en=tuple(DOUBLING_EN.get(d, d) for d in st.doubled),
        turned_by=turned_up_by(result, v.log) if v is not None else None,
        zimo=st.zimo,
        deng=st.deng,
        fan=st.fan,
        mingtang=tuple(
            MingtangLine.make(
                name=m.name,
                fan=m.fan,
                effect=m.effect.value,
                id=m.id,
                name_en=mingtang_label(m.id, m.name)["en"],
            )
            for m in st.mingtang
        ),
        di=st.di,
        **after,
        xing_cards=tuple(c.code for c in pos.xing) if has_xing else None,
        xing=st.xing if has_xing else None,
        xing_counts=counts if has_xing else None,
        xing_double=True if has_xing and rules.xing_double else None,
        race=race,
        wang=wang,
        pattern=pos.pattern.value if pos.pattern is not None else None,
        huang_multiplier=st.huang_multiplier if st.huang_multiplier > 1 else None,
        baopei=shares if rules.baopei and shares > 1 else None,
        xing_seat=xing_seat_line(st, v, rules),
    )


__all__ = ["hand_settlement"]
