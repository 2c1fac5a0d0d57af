"""``paohuzi replay FILE [--check]`` (INTERFACES.md §3)."""

from __future__ import annotations

import argparse
import json
import sys

from ..core.narrate import narrate_event, narrate_result
from ..core.records import check


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="print a game record step by step; --check re-executes it")
    p.add_argument("file", help="a game record (JSON, INTERFACES.md §4)")
    p.add_argument(
        "--check", action="store_true", help="re-execute and verify; exit 1 on a mismatch"
    )
    p.set_defaults(func=run)


def _load(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as f:
            rec = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        print(f"paohuzi replay: cannot read {path}: {e}", file=sys.stderr)
        return None
    if not isinstance(rec, dict):
        print(f"paohuzi replay: {path} is not a game record (not a JSON object)", file=sys.stderr)
        return None
    return rec


def run(args: argparse.Namespace) -> int:
    rec = _load(args.file)
    if rec is None:
        return 2
    if args.check:
        problems = check(rec)
        if problems:
            print(f"{args.file}: {problems[0]}", file=sys.stderr)
            return 1
        print(f"{args.file}: ok ({len(rec.get('actions', []))} actions replayed)")
        return 0
    dealer = rec.get("dealer")
    rules = rec.get("rules", {}).get("name", "?")
    print(f"牌谱 record · 规则 {rules} · seed {rec.get('seed')} · 庄家 {dealer}号")
    for i, e in enumerate(rec.get("events", []), 1):
        if isinstance(e, dict):
            print(f"{i:>4}  {narrate_event(e, dealer)}")
    for line in narrate_result(rec.get("result"), dealer):
        print(line)
    return 0
