"""OpenSpiel's DQN (PyTorch) on ``python_paohuzi`` through ``rl_environment``, every seat learning.

    pip install -e ".[openspiel,train]" dm-tree    # torch first: see docs/rl.md
    python examples/openspiel_dqn.py [--episodes 2000] [--eval-hands 300]

One DQN agent per seat (independent learners on the shared game, as
OpenSpiel's ``breakthrough_dqn.py`` does) sees the 853-float observation
tensor (``ObservationType.OBSERVATION``; the information state, with the
whole log, is 18,253 floats). The deal is OpenSpiel chance nodes sampled by
the environment. At the end seat 0's agent plays, greedily, against two
greedy bots in the arena (rotated decks, the CIs of ``paohuzi arena``).
A smoke-sized run shows the pieces fit, not a strong player.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import dqn

import paohuzi.rl.openspiel  # noqa: F401  (registers python_paohuzi)
from paohuzi.bots.policy import PolicyBot
from paohuzi.sim.arena import evaluate


def as_policy(agent: dqn.DQN, player: int) -> PolicyBot:
    """The agent as a paohuzi policy: its greedy step on a hand-made time step."""

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        ts = rl_environment.TimeStep(
            observations={
                "info_state": {player: obs.tolist()},
                "legal_actions": {player: np.flatnonzero(mask).tolist()},
                "current_player": player,
            },
            rewards=None,
            discounts=None,
            step_type=rl_environment.StepType.MID,
        )
        return int(agent.step(ts, is_evaluation=True).action)

    return PolicyBot(policy, name="dqn")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=2000)
    ap.add_argument("--rules", default="hunan")
    ap.add_argument("--eval-hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.set_num_threads(1)
    env = rl_environment.Environment(
        "python_paohuzi",
        rules=args.rules,
        observation_type=rl_environment.ObservationType.OBSERVATION,
        chance_event_sampler=rl_environment.ChanceEventSampler(seed=args.seed),
    )
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [
        dqn.DQN(
            player_id=p,
            state_representation_size=size,
            num_actions=actions,
            hidden_layers_sizes=[128],
            replay_buffer_capacity=20_000,
            batch_size=64,
            min_buffer_size_to_learn=200,
            epsilon_decay_duration=max(1, args.episodes * 40),
            seed=args.seed + p,
        )
        for p in range(env.num_players)
    ]
    t0, steps = time.perf_counter(), 0
    for _ in range(args.episodes):
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            ts = env.step([agents[p].step(ts).action])
            steps += 1
        for a in agents:
            a.step(ts)  # every agent sees the end: its reward
    print(f"{args.episodes} hands, {steps} decisions in {time.perf_counter() - t0:.0f} s")
    res = evaluate(as_policy(agents[0], 0), "greedy", args.eval_hands, args.seed, args.rules)
    for name, s in res.stats.items():
        lo, hi = s.ci95()
        ci = f"[{lo:+.2f}, {hi:+.2f}]" if lo is not None and hi is not None else "[—]"
        print(f"{name:>8}: {s.mean:+.3f} per hand {ci} over {s.seat_hands} seat-hands")


if __name__ == "__main__":
    main()
