"""标签 (biāoqiān): the Chinese names programs show for rule terms that have no class.

名堂 are named on their classes (``mingtang.PATTERNS[id].name``) and 门子 on
``GroupKind.zh``. The terms below are plain strings in records and rules, so
their names live here, once, for the calculator, the terminal and web games,
``paohuzi rules`` and the replay narrator alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# 翻倍 (R35): the events of ``Rules.doubling`` that double the 胡息.
DOUBLING_ZH = {"tianhu": "天胡", "dihu": "地胡", "haidi": "海底胡"}
DOUBLING_EN = {"tianhu": "heavenly win", "dihu": "earthly win", "haidi": "last-card win"}

# How a hand was won: flags of a ``hu`` event, of ``Position`` and of a record's
# ``result.position`` (R28, R29, 海底, 自摸), in the order they are shown.
WIN_FLAGS_ZH = (("self_drawn", "自摸"), ("tianhu", "天胡"), ("dihu", "地胡"), ("last_card", "海底"))

# A choice's verb, by ``Action.type`` (R21).
ACTION_ZH = {"discard": "打", "chi": "吃", "peng": "碰", "hu": "胡", "pass": "过"}

# Where an open card came from (the ``source`` of events and views).
SOURCE_ZH = {"hand": "手中", "draw": "摸牌", "discard": "打出", "table": "桌面", "deal": "发牌"}

# The verb for how the open card came up (status lines: "上家 翻出 七").
OPEN_VERB_ZH = {"draw": "翻出", "discard": "打出", "liangzhang": "亮张"}


def doubling_zh(events: list[str] | tuple[str, ...]) -> str:
    """``["tianhu", "haidi"]`` → ``"天胡 海底胡"``; unknown ids show as they are."""
    return " ".join(DOUBLING_ZH.get(e, e) for e in events)


def win_flags_zh(flag: Callable[[str], Any]) -> list[str]:
    """The names of the win flags that are set; ``flag`` reads one by key
    (``event.get``, or ``lambda k: getattr(position, k)``)."""
    return [zh for key, zh in WIN_FLAGS_ZH if flag(key)]


# the seat that sits out where it collects 醒 (PRESETS.md: 永州 坐醒, 桂林 数醒)
SIT_OUT_WORD = {"yongzhou": "坐醒", "guilin": "数醒"}


def sit_out_word(rules: Any) -> str:
    """What the seat that sits out is called: 坐底, or 坐醒 / 数醒 where it collects 醒."""
    if not rules.xing_seat:
        return "坐底"
    return SIT_OUT_WORD.get(rules.name.split(":")[0], "坐醒")


# The presets by name, as the lobby and ``paohuzi rules`` show them: (中文, English).
PRESET_LABELS = {
    "hunan": ("湖南", "Hunan"),
    "changde": ("常德", "Changde"),
    "luzhou": ("泸州大贰", "Luzhou"),
    "guilin": ("桂林字牌", "Guilin"),
    "hengyang": ("衡阳六胡抢", "Hengyang"),
    "loudi": ("娄底放炮罚", "Loudi (race)"),
    "yongzhou": ("永州扯胡子", "Yongzhou (jokers)"),
}
