"""The server measures each person's move time itself and hands it to the game (``Game.stamp_time``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from coven.core import Registry
from tests.core.toygame import ToyGame
from tests.server.conftest import TestClient
from tests.server.helpers import create, drain, hello, humans, ws_url


class TimedToy(ToyGame):
    """The toy game, recording the time the server stamps on each action."""

    def __init__(self) -> None:
        super().__init__()
        self.stamped: list[float] = []

    def stamp_time(self, action: Any, seconds: float) -> Any:
        self.stamped.append(seconds)
        return action


def test_a_persons_move_time_is_measured_by_the_server(make_client: Callable[..., TestClient]) -> None:
    game = TimedToy()
    registry = Registry()
    registry.register(game)
    client = make_client(games=registry)
    created = create(client, seats=humans(2))
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with client.websocket_connect(ws_url(table_id)) as ws0, client.websocket_connect(ws_url(table_id)) as ws1:
        hello(ws0, tokens[0])
        _, sync = hello(ws1, tokens[1])
        mover, other = (ws0, ws1) if 0 in sync["to_act"] else (ws1, ws0)
        legal = [m for m in drain(mover) if m["type"] == "sync"][-1]["legal"]
        time.sleep(0.4)  # the person thinks
        mover.send_json(
            {"type": "act", "number": 0, "action": legal["actions"][0]["notation"], "animation_ms": 100}
        )
        update = [m for m in drain(mover) if m["type"] == "update"][-1]
        time.sleep(0.2)
        legal = [m for m in drain(other) if m["type"] == "update"][-1]["legal"]
        other.send_json(
            {"type": "act", "number": 1, "action": legal["actions"][0]["notation"], "animation_ms": 5000}
        )
        drain(other)
    assert update["number"] == 1
    assert len(game.stamped) == 2
    assert game.stamped[0] >= 0.3  # at least the 0.4 s thought, less the page's 0.1 s of animation
    assert game.stamped[1] == 0.0  # 5 s of animation claimed for a 0.2 s move: never below zero


def test_animation_time_is_bounded(client: TestClient) -> None:
    created = create(client, seats=humans(2))
    with client.websocket_connect(ws_url(created["table"]["id"])) as ws:
        hello(ws, created["invites"][0]["token"])
        ws.send_json({"type": "act", "number": 0, "action": "1", "animation_ms": 60_000})
        assert [m["code"] for m in drain(ws) if m["type"] == "error"] == ["bad_message"]
