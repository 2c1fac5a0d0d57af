"""学习者 (xuéxízhě): the Deep Monte-Carlo learner (DouZero, arXiv 2106.06135).

Actors play hands and return every recorded decision with the seat's final
payment; the learner regresses Q(state, played action) onto that return (the
Monte-Carlo target: no bootstrapping, so the variable 吃/比 action sets are
just rows to score). The first ``imitation_hands`` hands are greedy's: the
network learns greedy's choices with DQfD's large-margin loss (and their
returns with the MSE), so self-play starts from a greedy-strength player.
Then the current network plays (ε-greedy) against a mix of greedy, cheap
ismcts, past selves (a pool snapshotted every few minutes) and itself.

Every few minutes: a resumable checkpoint (``checkpoint.pt``: network,
optimiser, counters, pool, RNG), a weight snapshot, and an arena evaluation
against two greedy and two cheap ismcts appended to ``log.csv`` and drawn in
``curve.png``.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..core.rules import Rules
from .actor import IMITATE, POOL, SELF, ActorResult, ActorTask, Sample
from .config import TrainConfig
from .evaluate import evaluate, plot_curve, save_weights
from .model import TorchQNet, to_numpy
from .workers import LocalWorkers, RayWorkers

LOG_FIELDS = (
    "minutes",
    "cpu_hours",
    "hands",
    "decisions",
    "updates",
    "loss_mse",
    "loss_margin",
    "imitation_acc",
    "train_score",
    "vs_greedy",
    "vs_greedy_lo",
    "vs_greedy_hi",
    "vs_ismcts",
    "vs_ismcts_lo",
    "vs_ismcts_hi",
    "snapshot",
    "loss_gain",
)


def batch_tensors(
    samples: list[Sample],
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Pad the legal sets of ``samples``: state, actions, mask, taken, label, return."""
    b = len(samples)
    n = max(len(s.actions) for s in samples)
    a_size = samples[0].actions.shape[1]
    acts = np.zeros((b, n, a_size), dtype=np.float32)
    mask = np.zeros((b, n), dtype=bool)
    for i, s in enumerate(samples):
        acts[i, : len(s.actions)] = s.actions
        mask[i, : len(s.actions)] = True
    return (
        torch.from_numpy(np.stack([s.state for s in samples]).astype(np.float32)),
        torch.from_numpy(acts),
        torch.from_numpy(mask),
        torch.tensor([s.taken for s in samples]),
        torch.tensor([s.label for s in samples]),
        torch.tensor([s.ret for s in samples], dtype=torch.float32),
    )


