"""Persistence of tables, seats and action logs (SQLAlchemy 2; SQLite by default, PostgreSQL too).

The store is synchronous (SQLAlchemy's core engine); the server calls it from worker threads. Its schema
is managed by Alembic migrations shipped inside this package and run programmatically on start
(:meth:`Store.migrate`).
"""

from coven.store.store import (
    ChatLine,
    ConflictError,
    PendingClaim,
    PendingStep,
    PendingTable,
    PendingWrite,
    Store,
    StoredSeat,
    StoredTable,
    default_database_url,
    hash_token,
    unreachable,
)

__all__ = [
    "ChatLine",
    "ConflictError",
    "PendingClaim",
    "PendingStep",
    "PendingTable",
    "PendingWrite",
    "Store",
    "StoredSeat",
    "StoredTable",
    "default_database_url",
    "hash_token",
    "unreachable",
]
