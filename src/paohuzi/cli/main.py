"""``paohuzi`` entry point: one argparse sub-command per module in :data:`COMMANDS`.

Each command module defines ``register(subparsers)``, which adds its parser and
sets ``func`` to a callable taking the parsed args and returning an exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
