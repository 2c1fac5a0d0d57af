"""王 (R40) cost: the same winning hands with 0, 1, 2, 3 and 4 of their concealed
cards turned into 王, under a best-score preset (issue 23's targets: 2 王 ≤ 5×,
4 王 ≤ 25× the cost of the hand without).

    python benchmarks/wang.py [--hands 300] [--rules hengyang] [--seed 1]

Two things are timed: the evaluator — the most 胡息 of the hand, what the engine's
win check asks (``HandEvaluator.best`` without 王, ``wang.most_huxi`` with; the C
kernel's when built) — and the settlement (``settle``: with 王 every split and
assignment is scored, R46). Hands come from seeded greedy self-play (the
winners' positions), so nobody picked them; each 王 replaces a random concealed
card. Prints µs per hand (median of rounds) and the ratios to 0 王, two ways:

- **first**: each set's first pass in a fresh process (the hands pickled to it), as a
  one-shot ``paohuzi score`` or a web settlement meets a hand: every memo — of the
  hand without 王 as of the hands with — starts empty, after a few other hands of
  every 王 count have built what is built once per process (tables, rules);
- **warm**: the same set again in this process, every memo filled, as in a long
  self-play run or batch.

(Until 2026-12-06 "cold" emptied the 王 search's memos only, so it compared a cold
王 hand against a warm one without 王 and a 王 hand whose other memos were warm.)
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace

import paohuzi
from paohuzi.bots.greedy import GreedyBot
from paohuzi.core.evaluator import evaluator_for
from paohuzi.core.position import Position
from paohuzi.core.rules import preset
from paohuzi.core.scoring import settle
from paohuzi.core.wang import _wild_kernel, most_huxi
from paohuzi.table import Table


def winning_positions(rules_name: str, n: int, seed: int) -> list[Position]:
    rules = preset(rules_name)
    out: list[Position] = []
    rng = random.Random(seed)
    while len(out) < n:
        t = Table([GreedyBot() for _ in range(rules.players)], rules, seed=rng.getrandbits(32))
        result = t.play_hand()
        pos = result.position if result is not None else None
        # (a preset with 王 in its deck, 永州: only the wins without one, so that "0 王" is)
        if pos is not None and not pos.at_deal and len(pos.hand) >= 4 and not pos.wild:
            out.append(pos)
    return out


def with_wang(p: Position, k: int, rng: random.Random) -> Position:
    hand = list(p.hand)
    for _ in range(k):
        hand.pop(rng.randrange(len(hand)))
    return replace(p, hand=tuple(hand), wang=k)


def _timer(rules_name: str, what: str) -> Callable[[Position], object]:
    """The timed call: the most 胡息 (``what="evaluator"``) or the settlement."""
    rules = preset(rules_name)
    if what == "settlement":
        return lambda p: settle(p, rules)
    best = evaluator_for(rules).best
    return lambda p: most_huxi(p, rules) if p.wild else best(p)


def _pass(f: Callable[[Position], object], ps: list[Position]) -> float:
    """µs per hand of one pass over ``ps``, CPU time."""
    t0 = time.process_time()
    for p in ps:
        f(p)
    return (time.process_time() - t0) / len(ps) * 1e6


def _first_pass_here() -> None:
    """The child: read (rules, what, seed, hands), build what a process builds once
    on a few other hands of every 王 count, print the first pass's µs per hand."""
    rules_name, what, seed, ps = pickle.load(sys.stdin.buffer)
    f = _timer(rules_name, what)
    rng = random.Random(seed)
    for p in winning_positions(rules_name, 3, seed + 1):
        for k in range(5):
            f(with_wang(p, k, rng))
    print(_pass(f, ps))


def _first_pass(rules_name: str, what: str, seed: int, ps: list[Position]) -> float:
    job = pickle.dumps((rules_name, what, seed, ps))
    out = subprocess.run(
        [sys.executable, __file__, "--child"], input=job, capture_output=True, check=True
    )
    return float(out.stdout)


def main() -> None:
    if sys.argv[1:] == ["--child"]:
        _first_pass_here()
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--rules", default="hengyang")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    base = winning_positions(a.rules, a.hands, a.seed)
    rng = random.Random(a.seed)
    sets = {k: [with_wang(p, k, rng) for p in base] for k in range(5)}
    engine = "compiled" if paohuzi.compiled() else "pure"
    kernel = "C kernel" if _wild_kernel(preset(a.rules)) is not None else "no kernel"

    for what in ("evaluator", "settlement"):
        first: dict[int, list[float]] = {k: [] for k in sets}
        for r in range(a.rounds):  # the 王 counts take turns, round by round
            for k, ps in sets.items():
                first[k].append(_first_pass(a.rules, what, a.seed + 7 * r, ps))
        f = _timer(a.rules, what)
        warm: dict[int, list[float]] = {k: [] for k in sets}
        for ps in sets.values():
            _pass(f, ps)
        for _ in range(a.rounds):
            for k, ps in sets.items():
                warm[k].append(_pass(f, ps))
        c = {k: statistics.median(v) for k, v in first.items()}
        w = {k: statistics.median(v) for k, v in warm.items()}
        label = "evaluator (most 胡息)" if what == "evaluator" else "settlement"
        print(f"王 {label}, {a.rules}, {len(base)} winning hands ({engine}, {kernel})")
        for k in sets:
            print(
                f"  {k} 王: first {c[k]:9.1f} µs ({c[k] / c[0]:5.1f}×)   "
                f"warm {w[k]:9.1f} µs ({w[k] / w[0]:5.1f}×)"
            )


if __name__ == "__main__":
    main()
