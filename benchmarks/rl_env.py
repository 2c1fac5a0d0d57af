"""RL environment speed: decision steps per second on one core, env vs raw engine.

    python benchmarks/rl_env.py [--hands N] [--rounds R] [--rules P] [--profile]

Three loops play the same hands (same seeds) with uniformly random legal
actions, taking turns round by round so that all see the same machine load:

- ``raw``: :class:`GameState` alone — ``legal_actions`` then ``apply``;
- ``aec``: ``paohuzi_v0.env()``, the standard PettingZoo loop
  (``agent_iter``, ``last()`` → observation and mask, random masked action,
  ``step``); the dead steps after the hand are not counted;
- ``raw+view``: the raw loop plus the acting seat's view
  (:func:`paohuzi.core.views.view`) at every step — the floor of any
  environment whose observations come from the view.

CPU time; the best round and the median are printed with the env/raw ratio.
The engine runs as installed (mypyc-compiled or pure; set PAOHUZI_PURE=1 to
force pure). ``--profile`` prints the AEC loop's cProfile top entries.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import paohuzi
from paohuzi.core.rules import preset
from paohuzi.core.views import view
from paohuzi.rl import paohuzi_v0
from paohuzi.rl._hand import deal


def raw(rules_name: str, seeds: range, with_view: bool = False) -> int:
    """The engine alone: random legal actions (and, with_view, the actor's view)."""
    rules = preset(rules_name)
    steps = 0
    for seed in seeds:
        state = deal(rules, random.Random(seed))
        pick = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player
            if with_view:
                view(state, seat)
            state.apply(pick.choice(state.legal_actions(seat)))
            steps += 1
    return steps


def aec(make: Callable[..., object], rules_name: str, seeds: range) -> int:
    env = make(rules=rules_name)
    steps = 0
    for seed in seeds:
        env.reset(seed=seed)  # type: ignore[attr-defined]
        pick = random.Random(seed)
        for _agent in env.agent_iter():  # type: ignore[attr-defined]
            obs, _reward, term, trunc, _info = env.last()  # type: ignore[attr-defined]
            if term or trunc:
                env.step(None)  # type: ignore[attr-defined]
                continue
            env.step(pick.choice(np.flatnonzero(obs["action_mask"])))  # type: ignore[attr-defined]
            steps += 1
    return steps


LOOPS: dict[str, Callable[[str, range], int]] = {
    "raw": raw,
    "aec": lambda r, s: aec(paohuzi_v0.env, r, s),
    "raw+view": lambda r, s: raw(r, s, with_view=True),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300, help="hands per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rules", default="hunan")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()

    for loop in LOOPS.values():  # warm-up: tables, caches
        loop(args.rules, range(10**6, 10**6 + 50))
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(LOOPS["aec"], args.rules, range(args.hands))
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return

    rates: dict[str, list[float]] = {name: [] for name in LOOPS}
    for r in range(args.rounds):
        seeds = range(r * args.hands, (r + 1) * args.hands)
        for name, loop in LOOPS.items():
            t0 = time.process_time()
            steps = loop(args.rules, seeds)
            rates[name].append(steps / (time.process_time() - t0))
    engine = "compiled" if paohuzi.compiled() else "pure Python"
    print(f"{args.rules}, engine {engine}, {args.rounds} rounds × {args.hands} hands")
    print(f"{'loop':<9} {'best steps/s':>13} {'median':>10} {'vs raw':>8}")
    best_raw = max(rates["raw"])
    for name, rs in rates.items():
        best = max(rs)
        print(f"{name:<9} {best:>13,.0f} {statistics.median(rs):>10,.0f} {best / best_raw:>8.2f}")


if __name__ == "__main__":
    main()
