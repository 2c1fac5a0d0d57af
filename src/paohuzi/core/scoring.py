"""算分 (suànfēn): settle a winning hand — 胡息 → 等 → 名堂/番 → 底 → payments (R34–R37).

The units (等, or a region's 囤/子/息, ``Rules.unit``) are ``Rules.deng`` of the
doubled 胡息, plus the 自摸 bonus, plus any 名堂 that adds units (桂林 海底 +2 子),
plus 醒数 (R42, × 2 with 双醒); a 名堂 that sets the base (娄底's +100 名堂)
replaces the 胡息-derived part. 底 = units × 番 (番 added or multiplied).

:func:`settle` never raises for a hand that does not win: the result carries
``error`` = ``"not_winning"`` or ``"below_min_huxi"`` (like the mahjong
package's result objects), so batch scoring can go on.

Which split into 7 门子 is scored is a rules field. ``decomposition = "huxi"``
(R26, the default): the one with most 胡息, straight from the fast evaluator.
``"di"`` (常德, whose 行行息/假行行/对子胡 depend on the split): every split
whose own 胡息 reaches ``min_huxi`` is settled and the one worth the most 底
is claimed (ties: more 胡息) — what a careful player announces at the table.
When no 名堂 in use reads the split, that is the most-胡息 split (everything else
is the same for every split), which is then settled alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from functools import partial, update_wrapper
from operator import attrgetter
from typing import Any

from .cards import CARDS, Card
from .evaluator import KERNEL, evaluator_for
from .melds import Group, GroupKind, shared_group
from .mingtang import PATTERNS, Context, MingtangHit, compiled, find
from .position import Position
from .profile import BARE, BARE_JIANG, BITS, JIANG, MELDS, RED_MELDS, RUNS, of_split
from .refusals import EXACT
from .rules import (
    HUNAN,
    Decomposition,
    DengRule,
    Effect,
    FanCombine,
    HuangzhuangRule,
    Payment,
    Rules,
    per_rules,
)
from .wang import class_split, split_classes, wild_splits

_K = GroupKind


class Split:
    """The 门子 of a split (and their 胡息), built on first use: the evaluator's best
    split (its plan), or the first split :func:`decompositions` lists with a given
    (胡息, profile) — what a best-score settlement compares (R46).

    Plain data (rules, position, the evaluator's plan), so a settlement holding
    one still pickles and compares.
    """

    __slots__ = ("named", "plan", "position", "rules", "value")

    def __init__(
        self,
        rules: Rules,
        position: Position,
        plan: tuple[int, int, bool, str] | None,
        value: tuple[tuple[Group, ...], tuple[int, ...]] | None = None,  # a split at hand
        named: tuple[int, int] | None = None,  # (胡息, profile) of the split meant
    ):
        self.rules, self.position, self.plan = rules, position, plan
        self.value, self.named = value, named

    def get(self) -> tuple[tuple[Group, ...], tuple[int, ...]]:
        if self.value is None:
            if self.plan is not None:
                groups = evaluator_for(self.rules).split(self.position, self.plan)
                self.value = (groups, tuple(g.huxi(self.rules) for g in groups))
            else:
                self.value = _first_split(self.rules, self.position, self.named)
        return self.value

    def profile(self, whole: bool = True) -> int:
        """The split's :mod:`~paohuzi.core.profile`: looked up from the plan while the
        groups are unbuilt (``whole`` False: the counts of 门子, runs and 将 only, see
        ``HandEvaluator.profile``), else counted from them."""
        if self.value is None:
            if self.named is not None:
                return self.named[1]
            assert self.plan is not None
            return evaluator_for(self.rules).profile(self.position, self.plan, whole)
        return of_split(*self.value)


def _first_split(
    rules: Rules, p: Position, named: tuple[int, int] | None
) -> tuple[tuple[Group, ...], tuple[int, ...]]:
    """The first split :func:`decompositions` lists with (胡息, profile) ``named``."""
    for groups in decompositions(p, rules.yiwushi):
        gh = tuple([g.huxi(rules) for g in groups])
        if (sum(gh), of_split(groups, gh)) == named:
            return groups, gh
    raise ValueError(f"no split of the position has (胡息, profile) {named}")


_FIELDS = (
    "win",
    "huxi",  # 胡息 of the scored split, before doubling
    "scored_huxi",  # after the doublings of R35
    "deng",
    "fan",
    "di",
    "mingtang",
    "groups",
    "group_huxi",
    "error",
    "doubled",
    "zimo",
    "huang_multiplier",
    "xing",  # 醒数 as counted in the units (R42; doubled with 双醒)
    "unit",
    "wang",  # R40: the card each 王 stands for in the scored split
)


class Settlement:
    """The 结算 of one position under one rules object (read-only attributes).

    ``groups``/``group_huxi`` may come as a :class:`Split` (``split=``): they
    are then built only when read — most callers (self-play, search, a batch
    score) only want 胡息, 等, 番 and 底.
    """

    __slots__ = (*(f"_{k}" for k in _FIELDS), "_split")

    win: bool
    huxi: int
    scored_huxi: int
    deng: int
    fan: int
    di: int
    mingtang: tuple[MingtangHit, ...]
    error: str | None
    doubled: tuple[str, ...]
    zimo: bool
    huang_multiplier: int
    xing: int
    unit: str
    wang: tuple[Card, ...]

    def __init__(
        self,
        win: bool,
        huxi: int,
        scored_huxi: int,
        deng: int,
        fan: int,
        di: int,
        mingtang: tuple[MingtangHit, ...],
        groups: tuple[Group, ...],
        group_huxi: tuple[int, ...],
        error: str | None,
        doubled: tuple[str, ...] = (),
        zimo: bool = False,
        huang_multiplier: int = 1,
        xing: int = 0,
        unit: str = "等",
        wang: tuple[Card, ...] = (),
        split: Split | _ClassSplit | None = None,
    ) -> None:
        # Private slots behind read-only properties: as cheap to build as a plain
        # object (a frozen dataclass's object.__setattr__ per field costs ~5×).
        self._win, self._huxi, self._scored_huxi = win, huxi, scored_huxi
        self._deng, self._fan, self._di, self._mingtang = deng, fan, di, mingtang
        self._groups, self._group_huxi, self._error = groups, group_huxi, error
        self._doubled, self._zimo, self._huang_multiplier = doubled, zimo, huang_multiplier
        self._xing, self._unit, self._wang, self._split = xing, unit, wang, split

    @property
    def groups(self) -> tuple[Group, ...]:
        return self._split.get()[0] if self._split is not None else self._groups

    @property
    def group_huxi(self) -> tuple[int, ...]:
        return self._split.get()[1] if self._split is not None else self._group_huxi

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, k) for k in _FIELDS)

    def _with(self, groups: tuple[Group, ...], group_huxi: tuple[int, ...]) -> Settlement:
        """These fields with other 门子 (a template of the memo made whole)."""
        v = self._values()  # (_FIELDS: groups and group_huxi are the 8th and 9th)
        return Settlement(*v[:7], groups, group_huxi, *v[9:])  # type: ignore[call-arg]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Settlement):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "Settlement(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in _FIELDS) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Settlement, self._values())

    def to_dict(self) -> dict[str, Any]:
        """The ``paohuzi score --json`` object (INTERFACES.md §1), plus extra keys."""
        return {
            "win": self.win,
            "huxi": self.huxi,
            "deng": self.deng,
            "fan": self.fan,
            "di": self.di,
            "mingtang": [{"name": m.name, "fan": m.fan, "id": m.id} for m in self.mingtang],
            "groups": [
                {"kind": g.kind.value, "cards": g.zh, "huxi": h}
                for g, h in zip(self.groups, self.group_huxi, strict=True)
            ],
            "error": self.error,
            "scored_huxi": self.scored_huxi,
            "doubled": list(self.doubled),
            "zimo": self.zimo,
            "huang_multiplier": self.huang_multiplier,
            "xing": self.xing,
            "unit": self.unit,
            **({"wang": [c.code for c in self.wang]} if self.wang else {}),
        }


for _k in _FIELDS:
    if _k not in ("groups", "group_huxi"):
        setattr(Settlement, _k, property(attrgetter(f"_{_k}")))


class _Shared(Settlement):
    """A :class:`Settlement` of :func:`settle`'s memoised path: every field but the
    门子 is read from a template (``_t``, a plain settlement without groups) that the
    memo shares between positions alike; the 门子 are built from the evaluator's
    plan when first read (as :class:`Split` does). One object of four slots instead
    of a :class:`Split` and seventeen; it compares, hashes, prints and pickles as a
    :class:`Settlement` (``__reduce__`` makes a plain one)."""

    __slots__ = ("_p", "_plan", "_rules", "_t")

    def __init__(
        self, t: Settlement, rules: Rules, p: Position, plan: tuple[int, int, bool, str] | None
    ) -> None:
        self._t, self._rules, self._p, self._plan = t, rules, p, plan

    def _built(self) -> tuple[tuple[Group, ...], tuple[int, ...]]:
        try:
            split = self._split
        except AttributeError:  # (set when a 名堂 of the memo's key built it first)
            plan = self._plan
            if plan is None:  # made by the C path, which leaves the plan to be asked again
                plan = evaluator_for(self._rules).plan(self._p)[1]  # (groups are seldom read)
                assert plan is not None  # (a settlement with a shape)
            split = self._split = Split(self._rules, self._p, plan)
        assert split is not None
        return split.get()

    @property
    def groups(self) -> tuple[Group, ...]:
        return self._built()[0]

    @property
    def group_huxi(self) -> tuple[int, ...]:
        return self._built()[1]


for _k in _FIELDS:
    if _k not in ("groups", "group_huxi"):
        setattr(_Shared, _k, property(attrgetter(f"_t._{_k}")))


class _Scorer:
    """What the settlement's common path reads of one rules object, looked up once.

    The common path: no 王 (R39–R41), a winning card (not a mandatory 天胡, R28)
    and the most-胡息 split scored (R26: ``decomposition = "huxi"``, or ``"di"`` with
    no 名堂 in use that reads the split). There
    the 名堂/番 (R36) and what they add to 等 depend only on the cards' (red, big,
    small) counts — through the colour 名堂 each count earns (``ids``) — on the
    position's flags (自摸, 海底, 天胡, 地胡, 听胡, one card left in hand: 耍猴)
    and on the 名堂 that read more (``residual``: 对子胡, 团圆 …, asked each
    time); ``memo`` keeps them per such key, ``won`` the fields of a settlement per
    key, 胡息 (R34, R35), 荒庄 count and 醒数 (R42, when not 0), ``below`` those of a
    hand below 起胡.
    """

    __slots__ = (
        "axes",
        "below",
        "by_class",
        "colour",
        "combine",
        "entries",
        "ev",
        "every",
        "exact",
        "fast",
        "flagged",
        "flags",
        "found",
        "huang",
        "ids",
        "masks",
        "memo",
        "min_huxi",
        "named",
        "native",
        "read",
        "record",
        "refusals",
        "residual",
        "rfound",
        "rids",
        "rmask",
        "rules",
        "rverdicts",
        "sights",
        "tinghu",
        "unit",
        "verdicts",
        "wild",
        "won",
        "xing",
    )

    def __init__(self, rules: Rules) -> None:
        c = compiled(rules)
        self.rules, self.ev = rules, evaluator_for(rules)
        # The most-胡息 split is the one scored (R26), or — settling every split (``di``)
        # — the one worth most whenever no 名堂 in use reads the split: the 名堂, 番 and
        # 醒 are then the same for every split, and 等 grows with 胡息 (R34, 番 ≥ 0).
        self.fast = rules.decomposition != Decomposition.DI or not _structural(rules)
        self.xing = 2 if rules.xing_double else 1  # what one 醒 card adds (R42)
        self.min_huxi, self.unit, self.huang = rules.min_huxi, rules.unit, rules.huangzhuang
        self.colour, self.residual, self.combine = c.colour, c.residual, c.combine
        self.tinghu = any(e[1].id == "tinghu" for e in c.others)
        # The colour 名堂 by the count they read (0 red, 1 big, 2 small). Per axis and
        # count, ``ids`` holds an id of the (preset index, 番) of those the count earns
        # (−1: not asked yet), ``verdicts`` the ids by those tuples.
        self.axes = tuple(tuple(e for e in c.colour if e[1].axis == a) for a in range(3))
        if sum(map(len, self.axes)) != len(c.colour):  # pragma: no cover - a developer's slip
            raise TypeError("a colour 名堂 without an axis (0 red, 1 big, 2 small)")
        self.ids = ([-1] * 81, [-1] * 81, [-1] * 81)  # (a count is at most 80 cards)
        self.verdicts: tuple[dict[tuple[tuple[int, int], ...], int], ...] = ({}, {}, {})
        # The 名堂 that read the split or the kinds (``residual``: 对子胡, 行行息, 团圆 …):
        # their verdicts by what they read (Mingtang.reads, packed by _read_key, masked
        # by ``rmask``); ``rids`` gives the id of those verdicts (``rverdicts``; 0: none
        # earned), set in the memo key above the colour bytes. ``rids`` is bounded and
        # cleared; ``rverdicts`` (a few verdicts) never is: an id, once given, stands
        # (the C path keeps ids it has read).
        if any(not e[1].reads for e in c.residual):  # pragma: no cover - a developer's slip
            raise TypeError("a 名堂 neither colour nor flag must say what it reads")
        reads = {name for e in c.residual for name in e[1].reads}
        self.rmask = sum(_READS[name] for name in reads)
        # Per residual 名堂 (a bit each, in order), its refusal at sight (Mingtang.refusal,
        # :mod:`.refusals`): ``refusals`` the Python tests, ``sights`` the same as data for
        # the C path; ``masks`` what each set of those not refused reads (up to 8 名堂).
        self.every = every = (1 << len(c.residual)) - 1
        tests = [
            (1 << j, r)
            for j, e in enumerate(c.residual)
            if (r := e[1].refusal(rules, e[2])) is not None and every < 256
        ]
        self.refusals = tuple((bit, r.refuses) for bit, r in tests)
        self.sights = tuple((bit, r.test, r.a, r.b) for bit, r in tests)
        self.exact = tuple((bit, r.a) for bit, r in tests if r.test == EXACT)
        sets = range(every + 1) if every < 256 else (every,)
        self.masks = {live: _reads_of(c.residual, live) for live in sets}
        # the plan's split read after it (its profile, the R46 count): the plan keeps it
        self.record = not self.fast or bool(self.rmask & _PROFILE)
        self.rids: dict[Any, int] = {}
        self.rverdicts: dict[tuple[tuple[int, int], ...], int] = {(): 0}
        # A new memo key's 名堂 are put together from its parts (_hits_of), not asked
        # again: the verdicts by id (``found`` per colour axis, ``rfound``: lists that
        # catch up with the dicts when an id is new to them), the flag 名堂's by the
        # key's flag bits (``flagged``), each entry by its index in the preset.
        self.found: tuple[list[_Found], ...] = ([], [], [])
        self.rfound: list[_Found] = []
        self.flags = tuple(e for e in c.others if e[1].flag)
        self.flagged: dict[int, _Found] = {}
        self.entries = {e[0]: e for e in (*c.colour, *c.others)}
        self.named: dict[_Found, tuple[tuple[MingtangHit, ...], int | None, int, int]] = {}
        self.memo: dict[Any, _Scored] = {}
        # The templates of _Shared: by (memo key, 胡息, 荒庄) for a win, by 胡息 below 起胡.
        self.won: dict[tuple[Any, ...], Settlement] = {}  # (key, 胡息, 荒庄[, 醒数])
        self.below: dict[int, Settlement] = {}
        # 王 settlements by what a class of splits reads (_settle_classes).
        self.wild: dict[tuple[Any, ...], Settlement] = {}
        self.read = c.axes  # the colour counts a 名堂 reads (bit 0 red, bit 1 big/small)
        self.by_class = not _by_split(rules)
        self.native = _settler(self)


def _reads_of(residual: tuple[Any, ...], live: int) -> int:
    """What the residual 名堂 of the set ``live`` (a bit each, in order) read (_READS)."""
    names = {n for j, e in enumerate(residual) if live >> j & 1 for n in e[1].reads}
    return sum(_READS[n] for n in names)


def _settler(sc: _Scorer) -> Any:
    """The common path in C (``_kernel.Settler``, when the kernel is built): the plan,
    the memo key and the result made as :func:`settle` makes them, the templates read
    from ``sc``'s memos (the same objects, never rebound)."""
    kernel = sc.ev._kernel
    if kernel is None:
        return None
    return KERNEL.Settler(
        kernel,
        sc.rules,
        sc.min_huxi,
        sc.ids,
        sc.won,
        sc.below,
        _NOT_WINNING,
        _Shared,
        bool(sc.colour),
        _missed,
        sc.rmask,
        sc.rids,
        sc.tinghu,
        not sc.fast,
        sc.sights,
        tuple(sc.masks.values()) if 0 < sc.every < 256 else (),
        _templates(sc),
    ).settle


