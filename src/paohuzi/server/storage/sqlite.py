"""The default database: one SQLite file under the user's data directory.

Storage itself is :class:`~.store.Storage` (SQLite or PostgreSQL, one code
path); this module names the default file and keeps the names older code
imported from here.
"""

from __future__ import annotations

import os
from pathlib import Path

from paohuzi.server.storage.rows import HandRow, RoomConfig, RoomRow, SeatRow
from paohuzi.server.storage.store import Storage
from paohuzi.userdata import data_dir


def default_db_path() -> Path:
    """``<user data dir>/paohuzi/paohuzi.sqlite3`` (:func:`paohuzi.userdata.data_dir`)."""
    return data_dir() / "paohuzi.sqlite3"


def SqliteStorage(path: str | os.PathLike[str], synchronous: str = "NORMAL") -> Storage:
    """:class:`Storage` in one SQLite file (``":memory:"`` for a throw-away store)."""
    return Storage(path, synchronous)


__all__ = [
    "HandRow",
    "RoomConfig",
    "RoomRow",
    "SeatRow",
    "SqliteStorage",
    "Storage",
    "default_db_path",
]
