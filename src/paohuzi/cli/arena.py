"""``paohuzi arena``: bot strength on shared, rotated decks (INTERFACES.md §6).

```
paohuzi arena --bots A,B[,C] (--hands N | --matches M) [--seed S] [--workers W]
              [--rules P] [--json] [--plot FILE.png] [--ray ADDRESS] [--records DIR]
```
``--matches M`` plays whole matches (rounded up to whole rotations): every
rotation plays the same match seed to its end, and a seat's score is what it wins
over the match (a race's pairwise final settlement, R45); ``--json`` adds
``matches`` and ``per_match``. A race preset (``loudi``) is played so only: its
hands are not independent games.
A bot is a spec or a researcher's policy as ``module:attr`` (a ``Bot``, a
``Bot`` class, or a function ``f(observation, mask) -> action index``; see
``paohuzi.bots.policy``), imported from the current directory too.
Fewer bots than seats: the last one fills the rest (``ismcts,greedy`` = one
ismcts vs two greedy). ``N`` is rounded up to whole rotations (one hand per
seat rotation of each deck). Bot options go after a colon and are separated
by ``;`` or ``,`` inside the spec, e.g. ``--bots 'ismcts:iters=8;top=2,greedy'``.
``--records DIR`` writes one §4 record per hand, ``deck-000003-rot-1.json`` for
deck 3 under seat rotation 1, with the bot of each seat under ``bots``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from paohuzi.core.rules import MatchKind, RulesError
from paohuzi.sim.arena import ArenaResult, decks_for, evaluate, lineup

from .common import EXIT_OK, RULES_HELP, dumps, fail, internal_error, load_rules

COMMAND = "arena"


def split_bots(text: str) -> list[str]:
    """``"greedy,ismcts:iters=8;top=2,random"`` → specs; ``;`` separates options
    within a spec (``,`` separates bots), so options become ``key=v,key=v``."""
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if out and ":" not in part and "=" in part:
            out[-1] += "," + part  # a bare key=value continues the previous spec
        else:
            out.append(part)
    return [s.replace(";", ",") for s in out]


def use_cwd() -> None:
    """``module:attr`` players may live in the current directory, as for ``python -m``."""
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)


def register(sub: Any) -> None:
    p = sub.add_parser(
        COMMAND,
        help="bot strength: rotated seats on shared decks",
        description="Play bots against each other on the same decks, every bot at every seat.",
    )
    p.add_argument("--bots", required=True, help="comma-separated bot specs, e.g. greedy,random")
    unit = p.add_mutually_exclusive_group(required=True)
    unit.add_argument("--hands", type=int, help="hands to play (whole rotations)")
    unit.add_argument(
        "--matches",
        type=int,
        help="whole matches to play (whole rotations); a race preset's unit (R45)",
    )
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--rules", default=None, help=RULES_HELP + " (default hunan)")
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats 2–4 (default: the rules'; 4 with 坐底 where needed)",
    )
    p.add_argument("--json", action="store_true", help="print the §6 JSON object only")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="score distributions")
    p.add_argument("--ray", default=None, metavar="ADDRESS", help="run on a Ray cluster")
    p.add_argument(
        "--records", default=None, metavar="DIR", help="write one JSON game record per hand here"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    js = bool(args.json)
    try:
        rules = load_rules(args.rules)
        if args.players is not None:
            rules = rules.with_players(args.players)
    except RulesError as e:
        return fail(COMMAND, e, js)
    matches = args.matches is not None
    count = args.matches if matches else args.hands
    if count < 1:
        return fail(COMMAND, f"--{'matches' if matches else 'hands'} must be at least 1", js)
    if rules.match == MatchKind.RACE and not matches:
        return fail(
            COMMAND,
            f"{rules.name} is a race (R45): its hands are not separate games; "
            "give --matches N (whole races, settled pairwise)",
            js,
        )
    if args.workers is not None and args.workers < 1:
        return fail(COMMAND, "--workers must be at least 1", js)
    specs = split_bots(args.bots)
    use_cwd()
    try:
        line = lineup(specs, rules.players)
        from paohuzi.bots.policy import as_bot

        for s in dict.fromkeys(line):
            as_bot(s)
    except ValueError as e:
        return fail(COMMAND, e, js)
    if args.ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            return fail(
                COMMAND,
                "--ray needs the optional dependency ray: pip install 'paohuzi[ray]'",
                js,
            )
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return fail(COMMAND, "--plot needs matplotlib: pip install 'paohuzi[plot]'", js)
    if args.records is not None:
        try:
            Path(args.records).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            return fail(COMMAND, f"--records {args.records}: {e.strerror or e}", js)
    decks = decks_for(count, rules.players)
    played = decks * rules.players
    if played != count:
        what = "matches" if matches else "hands"
        print(
            f"paohuzi arena: note: {count} {what} rounded up to {played} "
            f"({decks} {'match seeds' if matches else 'decks'} × {rules.players} seat rotations)",
            file=sys.stderr,
        )
    try:
        t0 = time.perf_counter()
        result = _run(args, specs, rules, decks, js)
        seconds = time.perf_counter() - t0
    except KeyboardInterrupt:
        raise
    except Exception as e:  # a bot or engine bug: one line, no traceback
        return internal_error(COMMAND, e, js)
    if args.plot:
        plot(result, args.plot)
    if js:
        print(dumps(result.to_json()), flush=True)
    else:
        show(result, args, seconds)
    return EXIT_OK


def _run(args: argparse.Namespace, specs: list[str], rules: Any, decks: int, js: bool):
    first, rest = specs[0], specs[1:] or specs[:1]
    if js or not sys.stdout.isatty():
        return evaluate(
            first,
            rest,
            _count(args),
            args.seed,
            rules,
            args.workers,
            args.ray,
            records=args.records,
            matches=args.matches is not None,
        )
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        transient=True,
    ) as bar:
        task = bar.add_task("decks", total=decks)
        return evaluate(
            first,
            rest,
            _count(args),
            args.seed,
            rules,
            args.workers,
            args.ray,
            progress=lambda k: bar.update(task, completed=k),
            records=args.records,
            matches=args.matches is not None,
        )


def _count(args: argparse.Namespace) -> int:
    return int(args.matches if args.matches is not None else args.hands)


def _fmt(x: float | None, digits: int = 2) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def show(result: ArenaResult, args: argparse.Namespace, seconds: float) -> None:
    js = result.to_json()
    per_match = result.matches is not None
    title = f"arena · {result.hands} hands · {result.decks} decks · seed {args.seed}"
    if per_match:
        title = f"arena · {js['matches']} matches ({result.hands} hands) · seed {args.seed}"
    t = Table(title=title, box=box.SIMPLE_HEAVY)
    cols = ["bot", "seat-hands", "mean score", "95% CI", "win rate", "胡息 of wins", "ms/dec"]
    if per_match:  # a seat-match is the sample; a win: the highest total; its total
        cols[1], cols[2], cols[5] = "seat-matches", "mean per match", "total of wins"
    for col in cols:
        t.add_column(col, justify="left" if col == "bot" else "right")
    for name, d in js["bots"].items():
        lo, hi = d["ci95"]
        t.add_row(
            name,
            str(result.stats[name].seat_hands),
            f"{d['mean_score']:+.3f}",
            f"[{_fmt(lo)}, {_fmt(hi)}]",
            f"{100 * d['win_rate']:.1f}%",
            _fmt(d["mean_huxi_of_wins"], 1),
            f"{d['decision_ms']:.2f}",
        )
    console = Console()
    console.print(t)
    if per_match:
        m = Table(title="matches (final: the pairwise settlement, R45)", box=box.SIMPLE)
        for col in ("match", "rot", "hands", "bots", "totals", "final"):
            m.add_column(col, justify="right" if col in ("match", "rot", "hands") else "left")
        for x in result.matches or []:
            m.add_row(
                str(x.deck),
                str(x.rotation),
                str(x.hands),
                ",".join(x.seating),
                " ".join(f"{v:+d}" for v in x.totals),
                " ".join(f"{v:+d}" for v in x.final),
            )
        console.print(m)
    console.print(
        f"荒庄 (draw) rate {100 * result.draw_rate:.1f}% · lineup {', '.join(result.lineup)} "
        f"· {seconds:.1f} s"
    )


def plot(result: ArenaResult, path: str) -> None:
    """Score distribution per bot (one seat-hand = one sample), Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    lo = min((min(b.scores) for b in result.stats.values() if b.scores), default=0)
    hi = max((max(b.scores) for b in result.stats.values() if b.scores), default=0)
    bins = [x - 0.5 for x in range(lo, hi + 2)] if hi - lo <= 200 else 60
    for name, b in result.stats.items():
        if b.scores:
            ax.hist(
                b.scores,
                bins=bins,
                histtype="step",
                linewidth=1.5,
                density=True,
                label=f"{name} (mean {b.mean:+.2f})",
            )
    ax.set_yscale("log")
    ax.set_xlabel("net score per hand")
    ax.set_ylabel("fraction of seat-hands (log)")
    ax.set_title(f"paohuzi arena: {result.hands} hands, draws {100 * result.draw_rate:.0f}%")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
