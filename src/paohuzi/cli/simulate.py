"""``paohuzi simulate`` — seeded, multiprocess self-play (INTERFACES.md §2).

``--match``: ``--games N`` plays N whole matches (房间, R38) of
``rules.hands_per_match`` hands (``--hands-per-match H`` overrides, 1–100), so
dealers rotate (R6) and each hand carries the real 荒庄 streak (黄番). The JSON
summary then adds ``matches``, ``hands_per_match``, ``mean_match_score_by_seat``
and ``hands_by_huang``; ``games`` still counts hands.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from pathlib import Path

from .._native import compiled, kernel
from ..bots import make_bot
from ..sim.selfplay import simulate
from .common import RULES_HELP, load_rules

MAX_HANDS = 100  # a match, not a marathon: keeps one task (one match) short


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="play N complete hands between bots (self-play)")
    p.add_argument("--games", type=int, required=True, help="number of hands to play")
    p.add_argument("--seed", type=int, default=0, help="same seed ⇒ same games, whatever --workers")
    p.add_argument(
        "--bots", default="random", help="bot per seat, e.g. random,greedy,random (one = all)"
    )
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--records", metavar="DIR", help="write one JSON game record per hand here")
    p.add_argument("--rules", default="hunan", help=RULES_HELP)
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats 2–4 (default: the rules'; 4 with 坐底 where needed)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON summary object")
    p.add_argument(
        "--match",
        action="store_true",
        help="--games N = N whole matches: dealer rotation (R6) and 黄番 streaks (R38)",
    )
    p.add_argument(
        "--hands-per-match",
        type=int,
        default=None,
        metavar="H",
        help=f"hands per match with --match, 1–{MAX_HANDS} (default: the rules')",
    )
    p.set_defaults(func=run)


def _fail(msg: str) -> int:
    print(f"paohuzi simulate: {msg}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        rules = load_rules(args.rules)
        if args.players is not None:
            rules = rules.with_players(args.players)
    except ValueError as e:
        return _fail(str(e))
    if args.games < 1:
        return _fail("--games must be at least 1")
    if args.workers is not None and args.workers < 1:
        return _fail("--workers must be at least 1")
    hands = args.hands_per_match
    if hands is not None:
        if not args.match:
            return _fail("--hands-per-match needs --match")
        if not 1 <= hands <= MAX_HANDS:
            return _fail(f"--hands-per-match must be 1–{MAX_HANDS}, got {hands}")
    per_match = (hands or rules.hands_per_match) if args.match else 1
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) == 1:
        bots *= rules.players
    if len(bots) != rules.players:
        return _fail(f"--bots needs 1 or {rules.players} names for {rules.name}, got {len(bots)}")
    try:
        for b in set(bots):
            make_bot(b)
    except ValueError as e:
        return _fail(str(e))
    if args.records:
        try:
            Path(args.records).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            return _fail(f"--records {args.records}: {e.strerror or e}")
    workers = min(args.workers or os.cpu_count() or 1, args.games)
    show = sys.stdout.isatty() and not args.json
    what = f"{args.games} matches × {per_match} hands" if args.match else f"{args.games} hands"
    run = functools.partial(
        simulate, rules, args.games, args.seed, bots, workers, args.records,
        match=args.match, hands_per_match=hands,
    )  # fmt: skip
    if show:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{what} on {workers} workers", total=args.games)
            summary = run(progress=lambda n: bar.advance(task, n))
    else:
        summary = run()
    out = summary.to_dict()
    out.update({"seed": args.seed, "bots": bots, "rules": rules.name, "workers": workers})
    if isinstance(played := dict(rules.extra).get("variants"), str):
        out["variants"] = played  # the region's options played (--rules PRESET:ID=VALUE)
    if args.match:
        out["hands_per_match"] = per_match
    out["engine"] = "compiled" if compiled() else "pure"  # see setup.py
    out["kernel"] = kernel()  # the evaluator's C kernel (docs/speed.md)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(
        f"{out['games']} hands · {out['seconds']} s · {out['games_per_second']} hands/s · {workers} workers"
    )
    print(
        f"wins by seat {out['wins_by_seat']} · 荒庄 {out['draws']} · mean 底 of wins {out['mean_di']}"
    )
    print(f"mean score by seat {out['mean_score_by_seat']}")
    if args.match:
        print(
            f"{what} · mean match score by seat {out['mean_match_score_by_seat']}"
            f" · hands by 荒庄 streak {out['hands_by_huang']}"
        )
    if out["mingtang_counts"]:
        print("名堂: " + ", ".join(f"{k} {v}" for k, v in out["mingtang_counts"].items()))
    return 0
