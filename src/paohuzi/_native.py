"""Compiled or pure engine: never let a stale mypyc build shadow edited sources.

The default install is pure Python. ``PAOHUZI_COMPILE=1 pip install .`` makes
``setup.py`` compile ``core/chi.py``, ``core/evaluator.py`` and
``core/state.py`` with mypyc; Python then imports the C extensions in place of
the ``.py`` files. Importing :mod:`paohuzi` runs this module first. It loads
the three modules from their sources instead when ``PAOHUZI_PURE`` is set (an
override for profiling, debugging and comparing builds), or (with a warning)
when a source no longer matches the build stamp — an edited checkout that was
not rebuilt. The three always come from the same side: compiled code reaches
into the other compiled classes directly.
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

HOT = ("chi", "evaluator", "state")  # import order
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


_pure = bool(os.environ.get("PAOHUZI_PURE"))
_reason = reason_for_pure(_CORE, _stamp(), _pure)
if _reason is not None and "paohuzi.core.state" not in sys.modules:
    if not _pure:
        warnings.warn(f"paohuzi: running the engine as pure Python: {_reason}", stacklevel=2)
    _load_sources()
