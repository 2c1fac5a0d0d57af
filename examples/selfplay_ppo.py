"""Self-play with sb3-contrib's MaskablePPO: the learner against a pool of its past selves.

    pip install torch==2.13.0 sb3-contrib      # torch first: see docs/rl.md
    python examples/selfplay_ppo.py [--timesteps 20000] [--snapshot-every 4096] [--eval-hands 300]

One seat is learned; the other seats are drawn at every hand from a pool
(:class:`paohuzi.rl.selfplay.SelfPlay`): greedy as a fixed anchor, plus a
frozen copy of the learner taken every ``--snapshot-every`` steps (the last
``--pool`` of them). The rewards are ±1 (``reward_mode="win_loss"``). At the
end the learned policy is placed in the arena against two greedy on rotated
decks (:func:`paohuzi.sim.arena.evaluate`, the CIs of ``paohuzi arena``).
A smoke-sized run shows the pieces fit, not a strong player.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import paohuzi.rl  # registers paohuzi/Paohuzi-v0
from paohuzi.bots.policy import PolicyBot, sb3_policy
from paohuzi.rl.selfplay import SelfPlay
from paohuzi.sim.arena import evaluate


class Snapshots(BaseCallback):
    """Every ``every`` steps, put a frozen copy of the learner into the pool."""

    def __init__(self, env: SelfPlay, every: int) -> None:
        super().__init__()
        self.pool_env, self.every, self.taken = env, every, 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= (self.taken + 1) * self.every:
            self.taken += 1
            self.pool_env.add(
                sb3_policy(self.model, snapshot=True), name=f"self@{self.num_timesteps}"
            )
        return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timesteps", type=int, default=20_000)
    ap.add_argument("--snapshot-every", type=int, default=4096)
    ap.add_argument("--pool", type=int, default=5, help="past selves kept")
    ap.add_argument("--n-steps", type=int, default=512)
    ap.add_argument("--rules", default="hunan")
    ap.add_argument("--eval-hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.set_num_threads(1)  # a tiny MLP: more threads only contend for the cores
    base = gymnasium.make(paohuzi.rl.ENV_ID, rules=args.rules, reward_mode="win_loss")
    env = SelfPlay(base, pool=["greedy"], max_size=args.pool)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=min(128, args.n_steps), seed=args.seed
    )
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=Snapshots(env, args.snapshot_every))
    print(
        f"trained {model.num_timesteps} steps in {time.perf_counter() - t0:.0f} s; pool:",
        ", ".join(b.name for b in env.pool),
    )
    res = evaluate(
        PolicyBot(sb3_policy(model), name="ppo"),
        "greedy",
        hands=args.eval_hands,
        seed=args.seed,
        rules=args.rules,
    )
    for name, s in res.stats.items():
        lo, hi = s.ci95()
        ci = f"[{lo:+.2f}, {hi:+.2f}]" if lo is not None and hi is not None else "[—]"
        print(f"{name:>8}: {s.mean:+.3f} per hand {ci} over {s.seat_hands} seat-hands")


if __name__ == "__main__":
    main()
