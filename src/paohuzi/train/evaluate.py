"""评估 (pínggū): arena scores of a snapshot, the learning curve, weight files.

Numpy and matplotlib only (no torch), so exported weights can be checked and
the curve redrawn anywhere.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.neural import QNet
from ..core.rules import Rules
from ..encoding.features import ACTION_SIZE, FEATURE_VERSION, STATE_SIZE
from ..sim.arena import run_arena


def save_weights(weights: dict[str, np.ndarray], path: Path, budget: dict[str, Any]) -> None:
    """``path`` (.npz, float32) and its config ``path.json``: what the bot needs to load it."""
    net = QNet(weights)
    np.savez_compressed(path, **net.w)  # type: ignore[arg-type]
    cfg = {
        "feature_version": FEATURE_VERSION,
        "state_size": STATE_SIZE,
        "action_size": ACTION_SIZE,
        "sizes": net.sizes(),
        "training": budget,
    }
    path.with_suffix(".json").write_text(json.dumps(cfg, indent=1))


def export(snapshot: Path, out: Path) -> None:
    """Copy a snapshot and its config to ``out`` (``out.json`` beside it)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(snapshot, out)
    shutil.copyfile(snapshot.with_suffix(".json"), out.with_suffix(".json"))


def evaluate(
    snapshot: Path, opponent: str, hands: int, rules: Rules, seed: int, workers: int = 1
) -> tuple[float | None, float | None, float | None]:
    """The snapshot's mean score per hand against two ``opponent`` and its 95 % CI."""
    if hands <= 0:
        return None, None, None
    spec = f"neural:model={snapshot}"
    res = run_arena([spec, opponent], hands, rules, seed=seed, workers=workers).to_json()
    b = res["bots"][spec]
    lo, hi = b["ci95"]
    return round(b["mean_score"], 3), lo and round(lo, 3), hi and round(hi, 3)


def same_as_opponent(row: dict[str, str], key: str) -> bool:
    """A zero-width interval at exactly 0: the bot played every arena decision
    as its opponents did (a tiny run's network copying greedy), not a broken plot."""
    v = row.get(key) or ""
    lo, hi = row.get(key + "_lo") or v, row.get(key + "_hi") or v
    return bool(v) and float(v) == float(lo) == float(hi) == 0.0


def plot_curve(
    csv_path: Path,
    png: Path,
    title: str = "neural bot: arena score during training",
    ismcts: str = "vs two ismcts (cheap)",
) -> None:
    """Arena score against greedy and ismcts over training time (CPU hours)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader(csv_path.open()))
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    x = [float(r["cpu_hours"]) for r in rows]
    for key, label in (("vs_greedy", "vs two greedy"), ("vs_ismcts", ismcts)):
        pts = [(xi, r) for xi, r in zip(x, rows, strict=True) if r[key]]
        if not pts:
            continue
        xs = [p[0] for p in pts]
        ys = [float(p[1][key]) for p in pts]
        lo = [float(p[1][key + "_lo"] or p[1][key]) for p in pts]
        hi = [float(p[1][key + "_hi"] or p[1][key]) for p in pts]
        err = [
            [y - a for y, a in zip(ys, lo, strict=True)],
            [b - y for y, b in zip(ys, hi, strict=True)],
        ]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label)  # a lone point too
        ax.fill_between(xs, lo, hi, alpha=0.15)
        same = [p[0] for p in pts if same_as_opponent(p[1], key)]
        if same:
            ax.annotate(
                "0 ± 0: played every decision as its opponents\n(the network still copies greedy)",
                (same[0], 0.0),
                xytext=(10, 18),
                textcoords="offset points",
                fontsize=8,
                arrowprops={"arrowstyle": "->", "lw": 0.8},
            )
    ax.axhline(0.0, color="grey", lw=0.8)
    if ax.get_legend_handles_labels()[0]:
        ax.legend()
    ax.set_xlabel("training CPU hours (learner + actors)")
    ax.set_ylabel("mean score per hand (95 % CI)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


__all__ = ["evaluate", "export", "plot_curve", "same_as_opponent", "save_weights"]
