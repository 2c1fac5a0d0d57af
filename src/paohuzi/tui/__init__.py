"""终端 (zhōngduān): the full-screen terminal game (``paohuzi play``), built on textual."""

from __future__ import annotations

from .session import PlaySession, default_record_dir

__all__ = ["PlaySession", "default_record_dir"]
