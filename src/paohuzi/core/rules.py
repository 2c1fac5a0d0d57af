"""规则 (guīzé): the one rules configuration and its named presets (PRESETS.md).

Every way regions differ is a field here, never a branch on a region's name.
Rules are frozen, hashable, validated on construction (one-line
:class:`RulesError` messages), and round-trip exactly through plain dicts
(JSON) and TOML text, so a game record carries the full rules object it was
played under and a user can edit a preset as a file (``--rules FILE``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import lru_cache, wraps
from typing import Any, TypeVar

from .cards import MAX_WANG, Card

HUXI_ROWS = ("peng", "kan", "wei", "pao", "ti", "ju123", "ju2710", "ju", "jiao", "pair", "ju1510")
# Rows a table may leave out, with their price: 一五十 (衡阳's option, ``Rules.yiwushi``)
# came after every rules file and record, which read and write it only when it differs.
OPTIONAL_ROWS: dict[str, tuple[int, int, int, int]] = {"ju1510": (3, 6, 3, 6)}


class Level(StrEnum):
    """花样层次 (R36): which 名堂 count — none, 基本, 半 (基本 + 半) or 全 (all)."""

    NONE = "none"
    BASIC = "basic"
    HALF = "half"
    FULL = "full"


class FanCombine(StrEnum):
    """How the 番 of several 名堂 combine (R36: added; some regions multiply)."""

    ADD = "add"
    MULTIPLY = "multiply"


class Decomposition(StrEnum):
    """Which split into 门子 is scored: the most 胡息 (R26) or the highest 底."""

    HUXI = "huxi"
    DI = "di"


class Dihu(StrEnum):
    """What 地胡 is (R29): the 下家 wins on the dealer's first discard; any non-dealer
    does (discard-win presets: 衡阳, 娄底); a non-dealer wins on the 亮张 (常德); or
    there is none (永州: wins only on turned-up cards, so no discard is ever won)."""

    FIRST_DISCARD = "first_discard"
    FIRST_DISCARD_ANY = "first_discard_any"
    LIANGZHANG = "liangzhang"
    NONE = "none"


class Payment(StrEnum):
    """Who pays a win (R37, R44, R45): every other seat; on a discard win the discarder
    alone (× the others with ``baopei``); or, in a race, only a discarder loses."""

    ALL = "all"
    DISCARDER = "discarder"
    RACE = "race"


class ScoringMode(StrEnum):
    """泸州's scoring modes: 等 only, 红乌 (红胡/乌胡 番 only) or full 名堂."""

    DENG = "deng"
    HONGWU = "hongwu"
    MINGTANG = "mingtang"


class Xing(StrEnum):
    """醒 (R42): no 醒牌, 跟醒 (the winning card) or 翻醒 (the next wall card turned)."""

    NONE = "none"
    GEN = "gen"
    FAN = "fan"


class Effect(StrEnum):
    """How a 名堂 counts: its 番 (added or multiplied, ``fan_combine``), units added to
    等/囤/子 (桂林 海底 +2 子), or the hand's base score (娄底: 100 × how many hold)."""

    FAN = "fan"
    UNITS = "units"
    BASE = "base"


class ForcedWin(StrEnum):
    """R44: no forced win, 有胡必胡 (every win is taken) or 放炮必胡 (discard wins are)."""

    NONE = "none"
    ANY = "any"
    DISCARD = "discard"


class MatchKind(StrEnum):
    """R38 a match of N hands, or R45 a race to a target (放炮罚)."""

    HANDS = "hands"
    RACE = "race"


LEVELS = tuple(Level)  # in order: an index compares levels
# Every 名堂 id :mod:`.mingtang` implements (it checks that the two lists agree).
MINGTANG_IDS = (
    "honghu",
    "dianhu",
    "wuhu",
    "duizihu",
    "dazihu",
    "xiaozihu",
    "shuahou",
    "haihu",
    "tianhu",
    "dihu",
    "tinghu",
    "tuanyuan",
    "hanghangxi",
    "jiahanghang",
    "siqihong",
    "zimo",
    "gui",
    "xiaohong",
    "dahong",
    "shihong",
    "shisanhong",
    "yikuaibian",
    "ershika",
    "sanshika",
)
DOUBLING_EVENTS = ("tianhu", "dihu", "haidi")
DECK = 80
WIN_HAND = 20  # R7/R22: 20 cards + the winning card make the 7 门子
HAND_SIZES = (14, 17, 20)  # R43: hand_size + 1 cards make 5, 6 or 7 门子 of three


class RulesError(ValueError):
    """A rules file or dict that does not describe valid rules."""


