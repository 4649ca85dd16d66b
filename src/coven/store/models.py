"""The database schema: tables, their seats, and each table's action log."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "coven_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, bool | int | str]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``waiting`` (people still to join), ``playing`` or ``over``."""
    number: Mapped[int] = mapped_column(Integer, default=0)
    """How many actions the log holds; the log's last number."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    pace: Mapped[str] = mapped_column(String(16), default="none", server_default="none")
    """``none``, ``move`` (``pace_seconds`` for each move) or ``clock`` (``pace_seconds`` in all, each)."""
    pace_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The server process that owns the live table (runs its bots), while its lease lasts."""
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the owner's lease runs out unless its heartbeat renews it; then another process adopts. NULL on a
    live table: it rests (waits on nobody a server moves for; no owner, loaded by whoever opens it; revision
    0006); NULL on a finished one: nobody's."""


Index("ix_coven_tables_recent", TableRow.created_at.desc(), TableRow.id)
"""The lobby's newest tables first (``Store.list_tables``), read from the index, not sorted from every table
ever played (revision 0005)."""
Index("ix_coven_tables_live_lease", TableRow.status, TableRow.lease_until)
"""The heartbeat's orphans (``Store.orphaned_ids``: live tables whose lease has run out), read from the
index without reading the resting tables, whose lease is NULL (revision 0006)."""


class SeatRow(Base):
    __tablename__ = "coven_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("coven_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``human`` or ``bot``."""
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """SHA-256 of the seat's secret token (hex); never the token itself."""
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A bot plays this person's seat (their time ran out) until they come back."""


class ActionRow(Base):
    __tablename__ = "coven_actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("coven_tables.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1-based step number; the primary key makes two processes racing for a step collide."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    """The action in the game's notation (it round-trips)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    bank: Mapped[float | None] = mapped_column(Float, nullable=True)
    """At a table with a clock, a step in a person's seat: the seconds left on their clock after it (a
    bot standing in for them: what it was left at); else None. A table loaded again gives each person
    the last of theirs."""


class ChatRow(Base):
    __tablename__ = "coven_chat"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("coven_tables.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    """1-based, per table: two processes saying something at once cannot both take an id."""
    seat: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    """The table's action number when it was said (where it shows in the replay)."""
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
