"""离线 (líxiàn): distil the search bot from a stored dataset — collect once, fit many times.

The online loop (:mod:`paohuzi.train.learner`) sees each expensive search label
about twice and forgets it. Here the labels are kept:

- :func:`collect` plays hands in which one seat (rotating) plays the search
  expert and the others greedy — the table the bot is judged at — and stores
  every recorded decision (state and action features, the expert's choice, the
  paired gains it measured for greedy's candidates) in shards, one per task.
  A shard is a pure function of (seed, index): an interrupted collection
  resumes, and more hands can be added later.
- :func:`fit` trains a fresh network on the shards for several epochs, holding
  out the last shards for validation, and keeps the epoch with the best held-out
  gain loss.
- :func:`policy_value` evaluates a departure threshold (``gate``) *offline*: the
  recorded gains are unbiased (common random numbers) estimates of how much a
  candidate beats greedy's choice, so summing them over the decisions where the
  network would depart estimates the policy's gain per decision, without
  playing a hand. :func:`fit` writes the best threshold into the model's config,
  where :class:`~paohuzi.bots.neural.NeuralBot` reads it.
"""

from __future__ import annotations

import pickle
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..core.rules import Rules
from ..table import derive_seed
from .actor import IMITATE, ActorResult, ActorTask, Sample
from .evaluate import save_weights
from .learner import losses
from .model import TorchQNet, to_numpy
from .workers import LocalWorkers

GATES = (0.0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2)  # scaled points (/32)


def _shard(root: Path, i: int) -> Path:
    return root / f"shard-{i:05d}.pkl"


def collect(
    root: Path,
    shards: int,
    rules: Rules,
    expert: str,
    hands_per_shard: int = 6,
    workers: int = 2,
    seed: int = 0,
    log: Callable[[str], None] = print,
) -> int:
    """Write the missing shards ``0 .. shards-1`` of ``root``; the number written."""
    root.mkdir(parents=True, exist_ok=True)
    todo = [i for i in range(shards) if not _shard(root, i).exists()]
    n = rules.players
    pool: LocalWorkers[_Tagged, _TaggedResult] = LocalWorkers(workers, _run_tagged)
    written = 0
    t0 = time.monotonic()
    try:
        queue = list(todo)
        while queue or pool.in_flight():
            while queue and pool.in_flight() < 2 * workers:
                i = queue.pop(0)
                lineups = tuple(
                    tuple(IMITATE if s == h % n else "greedy" for s in range(n))
                    for h in range(hands_per_shard)
                )
                task = ActorTask(
                    rules, derive_seed("collect", seed, i), lineups, None, expert=expert
                )
                pool.submit(_Tagged(i, task))
            r = pool.next()
            tmp = _shard(root, r.index).with_suffix(".tmp")
            tmp.write_bytes(pickle.dumps(r.result.samples, protocol=pickle.HIGHEST_PROTOCOL))
            tmp.replace(_shard(root, r.index))
            written += 1
            log(
                f"shard {r.index}: {len(r.result.samples)} decisions, "
                f"{r.result.cpu:.0f} s CPU; {written}/{len(todo)} in {time.monotonic() - t0:.0f} s"
            )
    finally:
        pool.close()
    return written


@dataclass(frozen=True, slots=True)
class _Tagged:
    """A task with its shard index (results come back in any order)."""

    index: int
    task: ActorTask


@dataclass(frozen=True, slots=True)
class _TaggedResult:
    index: int
    result: ActorResult


def _run_tagged(t: _Tagged) -> _TaggedResult:
    from .actor import run_task

    return _TaggedResult(t.index, run_task(t.task))


def load(root: Path) -> list[list[Sample]]:
    """Every shard of ``root``, in index order."""
    out = []
    for p in sorted(root.glob("shard-*.pkl")):
        out.append(pickle.loads(p.read_bytes()))
    return out


def policy_value(net: TorchQNet, samples: Sequence[Sample], gate: float) -> tuple[float, float]:
    """(departure rate, summed recorded gain per searched decision, in points) of the
    rule "play the candidate with the best Q if it beats greedy's by ``gate``"."""
    searched = [s for s in samples if s.gains is not None]
    if not searched:
        return 0.0, 0.0
    departs, total = 0, 0.0
    with torch.no_grad():
        for k in range(0, len(searched), 512):
            chunk = searched[k : k + 512]
            q = _q(net, chunk)
            for row, s in zip(q, chunk, strict=True):
                g = s.gains
                assert g is not None
                idx = g[:, 0].astype(np.int64)
                qc = row[idx]
                j = int(np.argmax(qc))
                if j != 0 and qc[j] - qc[0] > gate:
                    departs += 1
                    total += float(g[j, 1]) * 32.0  # back to points
    return departs / len(searched), total / len(searched)


