"""Alembic's environment: migrations run on the connection :mod:`..migrate` hands over
(``paohuzi serve`` upgrades its database at start); the ``alembic`` command line
works too, given ``-x url=...``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from paohuzi.server.storage.schema import metadata

config = context.config


def _run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=metadata,
        render_as_batch=True,  # SQLite alters a table by copying it
    )
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if given is not None:
    _run(given)
else:  # the command line: a synchronous driver for the URL given
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("alembic: give the database as -x url=sqlite:///path or postgresql://…")
    with create_engine(url).connect() as conn:
        _run(conn)
        conn.commit()
