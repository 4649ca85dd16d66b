"""Seat names stored before names were cleaned are cleaned as a new one is.

Since the server cleans a seat's name on the way in (control characters, line breaks, bidi overrides and
isolates and other invisible formatting characters become spaces, spaces squeezed; a name with nothing
visible is refused), every name it stores is clean; names stored by older versions were shown as they were
stored, to everyone at the table and in the lobby. This revision cleans them the same way. A name left with
nothing visible becomes the one the server gives a seat nobody named: "Player n" (n from 1) for a person,
"<bot> bot" for a bot.

The cleaning is this revision's own copy of ``coven.server.messages.visible_text`` as it stood when it was
written (a revision does the same work whenever it runs, whatever the server's rule becomes); a test pins
the two equal. Only the names it changes are written.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None

NAME_CHARS = 64
"""The name column's width."""

_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Printable characters that show nothing: the Hangul fillers and the blank braille pattern."""


def visible_name(name: str) -> str:
    """``name`` cleaned as the server cleans a new one; "" when nothing visible is left."""
    cleaned = " ".join("".join(c if c.isprintable() else " " for c in name).split())
    shows = any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK_LETTERS for c in cleaned)
    return cleaned if shows else ""


def clean_seat_name(name: str, seat: int, kind: str, bot: str | None) -> str:
    """What a stored seat's name becomes: cleaned, or (nothing visible left) the server's default name."""
    cleaned = visible_name(name)
    if not cleaned:
        cleaned = f"{bot} bot" if kind == "bot" and bot else f"Player {seat + 1}"
    return cleaned[:NAME_CHARS]


def _seats() -> sa.TableClause:
    return sa.table(
        "coven_seats",
        sa.column("table_id", sa.String(32)),
        sa.column("seat", sa.Integer),
        sa.column("kind", sa.String(8)),
        sa.column("name", sa.String(64)),
        sa.column("bot", sa.String(64)),
    )


def upgrade() -> None:
    seats = _seats()
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(seats.c.table_id, seats.c.seat, seats.c.kind, seats.c.name, seats.c.bot).execution_options(
            yield_per=2_000
        )
    )
    changed = [
        {"t": row.table_id, "s": row.seat, "n": name}
        for row in rows
        if (name := clean_seat_name(row.name, row.seat, row.kind, row.bot)) != row.name
    ]
    rename = (
        seats.update()
        .where(seats.c.table_id == sa.bindparam("t"), seats.c.seat == sa.bindparam("s"))
        .values(name=sa.bindparam("n"))
    )
    for start in range(0, len(changed), 1_000):
        connection.execute(rename, changed[start : start + 1_000])


def downgrade() -> None:
    """Nothing: the names as they were stored are not kept (they are shown cleaned either way)."""
