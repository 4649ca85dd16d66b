"""A commit the server acknowledges survives a power loss: SQLite syncs every commit (WAL + FULL)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from coven.store import Store
from tests.store.backends import sqlite_url

SYNCHRONOUS_FULL = 2
"""``PRAGMA synchronous``: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA."""


def test_sqlite_connections_commit_durably(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    try:
        store.migrate()
        with store.engine.connect() as conn:  # a connection of the store's own pool
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA synchronous")).scalar() == SYNCHRONOUS_FULL
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        store.dispose()
