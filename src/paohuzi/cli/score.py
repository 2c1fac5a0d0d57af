"""``paohuzi score``: the hand calculator (INTERFACES.md §1, R22–R37).

Three modes: a readable coloured breakdown (default), one JSON object
(``--json``) and JSON Lines in/out (``--batch FILE``, ``-`` for stdin). Bad input
exits 2 with one stderr line; a batch reports a bad line in place and goes on.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from paohuzi.core.cards import CARDS, WANG, WANG_ZH, CardError, parse_tiles
from paohuzi.core.labels import doubling_zh, win_flags_zh
from paohuzi.core.position import Position, WangPattern
from paohuzi.core.rules import Rules, RulesError, Xing
from paohuzi.core.validity import held_kinds, position_problem, win_xing
from paohuzi.core.wang import wang_places

from .common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    RULES_HELP,
    cards_text,
    dumps,
    fail,
    internal_error,
    invalid_input,
    load_rules,
    one_line,
)

if TYPE_CHECKING:
    from paohuzi.core.scoring import Settlement

COMMAND = "score"
MAX_HUANG = 1000  # 荒庄 in a row: past any real count (黄番 tables end long before)
KIND_EN = {
    "chi": "chi",
    "peng": "peng",
    "wei": "wei",
    "chouwei": "chouwei",
    "pao": "pao",
    "ti": "ti",
    "kan": "kan",
    "ju": "run",
    "jiao": "jiao",
    "jiang": "pair",
}
ERROR_TEXT = {
    "not_winning": "no legal 7-门子 shape with this card (R22)",
    "below_min_huxi": "best 胡息 {huxi} is below the minimum {min_huxi} (R23)",
    "pattern_not_played": "these rules give that 王 pattern no 番 (wang_fan: R41 not played)",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        COMMAND,
        help="score a hand: 胡息, 等, 名堂/番, 底",
        description=(
            "Score a 跑胡子 position: the best 7-门子 decomposition (王 as any card, R40), 胡息, 等, 名堂 and 底. "
            "Cards in Chinese (一…十 小, 壹…拾 大) or ASCII (x1…x10, d1…d10); 王 or w is "
            "a wild card (R39–R40)."
        ),
        epilog="example: paohuzi score 四五六八八九十壹贰叁捌 --win 八 "
        "--table peng:拾 --table chi:一二三 --table wei:七",
    )
    p.add_argument("hand", nargs="*", metavar="HAND", help="concealed hand before the winning card")
    p.add_argument("--win", metavar="CARD", help="the winning card")
    p.add_argument(
        "--table",
        action="append",
        default=[],
        metavar="KIND:CARDS",
        help="a table meld: chi|peng|wei|chouwei|pao|ti, e.g. peng:拾 or chi:x1x2x3 (repeatable)",
    )
    p.add_argument("--self-drawn", action="store_true", help="自摸: the winner turned the card up")
    p.add_argument("--last-card", action="store_true", help="海底: it was the last wall card")
    p.add_argument(
        "--tianhu", action="store_true", help="天胡 (R28); without --win: mandatory 天胡"
    )
    p.add_argument(
        "--dihu", action="store_true", help="地胡 (R29): won on the dealer's first discard"
    )
    p.add_argument(
        "--xing",
        action="append",
        default=[],
        metavar="CARD",
        help="醒牌 (R42): the bonus card after the win; repeat for 连翻 (presets with 醒)",
    )
    p.add_argument(
        "--pattern",
        choices=[w.value for w in WangPattern],
        help="R41 王 pattern: the win card (or a drawn 王, --win 王) with 1–3 王 of the hand "
        "as a fixed pair / 坎 / 提 (its 番: the rules' wang_fan)",
    )
    p.add_argument(
        "--huang",
        type=_huang_arg,
        default=0,
        metavar="N",
        help="荒庄 in a row just before this hand (黄番 presets multiply 底; a record's 'huang')",
    )
    p.add_argument(
        "--discard",
        action="store_true",
        help="won on another player's discard (R44: presets with discard wins): the "
        "payment names what the discarder pays",
    )
    p.add_argument("--rules", default="hunan", metavar="P", help=RULES_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--batch",
        metavar="FILE",
        help="JSON Lines positions in, one result per line out ('-': stdin)",
    )
    p.set_defaults(func=run)


def _huang_arg(text: str) -> int:
    n = _huang(int(text)) if text.strip().isdigit() else None
    if n is None:
        raise argparse.ArgumentTypeError(f"must be a count of 荒庄 (0–{MAX_HUANG}), got {text!r}")
    return n


def _huang(v: object) -> int | None:
    """A count of 荒庄 (``huang``), or None if ``v`` is not one."""
    if type(v) is int and 0 <= v <= MAX_HUANG:
        return v
    return None


def run(args: argparse.Namespace) -> int:
    json_mode = bool(args.json or args.batch is not None)
    try:
        return _run(args, json_mode)
    except (BrokenPipeError, KeyboardInterrupt):
        raise
    except Exception as e:  # no traceback reaches the user, even for a bug
        return internal_error(COMMAND, e, json_mode)


def _run(args: argparse.Namespace, json_mode: bool) -> int:
    try:
        rules = load_rules(args.rules)
    except RulesError as e:
        return fail(COMMAND, e, json_mode)
    if args.batch is not None:
        if args.hand or args.win or args.table:
            return fail(COMMAND, "give either HAND/--win/--table or --batch FILE, not both", True)
        return _batch(args.batch, rules)
    if not args.hand:
        return fail(COMMAND, "missing HAND (the concealed hand), or use --batch FILE", json_mode)
    if args.win is None and not args.tianhu:
        return fail(COMMAND, "missing --win CARD (the winning card)", json_mode)
    line = {
        "hand": " ".join(args.hand),
        "table": list(args.table),
        # R28: a 天胡 is won with the dealer's own 亮张, so self-drawn (a batch line says so)
        "self_drawn": args.self_drawn or (args.tianhu and args.win is not None),
        "last_card": args.last_card,
        "tianhu": args.tianhu,
        "dihu": args.dihu,
    }
    if args.win is not None:
        line["win"] = args.win
    if args.xing:
        line["xing"] = list(args.xing)
    if args.pattern:
        line["pattern"] = args.pattern
    try:
        position = read_position(line, rules)
    except ValueError as e:
        return fail(COMMAND, e, json_mode)
    problem = position_problem(position, rules) or discard_problem(position, rules, args.discard)
    if problem is not None:
        return fail(COMMAND, problem, json_mode)
    settlement = _settle(position, rules, args.huang)
    if args.json:
        print(dumps(result_object(settlement, rules, position, args.discard)))
    else:
        console = Console(file=sys.stdout, highlight=False)
        render(settlement, position, rules, console, args.discard)
    return EXIT_OK


def discard_problem(position: Position, rules: Rules, discard: bool) -> str | None:
    """A win on a discard (R44) that cannot be: rules without discard wins, a 自摸."""
    if not discard:
        return None
    if not rules.win_on_discard:
        return f"these rules ({rules.name}) allow no win on a discard (R44)"
    if position.self_drawn or position.tianhu:
        return "a win on a discard is not self-drawn (自摸/天胡)"
    return None


def discarder_pays(settlement: Settlement, rules: Rules, position: Position) -> int:
    """What the discarder pays alone on a discard win (R44; 包赔: every payer's share;
    R37's 地胡 包赔 too; in a race, R45, what comes off his running total, at most the
    race's cap), 0 where each payer pays his own."""
    from paohuzi.core.scoring import discarder_shares, payments

    if not settlement.win:
        return 0
    if rules.payment == "race":  # (the engine's own sum: the winner seat 0, the discarder 1)
        return -payments(settlement.di, 0, [0, 1], rules, discarder=1)[1]
    shares = discarder_shares(rules, 0, position.dihu, rules.seated - 1)
    return _pays(settlement, rules) * shares


def read_position(data: Any, rules: Rules) -> Position:
    """:meth:`Position.from_dict` of a command line's or a batch line's position, with
    the 醒牌 it implies (:func:`with_xing`; a 醒牌 given as 王, R42, is one of them)."""
    xing, wang_at = data.get("xing") if isinstance(data, dict) else None, []
    if isinstance(xing, str):
        xing = [xing]
    if isinstance(xing, list):
        wang_at = [i for i, x in enumerate(xing) if isinstance(x, str) and _one_wang(x)]
    if wang_at:
        data = {k: v for k, v in data.items() if k != "xing"}
        rest = [x for i, x in enumerate(xing) if i not in wang_at]  # type: ignore[arg-type]
        if rest:
            data["xing"] = rest
    return with_xing(Position.from_dict(data, hand_size=rules.hand_size), rules, wang_at)


def _one_wang(text: str) -> bool:
    try:
        return parse_tiles(text) == ([], 1)
    except CardError:
        return False


def with_xing(position: Position, rules: Rules, wang_at: Sequence[int] = ()) -> Position:
    """The position with the 醒牌 it implies (R42): a 王 醒牌 (its places in the list,
    ``wang_at``) is the kind the winner holds most; under 跟醒 with none given, the
    醒牌 is the winning card's (a 王 drawn: again the kind held most)."""
    xing = list(position.xing)
    # 跟醒, or 翻醒 after 海底 (the wall is empty): the 醒牌 is the winning card's
    own = rules.xing == Xing.GEN or (rules.xing == Xing.FAN and position.last_card)
    if rules.xing == Xing.NONE or (not xing and not wang_at and not own):
        return position
    most = CARDS[rules.xing_kind(WANG, held_kinds(position))]  # a 王 turned (R42)
    for i in sorted(wang_at):
        xing.insert(i, most)
    if not xing and own and (position.win is not None or position.win_wang):
        xing = [win_xing(position.win, rules) if position.win is not None else most]
    return replace(position, xing=tuple(xing)) if xing != list(position.xing) else position


def _settle(position: Position, rules: Rules, huang: int = 0) -> Settlement:
    # Imported here so that `paohuzi --help` and the other commands stay light.
    from paohuzi.core.scoring import settle

    return settle(position, rules, huang)


# -- batch --------------------------------------------------------------------------------------
def _batch(path: str, rules: Rules) -> int:
    """One output line per input line, same order; exit 2 if any line was bad."""
    try:
        if path == "-":
            return _batch_stream(sys.stdin, rules)
        with open(path, encoding="utf-8") as f:
            return _batch_stream(f, rules)
    except FileNotFoundError:
        return fail(COMMAND, f"batch file {path} does not exist", True)
    except IsADirectoryError:
        return fail(COMMAND, f"batch file {path} is a directory", True)
    except UnicodeDecodeError as e:
        return fail(COMMAND, f"batch file {path} is not UTF-8 text: {e.reason}", True)
    except OSError as e:
        return fail(COMMAND, f"cannot read batch file {path}: {e.strerror or e}", True)


def _batch_stream(stream: IO[str], rules: Rules) -> int:
    status = EXIT_OK
    for n, raw in enumerate(stream, start=1):
        if n == 1:
            raw = raw.removeprefix("\ufeff")  # a byte-order mark some editors write
        result, problem = score_line(raw, rules)
        print(dumps(result), flush=False)
        if problem is not None:
            status = EXIT_BAD_INPUT
            print(f"paohuzi {COMMAND}: error: line {n}: {problem}", file=sys.stderr)
    sys.stdout.flush()
    return status


def score_line(raw: str, rules: Rules) -> tuple[dict[str, Any], str | None]:
    """Score one JSON Lines position: (result object, problem for stderr or None).

    A blank line is reported too, so output line *n* always answers input line *n*.
    """
    text = raw.strip()
    if not text:
        obj = invalid_input("empty line")
        return obj, obj["message"]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        obj = invalid_input(f"not JSON: {e.msg} at column {e.colno}")
        return obj, obj["message"]
    except RecursionError:  # nested deeper than the parser goes: no position anyway
        obj = invalid_input("not a position: JSON nested too deep")
        return obj, obj["message"]
    huang, discard = 0, False
    if isinstance(data, dict) and "huang" in data:  # a record's 荒庄 before (黄番)
        data = dict(data)
        got = _huang(data.pop("huang"))
        if got is None:
            obj = invalid_input(f"huang must be a count of 荒庄 (0–{MAX_HUANG})")
            return obj, obj["message"]
        huang = got
    if isinstance(data, dict) and "discard" in data:  # a win on a discard (R44)
        data = dict(data)
        discard = data.pop("discard")
        if not isinstance(discard, bool):
            obj = invalid_input("discard must be true or false")
            return obj, obj["message"]
    try:
        position = read_position(data, rules)
    except ValueError as e:
        obj = invalid_input(e)
        return obj, obj["message"]
    problem = position_problem(position, rules) or discard_problem(position, rules, discard)
    if problem is not None:
        obj = invalid_input(problem)
        return obj, obj["message"]
    try:
        return result_object(_settle(position, rules, huang), rules, position, discard), None
    except Exception as e:  # a bug on one line must not lose the rest of the batch
        message = one_line(f"internal error: {type(e).__name__}: {e}")
        return {"error": "internal_error", "message": message}, message


# -- human-readable breakdown ---------------------------------------------------------------------
def render(
    settlement: Settlement,
    position: Position,
    rules: Rules,
    console: Console,
    discard: bool = False,
) -> None:
    """The coloured breakdown: groups, 胡息, doubling, 等, 名堂/番, 底 (R22–R37)."""
    console.print(_position_line(position, rules))
    if settlement.groups:
        console.print(_groups_table(settlement, position))
    if not settlement.win:
        reason = ERROR_TEXT.get(settlement.error or "", settlement.error or "not a win")
        reason = reason.format(huxi=settlement.huxi, min_huxi=rules.min_huxi)
        console.print(Text.assemble(("不胡 not a win: ", "bold yellow"), reason))
        return
    console.print(_summary_table(settlement, rules, position))
    # A position does not say whether the card was discarded or turned up from the
    # wall: unless --discard says so, under discarder-pays rules both payers are named
    # (R37, R44, PRESETS 泸州).
    alone = discarder_pays(settlement, rules, position) if discard else 0
    if alone and rules.payment == "race":  # R45: the winner scores; the discarder loses it
        cap = f" (at most {rules.race.discarder_cap})" if rules.race.discarder_cap else ""
        console.print(
            Text.assemble(
                ("胡 win", "bold green"),
                " — the winner's running total gains ",
                (str(_pays(settlement, rules)), "bold"),
                ", the discarder's loses ",
                (str(alone), "bold"),
                cap,
            )
        )
        return
    if alone:
        shares = alone // max(1, _pays(settlement, rules))
        times = f", × {shares} for every other player: 包赔" if shares > 1 else ""
        line = Text.assemble(("胡 win", "bold green"), " — the discarder alone pays ")
        line.append_text(Text.assemble((str(alone), "bold"), f" (底 {settlement.di}{times})"))
        console.print(line)
        return
    if rules.payment == "race":  # R45: the winner scores; only a discarder loses it
        who = "the winner's running total gains"
        after = f" (a discarder loses it, at most {rules.race.discarder_cap})"
    elif rules.payment == "discarder" and not settlement.zimo:
        who = "the discarder (for everyone, 包赔, on a discard win) or each other player pays"
        if not rules.baopei:
            who = "the discarder (on a discard win) or each other player pays"
        after = ""
    else:
        who, after = "each other player pays", ""
    di, pays = settlement.di, _pays(settlement, rules)
    if pays == di:
        amount = Text.assemble("底 ", (str(di), "bold"))
    else:  # 底分 and 封顶 (R37) say what is paid
        why = f"底 {di}" + (f" × 底分 {rules.base_score}" if rules.base_score != 1 else "")
        if rules.cap and di * rules.base_score > rules.cap:
            why += f", 封顶 {rules.cap}"
        amount = Text.assemble((str(pays), "bold"), f" ({why})")
    console.print(Text.assemble(("胡 win", "bold green"), f" — {who} ", amount, after))


def _pays(settlement: Settlement, rules: Rules) -> int:
    """What each payer pays (the race: what the winner scores), 底分 and 封顶 applied."""
    from paohuzi.core.scoring import each_pays

    return each_pays(settlement.di, rules) if settlement.win else 0


def result_object(
    settlement: Settlement, rules: Rules, position: Position | None = None, discard: bool = False
) -> dict[str, Any]:
    """The ``--json`` / ``--batch`` object: the settlement, and ``pays`` (R37); on a
    win on a discard (``discard``) also ``discarder_pays`` (R44: what he pays alone,
    0 where each payer pays his own)."""
    out = {**settlement.to_dict(), "pays": _pays(settlement, rules)}
    if discard and position is not None:
        out["discarder_pays"] = discarder_pays(settlement, rules, position)
    return out


def _position_line(position: Position, rules: Rules) -> Text:
    """What was scored, one labelled line each: hand, winning card + flags, table melds."""
    line = Text.assemble(("手牌 hand   ", "dim"), cards_text(position.hand))
    line.append(WANG_ZH * position.wang, style="bold")  # R39: the 王 held, last
    line.append("\n胡 win      ", style="dim")
    if position.win is not None:
        line.append_text(cards_text([position.win]))
    elif position.win_wang:
        line.append(WANG_ZH, style="bold")
    if position.pattern is not None:
        line.append(f"  {position.pattern.zh}", style="bold cyan")
    flags = win_flags_zh(lambda key: getattr(position, key))
    if flags:
        line.append("  " + " ".join(flags), style="cyan")
    if position.table:
        line.append("\n进牌 table  ", style="dim")
        for i, g in enumerate(position.table):
            line.append(("  " if i else "") + g.kind.zh, style="dim")
            line.append_text(cards_text(g.cards))
    line.append(f"\n规则 rules  {rules.name}", style="dim")
    return line


def _groups_table(s: Settlement, position: Position) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_footer=True, pad_edge=False)
    table.add_column("#", justify="right", footer="")
    table.add_column("门子 group", footer="合计 total")
    table.add_column("牌 cards")
    table.add_column("胡息 huxi", justify="right", footer=str(sum(s.group_huxi)))
    places = wang_places(s.groups, s.wang, position)
    if s.wang:  # R40: which card of each 门子 a 王 stood for
        table.add_column("王 as")
    for i, (g, h, p) in enumerate(zip(s.groups, s.group_huxi, places, strict=False), start=1):
        kind = f"{g.kind.zh} {KIND_EN.get(g.kind.value, g.kind.value)}"
        row: list[str | Text] = [str(i), kind, cards_text(g.cards)]
        row.append(Text(str(h), style="bold" if h else "dim"))
        if s.wang:
            row.append(cards_text([g.cards[k] for k in p]) if p else Text(""))
        table.add_row(*row)
    return table


