"""A live table may rest, and the heartbeat finds orphans through the lease's index.

A live table that waits on nobody a server moves for (no bot's turn, no clock running) and that nobody has
watched for a while leaves its process's memory and its lease: ``owner`` and ``lease_until`` NULL. No
heartbeat adopts it; whichever process next loads it to show it takes its lease. An orphan is now a live
table whose lease has run out (``lease_until`` in the past), found through ``ix_coven_tables_live_lease``
without reading every resting table.

Before this revision a live table with no lease at all (a clean shutdown let it go, or it was stored
without an owner) was an orphan, to adopt at once: such rows get a lease that has run out, so they still
are.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def _tables() -> sa.TableClause:
    return sa.table(
        "coven_tables",
        sa.column("status", sa.String(16)),
        sa.column("lease_until", sa.DateTime(timezone=True)),
    )


def upgrade() -> None:
    tables = _tables()
    op.execute(
        tables.update()
        .where(tables.c.status.in_(("waiting", "playing")), tables.c.lease_until.is_(None))
        .values(lease_until=datetime.now(UTC))
    )
    op.create_index("ix_coven_tables_live_lease", "coven_tables", ["status", "lease_until"])


def downgrade() -> None:
    """The index goes; resting tables become what a table with no lease was before: orphans, adopted (and
    loaded) by the next heartbeat."""
    op.drop_index("ix_coven_tables_live_lease", table_name="coven_tables")
