"""Every script in examples/ runs in a short form (issue 26, item 7); each skips
cleanly only when its optional library is not installed."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def has(*modules: str) -> bool:
    try:
        return all(importlib.util.find_spec(m) is not None for m in modules)
    except ModuleNotFoundError:  # a parent package is missing
        return False


def run(script: str, *args: str, timeout: int = 600) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "OMP_NUM_THREADS": "1"}
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


ARENA_LINE = re.compile(
    r"^\s*(\S+): ([+-]\d+\.\d+) per hand \[([+-]\d+\.\d+), ([+-]\d+\.\d+)\]", re.M
)


def arena_lines(out: str) -> dict[str, tuple[float, float, float]]:
    return {m[1]: (float(m[2]), float(m[3]), float(m[4])) for m in ARENA_LINE.finditer(out)}


def test_every_example_is_tested() -> None:
    tested = {"maskable_ppo.py", "selfplay_ppo.py", "openspiel_dqn.py", "rllib_selfplay.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


@pytest.mark.skipif(not has("sb3_contrib", "torch"), reason="sb3-contrib/torch not installed")
def test_maskable_ppo() -> None:
    out = run("maskable_ppo.py", "--timesteps", "128", "--eval-hands", "2")
    assert "trained 128 steps" in out and "mean normalized reward over 2 hands" in out


@pytest.mark.skipif(not has("sb3_contrib", "torch"), reason="sb3-contrib/torch not installed")
def test_selfplay_ppo() -> None:
    out = run(
        "selfplay_ppo.py",
        *("--timesteps", "128", "--snapshot-every", "64", "--n-steps", "64", "--eval-hands", "6"),
    )
    assert "pool: greedy, self@64, self@128" in out
    scores = arena_lines(out)
    assert set(scores) == {"ppo", "greedy"}
    for mean, lo, hi in scores.values():
        assert lo <= mean <= hi


@pytest.mark.skipif(not has("pyspiel", "torch", "tree"), reason="open_spiel/torch/dm-tree missing")
def test_openspiel_dqn() -> None:
    out = run("openspiel_dqn.py", "--episodes", "4", "--eval-hands", "6")
    assert re.search(r"^4 hands, \d+ decisions", out, re.M)
    assert set(arena_lines(out)) == {"dqn", "greedy"}


@pytest.mark.skipif(not has("ray.rllib", "torch", "tree"), reason="ray[rllib] not installed")
def test_rllib_selfplay() -> None:
    try:
        import ray.rllib  # noqa: F401
    except ImportError as e:  # installed without its extras
        pytest.skip(f"ray.rllib does not import: {e}")
    out = run("rllib_selfplay.py", "--iterations", "1", "--batch", "200")
    m = re.search(r"iteration 1: (\d+)(?:\.0)? steps, (\d+)(?:\.0)? hands", out)
    assert m and int(m[1]) >= 200 and int(m[2]) >= 1, out
