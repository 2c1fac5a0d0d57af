"""A short training run: the actors' samples, the imitation loss going down, checkpoints
that resume, export, and the same actor task on Ray. No strength figure is asserted."""

from __future__ import annotations

import importlib.util
import json
import random

import numpy as np
import pytest

from paohuzi.bots import make_bot
from paohuzi.core.player import Observation
from paohuzi.core.rules import HUNAN
from paohuzi.core.state import GameState
from paohuzi.encoding.features import ACTION_SIZE, STATE_SIZE
from paohuzi.train.actor import IMITATE, SELF, ActorTask, Sample, run_task

torch = pytest.importorskip("torch")
from paohuzi.train.config import TrainConfig  # noqa: E402
from paohuzi.train.learner import Learner, losses  # noqa: E402
from paohuzi.train.model import TorchQNet, to_numpy  # noqa: E402

HAS_RAY = importlib.util.find_spec("ray") is not None


def _held_out(hands: int = 12):
    task = ActorTask(HUNAN, seed=99, lineups=((IMITATE,) * 3,) * hands, weights=None)
    return run_task(task).samples


def test_actor_records_decisions_with_returns():
    torch.manual_seed(0)
    w = to_numpy(TorchQNet((16, 8, 4)))
    task = ActorTask(HUNAN, seed=5, lineups=((SELF, "greedy", "greedy"),) * 3, weights=w)
    res = run_task(task)
    again = run_task(task)
    assert res.hands == 3 and res.samples and res.self_seats == 3
    for s in res.samples:
        assert s.state.shape == (STATE_SIZE,) and s.actions.shape[1] == ACTION_SIZE
        assert 0 <= s.taken < len(s.actions) and 0 <= s.label < len(s.actions)
    # a task is a pure function of its inputs
    assert [s.taken for s in res.samples] == [s.taken for s in again.samples]
    assert [s.ret for s in res.samples] == [s.ret for s in again.samples]


def _fingerprint(res):
    return [
        (s.state.tobytes(), s.actions.tobytes(), s.taken, s.label, s.ret,
         None if s.gains is None else s.gains.tobytes())
        for s in res.samples
    ]  # fmt: skip


def test_samples_depend_on_the_task_alone():
    """Same task → same samples: whatever ran before in the process, whichever
    worker process runs it, however many workers there are."""
    from paohuzi.train.workers import LocalWorkers

    torch.manual_seed(1)
    w = to_numpy(TorchQNet((16, 8, 4)))
    mixed = ((SELF, "pool:0", "random"), (IMITATE, SELF, "greedy"), ("random", IMITATE, SELF))
    tasks = [
        ActorTask(HUNAN, seed=21, lineups=mixed, weights=w, pool=(w,), eps=0.3),
        ActorTask(HUNAN, seed=22, lineups=mixed[1:], weights=w, expert="ismcts:iters=2,top=2"),
    ]
    first = [_fingerprint(run_task(t)) for t in tasks]
    assert all(first) and first[0] != first[1]
    assert [_fingerprint(run_task(t)) for t in reversed(tasks)] == first[::-1]
    workers = LocalWorkers(2)
    try:
        for t in tasks:
            workers.submit(t)
        remote = {r.hands: _fingerprint(r) for r in (workers.next() for _ in tasks)}
    finally:
        workers.close()
    assert remote == {3: first[0], 2: first[1]}  # the tasks play 3 and 2 hands


def test_distillation_labels_are_the_experts_choices():
    """With ``expert`` set, imitating seats play the search bot and record its choices."""
    lineups = ((IMITATE,) * 3,) * 2
    greedy = run_task(ActorTask(HUNAN, seed=11, lineups=lineups, weights=None))
    search = run_task(
        ActorTask(HUNAN, seed=11, lineups=lineups, weights=None, expert="ismcts:iters=2,top=2")
    )
    assert all(s.taken == s.label for s in greedy.samples + search.samples)
    assert all(0 <= s.label < len(s.actions) for s in search.samples)
    # greedy's label is the action whose "greedy's choice" feature is set
    assert all(s.actions[s.label, -2] == 1.0 for s in greedy.samples)


