"""Bot speed: milliseconds per decision, on positions from greedy self-play.

    python benchmarks/bots.py [--bots random,greedy,ismcts] [--hands N] [--seed S]
                              [--rules PRESET|FILE] [--json]

Decision points are collected first (every pending decision of N hands played
by greedy at every seat, hunan rules unless ``--rules`` names another preset or a
rules file such as ``benchmarks/rules/hunan_wang2.toml``); then each bot decides at each of them,
timed one by one. Points with a single legal action are skipped (every bot
returns at once there). The time includes building the seat's view (the
Observation), which every real caller pays too. Reported: mean, median and
95th percentile of wall time, the mean CPU time of the process (robust on a
busy machine), and the number of decisions.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from paohuzi.bots import Observation, make_bot
from paohuzi.cli.common import load_rules
from paohuzi.core.state import GameState


def positions(hands: int, seed: int, rules_name: str) -> list[tuple[GameState, int]]:
    rules = load_rules(rules_name)
    greedy = make_bot("greedy")
    out = []
    for i in range(hands):
        st = GameState(rules, seed=seed + i)
        rng = random.Random(i)
        while not st.is_terminal():
            for seat in st.to_act():
                if len(st.legal_actions(seat)) > 1:
                    out.append((st.clone(), seat))
            seat = st.current_player
            st.apply(greedy.act(Observation(st, seat), rng))
    return out


def time_bot(spec: str, points: list[tuple[GameState, int]], limit: int) -> dict[str, float]:
    bot = make_bot(spec)
    rng = random.Random(0)
    ms, cpu = [], 0.0
    for st, seat in points[:limit]:
        t0, c0 = time.perf_counter(), time.process_time()
        bot.act(Observation(st, seat), rng)
        ms.append(1000 * (time.perf_counter() - t0))
        cpu += 1000 * (time.process_time() - c0)
    ms.sort()
    return {
        "decisions": len(ms),
        "cpu_ms": cpu / len(ms),
        "mean_ms": statistics.fmean(ms),
        "median_ms": ms[len(ms) // 2],
        "p95_ms": ms[int(0.95 * (len(ms) - 1))],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="random,greedy,ismcts")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="hunan")
    ap.add_argument("--limit", type=int, default=200, help="max decisions timed for slow bots")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    points = positions(args.hands, args.seed, args.rules)
    out = {}
    for spec in args.bots.split(";") if ";" in args.bots else args.bots.split(","):
        limit = len(points) if spec.split(":")[0] in ("random", "greedy") else args.limit
        out[spec] = time_bot(spec, points, limit)
    if args.json:
        print(json.dumps(out))
        return
    print(f"{len(points)} decision points from {args.hands} greedy hands ({args.rules})")
    print(f"{'bot':28s} {'n':>6s} {'mean ms':>9s} {'median':>9s} {'p95':>9s} {'CPU ms':>9s}")
    for spec, r in out.items():
        print(
            f"{spec:28s} {r['decisions']:6d} {r['mean_ms']:9.3f} "
            f"{r['median_ms']:9.3f} {r['p95_ms']:9.3f} {r['cpu_ms']:9.3f}"
        )


if __name__ == "__main__":
    main()
