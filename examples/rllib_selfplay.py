"""RLlib self-play on the PettingZoo env: every seat plays one shared, action-masked PPO policy.

    pip install "ray[rllib]" dm-tree      # with torch installed first: see docs/rl.md
    python examples/rllib_selfplay.py [--iterations 20] [--ray auto] [--env-runners 4]

The AEC environment (``paohuzi_v0``) goes through RLlib's ``PettingZooEnv``;
its ``{"observation", "action_mask"}`` dicts are renamed to the
``{"observations", "action_mask"}`` that RLlib's ``ActionMaskingTorchRLModule``
reads, so illegal actions get no probability. All seats map to one policy
("shared"): parameter-sharing self-play, the usual RLlib multi-agent setup.

``--ray ADDRESS`` joins an existing Ray cluster (``auto``, ``ray://host:10001``)
and ``--env-runners N`` samples on N workers there — the way to train when one
machine is not enough. Without it, Ray starts locally on one CPU.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import ray
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from paohuzi.rl import paohuzi_v0


class RLlibKeys(BaseWrapper):
    """Observation dicts under the keys RLlib's masking module reads; the mask as float32."""

    def observation_space(self, agent: str) -> spaces.Space:
        inner = self.env.observation_space(agent)
        return spaces.Dict(
            {
                "observations": inner["observation"],
                "action_mask": spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
            }
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        o = self.env.observe(agent)
        return {
            "observations": o["observation"],
            "action_mask": o["action_mask"].astype(np.float32),
        }


def make_env(config: dict[str, Any]) -> PettingZooEnv:
    return PettingZooEnv(RLlibKeys(paohuzi_v0.env(**config)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    ap.add_argument("--rules", default="hunan")
    ap.add_argument("--ray", default=None, metavar="ADDRESS", help="an existing Ray cluster")
    ap.add_argument("--env-runners", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    if args.ray:
        ray.init(address=args.ray)
    else:
        ray.init(num_cpus=1 + args.env_runners, include_dashboard=False, log_to_driver=False)
    register_env("paohuzi", make_env)
    config = (
        PPOConfig()
        .environment("paohuzi", env_config={"rules": args.rules, "reward_mode": "win_loss"})
        .env_runners(num_env_runners=args.env_runners)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *a, **k: "shared")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [128, 128]},
                    )
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(256, args.batch),
            num_epochs=2,
        )
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    t0 = time.perf_counter()
    for i in range(args.iterations):
        result = algo.train()
        env = result.get("env_runners", {})
        print(
            f"iteration {i + 1}: {env.get('num_env_steps_sampled_lifetime', '?')} steps, "
            f"{env.get('num_episodes_lifetime', '?')} hands, "
            f"{time.perf_counter() - t0:.0f} s"
        )
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
