"""``paohuzi rules [PRESET] [--json | --toml]``: show a rules preset in full (PRESETS.md);
with no PRESET, list the presets.

The table lists every field of :class:`~paohuzi.core.rules.Rules` with its
Chinese name and an English gloss; fields added later still show (by name).
``--json`` prints ``Rules.to_dict()`` and ``--toml`` the same as TOML: both are
files a ``--rules FILE`` accepts (edit a copy to make house rules).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from paohuzi.core import variants
from paohuzi.core.labels import DOUBLING_ZH, PRESET_LABELS
from paohuzi.core.mingtang import PATTERNS
from paohuzi.core.rules import LEVELS, PRESETS, Rules, RulesError

from .common import EXIT_OK, RULES_HELP, dumps, fail, internal_error, load_rules

COMMAND = "rules"

# field → (中文, English gloss)
FIELDS: dict[str, tuple[str, str]] = {
    "name": ("规则名", "preset name"),
    "players": ("人数", "seats at the table (2–4)"),
    "sit_out": ("坐底 / 数底", "with 4 players the seat opposite the dealer sits the hand out"),
    "hand_size": ("手牌数", "cards dealt to each seat (R7: 20; R43: 14 wins with 5 门子)"),
    "min_huxi": ("起胡胡息", "minimum 胡息 (huxi points) to win (R23)"),
    "huxi_table": ("胡息表", "huxi points per group, by size and colour (R9)"),
    "win_on_discard": ("可胡打出的牌", "may a discard be won on (R24)"),
    "deng": ("等 (囤)", "grades: 胡息 → 等 (R34)"),
    "zimo_bonus": ("自摸加等", "等 added for a self-drawn win"),
    "doubling": ("翻倍", "events that double the 胡息 (R35)"),
    "mingtang": ("名堂", "scoring patterns and their 番 (fan) (R36)"),
    "mingtang_level": ("花样层次", "which 名堂 levels count (R36)"),
    "fan_combine": ("番的合计", "how several 名堂 combine"),
    "decomposition": ("组牌取法", "which split into 7 门子 is scored (R26)"),
    "dihu": ("地胡", "what the earth win 地胡 means (R29)"),
    "payment": ("付分", "who pays the winner (R37)"),
    "baopei": (
        "包赔",
        "the discarder pays for everyone: on 地胡 (R37), on every discard win (R44)",
    ),
    "huangzhuang": ("荒庄", "黄番 after 荒庄 in a row, the dealer's cost, dealer rule (R6, R32)"),
    "hands_per_match": ("每场局数", "hands in a match (R38)"),
    "base_score": ("底分", "points per 底 (a house option)"),
    "cap": ("封顶", "most one seat pays or is paid per hand; 0 = no cap (a house option)"),
    "reward_scale": ("奖励缩放", "a typical big payment: RL rewards are divided by it (no rule)"),
    "show_liangzhang": ("亮张", "the dealer's 21st card is shown (R7)"),
    "show_wall_bottom": ("示底牌", "the bottom wall card is shown (泸州)"),
    "tianhu_ti": ("天胡提数", "提 that make a mandatory 天胡 (R28)"),
    "tianhu_kan": ("天胡坎数", "坎 that make a mandatory 天胡; 提 count (R28)"),
    "scoring_mode": (
        "计分方式",
        "score by 等 only (deng), 等 × basic 名堂 番 (hongwu), 等 × 名堂 番 (mingtang)",
    ),
    "unit": ("单位", "what 等 is called here: 囤, 子, 息 … (the settlement's label)"),
    "wang": ("王", "wild cards in the deck besides the 80 cards: 0–4 (R39, R40)"),
    "wang_fan": (
        "王牌番",
        "番 of 王钓, 王钓王, 王闯, 王闯王, 王炸, 王炸王 (R41); 0: that pattern is not played",
    ),
    "xing": ("醒", "the bonus card after a win: none, 跟醒 gen, 翻醒 fan (R42)"),
    "xing_offset": ("上醒 / 本醒 / 下醒", "the 醒牌 is the card turned moved −1, 0 or +1 (R42)"),
    "xing_double": ("双醒", "醒数 counts twice (R42)"),
    "xing_chain": ("连翻", "a 醒牌 that makes a four-group turns again (R42)"),
    "xing_seat": ("坐醒 / 数醒", "the seat that sits out collects 番 × 醒数 from each loser"),
    "forced_win": ("有胡必胡 / 放炮必胡", "wins taken by the rules: none, any, discard (R44)"),
    "open_wei": ("明偎", "a 偎 lies face up, its card public (衡阳)"),
    "yiwushi": ("一五十", "一五十 / 壹伍拾 are a 句 too, priced by the ju1510 row (衡阳's option)"),
    "match": ("赛制", "a match of N hands, or a race to a target (R38, R45)"),
    "race": ("放炮罚", "the race: target, rounding, discarder's cap, 荒庄 penalty (R45)"),
    "extra": ("其他", "preset-specific extras"),
}
# (field, value) → label where a value means different things in different fields
FIELD_VALUE_ZH = {
    ("xing", "none"): "无醒 none",
    ("xing", "gen"): "跟醒 the winning card",
    ("xing", "fan"): "翻醒 the next wall card",
    ("forced_win", "none"): "可以不胡 a win may be passed",
    ("forced_win", "any"): "有胡必胡 every win is taken",
    ("forced_win", "discard"): "放炮必胡 discard wins are taken",
    ("match", "hands"): "局数 N hands",
    ("match", "race"): "放炮罚 a race to the target",
    ("payment", "race"): "赢家得分，放炮者扣 the winner scores, a discarder loses",
    ("dihu", "none"): "无地胡 none (no discard is won)",
}
VALUE_ZH = {
    **DOUBLING_ZH,  # the values of ``doubling``
    "first_discard": "下家胡庄家第一张打出的牌 first discard",
    "first_discard_any": "闲家胡庄家第一张打出的牌 any non-dealer, first discard",
    "liangzhang": "闲家胡亮张 a non-dealer wins on the 亮张",
    "all": "每家付底 every other player",
    "discarder": "放炮者付 the discarder (discard wins)",
    "add": "相加 added",
    "multiply": "相乘 multiplied",
    "none": "无名堂 none",
    "basic": "基本花样 basic",
    "half": "半花样 half",
    "full": "全花样 full",
    "huxi": "胡息最高 most 胡息 (R26)",
    "di": "底最高 most 底 (the split worth most)",
    "deng": "只算等 等 only",
    "hongwu": "等 × 红乌番 等 × 红胡/乌胡 番",
    "mingtang": "等 × 名堂番 等 × 名堂 番",
}
LEVEL_SHORT = {"basic": "基本 basic", "half": "半 half", "full": "全 full"}
HUXI_ROW_ZH = {
    "peng": "碰 peng",
    "kan": "坎 kan",
    "wei": "偎 / 臭偎 wei",
    "pao": "跑 / 招 pao",
    "ti": "提 / 垅 ti",
    "ju123": "句 一二三 ju123",
    "ju2710": "句 二七十 ju2710",
    "ju1510": "句 一五十 ju1510",
    "ju": "other 句 ju",
    "jiao": "绞 jiao",
    "pair": "对 (将) pair",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        COMMAND,
        help="show a rules preset in full",
        description=f"Show a rules preset ({', '.join(PRESETS)}) or a rules file in full.",
    )
    p.add_argument(
        "preset",
        nargs="?",
        metavar="PRESET",
        help=RULES_HELP + " (none: the presets are listed; --json/--toml: hunan's)",
    )
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print Rules.to_dict() as JSON")
    fmt.add_argument("--toml", action="store_true", help="print the rules as a TOML file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.preset is None and not (args.json or args.toml):
            Console(file=sys.stdout, highlight=False).print(presets_table())
            return EXIT_OK
        try:
            rules = load_rules(args.preset or "hunan")
        except RulesError as e:
            return fail(COMMAND, e, args.json)
        if args.json:
            print(dumps(rules.to_dict()))
        elif args.toml:
            print(rules.to_toml(), end="")
        else:
            console = Console(file=sys.stdout, highlight=False)
            for part in render(rules):
                console.print(part)
        return EXIT_OK
    except BrokenPipeError:
        raise
    except Exception as e:  # no traceback reaches the user
        return internal_error(COMMAND, e, args.json)


def presets_table() -> Table:
    """The presets, one a line: ``paohuzi rules PRESET`` shows one in full."""
    t = Table(
        title="规则 presets (paohuzi rules PRESET shows one in full; hunan is the default)",
        caption="人数 seats · 手牌 cards dealt · 起胡 least huxi to win · 王 wild cards",
        box=box.SIMPLE_HEAD,
    )
    for col in ("PRESET", "地区 region", "人数", "手牌", "起胡", "王"):
        t.add_column(col, no_wrap=True)
    for name, rules in PRESETS.items():
        zh, en = PRESET_LABELS[name]
        t.add_row(
            name,
            f"{zh} {en}",
            str(rules.players),
            str(rules.hand_size),
            str(rules.min_huxi),
            str(rules.wang or "—"),
        )
    return t


def render(rules: Rules) -> list[Table]:
    """The fields table, then the two nested tables (胡息表, 名堂) in full width."""
    d = rules.to_dict()
    out = [
        rules_table(rules),
        _huxi_table(_rows(rules, d["huxi_table"])),
        _mingtang(d["mingtang"], rules.effective_level),
    ]
    if rules.name in PRESETS:  # (a rules file of another name has no region's options)
        out.append(_variants(rules))
    return out


HOUSE_EN = {
    "players": "Players (人数)",
    "wang": "Wild cards (王)",
    "min_huxi": "Least huxi to win (起胡)",
    "cap": "Cap (封顶)",
}


def _variants(rules: Rules) -> Table:
    """玩法: the region's options, as ``--rules NAME:ID=VALUE,…`` chooses them."""
    t = Table(
        title=f"玩法 options: --rules {rules.name}:ID=VALUE,…  (* = played here)",
        box=box.SIMPLE_HEAD,
    )
    t.add_column("ID", style="cyan", no_wrap=True)
    t.add_column("玩法", no_wrap=True)
    t.add_column("VALUE", overflow="fold")
    for v in variants.variants(rules.name):
        now = variants.stated(v, rules)
        vals = [f"{'*' if c is now else ' '}{c.value} {c.zh} ({c.en})" for c in v.choices]
        t.add_row(v.id, f"{v.zh}\n{v.en}", "\n".join(vals))
    # every preset: the house's options (variants.HOUSE, the web lobby's too)
    held = {"players": rules.players, "wang": rules.wang, "min_huxi": rules.min_huxi}
    for hid, (zh, low, high) in variants.HOUSE.items():
        value = rules.cap if hid == "cap" else held[hid]
        span = "0 = none; any whole number" if hid == "cap" else f"{low}–{high}"
        region = variants.EXTRA_CAPS.get(rules.name) if hid == "cap" else None
        more = f"; the region's other: {', '.join(map(str, region))}" if region else ""
        t.add_row(hid, f"{zh}\n{HOUSE_EN[hid]}", f"*{value} now ({span}){more}")
    return t


