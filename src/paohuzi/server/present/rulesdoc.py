"""规则说明 (guīzé shuōmíng): the rules in force as structured, bilingual sections.

:func:`document` writes every item from the rules object itself (never from a
preset's name), so a room's page shows exactly the rules its hands are played
under — its options included — and a new preset is described with no new text.
Wording follows RULES.md (rule ids in ``rule``) and PRESETS.md.
"""

from __future__ import annotations

from typing import Any

from paohuzi.core.labels import DOUBLING_EN, DOUBLING_ZH, sit_out_word
from paohuzi.core.mingtang import PATTERNS
from paohuzi.core.position import WangPattern
from paohuzi.core.rules import (
    PRESETS,
    Effect,
    FanCombine,
    ForcedWin,
    MatchKind,
    MingtangRule,
    Payment,
    Rules,
    Xing,
)
from paohuzi.core.variants import stated, variants
from paohuzi.server.present.options import (
    WANG_EN,
    WANG_ZH,
    mingtang_label,
    option_title,
    preset_label,
    summary,
)

LEVEL_ZH = {"basic": "基本", "half": "半", "full": "全"}
HUXI_ROWS = (
    ("peng", "碰", "pong"),
    ("kan", "坎", "three in hand (kan)"),
    ("wei", "偎 / 臭偎", "wei"),
    ("pao", "跑", "pao (four, shown)"),
    ("ti", "提", "ti (four, hidden)"),
    ("ju123", "一二三", "1-2-3 run"),
    ("ju2710", "二七十", "2-7-10 run"),
)
YIWUSHI_ROW = ("ju1510", "一五十", "1-5-10 run")  # 衡阳's option (Rules.yiwushi): a 句 too


UNIT_EN = {"等": "grades (等)", "囤": "tun (囤)", "子": "zi (子)", "息": "xi (息)"}


