"""规则 (guīzé): the one rules configuration and its named presets (PRESETS.md).

Every way regions differ is a field here, never a branch on a region's name.
Rules are frozen, hashable, and round-trip through plain dicts (JSON/TOML), so a
game record can carry the full rules object it was played under.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from .cards import Card

HUXI_ROWS = ("peng", "kan", "wei", "pao", "ti", "ju123", "ju2710", "ju", "jiao", "pair")


class RulesError(ValueError):
    """A rules file or dict that does not describe valid rules."""


@dataclass(frozen=True)
class HuxiTable:
    """R9: 胡息 per group, as (black 小, black 大, red 小, red 大) for each row.

    The default table ignores colour; 泸州's prices red groups higher.
    """

    rows: tuple[tuple[str, tuple[int, int, int, int]], ...]

    def __post_init__(self) -> None:
        names = [r for r, _ in self.rows]
        missing = set(HUXI_ROWS) - set(names)
        unknown = set(names) - set(HUXI_ROWS)
        if missing or unknown:
            raise RulesError(
                f"huxi_table rows: missing {sorted(missing)}, unknown {sorted(unknown)}"
            )
        for r, v in self.rows:
            if len(v) != 4 or not all(isinstance(x, int) and x >= 0 for x in v):
                raise RulesError(f"huxi_table row {r!r} needs 4 non-negative ints, got {v!r}")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HuxiTable:
        rows = []
        for name in HUXI_ROWS:
            v = d.get(name)
            if v is None:
                raise RulesError(f"huxi_table misses row {name!r}")
            v = list(v)
            if len(v) == 2:  # colour-blind row: [小, 大]
                v = v * 2
            rows.append((name, tuple(v)))
        extra = set(d) - set(HUXI_ROWS)
        if extra:
            raise RulesError(f"huxi_table has unknown rows {sorted(extra)}")
        return cls(tuple(rows))

    def to_dict(self) -> dict[str, list[int]]:
        return {r: list(v) for r, v in self.rows}

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

# 泸州大贰 (the seeds): colour-aware; 招 (跑) = 坎 + 3, 垅 (提) = 招 + 3, capped at 18.
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

    def __call__(self, h: int) -> int:
        return max(0, self.offset + (h - self.base) // self.step)


@dataclass(frozen=True)
class MingtangRule:
    """One 名堂 enabled in a preset: its id (see :mod:`.mingtang`), 番 and params."""

    id: str
    fan: int
    per_extra: int = 0  # +番 per card beyond the threshold
    threshold: int = 0  # e.g. 10 red cards, 18 大字
    max_fan: int = 0  # 0 = no cap
    level: str = "basic"  # basic | half | full (R36)


LEVELS = ("none", "basic", "half", "full")

HUNAN_MINGTANG = (
    MingtangRule("honghu", fan=2, per_extra=1, threshold=10, level="basic"),
    MingtangRule("dianhu", fan=4, level="basic"),
    MingtangRule("wuhu", fan=5, level="basic"),
    MingtangRule("duizihu", fan=5, level="half"),
    MingtangRule("dazihu", fan=6, per_extra=1, threshold=18, max_fan=14, level="half"),
    MingtangRule("xiaozihu", fan=8, per_extra=1, threshold=16, max_fan=16, level="half"),
    MingtangRule("shuahou", fan=8, level="full"),
)

CHANGDE_MINGTANG = (
    MingtangRule("honghu", fan=3, per_extra=1, threshold=10, level="basic"),
    MingtangRule("dianhu", fan=6, level="basic"),
    MingtangRule("wuhu", fan=8, level="basic"),
    MingtangRule("duizihu", fan=8, level="half"),
    MingtangRule("dazihu", fan=8, per_extra=1, threshold=18, level="half"),
    MingtangRule("xiaozihu", fan=10, per_extra=1, threshold=16, level="half"),
    MingtangRule("haihu", fan=6, level="full"),
    MingtangRule("tianhu", fan=6, level="full"),
    MingtangRule("dihu", fan=6, level="full"),
    MingtangRule("tinghu", fan=6, level="full"),
    MingtangRule("shuahou", fan=8, level="full"),
    MingtangRule("tuanyuan", fan=8, level="full"),
    MingtangRule("hanghangxi", fan=8, level="full"),
    MingtangRule("jiahanghang", fan=4, level="full"),
    MingtangRule("siqihong", fan=2, level="full"),
)

LUZHOU_MINGTANG = (
    MingtangRule("honghu", fan=2, threshold=10, level="basic"),
    MingtangRule("wuhu", fan=4, level="basic"),
)


@dataclass(frozen=True)
class Rules:
    """The rules of one table; see PRESETS.md for every field's meaning."""

    name: str = "hunan"
    players: int = 3
    sit_out: bool = False
    hand_size: int = 20
    min_huxi: int = 15
    huxi_table: HuxiTable = STANDARD_HUXI
    win_on_discard: bool = False
    deng: DengRule = DengRule()
    zimo_bonus: int = 1
    doubling: tuple[str, ...] = ("tianhu", "dihu", "haidi")
    mingtang: tuple[MingtangRule, ...] = HUNAN_MINGTANG
    mingtang_level: str = "full"
    fan_combine: str = "add"
    dihu: str = "first_discard"  # first_discard | liangzhang
    payment: str = "all"  # all | discarder (a discard win: only the discarder pays)
    baopei: bool = False  # R37 包赔: on 地胡 the discarder pays for everyone
    huangzhuang_fan: tuple[int, ...] = ()  # 黄番: multiplier after 1, 2, … 荒庄 in a row
    hands_per_match: int = 8
    show_liangzhang: bool = True
    show_wall_bottom: bool = False
    tianhu_ti: int = 3  # R28: 提 count that makes a mandatory 天胡
    tianhu_kan: int = 5  # R28: 坎 (提 counting as 坎) that makes a mandatory 天胡
    scoring_mode: str = "mingtang"  # deng | hongwu | mingtang
    extra: tuple[tuple[str, Any], ...] = field(default=())

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise RulesError(f"players must be 2–4, got {self.players}")
        if self.sit_out and self.players != 4:
            raise RulesError("sit_out needs 4 players")
        if self.mingtang_level not in LEVELS:
            raise RulesError(f"mingtang_level must be one of {LEVELS}")
        if self.fan_combine not in ("add", "multiply"):
            raise RulesError("fan_combine must be 'add' or 'multiply'")
        if self.payment not in ("all", "discarder"):
            raise RulesError("payment must be 'all' or 'discarder'")
        if self.dihu not in ("first_discard", "liangzhang"):
            raise RulesError("dihu must be 'first_discard' or 'liangzhang'")
        if self.scoring_mode not in ("deng", "hongwu", "mingtang"):
            raise RulesError("scoring_mode must be 'deng', 'hongwu' or 'mingtang'")
        if self.min_huxi < 0 or self.deng.step <= 0:
            raise RulesError("min_huxi must be ≥ 0 and deng.step > 0")
        bad = set(self.doubling) - {"tianhu", "dihu", "haidi"}
        if bad:
            raise RulesError(f"unknown doubling events {sorted(bad)}")

    @property
    def seated(self) -> int:
        """Players dealt in each hand: one fewer when a seat sits out (坐底)."""
        return self.players - 1 if self.sit_out else self.players

    def replace(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    # -- plain-data round trip -------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, HuxiTable):
                v = v.to_dict()
            elif isinstance(v, DengRule):
                v = {"base": v.base, "step": v.step, "offset": v.offset}
            elif f.name == "mingtang":
                v = [{k: getattr(m, k) for k in MingtangRule.__dataclass_fields__} for m in v]
            elif f.name == "extra":
                v = dict(v)
            elif isinstance(v, tuple):
                v = list(v)
            d[f.name] = v
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rules:
        """Rules from plain data; a ``preset`` key starts from that preset."""
        if not isinstance(d, dict):
            raise RulesError("rules must be a JSON/TOML object")
        d = dict(d)
        base = preset(d.pop("preset")) if "preset" in d else Rules()
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
                    kw[k] = DengRule(**v)
                elif k == "mingtang":
                    kw[k] = tuple(MingtangRule(**m) for m in v)
                elif k == "extra":
                    kw[k] = tuple(sorted(dict(v).items()))
                elif k in ("doubling", "huangzhuang_fan"):
                    kw[k] = tuple(v)
                else:
                    want = type(getattr(base, k))
                    if want is bool and not isinstance(v, bool):
                        raise RulesError(f"rules field {k!r} must be true/false, got {v!r}")
                    if want is int and (isinstance(v, bool) or not isinstance(v, int)):
                        raise RulesError(f"rules field {k!r} must be an integer, got {v!r}")
                    if want is str and not isinstance(v, str):
                        raise RulesError(f"rules field {k!r} must be a string, got {v!r}")
                    kw[k] = v
            return replace(base, **kw)
        except RulesError:
            raise
        except (TypeError, ValueError) as e:
            raise RulesError(f"invalid rules: {e}") from None


HUNAN = Rules()

CHANGDE = Rules(
    name="changde",
    mingtang=CHANGDE_MINGTANG,
    doubling=(),
    dihu="liangzhang",
    huangzhuang_fan=(2, 3),
)

LUZHOU = Rules(
    name="luzhou",
    players=4,
    sit_out=True,
    min_huxi=10,
    huxi_table=LUZHOU_HUXI,
    win_on_discard=True,
    deng=DengRule(base=10, step=10, offset=1),
    mingtang=LUZHOU_MINGTANG,
    scoring_mode="hongwu",
    payment="discarder",
    doubling=(),
    show_liangzhang=False,
    show_wall_bottom=True,
    tianhu_ti=3,
    tianhu_kan=4,
)

PRESETS: dict[str, Rules] = {"hunan": HUNAN, "changde": CHANGDE, "luzhou": LUZHOU}


def preset(name: str) -> Rules:
    """A named preset: ``hunan`` (default), ``changde`` or ``luzhou``."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {name!r} (one of {', '.join(PRESETS)})") from None
