"""``paohuzi train``: Deep Monte-Carlo training of the ``neural`` bot (needs the ``train`` extra).

```
paohuzi train --run DIR [--minutes M] [--hands N] [--actors A] [--ray ADDRESS] [--resume]
paohuzi train --export DIR/snapshots/h000123456.npz [--out src/paohuzi/models/neural.npz]
```
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from paohuzi.core.rules import RulesError

from .common import EXIT_OK, fail, load_rules

COMMAND = "train"


def register(sub: Any) -> None:
    p = sub.add_parser(
        COMMAND,
        help="train the neural bot (Deep Monte-Carlo self-play; needs torch)",
        description="Imitate greedy, then self-play against greedy, ismcts and past selves.",
    )
    p.add_argument("--run", default=None, metavar="DIR", help="run directory (checkpoints, log)")
    p.add_argument("--resume", action="store_true", help="continue the run in DIR")
    p.add_argument("--minutes", type=float, default=None, help="stop after this wall time")
    p.add_argument("--hands", type=int, default=None, help="stop after this many hands in all")
    p.add_argument("--actors", type=int, default=2, help="actor processes (default 2)")
    p.add_argument("--ray", default=None, metavar="ADDRESS", help="run the actors on Ray")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rules", default=None, help="preset (default hunan)")
    p.add_argument("--imitation-hands", type=int, default=None)
    p.add_argument("--eval-minutes", type=float, default=None)
    p.add_argument("--eval-hands", type=int, default=None, help="hands against greedy per eval")
    p.add_argument("--eval-hands-ismcts", type=int, default=None)
    p.add_argument("--checkpoint-minutes", type=float, default=None)
    p.add_argument("--threads", type=int, default=None, help="torch threads (default 1)")
    p.add_argument(
        "--set", action="append", default=[], metavar="KEY=JSON", help="any config field"
    )
    p.add_argument("--export", default=None, metavar="SNAPSHOT.npz", help="ship these weights")
    p.add_argument("--out", default=None, help="export target (default: the package's model)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.export:
        from paohuzi.bots.neural import DEFAULT_MODEL, load
        from paohuzi.train.evaluate import export

        out = Path(args.out) if args.out else DEFAULT_MODEL
        export(Path(args.export), out)
        load(out)  # refuses weights that do not match this code
        print(f"exported {args.export} → {out}")
        return EXIT_OK
    if not args.run:
        return fail(COMMAND, "--run DIR is required (or --export)", False)
    try:
        import torch  # noqa: F401
    except ImportError:
        return fail(COMMAND, "training needs torch: pip install 'paohuzi[train]'", False)
    from paohuzi.train.config import TrainConfig
    from paohuzi.train.learner import Learner

    try:
        rules = load_rules(args.rules)
    except RulesError as e:
        return fail(COMMAND, e, False)
    cfg_path = Path(args.run) / "config.json"
    if args.resume and cfg_path.exists():
        cfg = TrainConfig.from_json(json.loads(cfg_path.read_text()))
    else:
        cfg = TrainConfig(run_dir=args.run, rules=rules.name, seed=args.seed)
    overrides = {
        "minutes": args.minutes,
        "max_hands": args.hands,
        "actors": args.actors,
        "ray": args.ray,
        "imitation_hands": args.imitation_hands,
        "eval_minutes": args.eval_minutes,
        "eval_hands": args.eval_hands,
        "eval_hands_ismcts": args.eval_hands_ismcts,
        "checkpoint_minutes": args.checkpoint_minutes,
        "threads": args.threads,
    }
    for k, v in overrides.items():
        if v is not None or k in ("minutes", "ray"):
            setattr(cfg, k, v)
    for item in args.set:
        k, _, v = item.partition("=")
        if not hasattr(cfg, k):
            return fail(COMMAND, f"unknown config field {k!r}", False)
        setattr(cfg, k, json.loads(v))
    learner = Learner(cfg, rules, resume=args.resume)
    snap = learner.run(log=lambda line: print(line, file=sys.stderr, flush=True))
    print(f"last snapshot: {snap}")
    return EXIT_OK
