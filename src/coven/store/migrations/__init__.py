"""Alembic migrations of the Coven store (run by :meth:`coven.store.Store.migrate`)."""
