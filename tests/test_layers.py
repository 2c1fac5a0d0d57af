"""层次 (céngcì): the import layers of ``src/paohuzi``, bottom to top, and no import cycle.

    core (+ _native) < encoding < table < bots < paohuzi (the package root)
        < sim, rl, train, tui, server (+ userdata) < cli

Every ``import`` in every module is read with :mod:`ast` — at module level, in
functions (a lazy import is still an arrow) and under ``TYPE_CHECKING`` — and
may only point to the same layer or a lower one. ``paohuzi/__init__.py``
re-exports the public API (it imports bots and table), so inside the package an
import of the root from below that layer is an upward arrow like any other.
Imports that run (all but ``TYPE_CHECKING`` ones) must form no cycle between
modules. ``importlib.import_module`` with a literal name counts as an import;
computed names (the bot and sub-command registries) cannot be seen.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import paohuzi

SRC = Path(paohuzi.__file__).resolve().parent
APPS = ("sim", "rl", "train", "tui", "server", "userdata")
LAYER_OF_TOP = {
    "core": 0,
    "_native": 0,  # picks the compiled or the pure engine; imports only core
    "encoding": 1,
    "table": 2,
    "bots": 3,
    **dict.fromkeys(APPS, 5),  # userdata: where the programs keep the user's files
    "cli": 6,
    "__main__": 6,  # ``python -m paohuzi``: the cli's entry point
}
ROOT_LAYER = 4  # the package root re-exports core, table and bots
NAMES = ["core", "encoding", "table", "bots", "paohuzi", "apps", "cli"]


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    line: int
    runs: bool  # False: under ``if TYPE_CHECKING`` (never executed)


def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(SRC.rglob("*.py")):
        parts = ["paohuzi", *p.relative_to(SRC).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def layer(mod: str) -> int:
    if mod == "paohuzi":
        return ROOT_LAYER
    return LAYER_OF_TOP[mod.split(".")[1]]


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                lines.update(range(sub.lineno, (sub.end_lineno or sub.lineno) + 1))
    return lines


def _targets(mod: str, node: ast.AST) -> Iterator[str]:
    """The package modules ``node`` imports (``from X import m`` names module X.m if it is one)."""
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = mod.split(".") if MODULES[mod].name == "__init__.py" else mod.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            pkg = ".".join([*base, *([node.module] if node.module else [])])
        else:
            pkg = node.module or ""
        for a in node.names:
            yield f"{pkg}.{a.name}" if f"{pkg}.{a.name}" in MODULES else pkg
    elif (
        isinstance(node, ast.Call)
        and ast.unparse(node.func).endswith("import_module")
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        yield node.args[0].value


def _edges() -> list[Edge]:
    out = []
    for mod, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = _type_checking_lines(tree)
        for node in ast.walk(tree):
            for dst in _targets(mod, node):
                if (dst == "paohuzi" or dst.startswith("paohuzi.")) and dst != mod:
                    lineno = getattr(node, "lineno", 0)
                    out.append(Edge(mod, dst, lineno, lineno not in typing_only))
    return out


EDGES = _edges()


def _cycles(edges: list[Edge]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        graph.setdefault(e.src, set()).add(e.dst)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_every_module_has_a_layer() -> None:
    for mod in MODULES:
        layer(mod)  # KeyError names a new top-level module: give it a layer above
    generated = {"paohuzi.core._compiled", "paohuzi.core._kernel"}  # built by setup.py
    assert all(e.dst in MODULES or e.dst in generated for e in EDGES)


def test_no_import_points_upward() -> None:
    up = {
        f"{e.src}:{e.line} imports {e.dst} ({NAMES[layer(e.src)]} → {NAMES[layer(e.dst)]})"
        for e in EDGES
        if layer(e.dst) > layer(e.src)
    }
    assert sorted(up) == []


def test_no_import_cycle() -> None:
    assert _cycles([e for e in EDGES if e.runs]) == []


@pytest.mark.parametrize(("package", "allowed"), [("core", set()), ("encoding", {"numpy"})])
def test_core_and_encoding_need_nothing_heavy(package: str, allowed: set[str]) -> None:
    """core: the standard library only; encoding: and numpy (no I/O stack, no torch)."""
    outside = set()
    for mod, path in MODULES.items():
        if mod.startswith(f"paohuzi.{package}"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    outside |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    outside.add(node.module.split(".")[0])
    assert outside - set(sys.stdlib_module_names) - {"paohuzi"} <= allowed


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("bots", "encoding.features"),  # the neural bot's inputs
        ("encoding", "core"),
        ("bots", "table"),  # ismcts' rollouts: table.playout
        ("train", "bots"),
        ("cli", "train"),
    ],
)
def test_the_graph_is_read(src: str, dst: str) -> None:
    """The reader sees the arrows the layers are made of (a test that cannot fail is none)."""
    assert any(
        e.src.startswith(f"paohuzi.{src}") and e.dst.startswith(f"paohuzi.{dst}") for e in EDGES
    )


def test_an_upward_lazy_import_and_a_cycle_would_be_found() -> None:
    """The checks themselves, on made-up edges: a function-level import counts."""
    fake = [Edge("paohuzi.core.cards", "paohuzi.bots.greedy", 1, True)]
    assert [e for e in fake if layer(e.dst) > layer(e.src)] == fake
    loop = [Edge("paohuzi.a", "paohuzi.b", 1, True), Edge("paohuzi.b", "paohuzi.a", 9, True)]
    assert _cycles(loop) == [["paohuzi.a", "paohuzi.b"]]
    tree = ast.parse("def f():\n    from ..bots import greedy\n")
    (node,) = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert list(_targets("paohuzi.core.cards", node)) == ["paohuzi.bots.greedy"]
