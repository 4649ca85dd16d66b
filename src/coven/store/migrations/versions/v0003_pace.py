"""A table's pace (no limit, a limit per move, or a clock per player) and bots standing in for absent people.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("coven_tables") as batch:
        batch.add_column(sa.Column("pace", sa.String(16), nullable=False, server_default="none"))
        batch.add_column(sa.Column("pace_seconds", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("coven_seats") as batch:
        batch.add_column(sa.Column("stand_in", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("coven_seats") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("coven_tables") as batch:
        batch.drop_column("pace_seconds")
        batch.drop_column("pace")
