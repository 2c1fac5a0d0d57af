"""The first schema: rooms, seats, matches, hands, actions, records (one version per room).

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="waiting"),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("ready", sa.Text, nullable=False, server_default="[]"),
    )
    op.create_table(
        "seats",
        sa.Column("room_id", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("token", sa.Text),
        sa.Column("name", sa.Text, nullable=False, server_default=""),
        sa.Column("bot", sa.Text),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("room_id", sa.Text, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("scores", sa.Text, nullable=False, server_default="[]"),
        sa.Column("status", sa.Text, nullable=False, server_default="playing"),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("match_id", sa.Text, sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger),
        sa.Column("dealer", sa.Integer, nullable=False),
        sa.Column("huang", sa.Integer, nullable=False),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="playing"),
        sa.Column("record", sa.Text),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
    )
    op.create_table(
        "actions",
        sa.Column("hand_id", sa.Text, sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("ts", sa.Float, nullable=False),
    )
    op.create_table(
        "records",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
    )
    op.create_index("hands_by_match", "hands", ["match_id", "idx"])
    op.create_index("rooms_by_age", "rooms", ["status", "updated"])
    op.create_index("records_by_age", "records", ["finished"])


def downgrade() -> None:
    for name in ("records", "actions", "hands", "matches", "seats", "rooms"):
        op.drop_table(name)