def _templates(sc: _Scorer) -> tuple[Any, ...] | None:
    """What the C path reads to make a template itself for a memo key whose 名堂 are
    known (:func:`_won`'s arithmetic: 等 of R34, 黄番 of R32): the memo, the Settlement
    type and its slots, 等's base, step and offset, the unit and the 黄番 — or None for a
    DengRule or HuangzhuangRule of a developer's own (its ``__call__`` may differ), which
    leaves every template to :func:`_missed`."""
    d, h, rules = sc.rules.deng, sc.huang, sc.rules
    if type(d) is not DengRule or type(h) is not HuangzhuangRule or len(h.fan) > 8:
        return None
    base = rules.min_huxi if d.from_min else d.base
    return (sc.memo, Settlement, Settlement.__slots__, base, d.step, d.offset, sc.unit, h.fan)


def _missed(
    rules: Rules, p: Position, key: Any, huxi: int, huang: int, plan: tuple[int, int, bool, str]
) -> Settlement:
    """The C path's template miss: the template of ``key`` with ``huxi`` made (and kept)
    as the Python path makes it. (Handed the rules, not the scorer: a scorer holding
    the C object that held it would be a cycle the collector cannot see.) The split
    is made only for a key whose 名堂 are not known yet (only they read it)."""
    last = _last
    sc = last[1] if last[0] is rules else _scorer(rules)
    split = Split(rules, p, plan) if key not in sc.memo else None
    return _won(sc, key, p, huxi, huang, split, (key, huxi, huang), 0)


