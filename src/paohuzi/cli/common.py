"""Helpers shared by the ``paohuzi`` sub-commands: rules loading, errors, card colours.

Every command reports bad input the same way (INTERFACES.md §1): exit status 2,
one line on stderr naming the problem and, in JSON mode, the object
``{"error": "invalid_input", "message": ...}`` on stdout. No traceback ever
reaches the user.
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.text import Text

from paohuzi.core import variants
from paohuzi.core.cards import Card
from paohuzi.core.rules import PRESETS, Rules, RulesError, preset

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2
DEFAULT_PRESET = "hunan"

# 二七十 / 贰柒拾 (R3) print red; 大字 print bold so 八 and 捌 never look alike at a glance.
RED_STYLE = "red"
BIG_STYLE = "bold"


def one_line(message: object) -> str:
    """A message squeezed onto one line: error reports must be exactly one stderr line."""
    return " ".join(str(message).split()) or "invalid input"


def invalid_input(message: object) -> dict[str, str]:
    """The JSON object for bad input (INTERFACES.md §1)."""
    return {"error": "invalid_input", "message": one_line(message)}


def dumps(obj: Any, indent: int | None = None) -> str:
    """JSON as the CLI prints it: Chinese left readable (``ensure_ascii=False``)."""
    return json.dumps(obj, ensure_ascii=False, indent=indent)


def fail(command: str, message: object, json_mode: bool = False) -> int:
    """Report bad input: one stderr line (and the JSON object in JSON mode); returns 2."""
    if json_mode:
        print(dumps(invalid_input(message)), flush=True)
    print(f"paohuzi {command}: error: {one_line(message)}", file=sys.stderr, flush=True)
    return EXIT_BAD_INPUT


def internal_error(command: str, exc: BaseException, json_mode: bool = False) -> int:
    """A bug, not bad input: still one line and no traceback; returns 1."""
    message = f"internal error: {type(exc).__name__}: {exc}"
    if json_mode:
        print(dumps({"error": "internal_error", "message": one_line(message)}), flush=True)
    print(f"paohuzi {command}: {one_line(message)}", file=sys.stderr, flush=True)
    return EXIT_INTERNAL


# every --rules flag says the same (load_rules reads them all)
RULES_HELP = (
    "preset name; PRESET:ID=VALUE,... for a region's options (paohuzi rules PRESET lists "
    "them); or a .json/.toml rules file"
)


def _looks_like_path(arg: str) -> bool:
    return (
        arg.lower().endswith((".json", ".toml")) or "/" in arg or "\\" in arg or Path(arg).is_file()
    )


def _parse_rules_text(text: str, path: str) -> Any:
    """JSON or TOML by extension; an unknown extension is sniffed (JSON starts with ``{``)."""
    suffix = Path(path).suffix.lower()
    as_json = suffix == ".json" or (suffix != ".toml" and text.lstrip().startswith("{"))
    try:
        return json.loads(text) if as_json else tomllib.loads(text)
    except json.JSONDecodeError as e:
        raise RulesError(f"rules file {path} is not valid JSON: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"rules file {path} is not valid TOML: {e}") from None


def load_rules(arg: str | None) -> Rules:
    """``--rules`` value → :class:`Rules`: a preset name, a preset with its region's
    options (``yongzhou:xing=gen,hongzhuan=on``: ``paohuzi rules PRESET`` lists them), or a
    ``.json``/``.toml`` file.

    A file holds a rules object (``Rules.to_dict()`` form, all fields optional; a
    ``preset`` key starts from that preset). A game record (§4) also works: its
    ``rules`` object is used. Raises :class:`RulesError` with a one-line message.
    """
    if arg is None or arg == "":
        return preset(DEFAULT_PRESET)
    if arg.partition(":")[0] in PRESETS:  # a region's 玩法: yongzhou:xing=gen,hongzhuan=on
        return variants.parse(arg)
    if arg in PRESETS or not _looks_like_path(arg):
        return preset(arg)
    try:
        text = Path(arg).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesError(f"rules file {arg} does not exist") from None
    except IsADirectoryError:
        raise RulesError(f"rules file {arg} is a directory") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RulesError(
            f"cannot read rules file {arg}: {getattr(e, 'strerror', None) or e}"
        ) from None
    data = _parse_rules_text(text, arg)
    if isinstance(data, dict) and isinstance(data.get("rules"), dict):
        data = data["rules"]
    if not isinstance(data, dict):
        raise RulesError(f"rules file {arg} must hold one object")
    try:
        return Rules.from_dict(data)
    except RulesError as e:
        raise RulesError(f"rules file {arg}: {e}") from None


def card_text(card: Card) -> Text:
    """One card, coloured: red for 红字 (R3), bold for 大字."""
    style = " ".join(s for s, on in ((RED_STYLE, card.is_red), (BIG_STYLE, card.is_big)) if on)
    return Text(card.zh, style=style)


def cards_text(cards: Iterable[int]) -> Text:
    """A run of cards, each styled as :func:`card_text`."""
    out = Text()
    for c in cards:
        out.append_text(card_text(Card(c)))
    return out
