"""选项 (xuǎnxiàng): a seat's choices — which it has now, and each as the client shows it.

:func:`seat_choices` is what a human seat may choose (by id): its legal actions
while a hand is played, else the web's own ``ready`` or ``rematch``.
:func:`action_choice` lays one engine action out for the client: its id, type,
card, 吃/比 groups, a 胡's 王 pattern (R41), a Chinese label and, for a 吃, the 胡息 it brings.
"""

from __future__ import annotations

from typing import Any

from paohuzi.core.actions import Action
from paohuzi.core.cards import CARDS, CODES, Card
from paohuzi.core.labels import ACTION_ZH
from paohuzi.core.melds import Group, GroupKind
from paohuzi.core.rules import Rules
from paohuzi.core.views import View
from paohuzi.server.messages import ActionChoice
from paohuzi.server.vocab import RoomPhase, WebChoice

_READY, _REMATCH = WebChoice.READY, WebChoice.REMATCH
_WAITING, _PLAYING = RoomPhase.WAITING, RoomPhase.PLAYING
_SETTLEMENT, _FINISHED = RoomPhase.SETTLEMENT, RoomPhase.FINISHED
READY_CHOICE = ActionChoice.make(id=_READY, type=_READY, label="下一局")
START_CHOICE = ActionChoice.make(id=_READY, type=_READY, label="准备")  # ready_first
REMATCH_CHOICE = ActionChoice.make(id=_REMATCH, type=_REMATCH, label="再来一场")


def zh(cards: Any) -> str:
    """Card codes (or Cards) as Chinese characters: ``["x1", "d2"]`` → ``一贰``."""
    return "".join(Card.parse(c).zh if isinstance(c, str) else CARDS[int(c)].zh for c in cards)


def seat_choices(
    phase: RoomPhase, v: View | None, *, ready_first: bool, ready: bool
) -> dict[str, Action | None]:
    """A human seat's choices now, by id: its legal actions (from its view), or ready
    (None) — 准备 before a ``ready_first`` deal, 下一局 at a settlement — or 再来一场."""
    if phase == _PLAYING and v is not None:
        return {a.id(): a for a in v.legal}
    if ((phase == _WAITING and ready_first) or phase == _SETTLEMENT) and not ready:
        return {_READY: None}
    if phase == _FINISHED:
        return {_REMATCH: None}  # same seats, a new match (Room.rematch)
    return {}


def action_choice(a: Action, rules: Rules | None = None) -> ActionChoice:
    """One legal action for the client; with ``rules``, a 吃 carries the 胡息 its groups
    bring to the table."""
    label = ACTION_ZH.get(a.type, a.type)
    card = groups = huxi = None
    if a.card is not None:
        card = CODES[a.card]
        if a.type != "pass":
            label += " " + Card(a.card).zh  # a drawn 王 too (R39: 胡 王)
    if a.groups:
        groups = tuple(tuple(CODES[c] for c in g) for g in a.groups)
        label += "：" + zh(a.groups[0])
        if len(a.groups) > 1:
            label += " 比 " + " ".join(zh(g) for g in a.groups[1:])
        if rules is not None:
            huxi = sum(Group(GroupKind.CHI, tuple(g)).huxi(rules) for g in a.groups)
    pattern = None
    if a.pattern is not None:  # R41: the 胡 names its pattern (胡 三 王钓)
        pattern = a.pattern.value
        label += " " + a.pattern.zh
    return ActionChoice.make(
        id=a.id(), type=a.type, card=card, groups=groups, huxi=huxi, pattern=pattern, label=label
    )


def action_choice_dict(a: Action, rules: Rules | None = None) -> dict[str, Any]:
    """:func:`action_choice` as a JSON object (for pages that answer with plain dicts)."""
    return action_choice(a, rules).model_dump(mode="json")


# Every decision lists its actions again (one 打 per card kind, 碰, 过 …): each action's
# choice is kept by its id and card (胡 and 过 name no card in their id, yet show it)
# and, for a 吃 whose 胡息 the rules set, the rules object it was laid out under;
# bounded to about what rooms in play offer.
_LISTED: dict[tuple[str, int | None, int], tuple[Rules, ActionChoice]] = {}


def _listed(aid: str, a: Action, rules: Rules) -> ActionChoice:
    key = (aid, a.card, id(rules) if a.groups else 0)
    hit = _LISTED.get(key)
    if hit is None or (a.groups and hit[0] is not rules):
        if len(_LISTED) > 4096:
            _LISTED.clear()
        hit = _LISTED[key] = (rules, action_choice(a, rules))
    return hit[1]


def described(
    legal: dict[str, Action | None], rules: Rules, phase: RoomPhase
) -> tuple[ActionChoice, ...]:
    """The seat's choices as the client lists them (``ready`` is 准备 before the deal)."""
    ready = START_CHOICE if phase == _WAITING else READY_CHOICE
    return tuple(
        _listed(i, a, rules) if a is not None else ready if i == _READY else REMATCH_CHOICE
        for i, a in legal.items()
    )


__all__ = [
    "READY_CHOICE",
    "REMATCH_CHOICE",
    "START_CHOICE",
    "action_choice",
    "action_choice_dict",
    "described",
    "seat_choices",
    "zh",
]
