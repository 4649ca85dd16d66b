"""A server process whose bus connection drops catches up from the store: its players miss nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest

from coven.bus import redis as redis_bus
from tests.bus.test_reconnect import cut
from tests.server.conftest import TestClient
from tests.server.helpers import create, hello, humans, latest, wait_for, ws_url
from tests.store.backends import unique_prefix


@pytest.mark.redis
def test_a_process_that_missed_a_notice_catches_up_after_the_drop(
    make_client: Callable[..., TestClient], bus_redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """b's subscription is cut and stays down for a second (the backoff); a's move meanwhile is
    announced to nobody on b, whose player still receives it once b is back, from the store."""
    monkeypatch.setattr(redis_bus, "BACKOFF_FIRST", 1.0)
    prefix = unique_prefix()
    slow = {"bus_url": bus_redis_url, "bus_prefix": prefix, "heartbeat_seconds": 3600}  # only RESYNC helps
    a = make_client(node_id=f"a{uuid.uuid4().hex[:8]}", **slow)
    node_b = f"b{uuid.uuid4().hex[:8]}"
    b = make_client(node_id=node_b, **slow)
    created = create(a, seats=humans(2))
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with a.websocket_connect(ws_url(table_id)) as ws0, b.websocket_connect(ws_url(table_id)) as ws1:
        hello(ws0, tokens[0])
        _, joined = hello(ws1, tokens[1])  # the last seat: b starts the table
        assert joined["status"] == "playing"
        start = latest(wait_for(ws0, lambda m: m["type"] == "sync" and m["legal"] is not None))
        assert cut(bus_redis_url, f"coven-{node_b}") >= 1
        ws0.send_json({"type": "act", "number": 0, "action": start["legal"]["actions"][0]["notation"]})
        got = latest(wait_for(ws1, lambda m: m["type"] == "update", seconds=30))
        assert got["number"] == 1 and got["legal"]["required"] is True


def test_a_process_that_hears_nothing_catches_up_on_its_heartbeat(
    make_client: Callable[..., TestClient],
) -> None:
    """No shared bus at all (each process its own in-process bus): the heartbeat still finds the store
    ahead and brings b's player the move made on a."""
    a = make_client(heartbeat_seconds=0.1)
    b = make_client(heartbeat_seconds=0.1)
    created = create(a, seats=humans(2))
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with a.websocket_connect(ws_url(table_id)) as ws0, b.websocket_connect(ws_url(table_id)) as ws1:
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        start = latest(wait_for(ws0, lambda m: m["type"] == "sync" and m["legal"] is not None))
        ws0.send_json({"type": "act", "number": 0, "action": start["legal"]["actions"][0]["notation"]})
        got = latest(wait_for(ws1, lambda m: m["type"] == "update"))
        assert got["number"] == 1 and got["legal"]["required"] is True