def test_search_expert_records_its_choice_and_paired_gains():
    """ismcts as expert: the label is the bot's own choice on the same RNG, and the
    searched candidates carry their paired gains, the first (greedy's best) at 0."""
    from paohuzi.bots.ismcts import IsmctsBot
    from paohuzi.train.actor import _expert

    bot = make_bot("ismcts:iters=4,top=3")
    assert isinstance(bot, IsmctsBot)
    searched = 0
    for seed in range(30):
        st = GameState(HUNAN, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and searched < 12:
            seat = st.current_player
            obs = Observation(st, seat)
            label, gains = _expert(bot, obs, random.Random(seed * 1000 + len(st.actions)))
            assert obs.legal[label] == bot.act(obs, random.Random(seed * 1000 + len(st.actions)))
            if gains is not None:
                searched += 1
                assert gains.shape[1] == 2 and len(gains) >= 2 and gains[0, 1] == 0.0
                cands = [obs.legal[int(i)] for i in gains[:, 0]]
                assert cands == bot.candidates(obs) and obs.legal[label] in cands
            st.apply(rng.choice(st.legal_actions(seat)))
    assert searched >= 12, "no decision was searched"


def test_gain_loss_fits_the_searched_differences():
    """Q's differences between candidates learn the search's gains (and only there)."""
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    samples = []
    for _ in range(64):
        n = 4
        gains = np.array([[0, 0.0], [2, rng.normal(0, 0.5)], [3, rng.normal(0, 0.5)]], np.float32)
        samples.append(
            Sample(
                rng.random(STATE_SIZE).astype(np.float16),
                rng.random((n, ACTION_SIZE)).astype(np.float16),
                0, 0, 0.0, gains,
            )
        )  # fmt: skip
    samples.append(samples[0].__class__(samples[0].state, samples[0].actions, 0, 0, 0.0))
    net = TorchQNet((32, 16, 8))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    with torch.no_grad():
        first = float(losses(net, samples, 0.1)[2])
    for _ in range(300):
        _, _, gain, _ = losses(net, samples, 0.1)
        opt.zero_grad()
        gain.backward()
        opt.step()
    with torch.no_grad():
        last = float(losses(net, samples, 0.1)[2])
    assert first > 0.05 and last < first / 5, (first, last)


def test_short_run_lowers_imitation_loss_and_resumes(tmp_path):
    held = _held_out()
    cfg = TrainConfig(
        run_dir=str(tmp_path / "run"),
        seed=1,
        hidden=(64, 32, 16),
        lr=1e-3,
        batch=64,
        imitation_hands=240,
        max_hands=240,
        hands_per_task=40,
        actors=1,
        eval_hands=0,
        eval_hands_ismcts=0,
    )
    learner = Learner(cfg, HUNAN)
    with torch.no_grad():
        _, before, _, acc_before = losses(learner.net, held, cfg.margin)
    snap = learner.run(log=lambda _: None)
    with torch.no_grad():
        _, after, _, acc_after = losses(learner.net, held, cfg.margin)
    assert float(after) < float(before)
    assert acc_after > acc_before
    assert learner.hands == 240 and learner.updates > 0
    assert (tmp_path / "run" / "log.csv").exists() and (tmp_path / "run" / "curve.png").exists()
    meta = json.loads(snap.with_suffix(".json").read_text())
    assert meta["training"]["hands"] == 240

    # resume: counters and weights continue from the checkpoint, then self-play runs
    cfg.max_hands = 280
    again = Learner(cfg, HUNAN, resume=True)
    assert again.hands == 240 and again.updates == learner.updates
    for k, v in to_numpy(learner.net).items():
        np.testing.assert_array_equal(v, to_numpy(again.net)[k])
    again.run(log=lambda _: None)
    assert again.hands == 280

    # export through the CLI: the bot loads it and plays
    from paohuzi.cli.main import main

    out = tmp_path / "model" / "neural.npz"
    assert main(["train", "--export", str(snap), "--out", str(out)]) == 0
    bot = make_bot(f"neural:model={out}")
    st = GameState(HUNAN, seed=3)
    seat = st.current_player
    assert bot.act(Observation(st, seat), random.Random(0)) in st.legal_actions(seat)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_RAY, reason="ray is not installed (optional extra)")
def test_ray_actor_gives_the_same_samples():
    from paohuzi.train.workers import RayWorkers

    task = ActorTask(HUNAN, seed=7, lineups=((IMITATE,) * 3,) * 2, weights=None)
    local = run_task(task)
    workers = RayWorkers("local")
    try:
        workers.submit(task)
        remote = workers.next()
    finally:
        workers.close()
    assert [s.taken for s in remote.samples] == [s.taken for s in local.samples]
    assert [s.ret for s in remote.samples] == [s.ret for s in local.samples]
