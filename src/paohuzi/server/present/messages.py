"""展示 (zhǎnshì): the messages a seat is sent, as functions of (room, seat).

What a seat sees of the game comes from :func:`paohuzi.core.views.view` alone
(the single hidden-information filter); this module lays it out for the wire
and adds readable fields beside it: the seat's legal actions with Chinese
labels (once per message: the view's own ``legal_actions`` and ``result`` are
dropped), the players, the timers the seat may know, and at the end of a hand
the settlement (R33–R37) with the match totals (R38).
"""

from __future__ import annotations

import time
from typing import Any

from paohuzi.bots.hints import Hint
from paohuzi.core.actions import Action
from paohuzi.core.cards import CARDS, CODES, Card
from paohuzi.core.labels import ACTION_ZH, DOUBLING_ZH
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.rules import Rules
from paohuzi.core.state import DISCARDING, GameState
from paohuzi.core.tingpai import tingpai_of
from paohuzi.core.views import View, view
from paohuzi.server.present import tally
from paohuzi.server.room.port import RoomPort
from paohuzi.server.room.seats import HUMAN, READY, REMATCH, Seat

WAITING, PLAYING, SETTLEMENT, FINISHED = "waiting", "playing", "settlement", "finished"
READY_CHOICE = {"id": READY, "type": READY, "label": "下一局"}
START_CHOICE = {"id": READY, "type": READY, "label": "准备"}  # before a ready_first room's deal
REMATCH_CHOICE = {"id": REMATCH, "type": REMATCH, "label": "再来一场"}
WEB_CHOICES = {READY: READY_CHOICE, REMATCH: REMATCH_CHOICE}  # the web's own, not engine actions


def zh(cards: Any) -> str:
    """Card codes (or Cards) as Chinese characters: ``["x1", "d2"]`` → ``一贰``."""
    return "".join(Card.parse(c).zh if isinstance(c, str) else CARDS[int(c)].zh for c in cards)


def describe(a: Action, rules: Rules | None = None) -> dict[str, Any]:
    """One legal action for the client: its id plus type, card, 吃/比 groups and a label;
    with ``rules``, a 吃 also carries ``huxi``: the 胡息 its groups bring to the table."""
    d: dict[str, Any] = {"id": a.id(), "type": a.type}
    label = ACTION_ZH.get(a.type, a.type)
    if a.card is not None:
        d["card"] = CODES[a.card]
        if a.type != "pass":
            label += " " + CARDS[a.card].zh
    if a.groups:
        d["groups"] = [[CODES[c] for c in g] for g in a.groups]
        label += "：" + zh(a.groups[0])
        if len(a.groups) > 1:
            label += " 比 " + " ".join(zh(g) for g in a.groups[1:])
        if rules is not None:
            d["huxi"] = sum(Group(GroupKind.CHI, tuple(g)).huxi(rules) for g in a.groups)
    d["label"] = label
    return d


def settlement(state: GameState, scores: list[int], index: int, total: int) -> dict[str, Any]:
    """The settlement screen of a finished hand (R33–R37) plus the match totals (R38).

    门子 with their 胡息, 胡息 (before and after doubling), 等, 名堂 with 番, 底, each
    seat's payment, every seat's revealed hand and 当前总息数, and the running match score.
    """
    res = state.result.to_dict() if state.result is not None else {}
    reveal = view(state, state.dealer).to_dict().get("reveal", {})
    st = res.get("settlement") or {}
    position = res.get("position") or {}
    return {
        "winner": res.get("winner"),
        "huangzhuang": bool(res.get("huangzhuang")),
        "discarder": res.get("discarder"),
        "self_drawn": bool(position.get("self_drawn") or position.get("tianhu")),
        "tianhu": bool(position.get("tianhu")),
        "win_card": position.get("win"),
        "groups": st.get("groups", []),
        "huxi": res.get("huxi", 0),
        "scored_huxi": st.get("scored_huxi", res.get("huxi", 0)),
        "doubled": st.get("doubled", []),
        "doubled_zh": [DOUBLING_ZH.get(d, d) for d in st.get("doubled", [])],
        "zimo": bool(st.get("zimo")),
        "deng": res.get("deng", 0),
        "fan": res.get("fan", 0),
        "mingtang": res.get("mingtang", []),
        "di": res.get("di", 0),
        "payments": list(res.get("scores", [])),
        "hands": reveal.get("hands", []),
        "current_huxi": reveal.get("huxi", []),
        "match_scores": list(scores),
        "hand_index": index,
        "hands_total": total,
    }


def players(room: RoomPort) -> list[dict[str, Any]]:
    """Every seat as anyone may see it (``away`` is set only on public decisions)."""
    return [
        {
            "seat": s.index,
            "kind": s.kind,
            "name": s.name,
            "bot": s.bot,
            "connected": s.conn is not None,
            "away": s.away,
            "ready": s.index in room.ready,
        }
        for s in room.seats
    ]