def gain_tensors(samples: list[Sample]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The search expert's gains, padded: (B, k) legal indices, scaled gains, valid."""
    k = max((len(s.gains) for s in samples if s.gains is not None), default=1)
    idx = np.zeros((len(samples), k), dtype=np.int64)
    val = np.zeros((len(samples), k), dtype=np.float32)
    ok = np.zeros((len(samples), k), dtype=bool)
    for i, s in enumerate(samples):
        if s.gains is not None:
            m = len(s.gains)
            idx[i, :m], val[i, :m], ok[i, 1:m] = s.gains[:, 0], s.gains[:, 1], True
    return torch.from_numpy(idx), torch.from_numpy(val), torch.from_numpy(ok)


def losses(
    net: TorchQNet, samples: list[Sample], margin: float
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, float]:
    """MSE of Q(s, taken) against the return; DQfD margin loss towards the label;
    MSE of Q's differences between searched candidates against the search's paired
    gains (zero when no sample carries any); the share of samples whose best-Q
    action is the label."""
    state, acts, mask, taken, label, ret = batch_tensors(samples)
    q = net(state, acts)
    rows = torch.arange(len(samples))
    mse = torch.mean((q[rows, taken] - ret) ** 2)
    bonus = margin * (~torch.nn.functional.one_hot(label, q.shape[1]).bool()).float()
    best = torch.where(mask, q + bonus, torch.full_like(q, -1e9)).max(dim=1).values
    marg = torch.mean(best - q[rows, label])
    masked = torch.where(mask, q, torch.full_like(q, -1e9))
    acc = float((masked.argmax(dim=1) == label).float().mean())
    idx, val, ok = gain_tensors(samples)
    diff = q.gather(1, idx) - q.gather(1, idx[:, :1])  # Q(s, a_i) − Q(s, a_0)
    gain = torch.sum(((diff - val) ** 2) * ok) / ok.sum().clamp(min=1)
    return mse, marg, gain, acc


class Learner:
    """One training run in ``cfg.run_dir`` (resumed from its checkpoint when asked)."""

    def __init__(self, cfg: TrainConfig, rules: Rules, resume: bool = False):
        self.cfg = cfg
        self.rules = rules
        self.dir = Path(cfg.run_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "snapshots").mkdir(exist_ok=True)
        torch.set_num_threads(cfg.threads)
        torch.manual_seed(cfg.seed)
        self.net = TorchQNet(cfg.hidden)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr)
        self.rng = random.Random(cfg.seed)
        self.np_rng = np.random.default_rng(cfg.seed)
        self.buffer: deque[Sample] = deque(maxlen=cfg.buffer)
        self.hands = self.decisions = self.updates = self.tasks = 0
        self.minutes = 0.0  # wall minutes of all sessions before this one
        self.cpu = 0.0  # CPU seconds (learner + actors) of all sessions before this one
        self.pool: list[dict[str, np.ndarray]] = []
        self._queued = 0  # hands submitted to actors and not yet back
        self.actor_cpu = 0.0  # CPU seconds the actors reported this session
        self.stats = {
            "mse": 0.0, "margin": 0.0, "gain": 0.0, "acc": 0.0, "score": 0.0, "seats": 0.0
        }  # fmt: skip
        if resume and (self.dir / "checkpoint.pt").exists():
            self._load()
        (self.dir / "config.json").write_text(json.dumps(cfg.to_json(), indent=1))

    # ------------------------------------------------------------ checkpoints
    def _save(self, elapsed: float, cpu: float) -> None:
        tmp = self.dir / "checkpoint.pt.tmp"
        torch.save(
            {
                "net": self.net.state_dict(),
                "opt": self.opt.state_dict(),
                "counters": [self.hands, self.decisions, self.updates, self.tasks],
                "minutes": self.minutes + elapsed / 60,
                "cpu": self.cpu + cpu,
                "pool": self.pool,
                "rng": self.rng.getstate(),
                "np_rng": self.np_rng.bit_generator.state,
                "torch_rng": torch.get_rng_state(),
            },
            tmp,
        )
        os.replace(tmp, self.dir / "checkpoint.pt")  # never a half-written checkpoint

    def _load(self) -> None:
        ck = torch.load(self.dir / "checkpoint.pt", weights_only=False)
        self.net.load_state_dict(ck["net"])
        self.opt.load_state_dict(ck["opt"])
        self.hands, self.decisions, self.updates, self.tasks = ck["counters"]
        self.minutes, self.cpu, self.pool = ck["minutes"], ck["cpu"], ck["pool"]
        self.rng.setstate(ck["rng"])
        self.np_rng.bit_generator.state = ck["np_rng"]
        torch.set_rng_state(ck["torch_rng"])

    # ------------------------------------------------------------ actors
    def _lineup(self, imitation: bool) -> tuple[str, ...]:
        n = self.rules.players
        if imitation:
            return (IMITATE,) * n
        me = self.rng.randrange(n)
        mix = dict(self.cfg.mix)
        if not self.pool:
            mix.pop("pool", None)
        kinds, weights = list(mix), list(mix.values())
        line = []
        for s in range(n):
            if s == me:
                line.append(SELF)
                continue
            k = self.rng.choices(kinds, weights)[0]
            if k == "greedy":
                line.append("greedy")
            elif k == "ismcts":
                line.append(self.cfg.ismcts)
            elif k == "pool":
                line.append(f"{POOL}{self.rng.randrange(len(self.pool))}")
            else:
                line.append(SELF)
        return tuple(line)

    def _task(self) -> ActorTask:
        imitation = self.hands + self._queued < self.cfg.imitation_hands
        k = self.cfg.hands_per_task
        self._queued += k
        self.tasks += 1
        lineups = tuple(self._lineup(imitation) for _ in range(k))
        return ActorTask(
            self.rules,
            seed=hash_seed(self.cfg.seed, self.tasks),
            lineups=lineups,
            weights=None if imitation else to_numpy(self.net),
            pool=tuple(self.pool) if not imitation else (),
            eps=self.cfg.eps,
            expert=self.cfg.expert,
        )

    # ------------------------------------------------------------ learning
    def _train(self, new: int) -> None:
        if len(self.buffer) < self.cfg.batch:
            return
        steps = max(1, round(new * self.cfg.replay / self.cfg.batch))
        imitating = self.hands < self.cfg.imitation_hands
        w_margin = 1.0 if imitating else self.cfg.imitation_weight
        for _ in range(steps):
            idx = self.np_rng.integers(0, len(self.buffer), self.cfg.batch)
            mse, marg, gain, acc = losses(self.net, [self.buffer[i] for i in idx], self.cfg.margin)
            loss = mse + w_margin * marg + self.cfg.gain_weight * gain
            self.opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.net.parameters(), 10.0)
            self.opt.step()
            self.updates += 1
            s = self.stats
            s["mse"] = 0.98 * s["mse"] + 0.02 * float(mse.detach())
            s["margin"] = 0.98 * s["margin"] + 0.02 * float(marg.detach())
            s["gain"] = 0.98 * s["gain"] + 0.02 * float(gain.detach())
            s["acc"] = 0.98 * s["acc"] + 0.02 * acc

    def _absorb(self, r: ActorResult) -> None:
        self.buffer.extend(r.samples)
        self.hands += r.hands
        self._queued -= self.cfg.hands_per_task
        self.decisions += r.decisions
        self.stats["score"] += r.self_score
        self.stats["seats"] += r.self_seats
        self.actor_cpu += r.cpu
        self._train(len(r.samples))

    # ------------------------------------------------------------ the loop
    def run(self, log: Any = print) -> Path:
        """Train until ``minutes`` or ``max_hands``; the path of the last snapshot."""
        cfg = self.cfg
        workers: LocalWorkers[ActorTask, ActorResult] | RayWorkers = (
            RayWorkers(cfg.ray) if cfg.ray else LocalWorkers(cfg.actors)
        )
        self._queued = 0
        self.actor_cpu = 0.0
        t0, c0 = time.monotonic(), _cpu()
        last = {"ck": t0, "eval": t0, "pool": t0}
        first_eval = True
        snap = self.dir / "snapshots" / "latest.npz"
        try:
            while True:
                elapsed = time.monotonic() - t0
                done = (cfg.minutes is not None and elapsed >= cfg.minutes * 60) or (
                    cfg.max_hands is not None and self.hands >= cfg.max_hands
                )
                if done:
                    break
                while workers.in_flight() < 2 * max(1, cfg.actors):
                    workers.submit(self._task())
                self._absorb(workers.next())
                now = time.monotonic()
                if (
                    self.hands >= cfg.imitation_hands
                    and now - last["pool"] >= cfg.pool_minutes * 60
                ):
                    self.pool = [*self.pool, to_numpy(self.net)][-cfg.pool_size :]
                    last["pool"] = now
                if now - last["ck"] >= cfg.checkpoint_minutes * 60:
                    self._save(now - t0, _cpu() - c0 + self.actor_cpu)
                    last["ck"] = now
                if now - last["eval"] >= cfg.eval_minutes * 60 or (
                    first_eval and self.hands >= cfg.imitation_hands
                ):
                    snap = self._evaluate(now - t0, _cpu() - c0 + self.actor_cpu, log)
                    last["eval"], first_eval = time.monotonic(), False
        finally:
            workers.close()
        elapsed = time.monotonic() - t0
        self._save(elapsed, _cpu() - c0 + self.actor_cpu)
        if cfg.eval_hands:
            snap = self._evaluate(elapsed, _cpu() - c0 + self.actor_cpu, log)
        return snap

    def _evaluate(self, elapsed: float, cpu: float, log: Any) -> Path:
        cfg = self.cfg
        snap = self.dir / "snapshots" / f"h{self.hands:09d}.npz"
        save_weights(to_numpy(self.net), snap, self.budget(elapsed, cpu))
        g = evaluate(snap, "greedy", cfg.eval_hands, self.rules, cfg.eval_seed)
        m = evaluate(snap, cfg.ismcts, cfg.eval_hands_ismcts, self.rules, cfg.eval_seed)
        seats = self.stats["seats"] or 1.0
        row = {
            "minutes": round(self.minutes + elapsed / 60, 2),
            "cpu_hours": round((self.cpu + cpu) / 3600, 3),
            "hands": self.hands,
            "decisions": self.decisions,
            "updates": self.updates,
            "loss_mse": round(self.stats["mse"], 4),
            "loss_margin": round(self.stats["margin"], 4),
            "imitation_acc": round(self.stats["acc"], 4),
            "train_score": round(self.stats["score"] / seats, 3),
            "vs_greedy": g[0],
            "vs_greedy_lo": g[1],
            "vs_greedy_hi": g[2],
            "vs_ismcts": m[0],
            "vs_ismcts_lo": m[1],
            "vs_ismcts_hi": m[2],
            "snapshot": snap.name,
            "loss_gain": round(self.stats["gain"], 5),
        }
        self.stats["score"] = self.stats["seats"] = 0.0
        path = self.dir / "log.csv"
        new = not path.exists()
        with path.open("a") as f:
            if new:
                f.write(",".join(LOG_FIELDS) + "\n")
            f.write(",".join(_fmt(row[k]) for k in LOG_FIELDS) + "\n")
        plot_curve(path, self.dir / "curve.png")
        log(json.dumps(row))
        return snap

    def budget(self, elapsed: float, cpu: float) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "decisions": self.decisions,
            "updates": self.updates,
            "wall_hours": round((self.minutes + elapsed / 60) / 60, 3),
            "cpu_hours": round((self.cpu + cpu) / 3600, 3),
            "config": self.cfg.to_json(),
        }


def _fmt(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    return str(round(v, 4) if isinstance(v, float) else v)


def _cpu() -> float:
    """CPU seconds of the learner process (the actors report theirs with each task)."""
    return time.process_time()


def hash_seed(seed: int, task: int) -> int:
    from ..table import derive_seed

    return derive_seed("task", seed, task)


__all__ = ["LOG_FIELDS", "Learner", "batch_tensors", "losses"]