UNIT_EN = {"等": "deng", "囤": "tun", "子": "zi", "息": "xi"}


def _summary_table(s: Settlement, rules: Rules, position: Position) -> Table:
    t = Table(box=None, show_header=False, pad_edge=False)
    t.add_column(style="bold")
    t.add_column()
    t.add_row("胡息 huxi", str(s.huxi))
    if s.wang:
        t.add_row(
            "王 wang", "as " + " ".join(c.zh for c in s.wang) + "  (R40: chosen for the best score)"
        )
    if s.doubled:
        t.add_row(
            "翻倍 doubled", f"{doubling_zh(s.doubled)} (R35): {s.huxi} → {s.scored_huxi} 胡息"
        )
    bonus = rules.zimo_bonus if s.zimo else 0
    parts = []
    if bonus:
        parts.append(f"{bonus} 自摸 self-drawn")
    parts += [f"{h.fan} {h.name}" for h in s.mingtang if h.effect == "units"]
    if s.xing:
        parts.append(f"{s.xing} 醒")
    deng = str(s.deng)
    if parts:
        deng += f"  (incl. {' + '.join(parts)})"
    unit = s.unit
    t.add_row(f"{unit} {UNIT_EN.get(unit, 'units')}", deng)
    if s.xing or rules.xing != "none":
        shown = " ".join(x.zh for x in position.xing) or "—"
        t.add_row("醒 xing", f"{s.xing}  (醒牌 {shown})")
    for hit in s.mingtang:
        if hit.effect == "base":
            t.add_row("名堂 mingtang", f"{hit.name} +{hit.fan} (base)")
        elif hit.effect == "fan":
            t.add_row("名堂 mingtang", f"{hit.name} {hit.fan} 番")
    if not any(h.effect == "fan" for h in s.mingtang):
        t.add_row("名堂 mingtang", Text("平胡 none", style="dim"))
    t.add_row("番 fan", str(s.fan))
    # 黄番 and other preset multipliers break 底 = 等 × 番; only show the formula when it holds.
    formula = f"  (= {s.deng} {unit} × {s.fan} 番)" if s.di == s.deng * s.fan else ""
    t.add_row("底 di", Text(f"{s.di}{formula}", style="bold"))
    return t
