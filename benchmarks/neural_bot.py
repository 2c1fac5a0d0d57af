"""Time the ``neural`` bot's decisions (numpy inference) against greedy's, idle and busy.

    python benchmarks/neural_bot.py [--hands 60] [--unpinned]

Plays ``--hands`` arena hands of neural against two greedy on one process and
prints each bot's mean milliseconds per decision (arena's ``decision_ms``):
first as it is, then again while a second process spins on a core (a busy
machine), and the ratio busy / idle of neural's figure. The bot pins numpy's
BLAS to one thread (``QNet.blas_threads``); ``--unpinned`` also measures the
busy case with the BLAS left at one thread per core, as before issue 26.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time
from collections.abc import Iterator
from contextlib import contextmanager

from paohuzi.bots.neural import QNet
from paohuzi.core.rules import HUNAN
from paohuzi.sim.arena import run_arena


def _spin(stop: mp.synchronize.Event) -> None:
    while not stop.is_set():
        sum(range(10_000))


@contextmanager
def busy() -> Iterator[None]:
    """A second process keeping one core busy."""
    stop = mp.Event()
    p = mp.Process(target=_spin, args=(stop,), daemon=True)
    p.start()
    time.sleep(0.5)
    try:
        yield
    finally:
        stop.set()
        p.join()


def ms(hands: int) -> dict[str, float]:
    res = run_arena(["neural", "greedy"], hands, HUNAN, seed=3, workers=1).to_json()
    return {k: round(v["decision_ms"], 3) for k, v in res["bots"].items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--hands", type=int, default=60)
    p.add_argument("--unpinned", action="store_true", help="also time the busy case unpinned")
    args = p.parse_args()
    ms(3)  # load the model and warm the caches
    out: dict[str, object] = {"idle": ms(args.hands)}
    with busy():
        out["busy"] = ms(args.hands)
        if args.unpinned:
            QNet.blas_threads = None
            out["busy_unpinned"] = ms(args.hands)
            QNet.blas_threads = 1
    idle, load = out["idle"], out["busy"]
    assert isinstance(idle, dict) and isinstance(load, dict)
    out["neural_busy_over_idle"] = round(load["neural"] / idle["neural"], 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
