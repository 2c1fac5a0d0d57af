"""网络 (wǎngluò): the torch twin of :class:`paohuzi.bots.neural.QNet`, for training.

Same layers, same names: :func:`to_numpy` gives the dict the numpy bot loads,
:func:`from_numpy` the reverse (resuming from shipped weights, tests).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

from ..bots.neural import LAYERS
from ..encoding.features import ACTION_SIZE, STATE_SIZE


class TorchQNet(nn.Module):
    """Q(s, a) = MLP([s, a]) with hidden sizes ``hidden`` (three layers)."""

    def __init__(self, hidden: Sequence[int] = (256, 256, 128)):
        super().__init__()
        h1, h2, h3 = hidden
        self.hidden = tuple(hidden)
        self.ws = nn.Linear(STATE_SIZE, h1, bias=True)  # its bias is b1
        self.wa = nn.Linear(ACTION_SIZE, h1, bias=False)
        self.l2 = nn.Linear(h1, h2)
        self.l3 = nn.Linear(h2, h3)
        self.l4 = nn.Linear(h3, 1)

    def forward(self, state: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """``state`` B × S, ``actions`` B × n × A → Q, B × n."""
        h = torch.relu(self.wa(actions) + self.ws(state).unsqueeze(1))
        h = torch.relu(self.l2(h))
        h = torch.relu(self.l3(h))
        return self.l4(h).squeeze(-1)


def to_numpy(net: TorchQNet) -> dict[str, np.ndarray]:
    """The weights as :class:`~paohuzi.bots.neural.QNet` wants them (x @ W layout)."""

    def t(x: torch.Tensor) -> np.ndarray:
        return x.detach().cpu().numpy().astype(np.float32).copy()

    out = {
        "ws": t(net.ws.weight.T),
        "b1": t(net.ws.bias),
        "wa": t(net.wa.weight.T),
        "w2": t(net.l2.weight.T),
        "b2": t(net.l2.bias),
        "w3": t(net.l3.weight.T),
        "b3": t(net.l3.bias),
        "w4": t(net.l4.weight.T),
        "b4": t(net.l4.bias),
    }
    assert set(out) == set(LAYERS)
    return out


def from_numpy(weights: dict[str, np.ndarray]) -> TorchQNet:
    net = TorchQNet((weights["wa"].shape[1], weights["w2"].shape[1], weights["w3"].shape[1]))
    with torch.no_grad():
        for mod, w, b in (
            (net.ws, "ws", "b1"),
            (net.wa, "wa", None),
            (net.l2, "w2", "b2"),
            (net.l3, "w3", "b3"),
            (net.l4, "w4", "b4"),
        ):
            mod.weight.copy_(torch.from_numpy(np.asarray(weights[w]).T.copy()))
            if b is not None:
                assert mod.bias is not None
                mod.bias.copy_(torch.from_numpy(np.asarray(weights[b]).copy()))
    return net


__all__ = ["TorchQNet", "from_numpy", "to_numpy"]
