"""The settlement against ``best`` under every preset: µs per position, in one process.

    python benchmarks/settle_presets.py [--n 3000] [--rounds 5] [--seed 1]

Each preset times ``HandEvaluator.best`` and ``settle`` on the same generated
positions (``corpus``), the two alternating round by round after a warm-up pass
(the memos filled), and prints the best round of each and their ratio (issue 27:
settlement ≤ 2× ``best``), and how many wins split one way only. Best-score presets
whose 名堂 read the split (常德, 娄底: R46) compare every split of a hand that has
two, by each split's (胡息, profile) (``HandEvaluator.outcomes``). The engine runs as
installed (``PAOHUZI_PURE=1`` for the pure build). The figures of one line only
compare with the same line's.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import paohuzi
from corpus import corpus
from paohuzi.core.evaluator import evaluator_for, split_count
from paohuzi.core.rules import PRESETS
from paohuzi.core.scoring import settle


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    positions = corpus(a.n, a.seed)
    engine = "compiled" if paohuzi.compiled() else "pure"
    print(f"{len(positions)} positions, {a.rounds} rounds, engine {engine} (µs, best round)")
    for name, rules in PRESETS.items():
        ev = evaluator_for(rules)
        ev.preload()
        best = ev.best
        wins = [p for p in positions if settle(p, rules).win]
        tb = ts = float("inf")
        gc.disable()
        for _ in range(a.rounds):
            t0 = time.perf_counter()
            for p in positions:
                best(p)
            tb = min(tb, time.perf_counter() - t0)
            t0 = time.perf_counter()
            for p in positions:
                settle(p, rules)
            ts = min(ts, time.perf_counter() - t0)
        gc.enable()
        one = sum(split_count(p) == 1 for p in wins) / max(1, len(wins))
        n = len(positions)
        print(
            f"  {name:>9}: best {tb / n * 1e6:6.2f}  settle {ts / n * 1e6:7.2f}  "
            f"ratio {ts / tb:5.1f}   wins {len(wins)}, one split {one:.0%}"
        )


if __name__ == "__main__":
    main()
