"""Evaluator speed: µs per position through the Python API, in a fresh process.

    python benchmarks/evaluator.py [--corpus FILE.jsonl] [--n N] [--seed S] [--json]
    python benchmarks/evaluator.py --against OLD/src [--rounds R]   # this checkout vs another

Positions are parsed before timing (no JSON inside the timed loop). The timed
call is ``HandEvaluator.best(position)``: does it form 7 门子, and with the most
胡息 (R22–R27). Its lazily filled tables fill *during* the timed loop, so the
first pass includes that cost (the shipped tables are decoded beforehand, with
``preload()``: the untimed "init"); a second (warm) pass and the full settlement
(``settle``: groups, 等, 名堂, 底; a first pass, whose memos fill as they do over a
batch of new lines, and a second, warm as in self-play or a long batch), reading a
position and scoring it
(``Position.from_dict`` + ``best``), reading alone (lines as ``score --batch``
reads them: json.loads before each loop, its strs fresh), and the seat's view against
the engine's step (random hands, ``--hands``) are timed too, with their ratios.
CPU time, cyclic GC off during the timing (as ``timeit`` does). When the C kernel is built
(``PAOHUZI_COMPILE=1`` or ``=kernel``; docs/speed.md), the compiled ``best`` and
the Python one (``HandEvaluator(rules, native=False)``) are timed against each
other in rounds that take turns, and the ratio printed. ``--against DIR`` measures this
checkout's sources and another checkout's ``src`` in fresh processes taking
turns (a before/after in one run) and prints the medians and their ratios.
``--builds`` (the default after a compiled install's own run) measures the two
builds of this checkout in fresh processes taking turns — compiled, and pure
Python (``PAOHUZI_PURE=1``) — and prints ``best``, the settlement, reading a
position and the view against each other, with each build's ratios (issue 27).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import corpus
from paohuzi.core.position import Position
from paohuzi.core.rules import preset


def load(path: str) -> list[Position]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                out.append(Position.from_dict(json.loads(line)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", help="positions in the `score --batch` input form")
    ap.add_argument("--n", type=int, default=100_000, help="generated corpus size")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="hunan")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--against", metavar="SRC", help="compare with another checkout's src/")
    ap.add_argument("--rounds", type=int, default=5, help="rounds per side (--against; kernel)")
    ap.add_argument("--hands", type=int, default=60, help="random hands for the view's timing")
    builds = ap.add_mutually_exclusive_group()
    builds.add_argument(
        "--builds", action="store_true", help="only the pure and compiled builds side by side"
    )
    builds.add_argument(
        "--no-builds", action="store_true", help="not the builds' comparison after this run"
    )
    args = ap.parse_args()
    if args.against:
        return compare(args)
    if args.builds:
        return compare_builds(args)
    positions = load(args.corpus) if args.corpus else corpus(args.n, args.seed)
    rules = preset(args.rules)

    t0 = time.process_time()
    from paohuzi.core.evaluator import evaluator_for
    from paohuzi.core.scoring import settle

    ev = evaluator_for(rules)
    ev.preload()  # decode the shipped tables up front (else the first pass pays for it)
    init = time.process_time() - t0
    best = ev.best
    # As timeit does: no cyclic GC inside the timing (else the collector walks the
    # whole 100k-position corpus whenever the tables allocate).
    gc.collect()
    gc.disable()
    t0 = time.process_time()
    results = [best(p) for p in positions]
    cold = time.process_time() - t0
    t0 = time.process_time()
    for p in positions:
        best(p)
    warm = time.process_time() - t0
    sample = positions[: min(len(positions), 20_000)]
    t0 = time.process_time()
    for p in sample:
        settle(p, rules)
    full = time.process_time() - t0  # first pass: the memos fill as a batch of new lines does
    t0 = time.process_time()
    for p in sample:
        settle(p, rules)
    full_warm = time.process_time() - t0  # as in self-play, search and a long batch
    # Lines as ``score --batch`` reads them: each loop its own json.loads of them, so
    # that every str is fresh, as a line's are (a str's hash, once made, is kept).
    lines = [json.dumps(p.to_dict(), ensure_ascii=False) for p in sample]
    dicts = [json.loads(line) for line in lines]
    t0 = time.process_time()
    for d in dicts:  # reading a position (score --batch, a record) and scoring it
        best(Position.from_dict(d))
    parsed = time.process_time() - t0
    dicts = [json.loads(line) for line in lines]
    t0 = time.process_time()
    for d in dicts:  # reading alone (the loop above minus a warm ``best`` also holds
        Position.from_dict(d)  # the cost of interleaving the two: caches)
    read = time.process_time() - t0
    gc.enable()
    step, seen = view_and_step(rules, args.hands)
    seen_direct, step_direct = view_direct(rules, args.hands)
    n = len(positions)
    versus = kernel_versus_python(rules, positions, args.rounds)
    warm_us = warm / n * 1e6
    import paohuzi

    out = {
        "compiled": paohuzi.compiled(),
        "positions": n,
        "us_per_position": round(cold / n * 1e6, 3),
        "us_per_position_warm": round(warm / n * 1e6, 3),
        "us_per_settlement": round(full / len(sample) * 1e6, 3),
        "us_per_settlement_warm": round(full_warm / len(sample) * 1e6, 3),
        "init_seconds": round(init, 4),
        "winning_fraction": round(sum(r >= rules.min_huxi for r in results) / n, 3),
        "shape_fraction": round(sum(r >= 0 for r in results) / n, 3),
        **versus,
        "us_from_dict_and_best": round(parsed / len(sample) * 1e6, 3),
        "us_from_dict": round(read / len(sample) * 1e6, 3),
        "us_per_engine_step": round(step, 3),
        "us_per_view": round(seen, 3),
        "settlement_over_best": round(full / len(sample) * 1e6 / warm_us, 2),
        "settlement_warm_over_best": round(full_warm / len(sample) * 1e6 / warm_us, 2),
        "from_dict_best_over_settlement": round(parsed / full, 2),
        "from_dict_over_settlement": round(read / full, 2),
        "from_dict_over_settlement_warm": round(read / full_warm, 2),
        "view_over_step": round(seen / step, 2),
        "us_view_direct": round(seen_direct, 3),
        "us_step_direct": round(step_direct, 3),
        "view_direct_over_step": round(seen_direct / step_direct, 2),
    }
    if args.json:
        print(json.dumps(out))
        return
    for k, v in out.items():
        print(f"{k:>22}: {v}")
    if paohuzi.compiled() and not args.no_builds and not args.corpus:
        print()
        compare_builds(args)


def kernel_versus_python(rules: object, positions: list[Position], rounds: int) -> dict:
    """µs per ``best`` of the C kernel and of the Python evaluator (pure, or mypyc if
    that build runs), warm, in rounds that take turns: best and median of the rounds."""
    import statistics

    import paohuzi
    from paohuzi.core.evaluator import HandEvaluator, evaluator_for

    native = evaluator_for(rules)  # type: ignore[arg-type]
    if getattr(native, "_kernel", None) is None:  # a pure install, or an older checkout
        return {}
    python = HandEvaluator(rules, native=False)  # type: ignore[arg-type]
    python.preload()
    for p in positions:  # warm both: the Python evaluator's lazy caches fill here
        assert native.best(p) == python.best(p)
    times: dict[str, list[float]] = {"kernel": [], "python": []}
    gc.collect()
    gc.disable()
    for _ in range(rounds):
        for name, f in (("kernel", native.best), ("python", python.best)):
            t0 = time.process_time()
            for p in positions:
                f(p)
            times[name].append((time.process_time() - t0) / len(positions) * 1e6)
    gc.enable()
    label = "mypyc" if paohuzi.compiled() else "pure"
    out: dict[str, object] = {}
    for name, ts in times.items():
        key = "kernel" if name == "kernel" else f"python_{label}"
        out[f"best_{key}_us"] = f"{min(ts):.3f} best, {statistics.median(ts):.3f} median"
    ratio = statistics.median(times["python"]) / statistics.median(times["kernel"])
    out[f"best_python_{label}_over_kernel"] = round(ratio, 2)
    return out


def view_and_step(rules: object, hands: int) -> tuple[float, float]:
    """µs per engine step (legal actions, one random pick, apply) and per view of the
    acting seat (:func:`paohuzi.core.views.view`, 当前胡息 included), over random hands:
    the same hands played twice, without and with the view, the difference is the view."""
    import random

    from paohuzi.core.state import GameState
    from paohuzi.core.views import view

    def play(with_view: bool) -> tuple[float, int]:
        steps, t0 = 0, time.process_time()
        for seed in range(hands):
            state, pick = GameState(rules, seed=seed), random.Random(seed)  # type: ignore[arg-type]
            while not state.is_terminal():
                seat = state.current_player
                if with_view:
                    view(state, seat)
                state.apply(pick.choice(state.legal_actions(seat)))
                steps += 1
        return time.process_time() - t0, steps

    play(True)  # warm the memos of both loops alike
    bare, steps = min(play(False) for _ in range(3))
    both, _ = min(play(True) for _ in range(3))
    return bare / steps * 1e6, max(both - bare, 0.0) / steps * 1e6


def view_direct(rules: object, hands: int) -> tuple[float, float]:
    """µs per view and per step, each timed directly (``perf_counter_ns`` around it)
    along the same random hands, memos warm: a second measure of ``view_over_step``
    (the difference of two loops above is noisy when the view is small). The legal
    actions are made first, as the step needs them anyway; the view then only reads
    them, so neither side pays for them twice."""
    import random

    from paohuzi.core.state import GameState
    from paohuzi.core.views import view

    clock = time.perf_counter_ns

    def play() -> tuple[float, float]:
        seen = stepped = steps = 0
        for seed in range(hands):
            state, pick = GameState(rules, seed=seed), random.Random(seed)  # type: ignore[arg-type]
            while not state.is_terminal():
                seat = state.current_player
                t0 = clock()
                legal = state.legal_actions(seat)
                t1 = clock()
                view(state, seat)
                t2 = clock()
                state.apply(pick.choice(legal))
                seen += t2 - t1
                stepped += clock() - t2 + t1 - t0
                steps += 1
        return seen / steps / 1000, stepped / steps / 1000

    play()
    runs = [play() for _ in range(3)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


Side = tuple[dict[str, str], bool | None]  # environment variables; compiled (None: either)


def taking_turns(
    args: argparse.Namespace, sides: dict[str, Side], keys: tuple[str, ...]
) -> dict[str, dict[str, float]]:
    """Fresh ``--json`` processes, one per side per round, taking turns; the median
    of each key. A side whose engine did not run as it must (compiled or pure: a
    stale build falls back to Python) stops the run."""
    import os
    import statistics
    import subprocess

    runs: dict[str, list[dict[str, float]]] = {k: [] for k in sides}
    cmd = [sys.executable, __file__, "--json", "--n", str(args.n), "--rules", args.rules]
    cmd += ["--hands", str(args.hands), "--seed", str(args.seed), "--rounds", "1"]
    for _ in range(args.rounds):
        for name, (extra, compiled) in sides.items():
            env = {k: v for k, v in os.environ.items() if k != "PAOHUZI_PURE"}
            out = subprocess.run(cmd, env={**env, **extra}, capture_output=True, text=True)
            if out.returncode:
                sys.exit(f"the {name} side failed ({' '.join(cmd)}):\n{out.stderr}")
            got = json.loads(out.stdout)
            if compiled is not None and got["compiled"] != compiled:
                sys.exit(f"the {name} side did not run as {name}: {got}")
            runs[name].append(got)
    return {n: {k: statistics.median(r[k] for r in rs) for k in keys} for n, rs in runs.items()}


BUILD_KEYS = (
    ("us_per_position", "best, 1st pass"),
    ("us_per_position_warm", "best (warm)"),
    ("us_per_settlement", "settlement, 1st pass"),
    ("us_per_settlement_warm", "settlement, warm"),
    ("us_from_dict", "reading a position"),
    ("us_view_direct", "the seat's view"),
    ("us_step_direct", "the engine's step"),
)


def compare_builds(args: argparse.Namespace) -> None:
    """This checkout compiled and pure (``PAOHUZI_PURE=1``), fresh processes taking
    turns: µs of ``best``, the settlement, reading and the view, and the ratios the
    issue asks for on each build (settlement / ``best``, reading / settlement, view /
    step). Needs a compiled build (``PAOHUZI_COMPILE=1``) for the compiled side."""
    import paohuzi

    if not paohuzi.compiled():
        sys.exit("--builds: this install is pure Python; build with PAOHUZI_COMPILE=1 first")
    src = str(Path(paohuzi.__file__).resolve().parents[1])
    sides: dict[str, Side] = {
        "compiled": ({"PYTHONPATH": src}, True),
        "pure": ({"PYTHONPATH": src, "PAOHUZI_PURE": "1"}, False),
    }
    med = taking_turns(args, sides, tuple(k for k, _ in BUILD_KEYS))
    c, p = med["compiled"], med["pure"]
    if args.json:
        print(json.dumps({"rounds": args.rounds, **med}))
        return
    print(f"both builds, {args.n} positions, {args.rounds} rounds taking turns (µs, medians)")
    print(f"  {'':>20}  {'compiled':>9}  {'pure':>9}  pure/compiled")
    for k, label in BUILD_KEYS:
        print(f"  {label:>20}  {c[k]:9.3f}  {p[k]:9.3f}  {p[k] / c[k]:8.2f}×")
    for label, num, den in (
        ("settlement / best", "us_per_settlement_warm", "us_per_position_warm"),
        ("1st pass / best", "us_per_settlement", "us_per_position_warm"),
        # like for like: both passes over positions new to them (``best`` keeps no memo:
        # its first pass runs the same instructions as its second, on memory not yet cached)
        ("1st / best's 1st", "us_per_settlement", "us_per_position"),
        ("reading / settlement", "us_from_dict", "us_per_settlement_warm"),
        ("reading / 1st pass", "us_from_dict", "us_per_settlement"),
        ("view / step", "us_view_direct", "us_step_direct"),
    ):
        print(f"  {label:>20}  {c[num] / c[den]:9.2f}  {p[num] / p[den]:9.2f}")


def compare(args: argparse.Namespace) -> None:
    """Fresh processes of both trees, taking turns; medians of each measure and ratios."""
    here = str(Path(__file__).resolve().parents[1] / "src")
    trees = {"this": here, "against": str(Path(args.against).resolve())}
    keys: tuple[str, ...] = ("us_per_position", "us_per_position_warm", "us_per_settlement")
    keys += ("us_from_dict_and_best", "us_from_dict", "us_per_engine_step", "us_per_view")
    sides: dict[str, Side] = {
        name: ({"PYTHONPATH": src, "PAOHUZI_PURE": "1"}, None) for name, src in trees.items()
    }
    med = taking_turns(args, sides, keys)
    result = {"rounds": args.rounds, **med}
    result["ratio_this_over_against"] = {
        k: round(med["this"][k] / med["against"][k], 3) if med["against"][k] else math.nan
        for k in keys
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"evaluator, {args.n} positions, {args.rounds} rounds per side (µs, medians; lower is faster)"
    )
    for k in keys:
        r = result["ratio_this_over_against"][k]
        print(
            f"  {k:>22}: this {med['this'][k]:7.3f}  against {med['against'][k]:7.3f}  ratio {r:.3f}"
        )


if __name__ == "__main__":
    main()
