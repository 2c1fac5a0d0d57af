"""策略 (cèlüè): any policy as a seat's player — a function of (observation, mask).

A *policy* is what an RL library hands back: a callable taking the 853-float
observation of :func:`paohuzi.encoding.observation.encode` and the
``Discrete(914)`` legal-action mask (int8, 1 = legal; ``action_count(rules)``
long: 914 for every rules but those with 衡阳's 一五十, which add the 吃 of a
一五十 after them) and returning an action index. :class:`PolicyBot` makes one a
:class:`~paohuzi.core.player.Bot`, so it can sit at a :class:`~paohuzi.table.Table`,
be a Gymnasium opponent or play in the arena. It sees exactly what the RL
environments give a seat.

:func:`as_bot` accepts a bot spec string, a ``Bot``, or a policy;
:func:`load_policy` imports one given as ``module:attr`` (the arena's and the
ladder's way to name a researcher's policy); :func:`sb3_policy` wraps a
(Maskable) Stable-Baselines3 model or policy.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np

from ..core.action_index import action_count, legal_by_index
from ..core.actions import Action
from ..core.player import Bot, Observation
from ..encoding.observation import encode, encode_history

Policy: TypeAlias = Callable[[np.ndarray, np.ndarray], Any]
"""(observation float32[853], mask int8[914 or more]) -> action index."""

_IMPORT_REF = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


class PolicyBot(Bot):
    """policy: plays ``policy(observation, mask)``; an illegal index raises ``ValueError``.

    ``history``: append the seat's last ``history`` log events to the
    observation, as the environments' ``history=K`` does (a policy trained
    with it expects them). ``actions``: how many action indices the policy
    knows (None: the policy's own ``actions`` attribute, else the rules'
    ``action_count``) — a policy trained on 914 plays rules with 一五十 too, its
    mask 914 long and the 吃 of a 一五十 (indices 914 on) masked out for it.
    """

    name = "policy"

    def __init__(
        self,
        policy: Policy,
        name: str | None = None,
        history: int = 0,
        actions: int | None = None,
    ) -> None:
        if not callable(policy):
            raise TypeError(f"a policy must be callable, got {type(policy).__name__}")
        self.policy = policy
        self.history = history
        self.actions = actions if actions is not None else getattr(policy, "actions", None)
        if name is not None:
            self.name = name

    def act(self, obs: Observation, rng: random.Random) -> Action:
        n = self.actions or action_count(obs.view.rules)
        legal = {i: a for i, a in legal_by_index(obs.legal).items() if i < n}
        if not legal:  # pragma: no cover - 过 or a discard (both below 914) is always legal
            raise ValueError(f"policy {self.name} knows none of the legal actions")
        mask = np.zeros(n, np.int8)
        mask[list(legal)] = 1
        x = encode(obs.view)
        if self.history:
            x = np.concatenate((x, encode_history(obs.view, self.history)))
        choice = self.policy(x, mask)
        try:
            i = int(np.asarray(choice).reshape(-1)[0])
        except (TypeError, ValueError, IndexError):
            raise ValueError(
                f"policy {self.name} returned {choice!r}, not an action index"
            ) from None
        act = legal.get(i)
        if act is None:
            raise ValueError(f"policy {self.name} chose action {i}, which is not legal")
        return act


def is_import_ref(spec: str) -> bool:
    """``pkg.module:attr`` (no ``=``: bot options look like ``name:key=value``)."""
    return bool(_IMPORT_REF.match(spec.strip()))


def load_policy(ref: str) -> Bot:
    """The player named ``module:attr``: a ``Bot`` instance as it is, a ``Bot``
    subclass instantiated without arguments, any other callable as a policy.
    Raises ``ValueError`` with the reason when it cannot be loaded."""
    if not is_import_ref(ref):
        raise ValueError(f"{ref!r} is not module:attr")
    mod_name, _, attr = ref.strip().partition(":")
    try:
        obj: Any = importlib.import_module(mod_name)
    except ImportError as e:
        raise ValueError(f"cannot import {mod_name!r}: {e}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"{mod_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if isinstance(obj, type) and issubclass(obj, Bot):
        obj = obj()
    bot = as_bot(obj, name=ref.strip())
    return bot


def as_bot(player: str | Bot | Policy, name: str | None = None, history: int = 0) -> Bot:
    """A bot spec (``"greedy"``, ``"ismcts:iters=8"``, ``"module:attr"``), a
    ``Bot``, or a policy callable (seeing ``history`` log events), as a ``Bot``."""
    if isinstance(player, Bot):
        return player
    if isinstance(player, str):
        from . import make_bot

        if is_import_ref(player) and player.partition(":")[0] not in _bot_names():
            return load_policy(player)
        return make_bot(player)
    if callable(player):
        return PolicyBot(player, name or getattr(player, "__name__", None), history)
    raise TypeError(f"not a bot, a bot spec or a policy: {player!r}")


def _bot_names() -> list[str]:
    from . import bot_names

    return bot_names()


def sb3_policy(model: Any, deterministic: bool = True, snapshot: bool = False) -> Policy:
    """A Stable-Baselines3 model or policy (``predict(obs, action_masks=...)``,
    as sb3-contrib's MaskablePPO has) as a policy; masks are passed as booleans.

    ``snapshot``: play a frozen copy of the model's current policy network (a
    past self for a self-play pool), not the live one that keeps learning.
    """
    n = getattr(getattr(model, "action_space", None), "n", None)  # its masks' length
    if snapshot:
        model = _frozen(getattr(model, "policy", model))

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _state = model.predict(
            obs, action_masks=mask.astype(bool), deterministic=deterministic
        )
        return int(np.asarray(action).reshape(-1)[0])

    if n is not None:  # a model trained on 914 indices is handed masks of 914
        policy.actions = int(n)  # type: ignore[attr-defined]
    return policy


def _frozen(policy: Any) -> Any:
    """A copy of an sb3 policy network with its weights as they are now. Made as sb3
    loads a saved policy (its constructor's arguments, then the weights): a deep copy
    fails once it has learnt, holding tensors of its last forward pass."""
    params = getattr(policy, "_get_constructor_parameters", None)
    if params is None:  # not an sb3 policy: any copyable model
        import copy

        return copy.deepcopy(policy)
    frozen = type(policy)(**params())
    frozen.load_state_dict(policy.state_dict())
    frozen.set_training_mode(False)
    return frozen.to(policy.device)


__all__ = ["Policy", "PolicyBot", "as_bot", "is_import_ref", "load_policy", "sb3_policy"]