def _int(where: str, v: Any, lo: int | None = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RulesError(f"{where} must be an integer, got {v!r}")
    if lo is not None and v < lo:
        raise RulesError(f"{where} must be ≥ {lo}, got {v}")
    return v


def _obj(where: str, v: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise RulesError(f"{where} must be a table/object, got {v!r}")
    return v


def _keys(where: str, d: dict[str, Any], known: set[str]) -> None:
    bad = set(d) - known
    if bad:
        raise RulesError(f"{where} has unknown keys {sorted(bad)} (known: {sorted(known)})")


@dataclass(frozen=True)
class HuxiTable:
    """R9: 胡息 per group, as (black 小, black 大, red 小, red 大) for each row.

    The default table ignores colour; 泸州's prices red groups higher. A 句 is
    priced by its lowest card (一 / 壹 for 一二三 and 一五十, the red 二 / 贰 for
    二七十). The row ``ju1510`` (一五十, only played with ``Rules.yiwushi``) may be
    left out: it is then :data:`OPTIONAL_ROWS`' 3 / 6.
    """

    rows: tuple[tuple[str, tuple[int, int, int, int]], ...]

    def __post_init__(self) -> None:
        names = [r for r, _ in self.rows]
        absent = tuple((r, v) for r, v in OPTIONAL_ROWS.items() if r not in names)
        if absent:  # (tables made in code before the row existed)
            object.__setattr__(self, "rows", (*self.rows, *absent))
            names += [r for r, _ in absent]
        missing = set(HUXI_ROWS) - set(names)
        unknown = set(names) - set(HUXI_ROWS)
        if missing or unknown:
            raise RulesError(
                f"huxi_table rows: missing {sorted(missing)}, unknown {sorted(unknown)}"
            )
        for r, v in self.rows:
            if len(v) != 4 or not all(
                isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v
            ):
                raise RulesError(f"huxi_table row {r!r} needs 4 non-negative ints, got {v!r}")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HuxiTable:
        """Rows of ``[小, 大]`` (colour-blind) or ``[黑小, 黑大, 红小, 红大]``."""
        d = _obj("huxi_table", d)
        _keys("huxi_table", d, set(HUXI_ROWS))
        rows = []
        for name in HUXI_ROWS:
            v = d.get(name, OPTIONAL_ROWS.get(name))
            if v is None:
                raise RulesError(f"huxi_table misses row {name!r}")
            if not isinstance(v, list | tuple) or len(v) not in (2, 4):
                raise RulesError(f"huxi_table row {name!r} needs 2 or 4 integers, got {v!r}")
            v = list(v)
            if len(v) == 2:  # colour-blind row: [小, 大]
                v = v * 2
            rows.append((name, tuple(v)))
        return cls(tuple(rows))

    def to_dict(self) -> dict[str, list[int]]:
        # an optional row at its default is not written: records stay as they were
        return {r: list(v) for r, v in self.rows if OPTIONAL_ROWS.get(r) != v}

    def value(self, row: str, card: int) -> int:
        """胡息 of a group of ``row`` whose (first) card is ``card``."""
        return self.grid()[row][card]

    def grid(self) -> dict[str, list[int]]:
        """Row → 20 values, one per card kind: what the evaluator indexes."""
        return _grid(self)


@lru_cache(maxsize=64)
def _grid(table: HuxiTable) -> dict[str, list[int]]:
    out = {}
    for r, v in table.rows:
        out[r] = [v[(2 if Card(c).is_red else 0) + (1 if c >= 10 else 0)] for c in range(20)]
    return out


STANDARD_HUXI = HuxiTable.from_dict(
    {
        "peng": [1, 3],
        "kan": [3, 6],
        "wei": [3, 6],
        "pao": [6, 9],
        "ti": [9, 12],
        "ju123": [3, 6],
        "ju2710": [3, 6],
        "ju": [0, 0],
        "jiao": [0, 0],
        "pair": [0, 0],
    }
)

# 泸州大贰 (the seeds): colour-aware; 招 (跑) = 坎 + 3, 垅 (提) = 招 + 3, capped at 18;
# 一二三 3 / 壹贰叁 6, 二七十 6 / 贰柒拾 9 ("大的在小的基础上各加3胡").
LUZHOU_HUXI = HuxiTable.from_dict(
    {
        "peng": [1, 3, 6, 9],
        "kan": [6, 9, 9, 12],
        "wei": [6, 9, 9, 12],
        "pao": [9, 12, 12, 15],
        "ti": [12, 15, 15, 18],
        "ju123": [3, 6, 3, 6],
        "ju2710": [6, 9, 6, 9],
        "ju": [0, 0, 0, 0],
        "jiao": [0, 0, 0, 0],
        "pair": [0, 0, 0, 0],
    }
)


@dataclass(frozen=True)
class DengRule:
    """等 (R34): ``offset + floor((h - base) / step)``, at least 0 once h ≥ min."""

    base: int = 12
    step: int = 3
    offset: int = 0
    from_min: bool = False  # the base is the rules' 起胡 (min_huxi), whatever it is set to

    def __post_init__(self) -> None:
        _int("deng.base", self.base, None)
        _int("deng.step", self.step, 1)
        _int("deng.offset", self.offset, None)
        if not isinstance(self.from_min, bool):
            raise RulesError(f"deng.from_min must be true or false, got {self.from_min!r}")

    def __call__(self, h: int, min_huxi: int | None = None) -> int:
        base = min_huxi if self.from_min and min_huxi is not None else self.base
        return max(0, self.offset + (h - base) // self.step)

    @classmethod
    def from_dict(cls, d: Any) -> DengRule:
        d = _obj("deng", d)
        _keys("deng", d, {"base", "step", "offset", "from_min"})
        return cls(**d)

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "step": self.step,
            "offset": self.offset,
            "from_min": self.from_min,
        }


@dataclass(frozen=True)
class MingtangRule:
    """One 名堂 enabled in a preset: its id (see :mod:`.mingtang`), 番 and params."""

    id: str
    fan: int
    per_extra: int = 0  # +番 per card beyond the threshold
    threshold: int = 0  # e.g. 10 red cards, 18 大字
    max_fan: int = 0  # 0 = no cap
    level: Level = Level.BASIC  # basic | half | full (R36)
    upto: int = 0  # the most cards a count pattern allows (衡阳 小红: 8–9 red); 0 = no bound
    effect: Effect = Effect.FAN  # how ``fan`` counts: 番, units (等/囤/子) or the base score
    name: str = ""  # the region's own name for it (一点朱, 黑胡 …); "" = the pattern's

    def __post_init__(self) -> None:
        if self.id not in MINGTANG_IDS:
            raise RulesError(f"unknown 名堂 {self.id!r} (one of {', '.join(MINGTANG_IDS)})")
        for k in ("fan", "per_extra", "threshold", "max_fan", "upto"):
            _int(f"mingtang {self.id}.{k}", getattr(self, k))
        if self.effect not in tuple(Effect):
            names = tuple(e.value for e in Effect)
            raise RulesError(
                f"mingtang {self.id}.effect must be one of {names}, got {self.effect!r}"
            )
        object.__setattr__(self, "effect", Effect(self.effect))
        if not isinstance(self.name, str) or len(self.name) > 12:
            raise RulesError(f"mingtang {self.id}.name must be a short string, got {self.name!r}")
        if self.level not in LEVELS[1:]:
            names = tuple(lv.value for lv in LEVELS[1:])
            raise RulesError(f"mingtang {self.id}.level must be one of {names}, got {self.level!r}")
        object.__setattr__(self, "level", Level(self.level))

    @classmethod
    def from_dict(cls, d: Any) -> MingtangRule:
        d = _obj("mingtang entry", d)
        _keys(f"mingtang {d.get('id', '?')}", d, set(cls.__dataclass_fields__))
        if "id" not in d or "fan" not in d:
            raise RulesError(f"mingtang entry {d!r} needs 'id' and 'fan'")
        return cls(**d)

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["level"], d["effect"] = self.level.value, self.effect.value
        return d


@dataclass(frozen=True)
class HuangzhuangRule:
    """荒庄 (R32, R6): what a hand without a winner costs, and the dealer rule.

    ``fan``: 黄番, the multiplier of the next win after 1, 2, … 荒庄 in a row
    (the last entry holds for longer streaks; empty = none). ``cost``: the
    dealer pays this to every other dealt-in seat at a 荒庄 (0 = nothing).
    ``pass_after``: after this many 荒庄 in a row the dealer's 下家 deals
    (R6: 3; 0 = the dealer never passes on a 荒庄). ``wang_pay``: 亡牌 (永州's
    option): between every two dealt-in seats the one holding more 王 pays the
    other this much per extra 王 (0 = off).
    """

    fan: tuple[int, ...] = ()
    cost: int = 0
    pass_after: int = 3
    wang_pay: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.fan, tuple):
            object.__setattr__(self, "fan", tuple(self.fan))
        for x in self.fan:
            _int("huangzhuang.fan entries", x, 1)
        _int("huangzhuang.cost", self.cost)
        _int("huangzhuang.pass_after", self.pass_after)
        _int("huangzhuang.wang_pay", self.wang_pay)

    def multiplier(self, huang: int) -> int:
        """黄番 of a win after ``huang`` 荒庄 in a row."""
        if huang <= 0 or not self.fan:
            return 1
        return self.fan[min(huang, len(self.fan)) - 1]

    @classmethod
    def from_dict(cls, d: Any) -> HuangzhuangRule:
        d = _obj("huangzhuang", d)
        _keys("huangzhuang", d, {"fan", "cost", "pass_after", "wang_pay"})
        fan = d.get("fan", ())
        if not isinstance(fan, list | tuple):
            raise RulesError(f"huangzhuang.fan must be a list of integers, got {fan!r}")
        return cls(tuple(fan), d.get("cost", 0), d.get("pass_after", 3), d.get("wang_pay", 0))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"fan": list(self.fan), "cost": self.cost}
        d["pass_after"] = self.pass_after
        if self.wang_pay:  # written only when on: every record without it stays byte-identical
            d["wang_pay"] = self.wang_pay
        return d


