"""提示 (tíshì): advice for a human seat — the greedy choice, why, and the 听牌.

:func:`hint` works from the seat's :class:`~paohuzi.bots.base.Observation`
only (a ``GameState`` is first turned into one), so it can never leak hidden
cards. The 听牌 list comes straight from the evaluator (R22–R27, R23): every
card that would win, with the 胡息 it brings when another seat turns it up and
when the seat turns it up itself (自摸). While the seat must discard, the list
is for the hand left after the recommended discard (``tingpai_after``).
"""

from __future__ import annotations

from typing import Any

from ..core.actions import CHI, DISCARD, HU, PASS, PENG
from ..core.cards import CARDS
from ..core.evaluator import BIT, evaluator_for
from ..core.melds import Group
from ..core.state import GameState
from ..core.views import View
from .base import Observation
from .features import knowledge
from .greedy import Choice, GreedyBot

_GREEDY = GreedyBot()


def _zh(c: int) -> str:
    return CARDS[c].zh


def _groups_zh(groups: Any) -> str:
    return "、".join("".join(CARDS[x].zh for x in g) for g in groups)


def _groups_en(groups: Any) -> str:
    return ", ".join(" ".join(CARDS[x].code for x in g) for g in groups)


def own_table(v: View) -> tuple[Group, ...]:
    """The seat's own table melds as Groups (its view shows all their cards)."""
    return tuple(
        Group(m.kind, tuple(c for c in m.cards if c is not None)) for m in v.tables[v.seat]
    )


def tingpai(obs: Observation, packed: int | None = None) -> list[dict[str, Any]]:
    """听牌 of the seat's hand (or of ``packed``, same table): winning cards with
    their 胡息, taken from others (``huxi``) and self-drawn (``huxi_zimo``);
    ``None`` where that way does not win."""
    v = obs.view
    ev = evaluator_for(obs.rules)
    table = own_table(v)
    if packed is None:
        packed = knowledge(v).packed
    other = ev.tingpai(packed, table, self_drawn=False)
    zimo = ev.tingpai(packed, table, self_drawn=True)
    return [
        {"card": CARDS[c].code, "zh": _zh(c), "huxi": other.get(c), "huxi_zimo": zimo.get(c)}
        for c in sorted(set(other) | set(zimo))
    ]


def _reason(ch: Choice, ranked: list[Choice], obs: Observation, ting: list[dict[str, Any]]):
    a = ch.action
    k = knowledge(obs.view)
    c = int(a.card) if a.card is not None else -1
    if a.type == HU:
        op = obs.view.open
        drawn = op is not None and op.owner == obs.seat and op.source in ("draw", "liangzhang")
        ev = evaluator_for(obs.rules)
        h = ev.best_huxi(k.packed, ev.summarize(k.table_keys), c, drawn)
        return f"胡牌：{h} 胡息" + ("（自摸）" if drawn else ""), f"Win now: {h} huxi" + (
            " (self-drawn)" if drawn else ""
        )
    if a.type == DISCARD:
        zh, en = f"打{_zh(c)}", f"Discard {CARDS[c].code}"
        if ting:
            cards = "".join(t["zh"] for t in ting)
            codes = " ".join(t["card"] for t in ting)
            zh, en = zh + f"，听{cards}", en + f": then waiting on {codes}"
        elif _isolated(k.packed - BIT[c], c):
            zh, en = zh + "：孤张，组不成句", en + ": an isolated card that builds nothing"
        else:
            zh, en = zh + "：留下的牌最好组", en + ": the rest of the hand builds best"
        others = [o.danger for o in ranked[1:4]]
        if others and ch.danger < 0.5 * min(others):
            zh, en = zh + "；不喂对手", en + "; safe from opponents' peng/chi"
        return zh, en
    if a.type == PENG:
        return f"碰{_zh(c)}：成碰，手牌更好", f"Peng {CARDS[c].code}: the pair becomes a meld"
    if a.type == CHI:
        bi = len(a.groups) > 1
        zh = f"吃{_zh(c)}（{_groups_zh(a.groups)}）" + ("，含比牌" if bi else "") + "：成句"
        en = f"Chi {CARDS[c].code} as {_groups_en(a.groups)}" + (" with bi" if bi else "")
        return zh, en + ": completes a run"
    if a.type == PASS:
        if any(o.action.type in (CHI, PENG) for o in ranked):
            return "过：吃/碰会让手牌变差", "Pass: taking it would weaken the hand"
        return "过", "Pass"
    return a.type, a.type


def _isolated(rest: int, c: int) -> bool:
    """No card of ``rest`` could join ``c`` in a pair, 句 or 绞."""
    from ..core.chi import PARTNERS

    if (rest >> (3 * c)) & 7:
        return False
    return not any((rest >> (3 * a)) & 7 or (rest >> (3 * b)) & 7 for a, b in PARTNERS[c])


def hint(state_or_obs: GameState | Observation, seat: int | None = None) -> dict[str, Any]:
    """Advice for ``seat``: ``action`` (an id of its legal actions, or ``None`` when it
    has nothing to decide), ``reason`` (``zh``/``en``), ``tingpai`` (see
    :func:`tingpai`), ``tingpai_after`` (the discard the list assumes, or ``None``),
    ``huxi`` (当前总息数, R33) and ``ranking`` (every action id, best first)."""
    if isinstance(state_or_obs, Observation):
        obs = state_or_obs
        if seat is not None and seat != obs.seat:
            raise ValueError(f"observation is for seat {obs.seat}, not {seat}")
    else:
        s = state_or_obs.current_player if seat is None else seat
        obs = Observation(state_or_obs, s)
    v = obs.view
    out: dict[str, Any] = {
        "seat": obs.seat,
        "action": None,
        "reason": None,
        "tingpai": [],
        "tingpai_after": None,
        "huxi": v.huxi,
        "ranking": [],
    }
    k = knowledge(v)
    waiting = k.held <= k.need
    if not obs.legal:
        if waiting:
            out["tingpai"] = tingpai(obs)
        out["reason"] = {"zh": "现在不用你决定", "en": "nothing to decide now"}
        return out
    ranked = _GREEDY.ranked(obs)
    best = ranked[0]
    a = best.action
    if a.type == DISCARD:
        out["tingpai"] = tingpai(obs, k.packed - BIT[int(a.card)])  # type: ignore[arg-type]
        out["tingpai_after"] = CARDS[int(a.card)].code  # type: ignore[arg-type]
    elif waiting:
        out["tingpai"] = tingpai(obs)
    zh, en = _reason(best, ranked, obs, out["tingpai"] if a.type == DISCARD else [])
    out["action"] = a.id()
    out["reason"] = {"zh": zh, "en": en}
    out["ranking"] = [ch.action.id() for ch in ranked]
    return out


__all__ = ["hint", "own_table", "tingpai"]
