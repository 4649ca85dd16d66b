"""Each step keeps its mover's clock: the seconds left on it after the step, at a table with a clock, so
that a restarted server or a process adopting the table gives every person the time they had.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("coven_actions") as batch:
        batch.add_column(sa.Column("bank", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("coven_actions") as batch:
        batch.drop_column("bank")
