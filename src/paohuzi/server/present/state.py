"""展示 (zhǎnshì): a seat's ``state`` and ``hint`` messages, as pure functions.

What a seat sees of the game comes from :func:`paohuzi.core.views.view` alone
(the single hidden-information filter); :func:`seat_state` lays it out for the
wire beside the room's :class:`~.snapshot.RoomSnapshot` and the seat's own part:
its legal actions with Chinese labels (once per message: the view's own
``legal_actions`` and ``result`` are dropped), the players, the timers the seat
may know, its 听牌, and at the end of a hand the settlement (R33–R37) with the
match totals (R38) and, once the match is over, its summary.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from paohuzi.bots.hints import Hint
from paohuzi.core.state import DISCARDING
from paohuzi.core.tingpai import Ting, tingpai_of
from paohuzi.core.views import View
from paohuzi.server.messages import (
    ActionChoice,
    HintInfo,
    HintMessage,
    Reason,
    SeatState,
    StateMessage,
    Timer,
    TingInfo,
)
from paohuzi.server.present import tally
from paohuzi.server.present.settlement import hand_settlement
from paohuzi.server.present.snapshot import RoomSnapshot
from paohuzi.server.vocab import RoomPhase

_PLAYING, _FINISHED = RoomPhase.PLAYING, RoomPhase.FINISHED


def timers(snap: RoomSnapshot, seat: int) -> tuple[Timer, ...]:
    """The 托管 timers ``seat`` may know: its own and the discarding seat's — never who
    else is deciding on a claim (R16). None at a settlement: nobody reading the result
    is put on 托管."""
    if not snap.timers:
        return ()
    return tuple(t for t in snap.timers if t.seat == seat or t.seat == snap.discarding)


def ting_info(t: Ting) -> TingInfo:
    return TingInfo.make(card=t.card.code, zh=t.card.zh, huxi=t.huxi, huxi_zimo=t.huxi_zimo)


@lru_cache(maxsize=1024)
def ting_infos(tings: tuple[Ting, ...]) -> tuple[TingInfo, ...]:
    # a waiting seat's 听 is sent with every change until its hand changes (frozen values)
    return tuple(ting_info(t) for t in tings)


def tingpai(snap: RoomSnapshot, v: View | None) -> tuple[TingInfo, ...]:
    """听牌 of the seat's own hand while it waits (not while it must discard)."""
    if v is None or snap.phase != _PLAYING:
        return ()
    if v.phase == DISCARDING and v.current_player == v.seat:
        return ()
    return ting_infos(tingpai_of(v))


def view_wire(v: View | None) -> dict[str, Any] | None:
    """The view's wire form without what the message carries once, beside it."""
    if v is None:
        return None
    d = v.to_dict()
    del d["legal_actions"], d["result"]
    return d


def _abandoned(snap: RoomSnapshot, v: View | None) -> bool:
    """A match 解散 mid-hand: the hand on the table was never finished, yet it is the one
    shown (its index is the hands played plus one, as while it was played)."""
    return snap.dissolved and snap.result is None and v is not None


def seat_state(
    snap: RoomSnapshot, seat: int, away: bool, choices: tuple[ActionChoice, ...], v: View | None
) -> SeatState:
    """Seat ``seat``'s state without its version and clock (what may change): the room,
    the seat's ``choices`` (:func:`~.choices.described`), whether it is on 托管 (``away``)
    and its view."""
    ph, res = snap.phase, snap.result  # a result only at a settlement and the match's end
    return SeatState.make(
        phase=ph,
        room=snap.id,
        hand_id=snap.hand_id,
        hand_index=snap.played + (1 if ph == _PLAYING or _abandoned(snap, v) else 0),
        hands=snap.hands_total,
        rules=snap.rules.name,
        bot=snap.level.id,
        bot_label=snap.level.zh,
        players=snap.players,
        scores=snap.scores,
        away_timeout=snap.away_timeout,
        rematch=snap.rematch,
        result=(
            hand_settlement(res, v, snap.scores, snap.played, snap.hands_total, snap.rules)
            if res is not None
            else None
        ),
        summary=(
            tally.summary(snap.results, snap.hand_ids, snap.rules.players, snap.rules)
            if ph == _FINISHED
            else None
        ),
        seat=seat,
        view=view_wire(v),
        legal_actions=choices,
        timers=timers(snap, seat),
        away=away,
        tingpai=tingpai(snap, v),
        deck_commitment=snap.deck_commitment,
        dissolve=snap.dissolve,
        dissolved=True if snap.dissolved else None,
    )


def state_message(state: SeatState, version: int, now: float) -> StateMessage:
    """The ``state`` message of INTERFACES.md §5: ``state`` as version ``version``, sent
    at ``now`` (server epoch seconds, so a client can correct its clock for the timers)."""
    return StateMessage.of(state, version, round(now, 3))


def hint_info(h: Hint) -> HintInfo:
    return HintInfo.make(
        seat=h.seat,
        action=h.action,
        reason=Reason.make(zh=h.reason.zh, en=h.reason.en),
        tingpai=tuple(ting_info(t) for t in h.tingpai),
        tingpai_after=h.tingpai_after.code if h.tingpai_after is not None else None,
        huxi=h.huxi,
        ranking=h.ranking,
    )


def hint_message(version: int, hint: Hint) -> HintMessage:
    """提示 for the seat's state ``version`` (the state it belongs to)."""
    return HintMessage.make(version=version, hint=hint_info(hint))


__all__ = [
    "hint_info",
    "hint_message",
    "seat_state",
    "state_message",
    "timers",
    "ting_info",
    "ting_infos",
    "tingpai",
    "view_wire",
]
