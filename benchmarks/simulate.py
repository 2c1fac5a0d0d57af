"""Self-play speed: complete random-bot hands per second on one core.

    python benchmarks/simulate.py [--games N] [--rounds R] [--rules P] [--profile] [--json]
    python benchmarks/simulate.py --against OLD/src      # this checkout vs another, A/B

Each round plays N new hands (seeds never repeat) through the same loop as
``paohuzi simulate`` (:func:`paohuzi.sim.selfplay.run_job`: deal, ask each bot
through its Observation, apply). The engine is timed twice, in two processes
that take turns round by round so that both see the same machine load: as
installed (mypyc-compiled, with the evaluator's C kernel, after
``PAOHUZI_COMPILE=1 pip install -e .``, see setup.py; on a pure install both
sides are the same) and as pure Python
(``PAOHUZI_PURE=1``). With ``--against DIR`` the two sides are instead this
checkout's sources and another checkout's ``src`` (a before/after of a change,
e.g. ``git worktree add /tmp/old <commit>``), both pure Python.
A warm-up of 300 other hands comes first
in each process (table loading, caches). CPU time; the best round and the
median are printed, with the compiled/pure ratio. ``--profile`` adds the
pure engine's cProfile top entries.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

WORKER = "worker"
PROFILE = "profile"


def worker(rules_name: str, games: int) -> None:
    """Play a round per line of stdin (its number is the seed); print CPU seconds."""
    import paohuzi
    from paohuzi.core.rules import preset
    from paohuzi.sim.selfplay import Job, run_job

    rules = preset(rules_name)
    bots = ("random",) * rules.players
    run_job(Job(rules, 10**6, bots, tuple(range(300))))
    kernel = getattr(paohuzi._native, "kernel", bool)()  # the evaluator's C kernel (_kernel.c)
    print(json.dumps({"compiled": paohuzi.compiled(), "kernel": kernel}), flush=True)
    for line in sys.stdin:
        t0 = time.process_time()
        run_job(Job(rules, int(line), bots, tuple(range(games))))
        print(time.process_time() - t0, flush=True)


def profile(rules_name: str, games: int) -> None:
    import cProfile
    import pstats

    from paohuzi.core.rules import preset
    from paohuzi.sim.selfplay import Job, run_job

    rules = preset(rules_name)
    job = Job(rules, 1, ("random",) * rules.players, tuple(range(games)))
    run_job(Job(rules, 10**6, job.bots, tuple(range(300))))
    prof = cProfile.Profile()
    prof.runcall(run_job, job)
    pstats.Stats(prof).sort_stats("tottime").print_stats(12)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500, help="hands per round")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--rules", default="hunan")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--against", metavar="SRC", help="compare with another checkout's src/")
    args = ap.parse_args()

    here = str(Path(__file__).resolve().parents[1] / "src")
    pairs = (
        (("installed", False, None), ("pure", True, None))
        if not args.against
        else (("this", True, here), ("against", True, str(Path(args.against).resolve())))
    )
    sides = {}
    for name, pure, path in pairs:
        env = {k: v for k, v in os.environ.items() if k != "PAOHUZI_PURE"}
        if pure:
            env["PAOHUZI_PURE"] = "1"
        if path is not None:
            env["PYTHONPATH"] = path
        cmd = [sys.executable, __file__, WORKER, args.rules, str(args.games)]
        sides[name] = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
    builds = {n: json.loads(p.stdout.readline()) for n, p in sides.items()}
    times: dict[str, list[float]] = {n: [] for n in sides}
    for r in range(args.rounds):
        for n, p in sides.items():
            assert p.stdin is not None and p.stdout is not None
            p.stdin.write(f"{r + 1}\n")
            p.stdin.flush()
            times[n].append(float(p.stdout.readline()))
    for p in sides.values():
        p.communicate("")

    out: dict[str, object] = {"rules": args.rules, "games_per_round": args.games}
    for n, ts in times.items():
        out[n] = {
            "compiled": builds[n]["compiled"],
            "kernel": builds[n]["kernel"],
            "best_hands_per_second": round(args.games / min(ts), 1),
            "median_hands_per_second": round(args.games / statistics.median(ts), 1),
        }
    a, b = list(sides)
    ratio = statistics.median(times[b]) / statistics.median(times[a])
    out[f"ratio_{a}_over_{b}"] = round(ratio, 3)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"random-bot self-play, {args.rules}, {args.rounds} rounds × {args.games} hands")
        for n in sides:
            d = out[n]
            assert isinstance(d, dict)
            kind = "mypyc-compiled" if d["compiled"] else "pure Python"
            kind += " + C kernel" if d.get("kernel") else ""
            print(
                f"  {n:9s} ({kind:25s}) best {d['best_hands_per_second']:8.1f} hands/s/core"
                f"   median {d['median_hands_per_second']:8.1f}"
            )
        print(f"  ratio {a} / {b} (hands per second, medians): {ratio:.3f}×")
    if args.profile:  # in a pure-Python process: cProfile cannot see inside compiled code
        env = {**os.environ, "PAOHUZI_PURE": "1"}
        cmd = [sys.executable, __file__, PROFILE, args.rules, str(args.games)]
        subprocess.run(cmd, env=env, check=True)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == WORKER:
        worker(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == PROFILE:
        profile(sys.argv[2], int(sys.argv[3]))
    else:
        main()
