"""提示 (tíshì): advice for a human seat — the greedy choice, why, and the 听牌.

:func:`hint` works from the seat's :class:`~paohuzi.core.player.Observation`
only (a ``GameState`` is first turned into one), so it can never leak hidden
cards, and returns a :class:`Hint` value. The 听牌 list is
:func:`paohuzi.core.tingpai.tingpai_of`: every card that would win, with the
胡息 it brings when another seat turns it up and when the seat turns it up
itself (自摸). While the seat must discard, the list is for the hand left after
the recommended discard (``tingpai_after``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.actions import CHI, DISCARD, HU, PASS, PENG
from ..core.cards import CARDS, WANG, Card
from ..core.evaluator import BIT, evaluator_for
from ..core.player import Observation
from ..core.position import Position, WangPattern
from ..core.scoring import settle
from ..core.state import GameState
from ..core.tingpai import Ting, tingpai_of
from .greedy import Choice, GreedyBot
from .knowledge import knowledge

_GREEDY = GreedyBot()


def _zh(c: int) -> str:
    return CARDS[c].zh


def _groups_zh(groups: Any) -> str:
    return "、".join("".join(CARDS[x].zh for x in g) for g in groups)


def _groups_en(groups: Any) -> str:
    return ", ".join(" ".join(CARDS[x].code for x in g) for g in groups)


class Reason(NamedTuple):
    """Why, in both languages."""

    zh: str
    en: str


@dataclass(frozen=True, slots=True)
class Hint:
    """提示: the advised action's id (``None`` when the seat has nothing to decide),
    why, the 听牌 (after ``tingpai_after``, the advised discard, if any), the seat's
    当前总息数 (R33) and every legal action's id, best first."""

    seat: int
    action: str | None
    reason: Reason
    tingpai: tuple[Ting, ...] = ()
    tingpai_after: Card | None = None
    huxi: int = 0
    ranking: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The wire form (the web's ``hint`` message)."""
        return {
            "seat": self.seat,
            "action": self.action,
            "reason": self.reason._asdict(),
            "tingpai": [t.to_dict() for t in self.tingpai],
            "tingpai_after": self.tingpai_after.code if self.tingpai_after is not None else None,
            "huxi": self.huxi,
            "ranking": list(self.ranking),
        }


def _reason(ch: Choice, ranked: list[Choice], obs: Observation, ting: tuple[Ting, ...]) -> Reason:
    a = ch.action
    k = knowledge(obs.view)
    c = int(a.card) if a.card is not None else -1
    if a.type == HU:
        op = obs.view.open
        drawn = op is not None and op.owner == obs.seat and op.source in ("draw", "liangzhang")
        if obs.view.wang or c == WANG or a.pattern is not None:
            h = _wild_huxi(obs, c, drawn, a.pattern)
        else:
            ev = evaluator_for(obs.rules)
            h = ev.best_huxi(k.packed, ev.summarize(k.table_keys), c, drawn)
        if a.pattern is not None:  # R41: the pattern named (no 自摸 on a pattern)
            return Reason(f"{a.pattern.zh}胡：{h} 胡息", f"Win by {a.pattern.value}: {h} huxi")
        return Reason(
            f"胡牌：{h} 胡息" + ("（自摸）" if drawn else ""),
            f"Win now: {h} huxi" + (" (self-drawn)" if drawn else ""),
        )
    if a.type == DISCARD:
        zh, en = f"打{_zh(c)}", f"Discard {CARDS[c].code}"
        if ting:
            cards = "".join(t.card.zh for t in ting)
            codes = " ".join(t.card.code for t in ting)
            zh, en = zh + f"，听{cards}", en + f": then waiting on {codes}"
        elif _isolated(k.packed - BIT[c], c, obs.rules.yiwushi):
            zh, en = zh + "：孤张，组不成句", en + ": an isolated card that builds nothing"
        else:
            zh, en = zh + "：留下的牌最好组", en + ": the rest of the hand builds best"
        others = [o.danger for o in ranked[1:4]]
        if others and ch.danger < 0.5 * min(others):
            zh, en = zh + "；不喂对手", en + "; safe from opponents' peng/chi"
        return Reason(zh, en)
    if a.type == PENG:
        return Reason(
            f"碰{_zh(c)}：成碰，手牌更好", f"Peng {CARDS[c].code}: the pair becomes a meld"
        )
    if a.type == CHI:
        bi = len(a.groups) > 1
        zh = f"吃{_zh(c)}（{_groups_zh(a.groups)}）" + ("，含比牌" if bi else "") + "：成句"
        en = f"Chi {CARDS[c].code} as {_groups_en(a.groups)}" + (" with bi" if bi else "")
        return Reason(zh, en + ": completes a run")
    if a.type == PASS:
        if any(o.action.type in (CHI, PENG) for o in ranked):
            return Reason("过：吃/碰会让手牌变差", "Pass: taking it would weaken the hand")
        return Reason("过", "Pass")
    return Reason(a.type, a.type)


def _wild_huxi(obs: Observation, c: int, drawn: bool, pattern: WangPattern | None) -> int:
    """胡息 of a win with 王 (R40, R41): the split and 王 assignment the engine settles."""
    v = obs.view
    pos = Position(
        v.hand,
        v.own_groups(),
        None if c == WANG else CARDS[c],
        self_drawn=drawn,
        hand_size=obs.rules.hand_size,
        wang=v.wang,
        win_wang=c == WANG,
        pattern=pattern,
    )
    return settle(pos, obs.rules).huxi


def _isolated(rest: int, c: int, yiwushi: bool = False) -> bool:
    """No card of ``rest`` could join ``c`` in a pair, 句 (一五十 with ``yiwushi``) or 绞."""
    from ..core.chi import partners

    if (rest >> (3 * c)) & 7:
        return False
    pairs = partners(yiwushi)[c]
    return not any((rest >> (3 * a)) & 7 or (rest >> (3 * b)) & 7 for a, b in pairs)


def hint(state_or_obs: GameState | Observation, seat: int | None = None) -> Hint:
    """Advice for ``seat`` (default: the state's current player) as a :class:`Hint`."""
    if isinstance(state_or_obs, Observation):
        obs = state_or_obs
        if seat is not None and seat != obs.seat:
            raise ValueError(f"observation is for seat {obs.seat}, not {seat}")
    else:
        s = state_or_obs.current_player if seat is None else seat
        obs = Observation(state_or_obs, s)
    v = obs.view
    k = knowledge(v)
    waiting = k.held <= k.need
    if not obs.legal:
        ting = tingpai_of(v, k.packed) if waiting else ()
        return Hint(
            obs.seat, None, Reason("现在不用你决定", "nothing to decide now"), ting, huxi=v.huxi
        )
    ranked = _GREEDY.ranked(obs)
    best = ranked[0]
    a = best.action
    after = None
    if a.type == DISCARD:
        after = CARDS[int(a.card)]  # type: ignore[arg-type]
        ting = tingpai_of(v, k.packed - BIT[after])
    else:
        ting = tingpai_of(v, k.packed) if waiting else ()
    reason = _reason(best, ranked, obs, ting if a.type == DISCARD else ())
    ranking = tuple(ch.action.id() for ch in ranked)
    return Hint(obs.seat, a.id(), reason, ting, after, v.huxi, ranking)


__all__ = ["Hint", "Reason", "hint"]
