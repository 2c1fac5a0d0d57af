"""Draw docs/img/architecture.svg and docs/img/move-path.svg (docs/architecture.md).

    python scripts/architecture.py            # needs Graphviz's dot (Debian: graphviz)

The layer picture is drawn from the code: every import of every module under
src/paohuzi is read (as tests/test_layers.py reads them), folded into its
folder, and drawn bottom-up by layer, so the picture cannot drift from the
code. Its DOT source is written to docs/img/architecture.dot; the test suite
checks that file against the code without Graphviz (tests/test_architecture.py).
The path of one move is a fixed sequence diagram of real function names.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "paohuzi"
IMG = ROOT / "docs" / "img"

# Rooms of the house, bottom layer first; a module belongs to the first prefix it matches.
LAYERS: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "engine core — no I/O",
        [("core", "core/\ncards · melds · rules · state\nevaluator · scoring · views · records")],
    ),
    ("encoding", [("encoding", "encoding/\nobservations · features")]),
    ("the one driver", [("table", "table.py\nTable · playout")]),
    ("players", [("bots", "bots/\nrandom · greedy · ismcts · neural · hints")]),
    (
        "programs",
        [
            ("sim", "sim/\nself-play · arena"),
            ("rl", "rl/\nPettingZoo · Gymnasium · OpenSpiel"),
            ("train", "train/\nDMC · distillation"),
            ("tui", "tui/\nterminal game"),
            ("server.http", "server/http/\nroutes · websocket"),
            ("server.room", "server/room/\nroom · seats · driver · bot pool"),
            (
                "server.present",
                "server/present/\nstate · choices · settlement · replays · tutorial",
            ),
            ("server.storage", "server/storage/\nSQLite"),
            ("server.client", "server/client/\nthe browser client (JS)"),
        ],
    ),
    ("command line", [("cli", "cli/\npaohuzi <command>")]),
]
FOLDERS = [key for _, rooms in LAYERS for key, _ in rooms]


def folder_of(module: str) -> str | None:
    """The room of a dotted module name below ``paohuzi`` (None: the package root etc.)."""
    rel = module.removeprefix("paohuzi").lstrip(".")
    best = None
    for key in FOLDERS:
        inside = rel == key or rel.startswith(key + ".")
        if inside and (best is None or len(key) > len(best)):
            best = key
    if best is None and rel.startswith("server"):
        return "server.http"  # server/__init__, wire, i18n, limits: the server's edge
    return best


def _module_name(path: Path) -> str:
    parts = ["paohuzi", *path.relative_to(SRC).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module: str) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")
                up = up[: len(up) - node.level + 1]
                base = ".".join([*up, base]) if base else ".".join(up)
            out.append(base)
            out += [f"{base}.{a.name}" for a in node.names]
    return [m for m in out if m.startswith("paohuzi")]


def edges() -> Counter[tuple[str, str]]:
    """Imports between rooms: how many modules of one room import from another."""
    pairs: set[tuple[str, str]] = set()
    for path in sorted(SRC.rglob("*.py")):
        module = _module_name(path)
        src = folder_of(module)
        for target in _imports(path, module):
            dst = folder_of(target)
            if src and dst and src != dst:
                pairs.add((module, dst))
    out: Counter[tuple[str, str]] = Counter((folder_of(m) or "", dst) for m, dst in pairs)
    # the browser client is JS: it talks to the server over HTTP and the websocket
    out["server.client", "server.http"] += 1
    return out


def layer_of(folder: str) -> int:
    return next(i for i, (_, rooms) in enumerate(LAYERS) if any(k == folder for k, _ in rooms))


def layers_dot() -> str:
    """One box per layer (its rooms listed), one arrow per pair of layers that import
    (labelled with how many modules do); an upward arrow would be drawn red."""
    lines = [
        "digraph layers {",
        '  graph [rankdir=BT, newrank=true, fontname="WenQuanYi Micro Hei", fontsize=11, ranksep=0.35];',
        '  node [shape=box, style="rounded,filled", fillcolor="#eef4ef", fontname="WenQuanYi Micro Hei", fontsize=10];',
        '  edge [color="#557766", arrowsize=0.6, fontname="WenQuanYi Micro Hei", fontsize=9];',
    ]
    for i, (title, rooms) in enumerate(LAYERS):
        body = "\\n".join(label.replace("\n", " — ", 1).replace("\n", " · ") for _, label in rooms)
        lines.append(f'  L{i} [label="{i}. {title}\\n\\n{body}"];')
    counts: Counter[tuple[int, int]] = Counter()
    for (a, b), n in edges().items():
        la, lb = layer_of(a), layer_of(b)
        if la != lb:
            counts[la, lb] += n
    for (a, b), n in sorted(counts.items()):
        color = ' color="#cc3333"' if b > a else ""  # an upward import: tests/test_layers.py fails
        lines.append(
            f'  L{a} -> L{b} [label="{n}", penwidth={min(3.0, 0.6 + 0.05 * n):.1f}{color}];'
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


MOVE = [
    ("browser", "client/app.js", 'send({"type": "act", "version": n, "action": id})'),
    ("server/http/conn.py", "serve_seat", "frame cap, token bucket, pydantic model"),
    ("server/room/room.py", "Room.act → Room.commit", "version check, the seat's legal ids"),
    ("table.py", "Table.apply", "the one driver (bots: Table.choose)"),
    ("core/state.py", "GameState.apply", "legal? → events; forced steps run inside"),
    ("server/storage", "add_action", "one transaction per change"),
    ("core/views.py", "view(state, seat)", "THE hidden-information filter, per seat"),
    ("server/present/state.py", "seat_state → state_message", "snapshot + view → models"),
    ("browser", "client/board.js", "drawBoard(view): the one renderer"),
]


def move_dot() -> str:
    lines = [
        "digraph move {",
        '  graph [rankdir=TB, fontname="WenQuanYi Micro Hei", fontsize=11, ranksep=0.25];',
        '  node [shape=box, style="rounded,filled", fillcolor="#f4f0e6", fontname="WenQuanYi Micro Hei", fontsize=10];',
        '  edge [color="#886644", arrowsize=0.6];',
    ]
    for i, (where, what, why) in enumerate(MOVE):
        label = f"{where}\\n{what}\\n{why}".replace('"', '\\"')
        lines.append(f'  s{i} [label="{label}"];')
    for i in range(len(MOVE) - 1):
        lines.append(f"  s{i} -> s{i + 1};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    IMG.mkdir(parents=True, exist_ok=True)
    for name, text in (("architecture", layers_dot()), ("move-path", move_dot())):
        (IMG / f"{name}.dot").write_text(text, encoding="utf-8")
        try:
            subprocess.run(
                ["dot", "-Tsvg", "-o", str(IMG / f"{name}.svg"), str(IMG / f"{name}.dot")],
                check=True,
            )
            subprocess.run(
                [
                    "dot",
                    "-Tpng",
                    "-Gdpi=110",
                    "-o",
                    str(IMG / f"{name}.png"),
                    str(IMG / f"{name}.dot"),
                ],
                check=True,
            )
        except FileNotFoundError:
            print(
                "Graphviz's dot is not installed (Debian: apt-get install graphviz)",
                file=sys.stderr,
            )
            return 1
    print(f"wrote {IMG}/architecture.{{dot,svg,png}} and move-path.{{dot,svg,png}}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
