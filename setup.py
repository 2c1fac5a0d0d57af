"""Build hook: the optional mypyc-compiled engine (docs/performance.md).

Everything else lives in pyproject.toml. By default the package is pure Python
and this file only removes what an earlier compiled build left behind.
``PAOHUZI_COMPILE=1 pip install .`` compiles the modules of ``HOT`` below — plain,
fully typed Python — into C extensions that run self-play about 2× faster;
build_backend/paohuzi_backend.py then puts mypy (mypyc) into the build
environment. A compiled build that was asked for and cannot be made fails the
install rather than quietly installing pure Python. ``paohuzi._native`` checks
at import time that the compiled modules still match their sources (an edited
checkout runs the edited Python, never a stale build). The same switch builds
``core/_kernel.c``, the evaluator's decomposition in C (docs/speed.md);
``PAOHUZI_COMPILE=kernel`` builds that alone, without mypyc.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).parent
sys.path.insert(0, str(ROOT / "build_backend"))
from paohuzi_backend import compile_mode  # noqa: E402 - found through the line above

# The compiled modules, as paths in the package (paohuzi._native.HOT: the same list).
HOT = (
    "core/action_index",
    "core/chi",
    "core/claims",
    "core/evaluator",
    "core/state",
    "core/views",
    "core/wang",  # the 王 settlement: every split and assignment (R46)
    "encoding/observation",
    "bots/heuristics",
)
PKG = ROOT / "src" / "paohuzi"
CORE = PKG / "core"
STAMP = CORE / "_compiled.py"
KERNEL = CORE / "_kernel.c"  # the C kernel: paohuzi.core._kernel
# setuptools runs this file for metadata first (egg_info, dist_info): compiling
# then would only run mypy once more for nothing.
METADATA_ONLY = {"egg_info", "dist_info"}
EDITABLE = {"editable_wheel", "develop"}  # builds that leave the package in src/


def _clean() -> None:
    """Drop the stamp and any extensions an earlier editable build left in src/, so that
    a pure editable reinstall really runs the sources. (A wheel never takes them: its
    extensions come from build/, and without them an old stamp is inert.)"""
    STAMP.unlink(missing_ok=True)
    for m in (*HOT, "core/_kernel"):
        path = PKG / m
        for so in path.parent.glob(f"{path.name}.*.so"):
            so.unlink()
    for so in CORE.parent.parent.glob("paohuzi_core__mypyc.*.so"):
        so.unlink()


def _fail(msg: str) -> None:
    raise SystemExit(f"paohuzi build: PAOHUZI_COMPILE is set but {msg}")


def _kernel() -> Extension:
    """core/_kernel.c: plain C against the CPython API (a compiler and Python.h)."""
    flags = [] if sys.platform == "win32" else ["-O2", "-std=c11"]
    src = str(KERNEL.relative_to(ROOT))
    return Extension("paohuzi.core._kernel", [src], extra_compile_args=flags)


def ext_modules() -> list:
    commands = [a for a in sys.argv[1:] if not a.startswith("-")]
    command = commands[0] if commands else ""
    mode = compile_mode()
    if not mode:
        if command in EDITABLE:
            _clean()  # an editable install runs src/ itself: no old extension may stay there
        return []
    if not command or command in METADATA_ONLY:
        return []  # also the pass that asks for mypy: it is not installed yet
    digests = {"_kernel": hashlib.sha256(KERNEL.read_bytes()).hexdigest()}
    exts = [_kernel()]
    if mode == "all":
        try:
            from mypyc.build import mypycify
        except ImportError:
            _fail("mypyc is missing (with --no-build-isolation: pip install mypy first)")
    _clean()
    if mode == "all":
        print(
            f"paohuzi build: compiling {', '.join(f'{m}.py' for m in HOT)} with mypyc",
            file=sys.stderr,
        )
        paths = [str((PKG / f"{m}.py").relative_to(ROOT)) for m in HOT]
        exts += mypycify(paths, opt_level="3", group_name="paohuzi_core")
        digests |= {m: hashlib.sha256((PKG / f"{m}.py").read_bytes()).hexdigest() for m in HOT}
    print("paohuzi build: compiling core/_kernel.c (the evaluator's C kernel)", file=sys.stderr)
    try:
        STAMP.write_text(
            '"""Written by setup.py: sources of the compiled modules (see paohuzi._native)."""\n\n'
            f"SOURCES = {digests!r}\n",
            encoding="utf-8",
        )
    except OSError as e:  # without a stamp the build would never be used
        _fail(f"{STAMP.name} cannot be written ({e})")
    return exts


setup(ext_modules=ext_modules())
