"""裁判 (cáipàn): an independent record-level referee, written from the spec alone.

``paohuzi.core.records.check`` replays a record with the engine itself, so it
cannot see a rule the engine gets wrong. This module re-reads a game record
(INTERFACES.md §4) with nothing but RULES.md, PRESETS.md and the record's own
``rules`` object: it parses the card codes itself, re-deals the ``deck``, walks
the ``events`` tracking every seat's concealed hand (counts per kind), table
melds, pile, the wall and the open card, and checks every step:

- 80 cards conserved at every step, four of each kind (R1);
- R17: a player discards iff his holdings (hand + table melds) exceed
  ``20 + max(0, k − 1)`` (k: his 跑/提); a forced 偎/提/跑 that leaves him only
  坎 cards (or none) owes no discard; a 吃/碰 that would leave him so is never
  offered;
- 拆坎: no discard, 吃 or 碰 uses a card of a kind the player holds three of;
- forced steps present: four in hand → 提 (R8, R12a); a drawn card on the
  drawer's 坎 / 偎 → 提, on his pair → 偎 or 臭偎, the card never shown (R10–R12);
  an open card on another seat's 坎 / 偎, or a wall card on anybody's 碰 → 跑
  (R13), unless a 胡 took it (R16, R27);
- claims: 碰 needs a pair and another seat's card (R14); 吃 only by the drawer or
  the owner's 下家 (R15), groups are 句/绞 that all hold the taken card, drawn
  from the hand outside 坎, and no copy of the card stays behind (比, R19); no
  吃/碰 of a kind the player discarded himself (R20);
- next to act (R18), the wall order, 荒庄 only on an empty wall (R32);
- 胡: a mandatory 天胡 (R28) is a ``hu`` event with ``"tianhu": true`` and no
  card, right after the deal, by a seat that holds the 提/坎 for it; other 胡
  take the open card, respect R24 (discards, 提/偎 cards, 泸州's shown bottom
  card) and the R17 count; ``result`` agrees with the walk (winner, position,
  scores summing to 0, who pays).

Every problem is a string ``"event i: TAG: text"`` (or ``"deal: …"``,
``"result: …"``) where TAG is the rule id or term the step breaks, so that a
caller can count problems by kind. Malformed input is reported, never raised.

Nothing here imports ``paohuzi``: the point is to disagree with it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

# ---------------------------------------------------------------- cards (R1–R4)
_SMALL = "一二三四五六七八九十"
_BIG = "壹贰叁肆伍陆柒捌玖拾"
CODES = tuple(f"x{p}" for p in range(1, 11)) + tuple(f"d{p}" for p in range(1, 11))
_INDEX = {c: i for i, c in enumerate(CODES)} | {z: i for i, z in enumerate(_SMALL + _BIG)}
_TOKEN = re.compile(r"[xXdD](?:10|[1-9])|[" + _SMALL + _BIG + "]")
HAND = 20  # R7: cards dealt to each seat (the rules' hand_size)


class BadCard(ValueError):
    """A card code that is not one of the 20 kinds."""


def card(code: Any) -> int:
    """Kind index 0–19 of ``x1``…``x10`` (小 一…十) / ``d1``…``d10`` (大 壹…拾) or a character."""
    if isinstance(code, str):
        i = _INDEX.get(code.strip().lower())
        if i is not None:
            return i
    raise BadCard(f"not a card: {code!r}")


def cards(text: Any) -> list[int]:
    """Cards from a list of codes or a string (whitespace/comma tolerant, R4)."""
    if isinstance(text, list | tuple):
        return [card(c) for c in text]
    if not isinstance(text, str):
        raise BadCard(f"not a card list: {text!r}")
    rest = _TOKEN.sub("", text)
    if rest.strip(" ,\t\n"):
        raise BadCard(f"not a card list: {text!r}")
    return [card(t) for t in _TOKEN.findall(text)]


def name(c: int) -> str:
    return f"{CODES[c]}({(_SMALL + _BIG)[c]})"


def point(c: int) -> int:
    """R2: 牌点 1–10, size ignored."""
    return c % 10 + 1


def is_red(c: int) -> bool:
    """R3: 二七十 / 贰柒拾."""
    return point(c) in (2, 7, 10)


def is_set(g: Iterable[int]) -> bool:
    """一句话 (same size, consecutive or 二七十) or 绞 (one point, mixed sizes), §3."""
    a, b, c = sorted(g)
    if a // 10 == c // 10:  # one size: a 句
        return (b == a + 1 and c == a + 2) or (point(a), point(b), point(c)) == (2, 7, 10)
    return point(a) == point(b) == point(c)  # sizes mix: only a 绞


# ---------------------------------------------------------------- melds
FOURS = ("ti", "pao")  # 提 / 跑: four cards, count towards k (R17)
# Table meld kinds and how many cards they hold.
_SIZE = {"chi": 3, "peng": 3, "wei": 3, "chouwei": 3, "ti": 4, "pao": 4}
_FORCED = {"pair": "偎 (R11)", "kan": "提 (R12b)", "wei": "提 (R12c)"}


class _Open:
    """The open card (示众 / discarded / the 亮张) and what it obliges."""

    __slots__ = ("card", "dihu", "forced", "hidden", "last", "owner", "pao", "source")

    def __init__(self, c: int, owner: int, source: str) -> None:
        self.card, self.owner, self.source = c, owner, source
        self.hidden = False  # a drawn card that makes the drawer's 偎/提 (R10)
        self.forced = ""  # "pair" | "kan" | "wei" for such a card
        self.pao: tuple[int, str] | None = None  # (seat, base) of a due 跑 (R13)
        self.last = False  # the last wall card
        self.dihu = False  # the dealer's first discard (R29)


class Referee:
    """One walk over one record; :func:`check` is the entry point."""

    def __init__(self, rec: Any) -> None:
        self.problems: list[str] = []
        self.rec = rec
        # The walk's state (set up by _rules/_deal, moved by the event handlers).
        self.open: _Open | None = None  # the card in a claim window
        self.lz_open = True  # the 亮张 waits for its claims before joining the dealer
        self.opening = True  # deal / 亮张 / bottom / opening 提 still running
        self.dealt: list[int] = []
        self.bottom_seen = False
        self.pending: tuple[int, bool, int, str] | None = None  # R17: (seat, forced, event, what)
        self.owed = -1  # the seat that owes the discard now
        self.why = "nothing was taken in"  # why nobody owes one (for the message)
        self.expect: int | None = None  # the seat due to draw (R18)
        self.discarded: list[set[int]] = []
        self.passed: list[set[int]] = []
        self.dealer_discarded = False
        self.tianhu_seats: list[int] = []
        self.win: dict[str, Any] | None = None
        self.settle: dict[str, Any] | None = None
        self.ended = False  # after 胡 / 荒庄
        self.conserved = True
        self.fours_told: set[tuple[int, int]] = set()

    # ------------------------------------------------------------ reporting
    def bad(self, where: int | str, tag: str, text: str) -> None:
        at = f"event {where}" if isinstance(where, int) else where
        self.problems.append(f"{at}: {tag}: {text}")

    # ------------------------------------------------------------ setup
    def _rules(self) -> bool:
        r = self.rec.get("rules")
        if not isinstance(r, dict):
            self.bad("deal", "record", "no rules object")
            r = {}

        def get(key: str, default: Any, typ: type | tuple[type, ...]) -> Any:
            v = r.get(key, default)
            if not isinstance(v, typ) or (typ is int and isinstance(v, bool)):
                self.bad("deal", "record", f"rules.{key} = {v!r} is not valid")
                return default
            return v

        self.players = get("players", 3, int)
        self.sit_out = get("sit_out", False, bool)
        self.hand_size = get("hand_size", HAND, int)
        self.show_lz = get("show_liangzhang", True, bool)
        self.show_bottom = get("show_wall_bottom", False, bool)
        self.win_on_discard = get("win_on_discard", False, bool)
        self.dihu_rule = get("dihu", "first_discard", str)
        self.tianhu_ti = get("tianhu_ti", 3, int)
        self.tianhu_kan = get("tianhu_kan", 5, int)
        self.payment = get("payment", "all", str)
        self.baopei = get("baopei", False, bool)
        hz = r.get("huangzhuang", {})
        self.huang_cost = hz.get("cost", 0) if isinstance(hz, dict) else 0
        if not 2 <= self.players <= 4 or self.hand_size != HAND:
            self.bad("deal", "record", f"cannot deal {self.players} players × {self.hand_size}")
            return False
        return True

    def _deal(self) -> bool:
        """R7 dealing order (INTERFACES §4), 坐底 (PRESETS), 泸州's bottom card."""
        rec, n = self.rec, self.players
        dealer = rec.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            self.bad("deal", "record", f"dealer {dealer!r} is not a seat of {n}")
            return False
        try:
            deck = cards(rec.get("deck"))
        except BadCard as e:
            self.bad("deal", "R1", f"deck: {e}")
            return False
        counts = Counter(deck)
        if len(deck) != 80 or any(counts[c] != 4 for c in range(20)):
            wrong = [name(c) for c in range(20) if counts[c] != 4]
            self.bad("deal", "R1", f"deck has {len(deck)} cards; wrong counts for {wrong}")
            return False
        self.dealer = dealer
        # PRESETS sit_out: with 4 players the seat opposite the dealer is dealt nothing.
        out = (dealer + 2) % 4 if self.sit_out and n == 4 else -1
        self.seats = [(dealer + i) % n for i in range(n) if (dealer + i) % n != out]
        m = len(self.seats)
        self.nxt = {s: self.seats[(i + 1) % m] for i, s in enumerate(self.seats)}
        if m * HAND + 1 > 80:
            self.bad("deal", "record", f"{m} seats dealt {HAND} + 亮张 exceed 80 cards")
            return False
        self.hand = [[0] * 20 for _ in range(n)]
        self.nh = [0] * n  # cards in hand per seat
        self.table: list[list[tuple[str, tuple[int, ...]]]] = [[] for _ in range(n)]
        self.ntable = [0] * n  # cards in table melds per seat
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.kinds = [0] * 20  # every card the walk knows of, by kind (R1: 4 each)
        pos = 0
        for s in self.seats:
            for c in deck[pos : pos + HAND]:
                self._give(s, c)
            pos += HAND
        self.lz = deck[pos]
        self.kinds[self.lz] += 1
        wall = deck[pos + 1 :]
        self.moved = 0
        if self.show_bottom:
            # 泸州 (PRESETS, docs/presets/luzhou.md): a red bottom card goes to the top
            # until the bottom card is black.
            while wall and is_red(wall[-1]) and self.moved < len(wall):
                wall.insert(0, wall.pop())
                self.moved += 1
        for c in wall:
            self.kinds[c] += 1
        self.wall, self.wpos = wall, 0
        return True

    # ------------------------------------------------------------ card moves
    def _give(self, s: int, c: int) -> None:
        self.hand[s][c] += 1
        self.nh[s] += 1
        self.kinds[c] += 1

    def _take(self, i: int, s: int, c: int, k: int, what: str) -> None:
        """Remove ``k`` × ``c`` from the hand of ``s`` (reporting what is not there)."""
        have = self.hand[s][c]
        if have < k:
            self.bad(i, "count", f"seat {s} {what} {k} × {name(c)} but holds {have}")
            k = have
        self.hand[s][c] -= k
        self.nh[s] -= k
        self.kinds[c] -= k

    def _meld(self, s: int, kind: str, cs: tuple[int, ...]) -> None:
        self.table[s].append((kind, cs))
        self.ntable[s] += len(cs)
        for c in cs:
            self.kinds[c] += 1

    def _find(self, s: int, kinds: tuple[str, ...], c: int) -> int:
        for j, (k, cs) in enumerate(self.table[s]):
            if k in kinds and cs[0] == c:
                return j
        return -1

    def _upgrade(self, s: int, j: int, kind: str, c: int) -> None:
        """A 偎/臭偎/碰 grows into 提/跑 with one more card (R12c, R13b/c)."""
        self.table[s][j] = (kind, (c,) * 4)
        self.ntable[s] += 1
        self.kinds[c] += 1

    def _open_card(self, o: _Open) -> None:
        self.open = o
        self.kinds[o.card] += 1

    def _close(self) -> int:
        """Remove the open card from play (it is taken somewhere); return it."""
        o = self.open
        assert o is not None
        self.open = None
        self.kinds[o.card] -= 1
        return o.card

    def _to_pile(self, c: int | None = None) -> None:
        """The open card goes to its owner's pile (``c``: the card the record names)."""
        assert self.open is not None
        owner, got = self.open.owner, self._close()
        c = got if c is None else c
        self.piles[owner].append(c)
        self.kinds[c] += 1
        self.expect = self.nxt[owner]
        self.why = "nothing was taken in before it"

    # ------------------------------------------------------------ queries
    def held(self, s: int) -> int:
        return self.nh[s] + self.ntable[s]

    def k(self, s: int) -> int:
        return sum(1 for kind, _ in self.table[s] if kind in FOURS)

    def need(self, s: int) -> int:
        """R17: 20 + max(0, k − 1)."""
        return HAND + max(0, self.k(s) - 1)

    def movable(self, s: int) -> bool:
        """Has ``s`` a card outside 坎 to discard?"""
        return any(0 < x < 3 for x in self.hand[s])

    def _due_pao(self, c: int, owner: int, drawn: bool) -> tuple[int, str] | None:
        """R13: whose 跑 an open card is, if anyone's."""
        for t in self.seats:
            if t != owner and self.hand[t][c] == 3:
                return t, "kan"
            if t != owner and self._find(t, ("wei", "chouwei"), c) >= 0:
                return t, "wei"
            if drawn and self._find(t, ("peng",), c) >= 0:
                return t, "peng"
        return None

    # ------------------------------------------------------------ the walk
    def run(self) -> list[str]:
        rec = self.rec
        if not isinstance(rec, dict):
            return ["deal: record: a record is a JSON object"]
        if not (self._rules() and self._deal()):
            return self.problems
        events = rec.get("events")
        if not isinstance(events, list):
            self.bad("deal", "record", "no events list")
            return self.problems
        self.discarded = [set() for _ in range(self.players)]
        self.passed = [set() for _ in range(self.players)]
        for i, e in enumerate(events):
            if not isinstance(e, dict) or not isinstance(e.get("type"), str):
                self.bad(i, "record", f"not an event: {e!r}")
                continue
            try:
                self._event(i, e)
            except (BadCard, KeyError, TypeError, ValueError, IndexError) as x:
                self.bad(i, "record", f"malformed {e.get('type')} event {e!r}: {x!r}")
            self._conservation(i)
        self._end(len(events))
        self._actions(events)
        self._result()
        return self.problems

    def _conservation(self, i: int) -> None:
        """R1: hands + tables + piles + open card + wall = 80, four of each kind."""
        if not self.conserved:
            return  # report the first break only: everything after follows from it
        off = {name(c): k for c, k in enumerate(self.kinds) if k != 4}
        if off:
            self.conserved = False
            self.bad(
                i, "count", f"80 cards not conserved: {sum(self.kinds)} cards, kinds off {off}"
            )

    def _event(self, i: int, e: dict[str, Any]) -> None:
        typ = e["type"]
        seat = e.get("seat")
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.seats
        ):
            self.bad(i, "record", f"seat {seat!r} is not a dealt seat {self.seats}")
            return
        if seat is None and typ not in ("bottom", "huangzhuang", "settle"):
            self.bad(i, "record", f"{typ} event without a seat")
            return
        c = card(e["card"]) if e.get("card") is not None else None
        if self.ended:
            if typ == "settle" and self.settle is None:
                self.settle = e
            else:
                self.bad(i, "record", f"{typ} after the hand ended")
            return
        mandatory = typ == "tianhu" or (typ == "hu" and c is None)
        ti_hand = typ == "ti" and e.get("source") == "hand"
        # The 亮张 joins the dealer once its claims (elective 天胡, 常德 地胡) are over.
        if self.lz_open and not (
            typ in ("deal", "liangzhang", "bottom")
            or (ti_hand and c is not None and seat is not None and self.hand[seat][c] == 4)
            or (typ in ("pass", "hu") and e.get("source") == "liangzhang")
        ):
            self._join_lz(i, mandatory)
        if self.opening and typ not in ("deal", "liangzhang", "bottom") and not ti_hand:
            self._opening_over(i, e, mandatory)
        if self.pending is not None and not ti_hand:
            if mandatory:  # the deal ends in a 天胡: the dealer's 亮张 owes nothing
                self.pending = None
            else:
                self._r17(i, e)
        if self.open is not None and self.open.source != "liangzhang":
            allowed = ("pass", "hu") + (
                ("ti", "wei", "chouwei") if self.open.hidden else ("pao", "peng", "chi", "pile")
            )
            if typ not in allowed:
                self._unresolved(i, f"event {i} is {typ}")
                self._to_pile()  # as if nobody took it, so that the walk goes on
        handler = getattr(self, "_on_" + typ, None)
        if handler is None:
            self.bad(i, "record", f"unknown event type {typ!r}")
            return
        handler(i, e, seat, c)

    # ------------------------------------------------------------ the opening
    def _on_deal(self, i: int, e: dict[str, Any], s: int, c: int | None) -> None:
        k = len(self.dealt)
        if not self.opening or k >= len(self.seats) or self.seats[k] != s:
            want = self.seats[k] if k < len(self.seats) else None
            self.bad(i, "R7", f"deal to seat {s}; the dealing order wants {want}")
        elif e.get("count", HAND) != HAND:
            self.bad(i, "R7", f"seat {s} dealt {e.get('count')} cards, not {HAND}")
        self.dealt.append(s)

    def _on_liangzhang(self, i: int, e: dict[str, Any], s: int, c: int | None) -> None:
        if s != self.dealer or c != self.lz:
            self.bad(
                i,
                "R7",
                f"亮张 {e.get('card')} to seat {s}; the deck gives {name(self.lz)} to the dealer {self.dealer}",
            )
        if bool(e.get("shown", True)) != self.show_lz:
            self.bad(
                i, "R7", f"亮张 shown={e.get('shown')} but rules show_liangzhang={self.show_lz}"
            )

    def _on_bottom(self, i: int, e: dict[str, Any], s: int | None, c: int | None) -> None:
        self.bottom_seen = True
        if not self.show_bottom:
            self.bad(i, "record", "a bottom card shown without show_wall_bottom")
            return
        want = [CODES[x] for x in self.wall[: self.moved]]
        if c != self.wall[-1] or e.get("moved") != self.moved or list(e.get("to_top", [])) != want:
            self.bad(
                i,
                "show_wall_bottom",
                f"bottom {e.get('card')} moved {e.get('moved')} {e.get('to_top')}; the deck gives "
                f"{name(self.wall[-1])} after moving {want} to the top",
            )

    def _join_lz(self, i: int, mandatory: bool) -> None:
        """The 亮张 joins the dealer's hand; then R17 for him (a 4th card makes 提, R8)."""
        self.lz_open = False
        self.kinds[self.lz] -= 1
        self._give(self.dealer, self.lz)
        if not mandatory:
            self.pending = (self.dealer, True, i, "the 亮张")

    def _opening_over(self, i: int, e: dict[str, Any], mandatory: bool) -> None:
        """End of the deal: every seat dealt, opening 提 done (R8), mandatory 天胡 (R28)."""
        self.opening = False
        if self.dealt != self.seats:
            self.bad(i, "R7", f"deal events for seats {self.dealt}, the deal wants {self.seats}")
        if self.show_bottom and not self.bottom_seen:
            self.bad(i, "show_wall_bottom", "the wall's bottom card was never shown")
        self._fours(i)
        for s in self.seats:
            cnt = self.hand[s][:]
            if s == self.dealer and self.lz_open:
                cnt[self.lz] += 1
            ti = self.k(s) + cnt.count(4)
            kan = cnt.count(3)
            if ti >= self.tianhu_ti or ti + kan >= self.tianhu_kan:
                self.tianhu_seats.append(s)
        if self.tianhu_seats and not (mandatory and e.get("seat") in self.tianhu_seats):
            s = self.tianhu_seats[0]
            self.bad(
                i,
                "R28",
                f"seat {s} holds {self._tk(s)} after the deal: the mandatory 天胡 is missing "
                f"(event {i} is {e['type']})",
            )

    def _tk(self, s: int) -> str:
        cnt = self.hand[s][:]
        if s == self.dealer and self.lz_open:
            cnt[self.lz] += 1
        return f"{self.k(s) + cnt.count(4)} 提 + {cnt.count(3)} 坎"

    def _fours(self, i: int) -> None:
        """R8/R12(a): four identical cards in hand are always laid down as 提."""
        for s in self.seats:
            for c in range(20):
                if self.hand[s][c] == 4 and (s, c) not in self.fours_told:
                    self.fours_told.add((s, c))
                    self.bad(i, "R8/R12", f"seat {s} holds four {name(c)} in hand without 提")

    # ------------------------------------------------------------ R17 / R18
    def _intake(self, s: int, forced: bool, i: int, what: str) -> None:
        self.pending = (s, forced, i, what)

    def _r17(self, i: int, e: dict[str, Any]) -> None:
        """R17: discard iff holdings exceed 20 + max(0, k − 1); 坎 only → none after a forced step."""
        assert self.pending is not None
        s, forced, j, what = self.pending
        self.pending = None
        held, need = self.held(s), self.need(s)
        over, movable = held > need, self.movable(s)
        if over and not movable and not forced:
            self.bad(
                j,
                "R17",
                f"after {what} seat {s} must discard ({held} > {need}) but holds only 坎 cards "
                "or none: such a 吃/碰 is never offered",
            )
        if over and (movable or not forced):
            if e["type"] == "discard" and e.get("seat") == s:
                self.owed = s
                return
            self.bad(
                i,
                "R17",
                f"seat {s} holds {held} > {need} cards after {what} (event {j}) and owes a "
                f"discard, but event {i} is {e['type']}",
            )
        elif over:
            self.why = f"the forced {what} (event {j}) left him only 坎 cards or none"
        else:
            self.why = f"he holds {held} ≤ {need} cards after {what} (event {j}, k={self.k(s)})"
        self.owed = -1
        self.expect = self.nxt[s]

    def _on_discard(self, i: int, e: dict[str, Any], s: int, c: int) -> None:
        if self.owed != s:
            self.bad(i, "R17", f"seat {s} discards {name(c)} but owes no discard: {self.why}")
        self.owed = -1
        self.expect = None
        self.why = "nothing was taken in before it"
        self._fours(i)
        if self.hand[s][c] == 3:
            self.bad(i, "拆坎", f"seat {s} discards {name(c)} out of his 坎 (a 坎 is never broken)")
        self._take(i, s, c, 1, "discards")
        self.discarded[s].add(c)
        o = _Open(c, s, "discard")
        o.dihu = s == self.dealer and not self.dealer_discarded
        if s == self.dealer:
            self.dealer_discarded = True
        o.pao = self._due_pao(c, s, False)
        self._open_card(o)

    def _on_draw(self, i: int, e: dict[str, Any], s: int, c: int) -> None:
        """R10: the top wall card; hidden iff it makes the drawer's 偎/提 (R11, R12)."""
        if self.expect is None:
            self.bad(i, "R18", f"seat {s} draws but nobody is due to draw now")
        elif s != self.expect:
            self.bad(i, "R18", f"seat {s} draws; seat {self.expect} is due to draw")
        self.expect = None
        self.why = "nothing was taken in before it"
        self._fours(i)
        if self.wpos >= len(self.wall):
            self.bad(i, "R32", f"seat {s} draws {name(c)} from an empty wall (荒庄 is due)")
        else:
            top = self.wall[self.wpos]
            if top != c:
                self.bad(i, "R10", f"seat {s} draws {name(c)}; the wall's next card is {name(top)}")
            self.kinds[top] -= 1  # the open card below counts the recorded card
            self.wpos += 1
        o = _Open(c, s, "draw")
        o.last = self.wpos == len(self.wall)
        if self.hand[s][c] == 3:
            o.forced = "kan"
        elif self._find(s, ("wei", "chouwei"), c) >= 0:
            o.forced = "wei"
        elif self.hand[s][c] == 2:
            o.forced = "pair"
        o.hidden = bool(o.forced)
        shown = bool(e.get("shown", True))
        if o.hidden and shown:
            self.bad(i, "R10", f"seat {s}'s {name(c)} makes his {_FORCED[o.forced]} yet is shown")
        elif not o.hidden and not shown:
            self.bad(i, "R10", f"seat {s}'s {name(c)} makes no 偎/提 yet is not shown")
        if not o.hidden:
            o.pao = self._due_pao(c, s, True)
        self._open_card(o)

    # ------------------------------------------------------------ claims
    def _claim(self, i: int, e: dict[str, Any], s: int, c: int | None, what: str) -> _Open | None:
        """The open card ``e`` acts on, or None (reported) if there is none / it differs."""
        o = self.open
        if o is None:
            self.bad(i, "record", f"seat {s} {what} but no card is open")
            return None
        if c != o.card:
            self.bad(
                i, "record", f"seat {s} {what} {e.get('card')} but the open card is {name(o.card)}"
            )
        src = e.get("source")
        if src is not None and src != o.source:
            self.bad(i, "record", f"source {src!r}, the open card came from {o.source!r}")
        return o

    def _unresolved(self, i: int, got: str) -> None:
        o = self.open
        assert o is not None
        if o.hidden:
            self.bad(
                i,
                "R11" if o.forced == "pair" else "R12",
                f"seat {o.owner} drew {name(o.card)} onto his {dict(pair='pair', kan='坎', wei='偎')[o.forced]}: "
                f"the forced {_FORCED[o.forced]} is missing ({got})",
            )
        elif o.pao is not None:
            t, base = o.pao
            self.bad(
                i,
                "R13",
                f"{name(o.card)} ({o.source} by seat {o.owner}) is seat {t}'s forced 跑 onto his "
                f"{dict(kan='坎', wei='偎', peng='碰')[base]}, but {got}",
            )
        else:
            self.bad(i, "R16", f"open card {name(o.card)} was never resolved ({got})")

    def _on_pass(self, i: int, e: dict[str, Any], s: int, c: int | None) -> None:
        if self.lz_open and e.get("source") == "liangzhang":
            if c != self.lz:
                self.bad(i, "record", f"pass on {e.get('card')}, the 亮张 is {name(self.lz)}")
            self.passed[s].add(self.lz)
            return
        o = self._claim(i, e, s, c, "passes on")
        if o is None:
            return
        if o.hidden and s != o.owner:
            self.bad(
                i,
                "R16",
                f"seat {s} is asked about {name(o.card)}, seat {o.owner}'s hidden 偎/提 card",
            )
        self.passed[s].add(o.card)

    def _taken(self, i: int, o: _Open, typ: str, s: int) -> None:
        """A 碰/吃 on an open card that was somebody's 跑 or the drawer's 偎/提."""
        if o.hidden or o.pao is not None:
            self._unresolved(i, f"seat {s} takes it by {typ}")

    def _on_peng(self, i: int, e: dict[str, Any], t: int, c: int | None) -> None:
        """R14 碰: a pair in hand + another player's open card."""
        o = self._claim(i, e, t, c, "碰s")
        if o is None:
            return
        c = o.card if c is None else c  # walk what the record says; R1 checks it
        self._taken(i, o, "碰", t)
        if t == o.owner:
            self.bad(i, "R14", f"seat {t} 碰s his own {name(c)}")
        if self.hand[t][c] == 3:
            self.bad(i, "拆坎", f"seat {t} 碰s {name(c)} out of his 坎")
        elif self.hand[t][c] < 2:
            self.bad(i, "R14", f"seat {t} 碰s {name(c)} without a pair")
        if c in self.discarded[t]:
            self.bad(i, "R20", f"seat {t} 碰s {name(c)}, a kind he discarded himself")
        self._take(i, t, c, 2, "碰s with")
        self._close()
        self._meld(t, "peng", (c,) * 3)
        self._intake(t, False, i, f"碰 {name(c)}")

    def _on_chi(self, i: int, e: dict[str, Any], t: int, c: int | None) -> None:
        """R15 吃 with R19 比: every group a 句/绞 holding the card, no copy left behind."""
        o = self._claim(i, e, t, c, "吃s")
        if o is None:
            return
        c = o.card if c is None else c  # walk what the record says; R1 checks it
        self._taken(i, o, "吃", t)
        eaters = (o.owner, self.nxt[o.owner]) if o.source == "draw" else (self.nxt[o.owner],)
        if o.source not in ("draw", "discard") or t not in eaters:
            self.bad(i, "R15", f"seat {t} may not 吃 {name(c)} ({o.source} of seat {o.owner})")
        if c in self.discarded[t]:
            self.bad(i, "R20", f"seat {t} 吃s {name(c)}, a kind he discarded himself")
        groups = [tuple(cards(g)) for g in e["groups"]]
        if not groups or any(len(g) != 3 for g in groups):
            self.bad(i, "R15", f"吃 groups {e['groups']} are not groups of three")
            groups = [g for g in groups if len(g) == 3]
        for g in groups:
            if not is_set(g):
                self.bad(i, "R15", f"吃 group {' '.join(map(name, g))} is neither 句 nor 绞")
            if c not in g:
                self.bad(i, "R19", f"吃 group {' '.join(map(name, g))} does not hold {name(c)}")
        used = Counter(x for g in groups for x in g)
        if used[c] == 0:
            self.bad(i, "R15", f"the 吃 package does not use the taken {name(c)}")
        else:
            used[c] -= 1
        for x, k in sorted(used.items()):
            if k and self.hand[t][x] == 3:
                self.bad(i, "拆坎", f"seat {t}'s 吃 takes {name(x)} out of his 坎")
        left = self.hand[t][c] - used[c]
        if left > 0 and self.hand[t][c] < 3:
            self.bad(
                i,
                "R19",
                f"seat {t} 吃s {name(c)} but keeps {left} × {name(c)} in hand outside any 坎: "
                "every remaining copy must be 比'd",
            )
        for x, k in sorted(used.items()):
            if k:
                self._take(i, t, x, k, "吃s with")
        self._close()
        for g in groups:
            self._meld(t, "chi", tuple(sorted(g)))
        self._intake(t, False, i, f"吃 {name(c)}")

    # ------------------------------------------------------------ forced steps
    def _on_ti(self, i: int, e: dict[str, Any], s: int, c: int) -> None:
        """提: four in hand (R8/R12a), or the drawer's card on his 坎 / 偎 (R12b/c)."""
        base = e.get("base")
        if e.get("source") == "hand":
            if self.hand[s][c] != 4:
                self.bad(i, "R12", f"seat {s} 提s {name(c)} from hand holding {self.hand[s][c]}")
            if base not in (None, "hand"):
                self.bad(i, "record", f"提 from hand with base {base!r}")
            self._take(i, s, c, 4, "提s")
            self._meld(s, "ti", (c,) * 4)
            return
        o = self._claim(i, e, s, c, "提s")
        if o is None:
            return
        c = o.card if c is None else c  # walk what the record says; R1 checks it
        if s != o.owner or o.forced not in ("kan", "wei"):
            self.bad(
                i, "R12", f"seat {s} 提s {name(c)} (seat {o.owner}'s {o.source}) without his 坎/偎"
            )
        j = self._find(s, ("wei", "chouwei"), c)
        if self.hand[s][c] < 3 and j >= 0:
            if base not in (None, "table"):
                self.bad(i, "record", f"提 onto a 偎 recorded with base {base!r}")
            self._close()
            self._upgrade(s, j, "ti", c)
        else:
            if base not in (None, "kan"):
                self.bad(i, "record", f"提 onto a 坎 recorded with base {base!r}")
            self._take(i, s, c, 3, "提s with")
            self._close()
            self._meld(s, "ti", (c,) * 4)
        self._intake(s, True, i, f"提 {name(c)}")

    def _on_wei(self, i: int, e: dict[str, Any], s: int, c: int, chou: bool = False) -> None:
        """R11 偎 (R20 臭偎: of a card he refused): the drawer's card on his pair."""
        term = "臭偎" if chou else "偎"
        o = self._claim(i, e, s, c, f"{term}s")
        if o is None:
            return
        c = o.card if c is None else c  # walk what the record says; R1 checks it
        if s != o.owner or o.forced != "pair":
            why = f"it makes his {_FORCED[o.forced]}" if o.forced and s == o.owner else "no pair"
            self.bad(i, "R11", f"seat {s} {term}s {name(c)} (seat {o.owner}'s {o.source}): {why}")
        if chou and c not in self.passed[s]:
            self.bad(i, "R20", f"seat {s} 臭偎s {name(c)} but never passed on it")
        self._take(i, s, c, 2, f"{term}s with")
        self._close()
        self._meld(s, "chouwei" if chou else "wei", (c,) * 3)
        self._intake(s, True, i, f"{term} {name(c)}")

    def _on_chouwei(self, i: int, e: dict[str, Any], s: int, c: int) -> None:
        self._on_wei(i, e, s, c, chou=True)

    def _on_pao(self, i: int, e: dict[str, Any], t: int, c: int) -> None:
        """R13 跑 onto a 坎 (another's card), 偎 (another's card) or 碰 (a wall card)."""
        o = self._claim(i, e, t, c, "跑s")
        if o is None:
            return
        c = o.card if c is None else c  # walk what the record says; R1 checks it
        if o.hidden:
            self._unresolved(i, f"seat {t} 跑s it")
        if o.pao is None or o.pao[0] != t:
            self.bad(
                i,
                "R13",
                f"seat {t} 跑s {name(c)} ({o.source} of seat {o.owner}) without a 坎/偎/碰 it may grow",
            )
        base = o.pao[1] if o.pao and o.pao[0] == t else ""
        frm = e.get("from")
        if frm is not None and base and frm != base:
            self.bad(i, "record", f"跑 from {frm!r}, seat {t} holds a {base}")
        self._close()
        if base == "kan" or (not base and self.hand[t][c] >= 3):
            self._take(i, t, c, 3, "跑s with")
            self._meld(t, "pao", (c,) * 4)
        else:
            j = self._find(t, ("wei", "chouwei", "peng"), c)
            if j >= 0:
                self._upgrade(t, j, "pao", c)
            else:
                self._meld(t, "pao", (c,))  # keep the card somewhere; reported above
        self._intake(t, True, i, f"跑 {name(c)}")

    def _on_pile(self, i: int, e: dict[str, Any], s: int, c: int | None) -> None:
        """R18: an open card nobody took goes to its owner's pile; his 下家 draws."""
        o = self._claim(i, e, s, c, "piles")
        if o is None:
            return
        if o.hidden or o.pao is not None:
            self._unresolved(i, "it goes to the pile")
        if s != o.owner:
            self.bad(i, "R18", f"{name(o.card)} goes to seat {s}'s pile, not its owner {o.owner}'s")
        self._to_pile(c)

    # ------------------------------------------------------------ the end
    def _on_hu(self, i: int, e: dict[str, Any], s: int, c: int | None) -> None:
        if c is None:
            self._mandatory_tianhu(i, e, s)
            return
        if self.lz_open and e.get("source") == "liangzhang":
            o = _Open(self.lz, self.dealer, "liangzhang")
            if c != self.lz:
                self.bad(i, "record", f"胡 {e.get('card')} on the 亮张 {name(self.lz)}")
            ok = s == self.dealer or (
                self.dihu_rule == "liangzhang" and self.show_lz and self.hand[self.dealer][c] != 3
            )
            if not ok:
                self.bad(i, "R24", f"seat {s} may not 胡 the dealer's 亮张")
            self.lz_open = False  # the winning card: still counted, as the winner's
        else:
            got = self._claim(i, e, s, c, "胡s")
            if got is None:
                return
            o = got
            if o.hidden and s != o.owner:
                self.bad(i, "R24", f"seat {s} 胡s {name(o.card)}, seat {o.owner}'s 偎/提 card")
            if o.source == "discard":
                dihu = self.dihu_rule == "first_discard" and o.dihu and s == self.nxt[o.owner]
                if s == o.owner or not (self.win_on_discard or dihu):
                    self.bad(i, "R24", f"seat {s} 胡s seat {o.owner}'s discard {name(o.card)}")
            if o.source == "draw" and o.last and self.show_bottom:
                self.bad(i, "R24", f"seat {s} 胡s the shown bottom card {name(o.card)}")
            self.open = None  # the winning card: still counted, as the winner's
        held, need = self.held(s), self.need(s)
        if held != need:
            self.bad(i, "R22", f"seat {s} 胡s holding {held} cards; R17 leaves a winner {need}")
        self_drawn = s == o.owner and o.source in ("draw", "liangzhang")
        # 海底 (R35): the last wall card that may be won (泸州: the one before the bottom card).
        last = o.source == "draw" and self.wpos == len(self.wall) - int(self.show_bottom)
        flags = {
            "self_drawn": self_drawn,
            "last_card": last,
            "tianhu": o.source == "liangzhang" and s == self.dealer,
            "dihu": (o.dihu and self.dihu_rule == "first_discard" and s == self.nxt[o.owner])
            or (o.source == "liangzhang" and s != self.dealer),
        }
        for k, v in flags.items():
            if k in e and bool(e[k]) != v:
                self.bad(i, "record", f"胡 flag {k}={e[k]!r}, the walk says {v}")
        self._won(s, o.card, flags, i, discarder=o.owner if o.source == "discard" else None)

    def _on_tianhu(self, i: int, e: dict[str, Any], s: int, c: int | None) -> None:
        self.bad(
            i,
            "R28",
            'mandatory 天胡 recorded as a "tianhu" event; INTERFACES §4 wants a "hu" event '
            'with "tianhu": true and no card',
        )
        self._mandatory_tianhu(i, e, s)

    def _mandatory_tianhu(self, i: int, e: dict[str, Any], s: int) -> None:
        """R28: 3 提 or 提+坎 ≥ 5 (rules tianhu_ti / tianhu_kan) right after the deal."""
        if e.get("type") == "hu" and e.get("tianhu") is not True:
            self.bad(i, "R28", '胡 without a card that is not marked "tianhu": true')
        if s not in self.tianhu_seats:
            self.bad(i, "R28", f"mandatory 天胡 by seat {s}, who holds {self._tk(s)}")
        flags = {"self_drawn": True, "last_card": False, "tianhu": True, "dihu": False}
        self._won(s, None, flags, i, discarder=None)

    def _won(
        self, s: int, c: int | None, flags: dict[str, bool], i: int, discarder: int | None
    ) -> None:
        self.win = {
            "seat": s,
            "card": c,
            "event": i,
            "flags": flags,
            "discarder": discarder,
            "hand": [x for x in range(20) for _ in range(self.hand[s][x])],
            "table": sorted(self.table[s]),
        }
        self.ended = True
        self.open = None
        self.pending = None

    def _on_huangzhuang(self, i: int, e: dict[str, Any], s: int | None, c: int | None) -> None:
        """R32: the wall is exhausted and nobody won."""
        if self.wpos < len(self.wall):
            self.bad(i, "R32", f"荒庄 with {len(self.wall) - self.wpos} wall cards left")
        if self.expect is None:
            self.bad(i, "R32", "荒庄 where no draw was due")
        self.ended = True

    def _on_settle(self, i: int, e: dict[str, Any], s: int | None, c: int | None) -> None:
        self.bad(i, "record", "settle before any 胡")

    def _end(self, n: int) -> None:
        if self.lz_open and not self.ended:
            self._join_lz(n, False)
        if self.opening:
            self._opening_over(n, {"type": "end of record"}, False)
        if self.pending is not None:
            self._r17(n, {"type": "end of record"})
        if self.open is not None:
            self._unresolved(n, "the record ends")
        if not self.ended:
            self.bad(n, "record", "the events end before a 胡 or 荒庄")

    # ------------------------------------------------------------ actions, result
    def _actions(self, events: list[Any]) -> None:
        """Every choice event is one of the record's actions (§4). Counted, not ordered:
        decisions in one claim window may come in any order; a 吃 that lost to a
        碰 is an action without an event."""
        acts = self.rec.get("actions")
        if not isinstance(acts, list):
            self.bad("result", "record", "no actions list")
            return
        pool = Counter(k for a in acts if (k := _choice(a)) is not None)
        for i, e in enumerate(events):
            if isinstance(e, dict) and not (e.get("type") == "hu" and e.get("card") is None):
                k = _choice(e)  # (a mandatory 天胡 is no action)
                if k is not None:
                    if pool[k] <= 0:
                        self.bad(
                            i,
                            "record",
                            f"{e['type']} by seat {e.get('seat')} is not among the actions",
                        )
                    pool[k] -= 1

    def _result(self) -> None:
        res = self.rec.get("result")
        if not self.ended:
            return
        if not isinstance(res, dict):
            self.bad("result", "record", "a finished hand without a result object")
            return
        scores = res.get("scores")
        if (
            not isinstance(scores, list)
            or len(scores) != self.players
            or not all(isinstance(x, int) for x in scores)
        ):
            self.bad("result", "record", f"scores {scores!r} are not {self.players} integers")
            return
        if sum(scores) != 0:
            self.bad("result", "R37", f"scores {scores} do not sum to 0")
        for s in range(self.players):
            if s not in self.seats and scores[s]:
                self.bad("result", "R37", f"seat {s} sits out yet scores {scores[s]}")
        w = self.win
        if w is None:
            if res.get("winner") is not None:
                self.bad("result", "R32", f"荒庄 but result names winner {res.get('winner')}")
            if self.huang_cost == 0 and any(scores):
                self.bad("result", "R32", f"荒庄 costs nothing here, scores are {scores}")
            return
        s = w["seat"]
        if res.get("winner") != s:
            self.bad("result", "record", f"winner {res.get('winner')!r}, the 胡 was seat {s}'s")
        di = res.get("di")
        if self.settle is None:
            self.bad("result", "record", "no settle event after the 胡")
        else:
            for key in ("huxi", "di", "scores"):
                if self.settle.get(key) != res.get(key):
                    self.bad(
                        "result",
                        "record",
                        f"settle {key} {self.settle.get(key)!r} ≠ result {res.get(key)!r}",
                    )
        if isinstance(di, int) and not isinstance(di, bool):
            self._payments(s, di, scores, w)
        self._position(res.get("position"), w)

    def _payments(self, s: int, di: int, scores: list[int], w: dict[str, Any]) -> None:
        """R37 / PRESETS payment: who pays 底 to the winner."""
        payers = [t for t in self.seats if t != s]
        d = w["discarder"]
        want: list[int] | None = [0] * self.players
        assert want is not None
        if d is not None and self.payment == "discarder":
            want[d], want[s] = -di, di
        elif d is not None and self.baopei and w["flags"]["dihu"]:
            want[d], want[s] = -di * len(payers), di * len(payers)
        elif self.payment == "all" or w["flags"]["self_drawn"]:
            for t in payers:
                want[t] -= di
                want[s] += di
        else:
            want = None  # a win on another seat's wall card under "discarder": the spec is silent
        if want is not None and scores != want:
            self.bad(
                "result", "R37", f"scores {scores}; 底 {di} paid as the rules say gives {want}"
            )

    def _position(self, pos: Any, w: dict[str, Any]) -> None:
        """``result.position`` is the winner's holdings the walk ended with (§4)."""
        if not isinstance(pos, dict):
            self.bad("result", "record", "a win without result.position")
            return
        try:
            hand = sorted(cards(pos.get("hand", "")))
            table = sorted(_meld_code(m) for m in pos.get("table", []))
            win = pos.get("win")
            win_c = card(win) if win is not None else None
        except (BadCard, ValueError, TypeError) as e:
            self.bad("result", "record", f"result.position: {e}")
            return
        if hand != w["hand"]:
            self.bad(
                "result",
                "record",
                f"position hand {' '.join(CODES[c] for c in hand)} ≠ the walk's "
                f"{' '.join(CODES[c] for c in w['hand'])}",
            )
        if table != w["table"]:
            self.bad("result", "record", f"position table {table} ≠ the walk's {w['table']}")
        if win_c != w["card"]:
            self.bad("result", "record", f"position win {win!r} ≠ the 胡 card")
        for k in ("self_drawn", "last_card", "tianhu", "dihu"):
            if bool(pos.get(k, False)) != w["flags"][k]:
                self.bad(
                    "result",
                    "record",
                    f"position {k}={pos.get(k)!r}, the walk says {w['flags'][k]}",
                )


