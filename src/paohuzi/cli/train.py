"""``paohuzi train``: Deep Monte-Carlo training of the ``neural`` bot (needs the ``train`` extra).

```
paohuzi train --run DIR [--minutes M] [--hands N] [--actors A] [--ray ADDRESS] [--resume]
paohuzi train --export DIR/snapshots/h000123456.npz [--out MODEL.npz]
paohuzi train --collect DATA --shards N [--expert ismcts] [--hands-per-shard K] [--actors A]
paohuzi train --fit DATA --out MODEL.npz [--epochs E] [--folds 5] [--hidden 64,64,32] [--weight-decay W]
```

``--export`` copies a snapshot (and its ``.json``) to ``--out``, by default
``neural.npz`` in the current directory, and checks that the bot loads it. It
never writes into the installed package: shipping a model is a deliberate copy
into ``src/paohuzi/models/`` in a checkout.

``--collect``/``--fit`` distil the search bot offline (:mod:`paohuzi.train.offline`):
stored labels, several epochs, and a departure threshold chosen on held-out data.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from paohuzi.core.rules import RulesError

from .common import EXIT_OK, RULES_HELP, fail, load_rules

COMMAND = "train"
EXPORT_DEFAULT = "neural.npz"  # in the current directory
PACKAGE = Path(__file__).resolve().parents[1]  # the installed paohuzi package


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
    p.add_argument("--rules", default=None, help=RULES_HELP + " (default hunan)")
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
    p.add_argument(
        "--out",
        default=None,
        help=f"--export: target (default ./{EXPORT_DEFAULT}; never inside the installed package)",
    )
    p.add_argument("--collect", default=None, metavar="DATA", help="store search labels in DATA")
    p.add_argument("--shards", type=int, default=100, help="shards to have in DATA (resumes)")
    p.add_argument("--hands-per-shard", type=int, default=10)
    p.add_argument("--expert", default="ismcts", help="the search bot whose labels are stored")
    p.add_argument("--fit", default=None, metavar="DATA", help="train on DATA, write --out")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--hidden", default="64,64,32", help="--fit: one fold network's layer sizes")
    p.add_argument("--weight-decay", type=float, default=0.0, help="--fit: AdamW decay")
    p.add_argument("--lr", type=float, default=1e-3, help="--fit: learning rate")
    p.add_argument("--folds", type=int, default=5, help="--fit: cross-fitting folds")
    p.add_argument(
        "--loss-weights", default="0,0,1", metavar="MSE,MARGIN,GAIN",
        help="--fit: weights of the return MSE, the margin loss towards the expert's choice "
        "and the paired-gain loss",
    )  # fmt: skip
    p.set_defaults(func=run)


def _inside_package(out: Path) -> str | None:
    """Why ``out`` may not be written (None: it may): models never go into the installed package."""
    if not out.resolve().is_relative_to(PACKAGE):
        return None
    return (
        f"--out {out} is inside the installed package ({PACKAGE}); write it elsewhere "
        "(to ship a model, copy the .npz and .json into src/paohuzi/models/ of a checkout)"
    )


def run(args: argparse.Namespace) -> int:
    if args.export:
        from paohuzi.bots.neural import load
        from paohuzi.train.evaluate import export

        out = Path(args.out or EXPORT_DEFAULT)
        if (why := _inside_package(out)) is not None:
            return fail(COMMAND, why, False)
        export(Path(args.export), out)
        load(out)  # refuses weights that do not match this code
        print(f"exported {args.export} → {out}")
        return EXIT_OK
    try:
        import torch  # noqa: F401
    except ImportError:
        return fail(COMMAND, "training needs torch: pip install 'paohuzi[train]'", False)
    if args.collect or args.fit:
        return _offline(args)
    if not args.run:
        return fail(COMMAND, "--run DIR is required (or --export, --collect, --fit)", False)
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


def _offline(args: argparse.Namespace) -> int:
    from paohuzi.train import offline

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if args.collect:
        try:
            rules = load_rules(args.rules)
        except RulesError as e:
            return fail(COMMAND, e, False)
        if args.shards < 1 or args.hands_per_shard < 1 or args.actors < 1:
            return fail(COMMAND, "--shards, --hands-per-shard and --actors must be ≥ 1", False)
        n = offline.collect(
            Path(args.collect),
            args.shards,
            rules,
            args.expert,
            args.hands_per_shard,
            args.actors,
            args.seed,
            log,
        )
        print(f"wrote {n} shards to {args.collect}")
        return EXIT_OK
    if not args.out:
        return fail(COMMAND, "--fit needs --out MODEL.npz", False)
    if (why := _inside_package(Path(args.out))) is not None:
        return fail(COMMAND, why, False)
    try:
        hidden = tuple(int(x) for x in args.hidden.split(","))
        if len(hidden) != 3 or min(hidden) < 1:
            raise ValueError("--hidden takes three positive sizes, e.g. 64,64,32")
        if args.folds < 2:
            raise ValueError("--folds must be at least 2")
        lw = tuple(float(x) for x in args.loss_weights.split(","))
        if len(lw) != 3 or min(lw) < 0:
            raise ValueError("--loss-weights takes three weights ≥ 0, e.g. 0,0.2,1")
        cfg = offline.FitConfig(
            epochs=args.epochs, hidden=hidden, lr=args.lr, folds=args.folds,
            weight_decay=args.weight_decay, seed=args.seed, weights=lw,
        )  # fmt: skip
        res = offline.fit(Path(args.fit), Path(args.out), cfg, log=log)
    except (ValueError, FileNotFoundError) as e:
        return fail(COMMAND, e, False)
    print(f"wrote {args.out} (gate {res['gate']}, epochs kept {res['epochs_kept']})")
    return EXIT_OK