@dataclass(frozen=True)
class RaceRule:
    """R45 放炮罚: a race to ``target`` (娄底: 100 息).

    Each hand's score goes to the winner's running total and, on a discard
    win, comes off the discarder's (at most ``discarder_cap``, 0 = no cap); a
    荒庄 costs the dealer ``huangzhuang_penalty``. The match ends after the
    hand in which a total reaches the target (or after ``hands_per_match``, a
    safety cap); totals are rounded to ``round_to`` and settled pairwise.
    """

    target: int = 100
    round_to: int = 10
    discarder_cap: int = 100
    huangzhuang_penalty: int = 10

    def __post_init__(self) -> None:
        _int("race.target", self.target, 1)
        _int("race.round_to", self.round_to, 1)
        _int("race.discarder_cap", self.discarder_cap)
        _int("race.huangzhuang_penalty", self.huangzhuang_penalty)

    def rounded(self, total: int) -> int:
        """A running total rounded to the nearest ``round_to`` (halves away from 0)."""
        q, r = divmod(abs(total), self.round_to)
        v = (q + (2 * r >= self.round_to)) * self.round_to
        return v if total >= 0 else -v

    @classmethod
    def from_dict(cls, d: Any) -> RaceRule:
        d = _obj("race", d)
        _keys("race", d, set(cls.__dataclass_fields__))
        return cls(**d)

    def to_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


