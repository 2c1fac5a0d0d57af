"""``paohuzi play``: a match against bots in a full-screen terminal (textual).

The app itself lives in :mod:`paohuzi.tui`; this module parses the options,
checks that textual (the ``tui`` extra) is installed and prints a short summary
(scores, where the records went) once the terminal is restored.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paohuzi.core.rules import RulesError

from .common import EXIT_BAD_INPUT, EXIT_OK, RULES_HELP, fail, load_rules

COMMAND = "play"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        COMMAND,
        help="play a match against bots in the terminal",
        description=(
            "Play 跑胡子 against bots in a full-screen terminal (80×24 or larger). "
            "Keys: arrows or digits select, Enter confirms, h hints, q quits."
        ),
    )
    p.add_argument("--rules", default="hunan", metavar="P", help=RULES_HELP)
    p.add_argument(
        "--bots",
        default="greedy",
        metavar="B1,B2",
        help="bots for the other seats, in seat order (last one repeats; default greedy); "
        "options after a colon, separated by ';', e.g. 'ismcts:iters=8;top=2,greedy'",
    )
    p.add_argument(
        "--seed", type=int, default=None, metavar="S", help="match seed (default random)"
    )
    p.add_argument(
        "--hands", type=int, default=None, metavar="N", help="hands in the match (default: preset)"
    )
    p.add_argument(
        "--record-dir",
        default=None,
        metavar="DIR",
        help="where each hand's record is saved (default: <user data dir>/paohuzi/records)",
    )
    p.add_argument("--no-records", action="store_true", help="do not save hand records")
    p.add_argument(
        "--delay",
        type=float,
        default=0.6,
        metavar="SEC",
        help="pause before each bot move, so it can be followed (default 0.6)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = load_rules(args.rules)
    except RulesError as e:
        return fail(COMMAND, e)
    if args.hands is not None and args.hands < 1:
        return fail(COMMAND, f"--hands must be at least 1, got {args.hands}")
    if args.delay < 0:
        return fail(COMMAND, f"--delay must not be negative, got {args.delay}")
    try:
        from paohuzi.tui.app import PlayApp
        from paohuzi.tui.session import PlaySession, default_record_dir
    except ImportError as e:
        print(
            f"paohuzi play: error: the terminal game needs textual ({e}); "
            "install it with: pip install 'paohuzi[tui]'",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    record_dir = None
    if not args.no_records:
        record_dir = Path(args.record_dir).expanduser() if args.record_dir else default_record_dir()
    bots = split_bots(args.bots)
    session = PlaySession(rules, args.seed, bots, args.hands, record_dir)
    PlayApp(session, delay=args.delay).run()
    _summary(session)
    return EXIT_OK


def split_bots(text: str) -> list[str]:
    """``"ismcts:iters=8;top=2,greedy"`` → bot specs, the convention of ``paohuzi arena``:
    ``,`` separates bots, ``;`` (or a bare ``key=value``) separates one bot's options."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if out and ":" not in part and "=" in part:
            out[-1] += "," + part
        else:
            out.append(part)
    return [s.replace(";", ",") for s in out]


def _summary(session: object) -> None:
    from paohuzi.tui.session import PlaySession

    assert isinstance(session, PlaySession)
    m = session.match
    names = [session.seat_name(s) for s in range(session.rules.players)]
    scores = "  ".join(f"{n} {v:+d}" for n, v in zip(names, m.scores, strict=True))
    print(f"paohuzi play: {m.index}/{m.hands} hands, seed {session.seed}; scores: {scores}")
    if m.is_over() and m.final() != list(m.scores):  # a race (R45): settled pairwise
        final = "  ".join(f"{n} {v:+d}" for n, v in zip(names, m.final(), strict=True))
        print(f"paohuzi play: settled pairwise (R45): {final}")
    for note in session.notices:
        print(f"paohuzi play: {note}")
    if session.saved:
        print(f"paohuzi play: {len(session.saved)} record(s) in {session.saved[0].parent}")
    if session.save_error:
        print(f"paohuzi play: {session.save_error}", file=sys.stderr)
