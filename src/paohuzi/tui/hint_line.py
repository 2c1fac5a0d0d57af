"""提示 (tíshì): the ``h`` key — :func:`paohuzi.bots.hints.hint`'s advice worded as one line.

The advice itself (the greedy choice, why, the 听牌 after it) comes from the
bots package, which works from the seat's observation only; this module just
words it for the screen.
"""

from __future__ import annotations

from paohuzi.bots import Observation
from paohuzi.bots.hints import Hint, hint
from paohuzi.core.actions import CHI, Action, IllegalAction
from paohuzi.core.labels import ACTION_ZH


def hint_line(advice: Hint, legal: list[str]) -> str:
    """The advice as one line: the suggested choice, why, and the 听牌 after it
    (a suggestion outside ``legal`` is left out)."""
    aid = advice.action
    why = advice.reason.zh or advice.reason.en
    what = label(aid) if aid is not None and aid in legal else ""
    if why and what.replace(" ", "") in why:  # the reason already names the choice
        out = f"建议 {why}"
    elif why:
        out = f"建议 {what} — {why}" if what else why
    else:
        out = f"建议 {what}" if what else ""
    if advice.tingpai and "听" not in why:
        out += "  听 " + "".join(t.card.zh for t in advice.tingpai)
    return out or "—"


def label(action_id: str) -> str:
    """An action id in Chinese: ``discard:d1`` → ``打 壹``, ``chi:…`` → ``吃 七八九``."""
    try:
        a = Action.from_id(0, action_id)
    except IllegalAction:
        return action_id
    if a.type == CHI:
        return "吃 " + " ".join("".join(c.zh for c in g) for g in a.groups)
    zh = ACTION_ZH[a.type]
    return f"{zh} {a.card.zh}" if a.card is not None else zh


def hint_text(observation: Observation) -> str:
    """The advice for the seat of ``observation`` (a clone: the hint may take its time)."""
    try:
        return hint_line(hint(observation), [a.id() for a in observation.legal])
    except Exception as e:  # a hint must never end the game
        return f"(hint failed: {type(e).__name__}: {e})"
