"""构建 (gòujiàn): the PEP 517 backend — setuptools, plus mypy only for a compiled build.

``pip install .`` builds the pure-Python package: setuptools alone, no compiler,
a few seconds. ``PAOHUZI_COMPILE=1 pip install .`` (or ``-e .``) asks setup.py
to compile the engine's hot modules with mypyc; this wrapper then adds mypy
(which brings mypyc) to the isolated build environment, so the switch needs
nothing installed by hand. ``PAOHUZI_COMPILE=kernel`` builds only the C kernel of
the evaluator (``core/_kernel.c``: a C compiler and the Python headers, no mypy).
Every hook is setuptools' own; only the two
``get_requires_*`` hooks for wheels add to its answer.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _st
from setuptools.build_meta import (  # noqa: F401 - the hooks pip calls, re-exported
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

MYPYC = "mypy>=1.10"  # mypy ships mypyc; the version setup.py's mypycify call is known to work with


def compile_mode() -> str:
    """What ``PAOHUZI_COMPILE`` asks for: "" (unset or ``0``: pure Python), "kernel"
    (the C kernel only) or "all" (any other value: mypyc and the C kernel)."""
    v = os.environ.get("PAOHUZI_COMPILE", "").strip()
    if v in ("", "0"):
        return ""
    return "kernel" if v.lower() == "kernel" else "all"


def compile_requested() -> bool:
    """Whether ``PAOHUZI_COMPILE`` asks for a compiled build (set, and not ``0``)."""
    return compile_mode() != ""


def _extra() -> list[str]:
    return [MYPYC] if compile_mode() == "all" else []


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    return _st.get_requires_for_build_wheel(config_settings) + _extra()


def get_requires_for_build_editable(config_settings: dict | None = None) -> list[str]:
    return _st.get_requires_for_build_editable(config_settings) + _extra()
