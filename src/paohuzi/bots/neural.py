"""神经网络 (shénjīng wǎngluò): the ``neural`` bot — a learned Q(state, action), numpy only.

The network (trained by :mod:`paohuzi.train`, Deep Monte-Carlo as in DouZero)
scores every legal action from the seat's view: the state features once, each
action's features once, then a small MLP. The bot plays the best-scored legal
action, so it can only ever return a legal one. Playing needs numpy, not torch.

Weights ship as ``paohuzi/models/neural.npz`` with ``neural.json`` (feature
version, layer sizes, training budget); ``neural:model=PATH.npz`` loads others
(the config is the ``.json`` beside them).
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from ..core.actions import Action
from ..core.player import Bot, Observation
from ..encoding.features import (
    ACTION_SIZE,
    FEATURE_VERSION,
    STATE_SIZE,
    action_features,
    state_features,
)
from . import register
from .greedy import greedy_choice, greedy_values

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_MODEL = MODEL_DIR / "neural.npz"
LAYERS = ("ws", "wa", "b1", "w2", "b2", "w3", "b3", "w4", "b4")


class QNet:
    """Q(s, a) = MLP([s, a]); the first layer is split so s is multiplied once per decision.

    The matrices are tiny (tens of rows), yet numpy's BLAS starts one thread per
    core for them; on a busy machine those threads wait for each other and a
    decision took 13–52 ms instead of 2. So ``q`` pins the BLAS to
    ``blas_threads`` (1; None: leave it alone) through threadpoolctl, for the
    call only (about 20 µs), leaving the process's own setting as it was.
    """

    blas_threads: int | None = 1

    def __init__(self, weights: dict[str, np.ndarray]):
        missing = [k for k in LAYERS if k not in weights]
        if missing:
            raise ValueError(f"weights lack {missing}")
        self.w = {k: np.ascontiguousarray(weights[k], dtype=np.float32) for k in LAYERS}
        self.state_size, self.action_size = self.w["ws"].shape[0], self.w["wa"].shape[0]

    def q(self, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Q of each row of ``actions`` (n × A) in ``state`` (S): n floats."""
        if self.blas_threads is None:
            return self._forward(state, actions)
        with _blas().limit(limits=self.blas_threads, user_api="blas"):
            return self._forward(state, actions)

    def _forward(self, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
        w = self.w
        h = np.maximum(actions @ w["wa"] + (state @ w["ws"] + w["b1"]), 0.0)
        h = np.maximum(h @ w["w2"] + w["b2"], 0.0)
        h = np.maximum(h @ w["w3"] + w["b3"], 0.0)
        return (h @ w["w4"] + w["b4"]).reshape(-1)

    def sizes(self) -> list[int]:
        return [
            self.state_size,
            self.action_size,
            *(self.w[k].shape[1] for k in ("wa", "w2", "w3")),
        ]


def load(path: str | Path = DEFAULT_MODEL) -> tuple[QNet, dict[str, Any]]:
    """The network at ``path`` (.npz) and its config (the .json beside it), checked."""
    p = Path(path)
    cfg_path = p.with_suffix(".json")
    cfg: dict[str, Any] = json.loads(cfg_path.read_text()) if cfg_path.exists() else {}
    with np.load(p) as z:
        net = QNet({k: z[k] for k in z.files})
    version = cfg.get("feature_version", FEATURE_VERSION)
    if version != FEATURE_VERSION:
        raise ValueError(f"{p}: feature version {version}, this code has {FEATURE_VERSION}")
    if (net.state_size, net.action_size) != (STATE_SIZE, ACTION_SIZE):
        raise ValueError(f"{p}: input sizes {net.state_size}/{net.action_size} do not match")
    if "sizes" in cfg and list(cfg["sizes"]) != net.sizes():
        raise ValueError(f"{p}: layer sizes {net.sizes()} differ from its config {cfg['sizes']}")
    return net, cfg


_CACHE: dict[str, tuple[QNet, dict[str, Any]]] = {}


@cache
def _blas() -> ThreadpoolController:
    """The BLAS libraries loaded (numpy's), found once per process."""
    return ThreadpoolController()


@register
class NeuralBot(Bot):
    """neural: the action with the highest learned Q (greedy's 胡 rule kept: 胡 always wins).

    Options: ``model`` (path of an .npz; default the shipped weights), ``eps``
    (probability of a uniformly random legal action, for exploration; default 0),
    ``gate`` (overrides the model's own).

    A model distilled offline from the search bot (:mod:`paohuzi.train.offline`)
    carries a play rule in its config, ``"policy": {"candidates": "greedy", "top",
    "margin", "gate"}``: its Q was trained only on the differences between greedy's
    ``top`` candidates within ``margin``, the ones the search compared, so it picks
    among those, and leaves greedy's choice only for a candidate whose Q beats it
    by more than ``gate`` (``null``: never).
    """

    name = "neural"

    def __init__(
        self,
        model: str | None = None,
        eps: float = 0.0,
        net: QNet | None = None,
        gate: float | None = None,
    ):
        policy: dict[str, Any] | None = None
        if net is None:
            key = str(model or DEFAULT_MODEL)
            if key not in _CACHE:
                _CACHE[key] = load(key)
            net, cfg = _CACHE[key]
            policy = cfg.get("policy")
        self.net = net
        self.eps = float(eps)
        self.policy = dict(policy) if policy else None
        if gate is not None:
            self.policy = {"candidates": "greedy", "top": 3, "margin": 8.0, **(self.policy or {})}
            self.policy["gate"] = float(gate)

    def scores(self, obs: Observation) -> np.ndarray:
        """Q of each of ``obs.legal``."""
        return self._q(obs, greedy_values(obs))

    def act(self, obs: Observation, rng: random.Random) -> Action:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        if self.eps and rng.random() < self.eps:
            return rng.choice(legal)
        for a in legal:
            if a.type == "hu":  # 胡 ends the hand with a payment: never worth refusing here
                return a
        if self.policy is None:
            return legal[int(np.argmax(self.scores(obs)))]
        return legal[self._gated(obs)]

    def _gated(self, obs: Observation) -> int:
        """Greedy's choice unless another of its candidates scores ``gate`` more."""
        assert self.policy is not None
        values = greedy_values(obs)
        order = sorted(range(len(values)), key=lambda i: -values[i])  # stable, as greedy's
        top, margin, gate = self.policy["top"], self.policy["margin"], self.policy["gate"]
        cands = [i for i in order[:top] if values[i] >= values[order[0]] - margin]
        if gate is None or len(cands) == 1:
            return cands[0]
        q = self._q(obs, values)
        best = max(cands, key=lambda i: q[i])
        return best if q[best] - q[cands[0]] > gate else cands[0]

    def _q(self, obs: Observation, values: list[float]) -> np.ndarray:
        """Q of each of ``obs.legal``, given greedy's ``values`` of them."""
        acts = action_features(obs, values, greedy_choice(obs.legal, values))
        return self.net.q(state_features(obs), acts)


__all__ = ["DEFAULT_MODEL", "LAYERS", "NeuralBot", "QNet", "load"]
