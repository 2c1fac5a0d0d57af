"""``paohuzi`` entry point: one argparse sub-command per module in :data:`COMMANDS`.

Each command module defines ``register(subparsers)``, which adds its parser and
sets ``func`` to a callable taking the parsed args and returning an exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

COMMANDS = [
    "score",
    "rules",
    "simulate",
    "replay",
    "play",
    "arena",
    "ladder",
    "serve",
    "train",
]


class _Parser(argparse.ArgumentParser):
    """argparse keeping the commands' error contract (docs/calculator.md): a bad option
    under ``--json`` gives one stderr line and the ``invalid_input`` object on stdout,
    exit 2, as every other bad input does (without ``--json``: argparse's usage too)."""

    json_mode = False

    def error(self, message: str) -> NoReturn:
        if self.json_mode:
            from .common import EXIT_BAD_INPUT, dumps, invalid_input, one_line

            print(dumps(invalid_input(message)), flush=True)
            print(f"{self.prog}: error: {one_line(message)}", file=sys.stderr, flush=True)
            sys.exit(EXIT_BAD_INPUT)
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="paohuzi",
        description="跑胡子 (Paohuzi): hand calculator, self-play, replays, web and terminal game.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"paohuzi.cli.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    _Parser.json_mode = "--json" in (sys.argv[1:] if argv is None else argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a refused option (2): a status, as every command's
        return e.code if isinstance(e.code, int) else 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
