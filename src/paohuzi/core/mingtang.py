"""名堂 (míngtang, 花样): the patterns of a winning hand that bring 番 (R36).

One class per pattern. Each says whether a hand has it and how many 番 it is
worth under a preset's :class:`~paohuzi.core.rules.MingtangRule` (番, threshold,
per-extra step, cap). The preset decides which patterns exist at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any, ClassVar

from . import refusals
from .cards import Card
from .evaluator import BIT, LOW, MASK30
from .melds import Group
from .position import Position
from .profile import BARE, BARE_JIANG, JIANG, MELDS, RED_MELDS, RUNS, get, of_split
from .refusals import Refusal
from .rules import LEVELS, MINGTANG_IDS, Effect, MingtangRule, Rules, per_rules

RED_FIELDS = 7 * sum(BIT[c] for c in range(20) if Card(c).is_red)
_RED = tuple(c for c in range(20) if Card(c).is_red)


class Context:
    """What the patterns look at: the winning hand's cards, groups and facts.

    Each fact is worked out once, when a pattern first asks: the card counts for
    the colour/size patterns, the groups only for a structural one. ``split``
    (instead of ``groups``/``group_huxi``) is anything with a ``get()`` returning
    both, so a hand whose 名堂 read only its cards never builds its 门子.
    """

    __slots__ = (
        "_bits",
        "_colours",
        "_huxi",
        "_profile",
        "_split",
        "group_huxi_",
        "groups_",
        "position",
        "wang",
    )

    def __init__(
        self,
        position: Position,
        groups: tuple[Group, ...] = (),
        group_huxi: tuple[int, ...] = (),
        wang: tuple[Card, ...] = (),  # what each 王 stands for in this split (R40)
        split: Any = None,
        huxi: int = -1,  # the split's 胡息, when the caller knows it (else summed)
        colours: tuple[int, int, int] | None = None,  # colour_key(), when the caller knows it
    ) -> None:
        self.position = position
        self._colours = colours
        self.groups_, self.group_huxi_ = groups, group_huxi
        self.wang = wang
        self._split = split
        self._bits = -1
        self._huxi = huxi
        self._profile = -1

    @property
    def groups(self) -> tuple[Group, ...]:
        if self._split is not None:
            self.groups_, self.group_huxi_ = self._split.get()
            self._split = None
        return self.groups_

    @property
    def group_huxi(self) -> tuple[int, ...]:
        return self.group_huxi_ if self._split is None else (self.groups, self.group_huxi_)[1]

    @property
    def huxi(self) -> int:
        """胡息 of the split (before R35's doublings)."""
        if self._huxi < 0:
            self._huxi = sum(self.group_huxi)
        return self._huxi

    @property
    def profile(self) -> int:
        """The split's :mod:`~paohuzi.core.profile` (counts of its 门子 by kind, 胡息 and
        colour): from the evaluator's plan while the split is unbuilt, else counted."""
        if self._profile < 0:
            sp = self._split
            self._profile = (
                sp.profile() if sp is not None else of_split(self.groups_, self.group_huxi_)
            )
        return self._profile

    @property
    def cards(self) -> list[Card]:
        """Every card the winner holds: hand, table and winning card (for a 天胡
        also those that fit in no group); a 王 as the card it stands for."""
        return self.position.all_cards() + list(self.wang)

    @property
    def bits(self) -> int:
        """:attr:`cards` packed, 3 bits a kind (the evaluator's form; with 王 a kind
        can overflow its field: read :attr:`counts` then)."""
        if self._bits < 0:
            self._bits = self.position.card_bits + sum(BIT[c] for c in self.wang)
        return self._bits

    @property
    def counts(self) -> list[int]:
        """How many of each of the 20 kinds :attr:`cards` holds."""
        if self.wang:  # 4 natural + 4 王 of one kind: 8, more than a 3-bit field holds
            n = [0] * 20
            for c in self.cards:
                n[c] += 1
            return n
        b = self.bits
        return [b >> s & 7 for s in range(0, 60, 3)]

    def colour_key(self) -> tuple[int, int, int]:
        """(red, big, small): all a colour pattern reads."""
        if self._colours is not None:
            return self._colours
        if self.wang:  # counted, not packed (see counts)
            n = self.counts
            return sum(n[c] for c in _RED), sum(n[10:]), sum(n[:10])
        return colour_key(self.bits)

    # Given colours (``colours=``) are read as given: a 王 class's counts, or one count
    # alone when the settlement asks an axis's patterns for every count (scoring.py).
    @property
    def red(self) -> int:
        if self._colours is not None or self.wang:
            return self.colour_key()[0]
        return field_sum(self.bits & RED_FIELDS)

    @property
    def big(self) -> int:
        if self._colours is not None or self.wang:
            return self.colour_key()[1]
        return field_sum(self.bits >> 30)

    @property
    def small(self) -> int:
        if self._colours is not None or self.wang:
            return self.colour_key()[2]
        return field_sum(self.bits & MASK30)


def colour_key(b: int) -> tuple[int, int, int]:
    """(red, big, small) of cards packed 3 bits a kind: all a colour 名堂 reads."""
    fs = FIELD_SUM
    r = b & RED_FIELDS
    red = fs[r & 0x7FFF] + fs[r >> 15 & 0x7FFF] + fs[r >> 30 & 0x7FFF] + fs[r >> 45]
    big = fs[b >> 30 & 0x7FFF] + fs[b >> 45]
    return red, big, fs[b & 0x7FFF] + fs[b >> 15 & 0x7FFF]


def field_sum(bits: int) -> int:
    """Sum of the 3-bit fields of ``bits`` (:data:`FIELD_SUM` 15 bits at a time)."""
    n = 0
    while bits:
        n += FIELD_SUM[bits & 0x7FFF]
        bits >>= 15
    return n


_L5 = LOW & 0x7FFF
# Sum of the five 3-bit fields of each 15-bit number: weighted popcounts, once.
FIELD_SUM = bytes(
    (b & _L5).bit_count() + 2 * (b & _L5 << 1).bit_count() + 4 * (b & _L5 << 2).bit_count()
    for b in range(1 << 15)
)


class Mingtang:
    """A pattern: ``measure`` returns the count it is judged by, or None if absent.

    A pattern that can occur several times in one hand (团圆, 归) sets
    ``per_occurrence``: ``measure`` then counts the occurrences and each earns
    the rule's 番 (added or multiplied like separate 名堂, per ``fan_combine``).
    ``structural`` patterns depend on how the hand splits into 门子, not only
    on its cards (see ``Rules.decomposition``).
    """

    id: ClassVar[str]
    name: ClassVar[str]
    per_occurrence: ClassVar[bool] = False
    structural: ClassVar[bool] = False
    exact: ClassVar[bool] = False  # ``threshold`` is an exact value, not a minimum
    # ``measure`` reads only ``ctx.red``/``big``/``small``: its verdict is memoised on them;
    # ``axis`` says which one (0 red, 1 big, 2 small).
    colour: ClassVar[bool] = False
    axis: ClassVar[int] = -1
    # ``measure`` reads only the position's flags (自摸, 海底, 天胡, 地胡, 听胡) and whether
    # one card is left in hand: the settlement memoises its verdict on them (scoring.py).
    flag: ClassVar[bool] = False
    # ``measure`` reads how many cards of each kind the hand holds (团圆, 归): with 王 it
    # depends on the kinds they stand for, not only on their colours and sizes.
    kinds: ClassVar[bool] = False
    # What a pattern that is neither colour nor flag reads, when the hand has a winning
    # card and no 王 (``at_deal`` False): fields of ``ctx.profile`` (profile.py's names,
    # lower case), "huxi" (``ctx.huxi``), "red" (``ctx.red``) and "fours" (which kinds
    # are held four times). The settlement memoises its verdict on exactly these.
    reads: ClassVar[frozenset[str]] = frozenset()

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        raise NotImplementedError

    def refuses(self, position: Position) -> bool:
        """True when the position alone shows the pattern absent (no :class:`Context`
        needed); False means "ask :meth:`measure`"."""
        return False

    def refusal(self, rules: Rules, rule: MingtangRule) -> Refusal | None:
        """What shows, under ``rules``, the pattern absent from every split of a position
        with a winning card and no 王 before any split is made (:mod:`.refusals`). None:
        nothing does; ask :meth:`measure` of each split."""
        return None

    def fan(self, ctx: Context, rule: MingtangRule, combine: str = "add") -> int:
        """番 this hand earns from the pattern (0 when it does not apply)."""
        n = self.measure(ctx, rule)
        return 0 if n is None else self.fan_of(n, rule, combine)

    def fan_of(self, n: int, rule: MingtangRule, combine: str = "add") -> int:
        """番 of the pattern present with measure ``n`` (what :meth:`measure` returned)."""
        if self.per_occurrence:
            if n <= 0:
                return 0
            return rule.fan * n if combine == "add" else rule.fan**n
        f = rule.fan + rule.per_extra * max(0, n - rule.threshold)
        return min(f, rule.max_fan) if rule.max_fan else f


class HongHu(Mingtang):
    """红胡: at least ``threshold`` (10) red cards among the 门子 (and at most ``upto``,
    when set: 红转朱黑); +番 per extra red."""

    id, name = "honghu", "红胡"
    colour = True
    axis = 0

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        n = ctx.red
        return n if n >= rule.threshold and (not rule.upto or n <= rule.upto) else None


class XiaoHong(HongHu):
    """小红 (衡阳): ``threshold``–``upto`` red cards (8–9)."""

    id, name = "xiaohong", "小红"


class DaHong(HongHu):
    """大红 (衡阳): at least ``threshold`` red cards (10)."""

    id, name = "dahong", "大红"


class ShiHong(HongHu):
    """十红 (娄底): ``threshold``–``upto`` red cards (10–12)."""

    id, name = "shihong", "十红"


class ShiSanHong(HongHu):
    """十三红 (娄底): at least ``threshold`` red cards (13)."""

    id, name = "shisanhong", "十三红"


class YiKuaiBian(Mingtang):
    """一块匾 (娄底): two or more red cards, every one of them in a single 门子."""

    id, name = "yikuaibian", "一块匾"
    structural = True
    reads = frozenset({"red", "red_melds"})

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        if ctx.position.at_deal or ctx.red < 2:
            return None
        return 0 if get(ctx.profile, RED_MELDS) == 1 else None

    def refusal(self, rules: Rules, rule: MingtangRule) -> Refusal:
        return refusals.red_outside(2, 4)  # one 门子 holds at most 4 cards


class ErShiKa(Mingtang):
    """二十卡 (娄底): the scored split has exactly ``threshold`` (20) 胡息."""

    id, name = "ershika", "二十卡"
    structural = True
    exact = True
    reads = frozenset({"huxi"})

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return 0 if not ctx.position.at_deal and ctx.huxi == rule.threshold else None

    def refusal(self, rules: Rules, rule: MingtangRule) -> Refusal:
        return refusals.exact(rule.threshold)


class SanShiKa(ErShiKa):
    """三十卡 (娄底): the scored split has exactly ``threshold`` (30) 胡息."""

    id, name = "sanshika", "三十卡"


class DianHu(Mingtang):
    """点胡: exactly one red card."""

    id, name = "dianhu", "点胡"
    colour = True
    axis = 0

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return 1 if ctx.red == 1 else None


class WuHu(Mingtang):
    """乌胡 (黑胡): no red card at all."""

    id, name = "wuhu", "乌胡"
    colour = True
    axis = 0

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return 0 if ctx.red == 0 else None


class DuiziHu(Mingtang):
    """对子胡 (碰碰胡): no 句 and no 绞 — only 碰/偎/坎/跑/提 and the 将."""

    id, name = "duizihu", "对子胡"
    structural = True
    reads = frozenset({"runs"})

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        if self.refuses(ctx.position):
            return None
        return 0 if get(ctx.profile, RUNS) == 0 else None

    def refuses(self, position: Position) -> bool:
        p = position
        win = p.win
        if win is None:  # a 王 drawn (no cheap refusal), or a mandatory 天胡: it need
            return not p.win_wang  # not form 门子 at all (R28)
        if p.wang:
            return False
        return refusals.no_duizi().refuses(p, 0)  # (one Refusal, made once)

    def refusal(self, rules: Rules, rule: MingtangRule) -> Refusal:
        return refusals.no_duizi()


class DaziHu(Mingtang):
    """大字胡: at least ``threshold`` (18) 大字; +番 per extra, capped."""

    id, name = "dazihu", "大字胡"
    colour = True
    axis = 1

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return ctx.big if ctx.big >= rule.threshold else None


class XiaoziHu(Mingtang):
    """小字胡: at least ``threshold`` (16) 小字; +番 per extra, capped."""

    id, name = "xiaozihu", "小字胡"
    colour = True
    axis = 2

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return ctx.small if ctx.small >= rule.threshold else None


class ShuaHou(Mingtang):
    """耍猴 (单钓): won with a single card left in the concealed hand."""

    id, name = "shuahou", "耍猴"
    flag = True

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        p = ctx.position
        return 0 if not p.at_deal and len(p.hand) + p.wang == 1 else None


class HaiHu(Mingtang):
    """海胡 (常德) / 海底捞 (泸州): won on the last wall card that may be won — a 名堂
    there, not a doubling."""

    id, name = "haihu", "海胡"
    flag = True

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return 0 if ctx.position.last_card else None


class TianHu(Mingtang):
    """天胡 as a 名堂 (常德)."""

    id, name = "tianhu", "天胡"
    flag = True

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return 0 if ctx.position.tianhu else None


class DiHu(Mingtang):
    """地胡 as a 名堂 (常德)."""

    id, name = "dihu", "地胡"
    flag = True

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return 0 if ctx.position.dihu else None


class TingHu(Mingtang):
    """听胡 (常德): won without ever taking a card in (重跑 does not count).

    Only the engine knows the history: it sets ``extra["tinghu"]`` on the position.
    """

    id, name = "tinghu", "听胡"
    flag = True

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return 0 if dict(ctx.position.extra).get("tinghu") else None


class TuanYuan(Mingtang):
    """团圆 (常德): all eight cards of one point (四个壹 + 四个一); 番 per such point."""

    id, name = "tuanyuan", "团圆"
    per_occurrence = True
    kinds = True
    reads = frozenset({"fours"})

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        n = ctx.counts
        k = sum(1 for p in range(10) if n[p] == 4 and n[p + 10] == 4)
        return k or None

    def refusal(self, rules: Rules, rule: MingtangRule) -> Refusal:
        return refusals.no_eight()


class Gui(Mingtang):
    """归 (泸州 大二名堂): all four copies of a card held (as 招/垅 or spread over
    门子); 番 per such card."""

    id, name = "gui", "归"
    per_occurrence = True
    kinds = True
    reads = frozenset({"fours"})

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        k = ctx.counts.count(4)
        return k or None


class ZiMo(Mingtang):
    """自摸 as a 名堂 (泸州 大二名堂): won on a card the winner turned up himself."""

    id, name = "zimo", "自摸"
    flag = True

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        p = ctx.position
        return 0 if p.self_drawn and not p.tianhu else None


class HangHangXi(Mingtang):
    """行行息 (常德): every one of the 7 门子 has 胡息."""

    id, name = "hanghangxi", "行行息"
    structural = True
    reads = frozenset({"melds", "bare", "bare_jiang"})

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        if ctx.position.at_deal:
            return None  # a mandatory 天胡 shows no 7 门子 (R28)
        p = ctx.profile
        return 0 if get(p, MELDS) == 7 and get(p, BARE) + get(p, BARE_JIANG) == 0 else None

    def refusal(self, rules: Rules, rule: MingtangRule) -> Refusal:
        return refusals.bare(rules, pair_allowed=False)


class JiaHangHang(Mingtang):
    """假行行 (常德): six 门子 with 胡息 plus the 将 pair."""

    id, name = "jiahanghang", "假行行"
    structural = True
    reads = frozenset({"melds", "jiang", "bare"})

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        if ctx.position.at_deal:
            return None
        p = ctx.profile
        pairs = get(p, JIANG)
        return 0 if pairs and get(p, MELDS) - pairs == 6 and get(p, BARE) == 0 else None

    def refusal(self, rules: Rules, rule: MingtangRule) -> Refusal:
        return refusals.bare(rules, pair_allowed=True)


class SiQiHong(Mingtang):
    """四七红 (常德): exactly 4 or 7 red cards."""

    id, name = "siqihong", "四七红"
    colour = True
    axis = 0

    def measure(self, ctx: Context, rule: MingtangRule) -> int | None:
        return ctx.red if ctx.red in (4, 7) else None


PATTERNS: dict[str, Mingtang] = {
    m.id: m
    for m in (
        HongHu(),
        DianHu(),
        WuHu(),
        DuiziHu(),
        DaziHu(),
        XiaoziHu(),
        ShuaHou(),
        HaiHu(),
        TianHu(),
        DiHu(),
        TingHu(),
        TuanYuan(),
        HangHangXi(),
        JiaHangHang(),
        SiQiHong(),
        ZiMo(),
        Gui(),
        XiaoHong(),
        DaHong(),
        ShiHong(),
        ShiSanHong(),
        YiKuaiBian(),
        ErShiKa(),
        SanShiKa(),
    )
}
if set(PATTERNS) != set(MINGTANG_IDS):  # pragma: no cover - a developer's slip
    raise ImportError("mingtang.PATTERNS and rules.MINGTANG_IDS disagree")


@dataclass(frozen=True, slots=True)
class MingtangHit:
    """One 名堂 a hand earned: its 番, or (``effect``) the units or base score it brings."""

    id: str
    name: str
    fan: int
    effect: Effect = Effect.FAN


_Entry = tuple[int, "Mingtang", MingtangRule, str, Effect]


@dataclass(frozen=True)
class Compiled:
    """The 名堂 that count under one rules object (R36: mode and level), in the
    preset's order, split into colour patterns (memoised on the red/big/small
    counts) and the rest (asked each time)."""

    colour: tuple[_Entry, ...]
    others: tuple[_Entry, ...]
    combine: str
    memo: dict[tuple[int, int, int], tuple[tuple[int, MingtangHit], ...]]
    # ``others`` that read more than the position's flags (对子胡, 团圆, 行行息 …): what
    # the settlement's memo cannot key on and asks each time.
    residual: tuple[_Entry, ...] = ()
    # Which colour counts any of them reads: bit 0 red, bit 1 big (or small, its
    # complement). A 王's kind is told apart by these only (R40, R46: wang.split_classes).
    axes: int = 3


@per_rules
def compiled(rules: Rules) -> Compiled:
    allowed = LEVELS[1 : LEVELS.index(rules.effective_level) + 1]
    entries = [
        (i, PATTERNS[r.id], r, r.name or PATTERNS[r.id].name, r.effect)  # Rules validates ids
        for i, r in enumerate(rules.mingtang)
        if r.level in allowed
    ]
    return Compiled(
        tuple(e for e in entries if e[1].colour),
        tuple(e for e in entries if not e[1].colour),
        rules.fan_combine,
        {},
        tuple(e for e in entries if not e[1].colour and not e[1].flag),
        _axes([e[1] for e in entries]),
    )


def _axes(patterns: list[Mingtang]) -> int:
    """:attr:`Compiled.axes` of these patterns."""
    axes = 0
    for p in patterns:
        if p.colour:
            axes |= 1 if p.axis == 0 else 2
        elif "red" in p.reads:
            axes |= 1
    return axes


def _hits(ctx: Context, entries: tuple[_Entry, ...], combine: str) -> list[tuple[int, MingtangHit]]:
    out = []
    for i, pattern, rule, name, effect in entries:
        f = pattern.fan(ctx, rule, combine)
        if f:
            out.append((i, MingtangHit(rule.id, name, f, effect)))
    return out


def find(ctx: Context, rules: Rules) -> tuple[MingtangHit, ...]:
    """Every enabled 名堂 of the preset that the hand has, in the preset's order.

    ``scoring_mode`` ``deng`` counts none, ``hongwu`` only the 基本 level (泸州's
    红/乌), ``mingtang`` every level up to ``mingtang_level`` (R36).
    """
    c = compiled(rules)
    hits: list[tuple[int, MingtangHit]] = []
    if c.colour:
        key = ctx.colour_key()
        got = c.memo.get(key)
        if got is None:
            got = c.memo[key] = tuple(_hits(ctx, c.colour, c.combine))
        hits += got
    if c.others:
        hits += _hits(ctx, c.others, c.combine)
        if c.colour:
            hits.sort(key=_first)
    return tuple(h for _, h in hits)


_first = itemgetter(0)
