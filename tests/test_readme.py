"""The README's library examples run as written (issue: "The engine in 10 lines")."""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks(heading: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_engine_in_ten_lines_plays_a_hand() -> None:
    blocks = _blocks("The engine in 10 lines")
    assert len(blocks) == 2 and len(blocks[0].strip().splitlines()) <= 10
    out = io.StringIO()
    scope: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README", "exec"), scope)
    state = scope["state"]
    assert state.is_terminal() and sum(state.returns()) == 0  # type: ignore[attr-defined]
    lines = out.getvalue().splitlines()
    assert lines[0] == f"{state.result.winner} {state.returns()}"  # type: ignore[attr-defined]
    with contextlib.redirect_stdout(io.StringIO()) as out2:
        exec(compile(blocks[1], "README", "exec"), {})
    scores = ast.literal_eval(out2.getvalue())
    assert isinstance(scores, list) and sum(scores) == 0 and any(scores)


def test_python_api_example_runs() -> None:
    (block,) = _blocks("The hand calculator")
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(block, "README", "exec"), {})
