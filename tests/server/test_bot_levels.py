"""The bot levels seat at server tables like any bot: a table of beginners and casuals plays to its end."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from coven.games import REGISTRY
from tests.server.conftest import TestClient
from tests.server.helpers import create, hello, latest, wait_for, ws_url


@pytest.mark.parametrize("game_id", ["brujas", "namaste", "amulets", "commandments"])
def test_a_table_of_levels_plays_to_the_end(make_client: Callable[..., TestClient], game_id: str) -> None:
    client = make_client(games=REGISTRY)
    listed = {g["id"]: g["bots"] for g in client.get("/api/games").json()}
    assert {"beginner", "casual", "best"} <= set(listed[game_id])
    players = REGISTRY.get(game_id).spec.min_players
    seats = [{"kind": "bot", "bot": ("beginner", "casual")[i % 2]} for i in range(players)]
    created = create(client, game=game_id, players=players, seats=seats, seed=3)
    with client.websocket_connect(ws_url(created["table"]["id"])) as ws:
        greeting = hello(ws)
        final = latest(wait_for(ws, lambda m: m.get("status") == "over", already=greeting))
    assert final["result"] is not None
