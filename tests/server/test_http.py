"""The lobby's HTTP routes, each with its refusals."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from coven.core import Record, replay
from coven.server import Settings
from tests.server.conftest import TestClient
from tests.server.games import TOY
from tests.server.helpers import create, drain, hello, humans, wait_for, ws_url


def test_health(client: TestClient) -> None:
    answer = client.get("/api/health")
    assert answer.status_code == 200
    body = answer.json()
    assert body == {
        "ok": True,
        "protocol": 1,
        "games": ["derived-toy", "gated-toy", "knock-toy", "secret-toy", "toy"],
        "node": client.app.state.service.node,  # type: ignore[attr-defined]
        "store": "ok",
        "bus": "local",
        "lease_renewed_s": body["lease_renewed_s"],
        "tables": 0,
        "owned": 0,
        "connections": 0,
        "bots_thinking": 0,
        "bots_waiting": 0,
    }
    assert 0 <= body["lease_renewed_s"] < 6
    table_id = create(client)["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        hello(ws)
        body = client.get("/api/health").json()
        assert (body["tables"], body["owned"], body["connections"]) == (1, 1, 1)


def test_health_says_when_the_store_or_the_bus_is_away(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process whose store has not renewed its leases within a lease (other processes adopt its tables)
    or whose bus is reconnecting cannot serve: 503, so that a proxy sends people elsewhere; 200 again once
    it is back."""
    client = make_client(lease_seconds=0.6, heartbeat_seconds=0.1)
    service = client.app.state.service  # type: ignore[attr-defined]
    renew = service.store.renew_leases

    def away(*args: Any) -> Any:
        raise OSError("the database is away")

    monkeypatch.setattr(service.store, "renew_leases", away)
    deadline = time.monotonic() + 10
    while client.get("/api/health").status_code == 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    answer = client.get("/api/health")
    assert answer.status_code == 503
    assert (answer.json()["ok"], answer.json()["store"]) == (False, "unreachable")
    monkeypatch.setattr(service.store, "renew_leases", renew)
    deadline = time.monotonic() + 10
    while client.get("/api/health").status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get("/api/health").json()["store"] == "ok"

    class Dropped:  # a bus between processes that lost its subscription
        reaches_others = True
        listening = False

    bus = service.bus
    monkeypatch.setattr(service, "bus", Dropped())
    answer = client.get("/api/health")
    assert answer.status_code == 503 and answer.json()["bus"] == "reconnecting"
    Dropped.listening = True
    answer = client.get("/api/health")
    assert answer.status_code == 200 and answer.json()["bus"] == "ok"
    monkeypatch.setattr(service, "bus", bus)


def test_openapi_document_describes_every_route(client: TestClient) -> None:
    doc = client.get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == {
        "/api/health",
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/rules",
        "/api/games/commandments/deck",
        "/api/games/commandments/cards/preview",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/record",
        "/api/tables/{table_id}/replay",
        "/api/tables/{table_id}/explanation",
    }
    schemas = doc["components"]["schemas"]
    assert {"CreateTableIn", "TableCreatedOut", "GameOut", "TableOut", "ErrorOut"} <= set(schemas)
    # input and output are separate models: the token exists only in the creation answer
    assert "token" in schemas["InviteOut"]["properties"]
    assert "token" not in schemas["TableOut"]["properties"]
    assert "seed" not in schemas["TableOut"]["properties"]


def test_list_games(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    toy = games["toy"]
    assert toy["title"] == "Toy"
    assert (toy["min_players"], toy["max_players"]) == (2, 3)
    assert toy["options"] == [
        {
            "key": "hand",
            "kind": "int",
            "default": 3,
            "description": "cards per hand",
            "choices": [],
            "minimum": 1,
            "maximum": 3,
        }
    ]
    assert toy["bots"] == ["random"]
    assert toy["has_rules"] is False


def test_one_game_and_unknown_game(client: TestClient) -> None:
    assert client.get("/api/games/toy").json()["id"] == "toy"
    response = client.get("/api/games/chess")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_game"


def test_rules_missing_is_404(client: TestClient) -> None:
    response = client.get("/api/games/toy/rules")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "no_rules"


def test_create_table_with_default_seats(client: TestClient) -> None:
    created = create(client)
    table = created["table"]
    assert table["status"] == "waiting"
    assert table["number"] == 0
    assert table["options"] == {"hand": 3}
    assert [s["kind"] for s in table["seats"]] == ["human", "bot"]
    assert table["seats"][1]["bot"] == "random"
    assert [i["seat"] for i in created["invites"]] == [0]
    invite = created["invites"][0]
    assert invite["url"] == f"http://testserver/t/{table['id']}#token={invite['token']}"
    assert created["spectator_url"] == f"http://testserver/t/{table['id']}"
    assert len(invite["token"]) >= 32


def test_create_table_with_people_named_seats_and_options(client: TestClient) -> None:
    created = create(
        client,
        players=3,
        options={"hand": 2},
        seats=[
            {"kind": "human", "name": "Ana"},
            {"kind": "bot", "bot": "random", "name": "Robo"},
            {"kind": "human"},
        ],
    )
    assert created["table"]["options"] == {"hand": 2}
    assert [s["name"] for s in created["table"]["seats"]] == ["Ana", "Robo", "Player 3"]
    tokens = [i["token"] for i in created["invites"]]
    assert [i["seat"] for i in created["invites"]] == [0, 2]
    assert len(set(tokens)) == 2


def test_create_table_refusals(client: TestClient) -> None:
    def refused(body: dict[str, Any]) -> tuple[int, str]:
        response = client.post("/api/tables", json=body)
        return response.status_code, response.json()["error"]["code"]

    assert refused({"game": "chess", "players": 2}) == (404, "unknown_game")
    assert refused({"game": "toy", "players": 7}) == (422, "invalid_option")
    assert refused({"game": "toy", "players": 2, "options": {"hand": 9}}) == (422, "invalid_option")
    assert refused({"game": "toy", "players": 2, "options": {"colour": "red"}}) == (422, "invalid_option")
    assert refused({"game": "toy", "players": 2, "seats": [{"kind": "bot", "bot": "oracle"}] * 2}) == (
        422,
        "unknown_bot",
    )
    assert refused({"game": "toy", "players": 2, "seats": humans(3)}) == (422, "invalid_option")
    assert refused({"game": "toy", "players": 2, "seats": [{"kind": "alien"}] * 2}) == (422, "bad_request")
    assert refused({"game": "toy"}) == (422, "bad_request")
    assert refused({"game": "toy", "players": 2, "admin": True}) == (422, "bad_request")
    response = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["error"]["code"]) == (422, "bad_request")