HUNAN_MINGTANG = (
    MingtangRule("honghu", fan=2, per_extra=1, threshold=10, level=Level.BASIC),
    MingtangRule("dianhu", fan=4, level=Level.BASIC),
    MingtangRule("wuhu", fan=5, level=Level.BASIC),
    MingtangRule("duizihu", fan=5, level=Level.HALF),
    MingtangRule("dazihu", fan=6, per_extra=1, threshold=18, max_fan=14, level=Level.HALF),
    MingtangRule("xiaozihu", fan=8, per_extra=1, threshold=16, max_fan=16, level=Level.HALF),
    MingtangRule("shuahou", fan=8, level=Level.FULL),
)

CHANGDE_MINGTANG = (
    MingtangRule("honghu", fan=3, per_extra=1, threshold=10, level=Level.BASIC),
    MingtangRule("dianhu", fan=6, level=Level.BASIC),
    MingtangRule("wuhu", fan=8, level=Level.BASIC),
    MingtangRule("duizihu", fan=8, level=Level.HALF),
    MingtangRule("dazihu", fan=8, per_extra=1, threshold=18, level=Level.HALF),
    MingtangRule("xiaozihu", fan=10, per_extra=1, threshold=16, level=Level.HALF),
    MingtangRule("haihu", fan=6, level=Level.FULL),
    MingtangRule("tianhu", fan=6, level=Level.FULL),
    MingtangRule("dihu", fan=6, level=Level.FULL),
    MingtangRule("tinghu", fan=6, level=Level.FULL),
    MingtangRule("shuahou", fan=8, level=Level.FULL),
    MingtangRule("tuanyuan", fan=8, level=Level.FULL),
    MingtangRule("hanghangxi", fan=8, level=Level.FULL),
    MingtangRule("jiahanghang", fan=4, level=Level.FULL),
    MingtangRule("siqihong", fan=2, level=Level.FULL),
)

# 泸州: the 基本 entries are what scoring_mode "hongwu" counts (红胡 2, 乌胡 4, and
# the seeds' "天地胡均算两番"); scoring_mode "mingtang" adds the 大二名堂 at 全.
LUZHOU_MINGTANG = (
    MingtangRule("honghu", fan=2, threshold=10, level=Level.BASIC),
    MingtangRule("wuhu", fan=4, level=Level.BASIC),
    MingtangRule("tianhu", fan=2, level=Level.BASIC),
    MingtangRule("dihu", fan=2, level=Level.BASIC),
    MingtangRule("zimo", fan=2, level=Level.FULL),
    MingtangRule("haihu", fan=2, level=Level.FULL),
    MingtangRule("gui", fan=2, level=Level.FULL),
)


