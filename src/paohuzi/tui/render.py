"""画面 (huàmiàn): the terminal game's text, built from one seat's view only.

Every function here takes the plain data of ``paohuzi.core.views.view`` (card
codes, ``None`` for a card the seat may not see) and returns rich ``Text``; none
of them can reach the game state, so nothing hidden can leak onto the screen.
Cards: 红字 (R3) red, 大字 bold + underlined, hidden cards ``▒▒`` (two cells,
the width of a Chinese card glyph).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from paohuzi.core.actions import CHI, HU, PASS, PENG, Action, IllegalAction
from paohuzi.core.cards import Card
from paohuzi.core.labels import doubling_zh, win_flags_zh
from paohuzi.core.melds import GroupKind

HIDDEN = "▒▒"
RED = "bold red"
BIG = "bold underline"
DIM = "dim"
AUTO = "yellow"
CURSOR = "reverse"
MAX_PILE = 22  # cards of a discard pile shown; older ones collapse into "…"


def card(code: str) -> Card:
    return Card.parse(code)


def card_style(c: Card) -> str:
    """红字 red (R3); 大字 bold + underlined so 八/捌 differ at a glance."""
    parts = [RED if c.is_red else "", BIG if c.is_big else ""]
    return " ".join(p for p in parts if p)


def card_text(code: str | None, extra: str = "") -> Text:
    """One card, or ``▒▒`` for a face-down card (``None`` in the view)."""
    if code is None:
        return Text(HIDDEN, style=DIM)
    c = card(code)
    return Text(c.zh, style=f"{card_style(c)} {extra}".strip())


def cards_text(codes: Iterable[str | None], sep: str = "") -> Text:
    out = Text()
    for i, code in enumerate(codes):
        if i and sep:
            out.append(sep)
        out.append_text(card_text(code))
    return out


# -- the concealed hand ---------------------------------------------------------------------------
def group_hand(codes: Sequence[str]) -> list[list[str]]:
    """The hand as shown: each 坎 (three alike) first, then the rest by point, 小 before 大."""
    count = Counter(card(c) for c in codes)
    kans = sorted(c for c, n in count.items() if n >= 3)
    groups = [[c.code] * count[c] for c in kans]
    by_point: dict[int, list[Card]] = {}
    for c in sorted(c for c in count if c not in kans):
        by_point.setdefault(c.point, []).extend([c] * count[c])
    for point in sorted(by_point):
        groups.append([c.code for c in sorted(by_point[point])])
    return groups


@dataclass(frozen=True)
class Slot:
    """One card of the shown hand: its group, code and whether it may be discarded."""

    group: int
    code: str
    selectable: bool


def hand_slots(codes: Sequence[str], discardable: Iterable[str] = ()) -> list[Slot]:
    allowed = set(discardable)
    return [
        Slot(g, code, code in allowed)
        for g, cards in enumerate(group_hand(codes))
        for code in cards
    ]


def hand_text(
    slots: Sequence[Slot],
    cursor: int | None = None,
    numbered: bool = False,
    marked: Iterable[int] = (),
) -> Text:
    """Two lines: the cards (3 cells each, groups apart) and, if ``numbered``, the
    selection numbers of the discardable cards beneath them (1, 2, … left to right)."""
    top, bottom = Text(" "), Text(" ")
    marks = set(marked)
    n = 0
    for i, s in enumerate(slots):
        if i and s.group != slots[i - 1].group:
            top.append(" ")
            bottom.append(" ")
        style = CURSOR if i == cursor or i in marks else ""
        top.append_text(card_text(s.code, style))
        top.append(" ")
        if numbered and s.selectable:
            n += 1
            bottom.append(f"{n:>2}", style=CURSOR if i == cursor else DIM)
        else:
            bottom.append("  ")
        bottom.append(" ")
    return Text("\n").join([top, bottom]) if numbered else top


def selectable_indices(slots: Sequence[Slot]) -> list[int]:
    return [i for i, s in enumerate(slots) if s.selectable]


def used_from_hand(action_id: str, slots: Sequence[Slot]) -> list[int]:
    """Slots a 碰/吃 option would take from the hand (to highlight them)."""
    try:
        a = Action.from_id(0, action_id)
    except IllegalAction:
        return []
    need: Counter[str] = Counter()
    if a.type == PENG and a.card is not None:
        need[a.card.code] = 2
    elif a.type == CHI and a.card is not None:
        for g in a.groups:
            need.update(c.code for c in g)
        need[a.card.code] -= 1
    out = []
    for i, s in enumerate(slots):
        if need[s.code] > 0:
            need[s.code] -= 1
            out.append(i)
    return out


# -- table ------------------------------------------------------------------------------------------
def meld_text(meld: dict[str, Any]) -> Text:
    """A table meld: its kind (碰, 偎 …) then its cards; face-down ones as ▒▒."""
    kind = GroupKind(meld["kind"])
    return Text.assemble((kind.zh, DIM), cards_text(meld["cards"]))


def melds_text(melds: Sequence[dict[str, Any]]) -> Text:
    if not melds:
        return Text("—", style=DIM)
    return Text(" ").join(meld_text(m) for m in melds)


def pile_text(pile: Sequence[str]) -> Text:
    if not pile:
        return Text("—", style=DIM)
    if len(pile) > MAX_PILE:
        return Text.assemble(("…", DIM), cards_text(pile[-MAX_PILE:]))
    return cards_text(pile)


def pad(text: str, cells: int) -> str:
    """``text`` padded with spaces to ``cells`` terminal cells (CJK glyphs take two)."""
    return text + " " * max(0, cells - cell_len(text))


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def seat_text(
    v: dict[str, Any],
    seat: int,
    name: str,
    score: int,
    acting: bool = False,
    tag: str = "",
) -> Text:
    """Two lines for one seat: name, hand size / 胡息, score, pile; then its table melds."""
    me = seat == v["seat"]
    head = Text()
    head.append("▶ " if acting else "  ", style="bold green")
    head.append(pad(name, 4), style="bold" if me else "")
    head.append(f" {tag[:7]:<7} ", style=DIM)
    if seat == v["dealer"]:
        head.append("庄 ", style="bold magenta")
    if seat not in v["seats"]:
        head.append("坐底 ", style=DIM)
    elif me:
        head.append("胡息 ", style=DIM)
        head.append(f"{v['huxi']:<3}", style="bold")
    else:
        head.append(f"手{v['hand_sizes'][seat]:<3}")
    head.append("分 ", style=DIM)
    head.append(f"{signed(score):<5}")
    head.append("弃 ", style=DIM)
    head.append_text(pile_text(v["piles"][seat]))
    if me and v.get("chou"):
        head.append("  臭 ", style=DIM)
        head.append_text(cards_text(v["chou"]))
    line2 = Text.assemble(("    进 ", DIM), melds_text(v["tables"][seat]))
    head.no_wrap = line2.no_wrap = True
    return Text("\n").join([head, line2])


# -- log --------------------------------------------------------------------------------------------
def event_text(e: dict[str, Any], names: dict[int, str], me: int = 0) -> Text | None:
    """One log line for a public event, as seat ``me`` sees it (``None``: no line)."""
    t = e["type"]
    who = names.get(e.get("seat", -1), "")
    c = e.get("card")
    if t == "liangzhang":
        return Text.assemble(f"{who} 亮张 ", card_text(c))
    if t == "bottom":
        return Text.assemble("墩底 ", card_text(c))
    if t == "draw":
        return Text.assemble(f"{who} 翻 ", card_text(c))
    if t == "discard":
        return Text.assemble(f"{who} 打 ", card_text(c))
    if t in ("ti", "wei", "chouwei", "pao"):
        zh = GroupKind(t).zh
        n = 4 if t in ("ti", "pao") else 3
        shown = [c] + [None] * (n - 1) if t in ("ti", "chouwei") else [c] * n
        if c is None:
            shown = [None] * n
        return Text.assemble(f"{who} {zh} ", cards_text(shown), ("  自动", AUTO))
    if t == "chi":
        groups = e.get("groups") or []
        out = Text.assemble(
            f"{who} 吃 ", card_text(c), "  ", cards_text(groups[0] if groups else [])
        )
        if len(groups) > 1:
            out.append("  比 ", style=DIM)
            out.append_text(Text(" ").join(cards_text(g) for g in groups[1:]))
        return out
    if t == "peng":
        return Text.assemble(f"{who} 碰 ", card_text(c))
    if t == "pass":  # only your own: another seat's pass would tell that it could claim
        if e.get("seat") != me:
            return None
        return Text.assemble((f"{who} 过 ", DIM), card_text(c, DIM))
    if t == "hu" and c is None:  # R28 mandatory 天胡: no winning card
        return Text(f"{who} 天胡 (自动)", style="bold green")
    if t == "hu":
        flags = win_flags_zh(e.get)
        return Text.assemble((f"{who} 胡 ", "bold green"), card_text(c), "  " + " ".join(flags))
    if t == "huangzhuang":
        return Text("荒庄: 墩牌摸完, 无人胡", style="bold yellow")
    return None  # deal, pile (shown in the piles), settle (its own screen)


def log_lines(
    log: Sequence[dict[str, Any]], names: dict[int, str], last: int, me: int = 0
) -> list[Text]:
    lines = [t for t in (event_text(e, names, me) for e in log) if t is not None]
    return lines[-last:] if last > 0 else []


# -- claims -----------------------------------------------------------------------------------------
def option_text(action_id: str, open_card: str | None) -> Text:
    """A claim option as cards: 胡 X, 碰 XXX, 吃 XYZ 比 …, 过."""
    try:
        a = Action.from_id(0, action_id)
    except IllegalAction:
        return Text(action_id)
    if a.type == HU:
        return Text.assemble(("胡 ", "bold green"), card_text(open_card), ("  (win)", DIM))
    if a.type == PASS:
        return Text.assemble(("过 ", "bold"), ("(pass)", DIM))
    if a.type == PENG and a.card is not None:
        return Text.assemble(("碰 ", "bold"), cards_text([a.card.code] * 3))
    if a.type == CHI:
        out = Text.assemble(("吃 ", "bold"), cards_text([c.code for c in a.groups[0]]))
        if len(a.groups) > 1:
            out.append("  比 ", style=DIM)
            out.append_text(Text(" ").join(cards_text([c.code for c in g]) for g in a.groups[1:]))
        return out
    return Text(action_id)


def source_zh(source: str | None) -> str:
    return {"draw": "翻出", "discard": "打出", "liangzhang": "亮张"}.get(source or "", "出")


# -- settlement -------------------------------------------------------------------------------------
def settlement_text(
    v: dict[str, Any],
    names: dict[int, str],
    details: dict[str, Any] | None,
    totals: Sequence[int],
    title: str,
) -> Text:
    """结算: 门子 with 胡息, 等, 名堂 + 番, 底, payments, every 当前总息数 (R33), totals."""
    res = v["result"] or {}
    out = Text()
    out.append(f" {title}\n", style="bold")
    winner = res.get("winner")
    if winner is None:
        out.append(" 荒庄 — no winner, no score (R32)\n", style="bold yellow")
    else:
        out.append(f" {names[winner]} 胡", style="bold green")
        pos = res.get("position") or {}
        if pos.get("win"):
            out.append(" ")
            out.append_text(card_text(card(pos["win"]).code))
        flags = win_flags_zh(pos.get)
        if res.get("discarder") is not None:
            flags.append(f"{names[res['discarder']]}放炮")
        out.append(("  " + " ".join(flags)) if flags else "")
        out.append("\n")
        if details:
            out.append_text(_groups_block(details))
            out.append_text(_score_block(details))
    out.append_text(_players_block(v, names, res.get("scores") or [], totals))
    return out


def _groups_block(d: dict[str, Any]) -> Text:
    out = Text()
    out.append(" 门子   牌          胡息\n", style=DIM)
    total = 0
    for g in d.get("groups", []):
        cards = [Card.parse(ch).code for ch in g["cards"]]
        kind = GroupKind(g["kind"]).zh
        out.append(" " + pad(kind, 7), style="bold")
        ct = cards_text(cards)
        out.append_text(ct)
        out.append(" " * max(1, 13 - ct.cell_len))
        out.append(f"{g['huxi']:>3}\n", style="bold" if g["huxi"] else DIM)
        total += g["huxi"]
    out.append(f" 合计 total          {total:>3}\n", style=DIM)
    return out


def _score_block(d: dict[str, Any]) -> Text:
    out = Text(" 胡息 ", style=DIM)
    out.append(str(d["huxi"]), style="bold")
    doubled = d.get("doubled") or []
    if doubled:
        out.append(f" ×{2 ** len(doubled)} {doubling_zh(doubled)} → {d.get('scored_huxi')}")
    out.append("   等 ", style=DIM)
    out.append(str(d["deng"]), style="bold")
    if d.get("zimo"):
        out.append(" (含自摸 +1)", style=DIM)
    out.append("   番 ", style=DIM)
    out.append(str(d["fan"]), style="bold")
    out.append("   底 ", style=DIM)
    out.append(str(d["di"]), style="bold")
    if d["di"] == d["deng"] * d["fan"]:
        out.append(f" = {d['deng']}等×{d['fan']}番", style=DIM)
    out.append("\n 名堂 ", style=DIM)
    hits = d.get("mingtang") or []
    if hits:
        out.append(" + ".join(f"{m['name']} {m['fan']}番" for m in hits))
    else:
        out.append("平胡 1番", style=DIM)
    out.append("\n")
    return out


def _players_block(
    v: dict[str, Any], names: dict[int, str], scores: Sequence[int], totals: Sequence[int]
) -> Text:
    """Per seat: 当前总息数 (R33), this hand's payment (R37), match total (R38), hand."""
    reveal = v.get("reveal") or {}
    hands = reveal.get("hands") or [[] for _ in range(v["players"])]
    huxi = reveal.get("huxi") or [0] * v["players"]
    out = Text(" 座位   当前总息  本局  总分  手牌\n", style=DIM)
    for s in range(v["players"]):
        out.append(" " + pad(names[s], 7), style="bold" if s == v["seat"] else "")
        pay = scores[s] if s < len(scores) else 0
        out.append(f"{huxi[s]:>8}")
        out.append(f"{signed(pay):>6}", style="green" if pay > 0 else ("red" if pay < 0 else DIM))
        out.append(f"{signed(totals[s]):>6}  ", style="bold")
        out.append_text(cards_text(hands[s]) if hands[s] else Text("—", style=DIM))
        out.append("\n")
    return out
