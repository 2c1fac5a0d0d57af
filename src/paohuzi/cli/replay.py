"""``paohuzi replay FILE [--check]`` (INTERFACES.md §3).

Extension: several files, or directories (every ``*.json`` in them), at once —
``--check`` then verifies them all and reports each failure, so a self-play run
of thousands of records is checked by one process.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..core.narrate import narrate_event, narrate_result
from ..core.records import HandRecord, ReplayError, check
from ..core.rules import Rules, RulesError
from .common import RULES_HELP, fail, load_rules


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="print a game record step by step; --check re-executes it")
    p.add_argument(
        "file", nargs="+", help="a game record (JSON, INTERFACES.md §4); several, or directories"
    )
    p.add_argument(
        "--check", action="store_true", help="re-execute and verify; exit 1 on a mismatch"
    )
    p.add_argument(
        "--rules",
        help="the rules the records must have been played under (a record is replayed "
        "under its own; one under other rules fails --check). " + RULES_HELP,
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
    try:  # a record's core read (its schema, rules, deck …): what is shown is a record
        HandRecord.from_dict(rec)
    except ReplayError as e:
        print(f"paohuzi replay: {path} is not a game record: {e}", file=sys.stderr)
        return None
    return rec


def _named(rules: Rules) -> str:
    """A rules object's name with the options it plays (``yongzhou:xing_double=on``)."""
    chosen = dict(rules.extra).get("variants")
    return f"{rules.name}:{chosen}" if chosen else rules.name


def _paths(given: list[str]) -> list[str]:
    out: list[str] = []
    for g in given:
        p = Path(g)
        out += sorted(str(f) for f in p.glob("*.json")) if p.is_dir() else [g]
    return out


def _check(path: str, rules: Rules | None) -> int:
    rec = _load(path)
    if rec is None:
        return 2
    problems = check(rec)
    played = HandRecord.from_dict(rec).rules
    if rules is not None and played != rules:
        problems.insert(
            0, f"played under rules {_named(played)!r}, not those of --rules {_named(rules)!r}"
        )
    if problems:
        print(f"{path}: {problems[0]}", file=sys.stderr)
        return 1
    print(f"{path}: ok ({len(rec.get('actions', []))} actions replayed)")
    return 0


def run(args: argparse.Namespace) -> int:
    paths = _paths(args.file)
    if not paths:
        print("paohuzi replay: no records found", file=sys.stderr)
        return 2
    try:
        rules = load_rules(args.rules) if args.rules is not None else None
    except RulesError as e:
        return fail("replay", e)
    if args.check:
        codes = [_check(p, rules) for p in paths]
        if len(paths) > 1:
            bad = sum(1 for c in codes if c)
            print(f"{len(paths) - bad} of {len(paths)} records ok")
        return max(codes)
    status = 0
    for path in paths:
        rec = _load(path)
        if rec is None:
            status = 2
            continue
        played = HandRecord.from_dict(rec).rules
        if rules is not None and played != rules:
            print(
                f"paohuzi replay: {path}: played under rules {_named(played)!r}, not those of --rules {_named(rules)!r}",
                file=sys.stderr,
            )
            status = max(status, 1)
            continue
        dealer = rec.get("dealer")
        name = rec.get("rules", {}).get("name", "?")
        print(f"牌谱 record · 规则 {name} · seed {rec.get('seed')} · 庄家 {dealer}号")
        for i, ev in enumerate(rec.get("events", []), 1):
            if isinstance(ev, dict):
                print(f"{i:>4}  {narrate_event(ev, dealer)}")
        for line in narrate_result(rec.get("result"), dealer):
            print(line)
    return status
