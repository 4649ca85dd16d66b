"""Fixtures of the in-process server tests (Starlette's TestClient, no sockets)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from coven.server import Settings, create_app
from tests.server.games import test_registry
from tests.server.helpers import SeedQueue
from tests.store.backends import bus_redis_url, database_url

with warnings.catch_warnings():
    # starlette 1.x prefers httpx2 for its TestClient; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

__all__ = ["TestClient", "WebSocketTestSession", "bus_redis_url", "database_url"]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>Coven</title>", encoding="utf-8")
    return Settings(
        database_url=f"sqlite:///{(tmp_path / 'server.sqlite3').as_posix()}",
        games=test_registry(),
        bot_pause=0,
        bot_look_seconds=0,
        ping_interval=0,
        rate_limit=10_000,
        rate_burst=10_000,
        data_dir=tmp_path,
        web_dir=web,
        deal_seeds=SeedQueue(),
    )


@pytest.fixture
def make_client(settings: Settings) -> Iterator[Callable[..., TestClient]]:
    opened: list[TestClient] = []

    def make(**changes: Any) -> TestClient:
        client = TestClient(create_app(replace(settings, **changes)))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()
