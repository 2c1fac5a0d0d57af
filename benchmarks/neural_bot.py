"""Time the ``neural`` bot's decisions (numpy inference) against greedy's.

    python benchmarks/neural_bot.py [--hands 60]

Plays ``--hands`` arena hands of neural against two greedy on one process and
prints each bot's mean milliseconds per decision (arena's ``decision_ms``).
"""

from __future__ import annotations

import argparse
import json

from paohuzi.core.rules import HUNAN
from paohuzi.sim.arena import run_arena


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--hands", type=int, default=60)
    args = p.parse_args()
    res = run_arena(["neural", "greedy"], args.hands, HUNAN, seed=3, workers=1).to_json()
    print(json.dumps({k: round(v["decision_ms"], 3) for k, v in res["bots"].items()}))


if __name__ == "__main__":
    main()
