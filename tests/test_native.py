"""The optional compiled build (PAOHUZI_COMPILE=1: mypyc and the C kernel): stale builds
never run, and compiled ≡ pure. (The kernel's own checks: tests/test_kernel.py.)

On a pure install the comparison skips; CI runs this file again on the compiled build.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import paohuzi
from paohuzi._native import HOT, kernel, reason_for_pure

NATIVE = paohuzi.compiled() or kernel()  # any compiled part runs


def _core(tmp_path: Path, ext: bool = True) -> dict[str, str]:
    """A fake package dir: the hot sources, an extension file each if ``ext``; its stamp."""
    stamp = {}
    for m in HOT:
        src = tmp_path / f"{m}.py"
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"# {m}\n", encoding="utf-8")
        stamp[m] = hashlib.sha256(src.read_bytes()).hexdigest()
        if ext:
            (tmp_path / f"{m}.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
            (tmp_path / f"{m}.abi3.so").write_bytes(b"")
    return stamp


def test_fresh_build_is_used(tmp_path: Path) -> None:
    assert reason_for_pure(tmp_path, _core(tmp_path)) is None


def test_edited_source_runs_as_python(tmp_path: Path) -> None:
    stamp = _core(tmp_path)
    (tmp_path / "core" / "evaluator.py").write_text("# edited\n", encoding="utf-8")
    reason = reason_for_pure(tmp_path, stamp)
    assert reason is not None and "core/evaluator.py changed" in reason


def test_an_edited_bot_or_encoder_source_runs_everything_as_python(tmp_path: Path) -> None:
    """The compiled modules outside core (issue 27) are stamped like the engine's."""
    for m in ("bots/heuristics", "encoding/observation"):
        stamp = _core(tmp_path)
        (tmp_path / f"{m}.py").write_text("# edited\n", encoding="utf-8")
        reason = reason_for_pure(tmp_path, stamp)
        assert reason is not None and f"{m}.py changed" in reason


def test_missing_stamp_or_env_runs_as_python(tmp_path: Path) -> None:
    stamp = _core(tmp_path)
    assert "stamp" in (reason_for_pure(tmp_path, None) or "")
    assert reason_for_pure(tmp_path, stamp, pure=True) == "PAOHUZI_PURE is set"


def test_no_extensions_nothing_to_do(tmp_path: Path) -> None:
    _core(tmp_path, ext=False)
    assert reason_for_pure(tmp_path, None, pure=True) is None


def _run(code: str, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PAOHUZI_PURE"}
    if pure:
        env["PAOHUZI_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert "running the engine as pure Python" not in out.stderr  # no stale-build warning
    return out.stdout


def test_pure_switch_loads_the_sources() -> None:
    code = (
        "import paohuzi, paohuzi.core.state as s, paohuzi.bots.heuristics as h,"
        " paohuzi.encoding.observation as o;"
        " print(paohuzi.compiled(), paohuzi._native.kernel(), s.__file__, h.__file__, o.__file__)"
    )
    compiled, kern, *paths = _run(code, pure=True).split()
    assert compiled == kern == "False"
    assert [Path(p).name for p in paths] == ["state.py", "heuristics.py", "observation.py"]


@pytest.mark.skipif(
    not NATIVE, reason="needs the compiled engine: PAOHUZI_COMPILE=1 pip install -e ."
)
def test_compiled_and_pure_play_the_same_games() -> None:
    """Same seeds ⇒ the same hands, move for move, on the compiled and the pure engine
    (mypyc and/or the C kernel; ``PAOHUZI_PURE`` switches both off)."""
    code = (
        "import json\n"
        "from paohuzi.core.rules import PRESETS\n"
        "from paohuzi.sim.selfplay import Job, run_job\n"
        "from paohuzi.sim.runner import play_hand\n"
        "from paohuzi.bots import make_bot\n"
        "out = []\n"
        "for name in ('hunan', 'luzhou', 'changde'):\n"
        "    out += run_job(Job(PRESETS[name], 5, ('random',) * PRESETS[name].players,"
        " tuple(range(60))))\n"
        "h = play_hand(PRESETS['hunan'], 11, [make_bot('greedy')] * 3, record=True)\n"
        "out.append(h.record)\n"
        # the search bot's rollouts run the compiled hand values (bots/heuristics.py)
        "h = play_hand(PRESETS['changde'], 5, [make_bot('ismcts:iters=6')] * 3, record=True)\n"
        "out.append(h.record)\n"
        # every seat's observation vector (encoding/observation.py) along a hand
        "import hashlib, random\n"
        "from paohuzi.core.state import GameState\n"
        "from paohuzi.core.views import view\n"
        "from paohuzi.encoding.observation import encode\n"
        "st, pick, digest = GameState(PRESETS['hunan'], seed=3), random.Random(3), hashlib.sha256()\n"
        "while not st.is_terminal():\n"
        "    for seat in st.seats:\n"
        "        digest.update(encode(view(st, seat)).tobytes())\n"
        "    st.apply(pick.choice(st.legal_actions(st.current_player)))\n"
        "out.append(digest.hexdigest())\n"
        "print(json.dumps(out, ensure_ascii=False, sort_keys=True))\n"
    )
    pure = json.loads(_run(code, pure=True))
    check = "import paohuzi\nassert paohuzi.compiled() or paohuzi._native.kernel()\n"
    native = json.loads(_run(code + check, pure=False))
    assert len(pure) == 183 and pure == native


def test_setup_compiles_the_modules_native_checks() -> None:
    """setup.py cannot import the package it builds, so it keeps its own copy of HOT:
    a module compiled but not stamp-checked (or the reverse) would run stale."""
    import ast

    tree = ast.parse((Path(__file__).parents[1] / "setup.py").read_text(encoding="utf-8"))
    hot = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "HOT" for t in node.targets)
    )
    assert tuple(hot) == HOT and "bots/heuristics" in HOT


BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "evaluator.py"


def _builds(*extra: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(BENCH), "--builds", "--n", "150", "--hands", "2", "--rounds", "1"]
    env = {k: v for k, v in os.environ.items() if k != "PAOHUZI_PURE"}
    return subprocess.run([*cmd, *extra], capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.skipif(
    not paohuzi.compiled(), reason="needs the compiled engine: PAOHUZI_COMPILE=1 pip install -e ."
)
def test_the_benchmark_sets_both_builds_side_by_side() -> None:
    """Issue 27: ``benchmarks/evaluator.py`` prints the pure and the compiled build's
    ``best``, settlement, reading and view in one run; each side checks it ran as named."""
    out = _builds("--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    keys = {"us_per_position_warm", "us_per_settlement", "us_per_settlement_warm", "us_from_dict"}
    keys.add("us_view_direct")
    for side in ("compiled", "pure"):
        assert keys <= got[side].keys() and all(got[side][k] > 0 for k in keys)


@pytest.mark.skipif(paohuzi.compiled(), reason="the pure install's refusal")
def test_the_builds_benchmark_refuses_a_pure_install() -> None:
    out = _builds()
    assert out.returncode != 0 and "PAOHUZI_COMPILE=1" in out.stderr
