"""Build hook: compile the engine's hot modules with mypyc (docs/performance.md).

Everything else lives in pyproject.toml. The three modules below are plain,
fully typed Python; mypyc turns them into C extensions that run the same code
about 1.8× faster. Compiling is optional: ``PAOHUZI_PURE=1`` skips it, and
when mypyc or a C compiler is missing the build falls back to pure Python.
``paohuzi.core`` checks at import time that the compiled modules still match
their sources (an edited checkout runs the edited Python, never a stale build).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
HOT = ("chi", "evaluator", "state")  # paohuzi.core modules, in import order
CORE = ROOT / "src" / "paohuzi" / "core"
STAMP = CORE / "_compiled.py"


def _warn(msg: str) -> None:
    print(f"paohuzi build: {msg}; the engine runs as pure Python", file=sys.stderr)


def _clean() -> None:
    """Drop the stamp and any extensions an earlier in-place build left in src/."""
    STAMP.unlink(missing_ok=True)
    for m in HOT:
        for so in CORE.glob(f"{m}.*.so"):
            so.unlink()
    for so in CORE.parent.parent.glob("paohuzi_core__mypyc.*.so"):
        so.unlink()


def ext_modules() -> list:
    if os.environ.get("PAOHUZI_PURE"):
        _clean()
        return []
    try:
        from mypyc.build import mypycify

        paths = [str((CORE / f"{m}.py").relative_to(ROOT)) for m in HOT]
        exts = mypycify(paths, opt_level="3", group_name="paohuzi_core")
    except (Exception, SystemExit) as e:  # no mypyc, or mypyc rejects the sources
        _warn(f"mypyc unavailable ({e})")
        _clean()
        return []
    for ext in exts:
        ext.optional = True  # no C compiler: skip, do not fail the install
    digests = {m: hashlib.sha256((CORE / f"{m}.py").read_bytes()).hexdigest() for m in HOT}
    try:
        STAMP.write_text(
            '"""Written by setup.py: sources of the mypyc-compiled modules (see paohuzi._native)."""\n\n'
            f"SOURCES = {digests!r}\n",
            encoding="utf-8",
        )
    except OSError as e:  # a read-only source tree: without a stamp the build would not be used
        _warn(f"cannot write {STAMP.name} ({e})")
        return []
    return exts


setup(ext_modules=ext_modules())