# (doubled, doublings, 名堂, 底 set by a 名堂 or None, units added, 番): see _Scorer.
_Found = tuple[tuple[int, int], ...]  # (the 名堂's index in the preset, its 番), in order
_Scored = tuple[tuple[str, ...], int, tuple[MingtangHit, ...], int | None, int, int]
_scorer = per_rules(_Scorer)
_NOT_WINNING = Settlement(False, 0, 0, 0, 0, 0, (), (), (), "not_winning")


_last: tuple[Rules | None, Any] = (None, None)


def _remember(rules: Rules) -> _Scorer:
    global _last
    sc = _scorer(rules)
    _last = (rules, sc)  # one tuple: a thread reads a consistent pair
    if _FRONT is not None:  # the C front settles these rules straight from now on
        _FRONT.remember(rules, sc.native, partial(_in_python, sc) if sc.native else None)
    return sc


def _settle_slow(position: Position, rules: Rules = HUNAN, huang: int = 0) -> Settlement:
    """Score ``position``; ``huang`` is the number of 荒庄 just before (黄番)."""
    p = position
    last = _last  # the rules of the call before (self-play and a batch score one preset)
    sc = last[1] if last[0] is rules else _remember(rules)
    if sc.native is not None:
        s = sc.native(p, huang)
        if s is not None:
            return s
    return _in_python(sc, p, huang)


def _front() -> Any:
    """The C front door of :func:`settle` (``_kernel.Front``, with the kernel): a call
    with the rules of the call before goes straight to their ``Settler``, the rest to
    the Python :func:`settle`; it reads as that function (name, doc, signature)."""
    if KERNEL is None:
        return None
    f = KERNEL.Front(_settle_slow, HUNAN)
    update_wrapper(f, _settle_slow)
    return f


_settle_slow.__name__ = _settle_slow.__qualname__ = "settle"  # (what it stands for)
_FRONT = _front()
settle: Callable[..., Settlement] = _FRONT or _settle_slow

