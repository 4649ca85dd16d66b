"""Database and Redis back ends for the persistence tests.

PostgreSQL comes from ``COVEN_TEST_POSTGRES_URL`` and Redis from ``COVEN_TEST_REDIS_URL``. Locally an
unreachable server skips its tests; with ``CI`` set they fail instead (both are required there). Every
test gets its own PostgreSQL schema (dropped afterwards) and its own Redis channel prefix, so parallel
runs never clash.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

POSTGRES_URL = os.environ.get("COVEN_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("COVEN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _unreachable(what: str, exc: Exception) -> None:
    message = f"{what} unreachable: {exc}"
    if os.environ.get("CI"):
        pytest.fail(message + " (required in CI)")
    pytest.skip(message)


def _plain(url: str) -> str:
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgres") else url


def postgres_schema_url() -> Iterator[str]:
    import psycopg

    try:
        admin = psycopg.connect(_plain(POSTGRES_URL), connect_timeout=3, autocommit=True)
    except Exception as exc:
        _unreachable("PostgreSQL", exc)
        raise
    schema = f"coven_test_{uuid.uuid4().hex[:12]}"
    with admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        sep = "&" if "?" in POSTGRES_URL else "?"
        url = POSTGRES_URL.replace("postgresql://", "postgresql+psycopg://", 1)
        try:
            yield f"{url}{sep}options={quote(f'-csearch_path={schema}')}"
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{(tmp_path / 'coven-test.sqlite3').as_posix()}"


def redis_url() -> str:
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        _unreachable("Redis", exc)
    return REDIS_URL


def unique_prefix() -> str:
    return f"coven-test-{uuid.uuid4().hex[:12]}:"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The same test on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
    else:
        yield from postgres_schema_url()


@pytest.fixture
def bus_redis_url() -> str:
    return redis_url()