def _q(net: TorchQNet, samples: Sequence[Sample]) -> np.ndarray:
    from .learner import batch_tensors

    state, acts, _mask, *_ = batch_tensors(list(samples))
    return net(state, acts).numpy()


def fit(
    root: Path,
    out: Path,
    epochs: int = 12,
    hidden: tuple[int, int, int] = (256, 256, 128),
    lr: float = 3e-4,
    batch: int = 128,
    weights: tuple[float, float, float] = (0.0, 0.2, 1.0),
    val_shards: float = 0.15,
    seed: int = 0,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Train on ``root``'s shards; write ``out`` (.npz + .json with the chosen gate)."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    shards = load(root)
    if len(shards) < 2:
        raise ValueError(f"{root}: need at least two shards, found {len(shards)}")
    k = max(1, round(len(shards) * val_shards))
    train = [s for sh in shards[:-k] for s in sh]
    val = [s for sh in shards[-k:] for s in sh]
    w_mse, w_margin, w_gain = weights
    net = TorchQNet(hidden)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    rng = random.Random(seed)
    best: tuple[float, dict[str, np.ndarray], int] | None = None
    t0 = time.process_time()
    for epoch in range(epochs):
        order = list(range(len(train)))
        rng.shuffle(order)
        for b in range(0, len(order), batch):
            mse, marg, gain, _ = losses(net, [train[i] for i in order[b : b + batch]], 0.1)
            loss = w_mse * mse + w_margin * marg + w_gain * gain
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            vl = [losses(net, val[b : b + 512], 0.1) for b in range(0, len(val), 512)]
        v_gain = float(np.mean([float(x[2]) for x in vl]))
        v_acc = float(np.mean([x[3] for x in vl]))
        rate, value = policy_value(net, val, 0.03)
        log(
            f"epoch {epoch + 1}: held-out gain loss {v_gain:.5f}, label accuracy {v_acc:.3f}, "
            f"gate 0.03: departs {rate:.3f}, {value:+.4f} points per searched decision"
        )
        if best is None or v_gain < best[0]:
            best = (v_gain, to_numpy(net), epoch + 1)
    assert best is not None
    net.load_state_dict(_torch_state(best[1], hidden))
    table = {g: policy_value(net, val, g) for g in GATES}
    # the most conservative threshold among the best; none at all (greedy) unless it gains
    gate = max(GATES, key=lambda g: (round(table[g][1], 4), g))
    chosen: float | None = gate if table[gate][1] > 0 else None
    for g, (rate, value) in table.items():
        log(f"gate {g:.2f}: departs {rate:.3f}, {value:+.4f} points per searched decision")
    budget = {
        "offline": {
            "data": str(root),
            "shards": len(shards),
            "train_decisions": len(train),
            "val_decisions": len(val),
            "epochs": epochs,
            "best_epoch": best[2],
            "weights": {"mse": w_mse, "margin": w_margin, "gain": w_gain},
            "fit_cpu_hours": round((time.process_time() - t0) / 3600, 3),
            "gates": {str(g): list(v) for g, v in table.items()},
        },
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    save_weights(best[1], out, budget)
    _set_policy(out, chosen)
    return {"gate": chosen, "table": table, "best_epoch": best[2]}


def _torch_state(w: dict[str, np.ndarray], hidden: Sequence[int]) -> dict[str, torch.Tensor]:
    t = torch.from_numpy
    return {
        "ws.weight": t(w["ws"].T.copy()),
        "ws.bias": t(w["b1"].copy()),
        "wa.weight": t(w["wa"].T.copy()),
        "l2.weight": t(w["w2"].T.copy()),
        "l2.bias": t(w["b2"].copy()),
        "l3.weight": t(w["w3"].T.copy()),
        "l3.bias": t(w["b3"].copy()),
        "l4.weight": t(w["w4"].T.copy()),
        "l4.bias": t(w["b4"].copy()),
    }


def _set_policy(path: Path, gate: float | None) -> None:
    """The play rule the data supports (None: no departure gained; greedy's choice)."""
    import json

    cfg_path = path.with_suffix(".json")
    cfg = json.loads(cfg_path.read_text())
    cfg["policy"] = {"candidates": "greedy", "top": 3, "margin": 8.0, "gate": gate}
    cfg_path.write_text(json.dumps(cfg, indent=1))


__all__ = ["GATES", "collect", "fit", "load", "policy_value"]
