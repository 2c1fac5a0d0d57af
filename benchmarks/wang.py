"""王 (R40) cost: the same winning hands with 0, 1, 2, 3 and 4 of their concealed
cards turned into 王, under a best-score preset (issue 23's targets: 2 王 ≤ 5×,
4 王 ≤ 25× the cost of the hand without).

    python benchmarks/wang.py [--hands 300] [--rules hengyang] [--seed 1]

Two things are timed: the evaluator — the most 胡息 of the hand, what the engine's
win check asks (``HandEvaluator.best`` without 王, ``wang.most_huxi`` with; the C
kernel's when built) — and the settlement (``settle``: with 王 every split and
assignment is scored, R46). Hands come from seeded greedy self-play (the
winners' positions), so nobody picked them; each 王 replaces a random concealed
card. Prints µs per hand (median of rounds) and the ratios to 0 王; "cold"
empties the 王 search's memos before every round.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

import paohuzi
from paohuzi.bots.greedy import GreedyBot
from paohuzi.core.evaluator import evaluator_for
from paohuzi.core.position import Position
from paohuzi.core.rules import preset
from paohuzi.core.scoring import settle
from paohuzi.core.wang import _CLASSES, _MEMO, _MOST, _wild_kernel, most_huxi
from paohuzi.table import Table


def winning_positions(rules_name: str, n: int, seed: int) -> list[Position]:
    rules = preset(rules_name)
    out: list[Position] = []
    rng = random.Random(seed)
    while len(out) < n:
        t = Table([GreedyBot() for _ in range(rules.players)], rules, seed=rng.getrandbits(32))
        result = t.play_hand()
        pos = result.position if result is not None else None
        if pos is not None and not pos.at_deal and len(pos.hand) >= 4:
            out.append(pos)
    return out


def with_wang(p: Position, k: int, rng: random.Random) -> Position:
    hand = list(p.hand)
    for _ in range(k):
        hand.pop(rng.randrange(len(hand)))
    return replace(p, hand=tuple(hand), wang=k)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--rules", default="hengyang")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rules = preset(a.rules)
    base = winning_positions(a.rules, a.hands, a.seed)
    rng = random.Random(a.seed)
    sets = {k: [with_wang(p, k, rng) for p in base] for k in range(5)}
    best = evaluator_for(rules).best
    search = _wild_kernel(rules)

    def most(p: Position) -> int:
        return most_huxi(p, rules) if p.wild else best(p)

    def settled(p: Position) -> object:
        return settle(p, rules)

    for label, f in (("evaluator (most 胡息)", most), ("settlement", settled)):
        cost: dict[tuple[int, str], float] = {}
        for cold in (True, False):
            for k, ps in sets.items():
                times = []
                for _ in range(a.rounds):
                    if cold:
                        _MEMO.clear()
                        _MOST.clear()
                        _CLASSES.clear()
                        if search is not None:
                            search.clear()
                    t0 = time.process_time()
                    for p in ps:
                        f(p)
                    times.append((time.process_time() - t0) / len(ps) * 1e6)
                cost[k, "cold" if cold else "warm"] = statistics.median(times)
        engine = "compiled" if paohuzi.compiled() else "pure"
        kernel = "C kernel" if search is not None else "no kernel"
        print(f"王 {label}, {a.rules}, {len(base)} winning hands ({engine}, {kernel})")
        for k in sets:
            c, w = cost[k, "cold"], cost[k, "warm"]
            print(
                f"  {k} 王: cold {c:9.1f} µs ({c / cost[0, 'cold']:5.1f}×)   "
                f"warm {w:9.1f} µs ({w / cost[0, 'warm']:5.1f}×)"
            )


if __name__ == "__main__":
    main()