def test_table_info_and_listing(client: TestClient) -> None:
    created = create(client, seats=humans(2))
    table_id = created["table"]["id"]
    info = client.get(f"/api/tables/{table_id}").json()
    assert info == created["table"]
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [table_id]
    for token in (i["token"] for i in created["invites"]):
        assert token not in client.get(f"/api/tables/{table_id}").text
        assert token not in client.get("/api/tables").text
    response = client.get("/api/tables/nope")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_table"


def _finished_table(client: TestClient) -> str:
    created = create(client, seats=[{"kind": "bot", "bot": "random"}] * 2, seed=11)
    table_id: str = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        greeting = hello(ws)
        wait_for(ws, lambda m: m.get("status") == "over", already=greeting)
    return table_id


def test_record_only_after_the_end_and_it_replays(client: TestClient) -> None:
    waiting = create(client, seats=humans(2))["table"]["id"]
    response = client.get(f"/api/tables/{waiting}/record")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "not_over")
    table_id = _finished_table(client)
    record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    assert record.seed == 11
    assert len(record.moves) == 6
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "over"
    assert info["result"]["scores"] == list(TOY.scores(replay(TOY, record)))


def test_replay_as_a_seat_then_revealed(client: TestClient) -> None:
    waiting = create(client, seats=humans(2))["table"]["id"]
    assert client.get(f"/api/tables/{waiting}/replay").status_code == 409
    table_id = _finished_table(client)
    mine = client.get(f"/api/tables/{table_id}/replay?seat=0").json()
    assert mine["seat"] == 0 and mine["reveal"] is False
    assert len(mine["steps"]) == 7
    assert all(s["view"]["seat"] == 0 for s in mine["steps"])
    assert [s["action"] is not None for s in mine["steps"][1:]] == [True, False] * 3
    full = client.get(f"/api/tables/{table_id}/replay?reveal=true").json()
    assert all(s["action"] is not None for s in full["steps"][1:])
    assert full["steps"][0]["view"]["hand"] == []  # spectator's view
    # Scores after every step, for the result chart: from nothing to the final result.
    assert full["steps"][0]["scores"] == [0.0, 0.0]
    assert full["steps"][-1]["scores"] == full["result"]["scores"]
    assert mine["steps"][-1]["scores"] == full["result"]["scores"]
    assert client.get(f"/api/tables/{table_id}/replay?seat=5").status_code == 422


def test_tokens_are_stored_hashed(client: TestClient, settings: Settings) -> None:
    created = create(client, seats=humans(2))
    assert settings.database_url is not None
    engine = create_engine(settings.database_url)
    with engine.connect() as conn:
        dump = repr(conn.execute(text("SELECT * FROM coven_seats")).all())
    engine.dispose()
    for invite in created["invites"]:
        assert invite["token"] not in dump


def test_pages_are_served(client: TestClient) -> None:
    assert "Coven" in client.get("/").text
    assert "Coven" in client.get("/t/anything").text


def test_spectator_link_page_and_socket_of_a_created_table(client: TestClient) -> None:
    created = create(client, seats=humans(2))
    table_id = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        welcome, _ = hello(ws)
        assert welcome["role"] == "spectator"
        assert drain(ws) == []


def test_table_info_says_whose_turn_it_is(client: TestClient) -> None:
    created = create(client, seats=humans(2))
    table_id = created["table"]["id"]
    assert created["table"]["to_act"] == []  # waiting: nobody's turn yet
    with client.websocket_connect(ws_url(table_id)) as a, client.websocket_connect(ws_url(table_id)) as b:
        hello(a, created["invites"][0]["token"])
        _, sync = hello(b, created["invites"][1]["token"])
        info = client.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "playing"
    assert info["to_act"] == sync["to_act"] and len(info["to_act"]) == 1
