"""用户数据 (yònghù shùjù): where paohuzi keeps a user's files — the web game's
database, the terminal game's hand records.

One place, so that every program agrees: ``$XDG_DATA_HOME`` (else
``~/.local/share``) on Linux and other Unix, ``~/Library/Application Support``
on macOS, ``%APPDATA%`` on Windows, each with a ``paohuzi`` folder. Nothing is
created here; the caller makes the folder when it first writes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def data_dir() -> Path:
    """The user's paohuzi data folder (see the module docstring)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "paohuzi"
