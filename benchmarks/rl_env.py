"""RL environment speed: decision steps per second on one core, env vs raw engine.

    python benchmarks/rl_env.py [--hands N] [--rounds R] [--rules P] [--ablate] [--profile]

The loops play uniformly random actions, taking turns round by round so that
all see the same machine load. Each plays hands of its own (its own seeds), as
an RL run does: a loop that replayed hands another loop had just played would
find the evaluator's memos warm.

- ``raw``: :class:`GameState` alone — ``legal_actions`` then ``apply``;
- ``aec``: ``paohuzi_v0.env()``, the standard PettingZoo loop
  (``agent_iter``, ``last()`` → observation and mask, random masked action,
  ``step``); the dead steps after the hand are not counted. The random policy
  reads only the mask, and the env encodes an observation's vector only when
  it is read (issue 27);
- ``aec-read``: the same loop reading every observation's vector, as a
  learner does (every seat asked, forced passes included);
- ``raw+view``: the raw loop plus the acting seat's view
  (:func:`paohuzi.core.views.view`) at every step — the floor of any
  environment whose observations come from the view;
- ``raw-idx``: the engine alone with the environment's policy (a uniformly
  random action index). On the same seeds it played the AEC loop's hands
  move for move until issue 26: the env now asks a claim window's seats in a
  fixed order, so the same draws go to other seats; the play is alike, not
  the same.

CPU time; the best round and the median are printed with the env/raw ratio.
The engine runs as installed (mypyc-compiled or pure; set PAOHUZI_PURE=1 to
force pure). ``--profile`` prints the AEC loop's cProfile top entries.

``--ablate`` adds two ``aec-read`` loops with parts of the observation taken
out, to show where the environment's time goes (the random policy reads only
the mask, so the games are those of ``aec``):

- ``aec-enc``: the view is made but not encoded (a constant vector is returned);
- ``aec-obs``: neither view nor encoding (the mask, PettingZoo's bookkeeping
  and the loop's own sampling remain).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import paohuzi
from paohuzi.core.action_index import PASS_INDEX, legal_by_index
from paohuzi.core.rules import preset
from paohuzi.core.views import view
from paohuzi.encoding.observation import OBSERVATION_SIZE
from paohuzi.rl import paohuzi_v0
from paohuzi.rl._hand import ObservedHand, deal


def raw(rules_name: str, seeds: range, with_view: bool = False, indexed: bool = False) -> int:
    """The engine alone: random legal actions (and, with_view, the actor's view).

    ``indexed``: the environment's policy instead, a uniformly random action
    index — the same draws as :func:`aec` (sorted legal indices, one
    ``choice``), so on the same seeds the same hands are played move for move.
    The plain uniform choice among legal actions takes 吃 more often (a 吃 with
    比 has many packages), and those hands cost more per step.
    """
    rules = preset(rules_name)
    steps = 0
    for seed in seeds:
        state = deal(rules, random.Random(seed))
        pick = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player
            if with_view:
                view(state, seat)
            legal = state.legal_actions(seat)
            if indexed:
                by_index = legal_by_index(legal)
                state.apply(by_index[pick.choice(sorted(by_index))])
            else:
                state.apply(pick.choice(legal))
            steps += 1
    return steps


def aec(make: Callable[..., object], rules_name: str, seeds: range, read: bool = False) -> int:
    """The AEC loop; counts the engine's decisions only. A claim window asks every
    seat (issue 26): the forced passes of seats without an option take time
    here but are not counted, so steps per second compare with ``raw``'s.
    ``read``: every observation's vector is read too."""
    env = make(rules=rules_name)
    hand = env.unwrapped  # type: ignore[attr-defined]
    steps = 0
    for seed in seeds:
        env.reset(seed=seed)  # type: ignore[attr-defined]
        pick = random.Random(seed)
        for agent in env.agent_iter():  # type: ignore[attr-defined]
            obs, _reward, term, trunc, _info = env.last()  # type: ignore[attr-defined]
            if term or trunc:
                env.step(None)  # type: ignore[attr-defined]
                continue
            if read:
                obs["observation"]
            if not hand.hand.legal(int(agent.removeprefix("player_"))):
                env.step(PASS_INDEX)  # type: ignore[attr-defined]  # a forced pass
                continue
            steps += 1
            # mask.nonzero()[0], not np.flatnonzero(mask) (the same indices for a 1-D
            # mask, without numpy's function dispatch: about 1 µs a decision, 5%).
            env.step(pick.choice(obs["action_mask"].nonzero()[0]))  # type: ignore[attr-defined]
    return steps


LOOPS: dict[str, Callable[[str, range], int]] = {
    "raw": raw,
    "aec": lambda r, s: aec(paohuzi_v0.env, r, s),
    "aec-read": lambda r, s: aec(paohuzi_v0.env, r, s, read=True),
    "raw+view": lambda r, s: raw(r, s, with_view=True),
    "raw-idx": lambda r, s: raw(r, s, indexed=True),
}


def ablated(observation: Callable[[ObservedHand, int], np.ndarray]) -> Callable[[str, range], int]:
    """The reading AEC loop with ``ObservedHand.observation`` replaced (ablation only)."""

    def loop(rules_name: str, seeds: range) -> int:
        real = ObservedHand.observation
        ObservedHand.observation = observation  # type: ignore[method-assign]
        try:
            return aec(paohuzi_v0.env, rules_name, seeds, read=True)
        finally:
            ObservedHand.observation = real  # type: ignore[method-assign]

    return loop


_CONSTANT = np.zeros(OBSERVATION_SIZE, np.float32)
ABLATIONS: dict[str, Callable[[str, range], int]] = {
    "aec-enc": ablated(lambda hand, seat: (hand.view(seat), _CONSTANT)[1]),
    "aec-obs": ablated(lambda hand, seat: _CONSTANT),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300, help="hands per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rules", default="hunan")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--ablate", action="store_true", help="add the loops aec-enc and aec-obs")
    args = ap.parse_args()
    loops = {**LOOPS, **(ABLATIONS if args.ablate else {})}

    for loop in loops.values():  # warm-up: tables, imports
        loop(args.rules, range(10**6, 10**6 + 50))
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(LOOPS["aec"], args.rules, range(args.hands))
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return

    rates: dict[str, list[float]] = {name: [] for name in loops}
    for r in range(args.rounds):
        for k, (name, loop) in enumerate(loops.items()):
            # Each loop its own hands: a loop that replays hands another loop just
            # played finds the evaluator's memos warm and runs up to a third faster.
            seeds = range((k + 1) * 10**7 + r * args.hands, (k + 1) * 10**7 + (r + 1) * args.hands)
            t0 = time.process_time()
            steps = loop(args.rules, seeds)
            rates[name].append(steps / (time.process_time() - t0))
    engine = "compiled" if paohuzi.compiled() else "pure Python"
    print(f"{args.rules}, engine {engine}, {args.rounds} rounds × {args.hands} hands")
    print(f"{'loop':<9} {'best steps/s':>13} {'median':>10} {'vs raw':>8} {'µs/step':>8}")
    best_raw = max(rates["raw"])
    for name, rs in rates.items():
        best = max(rs)
        print(
            f"{name:<9} {best:>13,.0f} {statistics.median(rs):>10,.0f}"
            f" {best / best_raw:>8.2f} {1e6 / best:>8.1f}"
        )


if __name__ == "__main__":
    main()