IMPOSSIBLE = Settlement(False, 0, 0, 0, 0, 0, (), (), (), "impossible_position")


def evaluate(position: Position, rules: Rules = HUNAN, huang: int = 0) -> Settlement:
    """算分 (the hand calculator): :func:`settle` for a position that can occur under
    ``rules``; for one that cannot (a deal size, 王, 一五十, 天胡/地胡 or 醒牌 these rules
    do not have: :func:`~paohuzi.core.validity.position_problem` says which), a result
    whose ``error`` is ``"impossible_position"`` — the check ``paohuzi score`` makes,
    as a result, not an exception. Self-play and search call :func:`settle` itself."""
    from .validity import position_problem  # (validity reads positions and rules only)

    if position_problem(position, rules) is not None:
        return IMPOSSIBLE
    return settle(position, rules, huang)


def _in_python(sc: _Scorer, p: Position, huang: int) -> Settlement:
    """:func:`settle` in Python: every position, and what fills the memos the C path
    reads (it answers None for a colour count not asked yet)."""
    rules = sc.rules
    if p.wang or p.win_wang:
        return _settle_wild(p, rules, huang, sc)
    if p.win is None:
        return _settle(p, rules, huang)
    huxi, plan = sc.ev.plan(p, sc.record)
    if plan is None:
        return _NOT_WINNING  # immutable: one object serves every hand without a shape
    if huxi < sc.min_huxi:
        t = sc.below.get(huxi)
        if t is None:
            t = sc.below[huxi] = Settlement(
                False, huxi, huxi, 0, 0, 0, (), (), (), "below_min_huxi"
            )
        return _Shared(t, rules, p, plan)
    # The memo key (see _Scorer): flags, colour 名堂 earned, residual 名堂 earned.
    facts = p.facts  # (red, big, small) counts above the flags
    key: Any = facts & 31
    if sc.tinghu and p.extra and dict(p.extra).get("tinghu"):
        key |= 32
    if sc.colour:
        key |= _colour_ids(sc, p, facts)
    xing = 0
    if p.xing:  # R42: 醒数 from the packed cards (no 王 here: a kind holds at most 4)
        bits = p.card_bits
        xing = sum(bits >> 3 * x & 7 for x in p.xing) * sc.xing
    split = Split(rules, p, plan)
    live = _live(sc, p, huxi)
    # R46: another split may be worth more (娄底's 三十卡 …) — unless every 名堂 that reads
    # the split is absent from all of them: then they differ in 胡息 alone, the plan's most.
    several = False
    if live and not sc.fast:
        several = sc.ev.plan_splits(p, plan) > 1
        if not several:  # one split: an EXACT 名堂 (refusals.py) reads the plan's 胡息
            for bit, exact in sc.exact:
                if huxi != exact:
                    live &= ~bit
    t = _template(sc, key, p, huxi, huang, xing, split, live)
    s: Settlement = _Shared(t, rules, p, plan)
    if split.value is not None:
        s._split = split  # built for a 名堂 of the key (a _Shared's slot)
    if several:
        return _search(sc, key, p, huang, xing, t, s, live)
    return s


def _live(sc: _Scorer, p: Position, most: int) -> int:
    """The residual 名堂 (a bit each) not refused at sight (:mod:`.refusals`) for a
    position whose splits have at most ``most`` 胡息 (the C path asks the same tests)."""
    live = sc.every
    for bit, refuses in sc.refusals:
        if refuses(p, most):
            live &= ~bit
    return live


def _search(
    sc: _Scorer,
    key: Any,
    p: Position,
    huang: int,
    xing: int,
    t: Settlement,
    s: Settlement,
    live: int,
) -> Settlement:
    """R46: the best of every split (ties: the first :func:`decompositions` lists, the
    plan's ``s`` before all), when the 名堂 read the split. A split's template depends
    only on its (胡息, profile), so each of those is scored once and the groups are built
    only for a split that beats the plan's."""
    rules = sc.rules
    most = (t.di, t.huxi)
    tops: list[tuple[Settlement, Split]] = []  # the outcomes worth ``most``, above the plan's
    for h, prof in sc.ev.outcomes(p):
        if h >= sc.min_huxi:
            named = Split(rules, p, None, named=(h, prof))
            u = _template(sc, key, p, h, huang, xing, named, live)
            if (u.di, u.huxi) > most:
                most, tops = (u.di, u.huxi), [(u, named)]
            elif (u.di, u.huxi) == most and tops:
                tops.append((u, named))
    if not tops:
        return s
    if len(tops) == 1:  # one (胡息, profile) is worth the most: its first split, built when read
        u, named = tops[0]
        won = _Shared(u, rules, p, None)
        won._split = named
        return won
    for groups in decompositions(p, rules.yiwushi):
        gh = tuple([g.huxi(rules) for g in groups])
        h = sum(gh)
        if h >= sc.min_huxi:
            split = Split(rules, p, None, (groups, gh))
            u = _template(sc, key, p, h, huang, xing, split, live)
            if (u.di, u.huxi) == most:
                return u._with(groups, gh)
    raise AssertionError("a split worth the most was not listed")  # pragma: no cover


def _template(
    sc: _Scorer,
    key: Any,
    p: Position,
    huxi: int,
    huang: int,
    xing: int,
    split: Split,
    live: int,
) -> Settlement:
    """The memo's template of one split: ``key`` (flags, colour 名堂) completed with the
    id of what the ``live`` 名堂 that read the split earn (``sc.residual``, :func:`_residual`;
    none live: the split is not read)."""
    if live:
        key |= _residual(sc, p, huxi, split, live) << _RID
    wk = (key, huxi, huang, xing) if xing else (key, huxi, huang)
    t = sc.won.get(wk)
    return t if t is not None else _won(sc, key, p, huxi, huang, split, wk, xing)


# What a residual 名堂 reads (Mingtang.reads), packed as one int by _read_key: the
# split's profile (core/profile.py, bits 0–23), its 胡息 (10 bits), the red count (8)
# and the kinds held four times (20). core/_kernel.c packs the same.
_HUXI_AT, _RED_AT, _FOURS_AT = BITS, BITS + 10, BITS + 18
_READS = {
    "melds": 15 << MELDS,
    "runs": 15 << RUNS,
    "jiang": 15 << JIANG,
    "bare": 15 << BARE,
    "bare_jiang": 15 << BARE_JIANG,
    "red_melds": 15 << RED_MELDS,
    "huxi": 1023 << _HUXI_AT,
    "red": 255 << _RED_AT,
    "fours": (1 << 20) - 1 << _FOURS_AT,
}
_PROFILE = (1 << BITS) - 1
_SPLIT = _READS["bare"] | _READS["bare_jiang"] | _READS["red_melds"]  # need the split followed
_RID = 30  # the residual id's place in the memo key (above the flags and colour bytes)
_LOW = sum(1 << 3 * c for c in range(20))


