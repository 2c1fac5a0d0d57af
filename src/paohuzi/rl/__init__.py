"""强化学习 (qiánghuà xuéxí): standard RL environments for 跑胡子 (extra ``rl``).

- :mod:`paohuzi.rl.paohuzi_v0`: PettingZoo AEC environment, every seat an agent.
- ``gymnasium.make("paohuzi/Paohuzi-v0", ...)``: one seat against built-in bots
  (:class:`paohuzi.rl.gym_env.PaohuziEnv`), registered by importing this package.
- :mod:`paohuzi.encoding.observation`: the observation vector of a seat's view.
- :mod:`paohuzi.core.action_index`: the fixed action enumeration (no numpy).
- :mod:`paohuzi.rl.openspiel`: an OpenSpiel game (extra ``openspiel``).

See docs/rl.md.
"""

from __future__ import annotations

from ..core.action_index import ACTION_COUNT
from ..encoding.observation import OBSERVATION_SIZE

ENV_ID = "paohuzi/Paohuzi-v0"

try:
    import gymnasium
except ImportError:  # the observation encoding needs numpy only
    pass
else:
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point="paohuzi.rl.gym_env:PaohuziEnv")

__all__ = ["ACTION_COUNT", "ENV_ID", "OBSERVATION_SIZE"]
