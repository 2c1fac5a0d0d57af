"""Train sb3-contrib's MaskablePPO on one seat of 跑胡子 against the greedy bot.

    pip install torch==2.13.0 sb3-contrib   # torch first: see docs/rl.md
    python examples/maskable_ppo.py [--timesteps 4096] [--opponents greedy]

A smoke-sized run: it shows the pieces fit (the environment's action_masks()
hook, the observation vector, normalized rewards), not a strong player.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy

import paohuzi.rl  # registers paohuzi/Paohuzi-v0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timesteps", type=int, default=4096)
    ap.add_argument("--opponents", default="greedy")
    ap.add_argument("--rules", default="hunan")
    ap.add_argument("--eval-hands", type=int, default=50)
    args = ap.parse_args()

    torch.set_num_threads(1)  # a tiny MLP: more threads only contend for the cores
    env = gymnasium.make(
        paohuzi.rl.ENV_ID, rules=args.rules, opponents=args.opponents, normalize_rewards=True
    )
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=0, verbose=1)
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    print(f"trained {args.timesteps} steps in {time.perf_counter() - t0:.0f} s")
    mean, std = evaluate_policy(model, env, n_eval_episodes=args.eval_hands, use_masking=True)
    print(f"mean normalized reward over {args.eval_hands} hands: {mean:+.3f} ± {std:.3f}")


if __name__ == "__main__":
    main()
