"""A finished table is nobody's, and the lobby's newest tables come from an index.

The leases still held on tables that are over are let go, and ``ix_coven_tables_recent`` (newest first)
lets the lobby read its 50 newest tables without sorting every table ever played.

From this revision the step that ends a game also ends its owner's lease (``Store`` clears ``owner`` and
``lease_until`` in the same update), so the heartbeat's queries, which find a process's tables by owner,
read only its live tables. This lets go of the leases a database already holds on finished tables.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    tables = sa.table(
        "coven_tables",
        sa.column("status", sa.String(16)),
        sa.column("owner", sa.String(64)),
        sa.column("lease_until", sa.DateTime(timezone=True)),
    )
    op.execute(
        tables.update()
        .where(tables.c.status == "over", tables.c.owner.is_not(None))
        .values(owner=None, lease_until=None)
    )
    op.create_index("ix_coven_tables_recent", "coven_tables", [sa.text("created_at DESC"), "id"])


def downgrade() -> None:
    """The index goes; the leases let go stay so: a finished table's lease meant nothing (no process
    adopts or renews it)."""
    op.drop_index("ix_coven_tables_recent", table_name="coven_tables")