def rules_table(rules: Rules) -> Table:
    """Every field: name, 中文 + gloss, value."""
    t = Table(title=f"规则 rules: {rules.name}", box=box.SIMPLE_HEAD, show_lines=False)
    t.add_column("field", style="cyan", no_wrap=True)
    t.add_column("中文 / gloss", overflow="fold")
    t.add_column("value", overflow="fold")
    d = rules.to_dict()
    for key in (f.name for f in fields(rules)):
        value = d.get(key, getattr(rules, key))  # (yiwushi is written only when on)
        zh, gloss = FIELDS.get(key, ("", ""))
        label = Text.assemble((zh, "bold"), "\n" if zh and gloss else "", (gloss, "dim"))
        t.add_row(key, label, _value(key, value))
    return t


def _value(key: str, value: Any) -> Text | Table | str:
    if key == "huxi_table":
        return Text("胡息表 below", style="italic")
    if key == "mingtang":
        return Text(f"{len(value)} 名堂, below" if value else "—")
    if key == "deng":
        base = "起胡" if value.get("from_min") else value["base"]
        step, offset = value["step"], value["offset"]
        lead = f"{offset} + " if offset else ""
        return f"等 = {lead}⌊(胡息 − {base}) / {step}⌋"
    if key == "race":
        return (
            f"目标 target {value['target']} · 取整 round to {value['round_to']} · "
            f"放炮者每局最多扣 discarder's cap {value['discarder_cap'] or '—'} · "
            f"荒庄庄家扣 dealer's 荒庄 penalty {value['huangzhuang_penalty']}"
        )
    if (key, str(value)) in FIELD_VALUE_ZH:
        return FIELD_VALUE_ZH[key, str(value)]
    if key == "huangzhuang":
        fan = ", ".join(f"×{f}" for f in value["fan"]) or "—"
        after = value["pass_after"]
        passes = f"{after} 荒庄 in a row → 下家 deals" if after else "the dealer stays"
        wang = value.get("wang_pay", 0)
        wang_s = f" · 亡牌 each extra 王 pays {wang}" if wang else ""
        return f"黄番 huang fan {fan} · 庄家付 dealer pays {value['cost']} · {passes}{wang_s}"
    if key == "zimo_bonus":
        return f"+{value} 等"
    if isinstance(value, bool):
        return Text("是 yes" if value else "否 no", style="green" if value else "dim")
    if isinstance(value, list):
        return ", ".join(VALUE_ZH.get(str(v), str(v)) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or "—"
    return VALUE_ZH.get(str(value), str(value))


def _rows(rules: Rules, rows: dict[str, list[int]]) -> dict[str, list[int]]:
    """The table's rows, with 一五十's (written only when not 3 / 6) where it is played,
    next to the other 句 that score (一二三, 二七十), as the rules page lists them."""
    if not rules.yiwushi:
        return rows
    ju1510 = rows.get("ju1510") or list(dict(rules.huxi_table.rows)["ju1510"])
    out: dict[str, list[int]] = {}
    for row, values in rows.items():
        if row != "ju1510":
            out[row] = values
        if row == "ju2710":
            out["ju1510"] = ju1510
    out.setdefault("ju1510", ju1510)
    return out


def _huxi_table(rows: dict[str, list[int]]) -> Table:
    t = Table(
        title="胡息表 huxi_table (R9)",
        caption="a 句 is priced by its lowest card: 一二三 by 一 (black), 二七十 by 二 (red)"
        + (", 一五十 by 一 (black)" if "ju1510" in rows else ""),
        box=box.SIMPLE_HEAD,
    )
    t.add_column("门子 group")
    for head in ("黑小 black small", "黑大 black big", "红小 red small", "红大 red big"):
        t.add_column(head, justify="right")
    for row, values in rows.items():
        t.add_row(HUXI_ROW_ZH.get(row, row), *(str(v) for v in values))
    return t


def _mingtang(items: list[dict[str, Any]], level: str) -> Table:
    """Every 名堂 of the rules; 计入 says whether it counts under the scoring mode/level."""
    t = Table(title="名堂 mingtang (R36)", box=box.SIMPLE_HEAD)
    for head in ("名堂", "番 fan", "cards", "level", "计入 counts"):
        t.add_column(head, no_wrap=True)
    top = LEVELS.index(level)
    for m in items:
        extra = []
        pattern = PATTERNS[m["id"]]  # Rules validates the ids
        if pattern.per_occurrence:
            extra.append("each 每个")
        if m.get("threshold") and pattern.exact:
            extra.append(f"={m['threshold']}")
        elif m.get("threshold") and m.get("upto"):
            extra.append(f"{m['threshold']}–{m['upto']}")
        elif m.get("threshold"):
            extra.append(f"≥{m['threshold']}")
        if m.get("per_extra"):
            extra.append(f"+{m['per_extra']} each")
        if m.get("max_fan"):
            extra.append(f"≤{m['max_fan']}")
        if m.get("effect") == "units":
            extra.append("加单位 adds units")
        elif m.get("effect") == "base":
            extra.append("底分 sets the base")
        name = Text.assemble(m.get("name") or pattern.name, (f" {m['id']}", "dim"))
        counts = LEVELS.index(m["level"]) <= top
        t.add_row(
            name,
            str(m["fan"]),
            " ".join(extra),
            LEVEL_SHORT.get(m["level"], m["level"]),
            Text("是 yes" if counts else "否 no", style="green" if counts else "dim"),
        )
    return t
