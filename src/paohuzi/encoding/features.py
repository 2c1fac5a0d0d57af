"""特征 (tèzhēng): the (state, action) features the ``neural`` bot scores.

Both come from the seat's :class:`~paohuzi.core.views.View` and its legal
actions only, so they cannot leak hidden cards:

- state: :func:`paohuzi.encoding.observation.encode` (853 floats);
- action (:data:`ACTION_SIZE` floats each): its type, its card, the cards it
  takes out of the concealed hand and the hand it leaves (a 吃 package's 比
  groups included), its number of groups, and greedy's opinion of it — the
  value the heuristic gives it relative to the one greedy plays, whether it is
  that one, and its rank. Greedy's value is a strong, cheap (≈ 0.4 ms) summary
  of 胡息, shape and danger; the network learns where to depart from it. The
  caller computes that opinion (:func:`paohuzi.bots.greedy.greedy_values`,
  :func:`~paohuzi.bots.greedy.greedy_choice`) and passes it in: encoding sits
  below the bots and never imports them.

Changing anything here changes :data:`FEATURE_VERSION`: shipped weights name
the version they were trained with and refuse to load with another.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.actions import CHI, DISCARD, HU, PASS, PENG
from ..core.player import Observation
from .observation import KINDS, OBSERVATION_SIZE, encode

FEATURE_VERSION = 1
STATE_SIZE = OBSERVATION_SIZE
TYPES = (DISCARD, PENG, HU, PASS, CHI)
_TYPE = {t: i for i, t in enumerate(TYPES)}
_CARD = len(TYPES)
_OUT = _CARD + KINDS  # cards leaving the concealed hand, per kind / 4
_LEFT = _OUT + KINDS  # the concealed hand left, per kind / 4
_GROUPS = _LEFT + KINDS  # 吃 groups laid out / 3
_G_REL = _GROUPS + 1  # greedy value − the chosen one's value, / 2, clipped to [-2, 0]
_G_TOP = _G_REL + 1  # greedy would play this
_G_RANK = _G_TOP + 1  # greedy's rank / number of actions
ACTION_SIZE = _G_RANK + 1


def state_features(obs: Observation) -> np.ndarray:
    """The state vector (float32, :data:`STATE_SIZE`)."""
    return encode(obs.view)


def action_features(obs: Observation, values: Sequence[float], choice: int) -> np.ndarray:
    """One row (float32, :data:`ACTION_SIZE`) per legal action of ``obs``.

    ``values``: greedy's value of each legal action (``obs.legal`` order);
    ``choice``: the index greedy plays.
    """
    legal = obs.legal
    hand = np.zeros(KINDS, dtype=np.float32)
    for c in obs.view.hand:
        hand[c] += 1.0
    out = np.zeros((len(legal), ACTION_SIZE), dtype=np.float32)
    vmax = values[choice]
    order = sorted(range(len(legal)), key=lambda i: -values[i])
    rank = {i: r for r, i in enumerate(order)}
    for i, a in enumerate(legal):
        row = out[i]
        row[_TYPE[a.type]] = 1.0
        gone = np.zeros(KINDS, dtype=np.float32)
        if a.card is not None and a.card < KINDS:  # 胡 on a drawn 王: no kind (R39)
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
        row[_G_TOP] = 1.0 if i == choice else 0.0
        row[_G_RANK] = rank[i] / len(legal)
    return out


__all__ = [
    "ACTION_SIZE",
    "FEATURE_VERSION",
    "STATE_SIZE",
    "action_features",
    "state_features",
]
