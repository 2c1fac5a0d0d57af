"""叙述 (xùshù): events and results as short Chinese sentences for people.

Used by ``paohuzi replay`` and the RL environments' text rendering. Works on
the plain event dicts of a record (INTERFACES.md §4), so it can narrate any
record: :func:`narrate_event` one event, :func:`narrate_result` a settlement.
"""

from __future__ import annotations

from typing import Any

from .cards import card_or_wang, format_cards, parse_cards
from .labels import ACTION_ZH, SOURCE_ZH, win_flags_zh
from .melds import GroupKind

# The melds the engine makes by itself (R12–R15): events named by their GroupKind.
AUTO_MELDS = frozenset({GroupKind.TI, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.PAO})


def card_zh(code: str | None) -> str:
    return card_or_wang(code).zh if code else "▒"  # a 王 is 王 (R39)


def seat_name(seat: int | None, dealer: int | None = None) -> str:
    if seat is None:
        return ""
    return f"{seat}号{'(庄)' if seat == dealer else ''}"


def narrate_event(e: dict[str, Any], dealer: int | None = None) -> str:
    """One event as a line of Chinese, e.g. ``1号 吃 八: 七八九, 比 八八捌``."""
    t = e.get("type")
    who = seat_name(e.get("seat"), dealer)
    card = card_zh(e.get("card"))
    src = SOURCE_ZH.get(e.get("source") or "", "")
    if t == "deal":
        return f"{who} 发 {e.get('count', '?')} 张"
    if t == "liangzhang":
        return f"{who} 亮张 {card}"
    if t == "bottom":
        return f"底牌 {card} 示众"
    if t in AUTO_MELDS:
        return f"{who} {GroupKind(t).zh} {card}（{src}，自动）"
    if t == "draw":
        return f"{who} 摸 {card}" + ("，示众" if e.get("shown") else "（未示众）")
    if t in ("discard", "peng", "pass"):
        return f"{who} {ACTION_ZH[t]} {card}"
    if t == "chi":
        groups = [format_cards(parse_cards(" ".join(g))) for g in e.get("groups", [])]
        text = f"{who} 吃 {card}: {groups[0]}" if groups else f"{who} 吃 {card}"
        return text + (f"，比 {' '.join(groups[1:])}" if len(groups) > 1 else "")
    if t == "pile":
        return f"{card} 无人要，归 {who} 牌堆"
    if t == "hu":
        how = win_flags_zh(e.get)
        if not e.get("card"):  # R28 mandatory 天胡: no winning card
            return f"{who} 天胡（自动）"
        return f"{who} 胡 {card}" + (f"（{'、'.join(how)}）" if how else "")
    if t == "xing":  # R42: the 醒牌, the card turned for it, how many the winner holds
        turned = card_zh(e.get("turned"))
        from_ = f"翻出 {turned}" if e.get("source") == "wall" else f"跟醒，胡的牌 {turned}"
        return f"{who} 醒牌 {card}（{from_}），门子中 {e.get('count', '?')} 张"
    if t == "huangzhuang":
        return "荒庄：墩已摸完，无人胡牌"
    if t == "settle":
        return f"结算：{who} 胡息 {e.get('huxi')}，底 {e.get('di')}，得分 {e.get('scores')}"
    return f"{who} {t} {card}".strip()


def narrate_result(res: dict[str, Any] | None, dealer: int | None = None) -> list[str]:
    """The settlement of a record's ``result`` as lines."""
    if not res:
        return ["（未结束）"]
    if res.get("winner") is None:
        return ["荒庄 — 无人得分"]
    lines = [f"{seat_name(res['winner'], dealer)} 胡牌：胡息 {res.get('huxi')}，底 {res.get('di')}"]
    st = res.get("settlement") or {}
    for g in st.get("groups", []):
        lines.append(f"  {g['kind']:<8} {g['cards']:<6} {g['huxi']:>3} 胡息")
    if st.get("wang"):  # R40: what each 王 stood for in the scored split
        lines.append("  王 作 " + "".join(card_zh(c) for c in st["wang"]))
    if st:
        xing = f"（含醒 {st['xing']}）" if st.get("xing") else ""  # R42
        lines.append(f"  等 {st.get('deng')}{xing}  番 {st.get('fan')}  底 {st.get('di')}")
    for m in res.get("mingtang", []):
        lines.append(f"  名堂 {m['name']} {m['fan']} 番")
    lines.append(
        "  得分 " + "  ".join(f"{s}号 {v:+d}" for s, v in enumerate(res.get("scores", [])))
    )
    return lines
