"""发牌密钥 (fāpái mìyào): the server's secret that keys each hand's commitment salt.

32 bytes from ``secrets``, kept in a file beside the database (mode 0600) so a
restarted server reveals the same salt it committed to before the restart; every
node of one database must read the same file (docs/fair-dealing.md).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

KEY_BYTES = 32


def default_path(db: str | os.PathLike[str]) -> Path:
    """``<db>.dealkey`` beside a SQLite file; for a database URL (``postgresql://…``)
    ``<user data dir>/paohuzi/dealkey`` (nodes of one database pass one
    ``--deal-key-file``)."""
    text = str(db)
    if "://" in text:
        from paohuzi.userdata import data_dir

        return data_dir() / "dealkey"
    return Path(f"{text}.dealkey")


def load_or_create(path: str | os.PathLike[str]) -> bytes:
    """The key in ``path`` (hex), written there first if the file does not exist."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    try:
        text = p.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = secrets.token_bytes(KEY_BYTES)
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key.hex() + "\n")
        return key
    key = bytes.fromhex(text)  # ValueError: not hex
    if len(key) < 16:
        raise ValueError(f"{p}: a deal key needs at least 16 bytes")
    return key


__all__ = ["KEY_BYTES", "default_path", "load_or_create"]