def _read_key(sc: _Scorer, p: Position, huxi: int, split: Split, m: int) -> int:
    """What the residual 名堂 of mask ``m`` read of this split, as one int (see _READS)."""
    r = split.profile(bool(m & _SPLIT)) if m & _PROFILE else 0
    r |= min(huxi, 1023) << _HUXI_AT | (p.facts >> 21 & 0xFF) << _RED_AT
    f = p.card_bits >> 2 & _LOW  # kinds held 4 times (no 王 here: a field is at most 4)
    if f and m & _FOURS_READ:
        kinds = _KINDS.get(f)
        if kinds is None:
            if len(_KINDS) >= 1 << 14:  # bounded (the sets of fours met)
                _KINDS.clear()
            kinds = _KINDS[f] = sum(1 << c for c in range(20) if f >> 3 * c & 1)
        r |= kinds << _FOURS_AT
    return r & m


_FOURS_READ = _READS["fours"]
_KINDS: dict[int, int] = {}  # a packed field of kinds held 4 times → one bit per kind


def _residual(sc: _Scorer, p: Position, huxi: int, split: Split, live: int) -> int:
    """The id of what the ``live`` residual 名堂 earn on this split (0: none; the others
    are absent at sight), memoised on what they read (:func:`_read_key`) and, unless all
    are live, which are: (read key, live) — the C path makes the same keys."""
    r: Any = _read_key(sc, p, huxi, split, sc.masks[live])
    if live != sc.every:
        r = (r, live)
    rid = sc.rids.get(r) if huxi < 1023 else None
    if rid is None:
        ctx = Context(p, (), (), (), split, huxi)
        found = tuple(
            (i, f)
            for j, (i, pat, rule, _, _) in enumerate(sc.residual)
            if live >> j & 1 and (f := pat.fan(ctx, rule, sc.combine))
        )
        rid = sc.rverdicts.setdefault(found, len(sc.rverdicts))
        if len(sc.rids) >= 1 << 14:  # bounded (profiles × 胡息 met)
            sc.rids.clear()
        if huxi < 1023:
            sc.rids[r] = rid
    return rid


def _won(
    sc: _Scorer,
    key: Any,
    p: Position,
    huxi: int,
    huang: int,
    split: Split | None,
    wk: Any,
    xing: int,
) -> Settlement:
    """The template of a win under the memo's ``key`` with ``huxi`` and 醒数 ``xing``
    (R34–R37, R42): 等, 番, 底 and the 名堂 (memoised per key in ``sc.memo``), kept
    in ``sc.won`` under ``wk``. (``split``: None only when ``key`` is in the memo.)"""
    rules = sc.rules
    got = sc.memo.get(key)
    if got is None:
        assert split is not None, "a new memo key's 名堂 read its split"
        doubled = _doubled(p, rules)
        zimo = p.self_drawn or p.tianhu
        hits, base, units, fan = _hits_of(sc, key, p, huxi, split)
        got = (doubled, len(doubled), hits, base, units + (rules.zimo_bonus if zimo else 0), fan)
        if len(sc.memo) >= 1 << 12:  # bounded (a few dozen keys per rules in practice)
            sc.memo.clear()
        sc.memo[key] = got
    doubled, n, hits, base, units, fan = got
    h2 = huxi << n
    deng = (rules.deng(h2, rules.min_huxi) if base is None else base) + units + xing
    mult = sc.huang.multiplier(huang) if huang > 0 else 1
    zimo = p.self_drawn or p.tianhu
    t = Settlement(
        True,
        huxi,
        h2,
        deng,
        fan,
        deng * fan * mult,
        hits,
        (),
        (),
        None,
        doubled,
        zimo,
        mult,
        xing,
        sc.unit,
        (),
    )
    if len(sc.won) >= 1 << 14:  # bounded: a few dozen keys × the 胡息 seen
        sc.won.clear()
    sc.won[wk] = t
    return t


def _hits_of(
    sc: _Scorer, key: Any, p: Position, huxi: int, split: Split
) -> tuple[tuple[MingtangHit, ...], int | None, int, int]:
    """What :func:`~paohuzi.core.mingtang.find` finds on this split (R36), put together
    from the memo key's parts, each already asked when the key was made: the colour
    名堂 of each axis's verdict id (:func:`_colour_ids`), the residual 名堂 of the
    residual id (:func:`_residual`), and the flag 名堂, which read only the key's flag
    bits (asked once per those bits). The first pass over new positions no longer asks
    every pattern again for each new key (tests/test_settle_fast.py's
    ``test_memoised_settlement_is_the_stepwise_one``: the same 名堂 as the stepwise path's).
    With them, what :func:`_tally` makes of them; both kept per set of 名堂 found
    (``named``): keys that differ in flags or colours yet earn the same 名堂 share them
    (a hit is a frozen value)."""
    fk = key & 63  # 自摸, 海底, 天胡, 地胡, one card left (耍猴), 听胡
    got = sc.flagged.get(fk)
    if got is None:
        ctx = Context(p, (), (), (), split, huxi)
        got = sc.flagged[fk] = tuple(
            (i, f) for i, pat, rule, _, _ in sc.flags if (f := pat.fan(ctx, rule, sc.combine))
        )
    found = list(got)
    if sc.colour:
        for axis in range(3):
            found += _verdict(sc.verdicts[axis], sc.found[axis], key >> 6 + 8 * axis & 0xFF)
    if sc.residual:
        found += _verdict(sc.rverdicts, sc.rfound, key >> _RID)
    found.sort()  # the preset's order (one 名堂 per index)
    verdict = tuple(found)
    named = sc.named.get(verdict)
    if named is None:
        entries = sc.entries
        hits = tuple(
            [MingtangHit(entries[i][2].id, entries[i][3], f, entries[i][4]) for i, f in verdict]
        )
        if len(sc.named) >= 1 << 12:  # bounded (a few dozen sets per rules in practice)
            sc.named.clear()
        named = sc.named[verdict] = (hits, *_tally(hits, sc.rules))
    return named


def _verdict(verdicts: dict[_Found, int], by_id: list[_Found], v: int) -> _Found:
    """The verdict of id ``v`` (ids are given in order, 0 up: ``by_id`` is the dict's
    keys by value, remade when it has fallen behind)."""
    if v >= len(by_id):
        by_id[:] = sorted(verdicts, key=verdicts.__getitem__)
    return by_id[v]


_COUNTS = (21, 13, 5)  # where Position.facts keeps the red, big and small counts


def _colour_ids(sc: _Scorer, p: Position, facts: int) -> int:
    """The colour 名堂 (红胡, 点胡, 乌胡, 大字胡 …) ``p``'s cards earn, as bits of the memo's
    key: per count read (red, big, small), the id of what that axis's patterns give it
    (``sc.ids``, asked once per count), a byte each above the flags."""
    bits = 0
    for axis, ids in enumerate(sc.ids):
        n = facts >> _COUNTS[axis] & 0xFF
        v = ids[n]
        if v < 0:
            _ask_axis(sc, p, axis, n)
            v = ids[n]
        bits |= v << 6 + 8 * axis
    return bits


