"""展示 (zhǎnshì): readable extras for the web client — action labels, settlement, replay frames.

Everything a seat sees of the game comes from :func:`paohuzi.core.views.view`
(the single hidden-information filter). This module only *adds* readable
fields next to it: Chinese labels for the seat's own legal actions, the
settlement of a finished hand (R33–R37) and, for finished hands only, the
step-by-step frames of a replay.
"""

from __future__ import annotations

from typing import Any

from paohuzi.core.actions import Action
from paohuzi.core.cards import CARDS, CODES, Card
from paohuzi.core.labels import ACTION_ZH, DOUBLING_ZH
from paohuzi.core.rules import Rules
from paohuzi.core.state import GameState
from paohuzi.core.views import view

READY = {"id": "ready", "type": "ready", "label": "下一局"}  # not an engine action: the web's own


def zh(cards: Any) -> str:
    """Card codes (or Cards) as Chinese characters: ``["x1", "d2"]`` → ``一贰``."""
    return "".join(Card.parse(c).zh if isinstance(c, str) else CARDS[int(c)].zh for c in cards)


def describe(a: Action) -> dict[str, Any]:
    """One legal action for the client: its id plus type, card, 吃/比 groups and a label."""
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
    d["label"] = label
    return d


def legal_actions(state: GameState, seat: int) -> list[dict[str, Any]]:
    return [describe(a) for a in state.legal_actions(seat)]


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


def _frame(state: GameState, action: dict[str, Any] | None, start: int) -> dict[str, Any]:
    """Everything on the table after one step of a *finished* hand (every seat's own view)."""
    views = [view(state, s).to_dict() for s in range(state.n)]
    v0 = views[state.dealer]
    opened = v0["open"]
    if opened is not None:
        opened = views[opened["owner"]]["open"]
    return {
        "action": action,
        "events": [e.to_dict() for e in state.events[start:]],
        "hands": [v["hand"] for v in views],
        "tables": [views[s]["tables"][s] for s in range(state.n)],
        "huxi": [v["huxi"] for v in views],
        "piles": v0["piles"],
        "wall": v0["wall"],
        "open": opened,
        "to_act": v0["to_act"],
        "current_player": v0["current_player"],
    }


def replay_frames(rec: dict[str, Any]) -> dict[str, Any]:
    """The frames of a finished hand's §4 record: the deal, then one per action."""
    rules = Rules.from_dict(rec["rules"])
    state = GameState(
        rules, rec.get("seed"), deck=rec["deck"], dealer=rec["dealer"], huang=rec.get("huang", 0)
    )
    frames = [_frame(state, None, 0)]
    for ad in rec.get("actions", []):
        start = len(state.events)
        state.apply(Action.from_dict(ad))
        frames.append(_frame(state, ad, start))
    return {
        "rules": rules.name,
        "players": rules.players,
        "seats": list(state.seats),
        "dealer": state.dealer,
        "liangzhang": CODES[state.liangzhang],
        "frames": frames,
        "result": state.result.to_dict() if state.result is not None else None,
    }
