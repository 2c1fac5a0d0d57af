"""What one observation costs in the AEC loop: µs per vector read (the seat's view
and its encoding), and observations per counted step.

    PAOHUZI_PURE=1 python benchmarks/aec_observation.py [--hands N] [--rounds R]

The loop of ``benchmarks/rl_env.py``'s ``aec-read`` (every observation's vector
read, forced passes included), timing only the reads (``perf_counter`` around
``obs["observation"]``: the lazy vector is made there). Each round plays hands of
its own; the best round is printed. A direct measure: ``aec-read``'s steps per
second also carry the engine, PettingZoo's bookkeeping and the machine's noise.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from paohuzi.core.action_index import PASS_INDEX
from paohuzi.rl import paohuzi_v0


def run(rules: str, seeds: range) -> tuple[float, int, int]:
    """(µs spent reading vectors, vectors read, counted steps)."""
    env = paohuzi_v0.env(rules=rules)
    hand = env.unwrapped
    clock, spent, reads, steps = time.perf_counter_ns, 0, 0, 0
    for seed in seeds:
        env.reset(seed=seed)
        pick = random.Random(seed)
        for agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            t0 = clock()
            obs["observation"]
            spent += clock() - t0
            reads += 1
            if not hand.hand.legal(int(agent.removeprefix("player_"))):
                env.step(PASS_INDEX)  # a forced pass: read, not counted
                continue
            steps += 1
            env.step(pick.choice(np.flatnonzero(obs["action_mask"])))
    return spent / 1000, reads, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=80)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rules", default="hunan")
    args = ap.parse_args()
    run(args.rules, range(10**6, 10**6 + 30))  # warm-up: tables, imports
    rounds = []
    for r in range(args.rounds):
        spent, reads, steps = run(args.rules, range(r * args.hands, (r + 1) * args.hands))
        rounds.append((spent / reads, reads / steps))
    best = min(rounds)
    print(f"{args.rules}: {best[0]:.2f} µs per observation (best of {args.rounds} rounds),")
    print(f"  {best[1]:.2f} observations per counted step")


if __name__ == "__main__":
    main()
