"""离线 (líxiàn): distil the search bot from a stored dataset — collect once, fit many times.

The online loop (:mod:`paohuzi.train.learner`) sees each expensive search label
about twice and forgets it. Here the labels are kept:

- :func:`collect` plays hands in which one seat (rotating) plays the search
  expert and the others greedy — the table the bot is judged at — and stores
  every recorded decision (state and action features, the expert's choice, the
  paired gains it measured for greedy's candidates) in shards, one per task.
  A shard is a pure function of (seed, index): an interrupted collection
  resumes, and more hands can be added later.
- :func:`fit` cross-fits: one small network per fold of shards, each trained
  on the other folds for several epochs and kept at its best epoch on its own
  fold; the model is their mean (one network of the same form).
- :func:`policy_value` evaluates a departure threshold (``gate``) *offline*: the
  recorded gains are unbiased (common random numbers) estimates of how much a
  candidate beats greedy's choice, so summing them over the decisions where the
  network would depart estimates the policy's gain per decision, without
  playing a hand. :func:`fit` writes the best threshold into the model's config,
  where :class:`~paohuzi.bots.neural.NeuralBot` reads it.
"""

from __future__ import annotations

import json
import pickle
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
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

GATES = (0.0, 0.001, 0.002, 0.004, 0.007, 0.01, 0.02, 0.04, 0.08)  # scaled points (/32)


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
    meta = root / "collect.json"  # what the shards are, for the model's budget
    spent = json.loads(meta.read_text()).get("cpu_seconds", 0.0) if meta.exists() else 0.0
    info = {"rules": rules.name, "expert": expert, "hands_per_shard": hands_per_shard, "seed": seed}
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
            spent += r.result.cpu
            meta.write_text(json.dumps({**info, "cpu_seconds": round(spent, 1)}, indent=1))
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


def _departures(q: np.ndarray, s: Sample) -> tuple[float, float]:
    """(best candidate's Q lead over greedy's choice, its recorded gain in points)."""
    g = s.gains
    assert g is not None
    qc = q[g[:, 0].astype(np.int64)]
    j = int(np.argmax(qc))
    return (float(qc[j] - qc[0]), float(g[j, 1]) * 32.0) if j else (0.0, 0.0)


def _leads(net: Any, samples: Sequence[Sample]) -> list[tuple[float, float]]:
    """:func:`_departures` of every searched sample under ``net``."""
    searched = [s for s in samples if s.gains is not None]
    out: list[tuple[float, float]] = []
    with torch.no_grad():
        for k in range(0, len(searched), 512):
            chunk = searched[k : k + 512]
            out += [_departures(q, s) for q, s in zip(_q(net, chunk), chunk, strict=True)]
    return out


def _value(leads: Sequence[tuple[float, float]], gate: float) -> tuple[float, float]:
    """(departure rate, recorded gain per searched decision) of a gate."""
    if not leads:
        return 0.0, 0.0
    hits = [g for lead, g in leads if lead > gate]
    return len(hits) / len(leads), sum(hits) / len(leads)


def policy_value(net: Any, samples: Sequence[Sample], gate: float) -> tuple[float, float]:
    """(departure rate, summed recorded gain per searched decision, in points) of the
    rule "play the candidate with the best Q if it beats greedy's by ``gate``"."""
    return _value(_leads(net, samples), gate)


def _q(net: Any, samples: Sequence[Sample]) -> np.ndarray:
    from .learner import batch_tensors

    state, acts, _mask, *_ = batch_tensors(list(samples))
    return np.asarray(net(state, acts).numpy())


@dataclass(frozen=True, slots=True)
class FitConfig:
    """How :func:`fit` trains (every field is recorded in the model's config)."""

    epochs: int = 12
    hidden: tuple[int, int, int] = (64, 64, 32)
    lr: float = 1e-3
    batch: int = 128
    # Return MSE, margin loss, gain loss. The paired gains alone work best: the
    # margin loss (towards the expert's choice, greedy's in 90 % of the searched
    # decisions) and weight decay both pull every prediction to "never depart".
    weights: tuple[float, float, float] = (0.0, 0.0, 1.0)
    folds: int = 5
    weight_decay: float = 0.0
    seed: int = 0


