"""特征 (tèzhēng): the (state, action) features the ``neural`` bot scores.

Both come from the seat's :class:`~paohuzi.core.views.View` and its legal
actions only, so they cannot leak hidden cards:

- state: :func:`paohuzi.rl.observation.encode` (853 floats);
- action (:data:`ACTION_SIZE` floats each): its type, its card, the cards it
  takes out of the concealed hand and the hand it leaves (a 吃 package's 比
  groups included), its number of groups, and greedy's opinion of it — the
  value the heuristic gives it relative to the best one, and whether it is
  greedy's choice. Greedy's value is a strong, cheap (≈ 0.4 ms) summary of
  胡息, shape and danger; the network learns where to depart from it.

Changing anything here changes :data:`FEATURE_VERSION`: shipped weights name
the version they were trained with and refuse to load with another.
"""

from __future__ import annotations

import numpy as np

from ..bots.greedy import GreedyBot, obvious
from ..core.actions import CHI, DISCARD, HU, PASS, PENG, Action
from ..core.player import Observation
from ..rl.observation import OBSERVATION_SIZE, encode

FEATURE_VERSION = 1
STATE_SIZE = OBSERVATION_SIZE
KINDS = 20
TYPES = (DISCARD, PENG, HU, PASS, CHI)
_TYPE = {t: i for i, t in enumerate(TYPES)}
_CARD = len(TYPES)
_OUT = _CARD + KINDS  # cards leaving the concealed hand, per kind / 4
_LEFT = _OUT + KINDS  # the concealed hand left, per kind / 4
_GROUPS = _LEFT + KINDS  # 吃 groups laid out / 3
_G_REL = _GROUPS + 1  # greedy value − best value, / 2, clipped to [-2, 0]
_G_TOP = _G_REL + 1  # greedy would play this
_G_RANK = _G_TOP + 1  # greedy's rank / number of actions
ACTION_SIZE = _G_RANK + 1
_GREEDY = GreedyBot()


def state_features(obs: Observation) -> np.ndarray:
    """The state vector (float32, :data:`STATE_SIZE`)."""
    return encode(obs.view)


def greedy_values(obs: Observation) -> list[float]:
    """Greedy's value of each legal action (in ``obs.legal`` order; 胡 is huge)."""
    legal = obs.legal
    if obvious(legal) is not None and len(legal) == 1:
        return [0.0]
    return [ch.value for ch in _GREEDY.choices(obs)]


def greedy_choice(legal: list[Action], values: list[float]) -> int:
    """The index greedy plays: 胡 when offered, else its best value (first on ties)."""
    for i, a in enumerate(legal):
        if a.type == HU:
            return i
    return max(range(len(values)), key=lambda i: (values[i], -i))


def action_features(obs: Observation, values: list[float] | None = None) -> np.ndarray:
    """One row (float32, :data:`ACTION_SIZE`) per legal action of ``obs``."""
    legal = obs.legal
    if values is None:
        values = greedy_values(obs)
    hand = np.zeros(KINDS, dtype=np.float32)
    for c in obs.view.hand:
        hand[c] += 1.0
    out = np.zeros((len(legal), ACTION_SIZE), dtype=np.float32)
    best = greedy_choice(legal, values)
    vmax = values[best]
    order = sorted(range(len(legal)), key=lambda i: -values[i])
    rank = {i: r for r, i in enumerate(order)}
    for i, a in enumerate(legal):
        row = out[i]
        row[_TYPE[a.type]] = 1.0
        gone = np.zeros(KINDS, dtype=np.float32)
        if a.card is not None:
            row[_CARD + a.card] = 1.0
            if a.type == DISCARD:
                gone[a.card] = 1.0
            elif a.type == PENG:
                gone[a.card] = 2.0
            elif a.type == CHI:
                for g in a.groups:
                    for c in g:
                        gone[c] += 1.0
                gone[a.card] -= 1.0  # the taken card itself never was in the hand
                row[_GROUPS] = len(a.groups) / 3
        row[_OUT : _OUT + KINDS] = gone / 4
        row[_LEFT : _LEFT + KINDS] = np.maximum(hand - gone, 0.0) / 4
        rel = max(-2.0, min(0.0, (values[i] - vmax) / 2)) if a.type != HU else 0.0
        row[_G_REL] = rel
        row[_G_TOP] = 1.0 if i == best else 0.0
        row[_G_RANK] = rank[i] / len(legal)
    return out


__all__ = [
    "ACTION_SIZE",
    "FEATURE_VERSION",
    "STATE_SIZE",
    "action_features",
    "greedy_choice",
    "greedy_values",
    "state_features",
]
