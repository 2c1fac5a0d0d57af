"""``paohuzi ladder``: every bot and web level in a round-robin, rated with TrueSkill.

```
paohuzi ladder [--players A,B,…] [--hands N] [--seed S] [--rules P] [--workers W]
               [--data FILE.json] [--out FILE.md] [--plot FILE.png] [--json]
paohuzi ladder --place module:attr --data FILE.json [--out FILE.md] [--plot FILE.png]
```
Default players: the web levels' bots (初级 novice, 中级 greedy, 高级 ismcts as
the server runs it) and every other registered bot (neural, random). ``N`` hands per
ordered pair (rounded up to whole seat rotations). ``--place`` reads a stored
ladder, plays the new player against each stored one with the ladder's own
budget and seed, and writes the ladder back (``--data``) with the player on it.
See :mod:`paohuzi.sim.ladder` for the method.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from paohuzi.core.rules import RulesError, preset

from .arena import split_bots, use_cwd
from .common import EXIT_OK, dumps, fail, internal_error

COMMAND = "ladder"


def default_players() -> list[str]:
    """The web levels' bots, then every registered bot not among them."""
    from paohuzi.bots import bot_names

    try:
        from paohuzi.server.room.levels import LEVELS

        specs = [lv.spec for lv in LEVELS.values()]
    except ImportError:  # pragma: no cover - the levels need nothing but the bots
        specs = []
    covered = {s.partition(":")[0] for s in specs}
    return specs + [b for b in bot_names() if b not in covered]


def labels() -> dict[str, str]:
    """Spec → the web level it plays (初级 easy …)."""
    try:
        from paohuzi.server.room.levels import LEVELS
    except ImportError:  # pragma: no cover
        return {}
    return {lv.spec: f"web {lv.zh} {lv.id}" for lv in LEVELS.values()}