@dataclass(frozen=True)
class Rules:
    """The rules of one table; see PRESETS.md and docs/presets/ for every field."""

    name: str = "hunan"
    players: int = 3
    sit_out: bool = False
    hand_size: int = WIN_HAND
    wang: int = 0  # R39 王: wild cards in the deck besides the 80 (0–4)
    min_huxi: int = 15
    huxi_table: HuxiTable = STANDARD_HUXI
    win_on_discard: bool = False
    deng: DengRule = DengRule()
    zimo_bonus: int = 1
    doubling: tuple[str, ...] = ("tianhu", "dihu", "haidi")
    mingtang: tuple[MingtangRule, ...] = HUNAN_MINGTANG
    mingtang_level: Level = Level.FULL
    fan_combine: FanCombine = FanCombine.ADD
    decomposition: Decomposition = Decomposition.HUXI  # the 7 门子 split that is scored
    dihu: Dihu = Dihu.FIRST_DISCARD
    payment: Payment = Payment.ALL
    baopei: bool = False  # R37 包赔: on 地胡 the discarder pays for everyone
    huangzhuang: HuangzhuangRule = HuangzhuangRule()
    hands_per_match: int = 8
    show_liangzhang: bool = True
    show_wall_bottom: bool = False
    tianhu_ti: int = 3  # R28: 提 count that makes a mandatory 天胡
    tianhu_kan: int = 5  # R28: 坎 (提 counting as 坎) that makes a mandatory 天胡
    scoring_mode: ScoringMode = ScoringMode.MINGTANG
    base_score: int = 1  # 底分: points per 底 (a house option; 1 in every region's text)
    cap: int = 0  # 封顶: the most one seat pays or is paid per hand (0: no cap)
    unit: str = "等"  # what 等 is called here: 囤, 子, 息 … (the settlement's label)
    # R41 番 of 王钓, 王钓王, 王闯, 王闯王, 王炸, 王炸王 (0: that pattern is not played)
    wang_fan: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    xing: Xing = Xing.NONE  # R42 醒: none | gen (跟醒) | fan (翻醒)
    xing_offset: int = 0  # the 醒牌 is the card turned moved by −1, 0 or +1 point (same size)
    xing_double: bool = False  # 双醒: 醒数 × 2
    xing_chain: bool = False  # 连翻: a 醒牌 that makes a four-group turns again
    xing_seat: bool = False  # the 坐醒/数醒 seat (sit_out) collects 番 × 醒数 from each loser
    forced_win: ForcedWin = ForcedWin.NONE  # R44: 有胡必胡 (any) / 放炮必胡 (discard)
    open_wei: bool = False  # 明偎: a 偎 lies face up, its card public (衡阳)
    yiwushi: bool = False  # 一五十 / 壹伍拾 are a 句 too (衡阳's option), priced ``ju1510``
    match: MatchKind = MatchKind.HANDS  # R38 N hands, or R45 a race (race.*)
    race: RaceRule = RaceRule()
    # A typical big payment (≈ the 99th percentile of |payment| per seat in greedy
    # self-play): RL rewards are divided by it; play and scoring never read it.
    reward_scale: int = 48
    extra: tuple[tuple[str, Any], ...] = field(default=())

    def __post_init__(self) -> None:
        _choice: dict[str, type[StrEnum]] = {
            "mingtang_level": Level,
            "fan_combine": FanCombine,
            "decomposition": Decomposition,
            "dihu": Dihu,
            "payment": Payment,
            "scoring_mode": ScoringMode,
            "xing": Xing,
            "forced_win": ForcedWin,
            "match": MatchKind,
        }
        # lists from code: keep Rules hashable
        for k in ("doubling", "mingtang", "extra", "wang_fan"):
            if isinstance(getattr(self, k), list):
                object.__setattr__(self, k, tuple(getattr(self, k)))
        if not isinstance(self.name, str) or not self.name:
            raise RulesError(f"name must be a non-empty string, got {self.name!r}")
        bools = ("sit_out", "win_on_discard", "baopei", "show_liangzhang", "show_wall_bottom")
        for k in (*bools, "xing_double", "xing_chain", "xing_seat", "open_wei", "yiwushi"):
            if not isinstance(getattr(self, k), bool):
                raise RulesError(f"{k} must be true or false, got {getattr(self, k)!r}")
        for k, lo in (
            ("min_huxi", 0), ("zimo_bonus", 0), ("hands_per_match", 1), ("base_score", 1), ("cap", 0),
            ("reward_scale", 1),
        ):  # fmt: skip
            _int(k, getattr(self, k), lo)
        _int("tianhu_ti", self.tianhu_ti)  # 0: no mandatory 天胡 by 提 count
        _int("tianhu_kan", self.tianhu_kan)  # 0: none by 坎 count (R43)
        for k, enum in _choice.items():
            v = getattr(self, k)
            if not isinstance(v, str) or v not in enum.__members__.values():
                allowed = tuple(m.value for m in enum)
                raise RulesError(f"{k} must be one of {allowed}, got {v!r}")
            object.__setattr__(self, k, enum(v))
        _int("players", self.players)
        if not 2 <= self.players <= 4:
            raise RulesError(f"players must be 2–4, got {self.players}")
        if self.sit_out and self.players != 4:
            raise RulesError(f"sit_out needs 4 players, got {self.players}")
        if self.hand_size not in HAND_SIZES or isinstance(self.hand_size, bool):
            raise RulesError(
                f"hand_size must be 14, 17 or 20 (R43: hand_size + 1 cards make whole 门子 "
                f"of three), got {self.hand_size!r}"
            )
        if isinstance(self.wang, bool) or self.wang not in range(MAX_WANG + 1):
            raise RulesError(f"wang must be 0–{MAX_WANG} (R39: 王 in the deck), got {self.wang!r}")
        wf = self.wang_fan
        if (
            not isinstance(wf, tuple)
            or len(wf) != 6
            or any(isinstance(f, bool) or not isinstance(f, int) or f < 0 for f in wf)
        ):
            raise RulesError(
                "wang_fan must be six 番 ≥ 0 (王钓, 王钓王, 王闯, 王闯王, 王炸, 王炸王; R41), "
                f"got {wf!r}"
            )
        if self.yiwushi and self.wang:
            raise RulesError(
                "yiwushi (一五十 as a 句) is not played with 王 (wang > 0): the 王 search "
                "knows no 一五十; play without 王 (wang=0; in a rules file wang = 0) or without "
                "一五十 (yiwushi=off; yiwushi = false)"
            )
        if self.xing_offset not in (-1, 0, 1) or isinstance(self.xing_offset, bool):
            raise RulesError(f"xing_offset must be -1, 0 or 1, got {self.xing_offset!r}")
        if self.xing_seat and not self.sit_out:
            raise RulesError("xing_seat needs sit_out = true (the seat that sits out collects 醒)")
        if not isinstance(self.unit, str) or not 1 <= len(self.unit) <= 4:
            raise RulesError(f"unit must be a short name (等, 囤, 子 …), got {self.unit!r}")
        if (self.match == MatchKind.RACE) != (self.payment == Payment.RACE):
            raise RulesError(
                f"match = race and payment = race go together (R45), got match = "
                f"{self.match.value!r}, payment = {self.payment.value!r}"
            )
        if self.seated * self.hand_size + 1 > DECK:
            raise RulesError(
                f"{self.seated} seats dealt {self.hand_size} cards + the 亮张 need "
                f"{self.seated * self.hand_size + 1} cards, the deck has {DECK}: "
                "with 4 players set sit_out = true"
            )
        for name, kind in (
            ("huxi_table", HuxiTable),
            ("deng", DengRule),
            ("huangzhuang", HuangzhuangRule),
            ("race", RaceRule),
        ):
            if not isinstance(getattr(self, name), kind):
                raise RulesError(f"{name} must be a {kind.__name__}")
        if not all(isinstance(m, MingtangRule) for m in self.mingtang):
            raise RulesError("mingtang must hold MingtangRule entries")
        ids = [m.id for m in self.mingtang]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise RulesError(f"mingtang lists {dup} more than once")
        bad = [e for e in self.doubling if e not in DOUBLING_EVENTS]
        if bad:
            raise RulesError(f"unknown doubling events {bad} (one of {DOUBLING_EVENTS})")

    @property
    def seated(self) -> int:
        """Players dealt in each hand: one fewer when a seat sits out (坐底)."""
        return self.players - 1 if self.sit_out else self.players

    @property
    def zero_sum(self) -> bool:
        """Does every hand's payment sum to zero? Yes but in R45's race (放炮罚, 娄底):
        there the winner scores 底 and only a discarder loses it, and a 荒庄 costs the
        dealer alone."""
        return self.payment != Payment.RACE

    def mandatory_tianhu(self, ti: int, kan: int) -> bool:
        """R28: do ``ti`` 提 and ``kan`` 坎 (a 提 counts as a 坎) after the deal make a
        mandatory 天胡? A count of 0 switches that rule off (R43: short hands)."""
        return bool(
            (self.tianhu_ti and ti >= self.tianhu_ti)
            or (self.tianhu_kan and ti + kan >= self.tianhu_kan)
        )

    def xing_kind(self, turned: int, held: Sequence[int]) -> int:
        """R42: the 醒牌's kind for a card turned (a deck int, 王 = 20): moved by the
        offset, same size, 10 ↔ 1; a 王 is the kind the winner holds most of (``held``:
        his natural cards per kind; the lowest kind on a tie)."""
        if turned >= 20:
            return max(range(20), key=held.__getitem__)
        return turned - turned % 10 + (turned % 10 + self.xing_offset) % 10

    def with_players(self, n: int) -> Rules:
        """These rules at ``n`` seats: with 坐底 (one seat sits out) where four hands would
        not fit in the deck (R7: 4 × 20 + 1 > 80), all dealt in otherwise (R43: 4 × 14).
        With 醒, the seat that sits out is the 坐醒/数醒 seat that collects it."""
        sit = n == 4 and n * self.hand_size + 1 > DECK
        return self.replace(players=n, sit_out=sit, xing_seat=sit and self.xing != Xing.NONE)

    @property
    def melds_to_win(self) -> int:
        """门子 of a winning hand (R22, R43): 7 with 20-card hands, 5 with 14."""
        return (self.hand_size + 1) // 3

    def deng_of(self, h: int) -> int:
        """等/囤/子 of a (doubled) 胡息 ``h`` (R34; ``deng.from_min``: counted from 起胡)."""
        return self.deng(h, self.min_huxi)

    def uses(self, mingtang_id: str) -> bool:
        """Does a 名堂 of this id count under these rules (mode and level)?"""
        top = LEVELS.index(self.effective_level)
        return any(m.id == mingtang_id and LEVELS.index(m.level) <= top for m in self.mingtang)

    @property
    def effective_level(self) -> Level:
        """The 名堂 level that counts: ``deng`` counts none, ``hongwu`` at most 基本."""
        if self.scoring_mode == ScoringMode.DENG:
            return Level.NONE
        if self.scoring_mode == ScoringMode.HONGWU:
            return LEVELS[min(LEVELS.index(self.mingtang_level), 1)]
        return self.mingtang_level

    def replace(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    # -- plain-data round trip -------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, HuxiTable | DengRule | HuangzhuangRule | RaceRule):
                v = v.to_dict()
            elif f.name == "mingtang":
                v = [m.to_dict() for m in v]
            elif f.name == "extra":
                v = dict(v)
            elif isinstance(v, tuple):
                v = list(v)
            elif isinstance(v, StrEnum):
                v = v.value
            elif f.name == "yiwushi" and not v:
                continue  # written only when on: every record without it stays byte-identical
            d[f.name] = v
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rules:
        """Rules from plain data; a ``preset`` key starts from that preset, others
        from the default; every key given replaces that field whole. Data without
        ``reward_scale`` (records written before it existed) takes the scale of the
        preset it is named after, if any."""
        if not isinstance(d, dict):
            raise RulesError("rules must be a JSON/TOML object")
        d = dict(d)
        start = d.pop("preset", None)
        if start is not None and not isinstance(start, str):
            raise RulesError(f"preset must be a preset name, got {start!r}")
        base = preset(start) if start is not None else Rules()
        name = d.get("name")
        if start is None and "reward_scale" not in d and isinstance(name, str) and name in PRESETS:
            # written before the field existed, when the scale was the named preset's
            d["reward_scale"] = PRESETS[name].reward_scale
        if "huangzhuang_fan" in d:  # the field's earlier, flat name
            old = d.pop("huangzhuang_fan")
            hz = dict(d.get("huangzhuang", base.huangzhuang.to_dict()))
            hz["fan"] = old
            d["huangzhuang"] = hz
        known = {f.name for f in fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise RulesError(f"unknown rules fields {sorted(unknown)}")
        kw: dict[str, Any] = {}
        try:
            for k, v in d.items():
                if k == "huxi_table":
                    kw[k] = v if isinstance(v, HuxiTable) else HuxiTable.from_dict(v)
                elif k == "deng":
                    kw[k] = DengRule.from_dict(v)
                elif k == "huangzhuang":
                    kw[k] = HuangzhuangRule.from_dict(v)
                elif k == "race":
                    kw[k] = RaceRule.from_dict(v)
                elif k == "mingtang":
                    if not isinstance(v, list | tuple):
                        raise RulesError(f"mingtang must be a list of entries, got {v!r}")
                    kw[k] = tuple(MingtangRule.from_dict(m) for m in v)
                elif k == "extra":
                    kw[k] = tuple(sorted(_obj("extra", v).items()))
                elif k in ("doubling", "wang_fan"):
                    if not isinstance(v, list | tuple):
                        raise RulesError(f"{k} must be a list, got {v!r}")
                    kw[k] = tuple(v)
                else:
                    want = type(getattr(base, k))
                    if want is bool and not isinstance(v, bool):
                        raise RulesError(f"rules field {k!r} must be true/false, got {v!r}")
                    if want is int and (isinstance(v, bool) or not isinstance(v, int)):
                        raise RulesError(f"rules field {k!r} must be an integer, got {v!r}")
                    if issubclass(want, str) and not isinstance(v, str):
                        raise RulesError(f"rules field {k!r} must be a string, got {v!r}")
                    kw[k] = v
            return replace(base, **kw)
        except RulesError:
            raise
        except (TypeError, ValueError) as e:
            raise RulesError(f"invalid rules: {e}") from None

    def to_toml(self) -> str:
        """The rules as a TOML document that :meth:`from_dict` (via tomllib) reads back."""
        d = self.to_dict()
        flat = {k: v for k, v in d.items() if not _is_table(v)}
        tables = {k: v for k, v in d.items() if isinstance(v, dict) and k != "extra"}
        lines = [f"# paohuzi rules: {self.name} (see docs/presets/)"]
        lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in flat.items()]
        lines.append(f"extra = {_toml_value(d['extra'])}")
        for k, t in tables.items():
            lines += ["", f"[{k}]"] + [f"{_toml_key(a)} = {_toml_value(b)}" for a, b in t.items()]
        for m in d["mingtang"]:
            lines += ["", "[[mingtang]]"] + [f"{a} = {_toml_value(b)}" for a, b in m.items()]
        return "\n".join(lines) + "\n"


def _is_table(v: Any) -> bool:
    return isinstance(v, dict) or (isinstance(v, list) and bool(v) and isinstance(v[0], dict))


_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # JSON string escapes are valid TOML
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items())
        return "{ " + inner + " }" if inner else "{}"
    raise RulesError(f"cannot write {v!r} as TOML")


