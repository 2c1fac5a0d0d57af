"""表 (biǎo): the tables of the game's database, one definition for SQLite and PostgreSQL.

Values with structure (rules, config, ready seats, decks, records) are JSON
text, as the first SQLite server stored them, so a database it made is
upgraded in place (:mod:`.migrate`). Seeds are 63-bit: ``BigInteger``
(PostgreSQL's ``integer`` has 32). Times are Unix seconds.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
)

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", Text, primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("rules", Text, nullable=False),
    Column("config", Text, nullable=False),
    Column("status", Text, nullable=False, server_default="waiting"),
    Column("version", Integer, nullable=False, server_default="0"),
    Column("ready", Text, nullable=False, server_default="[]"),
    Column("versions", Text, nullable=False, server_default="[]"),
    Index("rooms_by_age", "status", "updated"),
)

seats = Table(
    "seats",
    metadata,
    Column("room_id", Text, ForeignKey("rooms.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("token", Text),
    Column("name", Text, nullable=False, server_default=""),
    Column("bot", Text),
)

matches = Table(
    "matches",
    metadata,
    Column("id", Text, primary_key=True),
    Column("room_id", Text, ForeignKey("rooms.id"), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("scores", Text, nullable=False, server_default="[]"),
    Column("status", Text, nullable=False, server_default="playing"),
)

hands = Table(
    "hands",
    metadata,
    Column("id", Text, primary_key=True),
    Column("match_id", Text, ForeignKey("matches.id"), nullable=False),
    Column("idx", Integer, nullable=False),
    Column("seed", BigInteger),
    Column("dealer", Integer, nullable=False),
    Column("huang", Integer, nullable=False),
    Column("deck", Text, nullable=False),
    Column("status", Text, nullable=False, server_default="playing"),
    Column("record", Text),
    Column("created", Float, nullable=False),
    Column("finished", Float),
    Index("hands_by_match", "match_id", "idx"),
)

actions = Table(
    "actions",
    metadata,
    Column("hand_id", Text, ForeignKey("hands.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("ts", Float, nullable=False),
)

records = Table(
    "records",
    metadata,
    Column("id", Text, primary_key=True),
    Column("record", Text, nullable=False),
    Column("finished", Float, nullable=False),
    Index("records_by_age", "finished"),
)

TABLES = ("rooms", "seats", "matches", "hands", "actions", "records")

__all__ = ["TABLES", "actions", "hands", "matches", "metadata", "records", "rooms", "seats"]