def _ask_axis(sc: _Scorer, p: Position, axis: int, n: int) -> None:
    """Give an id to count ``n`` of ``axis`` and to every other count a hand may hold
    not asked yet: a colour 名堂 reads its axis's count alone (``Context(colours=…)``),
    so the axis is asked once, not once per new count — each of those handed the C path's
    position to the whole Python path (R36)."""
    ids, verdicts = sc.ids[axis], sc.verdicts[axis]
    # the cards a winner holds: the deal, one per 跑/提 beyond the first, the winning card
    top = min(len(ids) - 1, max(n, sc.rules.hand_size + 8))
    for m in range(top + 1):
        if ids[m] < 0:
            colours = (m if axis == 0 else 0, m if axis == 1 else 0, m if axis == 2 else 0)
            ctx = Context(p, colours=colours)
            found = tuple(
                (i, f)
                for i, pat, rule, _, _ in sc.axes[axis]
                if (f := pat.fan(ctx, rule, sc.combine))
            )
            ids[m] = verdicts.setdefault(found, len(verdicts))


def _doubled(position: Position, rules: Rules) -> tuple[str, ...]:
    """The doublings of R35 that apply (天胡, 地胡, 海底), in the rules' order."""
    if position.tianhu or position.dihu or position.last_card:
        flags = {"tianhu": position.tianhu, "dihu": position.dihu, "haidi": position.last_card}
        return tuple(e for e in rules.doubling if flags[e])
    return ()


def _tally(hits: tuple[MingtangHit, ...], rules: Rules) -> tuple[int | None, int, int]:
    """One pass over the 名堂 (R36): the 底 they set (None: none does), the units they
    add, and their 番 (added or multiplied; 1 for 平胡)."""
    base = units = 0
    has_base = False
    fans = []
    for m in hits:
        if m.effect is Effect.FAN:
            fans.append(m.fan)
        elif m.effect is Effect.BASE:
            base += m.fan
            has_base = True
        else:
            units += m.fan
    if not fans:
        fan = 1  # 平胡
    elif rules.fan_combine == FanCombine.ADD:
        fan = sum(fans)
    else:
        fan = math.prod(fans)
    return (base if has_base else None), units, fan


def _settle(position: Position, rules: Rules, huang: int) -> Settlement:
    """:func:`settle` without the memo: every case, each step asked (the reference the
    fast path is tested against)."""
    if position.wild:
        return _settle_wild(position, rules, huang)
    ev = evaluator_for(rules)
    if position.win is None:  # a mandatory 天胡 (R28): no shape needed
        a = ev.analyse(position)
        return _settle_groups(position, rules, huang, a.huxi, a.groups)
    huxi, plan = ev.plan(position)
    if plan is None:
        return Settlement(False, 0, 0, 0, 0, 0, (), (), (), "not_winning")
    split = Split(rules, position, plan)
    if huxi < rules.min_huxi:
        return Settlement(False, huxi, huxi, 0, 0, 0, (), (), (), "below_min_huxi", split=split)
    split.get()  # the reference reads the groups themselves (not the plan's profile)
    best = _settle_groups(position, rules, huang, huxi, (), split=split)
    if rules.decomposition == Decomposition.DI:
        for groups in decompositions(position, rules.yiwushi):
            gh = tuple(g.huxi(rules) for g in groups)
            if sum(gh) < rules.min_huxi:
                continue
            s = _settle_groups(position, rules, huang, sum(gh), groups, gh)
            if (s.di, s.huxi) > (best.di, best.huxi):
                best = s
    return best


def _settle_wild(
    position: Position, rules: Rules, huang: int, sc: _Scorer | None = None
) -> Settlement:
    """R40/R46 with 王: every split and assignment is settled; the best 底 counts
    (ties: more 胡息, then the split found first), whatever ``decomposition`` says —
    a 王 is always played for the score."""
    if position.pattern is not None and not rules.wang_fan[position.pattern.slot]:
        return Settlement(False, 0, 0, 0, 0, 0, (), (), (), "pattern_not_played")
    best: Settlement | None = None
    most = -1  # most 胡息 of any split, for the error of a hand below the minimum
    sc = sc or _scorer(rules)
    if not sc.by_class:  # a 名堂 reads the split or the kinds: each split settled
        for split in wild_splits(position):
            gh = tuple(g.huxi(rules) for g in split.groups)
            h = sum(gh)
            most = max(most, h)
            if h >= rules.min_huxi:
                s = _settle_groups(position, rules, huang, h, split.groups, gh, split.wang)
                if best is None or (s.di, s.huxi) > (best.di, best.huxi):
                    best = s
    else:
        best, most = _settle_classes(sc, position, huang)
    if best is not None:
        return best
    error = "below_min_huxi" if most >= 0 else "not_winning"
    return Settlement(False, max(most, 0), max(most, 0), 0, 0, 0, (), (), (), error)


def _settle_classes(sc: _Scorer, p: Position, huang: int) -> tuple[Settlement | None, int]:
    """R40/R46 when no 名堂 reads the split or the kinds: a split's score then depends
    only on its 胡息 and on the colours, sizes and 醒 of what its 王 became, and never
    falls as 胡息 rises (R34, 番 ≥ 0). Per such class only the first split with the most
    胡息 is asked (:func:`wang.split_classes`); its settlement is a template memoised on
    what it reads (``sc.wild``: the position's flags, the colour counts, 胡息, 荒庄, 醒数),
    the best split's 王 put in and its 门子 built when read. Ties go to the split listed
    first."""
    rules = sc.rules
    most, classes = split_classes(p, rules)
    facts = p.facts  # (the natural cards' counts: the 王 are not in the hand)
    # (a colour count no 名堂 reads is 0 in the classes and keys no template)
    red = facts >> 21 & 0xFF if sc.read & 1 else 0
    big = facts >> 13 & 0xFF if sc.read & 2 else 0
    small = (facts >> 5 & 0xFF) + p.wang + p.win_wang if sc.read & 2 else 0
    single = not p.at_deal and len(p.hand) + p.wang == 1  # 耍猴
    tinghu = sc.tinghu and bool(dict(p.extra).get("tinghu"))
    flags = (facts & 15, single, tinghu, p.pattern, huang)
    xing0 = 0
    if p.xing:  # R42: 醒数 of the natural cards (a kind holds at most 4: packed)
        bits = p.card_bits
        xing0 = sum([bits >> 3 * x & 7 for x in p.xing])
    best: Settlement | None = None
    first: Any = None
    for c in classes:
        rw, bw, xw, h = c[0], c[1], c[2], c[3]
        if h < sc.min_huxi:
            continue
        key = (flags, red + rw, big + bw, small - bw, h, (xing0 + xw) * sc.xing)
        t = sc.wild.get(key)
        if t is None:  # its 门子 built only if a 名堂 reads them (none does, by class)
            split = _ClassSplit(rules, p, c[4], c[5])
            wk = tuple([CARDS[k] for k in c[6]])
            colours = (red + rw, big + bw, small - bw)
            t = _settle_groups(p, rules, huang, h, (), None, wk, split, colours)
            if len(sc.wild) >= 1 << 14:
                sc.wild.clear()
            sc.wild[key] = t
        if (
            best is None
            or (t.di, t.huxi) > (best.di, best.huxi)
            or ((t.di, t.huxi) == (best.di, best.huxi) and (c[4], c[5]) < (first[4], first[5]))
        ):
            best, first = t, c
    if best is None:
        return None, most
    t, wang = best, tuple([CARDS[k] for k in first[6]])
    split = _ClassSplit(rules, p, first[4], first[5])
    return Settlement(
        True,
        t._huxi,
        t._scored_huxi,
        t._deng,
        t._fan,
        t._di,
        t._mingtang,
        (),
        (),
        None,
        t._doubled,
        t._zimo,
        t._huang_multiplier,
        t._xing,
        t._unit,
        wang,
        split,
    ), most


