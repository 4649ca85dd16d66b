"""Alembic environment: always run programmatically with a connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from coven.store.models import Base


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("run Coven migrations through coven.store.Store.migrate()")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
