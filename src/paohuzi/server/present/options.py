"""房间选项 (fángjiān xuǎnxiàng): the lobby's choices, generated from the rules data.

:func:`schema` derives, from one rules object (a preset), the options a room
creator may change — 人数 (2–4, 4 with 坐底: each value says ``sit_out``), 王 (无王…四王, R39), the 名堂 that count, 起胡,
底分, 封顶, 局数, 出牌时间 and the bots' 难度 — each with zh/en labels, the
allowed values and the default. :func:`apply` validates a client's choice
against that schema and returns the rules the room plays under plus the room
settings that are not rules (turn time, level). :func:`summary` is the
one-line description of a configuration. A new preset needs no client change:
everything here is read from its :class:`~paohuzi.core.rules.Rules`.

底分 and 封顶 are the rules fields ``base_score`` and ``cap``, which
:func:`paohuzi.core.scoring.payments` applies, so records carry them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paohuzi.core.cards import MAX_WANG
from paohuzi.core.labels import PRESET_LABELS, sit_out_word
from paohuzi.core.mingtang import PATTERNS
from paohuzi.core.rules import DECK, PRESETS, MatchKind, MingtangRule, Rules, RulesError
from paohuzi.core.variants import EXTRA_CAPS, labels, patched, play, summary_label, variants
from paohuzi.server.room.levels import LEVELS
from paohuzi.server.wire import RoomError

LEVEL_EN = {"easy": "Beginner", "normal": "Intermediate", "hard": "Advanced"}
MINGTANG_EN = {
    "honghu": "Red hand (红胡)",  # R36: 10 or more red cards, not all of them
    "dianhu": "One red (点胡)",
    "wuhu": "No red (乌胡)",
    "duizihu": "Pongs only (对子胡)",
    "dazihu": "Big cards (大字胡)",
    "xiaozihu": "Small cards (小字胡)",
    "shuahou": "Single wait (耍猴)",
    "haihu": "Last card (海胡)",
    "tianhu": "Heavenly win (天胡)",
    "dihu": "Earthly win (地胡)",
    "tinghu": "Win without taking in (听胡)",
    "tuanyuan": "Reunion (团圆)",
    "hanghangxi": "Huxi in every group (行行息)",
    "jiahanghang": "Nearly every group (假行行)",
    "siqihong": "Four or seven red (四七红)",
    "zimo": "Self-drawn (自摸)",
    "gui": "Set of four (归)",
    "xiaohong": "Small red (小红)",
    "dahong": "Big red (大红)",
    "shisanhong": "Thirteen red (十三红)",
    "shihong": "Ten red (十红)",
    "sanshika": "Exactly 30 huxi (三十卡)",
    "ershika": "Exactly 20 huxi (二十卡)",
    "yikuaibian": "All red in one group (一块匾)",
    # R41: the 王 patterns, named as the table's 胡 buttons gloss them
    "wangdiao": "Wild pair (王钓)",
    "wangdiao_wang": "Wild pair on a 王 (王钓王)",
    "wangchuang": "Wild kan (王闯)",
    "wangchuang_wang": "Wild kan on a 王 (王闯王)",
    "wangzha": "Wild ti (王炸)",
    "wangzha_wang": "Wild ti on a 王 (王炸王)",
}
# Bounded lists: a client picks from these (the preset's own value is always added).
MIN_HUXI_CHOICES = (6, 9, 10, 12, 15, 18, 21)
BASE_CHOICES = (1, 2, 3, 5, 10)
CAP_CHOICES = (0, 10, 20, 50, 100)  # 0: 不封顶
HANDS_CHOICES = (1, 4, 8, 12, 16)
TURN_CHOICES = (15, 20, 30, 45, 60)  # seconds before 托管
# 王 in the deck (R39), as every room-creation screen of the apps names them
WANG_ZH = ("无王", "单王", "双王", "三王", "四王")
WANG_EN = ("no 王", "one 王", "two 王", "three 王", "four 王")


def preset_label(name: str) -> dict[str, str]:
    zh, en = PRESET_LABELS.get(name, (name, name))
    return {"zh": zh, "en": en}


# the English of a region's own word for a 名堂 (what it says, not the pattern's other name)
NAME_EN = {
    "天胡(自摸)": "Heavenly win, as self-drawn",
    "海底": "Last card",
    "海底捞": "Last card",
    "一点红": "One red",
    "一点朱": "One red",
    "点胡": "One red",
    "黑胡": "No red",
}


def mingtang_label(mid: str, name: str = "") -> dict[str, str]:
    """A 名堂's labels; ``name`` is the region's own word for it (一点朱, 海底捞), if any:
    the English names that word (永州's 黑胡 is "No red (黑胡)", never 乌胡)."""
    known = PATTERNS.get(mid)  # (None: a developer's own 名堂: its name in both)
    zh = name or (known.name if known is not None else mid)
    en = MINGTANG_EN.get(mid, zh)
    if known is not None and zh != known.name:
        en = f"{NAME_EN.get(zh, en.split(' (')[0])} ({zh})"
    return {"zh": zh, "en": en}


def players_allowed(rules: Rules) -> list[int]:
    """人数: every count 2–4 the deck can deal; where it cannot, one seat sits out (坐底)."""
    return [n for n in (2, 3, 4) if (n - 1) * rules.hand_size + 1 <= DECK]


def _seated(n: int, rules: Rules) -> bool:
    """坐底 for ``n`` players: needed when the deck cannot deal every seat."""
    return rules.with_players(n).sit_out


def _sit_out_en(word: str) -> str:
    return "one sits out" + (f" ({word})" if word != "坐底" else "")


def _choice(values: list[Any], default: Any) -> list[Any]:
    return sorted(set(values) | {default})


def _labelled(value: Any, zh: str, en: str) -> dict[str, Any]:
    return {"value": value, "zh": zh, "en": en}


def schema(rules: Rules) -> list[dict[str, Any]]:
    """The options of a room under ``rules`` (a preset): id, labels, kind, values, default."""
    pl = []
    for n in players_allowed(rules):
        word = sit_out_word(rules.with_players(n))
        pl.append(
            {
                **(
                    _labelled(n, f"{n}人{word}", f"{n}, {_sit_out_en(word)}")
                    if _seated(n, rules)
                    else _labelled(n, f"{n}人", f"{n} players")
                ),
                "sit_out": _seated(n, rules),  # the client reads 坐底 here, not in a label
                # 坐醒 / 数醒: the seat that sits out collects 醒 (the summary names it so)
                **({"sit_out_word": word} if _seated(n, rules) else {}),
            }
        )
    counted = [m.id for m in rules.mingtang if rules.uses(m.id)]
    mt = [
        {
            "value": m.id,
            **mingtang_label(m.id, m.name),
            "fan": m.fan,
            "level": m.level,
            # how ``fan`` counts (R36): 番, units added to 等/囤/子, or the hand's 底 set
            "effect": m.effect.value,
            "unit": rules.unit,
        }
        for m in rules.mingtang
    ]
    huxi = [v for v in _choice(list(MIN_HUXI_CHOICES), rules.min_huxi) if rules.deng(v) >= 1]
    base, cap = rules.base_score, rules.cap
    caps = [
        _labelled(c, "不封顶" if c == 0 else f"{c}分", "no cap" if c == 0 else f"{c} points")
        for c in _choice([*CAP_CHOICES, *EXTRA_CAPS.get(rules.name, ())], cap)
    ]
    return [
        _opt("players", "人数", "Players", "one", pl, rules.players),
        _opt(
            "wang",
            "王",
            "Wild cards (王)",
            "one",
            [_labelled(n, WANG_ZH[n], WANG_EN[n]) for n in range(MAX_WANG + 1)],
            rules.wang,
        ),
        _opt("mingtang", "名堂", "Scoring patterns (名堂)", "many", mt, counted),
        _opt(
            "min_huxi",
            "起胡",
            "Minimum huxi to win",
            "one",
            [_labelled(v, f"{v}胡息", f"{v} huxi") for v in huxi],
            rules.min_huxi,
        ),
        _opt(
            "base_score",
            "底分",
            "Points per 底",
            "one",
            [_labelled(v, f"{v}分", f"{v} pt") for v in _choice(list(BASE_CHOICES), base)],
            base,
        ),
        _opt("cap", "封顶", "Cap per hand", "one", caps, cap),
        *_variant_options(rules),
        _opt(
            "hands",
            "局数",
            "Hands per match",
            "one",
            [
                _labelled(v, f"{v}局", f"{v} hands")
                for v in _choice(list(HANDS_CHOICES), rules.hands_per_match)
            ],
            rules.hands_per_match,
        ),
        _opt(
            "turn_time",
            "出牌时间",
            "Time per turn",
            "one",
            [_labelled(v, f"{v}秒", f"{v} s") for v in TURN_CHOICES],
            30,
        ),
        _opt(
            "ready_first",
            "准备后开局",
            "Match starts",  # short: a phone's half-width select shows it whole
            "one",
            [
                _labelled(False, "坐满就开", "when seats fill"),
                _labelled(True, "都准备再开", "when all are ready"),
            ],
            False,
        ),
        _opt(
            "bot",
            "机器人难度",
            "Bot level",
            "one",
            [_labelled(lv.id, lv.zh, LEVEL_EN[lv.id]) for lv in LEVELS.values()],
            "normal",
        ),
    ]


# an option's title where the region's word for it is one of its values (桂林's 有胡必胡:
# 有胡必胡 / 可不胡): the title names what is chosen, not one answer
OPTION_TITLE = {"forced_win": ("必胡", "Forced win (必胡)")}


def option_title(v: Any) -> tuple[str, str]:
    """A 玩法's title (zh, en), never one of its own values."""
    if any(c.zh == v.zh for c in v.choices):
        return OPTION_TITLE.get(v.id, (v.zh, v.en))
    return v.zh, v.en


def _variant_options(rules: Rules) -> list[dict[str, Any]]:
    """玩法: the preset's own options (core/variants.py), each value with what the
    summary says of it (the client's summary line reads it too)."""
    out = []
    own = {m.id: m for m in rules.mingtang}
    for v in variants(rules.name):
        values = []
        for c in v.choices:
            zh, en = summary_label(v, c)
            value = {**_labelled(c.value, c.zh, c.en), "sum": {"zh": zh, "en": en}}
            # what this choice makes of the 名堂 chips (桂林's 自摸 +1 子 for ×2): relabelled
            worth = {
                m.id: {"fan": m.fan, "effect": m.effect.value}
                for m in patched(rules, c.patch).mingtang
                if m.id in own and (m.fan, m.effect) != (own[m.id].fan, own[m.id].effect)
            }
            values.append({**value, "mingtang": worth} if worth else value)
        opt = {**_opt(v.id, *option_title(v), "one", values, v.default.value), "variant": True}
        needs = "wang" if v.needs_wang else "no_wang" if v.without_wang else None
        out.append({**opt, "needs": needs} if needs else opt)
    return out


def _opt(
    oid: str, zh: str, en: str, kind: str, values: list[dict[str, Any]], default: Any
) -> dict[str, Any]:
    return {"id": oid, "zh": zh, "en": en, "kind": kind, "values": values, "default": default}


# why 王 and 一五十 are refused together (the 王 search knows no 一五十, core/wang.py), in
# the player's words: which two options, and what to choose instead
WANG_YIWUSHI = (
    "一五十不和王一起玩，请选「无王」，或一五十选「不带」",
    "the 1-5-10 run (一五十) is not played with wild cards (王): choose no 王, or turn 一五十 off",
)


@dataclass(frozen=True)
class Chosen:
    """A validated choice: the rules to play, and the room settings beside them."""

    rules: Rules
    hands: int
    bot: str | None = None  # None: the request's ``bot``
    turn_time: int | None = None  # None: the server's ``--away-timeout``
    ready_first: bool = False  # 准备: the first hand waits for every human's ready


def apply(rules: Rules, options: dict[str, Any] | None) -> Chosen:
    """The rules ``options`` choose from ``rules``' schema (RoomError 422 ``bad_options``
    naming the offending option ids; nothing is created)."""
    _check_house(rules)
    if options is None:
        return Chosen(rules, rules.hands_per_match)
    if not isinstance(options, dict):
        raise RoomError(422, "bad_options", ["options"])
    spec = {o["id"]: o for o in schema(rules)}
    # an unknown key is named only as "options": errors never echo what was sent
    bad = [""] if any(k not in spec for k in options) else []
    for k, v in options.items():
        if k not in spec or k == "mingtang":
            continue
        values = [x["value"] for x in spec[k]["values"]]
        if type(v) is not type(values[0]) or v not in values:  # 2.0 is no 2, True no 1
            bad.append(k)
    mt = options.get("mingtang")
    allowed_mt = [x["value"] for x in spec["mingtang"]["values"]]
    if mt is not None and (
        not isinstance(mt, list)
        or len(mt) > len(allowed_mt)
        or not all(isinstance(x, str) and x in allowed_mt for x in mt)
    ):
        bad.append("mingtang")
    if bad:
        raise RoomError(
            422, "bad_options", sorted({f"options.{k}" if k else "options" for k in bad})
        )
    # first 王 and the 玩法 (亡牌 needs 王; the 坐醒 seat below follows the 醒 chosen)
    out = rules.replace(wang=options["wang"]) if "wang" in options else rules
    try:
        out = play(out, {v.id: options[v.id] for v in variants(rules.name) if v.id in options})
    except RulesError:  # a pair of options not played together (王 with 一五十)
        if out.wang and options.get("yiwushi") == "on":
            sent = [f"options.{k}" for k in ("wang", "yiwushi") if k in options]
            raise RoomError(422, "bad_options", sent, WANG_YIWUSHI) from None
        raise RoomError(422, "bad_options", ["options"]) from None
    if "players" in options and options["players"] != spec["players"]["default"]:
        n = options["players"]
        out = out.with_players(n)  # 坐底, and with 醒 the 坐醒 seat that collects it
    if mt is not None and set(mt) != set(spec["mingtang"]["default"]):
        # a 名堂 the lobby does not offer came with a variant (红转朱黑's 13–15 red 点胡,
        # 16+ 黑胡): it counts where the chip of the 名堂 it counts as is chosen
        named = {_zh(m) for m in out.mingtang if m.id in set(mt)}
        keep = tuple(
            m
            for m in out.mingtang
            if m.id in set(mt) or (m.id not in allowed_mt and _zh(m) in named)
        )
        mode = rules.scoring_mode if rules.scoring_mode == "deng" or not keep else "mingtang"
        out = out.replace(mingtang=keep, mingtang_level="full", scoring_mode=mode)
    if "min_huxi" in options:
        out = out.replace(min_huxi=options["min_huxi"])
    for k in ("base_score", "cap"):
        if k in options:
            out = out.replace(**{k: options[k]})
    hands = options.get("hands", rules.hands_per_match)
    out = out.replace(hands_per_match=hands)
    try:
        out = Rules.from_dict(out.to_dict())  # validated as any stored rules are
    except RulesError:
        raise RoomError(422, "bad_options", ["options"]) from None
    ready = options.get("ready_first") is True
    return Chosen(out, hands, options.get("bot"), options.get("turn_time"), ready)


def _zh(m: MingtangRule) -> str:
    return mingtang_label(m.id, m.name)["zh"]


def _check_house(rules: Rules) -> None:
    """A full rules object may carry 底分/封顶 itself: only within the lobby's bounds."""
    caps = (*CAP_CHOICES, *(c for extra in EXTRA_CAPS.values() for c in extra))
    for key, allowed in (("base_score", BASE_CHOICES), ("cap", caps)):
        # a preset's own value is always within bounds (娄底's race plays to 200)
        top = max(*allowed, *(getattr(p, key) for p in PRESETS.values()))
        if not 0 <= getattr(rules, key) <= top:
            raise RoomError(400, "bad_rules")


def _wang_shown(rules: Rules) -> bool:
    """王 are named where there are some, or where the preset deals some and the room none."""
    own = PRESETS.get(rules.name)
    return bool(rules.wang or (own is not None and own.wang))


def race_target(rules: Rules) -> int | None:
    """R45: the score a race is won at (the lobby's summary names it); None for N hands."""
    return rules.race.target if rules.match is MatchKind.RACE else None


def summary(rules: Rules, bot: str | None = None, turn_time: float | None = None) -> dict[str, str]:
    """One line describing a configuration, in Chinese and English."""
    label = preset_label(rules.name)
    n = rules.players
    # the 名堂 the lobby offers (a variant's own, as 红转朱黑's, is said by the variant)
    own = PRESETS.get(rules.name)
    offered = {m.id for m in (own or rules).mingtang}
    mts = [m for m in rules.mingtang if rules.uses(m.id) and m.id in offered]
    base, cap = rules.base_score, rules.cap
    word = sit_out_word(rules)
    zh = [label["zh"], f"{n}人{word}" if rules.sit_out else f"{n}人", f"{rules.min_huxi}胡起胡"]
    en = [label["en"], f"{n} players" + (f", {_sit_out_en(word)}" if rules.sit_out else "")]
    en.append(f"win from {rules.min_huxi} huxi")
    if _wang_shown(rules):
        zh.insert(2, WANG_ZH[rules.wang])
        en.insert(2, WANG_EN[rules.wang])
    zh.append(
        "名堂：" + "、".join(dict.fromkeys(mingtang_label(m.id, m.name)["zh"] for m in mts))
        if mts
        else "无名堂"
    )
    en.append(f"{len(mts)} scoring patterns" if mts else "no scoring patterns")
    zh.append(f"底分{base}")
    en.append(f"{base} pt per base (底)")
    zh.append(f"{cap}分封顶" if cap else "不封顶")
    en.append(f"capped at {cap}" if cap else "no cap")
    for z, e in labels(rules):  # 玩法 played otherwise than the preset
        zh.append(z)
        en.append(e)
    n_hands = rules.hands_per_match
    if race_target(rules):  # R45: the race decides; 局数 is only its safety cap
        target = race_target(rules)
        zh.append(f"先到{target}{rules.unit}胜（最多{n_hands}局）")
        en.append(f"first to {target} points (at most {n_hands} hands)")
    else:
        zh.append(f"{n_hands}局")
        en.append(f"{n_hands} hand" + ("" if n_hands == 1 else "s"))
    if turn_time:
        zh.append(f"每步{turn_time}秒")
        en.append(f"{turn_time} s a turn")
    if bot in LEVELS:
        zh.append(f"机器人{LEVELS[bot].zh}")
        en.append(f"{LEVEL_EN[bot].lower()} bots")
    return {"zh": " · ".join(zh), "en": " · ".join(en)}


__all__ = ["Chosen", "apply", "preset_label", "schema", "summary"]