def _meld_code(m: Any) -> tuple[str, tuple[int, ...]]:
    """``"chi:x1x2x3"`` / ``"peng:x10"`` → (kind, cards) as the walk stores them."""
    kind, _, cs = str(m).partition(":")
    if kind not in _SIZE:
        raise ValueError(f"unknown meld {m!r}")
    got = cards(cs)
    if kind == "chi":
        if len(got) != 3:
            raise ValueError(f"bad 吃 meld {m!r}")
        return kind, tuple(sorted(got))
    if not got or len(set(got)) != 1:
        raise ValueError(f"bad meld {m!r}")
    return kind, (got[0],) * _SIZE[kind]


def _choice(d: Any) -> tuple[Any, ...] | None:
    """The comparable key of a choice (action or event): type, seat, card, 吃 groups."""
    if not isinstance(d, dict) or d.get("type") not in ("discard", "chi", "peng", "pass", "hu"):
        return None
    groups: Any = ()
    if d["type"] == "chi":
        try:
            groups = tuple(sorted(tuple(sorted(cards(g))) for g in d.get("groups", [])))
        except (BadCard, TypeError):
            groups = repr(d.get("groups"))
    # pass and hu may omit the card in an action (INTERFACES §4)
    c = d.get("card") if d["type"] in ("discard", "chi", "peng") else None
    return d["type"], d.get("seat"), c, groups


def check(rec: Any) -> list[str]:
    """Every problem the referee finds in a §4 record (empty: clean)."""
    try:
        return Referee(rec).run()
    except Exception as e:  # a referee bug must not hide the record's problems as a crash
        return [f"referee: internal error {e!r}"]


def tag(problem: str) -> str:
    """The rule tag of a problem string (``"event 5: R17: …"`` → ``"R17"``)."""
    parts = problem.split(": ", 2)
    return parts[1] if len(parts) > 2 else "?"


__all__ = ["BadCard", "Referee", "card", "cards", "check", "is_set", "tag"]
