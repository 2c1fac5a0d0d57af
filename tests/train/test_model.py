"""The numpy bot computes exactly what the torch model it was exported from computes."""

from __future__ import annotations

import random

import numpy as np
import pytest

from paohuzi.bots import make_bot
from paohuzi.bots.greedy import greedy_choice, greedy_values
from paohuzi.bots.neural import NeuralBot, QNet
from paohuzi.core.player import Observation
from paohuzi.core.rules import HUNAN
from paohuzi.core.state import GameState
from paohuzi.encoding.features import ACTION_SIZE, STATE_SIZE, action_features, state_features

torch = pytest.importorskip("torch")
from paohuzi.train.model import TorchQNet, from_numpy, to_numpy  # noqa: E402


def _positions(n: int = 60) -> list[Observation]:
    """Decision points of greedy self-play with a choice to make (clones, safe to keep)."""
    greedy, out = make_bot("greedy"), []
    for seed in range(6):
        st = GameState(HUNAN, seed=seed)
        while not st.is_terminal() and len(out) < n:
            obs = Observation(st.clone(), st.current_player)
            if len(obs.legal) > 1:
                out.append(obs)
            st.apply(greedy.act(Observation(st, st.current_player), random.Random(0)))
    return out


def test_numpy_q_equals_torch_q_and_decisions_agree():
    torch.manual_seed(3)
    net = TorchQNet((32, 16, 8))
    bot = NeuralBot(net=QNet(to_numpy(net)))
    for obs in _positions():
        values = greedy_values(obs)
        s, a = state_features(obs), action_features(obs, values, greedy_choice(obs.legal, values))
        assert s.shape == (STATE_SIZE,) and a.shape == (len(obs.legal), ACTION_SIZE)
        with torch.no_grad():
            tq = net(torch.from_numpy(s)[None], torch.from_numpy(a)[None])[0].numpy()
        nq = bot.scores(obs)
        np.testing.assert_allclose(nq, tq, rtol=1e-5, atol=1e-5)
        if not any(x.type == "hu" for x in obs.legal):
            assert bot.act(obs, random.Random(0)) == obs.legal[int(np.argmax(tq))]


def test_weights_round_trip():
    torch.manual_seed(4)
    net = TorchQNet((16, 8, 4))
    w = to_numpy(net)
    back = to_numpy(from_numpy(w))
    assert set(w) == set(back)
    for k in w:
        np.testing.assert_array_equal(w[k], back[k])
