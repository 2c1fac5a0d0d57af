"""画面 (huàmiàn): the terminal game's text, built from one seat's view only.

Every function here takes pieces of a :class:`~paohuzi.core.views.View` (``Card``
ints, ``None`` for a card the seat may not see, :class:`MeldView`, ``Event``,
``Action``) and returns rich ``Text``; none of them can reach the game state, so
nothing hidden can leak onto the screen. Cards: 红字 (R3) red, 大字 bold +
underlined, hidden cards ``▒▒`` (two cells, the width of a Chinese card glyph).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

from paohuzi.core.actions import CHI, HU, PASS, PENG, Action
from paohuzi.core.cards import Card, card_or_wang
from paohuzi.core.events import Event, turned_up_by
from paohuzi.core.labels import OPEN_VERB_ZH, doubling_zh, sit_out_word, win_flags_zh
from paohuzi.core.match import race_final
from paohuzi.core.melds import GroupKind
from paohuzi.core.mingtang import MingtangHit
from paohuzi.core.position import Position
from paohuzi.core.rules import MatchKind, Rules
from paohuzi.core.scoring import Settlement
from paohuzi.core.views import MeldView, View
from paohuzi.core.vocab import EventType, Source
from paohuzi.core.wang import wang_places

HIDDEN = "▒▒"
RED = "bold red"
BIG = "bold underline"
DIM = "dim"
AUTO = "yellow"
CURSOR = "reverse"
MAX_PILE = 22  # cards of a discard pile shown; older ones collapse into "…"
E = EventType


def card_style(c: Card) -> str:
    """红字 red (R3); 大字 bold + underlined so 八/捌 differ at a glance."""
    parts = [RED if c.is_red else "", BIG if c.is_big else ""]
    return " ".join(p for p in parts if p)


def card_text(c: Card | None, extra: str = "") -> Text:
    """One card, or ``▒▒`` for a face-down card (``None`` in the view)."""
    if c is None:
        return Text(HIDDEN, style=DIM)
    return Text(c.zh, style=f"{card_style(c)} {extra}".strip())


def cards_text(cards: Iterable[Card | None], sep: str = "") -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i and sep:
            out.append(sep)
        out.append_text(card_text(c))
    return out


# -- the concealed hand ---------------------------------------------------------------------------
def group_hand(hand: Sequence[Card]) -> list[list[Card]]:
    """The hand as shown: each 坎 (three alike) first, then the rest by point, 小 before 大,
    then the 王 (R39) as one group."""
    count = Counter(hand)
    wang = count.pop(Card.W, 0)
    kans = sorted(c for c, n in count.items() if n >= 3)
    groups = [[c] * count[c] for c in kans]
    by_point: dict[int, list[Card]] = {}
    for c in sorted(c for c in count if c not in kans):
        by_point.setdefault(c.point, []).extend([c] * count[c])
    groups.extend(sorted(by_point[p]) for p in sorted(by_point))
    if wang:
        groups.append([Card.W] * wang)
    return groups


@dataclass(frozen=True)
class Slot:
    """One card of the shown hand: its group, the card and whether it may be discarded."""

    group: int
    card: Card
    selectable: bool


def hand_slots(hand: Sequence[Card], discardable: Iterable[Card] = ()) -> list[Slot]:
    allowed = set(discardable)
    return [Slot(g, c, c in allowed) for g, cards in enumerate(group_hand(hand)) for c in cards]


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
        top.append_text(card_text(s.card, style))
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


def used_from_hand(action: Action, slots: Sequence[Slot]) -> list[int]:
    """Slots a 碰/吃 option would take from the hand (to highlight them)."""
    need: Counter[Card] = Counter()
    if action.type == PENG and action.card is not None:
        need[action.card] = 2
    elif action.type == CHI and action.card is not None:
        for g in action.groups:
            need.update(g)
        need[action.card] -= 1  # the taken card is not in the hand
    out = []
    for i, s in enumerate(slots):
        if need[s.card] > 0:
            need[s.card] -= 1
            out.append(i)
    return out


# -- table ------------------------------------------------------------------------------------------
def meld_text(meld: MeldView) -> Text:
    """A table meld: its kind (碰, 偎 …) then its cards; face-down ones as ▒▒."""
    return Text.assemble((meld.kind.zh, DIM), cards_text(meld.cards))


def melds_text(melds: Sequence[MeldView]) -> Text:
    if not melds:
        return Text("—", style=DIM)
    return Text(" ").join(meld_text(m) for m in melds)


def pile_text(pile: Sequence[Card]) -> Text:
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
    v: View,
    seat: int,
    name: str,
    score: int,
    acting: bool = False,
    tag: str = "",
) -> Text:
    """Two lines for one seat: name, hand size / 胡息, score, pile; then its table melds."""
    me = seat == v.seat
    head = Text()
    head.append("▶ " if acting else "  ", style="bold green")
    head.append(pad(name, 4), style="bold" if me else "")
    head.append(f" {tag[:7]:<7} ", style=DIM)
    if seat == v.dealer:
        head.append("庄 ", style="bold magenta")
    if seat not in v.seats:  # with 醒 the seat that sits out collects it (坐醒/数醒)
        head.append(f"{sit_out_word(v.rules)} ", style=DIM)
    elif me:
        head.append("胡息 ", style=DIM)
        head.append(f"{v.huxi:<3}", style="bold")
    else:
        head.append(f"手{v.hand_sizes[seat]:<3}")
    head.append("分 ", style=DIM)
    head.append(f"{signed(score):<5}")
    head.append("弃 ", style=DIM)
    head.append_text(pile_text(v.piles[seat]))
    if me and v.chou:
        head.append("  臭 ", style=DIM)
        head.append_text(cards_text(v.chou))
    line2 = Text.assemble(("    进 ", DIM), melds_text(v.tables[seat]))
    head.no_wrap = line2.no_wrap = True
    return Text("\n").join([head, line2])


# -- log --------------------------------------------------------------------------------------------
FOURS = (E.TI, E.PAO)
ONE_SHOWN = (E.TI, E.CHOUWEI)  # 提 and 臭偎 show one card; 偎 and 跑 show all they may


def event_text(e: Event, names: dict[int, str], me: int = 0) -> Text | None:
    """One log line for a public event, as seat ``me`` sees it (``None``: no line)."""
    t, c = e.type, e.card
    who = names.get(e.seat if e.seat is not None else -1, "")
    if t == E.LIANGZHANG:
        return Text.assemble(f"{who} 亮张 ", card_text(c))
    if t == E.BOTTOM:
        return Text.assemble("墩底 ", card_text(c))
    if t == E.DRAW:
        return Text.assemble(f"{who} 翻 ", card_text(c))
    if t == E.DISCARD:
        return Text.assemble(f"{who} 打 ", card_text(c))
    if t in (E.TI, E.WEI, E.CHOUWEI, E.PAO):
        n = 4 if t in FOURS else 3
        shown: list[Card | None] = [c] + [None] * (n - 1) if t in ONE_SHOWN else [c] * n
        if c is None:
            shown = [None] * n
        return Text.assemble(f"{who} {GroupKind(t).zh} ", cards_text(shown), ("  自动", AUTO))
    if t == E.CHI:
        groups = [[Card.parse(x) for x in g] for g in e.get("groups") or ()]  # codes (§4)
        out = Text.assemble(
            f"{who} 吃 ", card_text(c), "  ", cards_text(groups[0] if groups else [])
        )
        if len(groups) > 1:
            out.append("  比 ", style=DIM)
            out.append_text(Text(" ").join(cards_text(g) for g in groups[1:]))
        return out
    if t == E.PENG:
        return Text.assemble(f"{who} 碰 ", card_text(c))
    if t == E.PASS:  # only your own: another seat's pass would tell that it could claim
        if e.seat != me:
            return None
        return Text.assemble((f"{who} 过 ", DIM), card_text(c, DIM))
    if t == E.HU and c is None:  # R28 mandatory 天胡: no winning card
        return Text(f"{who} 天胡 (自动)", style="bold green")
    if t == E.HU:
        flags = win_flags_zh(e.get)
        return Text.assemble((f"{who} 胡 ", "bold green"), card_text(c), "  " + " ".join(flags))
    if t == E.HUANGZHUANG:
        return Text("荒庄: 墩牌摸完, 无人胡", style="bold yellow")
    if t == E.XING:  # R42: the 醒牌, the card turned for it, how many the winner holds
        turned = card_or_wang(e.get("turned"))
        how = "翻出 " if e.source is not None else "跟醒 "
        out = Text.assemble(f"{who} 醒牌 ", card_text(c), f"  ({how}", card_text(turned))
        return out.append(f")  门子中 {e.get('count')} 张")
    return None  # deal, pile (shown in the piles), settle (its own screen)


def log_lines(log: Sequence[Event], names: dict[int, str], last: int, me: int = 0) -> list[Text]:
    lines = [t for t in (event_text(e, names, me) for e in log) if t is not None]
    return lines[-last:] if last > 0 else []


# -- claims -----------------------------------------------------------------------------------------
def option_text(a: Action, open_card: Card | None, rules: Rules | None = None) -> Text:
    """A claim option as cards: 胡 X, 碰 XXX, 吃 XYZ 比 …, 过; a 王 pattern's 胡 with its
    番 (the rules' ``wang_fan``, R41), so two patterns on one card can be told apart."""
    if a.type == HU:
        how = "  (win)"
        if a.pattern is not None:
            fan = rules.wang_fan[a.pattern.slot] if rules is not None else 0
            how = f"  {a.pattern.zh}{f' {fan}番' if fan else ''} (win, R41)"
        return Text.assemble(("胡 ", "bold green"), card_text(open_card), (how, DIM))
    if a.type == PASS:
        return Text.assemble(("过 ", "bold"), ("(pass)", DIM))
    if a.type == PENG and a.card is not None:
        return Text.assemble(("碰 ", "bold"), cards_text([a.card] * 3))
    if a.type == CHI:
        out = Text.assemble(("吃 ", "bold"), cards_text(a.groups[0]))
        if len(a.groups) > 1:
            out.append("  比 ", style=DIM)
            out.append_text(Text(" ").join(cards_text(g) for g in a.groups[1:]))
        return out
    return Text(a.id())


# The status line's verb for an open card ("下家 翻出 七"): a verb, where labels.SOURCE_ZH
# names the place a card came from (摸牌, 桌面) — so it stays here.
def source_zh(source: Source | None) -> str:
    return OPEN_VERB_ZH.get(source, "出") if source is not None else "出"


# -- settlement -------------------------------------------------------------------------------------
def settlement_text(v: View, names: dict[int, str], totals: Sequence[int], title: str) -> Text:
    """结算: 门子 with 胡息, 等, 名堂 + 番, 底, payments, every 当前总息数 (R33), totals."""
    res = v.result
    out = Text()
    out.append(f" {title}\n", style="bold")
    if res is None or res.winner is None:
        moved = res is not None and any(res.scores)
        out.append(f" 荒庄 — no winner{'' if moved else ', no score'} (R32)\n", style="bold yellow")
        if moved:
            out.append_text(_huang_why(v, names))
    else:
        out.append(f" {names[res.winner]} 胡", style="bold green")
        pos = res.position
        if pos is not None and pos.win is not None:
            out.append(" ")
            out.append_text(card_text(pos.win))
        flags = win_flags_zh(lambda k: getattr(pos, k, False))
        if res.discarder is not None:
            flags.append(f"{names[res.discarder]}放炮")
        elif (by := turned_up_by(res, v.log)) is not None:  # another seat's card from the wall
            flags.append(f"{names[by]}翻出")
        out.append(("  " + " ".join(flags)) if flags else "")
        out.append("\n")
        if res.settlement is not None:
            out.append_text(_groups_block(res.settlement, pos))
            xing = pos.xing if pos is not None else ()
            out.append_text(_score_block(res.settlement, xing))
            out.append_text(_xing_seat(v, names, res.settlement))
    scores = res.scores if res is not None else ()
    out.append_text(_players_block(v, names, scores, totals))
    return out


def _xing_seat(v: View, names: dict[int, str], st: Settlement) -> Text:
    """坐醒/数醒: the seat that sits out collects 番 × 醒数 from each loser (PRESETS)."""
    rules = v.rules
    out = [t for t in range(rules.players) if t not in v.seats]
    if not rules.xing_seat or not out or not st.xing:
        return Text()
    label = sit_out_word(rules)
    each = st.fan * st.xing
    return Text(
        f" {label} {names.get(out[0], out[0])} 收每家 番{st.fan} × 醒{st.xing} = {each}\n",
        style=DIM,
    )


def race_text(rules: Rules, totals: Sequence[int], names: dict[int, str], over: bool) -> Text:
    """放炮罚 (R45): the target under a race's hand; at the match's end each total rounded
    and the pairwise settlement that is the match's result (:func:`race_final`)."""
    if rules.match != MatchKind.RACE:
        return Text()
    race = rules.race
    out = Text(f" 放炮罚: 先到 {race.target} 息者胜 (R45)\n", style=DIM)
    if over:
        seats = range(len(totals))
        rounded = "  ".join(f"{names.get(s, s)} {race.rounded(totals[s])}" for s in seats)
        final = race_final(race, totals)
        settled = "  ".join(f"{names.get(s, s)} {final[s]:+d}" for s in seats)
        out.append(f" 终局 取整到 {race.round_to}: {rounded}\n")
        out.append(" 两两结算 settled pairwise: ", style="bold")
        out.append(settled + "\n", style="bold")
    return out


def _huang_why(v: View, names: dict[int, str]) -> Text:
    """Why points move at a 荒庄: the race's penalty (R45), the dealer's cost (R32),
    亡牌 — more 王 held pays 王 by 王 (永州's option)."""
    rules, dealer = v.rules, names.get(v.dealer, "")
    out = Text()
    if rules.payment == "race":
        return Text(f" 庄家 {dealer} 罚 {rules.race.huangzhuang_penalty} 息 (R45)\n", style=DIM)
    if rules.huangzhuang.cost:
        out.append(f" 庄家 {dealer} 付每家 {rules.huangzhuang.cost} (R32)\n", style=DIM)
    if rules.huangzhuang.wang_pay and v.reveal_wang:
        held = "  ".join(f"{names.get(s, s)} {n}王" for s, n in enumerate(v.reveal_wang))
        out.append(f" 亡牌: 王多者每多一张付 {rules.huangzhuang.wang_pay}  ({held})\n", style=DIM)
    return out


def _groups_block(st: Settlement, pos: Position | None) -> Text:
    out = Text()
    out.append(" 门子   牌          胡息\n", style=DIM)
    # R40: after a 门子 holding a 王, the card(s) it stood for
    places = wang_places(st.groups, st.wang, pos) if pos is not None else [None] * len(st.groups)
    for g, huxi, p in zip(st.groups, st.group_huxi, places, strict=True):
        out.append(" " + pad(g.kind.zh, 7), style="bold")
        ct = cards_text(g.cards)
        out.append_text(ct)
        out.append(" " * max(1, 13 - ct.cell_len))
        out.append(f"{huxi:>3}", style="bold" if huxi else DIM)
        if p:
            became = [g.cards[k].zh for k in p]
            n = len(became)
            text = (
                f"{n}王作{became[0]}"
                if n > 1 and len(set(became)) == 1
                else "王作" + "".join(became)
            )
            out.append("  " + text, style="bold yellow")
        out.append("\n")
    out.append(f" 合计 total          {sum(st.group_huxi):>3}\n", style=DIM)
    return out


def _score_block(st: Settlement, xing: Sequence[Card] = ()) -> Text:
    u = st.unit  # 等, or the region's 囤 / 子 / 息
    out = Text(" 胡息 ", style=DIM)
    out.append(str(st.huxi), style="bold")
    if st.doubled:
        out.append(f" ×{2 ** len(st.doubled)} {doubling_zh(st.doubled)} → {st.scored_huxi}")
    out.append(f"   {u} ", style=DIM)
    out.append(str(st.deng), style="bold")
    if st.zimo and u == "等":
        out.append(" (含自摸 +1)", style=DIM)
    if st.xing:
        out.append(f" (含醒 +{st.xing})", style=DIM)
    out.append("   番 ", style=DIM)
    out.append(str(st.fan), style="bold")
    out.append("   底 ", style=DIM)
    out.append(str(st.di), style="bold")
    if st.di == st.deng * st.fan:
        out.append(f" = {st.deng}{u}×{st.fan}番", style=DIM)
    if xing:  # R42: the 醒牌 turned after the win
        out.append("\n 醒牌 ", style=DIM)
        for c in xing:
            out.append_text(card_text(c))
            out.append(" ")
        out.append(f"醒 {st.xing}", style="bold")
    out.append("\n 名堂 ", style=DIM)
    if st.mingtang:
        out.append(" + ".join(_hit(m) for m in st.mingtang))
    else:
        out.append("平胡 1番", style=DIM)
    out.append("\n")
    return out


def _hit(m: MingtangHit) -> str:
    if m.effect == "base":
        return f"{m.name} {m.fan}"  # 娄底: the score becomes 100 × such 名堂
    if m.effect == "units":
        return f"{m.name} +{m.fan}"
    return f"{m.name} {m.fan}番"


def _players_block(
    v: View, names: dict[int, str], scores: Sequence[int], totals: Sequence[int]
) -> Text:
    """Per seat: 当前总息数 (R33), this hand's payment (R37), match total (R38), hand."""
    n = v.players
    hands = v.revealed or ((),) * n
    huxi = v.reveal_huxi or (0,) * n
    out = Text(" 座位   当前总息  本局  总分  手牌\n", style=DIM)
    for s in range(n):
        out.append(" " + pad(names[s], 7), style="bold" if s == v.seat else "")
        pay = scores[s] if s < len(scores) else 0
        out.append(f"{huxi[s]:>8}")
        out.append(f"{signed(pay):>6}", style="green" if pay > 0 else ("red" if pay < 0 else DIM))
        out.append(f"{signed(totals[s]):>6}  ", style="bold")
        out.append_text(cards_text(hands[s]) if hands[s] else Text("—", style=DIM))
        out.append("\n")
    return out