HUNAN = Rules()

CHANGDE = Rules(
    name="changde",
    mingtang=CHANGDE_MINGTANG,
    doubling=(),
    decomposition=Decomposition.DI,
    dihu=Dihu.LIANGZHANG,
    huangzhuang=HuangzhuangRule(fan=(2, 3)),
    reward_scale=64,
)

LUZHOU = Rules(
    name="luzhou",
    players=4,
    sit_out=True,
    min_huxi=10,
    huxi_table=LUZHOU_HUXI,
    win_on_discard=True,
    deng=DengRule(base=10, step=10, offset=1),
    zimo_bonus=0,
    doubling=(),
    mingtang=LUZHOU_MINGTANG,
    fan_combine=FanCombine.MULTIPLY,
    scoring_mode=ScoringMode.HONGWU,
    payment=Payment.DISCARDER,
    show_liangzhang=False,
    show_wall_bottom=True,
    tianhu_ti=3,
    tianhu_kan=4,
    reward_scale=8,
)

_FAN, _UNITS, _BASE = Effect.FAN, Effect.UNITS, Effect.BASE

# 桂林字牌 (PRESETS.md "Second wave"): 油 = 胡息, 子 the unit; discard wins paid by the
# discarder for all; 有胡必胡; 自摸 ×2 (天胡 is 自摸), 地胡 ×2, 海底 +2 子; 翻醒 with 连翻.
GUILIN = Rules(
    name="guilin",
    min_huxi=10,
    win_on_discard=True,
    deng=DengRule(base=10, step=3, offset=1, from_min=True),
    zimo_bonus=0,
    doubling=(),
    mingtang=(
        MingtangRule("zimo", fan=2),
        MingtangRule("tianhu", fan=2, name="天胡(自摸)"),
        MingtangRule("dihu", fan=2),
        MingtangRule("haihu", fan=2, effect=_UNITS, name="海底"),
    ),
    fan_combine=FanCombine.MULTIPLY,
    decomposition=Decomposition.DI,
    dihu=Dihu.FIRST_DISCARD_ANY,
    payment=Payment.DISCARDER,
    baopei=True,
    huangzhuang=HuangzhuangRule(pass_after=1),
    unit="子",
    xing=Xing.FAN,
    xing_chain=True,
    forced_win=ForcedWin.ANY,
    reward_scale=16,
)

