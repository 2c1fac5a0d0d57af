"""Compiled or pure engine: never let a stale mypyc build shadow edited sources.

The default install is pure Python. ``PAOHUZI_COMPILE=1 pip install .`` makes
``setup.py`` compile the modules of :data:`HOT` with mypyc: the engine's
``core/action_index.py``, ``core/chi.py``, ``core/claims.py``, ``core/evaluator.py``, ``core/state.py``,
``core/views.py`` and the 王 search ``core/wang.py``, the RL observation encoder ``encoding/observation.py`` and
the bots' hand values ``bots/heuristics.py`` (issue 27). Python then imports the C extensions in place
of the ``.py`` files. Importing :mod:`paohuzi` runs this module first. It has
the modules imported from their sources instead when ``PAOHUZI_PURE`` is set (an
override for profiling, debugging and comparing builds), or (with a warning)
when a source no longer matches the build stamp — an edited checkout that was
not rebuilt. They always come from the same side: compiled code reaches
into the other compiled classes directly.

The same build makes ``core/_kernel.c`` into ``paohuzi.core._kernel``, the
evaluator's decomposition in C (docs/speed.md), stamped likewise: when
``PAOHUZI_PURE`` is set or ``_kernel.c`` changed after the build, this module
hides the extension (the evaluator then imports none and runs its Python).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from typing import Any

# The compiled modules, as paths in the package (one mypyc group: compiled code calls
# the others directly, so all of them come from the same side).
HOT = (
    "core/action_index",  # the RL envs' action indices and masks (issue 27)
    "core/chi",
    "core/claims",  # the claim window: every claim, the view's to_act and legal
    "core/evaluator",
    "core/state",
    "core/views",
    "core/wang",  # the 王 settlement: every split and assignment (R46)
    "encoding/observation",  # the RL observation vector (issue 27)
    "bots/heuristics",  # the bots' hand values: most of a search rollout's time
)
KERNEL = "_kernel"  # core/_kernel.c → paohuzi.core._kernel
_PKG = Path(__file__).parent
_CORE = _PKG / "core"


def _has_extensions(pkg: Path) -> bool:
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return any((pkg / f"{m}{s}").exists() for m in HOT for s in suffixes)


def _stamp() -> dict[str, str] | None:
    try:
        from .core._compiled import SOURCES
    except ImportError:
        return None
    return dict(SOURCES)


def reason_for_pure(
    pkg: Path = _PKG, stamp: dict[str, str] | None = None, pure: bool = False
) -> str | None:
    """Why the sources in the package dir ``pkg`` must run although extensions exist
    (None: use them).

    ``stamp`` maps each hot module to the SHA-256 of the source it was compiled
    from (``core/_compiled.py``, written by setup.py); ``pure`` is ``PAOHUZI_PURE``.
    """
    if not _has_extensions(pkg):
        return None
    if pure:
        return "PAOHUZI_PURE is set"
    if stamp is None:
        return "the build stamp core/_compiled.py is missing"
    for m in HOT:
        digest = hashlib.sha256((pkg / f"{m}.py").read_bytes()).hexdigest()
        if stamp.get(m) != digest:
            return (
                f"{m}.py changed after it was compiled"
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


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Imports the hot modules from their ``.py`` files, ahead of the extensions
    beside them (the path finder would take an extension first). On import, not
    at once: ``paohuzi.bots`` and ``paohuzi.encoding`` load as they always do."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        rel = _SOURCES.get(name)
        if rel is None:
            return None
        return importlib.util.spec_from_file_location(name, _PKG / f"{rel}.py")


_SOURCES = {"paohuzi." + m.replace("/", "."): m for m in HOT}


def _load_sources() -> None:
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())


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
_reason = reason_for_pure(_PKG, _stamp(), _pure)
if _reason is not None and "paohuzi.core.state" not in sys.modules:
    if not _pure:
        warnings.warn(f"paohuzi: running the engine as pure Python: {_reason}", stacklevel=2)
    _load_sources()
