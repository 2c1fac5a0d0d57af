"""The shipped ``neural`` bot: its weights load and match their config, it plays from the
seat's view alone, and it only ever returns legal actions (every preset). numpy only."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from paohuzi.bots import Observation, bot_names, make_bot
from paohuzi.bots.neural import DEFAULT_MODEL, load
from paohuzi.core.determinize import resample
from paohuzi.core.records import record
from paohuzi.core.rules import preset
from paohuzi.encoding.features import ACTION_SIZE, FEATURE_VERSION, STATE_SIZE
from paohuzi.table import Table

from .helpers import reach

BOT = make_bot("neural")
EXPLORER = make_bot("neural:eps=0.3")


def test_registered():
    assert "neural" in bot_names()


def test_shipped_weights_load_and_match_their_config():
    assert DEFAULT_MODEL.stat().st_size <= 5 * 1024 * 1024
    net, cfg = load()
    on_disk = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    assert cfg == on_disk
    assert cfg["feature_version"] == FEATURE_VERSION
    assert (cfg["state_size"], cfg["action_size"]) == (STATE_SIZE, ACTION_SIZE)
    assert cfg["sizes"] == net.sizes()
    assert cfg["training"]["hands"] > 0


def test_weights_of_another_feature_version_are_refused(tmp_path):
    import shutil

    npz = tmp_path / "m.npz"
    shutil.copyfile(DEFAULT_MODEL, npz)
    cfg = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    cfg["feature_version"] = FEATURE_VERSION + 1
    npz.with_suffix(".json").write_text(json.dumps(cfg))
    with pytest.raises(ValueError, match="feature version"):
        load(npz)


@pytest.mark.parametrize("rules", ["hunan", "changde", "luzhou"])
def test_only_legal_actions(rules):
    for seed in range(40):
        for policy in ("random", "greedy"):
            state = reach(rules, seed * 7 + 1, (seed * 13) % 70, policy)
            before = record(state)
            for seat in state.to_act():
                legal = state.legal_action_ids(seat)
                for bot in (BOT, EXPLORER):
                    a = bot.act(Observation(state, seat), random.Random(seed))
                    assert a.id() in legal
            assert record(state) == before  # the bot never touched the state


def test_decides_from_the_view_alone():
    """Redrawing every card the seat cannot see never changes its choice."""
    checked = 0
    for seed in range(12):
        state = reach("hunan", seed, 20 + seed, "greedy")
        if state.is_terminal():
            continue
        for seat in state.to_act():
            a = BOT.act(Observation(state, seat), random.Random(0))
            for k in range(3):
                try:
                    other = resample(state, seat, random.Random(k))
                except Exception:
                    continue
                assert BOT.act(Observation(other, seat), random.Random(0)) == a
                checked += 1
    assert checked > 10


@pytest.mark.parametrize("rules", ["hunan", "luzhou"])
def test_plays_whole_matches_at_a_table(rules):
    r = preset(rules)
    bots = [make_bot("neural"), make_bot("greedy")] + [make_bot("neural")] * (r.players - 2)
    scores = Table(bots, r, seed=5, hands=2).play()
    assert sum(scores) == 0


def test_blas_pinned_to_one_thread_during_inference(monkeypatch) -> None:
    """Issue 26: numpy's BLAS ran one thread per core for tiny matrices (13–52 ms
    a decision on a busy machine); ``q`` runs with one thread and restores the
    process's setting after."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from paohuzi.bots.neural import QNet, load

    net, _cfg = load()
    seen: list[int] = []
    forward = QNet._forward

    def spy(self, state, actions):
        seen.extend(
            i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"
        )
        return forward(self, state, actions)

    monkeypatch.setattr(QNet, "_forward", spy)
    with threadpoolctl.threadpool_limits(2, user_api="blas"):
        q = net.q(np.zeros(net.state_size, np.float32), np.zeros((3, net.action_size), np.float32))
        after = [
            i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"
        ]
    assert q.shape == (3,)
    assert seen and set(seen) == {1}
    assert set(after) == {2}
