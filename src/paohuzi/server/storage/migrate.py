"""迁移 (qiānyí): bring a database to the schema this code needs (Alembic, shipped here).

:func:`upgrade` runs at every server start on the connection it is given. A
database made before migrations existed (the first servers' SQLite files, with
no ``alembic_version`` table) is first stamped with the revision its tables
match, then upgraded like any other: nothing in it is lost.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect

MIGRATIONS = Path(__file__).parent / "migrations"


def config(connection: Connection | None = None) -> Config:
    """Alembic's settings for the migrations in this package (on ``connection``, if given)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision."""
    rev = ScriptDirectory.from_config(config()).get_current_head()
    assert rev is not None
    return rev


def current(connection: Connection) -> str | None:
    """The revision the database is at (``None``: not under migrations yet)."""
    return MigrationContext.configure(connection).get_current_revision()


def _unstamped(connection: Connection) -> str | None:
    """The revision of a pre-migration database's tables (``None``: an empty database)."""
    insp = inspect(connection)
    tables = set(insp.get_table_names())
    if "rooms" not in tables or "alembic_version" in tables:
        return None
    columns = {c["name"] for c in insp.get_columns("rooms")}
    return "0002" if "versions" in columns else "0001"


def upgrade(connection: Connection) -> None:
    """Stamp a pre-migration database, then upgrade to the head revision (a sync connection)."""
    cfg = config(connection)
    baseline = _unstamped(connection)
    if baseline is not None:
        command.stamp(cfg, baseline)
    command.upgrade(cfg, "head")


__all__ = ["MIGRATIONS", "config", "current", "head", "upgrade"]