class _ClassSplit:
    """The 门子 of a 王 split named by its reading and path (:func:`wang.class_split`),
    built when first read."""

    __slots__ = ("path", "position", "reading", "rules", "value")

    def __init__(self, rules: Rules, position: Position, reading: int, path: int) -> None:
        self.rules, self.position, self.reading, self.path = rules, position, reading, path
        self.value: tuple[tuple[Group, ...], tuple[int, ...]] | None = None

    def get(self) -> tuple[tuple[Group, ...], tuple[int, ...]]:
        if self.value is None:
            groups = class_split(self.position, self.reading, self.path)
            self.value = (groups, tuple(g.huxi(self.rules) for g in groups))
        return self.value

    def profile(self, whole: bool = True) -> int:
        """The split's :mod:`~paohuzi.core.profile`, counted from its 门子."""
        return of_split(*self.get())


@per_rules  # every 王 settlement asks; hashing a Rules costs more than the answer
def _structural(rules: Rules) -> bool:
    """Whether any 名堂 in use reads how the hand splits (not only its cards)."""
    return any(PATTERNS[m.id].structural for m in rules.mingtang if rules.uses(m.id))


@per_rules
def _by_split(rules: Rules) -> bool:
    """Whether a 王 split's score may read more than its profile (胡息, the 王's colours
    and sizes, 醒, fours): a structural 名堂, or one counting each kind (R40)."""
    used = [PATTERNS[m.id] for m in rules.mingtang if rules.uses(m.id)]
    return any(p.structural or p.kinds for p in used)


def _settle_groups(
    position: Position,
    rules: Rules,
    huang: int,
    huxi: int,
    groups: tuple[Group, ...],
    group_huxi: tuple[int, ...] | None = None,
    wang: tuple[Card, ...] = (),
    split: Split | _ClassSplit | None = None,
    colours: tuple[int, int, int] | None = None,  # (red, big, small), when known
) -> Settlement:
    """R34–R37 for one split of the winning hand (``wang``: what its 王 became;
    ``split``: the groups, built only if a 名堂 or the caller reads them)."""
    if group_huxi is None:
        group_huxi = () if split is not None else tuple(g.huxi(rules) for g in groups)
    doubled = _doubled(position, rules)
    h2 = huxi * 2 ** len(doubled)
    zimo = position.self_drawn or position.tianhu  # 天胡为自摸 (seeds)
    hits = find(Context(position, groups, group_huxi, wang, split, huxi, colours), rules)
    pat = position.pattern
    if pat is not None:  # R41: the pattern's 番 replaces 自摸's (no 自摸 ×2, no bonus)
        zimo = False
        hits = (
            *(m for m in hits if m.id != "zimo"),
            MingtangHit(pat.value, pat.zh, rules.wang_fan[pat.slot], Effect.FAN),
        )
    base, units, fan = _tally(hits, rules)  # R36's 番, and the 名堂 that set or add units
    deng = (rules.deng_of(h2) if base is None else base) + units
    deng += rules.zimo_bonus if zimo else 0
    xing = 0
    if position.xing:
        xing = position.xing_count() + sum(wang.count(x) for x in position.xing)
        xing *= 2 if rules.xing_double else 1
    deng += xing
    mult = rules.huangzhuang.multiplier(huang) if huang > 0 else 1
    return Settlement(
        True,
        huxi,
        h2,
        deng,
        fan,
        deng * fan * mult,
        hits,
        groups,
        group_huxi,
        None,
        doubled,
        zimo,
        mult,
        xing,
        rules.unit,
        wang,
        split,
    )


# -- every split into 7 门子 (R22, R25, R27) ------------------------------------------------
def decompositions(position: Position, yiwushi: bool = False) -> Iterator[tuple[Group, ...]]:
    """Every legal 7-门子 split of a winning position, each completion of R25 included
    (``yiwushi``: 一五十 is a 句, ``Rules.yiwushi``).

    Slow and simple (the evaluator's tables only keep the best 胡息); used to
    settle presets whose 名堂 depend on the split. May repeat a split.
    """
    for how, r, pair in _completions(position):
        fixed = _fixed(position, how)
        for split in _splits(r, pair, yiwushi):
            yield tuple(fixed + split)


_HAND, _TRIPLE, _KAN = -1, -2, -3  # how the winning card is used; ≥ 0: that table meld


def _completions(position: Position) -> list[tuple[int, list[int], bool]]:
    """The uses of the winning card (R25, R27) that leave a rest of the right size (as
    ``HandEvaluator._best`` makes them, and ``evaluator.split_count`` counts them):
    (how: ``_HAND``, ``_TRIPLE``, ``_KAN`` or the table meld it upgrades; the counts
    left for 句/绞/将; whether a 将 is needed)."""
    win = position.win
    if win is None:
        return []
    w = int(win)
    counts = [0] * 20
    for c in position.hand:
        counts[c] += 1
    rest = [0 if n == 3 else n for n in counts]
    fixed = len(position.table) + counts.count(3)  # table melds and 坎
    fours = position.four_count > 0
    r = rest[:]
    r[w] += 1  # the card joins the rest (a 坎 of its kind stays whole: 破跑胡, R27)
    plans = [(_HAND, r, fours, fixed)]
    if rest[w] == 2:  # pair + card → 碰 (偎 when self-drawn)
        r = rest[:]
        r[w] = 0
        plans.append((_TRIPLE, r, fours, fixed + 1))
    if counts[w] == 3:  # 坎 + card → 跑 (提 when self-drawn): one more four, so a 将
        plans.append((_KAN, rest, True, fixed))
    for i, g in enumerate(position.table):  # table 偎/碰 + card → 跑/提 (碰 → 跑, R13b)
        if g.cards[0] == w and g.kind in (_K.PENG, _K.WEI, _K.CHOUWEI):
            plans.append((i, rest, True, fixed))
            break
    out = []
    for how, r, pair, n_fixed in plans:
        n = sum(r)
        if (n - 2 * pair) % 3 == 0 and n_fixed + (
            n - 2 * pair
        ) // 3 + pair == position.melds_to_win:
            out.append((how, r, pair))
    return out


