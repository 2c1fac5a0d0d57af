"""The two databases the server runs on, for tests: a SQLite file and PostgreSQL.

PostgreSQL is the machine's (``PAOHUZI_TEST_PG``, default
``postgresql://postgres@127.0.0.1:5432/test``); each test gets a schema of its
own, dropped afterwards, so runs never see each other's rows. Without a
reachable server the PostgreSQL cases skip, saying why.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from paohuzi.server.storage.store import database_url

PG = os.environ.get("PAOHUZI_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgresql")


def pg_reason() -> str | None:
    """Why PostgreSQL cannot be used (``None``: it can)."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install 'paohuzi[postgres]')"
    try:
        with psycopg.connect(PG, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as e:
        return f"PostgreSQL is not reachable at {PG}: {str(e).strip().splitlines()[0]}"
    return None


@contextmanager
def pg_schema() -> Iterator[str]:
    """A fresh, empty schema: the URL whose connections use it (dropped at exit)."""
    import psycopg

    name = f"paohuzi_test_{secrets.token_hex(6)}"
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in PG else "?"
    try:
        yield f"{PG}{sep}options={quote(f'-csearch_path={name}')}"
    finally:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def sync_engine(db: str) -> Any:
    """A synchronous SQLAlchemy engine on ``--db`` (for tests that read the rows)."""
    from sqlalchemy import create_engine

    url = database_url(db).replace("+aiosqlite", "")  # psycopg serves both ways
    return create_engine(url)


@contextmanager
def database(backend: str, tmp_path: Path) -> Iterator[str]:
    """``--db`` for a fresh database of ``backend`` (a file path for SQLite)."""
    if backend == "sqlite":
        yield str(tmp_path / "game.sqlite3")
        return
    reason = pg_reason()
    if reason is not None:
        pytest.skip(reason)
    with pg_schema() as url:
        yield url