def fit(
    root: Path, out: Path, cfg: FitConfig = FitConfig(), log: Callable[[str], None] = print
) -> dict[str, Any]:
    """Cross-fit on ``root``'s shards; write ``out`` (.npz + .json with the chosen gate).

    The shards are split into ``folds`` (shard i in fold i mod folds). One network
    per fold trains on the others, keeping its epoch with the best gain loss on its
    own fold; its departures on that fold are out-of-sample, so the gate is chosen
    on every searched decision at once (the threshold whose departures gained most;
    none if no threshold gained). The model is the mean of the fold networks,
    packed as one wider network of the same form (block-diagonal layers), which the
    numpy bot runs unchanged."""
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)
    shards = load(root)
    if len(shards) < max(2, cfg.folds):
        raise ValueError(f"{root}: need at least {max(2, cfg.folds)} shards, found {len(shards)}")
    t0 = time.process_time()
    nets: list[dict[str, np.ndarray]] = []
    oof: list[tuple[float, float]] = []
    epochs_kept = []
    for fold in range(cfg.folds):
        val = [s for i, sh in enumerate(shards) if i % cfg.folds == fold for s in sh]
        train = [s for i, sh in enumerate(shards) if i % cfg.folds != fold for s in sh]
        w, epoch, net = _train_one(train, val, cfg, cfg.seed * 100 + fold, log)
        nets.append(w)
        epochs_kept.append(epoch)
        oof += _leads(net, val)
    table = {g: _value(oof, g) for g in GATES}
    # the most conservative threshold among the best; none at all (greedy) unless it gains
    gate = max(GATES, key=lambda g: (round(table[g][1], 4), g))
    chosen: float | None = gate if table[gate][1] > 0 else None
    for g, (rate, value) in table.items():
        log(f"gate {g:.3f}: departs {rate:.3f}, {value:+.4f} points per searched decision")
    meta_path = root / "collect.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    budget = {
        # the search labels' cost (collection) and the fit's own
        "hands": len(shards) * int(meta.get("hands_per_shard", 0)),
        "decisions": sum(len(sh) for sh in shards),
        "cpu_hours": round(
            float(meta.get("cpu_seconds", 0.0)) / 3600 + (time.process_time() - t0) / 3600, 3
        ),
        "collect": meta,
        "offline": {
            "data": str(root),
            "shards": len(shards),
            "decisions": sum(len(sh) for sh in shards),
            "searched": len(oof),
            "epochs_kept": epochs_kept,
            **{k: list(v) if isinstance(v, tuple) else v for k, v in asdict(cfg).items()},
            "fit_cpu_hours": round((time.process_time() - t0) / 3600, 3),
            "gates": {str(g): list(v) for g, v in table.items()},
        },
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    save_weights(ensemble(nets), out, budget)
    _set_policy(out, chosen)
    return {"gate": chosen, "table": table, "epochs_kept": epochs_kept}


def _train_one(
    train: list[Sample], val: list[Sample], cfg: FitConfig, seed: int, log: Callable[[str], None]
) -> tuple[dict[str, np.ndarray], int, TorchQNet]:
    """One fold's network: the weights of its best epoch on ``val``, that epoch, the net."""
    torch.manual_seed(seed)
    net = TorchQNet(cfg.hidden)
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    rng = random.Random(seed)
    w_mse, w_margin, w_gain = cfg.weights
    best: tuple[float, dict[str, np.ndarray], int] | None = None
    for epoch in range(cfg.epochs):
        order = list(range(len(train)))
        rng.shuffle(order)
        for b in range(0, len(order), cfg.batch):
            mse, marg, gain, _ = losses(net, [train[i] for i in order[b : b + cfg.batch]], 0.1)
            loss = w_mse * mse + w_margin * marg + w_gain * gain
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            vl = [losses(net, val[b : b + 512], 0.1) for b in range(0, len(val), 512)]
        v_gain = float(np.mean([float(x[2]) for x in vl]))
        if best is None or v_gain < best[0]:
            best = (v_gain, to_numpy(net), epoch + 1)
    assert best is not None
    net.load_state_dict(_torch_state(best[1]))
    rate, value = policy_value(net, val, 0.0)
    log(
        f"fold of {len(val)} decisions: best epoch {best[2]}, held-out gain loss {best[0]:.5f}; "
        f"departs {rate:.3f}, {value:+.4f} points per searched decision"
    )
    return best[1], best[2], net


def ensemble(nets: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The mean of several networks as one: hidden units side by side, each layer
    block-diagonal, the output layer averaging (Q is exactly the members' mean Q)."""
    if len(nets) == 1:
        return dict(nets[0])

    def diag(key: str) -> np.ndarray:
        blocks = [n[key] for n in nets]
        rows, cols = sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)
        out = np.zeros((rows, cols), np.float32)
        r = c = 0
        for b in blocks:
            out[r : r + b.shape[0], c : c + b.shape[1]] = b
            r, c = r + b.shape[0], c + b.shape[1]
        return out

    k = len(nets)
    return {
        "ws": np.concatenate([n["ws"] for n in nets], axis=1),
        "wa": np.concatenate([n["wa"] for n in nets], axis=1),
        "b1": np.concatenate([n["b1"] for n in nets]),
        "w2": diag("w2"),
        "b2": np.concatenate([n["b2"] for n in nets]),
        "w3": diag("w3"),
        "b3": np.concatenate([n["b3"] for n in nets]),
        "w4": np.concatenate([n["w4"] for n in nets], axis=0) / k,
        "b4": np.mean([n["b4"] for n in nets], axis=0),
    }


def _torch_state(w: dict[str, np.ndarray]) -> dict[str, torch.Tensor]:
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
    cfg_path = path.with_suffix(".json")
    cfg = json.loads(cfg_path.read_text())
    cfg["policy"] = {"candidates": "greedy", "top": 3, "margin": 8.0, "gate": gate}
    cfg_path.write_text(json.dumps(cfg, indent=1))


__all__ = ["GATES", "FitConfig", "collect", "ensemble", "fit", "load", "policy_value"]