# 衡阳六胡抢: four seats, 14 cards, 5 门子 (R43), 起胡 6, 明偎; 红黑点 番 multiplied.
HENGYANG = Rules(
    name="hengyang",
    players=4,
    hand_size=14,
    min_huxi=6,
    win_on_discard=True,
    deng=DengRule(base=6, step=3, offset=1, from_min=True),
    zimo_bonus=0,
    doubling=(),
    mingtang=(
        MingtangRule("xiaohong", fan=2, threshold=8, upto=9),
        MingtangRule("dahong", fan=4, threshold=10),
        MingtangRule("dianhu", fan=3, name="一点红"),
        MingtangRule("wuhu", fan=5, name="黑胡"),
        MingtangRule("zimo", fan=2),
        MingtangRule("tianhu", fan=2),
        MingtangRule("dihu", fan=2),
    ),
    fan_combine=FanCombine.MULTIPLY,
    decomposition=Decomposition.DI,
    dihu=Dihu.FIRST_DISCARD_ANY,
    payment=Payment.DISCARDER,
    baopei=True,
    huangzhuang=HuangzhuangRule(pass_after=1),
    tianhu_ti=0,
    tianhu_kan=0,
    unit="囤",
    xing=Xing.FAN,
    open_wei=True,
    reward_scale=24,
)

