"""提示 (tíshì): the ``h`` key — advice for the human seat.

``paohuzi.bots.hints.hint(observation)`` is used when that module exists; until
then (or if it fails) a small built-in hint works from the seat's own view only:
which discard leaves the hand 听牌 (ready, R22/R23) with the most waiting cards,
or how a 碰/吃 changes the 当前总息数 (R33).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paohuzi.core.actions import CHI, HU, PENG, Action, IllegalAction
from paohuzi.core.cards import CARDS, Card
from paohuzi.core.evaluator import evaluator_for, pack
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.rules import Rules

Hint = Callable[[Any], Any]


def external_hint() -> Hint | None:
    """The bots' hint function, if that module exists yet."""
    try:
        from paohuzi.bots.hints import hint
    except ImportError:
        return None
    return hint


def describe(advice: Any, legal: list[str]) -> str:
    """The bots' advice as one line: the suggested choice, why, and the 听牌 after it.

    ``paohuzi.bots.hints.hint`` returns a dict (``action``, ``reason`` {zh, en},
    ``tingpai`` [{zh, …}]); an Action, an action id or plain text are shown too.
    """
    if isinstance(advice, dict):
        aid = advice.get("action")
        reason = advice.get("reason") or {}
        why = reason.get("zh") or reason.get("en") if isinstance(reason, dict) else str(reason)
        what = label(aid) if isinstance(aid, str) and aid in legal else ""
        if why and what.replace(" ", "") in str(why):  # the reason already names the choice
            out = f"建议 {why}"
        elif why:
            out = f"建议 {what} — {why}" if what else str(why)
        else:
            out = f"建议 {what}" if what else ""
        ting = advice.get("tingpai") or []
        if ting and not (why and "听" in why):
            out += "  听 " + "".join(str(t.get("zh", "")) for t in ting)
        return out or "—"
    if isinstance(advice, Action):
        advice = advice.id()
    if isinstance(advice, str) and advice in legal:
        return f"建议 {label(advice)}"
    return str(advice)


def label(action_id: str) -> str:
    try:
        a = Action.from_id(0, action_id)
    except IllegalAction:
        return action_id
    if a.type == CHI:
        return "吃 " + " ".join("".join(c.zh for c in g) for g in a.groups)
    zh = {"discard": "打", "peng": "碰", "hu": "胡", "pass": "过"}[a.type]
    return f"{zh} {a.card.zh}" if a.card is not None else zh


def _own_table(v: dict[str, Any]) -> tuple[Group, ...]:
    me = v["seat"]
    return tuple(
        Group(GroupKind(m["kind"]), tuple(Card.parse(c) for c in m["cards"]))
        for m in v["tables"][me]
    )


def builtin_hint(v: dict[str, Any], rules: Rules) -> str:
    """A hint computed from the view alone (own hand and melds, legal choices)."""
    legal: list[str] = v["legal_actions"]
    if not legal:
        return "等待 — nothing to decide now"
    ev = evaluator_for(rules)
    hand = [Card.parse(c) for c in v["hand"]]
    table = _own_table(v)
    packed = pack(hand)
    now = ev.current_huxi(packed, table)
    if v["phase"] == "discard":
        best: tuple[int, int, str, dict[int, int]] | None = None
        for aid in legal:
            c = Card.parse(aid.split(":")[1])
            waits = ev.tingpai(packed - pack([c]), table)
            key = (len(waits), max(waits.values(), default=0), aid, waits)
            if best is None or key[:2] > best[:2]:
                best = key
        if best and best[0]:
            cards = "".join(CARDS[c].zh for c in sorted(best[3]))
            return f"{label(best[2])} → 听 {cards} (最多 {best[1]} 胡息)"
        keep = max(legal, key=lambda a: ev.current_huxi(packed - pack([Card.parse(a[8:])]), table))
        after = ev.current_huxi(packed - pack([Card.parse(keep[8:])]), table)
        return f"{label(keep)} keeps the most 胡息 ({after}); no discard makes you 听牌 yet"
    if HU in legal:
        return "胡 wins now — take it (passing makes it 臭胡, R30)"
    parts = []
    for aid in legal:
        a = Action.from_id(0, aid)
        if a.type == PENG and a.card is not None:
            g = Group.of(GroupKind.PENG, a.card)
            rest = packed - 2 * pack([a.card])
            parts.append(f"{label(aid)} → 胡息 {ev.current_huxi(rest, (*table, g))}")
        elif a.type == CHI and a.card is not None:
            used = [c for g in a.groups for c in g]
            used.remove(a.card)
            gs = tuple(Group(GroupKind.CHI, g) for g in a.groups)
            parts.append(f"{label(aid)} → {ev.current_huxi(packed - pack(used), (*table, *gs))}")
    return f"胡息 now {now}; " + "; ".join(parts[:3])


def hint_text(v: dict[str, Any], rules: Rules, observation: Callable[[], Any]) -> str:
    """The bots' hint if available, else the built-in one."""
    ext = external_hint()
    if ext is not None and v["legal_actions"]:
        try:
            return describe(ext(observation()), v["legal_actions"])
        except Exception as e:  # a hint must never end the game
            return f"(hint failed: {type(e).__name__}) " + builtin_hint(v, rules)
    return builtin_hint(v, rules)
