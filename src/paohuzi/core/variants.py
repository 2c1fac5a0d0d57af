"""玩法 (wánfǎ): a region's own options, as data beside its preset.

PRESETS.md names, for each second-wave region, "the alternative" to a decision
as an option: 永州's 跟醒 or 双醒, 桂林's 子 counted by five, 衡阳's 一息一囤 and
so on. Each is a :class:`Variant` of the preset: a few :class:`Choice` (the
first is the preset's own), each a patch of plain rules data — top-level
fields of :meth:`Rules.to_dict`, nested objects merged key by key, 名堂
replaced, added or dropped by id (so two options may change two 名堂) — applied
through :meth:`Rules.from_dict`, so a variant is validated as any rules file
is and every record carries what it chose. No engine code knows a variant:
the rules it makes are ordinary rules. The lobby offers them
(:mod:`paohuzi.server.present.options`); :func:`choice_of` reads which one a
rules object plays, for the one-line summary of a room.

Two of PRESETS.md's options are no variant here: 泸州's scoring mode is the
lobby's 名堂 choice (no 名堂 chosen: 等 only), and a preset's other 封顶
(永州 600, 娄底 400) is one more value of the lobby's 封顶 (:data:`EXTRA_CAPS`).
衡阳's 一五十 (``yiwushi``: 一五十 / 壹伍拾 a 句 worth 3 / 6, ``Rules.yiwushi``) is an
on/off option like any other; it is not played with 王 (the rules refuse the pair).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from paohuzi.core.rules import (
    GUILIN,
    PRESETS,
    YONGZHOU_HONGZHUAN,
    YONGZHOU_MINGTANG,
    Effect,
    Rules,
    RulesError,
)

Patch = tuple[tuple[str, Any], ...]  # (rules field, plain value); see patched()


@dataclass(frozen=True)
class Choice:
    """One way to play a variant: its wire value, labels and the rules it patches."""

    value: str
    zh: str
    en: str
    patch: Patch


@dataclass(frozen=True)
class Variant:
    """A region's option: an id, labels, and its choices (the first is the preset's)."""

    id: str
    zh: str
    en: str
    choices: tuple[Choice, ...]
    needs_wang: bool = False  # moot without 王 (亡牌): not played, not said, where there are none
    # not played with 王 (一五十: the 王 search knows none): the lobby offers it in a deck
    # without 王 only (the rules refuse the pair, in words, to whoever sends it anyway)
    without_wang: bool = False

    @property
    def default(self) -> Choice:
        return self.choices[0]

    def choice(self, value: str) -> Choice:
        for c in self.choices:
            if c.value == value:
                return c
        raise KeyError(value)


def patched(rules: Rules, patch: Patch) -> Rules:
    """``rules`` with ``patch`` applied: a nested object's keys merge into it, and a
    ``mingtang`` patch (名堂 id → entry, or None to drop it) replaces entries in place
    and adds new ones after the one before them in the patch."""
    d = rules.to_dict()
    for key, value in patch:
        if key == "mingtang":
            d[key] = _mingtang(d[key], value)
        elif isinstance(value, dict):
            d[key] = {**d[key], **value}
        else:
            d[key] = value
    return Rules.from_dict(d)


def _mingtang(entries: list[dict[str, Any]], patch: dict[str, Any]) -> list[dict[str, Any]]:
    out = [e for m in entries if (e := patch.get(m["id"], m)) is not None]
    at = 0
    for mid, entry in patch.items():
        ids = [m["id"] for m in out]
        if mid in ids:
            at = ids.index(mid) + 1
        elif entry is not None:
            out.insert(at, entry)
            at += 1
    return out


def _holds(d: dict[str, Any], key: str, value: Any) -> bool:
    if key == "mingtang":  # a 名堂 the room left out does not tell
        have = {m["id"]: m for m in d[key]}
        return all(
            mid not in have if e is None else have.get(mid, e) == e for mid, e in value.items()
        )
    if isinstance(value, dict):
        return all(d[key].get(k) == v for k, v in value.items())
    return bool(d[key] == value)


def choice_of(variant: Variant, rules: Rules) -> Choice:
    """The choice ``rules`` play (the first that fits; the preset's own if none does)."""
    d = rules.to_dict()
    d.setdefault("yiwushi", rules.yiwushi)  # (written only when on)
    for c in variant.choices:
        if all(_holds(d, k, v) for k, v in c.patch):
            return c
    return variant.default


def _xing(default: str, *values: str) -> Variant:
    """醒 (R42): 翻醒 moved up, not, or down a point (上醒/本醒/下醒), 跟醒, or none."""
    every = {
        "fan+1": Choice(
            "fan+1", "翻醒·上醒", "turned, one up (上醒)", (("xing", "fan"), ("xing_offset", 1))
        ),
        "fan0": Choice("fan0", "翻醒·本醒", "turned (本醒)", (("xing", "fan"), ("xing_offset", 0))),
        "fan-1": Choice(
            "fan-1", "翻醒·下醒", "turned, one down (下醒)", (("xing", "fan"), ("xing_offset", -1))
        ),
        "gen": Choice("gen", "跟醒", "winning card (跟醒)", (("xing", "gen"), ("xing_offset", 0))),
        "none": Choice("none", "不带醒", "none (不带醒)", (("xing", "none"), ("xing_offset", 0))),
    }
    return Variant("xing", "醒", "Bonus card (醒)", tuple(every[v] for v in (default, *values)))


def _onoff(
    vid: str,
    zh: str,
    en: str,
    off: Patch,
    on: Patch,
    on_first: bool = False,
    wang: bool = False,
    no_wang: bool = False,
) -> Variant:
    """An option played with (带) or without (不带); the preset's own first."""
    pair = (Choice("off", "不带", "off", off), Choice("on", "带", "on", on))
    choices = pair[::-1] if on_first else pair
    return Variant(vid, zh, en, choices, needs_wang=wang, without_wang=no_wang)


def summary_label(variant: Variant, choice: Choice) -> tuple[str, str]:
    """What a room's one-line summary says of ``choice`` (an on/off says the option)."""
    if choice.value == "on":
        return variant.zh, variant.en
    if choice.value == "off":
        return "不带" + variant.zh, "no " + variant.en[:1].lower() + variant.en[1:]
    return choice.zh, choice.en


# 红转朱黑 (永州): 红胡 only 10–12 red; 13–15 red 点胡, 16 or more 黑胡
_HONGZHUAN_ON = {m.id: m.to_dict() for m in YONGZHOU_HONGZHUAN[:3]}
_HONGZHUAN_OFF = {"honghu": YONGZHOU_MINGTANG[0].to_dict(), "shisanhong": None, "dahong": None}
_FORCED = {
    "none": Choice("none", "可不胡", "may pass a win (可不胡)", (("forced_win", "none"),)),
    "any": Choice("any", "有胡必胡", "every win taken (有胡必胡)", (("forced_win", "any"),)),
    "discard": Choice(
        "discard", "放炮必胡", "discard wins taken (放炮必胡)", (("forced_win", "discard"),)
    ),
}
# 桂林's 自摸 (天胡 counts as one): ×2, or +1 子 instead; 海底 +2 子 (八一字牌: +3)
_GUILIN_MT = {m.id: m.to_dict() for m in GUILIN.mingtang}
_ZIMO_UNIT = {
    k: {**_GUILIN_MT[k], "fan": 1, "effect": Effect.UNITS.value} for k in ("zimo", "tianhu")
}
_GUILIN_ZIMO = Variant(
    "zimo",
    "自摸",
    "Self-drawn (自摸)",
    (
        Choice(
            "fan",
            "自摸×2",
            "self-drawn ×2 (自摸×2)",
            (("mingtang", {k: _GUILIN_MT[k] for k in _ZIMO_UNIT}),),
        ),
        Choice("unit", "自摸加一子", "self-drawn +1 (自摸加一子)", (("mingtang", _ZIMO_UNIT),)),
    ),
)
_GUILIN_HAIDI = Variant(
    "haidi",
    "海底",
    "Last card (海底)",
    (
        Choice("2", "海底+2子", "+2 (海底+2子)", (("mingtang", {"haihu": _GUILIN_MT["haihu"]}),)),
        Choice(
            "3",
            "八一字牌：海底+3子",
            "+3 (八一字牌)",
            (("mingtang", {"haihu": {**_GUILIN_MT["haihu"], "fan": 3}}),),
        ),
    ),
)

VARIANTS: dict[str, tuple[Variant, ...]] = {
    "yongzhou": (
        _xing("fan+1", "fan0", "fan-1", "gen"),
        _onoff(
            "xing_double",
            "双醒",
            "Double bonus (双醒)",
            (("xing_double", False),),
            (("xing_double", True),),
        ),
        _onoff(
            "hongzhuan",
            "红转朱黑",
            "13+ red re-counted (红转朱黑)",
            (("mingtang", _HONGZHUAN_OFF),),
            (("mingtang", _HONGZHUAN_ON),),
        ),
        _onoff(
            "wangpai",
            "亡牌",
            "Jokers pay at a draw (亡牌)",
            (("huangzhuang", {"wang_pay": 0}),),
            (("huangzhuang", {"wang_pay": 5}),),
            wang=True,
        ),
    ),
    "guilin": (
        _xing("fan0", "fan+1", "fan-1", "gen"),
        Variant(
            "forced_win", "有胡必胡", "Forced win (有胡必胡)", (_FORCED["any"], _FORCED["none"])
        ),
        Variant(
            "zi_step",
            "算子",
            "Units per huxi (算子)",
            (
                Choice("3", "三油一子", "1 per 3 (三油一子)", (("deng", {"step": 3}),)),
                Choice("5", "五油一子", "1 per 5 (五油一子)", (("deng", {"step": 5}),)),
            ),
        ),
        _GUILIN_ZIMO,
        _GUILIN_HAIDI,
        _onoff(
            "lianfan",
            "连翻",
            "Chained bonus cards (连翻)",
            (("xing_chain", False),),
            (("xing_chain", True),),
            on_first=True,
        ),
    ),
    "hengyang": (
        _xing("fan0", "gen", "none"),
        Variant(
            "tun",
            "算囤",
            "Units per huxi (算囤)",
            (
                Choice(
                    "3",
                    "三息一囤",
                    "1 per 3 huxi (三息一囤)",
                    (("deng", {"base": 6, "step": 3, "offset": 1, "from_min": True}),),
                ),
                Choice(
                    "3+1",
                    "三息一囤加一囤",
                    "1 per 3 huxi, +1 (加一囤)",
                    (("deng", {"base": 6, "step": 3, "offset": 2, "from_min": True}),),
                ),
                Choice(
                    "1",
                    "一息一囤",
                    "1 per huxi (一息一囤)",
                    (("deng", {"base": 0, "step": 1, "offset": 0, "from_min": False}),),
                ),
            ),
        ),
        Variant(
            "forced_win",
            "必胡",
            "Forced win (必胡)",
            (_FORCED["none"], _FORCED["any"], _FORCED["discard"]),
        ),
        _onoff(
            "yiwushi",
            "一五十",
            "1-5-10 run (一五十)",
            (("yiwushi", False),),
            (("yiwushi", True),),
            no_wang=True,
        ),
    ),
}

# A preset's other 封顶 (PRESETS.md: 永州 300, option 600; 娄底 200, option 400)
EXTRA_CAPS: dict[str, tuple[int, ...]] = {"yongzhou": (600,), "loudi": (400,)}


def play(rules: Rules, chosen: Mapping[str, str]) -> Rules:
    """``rules`` (a preset) played with the ``chosen`` variants (id → value), which the
    rules then carry in ``extra["variants"]`` (``"xing=gen,hongzhuan=on"``: the
    choices other than the preset's own), so a summary or a record says what was
    chosen even where the rules alone could not tell (红转朱黑 with no red 名堂 left).
    :class:`KeyError` for an id or value the preset does not offer."""
    offered = {v.id: v for v in variants(rules.name)}
    stated = []
    for vid, value in chosen.items():
        v = offered[vid]
        c = v.choice(value)
        if v.needs_wang and not rules.wang:
            continue  # 亡牌 in a deck without 王: nothing to pay
        rules = patched(rules, c.patch)
        if c is not v.default:
            stated.append(f"{vid}={value}")
    if not stated:
        return rules
    return rules.replace(
        extra=tuple(sorted({**dict(rules.extra), "variants": ",".join(stated)}.items()))
    )


def stated(variant: Variant, rules: Rules) -> Choice:
    """The choice of ``variant`` that ``rules`` play: as chosen (``extra["variants"]``),
    else as read from the rules (:func:`choice_of`: a rules file)."""
    if variant.needs_wang and not rules.wang:
        return variant.default
    said = dict(rules.extra).get("variants")
    if not isinstance(said, str):
        return choice_of(variant, rules)
    for item in said.split(","):
        vid, _, value = item.partition("=")
        if vid == variant.id and any(c.value == value for c in variant.choices):
            return variant.choice(value)
    return variant.default


def labels(rules: Rules) -> list[tuple[str, str]]:
    """What a one-line description says of the options ``rules`` play otherwise than
    their preset (zh, en), in the preset's order: the lobby's summary, the terminal's
    header."""
    out = []
    for v in variants(rules.name):
        c = stated(v, rules)
        if c is not v.default:
            out.append(summary_label(v, c))
    return out


# Every preset's house options (the web lobby's too): a whole number each, in range
HOUSE = {
    "players": ("人数", 2, 4),  # 坐底 where the deck cannot deal four (Rules.with_players)
    "wang": ("王", 0, 4),  # R39: 0–4 王 besides the 80 cards
    "min_huxi": ("起胡", 1, 60),
    "cap": ("封顶", 0, 10**6),  # 0: none; PRESETS.md's 永州 600, 娄底 400 (EXTRA_CAPS)
}


def preset(name: str) -> Rules:
    """:func:`paohuzi.core.rules.preset` that also reads a preset with its options
    (``guilin:zimo=unit``, ``hunan:players=4``: :func:`parse`), as every command and env
    reads a name; exported as ``paohuzi.preset``."""
    return PRESETS[name] if name in PRESETS else parse(name)


def parse(text: str) -> Rules:
    """``PRESET:ID=VALUE,…`` → that preset played so (the CLI's ``--rules
    yongzhou:xing=gen,hongzhuan=on``); besides the region's options every preset takes
    the house's (:data:`HOUSE`, as the web lobby offers them): ``players=N`` (2–4),
    ``wang=N`` (0–4 王), ``min_huxi=N`` (起胡) and ``cap=N`` (封顶, as PRESETS.md's 永州
    600 and 娄底 400). :class:`RulesError` names what is not offered."""
    name, items = _items(text)
    offered = {v.id: v for v in variants(name)}
    chosen: dict[str, str] = {}
    house: dict[str, int] = {}
    for vid, eq, value in items:
        if vid in chosen or vid in house:
            raise RulesError(f"{name} option {vid} is given twice")
        if vid in HOUSE:
            zh, low, high = HOUSE[vid]
            if not value.isdigit() or not low <= int(value) <= high:
                raise RulesError(
                    f"{name} option {vid} ({zh}) is a whole number {low}–{high}, not {value!r}"
                )
            house[vid] = int(value)
            continue
        v = offered.get(vid)
        if v is None:
            have = ", ".join([*offered, *HOUSE])
            raise RulesError(f"{name} has no option {vid!r} (options: {have})")
        values = "/".join(c.value for c in v.choices)
        if not eq:
            raise RulesError(f"{name} option {v.id} needs a value: {v.id}={values}")
        if value not in (c.value for c in v.choices):
            raise RulesError(f"{name} option {v.id} is one of {values}, not {value!r}")
        chosen[vid] = value
    rules = PRESETS[name]
    if "wang" in house:  # first: 亡牌 needs 王 (play() drops it without)
        rules = rules.replace(wang=house["wang"])
    rules = play(rules, chosen)
    if "players" in house:  # after the 醒 chosen: its 坐醒 seat follows it
        rules = rules.with_players(house["players"])
    if "min_huxi" in house:
        rules = rules.replace(min_huxi=house["min_huxi"])
    if "cap" in house:
        rules = rules.replace(cap=house["cap"])
    return Rules.from_dict(rules.to_dict()) if house else rules  # validated as a file is


def _items(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    """The preset's name and its options as (id, "=" or "", value). Options are split by
    ``,`` or ``;`` and each at ``=`` or ``:`` — the second spelling, OpenSpiel's
    (:func:`compact`), holds no ``=`` or ``,``, which a game string cannot carry."""
    name, _, spec = text.partition(":")
    if name not in PRESETS:
        raise RulesError(f"unknown preset {name!r} (choose from {', '.join(PRESETS)})")
    out = []
    for item in filter(None, (x.strip() for x in re.split("[,;]", spec))):
        vid, eq, value = item.partition("=") if "=" in item else item.partition(":")
        out.append((vid.strip(), "=" if eq else "", value.strip()))
    return name, out


def compact(text: str) -> str:
    """``PRESET:ID=VALUE,…`` spelled ``PRESET:ID:VALUE;…`` (as :func:`parse` reads it
    too): a value OpenSpiel's game string (``python_paohuzi(rules=…)``) carries and
    reads back. Checked as :func:`parse` checks it."""
    parse(text)
    name, items = _items(text)
    return name + (":" + ";".join(f"{k}:{v}" for k, _, v in items) if items else "")


def variants(name: str) -> tuple[Variant, ...]:
    """The variants of preset ``name`` (none for a preset PRESETS.md gives no options)."""
    return VARIANTS.get(name, ())


__all__ = [
    "EXTRA_CAPS",
    "HOUSE",
    "VARIANTS",
    "Choice",
    "Variant",
    "choice_of",
    "compact",
    "labels",
    "parse",
    "patched",
    "play",
    "stated",
    "summary_label",
    "variants",
]
