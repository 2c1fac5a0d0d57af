"""Offline distillation (paohuzi.train.offline) and the neural bot's gated play rule:
collect → fit → a model whose config carries the rule, played in the arena. The
held-out evaluation of a threshold is checked on hand-made numbers. No strength
figure is asserted."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest

from paohuzi.bots.greedy import greedy_values
from paohuzi.bots.neural import NeuralBot, QNet
from paohuzi.core.player import Observation
from paohuzi.core.rules import HUNAN
from paohuzi.core.state import GameState
from paohuzi.encoding.features import ACTION_SIZE, STATE_SIZE
from paohuzi.train.actor import Sample

torch = pytest.importorskip("torch")
from paohuzi.train import offline  # noqa: E402


class FixedQ:
    """A stand-in network: Q of action row i is ``q[i]`` (rows are told apart by a marker)."""

    def __init__(self, q: list[float]):
        self.q = q

    def __call__(self, state: torch.Tensor, acts: torch.Tensor) -> torch.Tensor:
        rows = acts[:, :, 0].round().long()  # each sample's action i carries i in column 0
        return torch.tensor(self.q)[rows]


def _sample(gains: list[tuple[int, float]] | None, n: int = 4) -> Sample:
    acts = np.zeros((n, ACTION_SIZE), np.float16)
    acts[:, 0] = np.arange(n)
    g = None if gains is None else np.array(gains, np.float32)
    return Sample(np.zeros(STATE_SIZE, np.float16), acts, 0, 0, 0.0, g)


def test_policy_value_sums_the_recorded_gains_of_departures():
    # candidates are legal actions 0 (greedy's), 2 and 3; gains are /32
    samples = [
        _sample([(0, 0.0), (2, 1 / 32), (3, -2 / 32)]),
        _sample([(0, 0.0), (3, -3 / 32)]),
        _sample(None),  # not searched: not counted
    ]
    net = FixedQ([0.0, 5.0, 0.10, 0.04])  # action 1 is no candidate: never chosen
    assert offline.policy_value(net, samples, 0.0) == (1.0, pytest.approx(-1.0))
    # gate 0.05: only the first sample's candidate 2 (Q 0.10) clears it: +1 point
    assert offline.policy_value(net, samples, 0.05) == (0.5, pytest.approx(0.5))
    assert offline.policy_value(net, samples, 0.2) == (0.0, 0.0)


def test_gated_bot_leaves_greedy_only_for_a_candidate_that_clears_the_gate():
    class Net(QNet):
        def __init__(self, prefer: int, by: float):
            self.prefer, self.by = prefer, by

        def q(self, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
            q = np.zeros(len(actions), np.float32)
            q[self.prefer] = self.by
            return q

    seen = 0
    for seed in range(40):
        st = GameState(HUNAN, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            seat = st.current_player
            obs = Observation(st, seat)
            legal = obs.legal
            if len(legal) > 2 and not any(a.type == "hu" for a in legal):
                values = greedy_values(obs)
                order = sorted(range(len(values)), key=lambda i: -values[i])
                cands = [i for i in order[:3] if values[i] >= values[order[0]] - 8.0]
                outside = next((i for i in order if i not in cands), None)
                for prefer, by, want in (
                    (cands[-1], 0.5, cands[-1]),  # clears the gate
                    (cands[-1], 0.05, cands[0]),  # does not
                    *([(outside, 9.0, cands[0])] if outside is not None else []),  # no candidate
                ):
                    bot = NeuralBot(net=Net(prefer, by), gate=0.1)
                    assert bot.act(obs, rng) is legal[want]
                seen += 1
            st.apply(rng.choice(legal))
    assert seen > 50


def test_collect_and_fit_write_a_model_the_bot_plays(tmp_path):
    data, model = tmp_path / "data", tmp_path / "m.npz"
    cli = [sys.executable, "-m", "paohuzi.cli.main", "train"]
    expert = "ismcts:iters=2,top=3"
    args = ["--shards", "3", "--hands-per-shard", "2", "--actors", "1", "--expert", expert]
    subprocess.run([*cli, "--collect", str(data), *args], check=True, capture_output=True)
    first = sorted(p.read_bytes() for p in data.glob("shard-*.pkl"))
    assert len(first) == 3
    (data / "shard-00001.pkl").unlink()  # an interrupted collection resumes: the same shard
    subprocess.run([*cli, "--collect", str(data), *args], check=True, capture_output=True)
    assert sorted(p.read_bytes() for p in data.glob("shard-*.pkl")) == first
    shards = offline.load(data)
    assert all(s.gains is None or s.gains[0, 1] == 0.0 for sh in shards for s in sh)
    assert any(s.gains is not None for sh in shards for s in sh), "nothing was searched"

    r = subprocess.run(
        [*cli, "--fit", str(data), "--out", str(model), "--epochs", "2", "--folds", "3"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert r.stderr.count("held-out gain loss") == 3  # one network per fold
    cfg = json.loads(model.with_suffix(".json").read_text())
    assert cfg["policy"]["candidates"] == "greedy" and "gate" in cfg["policy"]
    assert cfg["training"]["offline"]["shards"] == 3
    arena = subprocess.run(
        [sys.executable, "-m", "paohuzi.cli.main", "arena", "--bots",
         f"neural:model={model},greedy", "--hands", "6", "--seed", "1", "--json"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert json.loads(arena.stdout)["hands"] == 6


def test_fit_refuses_too_little_data(tmp_path):
    with pytest.raises(ValueError, match="at least 5 shards"):
        offline.fit(tmp_path, tmp_path / "m.npz")


def test_the_packed_ensemble_is_the_mean_of_its_members():
    from paohuzi.train.model import TorchQNet, to_numpy

    members = []
    for k in range(3):
        torch.manual_seed(k)
        members.append(to_numpy(TorchQNet((16, 8, 4))))
    rng = np.random.default_rng(0)
    state = rng.random(STATE_SIZE).astype(np.float32)
    acts = rng.random((5, ACTION_SIZE)).astype(np.float32)
    mean = np.mean([QNet(w).q(state, acts) for w in members], axis=0)
    packed = QNet(offline.ensemble(members))
    assert packed.sizes() == [STATE_SIZE, ACTION_SIZE, 48, 24, 12]
    np.testing.assert_allclose(packed.q(state, acts), mean, atol=1e-6)