# 娄底放炮罚: a score in 息, "+100" 名堂 and ×2 名堂, a race to 100 (R45).
LOUDI = Rules(
    name="loudi",
    win_on_discard=True,
    deng=DengRule(base=0, step=1, offset=0),
    zimo_bonus=0,
    doubling=(),
    mingtang=(
        MingtangRule("tianhu", fan=100, effect=_BASE),
        MingtangRule("dihu", fan=100, effect=_BASE),
        MingtangRule("shisanhong", fan=100, threshold=13, effect=_BASE),
        MingtangRule("wuhu", fan=100, effect=_BASE),
        MingtangRule("sanshika", fan=100, threshold=30, effect=_BASE),
        MingtangRule("dianhu", fan=2, name="一点朱"),
        MingtangRule("shihong", fan=2, threshold=10, upto=12),
        MingtangRule("yikuaibian", fan=2),
        MingtangRule("haihu", fan=2, name="海底捞"),
        MingtangRule("ershika", fan=2, threshold=20),
        MingtangRule("zimo", fan=2),
    ),
    fan_combine=FanCombine.MULTIPLY,
    decomposition=Decomposition.DI,
    dihu=Dihu.FIRST_DISCARD_ANY,
    payment=Payment.RACE,
    huangzhuang=HuangzhuangRule(pass_after=0),
    hands_per_match=30,
    cap=200,
    unit="息",
    forced_win=ForcedWin.DISCARD,
    match=MatchKind.RACE,
    race=RaceRule(target=100, round_to=10, discarder_cap=100, huangzhuang_penalty=10),
    reward_scale=100,
)

# 永州扯胡子 (with 王): 起胡 15, wins only on turned-up cards, 王 patterns, 翻醒 +1;
# 囤 = 2 + ⌊(H − 起胡)/3⌋ + 醒; 红/点/黑 and 自摸 番 multiplied; 封顶 300.
YONGZHOU_MINGTANG = (
    MingtangRule("honghu", fan=2, threshold=10),
    MingtangRule("dianhu", fan=3),
    MingtangRule("wuhu", fan=4, name="黑胡"),
    MingtangRule("zimo", fan=2),
    # the dealer winning on his own 亮张 is a 自摸 like any turned-up card of his own
    MingtangRule("tianhu", fan=2, name="天胡(自摸)"),
)
# Option 红转朱黑: 13–15 red count as 点胡 (×3), 16 or more as 黑胡 (×4), 红胡 only 10–12.
# Pure data: the count patterns 十三红 / 大红 with a bound and the region's name.
YONGZHOU_HONGZHUAN = (
    MingtangRule("honghu", fan=2, threshold=10, upto=12),
    MingtangRule("shisanhong", fan=3, threshold=13, upto=15, name="点胡"),
    MingtangRule("dahong", fan=4, threshold=16, name="黑胡"),
    *YONGZHOU_MINGTANG[1:],
)

YONGZHOU = Rules(
    name="yongzhou",
    wang=2,
    deng=DengRule(base=15, step=3, offset=2, from_min=True),
    zimo_bonus=0,
    doubling=(),
    mingtang=YONGZHOU_MINGTANG,
    fan_combine=FanCombine.MULTIPLY,
    decomposition=Decomposition.DI,
    dihu=Dihu.NONE,
    huangzhuang=HuangzhuangRule(pass_after=1),
    tianhu_ti=0,
    tianhu_kan=0,
    cap=300,
    unit="囤",
    wang_fan=(4, 8, 8, 16, 16, 32),
    xing=Xing.FAN,
    xing_offset=1,
    reward_scale=64,  # p99 of |payment| per seat, 500 greedy hands: 64
)

PRESETS: dict[str, Rules] = {
    "hunan": HUNAN,
    "changde": CHANGDE,
    "luzhou": LUZHOU,
    "guilin": GUILIN,
    "hengyang": HENGYANG,
    "loudi": LOUDI,
    "yongzhou": YONGZHOU,
}


_T = TypeVar("_T")


def per_rules(fn: Callable[[Rules], _T]) -> Callable[[Rules], _T]:
    """Memoise ``fn(rules)``: by identity first, then by value.

    Hashing a Rules walks every field (about 10 µs), far more than the settlement
    or a view that asks for its evaluator; the same object asks again by ``id``.
    """
    by_value = lru_cache(maxsize=64)(fn)
    by_id: dict[int, tuple[Rules, _T]] = {}

    @wraps(fn)
    def get(rules: Rules) -> _T:
        hit = by_id.get(id(rules))
        if hit is not None and hit[0] is rules:
            return hit[1]
        v = by_value(rules)
        if len(by_id) >= 256:  # bounded: rules read from records come and go
            by_id.clear()
        by_id[id(rules)] = (rules, v)  # holding ``rules`` keeps its id from being reused
        return v

    return get


def preset(name: str) -> Rules:
    """A named preset: ``hunan`` (default), ``changde``, ``luzhou``, ``guilin``,
    ``hengyang``, ``loudi`` or ``yongzhou``. A name with the region's options
    (``guilin:zimo=unit``) is read by :func:`paohuzi.core.variants.parse`, which every
    entry point taking a name uses."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {name!r} (one of {', '.join(PRESETS)})") from None
