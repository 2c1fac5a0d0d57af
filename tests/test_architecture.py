"""docs/architecture.md's pictures stay true: the layer picture's DOT source is what
``scripts/architecture.py`` draws from today's imports, and every step of the
path of one move names code that exists where it says."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("architecture", ROOT / "scripts" / "architecture.py")
assert spec is not None and spec.loader is not None
architecture = importlib.util.module_from_spec(spec)
spec.loader.exec_module(architecture)


def test_the_layer_picture_is_drawn_from_todays_imports() -> None:
    dot = (ROOT / "docs" / "img" / "architecture.dot").read_text(encoding="utf-8")
    assert dot == architecture.layers_dot(), "run: python scripts/architecture.py"
    assert "#cc3333" not in dot  # no upward arrow


def test_the_move_path_names_real_code() -> None:
    dot = (ROOT / "docs" / "img" / "move-path.dot").read_text(encoding="utf-8")
    assert dot == architecture.move_dot(), "run: python scripts/architecture.py"
    src = ROOT / "src" / "paohuzi"
    for where, what, _ in architecture.MOVE:
        path = src / "server" / what if where == "browser" else src / where
        files = [path] if path.suffix else sorted(path.rglob("*.py"))
        text = "".join(f.read_text(encoding="utf-8") for f in files)
        for name in [n for n in re.split(r"[ .→()]+", what) if n.isidentifier()]:
            assert name in text, (where, name)  # e.g. serve_seat, Room, commit, drawBoard
