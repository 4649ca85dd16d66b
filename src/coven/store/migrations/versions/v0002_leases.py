"""Leases: which server process owns each live table, and until when.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("coven_tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_coven_tables_owner", "coven_tables", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_coven_tables_owner", table_name="coven_tables")
    with op.batch_alter_table("coven_tables") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("owner")
