"""Compiled or pure engine: never let a stale mypyc build shadow edited sources.

The default install is pure Python. ``PAOHUZI_COMPILE=1 pip install .`` makes
``setup.py`` compile ``core/chi.py``, ``core/evaluator.py``,
``core/state.py`` and ``core/views.py`` (the seat's view, issue 27) with mypyc; Python then imports the C extensions in place of
the ``.py`` files. Importing :mod:`paohuzi` runs this module first. It loads
the four modules from their sources instead when ``PAOHUZI_PURE`` is set (an
override for profiling, debugging and comparing builds), or (with a warning)
when a source no longer matches the build stamp — an edited checkout that was
not rebuilt. The four always come from the same side: compiled code reaches
into the other compiled classes directly.

The same build makes ``core/_kernel.c`` into ``paohuzi.core._kernel``, the
evaluator's decomposition in C (docs/speed.md), stamped likewise: when
``PAOHUZI_PURE`` is set or ``_kernel.c`` changed after the build, this module
hides the extension (the evaluator then imports none and runs its Python).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path

HOT = ("chi", "evaluator", "state", "views")  # import order
KERNEL = "_kernel"  # core/_kernel.c → paohuzi.core._kernel
_CORE = Path(__file__).parent / "core"


def _has_extensions(core: Path) -> bool:
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return any((core / f"{m}{s}").exists() for m in HOT for s in suffixes)


def _stamp() -> dict[str, str] | None:
    try:
        from .core._compiled import SOURCES
    except ImportError:
        return None
    return dict(SOURCES)


def reason_for_pure(
    core: Path = _CORE, stamp: dict[str, str] | None = None, pure: bool = False
) -> str | None:
    """Why the sources in ``core`` must run although extensions exist (None: use them).

    ``stamp`` maps each hot module to the SHA-256 of the source it was compiled
    from (``core/_compiled.py``, written by setup.py); ``pure`` is ``PAOHUZI_PURE``.
    """
    if not _has_extensions(core):
        return None
    if pure:
        return "PAOHUZI_PURE is set"
    if stamp is None:
        return "the build stamp core/_compiled.py is missing"
    for m in HOT:
        digest = hashlib.sha256((core / f"{m}.py").read_bytes()).hexdigest()
        if stamp.get(m) != digest:
            return (
                f"core/{m}.py changed after it was compiled"
                " (rebuild: PAOHUZI_COMPILE=1 pip install -e .; or pip install -e . for pure Python)"
            )
    return None


def reason_for_no_kernel(
    core: Path = _CORE, stamp: dict[str, str] | None = None, pure: bool = False
) -> str | None:
    """Why the built C kernel in ``core`` must not run (None: use it, or there is none).

    A wheel ships no ``_kernel.c``: nothing there can have been edited since the build.
    """
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    if not any((core / f"{KERNEL}{s}").exists() for s in suffixes):
        return None
    if pure:
        return "PAOHUZI_PURE is set"
    src = core / f"{KERNEL}.c"
    if not src.exists():
        return None
    if stamp is None or stamp.get(KERNEL) != hashlib.sha256(src.read_bytes()).hexdigest():
        return (
            f"core/{KERNEL}.c changed after it was compiled"
            " (rebuild: PAOHUZI_COMPILE=1 pip install -e .; or pip install -e . for pure Python)"
        )
    return None


def _load_sources() -> None:
    core = importlib.import_module("paohuzi.core")
    for m in HOT:
        name = f"paohuzi.core.{m}"
        spec = importlib.util.spec_from_file_location(name, _CORE / f"{m}.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        setattr(core, m, mod)


def compiled() -> bool:
    """Whether the engine's hot modules run as mypyc-compiled C extensions."""
    state = importlib.import_module("paohuzi.core.state")
    return not str(getattr(state, "__file__", "")).endswith(".py")


def kernel() -> bool:
    """Whether the evaluator's C kernel (``paohuzi.core._kernel``) runs."""
    return importlib.import_module("paohuzi.core.evaluator").KERNEL is not None


_pure = bool(os.environ.get("PAOHUZI_PURE"))
_kreason = reason_for_no_kernel(_CORE, _stamp(), _pure)
if _kreason is not None and f"paohuzi.core.{KERNEL}" not in sys.modules:
    if not _pure:
        warnings.warn(f"paohuzi: the evaluator runs without its C kernel: {_kreason}", stacklevel=2)
    sys.modules[f"paohuzi.core.{KERNEL}"] = None  # type: ignore[assignment]  # import → ImportError
_reason = reason_for_pure(_CORE, _stamp(), _pure)
if _reason is not None and "paohuzi.core.state" not in sys.modules:
    if not _pure:
        warnings.warn(f"paohuzi: running the engine as pure Python: {_reason}", stacklevel=2)
    _load_sources()