def register(sub: Any) -> None:
    p = sub.add_parser(
        COMMAND,
        help="bot ladder: round-robin in the arena, TrueSkill ratings",
        description="Play every pair of players in the arena and rate them with TrueSkill.",
    )
    p.add_argument("--players", default=None, help="comma-separated specs (default: every bot)")
    p.add_argument("--place", default=None, metavar="SPEC", help="add one player to --data")
    p.add_argument("--hands", type=int, default=120, help="hands per ordered pair (default 120)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rules", default="hunan", help="preset (default hunan)")
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--data", default=None, metavar="FILE.json", help="the ladder as JSON")
    p.add_argument("--out", default=None, metavar="FILE.md", help="write the ladder as Markdown")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="draw the ratings")
    p.add_argument("--json", action="store_true", help="print the ladder JSON only")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from paohuzi.sim.ladder import Ladder, place, run_ladder

    js = bool(args.json)
    try:
        import trueskill  # noqa: F401
    except ImportError:
        return fail(COMMAND, "the ladder needs trueskill: pip install 'paohuzi[ladder]'", js)
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return fail(COMMAND, "--plot needs matplotlib: pip install 'paohuzi[plot]'", js)
    if args.hands < 1:
        return fail(COMMAND, "--hands must be at least 1", js)
    if args.workers is not None and args.workers < 1:
        return fail(COMMAND, "--workers must be at least 1", js)
    for opt in ("data", "out", "plot"):
        path = getattr(args, opt)
        if path is not None and not Path(path).resolve().parent.is_dir():
            return fail(COMMAND, f"--{opt} {path}: its directory does not exist", js)
    use_cwd()
    from paohuzi.bots.policy import as_bot

    stored: Ladder | None = None
    if args.place is not None:
        if args.data is None or not Path(args.data).is_file():
            return fail(COMMAND, "--place needs --data FILE.json, a stored ladder", js)
        try:
            stored = Ladder.from_json(json.loads(Path(args.data).read_text(encoding="utf-8")))
            preset(stored.rules)
        except (OSError, ValueError, RulesError) as e:
            return fail(COMMAND, f"{args.data}: {e}", js)
        players = [args.place.strip()]
    else:
        try:
            preset(args.rules)
        except RulesError as e:
            return fail(COMMAND, e, js)
        players = split_bots(args.players) if args.players else default_players()
        if len(dict.fromkeys(players)) < 2:
            return fail(COMMAND, "a ladder needs at least two players", js)
    try:
        for s in players:
            as_bot(s)
    except ValueError as e:
        return fail(COMMAND, e, js)

    def progress(text: str) -> None:
        if not js:
            print(f"  {text}", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    try:
        if stored is not None:
            ladder = place(stored, players[0], args.workers, progress)
        else:
            ladder = run_ladder(players, args.hands, args.seed, args.rules, args.workers, progress)
    except KeyboardInterrupt:
        raise
    except Exception as e:  # a bot or engine bug: one line, no traceback
        return internal_error(COMMAND, e, js)
    seconds = time.perf_counter() - t0
    data = ladder.to_json()
    if args.data:
        Path(args.data).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if args.plot:
        plot(ladder, args.plot)
    text = markdown(ladder, seconds, args.plot, args.out)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    if js:
        print(dumps(data), flush=True)
    else:
        print(text)
    return EXIT_OK


def _ci(lo: float | None, hi: float | None) -> str:
    return "—" if lo is None or hi is None else f"[{lo:+.2f}, {hi:+.2f}]"


def markdown(ladder: Any, seconds: float, plot_path: str | None, out: str | None) -> str:
    """The ladder page: ratings, then the pairwise score table."""
    lab = labels()
    ratings = ladder.ratings()
    lines = [
        "| rank | player | TrueSkill μ | σ | 95 % interval | μ − 3σ | score per hand as the lone seat | ms / decision |",
        "|---:|---|---:|---:|---|---:|---:|---:|",
    ]
    ms: dict[str, list[float]] = {}
    for p in ladder.pairings:
        ms.setdefault(p.lone, []).append(p.decision_ms)
    for i, r in enumerate(ratings, 1):
        name = f"`{r.player}`" + (f" ({lab[r.player]})" if r.player in lab else "")
        lo, hi = r.ci95
        t = sum(ms.get(r.player, [0.0])) / max(1, len(ms.get(r.player, [])))
        lines.append(
            f"| {i} | {name} | {r.mu:.1f} | {r.sigma:.2f} | [{lo:.1f}, {hi:.1f}] | "
            f"{r.conservative:.1f} | {r.mean_score:+.2f} | {t:.2f} |"
        )
    players = [r.player for r in ratings]
    lines += [
        "",
        "Mean net score per hand of the row player at one seat against the column "
        "player at the others, 95 % interval clustered by deck (as `paohuzi arena`):",
        "",
        "| lone seat ↓ / field → | " + " | ".join(f"`{p}`" for p in players) + " |",
        "|---|" + "---|" * len(players),
    ]
    for a in players:
        cells = []
        for b in players:
            p = ladder.pairing(a, b)
            cells.append("—" if p is None else f"{p.mean:+.2f} {_ci(*p.ci95)}")
        lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
    n = len(ladder.pairings)
    head = [
        "# The bot ladder (天梯)",
        "",
        "Written by `paohuzi ladder` (`paohuzi.sim.ladder`). Every ordered pair of players "
        "plays one arena — the first at one seat, the second at the others — on the same "
        "rotated decks; each of the lone seat's hands is a game against the field (won, "
        "lost, or drawn at zero), and TrueSkill (`trueskill`, τ = 0) rates all games "
        "interleaved hand by hand. Both orders of every pair are played, so the field's "
        "extra seats favour nobody. Ordered by μ − 3σ; the interval is μ ± 1.96σ.",
        "",
        f"**Budget:** rules `{ladder.rules}`, {ladder.hands} hands per ordered pair "
        f"(seed {ladder.seed}), {n} pairings, {sum(len(p.scores) for p in ladder.pairings)} "
        f"hands; the last `paohuzi ladder` command took {seconds / 60:.1f} minutes.",
        "",
        "Place a policy of your own (`module:attr`: a `Bot`, a `Bot` class, or "
        "`f(observation, mask) -> action index`) on this ladder with one command; it plays "
        "every player here, both orders, with the same budget and seed:",
        "",
        "```bash",
        "paohuzi ladder --place mypkg.mymodule:policy --data docs/data/ladder.json \\",
        "  --out docs/ladder.md --plot docs/img/ladder.png",
        "```",
        "",
    ]
    if plot_path and out:
        rel = os.path.relpath(Path(plot_path).resolve(), Path(out).resolve().parent)
        head += [f"![TrueSkill ratings]({Path(rel).as_posix()})", ""]
    lines += [
        "",
        "Reading it: TrueSkill's σ measures how sure the rating is from wins, losses and "
        "draws alone, not from the size of payments; players whose intervals overlap are "
        "not separated at this budget — the score table and `paohuzi arena` with more "
        "hands decide those. ms / decision is the wall-clock time on the machine that ran "
        "the ladder, with its other load.",
    ]
    return "\n".join(head + lines) + "\n"


def plot(ladder: Any, path: str) -> None:
    """μ with its 95 % interval per player, best at the top (Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = ladder.ratings()[::-1]
    fig, ax = plt.subplots(figsize=(7.5, 0.6 * len(ratings) + 1.4))
    ys = range(len(ratings))
    mus = [r.mu for r in ratings]
    err = [1.959963984540054 * r.sigma for r in ratings]
    ax.errorbar(mus, ys, xerr=err, fmt="o", capsize=4, color="#16603a")
    ax.set_yticks(list(ys), [r.player for r in ratings])
    ax.set_xlabel("TrueSkill μ (95 % interval μ ± 1.96σ)")
    ax.set_title(f"paohuzi ladder: {ladder.rules}, {ladder.hands} hands per ordered pair")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