def _fixed(position: Position, how: int) -> list[Group]:
    """The groups a completion fixes: the table (a meld upgraded), the 坎 (one made a
    跑/提), the 碰/偎 of a pair and the card."""
    win = position.win
    assert win is not None
    w, sd = int(win), position.self_drawn
    table = list(position.table)
    if how >= 0:  # table 偎/碰 + card → 跑/提
        g = table[how]
        table[how] = shared_group(_K.PAO if g.kind is _K.PENG or not sd else _K.TI, (w,) * 4)
    hand = list(position.hand)
    kans = [c for c in range(20) if hand.count(CARDS[c]) == 3]
    four = _K.TI if sd else _K.PAO
    fixed = table + [
        shared_group(four, (c,) * 4) if how == _KAN and c == w else shared_group(_K.KAN, (c,) * 3)
        for c in kans
    ]
    if how == _TRIPLE:
        fixed.append(shared_group(_K.WEI if sd else _K.PENG, (w,) * 3))
    return fixed


def _splits(r: list[int], pair: bool, yiwushi: bool = False) -> Iterator[list[Group]]:
    """Splits of the counts ``r`` into 句/绞 and, if ``pair``, exactly one 将."""
    c = next((i for i in range(20) if r[i]), -1)
    if c < 0:
        if not pair:
            yield []
        return
    options: list[tuple[int, ...]] = []
    p, big = c % 10, c >= 10
    if p <= 7:
        options.append((c, c + 1, c + 2))
    if p == 1:
        options.append((c, c + 5, c + 8))  # 二七十 / 贰柒拾
    if p == 0 and yiwushi:
        options.append((c, c + 4, c + 9))  # 一五十 / 壹伍拾 (衡阳's option)
    if not big:  # 绞: the lowest card is small, so its big partner may join
        options += [(c, c, c + 10), (c, c + 10, c + 10)]
    for cards in options:
        if all(r[x] >= cards.count(x) for x in set(cards)):
            for x in cards:
                r[x] -= 1
            g = shared_group(_K.JU if len(set(x % 10 for x in cards)) > 1 else _K.JIAO, cards)
            for more in _splits(r, pair, yiwushi):
                yield [g, *more]
            for x in cards:
                r[x] += 1
    if pair and r[c] >= 2:
        r[c] -= 2
        g = shared_group(_K.JIANG, (c, c))
        for more in _splits(r, False, yiwushi):
            yield [g, *more]
        r[c] += 2


def each_pays(di: int, rules: Rules) -> int:
    """What one payer pays for a 底 of ``di`` (R37): 底分 (``rules.base_score``) times it,
    at most 封顶 (``rules.cap``, 0 = none)."""
    di *= rules.base_score
    return min(di, rules.cap) if rules.cap else di


def discarder_shares(rules: Rules, discarder: int | None, dihu: bool, payers: int) -> int:
    """How many payers' shares a win's discarder pays alone (R44: ``payment =
    discarder``, 1; with 包赔 all ``payers``', as on a 地胡 under 包赔, R37); 0 where every
    payer pays his own (and in a race, R45, whose loser is paid for by nobody)."""
    if discarder is None or rules.payment == Payment.RACE:
        return 0
    if rules.payment == Payment.DISCARDER:
        return payers if rules.baopei else 1
    return payers if dihu and rules.baopei else 0


def payments(
    di: int,
    winner: int,
    dealt_in: list[int],
    rules: Rules = HUNAN,
    discarder: int | None = None,
    dihu: bool = False,
    xing_seat: int | None = None,
    xing_pay: int = 0,
) -> list[int]:
    """Net score change per seat (R37, R44, R45). Seats not dealt in (坐底) neither pay
    nor get — except a 坐醒/数醒 seat (``xing_seat``), which each loser pays ``xing_pay``
    (:func:`xing_seat_pay`).

    Default: each other dealt-in seat pays 底. ``payment = discarder``: on a win on a
    discard only the discarder pays, for everyone with 包赔 (R44). 包赔 also makes the
    discarder pay for all on 地胡 (R37). ``payment = race`` (R45): the winner scores
    底 and only a discarder loses it (at most ``race.discarder_cap``). 底分
    (``rules.base_score``) multiplies 底; 封顶 (``rules.cap``, 0 = none) caps it.
    """
    di = each_pays(di, rules)
    n = max([*dealt_in, winner]) + 1 if dealt_in else winner + 1
    out = [0] * max(n, rules.players)
    payers = [s for s in dealt_in if s != winner]
    if rules.payment == Payment.RACE:
        out[winner] += di
        if discarder is not None:
            cap = rules.race.discarder_cap
            out[discarder] -= min(di, cap) if cap else di
        return out
    shares = discarder_shares(rules, discarder, dihu, len(payers))
    if discarder is not None and shares:
        out[discarder] -= di * shares
        out[winner] += di * shares
    else:
        for s in payers:
            out[s] -= di
            out[winner] += di
    if xing_seat is not None and xing_pay:
        for s in payers:
            out[s] -= xing_pay
            out[xing_seat] += xing_pay
    return out


def xing_seat_pay(fan: int, xing: int, rules: Rules) -> int:
    """坐醒 / 数醒 (R42): what each loser pays the seat that sat out — 番 × 醒数, capped
    by 封顶 like 底 (永州: docs/spec-notes.md); 0 where the rules have no such seat."""
    if not rules.xing_seat:
        return 0
    each = fan * xing
    return min(each, rules.cap) if rules.cap else each


def huangzhuang_payments(
    dealer: int, dealt_in: list[int], rules: Rules = HUNAN, wang: list[int] | None = None
) -> list[int]:
    """R32 荒庄: the dealer pays ``huangzhuang.cost`` to every other dealt-in seat; in a
    race (R45) he loses ``race.huangzhuang_penalty`` from his running total.

    亡牌 (``huangzhuang.wang_pay``, 永州): ``wang`` gives the 王 each seat holds; between
    every two dealt-in seats the one holding more pays the other ``wang_pay`` per extra 王.
    """
    out = [0] * rules.players
    if rules.payment == Payment.RACE:
        out[dealer] -= rules.race.huangzhuang_penalty
        return out
    cost = rules.huangzhuang.cost
    for s in dealt_in:
        if s != dealer:
            out[s] += cost
            out[dealer] -= cost
    pay = rules.huangzhuang.wang_pay
    if pay and wang is not None:
        for i, s in enumerate(dealt_in):
            for t in dealt_in[i + 1 :]:
                d = (wang[s] - wang[t]) * pay  # > 0: s holds more and pays t
                out[s] -= d
                out[t] += d
    return out