def timers(room: RoomPort, seat: int) -> list[dict[str, Any]]:
    """When (server epoch seconds) pending human seats are handed to a bot (托管).

    Only what ``seat`` may know: its own timer and the discarding seat's — never
    who else is deciding on a claim (R16). Only while a hand is played.
    """
    st, ph = room.state, room.phase
    if not room.humans_connected() or ph != PLAYING or st is None:
        return []  # no timer at a settlement: whoever reads the result is never put on 托管
    public: set[int] = set()
    if st.phase == DISCARDING:
        public = {st.current_player}
    out = []
    for s in room.seats:
        if s.pending_since is None or s.kind != HUMAN or s.away:
            continue
        if s.index == seat or s.index in public:
            deadline = round(s.pending_since + room.away_timeout, 1)
            out.append({"seat": s.index, "deadline": deadline})
    return out


def choices(room: RoomPort, seat: Seat, v: View | None) -> dict[str, Action | None]:
    """The seat's choices now, by id: its legal actions (from its view), or ``ready``."""
    ph = room.phase
    if ph == PLAYING and v is not None:
        return {a.id(): a for a in v.legal}
    if ph == WAITING and room.ready_first and seat.kind == HUMAN and seat.index not in room.ready:
        return {READY: None}  # 准备: the first hand waits for it
    if ph == SETTLEMENT and seat.index not in room.ready:
        return {READY: None}
    if ph == FINISHED and seat.kind == HUMAN:
        return {REMATCH: None}  # 再来一场: same seats, a new match (Room.rematch)
    return {}


def tingpai(room: RoomPort, v: View | None) -> list[dict[str, Any]]:
    """听牌 of the seat's own hand while it waits (not while it must discard)."""
    if v is None or room.phase != PLAYING or (v.phase == DISCARDING and v.current_player == v.seat):
        return []
    return [t.to_dict() for t in tingpai_of(v)]


def view_dict(v: View | None) -> dict[str, Any] | None:
    """The view's wire form without what the message carries once, beside it."""
    if v is None:
        return None
    d = v.to_dict()
    del d["legal_actions"], d["result"]
    return d


def shared(room: RoomPort) -> dict[str, Any]:
    """The fields every seat's message shares (computed once per change)."""
    st, ph, m = room.state, room.phase, room.table.match
    out: dict[str, Any] = {
        "phase": ph,
        "room": room.id,
        "hand_id": room.hand_id,
        "hand_index": m.index + (1 if ph == PLAYING else 0),
        "hands": m.hands,
        "rules": room.rules.name,
        "bot": room.level.id,
        "bot_label": room.level.zh,
        "players": players(room),
        "scores": list(m.scores),
        "away_timeout": room.away_timeout,
        "rematch": room.next_room,  # the room of the match 再来一场 started, once it exists
    }
    if ph in (SETTLEMENT, FINISHED) and st is not None:
        out["result"] = settlement(st, m.scores, m.index, m.hands)
    if ph == FINISHED:
        out["summary"] = tally.summary(m.results, room.hand_ids, room.rules.players)
    return out


def content(room: RoomPort, seat: Seat, v: View | None, common: dict[str, Any]) -> dict[str, Any]:
    """Seat ``seat``'s state message without its version and clock (what may change)."""
    web = dict(WEB_CHOICES, **({READY: START_CHOICE} if room.phase == WAITING else {}))
    legal = [
        describe(a, room.rules) if a is not None else dict(web[i]) for i, a in seat.legal.items()
    ]
    return {
        **common,
        "seat": seat.index,
        "view": view_dict(v),
        "legal_actions": legal,
        "timers": timers(room, seat.index),
        "away": seat.away,
        "tingpai": tingpai(room, v),
    }


def state_message(seat: Seat) -> dict[str, Any]:
    """The ``state`` message of INTERFACES.md §5 for the seat's last content."""
    assert seat.shown is not None
    return {
        "type": "state",
        "version": seat.version,
        **seat.shown,
        "server_time": round(time.time(), 3),
    }


def hint_message(seat: Seat, hint: Hint) -> dict[str, Any]:
    """提示 for the seat's current state (``version``: the state it belongs to)."""
    return {"type": "hint", "version": seat.version, "hint": hint.to_dict()}


__all__ = [
    "FINISHED",
    "PLAYING",
    "READY_CHOICE",
    "REMATCH_CHOICE",
    "SETTLEMENT",
    "START_CHOICE",
    "WAITING",
    "choices",
    "content",
    "describe",
    "hint_message",
    "players",
    "settlement",
    "shared",
    "state_message",
    "timers",
    "tingpai",
    "view_dict",
    "zh",
]