def _item(iid: str, zh: str, en: str, rule: str | None = None, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": iid, "zh": zh, "en": en}
    if rule:
        out["rule"] = rule
    return {**out, **more}


def _section(sid: str, zh: str, en: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": sid, "title": {"zh": zh, "en": en}, "items": items}


def _table(r: Rules) -> list[dict[str, Any]]:
    grid = r.huxi_table.grid()
    out = []
    rows = (*HUXI_ROWS, YIWUSHI_ROW) if r.yiwushi else HUXI_ROWS
    for row, zh, en in rows:
        black, big, red, red_big = grid[row][0], grid[row][10], grid[row][1], grid[row][11]
        if row == "ju2710":  # priced by its lowest card, the red 二 / 贰
            black, big = grid[row][1], grid[row][11]
            red, red_big = black, big
        if (black, big) == (red, red_big):
            vz, ve = f"小{black} 大{big}", f"small {black}, big {big}"
        else:
            vz = f"黑小{black} 黑大{big} 红小{red} 红大{red_big}"
            ve = f"black small {black}, black big {big}, red small {red}, red big {red_big}"
        out.append(
            _item(
                f"huxi_{row}", f"{zh}：{vz}", f"{en}: {ve}", "R9", values=[black, big, red, red_big]
            )
        )
    out.append(
        _item("huxi_other", "其他句、绞、对：0", "other runs, mixed triples, pairs: 0", "R9")
    )
    return out


def _seats(r: Rules) -> list[dict[str, Any]]:
    items = [
        _item(
            "players",
            f"{r.players}人"
            + (f"，庄家对面一家{sit_out_word(r)}，这一局不发牌" if r.sit_out else ""),
            f"{r.players} players"
            + (
                f", the seat opposite the dealer sits the hand out ({sit_out_word(r)})"
                if r.sit_out
                else ""
            ),
            "R5",
        ),
        _item(
            "deal",
            f"每家{r.hand_size}张，庄家多一张"
            + ("（亮张，亮给大家看）" if r.show_liangzhang else "（不亮）"),
            f"{r.hand_size} cards each, the dealer one more"
            + (" (the shown card (亮张), seen by all)" if r.show_liangzhang else " (not shown)"),
            "R7",
        ),
    ]
    if r.show_wall_bottom:
        items.append(
            _item(
                "wall_bottom",
                "墩底最后一张亮出，谁也不能胡它",
                "the last wall card is shown; nobody may win on it",
            )
        )
    return items


def _moves(r: Rules) -> list[dict[str, Any]]:
    """The moves; with 明偎 (衡阳) the 偎 item says it lies face up, and only that (one
    item, never "扣着放" beside "亮着放")."""
    items = _moves_base(r)
    if r.open_wei:
        at = next(i for i, it in enumerate(items) if it["id"] == "wei")
        items[at] = _item(
            "wei",
            "偎（明偎）：自己翻出手中对子的第三张，必须偎，亮着放，大家都看得见是哪张",
            "open wei (明偎): turning up the third card of a pair you hold; automatic, laid "
            "face up, its card seen by all",
            "R11",
            open=True,
        )
    return items


def _moves_base(r: Rules) -> list[dict[str, Any]]:
    return [
        _item(
            "chi",
            "吃：上家打出或自己、上家翻出的牌，与手中两张组成一句话或绞",
            "chi: take the card your left-hand player (上家) discarded, or one turned up by you or by them, to make a run or mixed triple",
            "R15",
        ),
        _item(
            "bi",
            "比：吃牌时手里还有同样的牌，必须一起摆出成句（比牌），摆不出就不能吃",
            "bi: when you chi a card you still hold, every such card must be laid out in runs too, or the chi is not allowed",
            "R19",
        ),
        _item(
            "peng",
            "碰：手中一对加别人打出或翻出的牌",
            "peng: a pair in hand plus a card another player discarded or turned up",
            "R14",
        ),
        _item(
            "wei",
            "偎：自己翻出手中对子的第三张，必须偎（扣着放）",
            "wei: turning up the third card of a pair you hold; automatic, laid face down",
            "R11",
        ),
        _item(
            "ti",
            "提：四张一样的牌在手，或翻出坎、偎的第四张，自动提",
            "ti: four of a kind in hand, or turning up the fourth card of your kan (坎) or wei (偎); automatic",
            "R12",
        ),
        _item(
            "pao",
            "跑：别人打出或翻出你坎、偎的第四张，或翻出你碰的第四张，自动跑",
            "pao: the fourth card of your kan (坎) or wei (偎) from another player, or of your peng (碰) turned up; automatic",
            "R13",
        ),
        _item(
            "chou",
            "臭牌：能吃或碰却选择过，这张牌以后不能再吃、碰；自己打出过的牌也不能吃、碰",
            "refused card (臭牌): a card you could chi or peng and passed on, or discarded yourself, you may never chi or peng again",
            "R20",
        ),
        _item(
            "bakuai",
            "八块（重跑）：第二次跑或提不用出牌",
            "eight blocks (八块): a second pao or ti needs no discard",
            "R17",
        ),
        _item(
            "kan",
            "坎：手里三张一样的牌，不能拆开吃、比或打出",
            "kan: three of a kind in hand; never split to chi, bi or discard",
            "R17",
        ),
    ]


def _win(r: Rules) -> list[dict[str, Any]]:
    dihu = {  # R29, as the preset has it (Dihu)
        "liangzhang": ("闲家胡亮张", "a non-dealer wins on the shown card (亮张)"),
        "first_discard_any": (
            "闲家胡庄家打出的第一张牌",
            "any non-dealer wins on the dealer's first discard",
        ),
    }.get(
        r.dihu,
        (
            "庄家下家胡庄家打出的第一张牌",
            "the dealer's right-hand player (下家) wins on the dealer's first discard",
        ),
    )
    # R41: the next seat may use a 王 pattern on another player's turned-up or discarded card
    patterns = r.wang > 0 and any(r.wang_fan)
    return [
        _item(
            "min_huxi",
            f"起胡：至少{r.min_huxi}胡息",
            f"a win needs at least {r.min_huxi} huxi",
            "R23",
            value=r.min_huxi,
        ),
        _item(
            "shape",
            f"胡牌：所有牌组成{r.melds_to_win}个门子；有跑或提时手中可以有一对将",
            f"shape: all your cards make {r.melds_to_win} groups; with a pao or ti, one pair "
            "may be among them",
            "R43" if r.melds_to_win != 7 else "R22",
            value=r.melds_to_win,
        ),
        _item(
            "which",
            "可以胡别人打出的牌"
            if r.win_on_discard
            else "只能胡翻出来的牌，不能胡打出的牌"
            + ("（王钓/王闯/王炸除外：下家可用于别人打出的牌）" if patterns else "")
            if r.dihu == "none"
            else "只能胡翻出来的牌（地胡除外），不能胡打出的牌",
            "discards can be won on"
            if r.win_on_discard
            else "only cards turned up from the wall can be won on, never a discard"
            + (
                " (except by a wang pattern (王钓/王闯/王炸): the next seat may use one on a discard)"
                if patterns
                else ""
            )
            if r.dihu == "none"
            else "only cards turned up from the wall can be won on (except the earthly win (地胡)), never a discard",
            "R24",
        ),
        _tianhu(r),
        *(  # 永州: no 地胡 at all (dihu = none)
            [_item("dihu", f"地胡：{dihu[0]}", f"earthly win: {dihu[1]}", "R29")]
            if r.dihu != "none"
            else []
        ),
        _item(
            "chouhu",
            "臭胡：能胡不胡，胡息变化之前不能再胡这张牌",
            "refused win: pass on a win and you may not win on that card again until your huxi changes",
            "R30",
        ),
        _item("popao", "破跑胡：胡优先于跑", "a win beats a pao on the same card", "R27"),
        *_forced(r),
    ]


def _tianhu(r: Rules) -> dict[str, Any]:
    if r.melds_to_win != 7 or not (r.tianhu_ti or r.tianhu_kan):  # R43: the dealt hand wins
        n = r.hand_size + 1
        return _item(
            "tianhu",
            f"天胡：庄家起手{n}张就是胡牌（不按提、坎数）",
            f"heavenly win: the dealer's {n} dealt cards already form a winning hand "
            "(no ti/kan count)",
            "R43" if r.melds_to_win != 7 else "R28",  # R43 is the 5- and 6-门子 hands'
        )
    return _item(
        "tianhu",
        f"天胡：起手{r.tianhu_ti}提，或{r.tianhu_kan}坎（提算坎），自动胡",
        f"heavenly win: {r.tianhu_ti} ti or {r.tianhu_kan} kan (a ti counts as a kan) right "
        "after the deal wins at once",
        "R28",
    )


def _own(r: Rules) -> Rules:
    """The preset these rules are named after (themselves if none): what a room's
    option differs from."""
    return PRESETS.get(r.name, r)


def _forced(r: Rules) -> list[dict[str, Any]]:
    """R44: 有胡必胡 / 放炮必胡."""
    if r.forced_win == ForcedWin.ANY:
        zh, en = "有胡必胡：能胡就自动胡", "every win you can take is taken at once (有胡必胡)"
    elif r.forced_win == ForcedWin.DISCARD:
        zh = "放炮必胡：能胡别人打出的牌就自动胡；翻出的牌可以不胡"
        en = "a win on a discard is taken at once (放炮必胡); one on a turned-up card may be passed"
    elif _own(r).forced_win != ForcedWin.NONE:  # the region forces wins, this room not
        zh, en = "有胡可以不胡：能胡时也可以选择过", "a win may be passed (no 有胡必胡 here)"
    else:
        return []
    return [_item("forced_win", zh, en, "R44", value=r.forced_win.value)]


XING_OFFSET = {
    -1: ("下醒", "one point down"),
    0: ("本醒", "the card itself"),
    1: ("上醒", "one point up"),
}


def _xing(r: Rules) -> list[dict[str, Any]]:
    """R42 醒: which card, how it counts, 双醒 and 连翻."""
    u = r.unit
    if r.xing == Xing.GEN:
        src = ["跟醒：胡的那张牌", "跟醒: the winning card"]
    else:
        src = [
            "翻醒：胡牌后翻牌墙的下一张（牌墙空了就用胡的那张）",
            "翻醒: after the win the next wall card is turned (the winning card if the wall is empty)",
        ]
    off_zh, off_en = XING_OFFSET.get(r.xing_offset, (str(r.xing_offset), str(r.xing_offset)))
    if r.xing_offset:
        src[0] += f"，{off_zh}：往{'上' if r.xing_offset > 0 else '下'}移一点，同大小，十接一"
        src[1] += f", moved {off_en} (same size, 10 wraps to 1)"
    else:
        src[0] += f"，{off_zh}"
        src[1] += ", the card itself (本醒)"
    items = [
        _item(
            "xing_source",
            "醒牌：" + src[0],
            "the 醒 card: " + src[1],
            "R42",
            value=r.xing.value,
            offset=r.xing_offset,
        ),
        _item(
            "xing_count",
            f"醒数：胡牌人门子里这种牌的张数，每张加1{u}"
            + ("（双醒：再乘2）" if r.xing_double else ""),
            f"醒 count: how many cards of that kind lie in the winner's groups, +1 {u} each"
            + (" (双醒: counted twice)" if r.xing_double else ""),
            "R42",
        ),
    ]
    if r.xing_chain:
        items.append(
            _item(
                "xing_chain",
                "连翻：醒牌在胡牌人的门子里成四张时再翻一张，醒数相加",
                "连翻: a 醒 card that makes a four-group in the winner's groups turns another, "
                "and its count is added",
                "R42",
            )
        )
    elif _own(r).xing_chain:  # the region turns again, this room not
        items.append(
            _item("xing_chain", "不连翻：醒牌只翻一张", "no 连翻: one 醒 card only", "R42")
        )
    if r.xing_seat:
        items.append(
            _item(
                "xing_seat",
                f"{sit_out_word(r)}：不发牌的一家收每个输家 番 × 醒数",
                f"the seat sitting out ({sit_out_word(r)}) collects 番 × 醒 count from each loser",
                "R42",
            )
        )
    return items


def _race(r: Rules) -> list[dict[str, Any]]:
    """R45 放炮罚: the race and its pairwise final settlement."""
    race = r.race
    cap = race.discarder_cap
    return [
        _item(
            "race_target",
            f"放炮罚：每局胡牌人的分加进自己的累计息数，先到{race.target}息结束",
            f"a race: each win's score is added to the winner's running total; the match ends "
            f"after the hand in which a total reaches {race.target}",
            "R45",
            value=race.target,
        ),
        _item(
            "race_discarder",
            "放炮的人扣同样的分" + (f"（每局最多{cap}）" if cap else "") + "；其他人不扣",
            "on a discard win the discarder loses the same"
            + (f" (at most {cap} a hand)" if cap else "")
            + "; nobody else loses anything",
            "R45",
            value=cap,
        ),
        _item(
            "race_huang",
            f"荒庄：庄家扣{race.huangzhuang_penalty}息，继续坐庄",
            f"no winner: the dealer loses {race.huangzhuang_penalty} and keeps the deal",
            "R45",
            value=race.huangzhuang_penalty,
        ),
        _item(
            "race_final",
            f"结束时累计息数四舍五入到{race.round_to}，每两家之间按差额结算（每家得 Σ 自己 − 别人）",
            f"at the end the totals are rounded to the nearest {race.round_to} and every two "
            "players settle the difference (each gets Σ own − other's)",
            "R45",
            value=race.round_to,
        ),
        _item(
            "race_cap",
            f"最多{r.hands_per_match}局：到了还没人到{race.target}，就按当时的累计息数结算",
            f"at most {r.hands_per_match} hands: then the race is settled as it stands",
            "R45",
            value=r.hands_per_match,
        ),
    ]


def _score(r: Rules) -> list[dict[str, Any]]:
    d, u = r.deng, r.unit
    base, cap = r.base_score, r.cap
    low = r.min_huxi if d.from_min else d.base
    if d.step == 1 and d.offset == 0 and low == 0:  # 娄底: the score is the 胡息 itself
        zh_f, en_f = f"{u} = 胡息", f"{u} = huxi"
    else:
        head = f"{d.offset} + " if d.offset else ""
        zh_f = f"{u} = {head}(胡息 − {low}) ÷ {d.step}（取整）"
        en_f = f"{u} = {head}(huxi − {low}) ÷ {d.step}, rounded down"
    name_en = UNIT_EN.get(u, f"units ({u})")  # one English name per unit, page-wide
    items = [_item("deng", zh_f, en_f.replace(f"{u} =", f"{name_en} =", 1), "R34", unit=u)]
    if r.zimo_bonus:
        items.append(
            _item(
                "zimo", f"自摸加{r.zimo_bonus}等", f"self-drawn: +{r.zimo_bonus} grade (等)", "R34"
            )
        )
    if r.doubling:
        zh = "、".join(DOUBLING_ZH.get(e, e) for e in r.doubling)
        en = ", ".join(DOUBLING_EN.get(e, e) for e in r.doubling)
        items.append(_item("doubling", f"{zh}：胡息翻倍", f"{en}: huxi doubled", "R35"))
    combine = ("相加", "added") if r.fan_combine == FanCombine.ADD else ("相乘", "multiplied")
    items.append(
        _item(
            "fan",
            f"几个名堂的番{combine[0]}；平胡1番",
            f"the multipliers (番) of several scoring patterns (名堂) are {combine[1]}; none: ×1",
            "R36",
        )
    )
    ue = UNIT_EN.get(u, u)  # the unit in English, the Chinese word beside it
    if r.xing != Xing.NONE:
        items.append(
            _item(
                "di", f"底 = ({u} + 醒数) × 番", f"base (底) = ({ue} + 醒) × multiplier (番)", "R37"
            )
        )
    else:
        items.append(_item("di", f"底 = {u} × 番", f"base (底) = {ue} × multiplier (番)", "R37"))
    items.append(
        _item(
            "base_score",
            f"底分：每底{base}分",
            f"{base} point{'' if base == 1 else 's'} per base (底)",
            value=base,
        )
    )
    items.append(
        _item(
            "cap",
            f"封顶：每家每局最多{cap}分" if cap else "不封顶",
            f"capped at {cap} per seat per hand" if cap else "no cap",
            value=cap,
        )
    )
    if r.payment == Payment.RACE:
        items.append(
            _item(
                "payment",
                "赢家得分，只有放炮的人扣分",
                "the winner scores; only a discarder loses",
                "R45",
            )
        )
    elif r.payment == Payment.DISCARDER and r.baopei and r.win_on_discard:
        n = r.seated - 1
        items.append(
            _item(
                "payment",
                f"胡打出的牌由放炮的人一家付{n}份（包赔 × {n}）；自摸或胡别人翻出的牌，大家付",
                f"a discard win is paid by the discarder alone, {n} times over (包赔); "
                "a self-drawn win, or one on a card another player turned up, by everyone",
                "R44",
            )
        )
    elif r.payment == Payment.DISCARDER:
        items.append(
            _item(
                "payment",
                "胡打出的牌只由放炮的人付；自摸或胡别人翻出的牌，大家付",
                "a discard win is paid by the discarder alone; a self-drawn win, or one on a "
                "card another player turned up, by everyone",
                "R37",
            )
        )
    else:
        items.append(
            _item("payment", "每家付给胡牌的人", "every other player pays the winner", "R37")
        )
    if r.baopei and r.payment != Payment.DISCARDER:
        items.append(
            _item(
                "baopei",
                "包赔：地胡由打出那张牌的人替大家付",
                "on an earthly win the discarder pays for everyone",
                "R37",
            )
        )
    hz = r.huangzhuang
    zh, en = "荒庄：没人胡，不计分", "no winner (荒庄): no score"
    if hz.cost:
        zh, en = f"荒庄：庄家付每家{hz.cost}分", f"no winner: the dealer pays {hz.cost} to each"
    if hz.wang_pay:  # 亡牌 (永州): pairwise, by the 王 held at the 荒庄
        zh = f"荒庄：亡牌，每两家之间王多的一家每多一张王付{hz.wang_pay}分"
        en = f"no winner: 亡牌, between every two players the one holding more 王 pays {hz.wang_pay} per extra 王"
    if hz.fan:
        zh += "；连续荒庄后下一局胡牌乘" + "、".join(f"×{x}" for x in hz.fan)
        en += "; the next win after that many in a row is multiplied " + ", ".join(
            f"×{x}" for x in hz.fan
        )
    if r.match == MatchKind.RACE:  # 荒庄 and the length of a match: the race section
        return items
    n = hz.pass_after  # R6: who deals after a 荒庄
    if n == 1:
        zh, en = zh + "；由庄家下家坐庄", en + "; the dealer's right-hand player (下家) deals next"
    elif n > 1:
        zh += f"；庄家继续坐庄，连续{n}局荒庄后由下家坐庄"
        en += f"; the dealer deals again, and after {n} in a row his right-hand player (下家) deals"
    else:
        zh, en = zh + "；庄家继续坐庄", en + "; the dealer deals again"
    items.append(_item("huangzhuang", zh, en, "R32, R6"))
    items.append(
        _item(
            "hands",
            f"一场{r.hands_per_match}局",
            f"{r.hands_per_match} hands a match",
            "R38",
            value=r.hands_per_match,
        )
    )
    return items


RED_COUNTS = {"honghu", "dahong", "shisanhong", "shihong", "xiaohong"}  # by red cards held


def _en(m: MingtangRule) -> str:
    """A 名堂's English, by the region's own word for it (永州's 黑胡: "No red (黑胡)")."""
    return mingtang_label(m.id, m.name)["en"]


# 名堂 by colour that no threshold states: what they need
RED_EXACT = {
    "dianhu": ("只有一张红字", "exactly one red card"),
    "wuhu": ("没有红字", "no red card"),
}


def _worth(r: Rules, m: MingtangRule, label: tuple[str, str]) -> tuple[str, str]:
    """What a 名堂 is worth, in words: ×番, +units, the 底 it sets (娄底)."""
    if m.effect == Effect.BASE:  # 娄底: the hand counts 100 each instead of its 胡息
        return f"{label[0]}：计{m.fan}{r.unit}", f"{label[1]}: counts {m.fan} {r.unit}"
    if m.effect == Effect.UNITS:
        return f"{label[0]}：加{m.fan}{r.unit}", f"{label[1]}: +{m.fan} {r.unit}"
    if r.fan_combine == FanCombine.MULTIPLY:
        return f"{label[0]}：×{m.fan}", f"{label[1]}: ×{m.fan}"
    return f"{label[0]}：{m.fan}番", f"{label[1]}: ×{m.fan} (番)"


def _condition(m: MingtangRule) -> tuple[str, str]:
    """When a 名堂 by red cards holds ("" where its name says it all)."""
    if m.upto and m.threshold:
        return f"{m.threshold}–{m.upto}张红字", f"{m.threshold}–{m.upto} red cards"
    if m.threshold and not m.per_extra and m.id in RED_COUNTS:
        return f"{m.threshold}张红字或以上", f"{m.threshold} or more red cards"
    return RED_EXACT.get(m.id, ("", ""))


def _mingtang(r: Rules) -> list[dict[str, Any]]:
    """One item per 名堂 name: two patterns the region calls alike (永州's 红转朱黑: 13–15
    red is 点胡 as one red is) are one item that names both conditions ("或")."""
    out: list[dict[str, Any]] = []
    named: dict[tuple[str, int, str], dict[str, Any]] = {}
    for m in r.mingtang:
        if not r.uses(m.id):
            continue
        label = mingtang_label(m.id, m.name)["zh"], _en(m)
        cond = _condition(m)
        key = (label[0], m.fan, m.effect.value)
        same = named.get(key)
        if same is not None and cond[0] and same["conds"][0]:
            same["conds"].append(cond)
            same["also"].append(m.id)
            continue
        zh, en = _worth(r, m, label)
        if m.per_extra and m.threshold:
            zh += f"（{m.threshold}张起，每多一张加{m.per_extra}番"
            en += f" (from {m.threshold} cards, +{m.per_extra} per extra card"
            zh += f"，最多{m.max_fan}番）" if m.max_fan else "）"
            en += f", at most {m.max_fan})" if m.max_fan else ")"
        doc = (PATTERNS[m.id].__doc__ or "").strip().splitlines()[0]
        it = _item(
            m.id,
            zh,
            en,
            "R36",
            fan=m.fan,
            level=LEVEL_ZH[m.level],
            condition=doc,
            effect=m.effect.value,
        )
        named[key] = {"item": it, "conds": [cond], "also": [], "zh": zh, "en": en}
        out.append(it)
    for x in named.values():
        conds = sorted((c for c in x["conds"] if c[0]), key=lambda c: c not in RED_EXACT.values())
        if conds:
            x["item"]["zh"] = x["zh"] + "（" + "，或".join(c[0] for c in conds) + "）"
            x["item"]["en"] = x["en"] + " (" + ", or ".join(c[1] for c in conds) + ")"
        if x["also"]:  # the ids of the patterns stated with it
            x["item"]["also"] = x["also"]
    if not out:
        out.append(
            _item("none", "不算名堂（平胡）", "no scoring patterns (every win is 平胡)", "R36")
        )
    return out


# what a pattern's fixed group is (R41), in the order of WangPattern
PATTERN_EN = (
    "card + 1 王 as the pair",
    "a drawn 王 + 1 王 as the pair",
    "card + 2 王 as a kan",
    "a drawn 王 + 2 王 as a kan",
    "card + 3 王 as a ti",
    "a drawn 王 + 3 王 as a ti",
)


def _wang(r: Rules) -> list[dict[str, Any]]:
    """王 (R39–R41): how many, what they may never do, how they count at the win."""
    out = [
        _item(
            "wang_count",
            f"牌里有{WANG_ZH[r.wang]}（{r.wang}张王，另加80张牌）",
            f"{WANG_EN[r.wang]} in the deck ({r.wang} wild cards besides the 80)",
            "R39",
            value=r.wang,
        ),
        _item(
            "wang_never",
            "王不能打出，也不能被吃、碰、偎、跑、提，不能用来吃或比；翻出的王归翻牌的人",
            "a 王 is never discarded, claimed, nor used in a chi or bi; "
            "a 王 turned up goes to the player who drew it",
            "R39",
        ),
        _item(
            "wang_win",
            "胡牌时每张王当作任意一张牌，取得分最高的算法；手里有王只能自摸胡（或王钓/王闯/王炸）",
            "at the win each 王 stands for any card, whichever scores best; holding a 王 "
            "a player wins only on his own card (自摸) or by a 王 pattern",
            "R40",
        ),
    ]
    for p in WangPattern:
        fan = r.wang_fan[p.slot]
        if fan:
            out.append(
                _item(
                    f"wang_{p.value}",
                    f"{p.zh}：{fan}番",
                    f"{p.zh} ({PATTERN_EN[p.slot]}): {fan} 番",
                    "R41",
                    value=fan,
                )
            )
    return out


def document(rules: Rules) -> dict[str, Any]:
    """``GET /api/rules/…``: the rules in force, section by section, in zh and en."""
    return {
        "rules": rules.name,
        "label": preset_label(rules.name),
        "summary": summary(rules),
        "sections": [
            _section("seats", "人数与发牌", "Players and the deal", _seats(rules)),
            _section("huxi", "胡息", "Huxi per group", _table(rules)),
            _section("moves", "吃碰偎提跑", "Taking cards", _moves(rules)),
            _section("win", "胡牌", "Winning", _win(rules)),
            _section("mingtang", "名堂", "Scoring patterns (名堂)", _mingtang(rules)),
            _section("scoring", "算分", "Scoring", _score(rules)),
            *([_section("wang", "王", "Wild cards (王)", _wang(rules))] if rules.wang else []),
            *(
                [_section("xing", "醒", "The 醒 card", _xing(rules))]
                if rules.xing != Xing.NONE
                else []
            ),
            *(
                [_section("race", "放炮罚", "The race (放炮罚)", _race(rules))]
                if rules.match == MatchKind.RACE
                else []
            ),
            *(
                [_section("variants", "玩法选项", "Options (玩法)", _variants(rules))]
                if variants(rules.name)
                else []
            ),
        ],
    }


def _variants(r: Rules) -> list[dict[str, Any]]:
    """The region's options a room may choose (core/variants.py), the one played first
    in brackets: what the lobby offers, on the page a player reads before choosing."""
    out = []
    for v in variants(r.name):
        now = stated(v, r)
        zh = "、".join(f"{c.zh}（现用）" if c is now else c.zh for c in v.choices)
        en = " / ".join(f"{c.en} (in play)" if c is now else c.en for c in v.choices)
        tz, te = option_title(v)
        out.append(_item(f"variant_{v.id}", f"{tz}：{zh}", f"{te}: {en}", value=now.value))
    return out


__all__ = ["document"]
