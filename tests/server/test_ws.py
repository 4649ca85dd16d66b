"""The live socket: every message, and each refusal on its own (it changes nothing)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from coven.server.tables import TableService
from tests.server.conftest import TestClient, WebSocketTestSession
from tests.server.helpers import (
    create,
    drain,
    errors,
    hello,
    humans,
    latest,
    refused_and_closed,
    wait_for,
    ws_url,
)


def two_people(client: TestClient, seed: int = 5, **body: Any) -> tuple[str, list[str]]:
    created = create(client, seats=humans(2), seed=seed, **body)
    return created["table"]["id"], [i["token"] for i in created["invites"]]


def legal(message: dict[str, Any]) -> list[str]:
    assert message["legal"] is not None, message
    return [a["notation"] for a in message["legal"]["actions"]]


def play(ws: WebSocketTestSession, number: int, action: str, msg_id: Any = None) -> list[dict[str, Any]]:
    ws.send_json({"type": "act", "number": number, "action": action, "id": msg_id})
    return drain(ws)


def refused(ws: WebSocketTestSession, message: dict[str, Any] | str | bytes) -> list[dict[str, Any]]:
    if isinstance(message, dict):
        ws.send_json(message)
    elif isinstance(message, str):
        ws.send_text(message)
    else:
        ws.send_bytes(message)
    return drain(ws)


@pytest.fixture
def table(client: TestClient) -> tuple[str, list[str]]:
    return two_people(client)


Seats = tuple[WebSocketTestSession, WebSocketTestSession, dict[str, Any]]


@pytest.fixture
def seated(client: TestClient, table: tuple[str, list[str]]) -> Any:
    """Both people joined (the table has started); yields (ws0, ws1, latest message of seat 0)."""
    table_id, tokens = table
    with client.websocket_connect(ws_url(table_id)) as ws0, client.websocket_connect(ws_url(table_id)) as ws1:
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        first = drain(ws0)
        drain(ws1)
        yield ws0, ws1, latest(first)


# ------------------------------------------------------------------------------- joining
def test_hello_as_a_player(client: TestClient, table: tuple[str, list[str]]) -> None:
    table_id, tokens = table
    with client.websocket_connect(ws_url(table_id)) as ws:
        welcome, sync = hello(ws, tokens[0])
        assert welcome["seat"] == 0 and welcome["role"] == "player"
        assert welcome["game"] == "toy" and welcome["players"] == 2 and welcome["status"] == "waiting"
        assert [s["claimed"] for s in welcome["seats"]] == [True, False]
        assert sync["full"] is True and sync["number"] == 0 and sync["steps"] == []
        assert sync["view"]["seat"] == 0 and len(sync["view"]["hand"]) == 3
        assert sync["legal"] is None  # waiting for the other person
        assert drain(ws) == []


def test_the_table_starts_when_every_person_joined(client: TestClient, table: tuple[str, list[str]]) -> None:
    table_id, tokens = table
    with client.websocket_connect(ws_url(table_id)) as ws0:
        hello(ws0, tokens[0])
        drain(ws0)
        with client.websocket_connect(ws_url(table_id)) as ws1:
            hello(ws1, tokens[1])
            got = drain(ws0)
            assert got[0]["type"] == "table" and got[0]["status"] == "playing"
            assert got[1]["type"] == "sync" and got[1]["full"] is False and got[1]["steps"] == []
            assert got[1]["legal"]["required"] is True
            assert sorted(legal(got[1])) == sorted(str(c) for c in got[1]["view"]["hand"])
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"


def test_hello_as_a_spectator(client: TestClient, table: tuple[str, list[str]]) -> None:
    table_id, _ = table
    with client.websocket_connect(ws_url(table_id)) as ws:
        welcome, sync = hello(ws)
        assert welcome["seat"] is None and welcome["role"] == "spectator"
        assert sync["view"]["seat"] is None and sync["view"]["hand"] == []
        assert sync["legal"] is None


def test_unknown_table(client: TestClient) -> None:
    with client.websocket_connect(ws_url("nope")) as ws:
        refused_and_closed(ws, "unknown_table", 4004)


def test_bad_token_at_hello_closes(client: TestClient, table: tuple[str, list[str]]) -> None:
    table_id, _ = table
    with client.websocket_connect(ws_url(table_id)) as ws:
        ws.send_json({"type": "hello", "token": "guessed"})
        refused_and_closed(ws, "bad_token", 4001)


def test_token_of_another_table_is_refused(client: TestClient, table: tuple[str, list[str]]) -> None:
    table_id, _ = table
    _, other_tokens = two_people(client)
    with client.websocket_connect(ws_url(table_id)) as ws:
        ws.send_json({"type": "hello", "token": other_tokens[0]})
        assert ws.receive_json()["code"] == "bad_token"


def test_bad_protocol_version_closes(client: TestClient, table: tuple[str, list[str]]) -> None:
    with client.websocket_connect(ws_url(table[0])) as ws:
        ws.send_json({"type": "hello", "protocol": 99})
        refused_and_closed(ws, "bad_protocol", 4002)


def test_messages_before_hello_are_refused(client: TestClient, table: tuple[str, list[str]]) -> None:
    with client.websocket_connect(ws_url(table[0])) as ws:
        ws.send_json({"type": "act", "number": 0, "action": "1"})
        assert ws.receive_json()["code"] == "hello_required"
        welcome, _ = hello(ws, table[1][0])
        assert welcome["seat"] == 0


def test_no_hello_in_time_closes(make_client: Callable[..., TestClient]) -> None:
    client = make_client(hello_timeout=0.2)
    table_id, _ = two_people(client)
    with client.websocket_connect(ws_url(table_id)) as ws:
        refused_and_closed(ws, "hello_required", 4008)


def test_second_hello_is_refused(seated: Seats) -> None:
    ws0, _, _ = seated
    assert errors(refused(ws0, {"type": "hello"})) == ["already_joined"]


def test_ping_pong(seated: Seats) -> None:
    ws0, _, _ = seated
    ws0.send_json({"type": "ping", "id": "abc"})
    assert ws0.receive_json() == {"type": "pong", "id": "abc"}


# ------------------------------------------------------------------------------ acting
def test_an_action_is_acked_in_the_update_it_made(seated: Seats) -> None:
    ws0, ws1, start = seated
    card = legal(start)[0]
    got0 = play(ws0, 0, card, msg_id="m1")
    assert [m["type"] for m in got0] == ["update"]
    update0 = got0[0]
    assert update0["ack"] == {"id": "m1", "number": 1, "action": card}
    assert update0["number"] == 1 and update0["actor"] == 0
    assert update0["events"] == [{"kind": "play", "data": {"seat": 0, "card": int(card)}}]
    assert update0["legal"] is None and update0["to_act"] == [1]
    got1 = drain(ws1)
    assert [m["type"] for m in got1] == ["update"] and "ack" not in got1[0]  # only the actor's is acked
    assert got1[0]["view"]["seat"] == 1 and got1[0]["legal"]["required"] is True


def test_an_action_as_json(seated: Seats) -> None:
    ws0, _, start = seated
    action = {"type": "Play", "card": int(legal(start)[0])}  # the toy game's action, as JSON
    ws0.send_json({"type": "act", "number": 0, "action_json": action, "id": 7})
    got = drain(ws0)
    assert got[0]["type"] == "update" and got[0]["ack"]["id"] == 7


def test_malformed_json(seated: Seats) -> None:
    ws0, _, _ = seated
    assert errors(refused(ws0, "{oops")) == ["bad_json"]
    assert errors(refused(ws0, b"\x00\x01")) == ["bad_json"]


def test_unknown_and_malformed_messages(seated: Seats) -> None:
    ws0, _, _ = seated
    assert errors(refused(ws0, {"type": "resign"})) == ["bad_message"]
    assert errors(refused(ws0, "[1, 2]")) == ["bad_message"]
    assert errors(refused(ws0, {"type": "act", "number": 0})) == ["bad_message"]
    assert errors(refused(ws0, {"type": "act", "number": 0, "action": "1", "action_json": {}})) == [
        "bad_message"
    ]
    assert errors(refused(ws0, {"type": "act", "number": "0", "action": "1"})) == ["bad_message"]
    assert errors(refused(ws0, {"type": "act", "number": 0, "action": "1", "sudo": True})) == ["bad_message"]


def test_oversized_frame(client: TestClient, seated: Seats, table: tuple[str, list[str]]) -> None:
    ws0, _, start = seated
    ws0.send_json({"type": "act", "number": 0, "action": "x" * 20_000})
    refused_and_closed(ws0, "too_large", 1009)  # as uvicorn closes a frame over its ws_max_size
    with client.websocket_connect(ws_url(table[0])) as again:  # the seat reconnects and plays
        hello(again, table[1][0])
        assert "ack" in play(again, 0, legal(start)[0])[0]


def test_spectator_cannot_act(client: TestClient, seated: Seats, table: tuple[str, list[str]]) -> None:
    ws0, _, start = seated
    with client.websocket_connect(ws_url(table[0])) as spectator:
        hello(spectator)
        got = refused(spectator, {"type": "act", "number": 0, "action": legal(start)[0], "id": 1})
        assert errors(got) == ["spectator"]
        assert got[0]["id"] == 1 and got[0]["number"] == 0
    assert drain(ws0) == []  # nothing happened


def test_bad_token_on_an_action(seated: Seats, table: tuple[str, list[str]]) -> None:
    ws0, _, start = seated
    card = legal(start)[0]
    assert errors(refused(ws0, {"type": "act", "number": 0, "action": card, "token": "forged"})) == [
        "bad_token"
    ]
    # the other seat's (real) token is not this seat's either
    assert errors(refused(ws0, {"type": "act", "number": 0, "action": card, "token": table[1][1]})) == [
        "bad_token"
    ]
    ok = refused(ws0, {"type": "act", "number": 0, "action": card, "token": table[1][0]})
    assert "ack" in ok[0]


def test_out_of_turn(seated: Seats) -> None:
    ws0, ws1, _ = seated
    ws1.send_json({"type": "sync", "last": 0})
    hand1 = [str(c) for c in ws1.receive_json()["view"]["hand"]]
    got = play(ws1, 0, hand1[0])
    assert errors(got) == ["not_your_turn"]
    assert drain(ws0) == []


def test_illegal_action_says_why(seated: Seats) -> None:
    ws0, _, start = seated
    missing = next(str(c) for c in range(1, 10) if str(c) not in legal(start))
    got = play(ws0, 0, missing)
    assert errors(got) == ["illegal_action"]
    assert "do not hold" in got[0]["message"]


def test_bad_notation(seated: Seats) -> None:
    ws0, _, _ = seated
    assert errors(play(ws0, 0, "queen of hearts")) == ["bad_notation"]
    assert errors(refused(ws0, {"type": "act", "number": 0, "action_json": {"type": "Nope"}})) == [
        "bad_notation"
    ]


def test_stale_number(seated: Seats) -> None:
    ws0, ws1, start = seated
    got = play(ws0, 3, legal(start)[0])
    assert errors(got) == ["stale"] and got[0]["number"] == 0
    assert drain(ws1) == []


def test_not_started(client: TestClient, table: tuple[str, list[str]]) -> None:
    table_id, tokens = table
    with client.websocket_connect(ws_url(table_id)) as ws0:
        _, sync = hello(ws0, tokens[0])
        drain(ws0)
        got = play(ws0, 0, str(sync["view"]["hand"][0]))
        assert errors(got) == ["not_started"]


def test_rate_limit_then_close(make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limit=0.5, rate_burst=3, rate_strikes=4)
    table_id, tokens = two_people(client)
    with client.websocket_connect(ws_url(table_id)) as ws:
        hello(ws, tokens[0])  # 1 of the burst
        ws.send_json({"type": "ping", "id": 1})
        ws.send_json({"type": "ping", "id": 2})
        ws.send_json({"type": "ping", "id": 3})
        assert ws.receive_json() == {"type": "pong", "id": 1}
        assert ws.receive_json() == {"type": "pong", "id": 2}
        limited = ws.receive_json()
        assert limited["type"] == "error" and limited["code"] == "rate_limited"
        for _ in range(3):
            ws.send_json({"type": "ping"})
        codes = [ws.receive_json()["code"] for _ in range(2)]
        assert codes == ["rate_limited"] * 2
        refused_and_closed(ws, "rate_limited", 4029)  # the last strike


def test_a_long_sync_costs_its_socket_messages_and_a_full_one_is_made_once(
    make_client: Callable[..., TestClient],
) -> None:
    """A request of 30 bytes that brings back a whole game's log (33 KB at the end of a long one) costs
    its socket one more message for every ``sync_chars_per_token`` characters; a full sync is made once per
    seat and number, however often it is asked for (an attacker asked at the message rate on 100 sockets:
    a gigabyte queued, and the loop every table shares busy making them)."""
    client = make_client(rate_limit=0.001, rate_burst=10, sync_chars_per_token=100)
    table_id, tokens = two_people(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect(ws_url(table_id)) as ws:
        _, first = hello(ws, tokens[0])  # (the hello's own sync is not charged)
        ws.send_json({"type": "sync", "last": first["number"]})  # a catch-up of nothing: 1 + 3 messages
        caught_up = ws.receive_json()
        assert caught_up["type"] == "sync" and caught_up["steps"] == []
        table = service.tables[table_id]
        made = table.full_sync_text(0, service.settings.legal_cap)
        assert table.full_sync_text(0, service.settings.legal_cap) is made  # made once at this number
        assert 300 <= len(table.sync_text(0, None, service.settings.legal_cap)) < 400  # (with its "elapsed")
        ws.send_json({"type": "sync", "last": None})  # full: 1 + 3 messages (one per 100 characters)
        full = ws.receive_json()
        assert (
            full["type"] == "sync"
            and full["full"]
            and json.loads(made) == {k: v for k, v in full.items() if k != "elapsed"}
        )
        ws.send_json({"type": "ping", "id": 1})  # the last of the 10 (uncharged, 5 would be left)
        assert ws.receive_json() == {"type": "pong", "id": 1}
        ws.send_json({"type": "ping", "id": 2})
        limited = ws.receive_json()
        assert limited["type"] == "error" and limited["code"] == "rate_limited"


def test_one_address_holds_a_bounded_number_of_sockets(make_client: Callable[..., TestClient]) -> None:
    """Each socket holds a file descriptor and memory: past ``sockets_per_client`` open at once, a new one
    from the same address is told why and closed (4030) before anything is done for it; another address,
    and the same one once it closed one, is served."""
    client = make_client(sockets_per_client=2)
    table_id, tokens = two_people(client)
    sockets = client.app.state.sockets  # type: ignore[attr-defined]
    with (
        client.websocket_connect(ws_url(table_id)) as first,
        client.websocket_connect(ws_url(table_id)) as second,
    ):
        hello(first, tokens[0])
        hello(second, tokens[1])
        assert sockets.held("testclient") == 2
        with client.websocket_connect(ws_url(table_id)) as third:
            assert "too many connections" in refused_and_closed(third, "rate_limited", 4030)["message"]
        assert sockets.held("testclient") == 2  # the refused one was never counted
        other = TestClient(client.app, client=("198.51.100.20", 50000))  # type: ignore[arg-type]
        with other.websocket_connect(ws_url(table_id)) as elsewhere:
            assert hello(elsewhere)[0]["seat"] is None  # a spectator from another address
    assert sockets.held("testclient") == 0 and len(sockets) == 0  # closed ones are forgotten
    with client.websocket_connect(ws_url(table_id)) as again:
        hello(again, tokens[0])


def test_a_table_serves_a_bounded_number_of_spectators(make_client: Callable[..., TestClient]) -> None:
    """Every move goes to every watcher: past ``spectators_per_table`` watching one table, a new spectator
    is told why and closed (4031), while the table's players always get to their seats; the refused one is
    not counted, one who leaves makes room, and another table has its own room."""
    client = make_client(spectators_per_table=2)
    table_id, tokens = two_people(client)
    other_id, _ = two_people(client)
    with (
        client.websocket_connect(ws_url(table_id)) as first,
        client.websocket_connect(ws_url(table_id)) as second,
    ):
        assert hello(first)[0]["role"] == "spectator" and hello(second)[0]["role"] == "spectator"
        for _ in range(2):  # refused again and again: a refusal holds no room
            with client.websocket_connect(ws_url(table_id)) as third:
                third.send_json({"type": "hello", "token": None, "last": None})
                refused = refused_and_closed(third, "too_many_spectators", 4031)
                assert "as many spectators as it can take (2)" in refused["message"]
        with (
            client.websocket_connect(ws_url(table_id)) as player0,
            client.websocket_connect(ws_url(table_id)) as player1,
        ):  # the players always get in, and play on beside their watchers
            assert hello(player0, tokens[0])[0]["seat"] == 0
            assert hello(player1, tokens[1])[1]["status"] == "playing"
        with client.websocket_connect(ws_url(other_id)) as elsewhere:  # another table's room is its own
            assert hello(elsewhere)[0]["role"] == "spectator"
        with client.websocket_connect(ws_url(table_id)) as refused_again:
            refused_again.send_json({"type": "hello", "token": None, "last": None})
            assert refused_again.receive_json()["code"] == "too_many_spectators"
    # the two watchers left: room for two again
    with (
        client.websocket_connect(ws_url(table_id)) as again,
        client.websocket_connect(ws_url(table_id)) as again2,
    ):
        assert hello(again)[0]["role"] == "spectator" and hello(again2)[0]["role"] == "spectator"


def test_game_over_refuses_actions(seated: Seats) -> None:
    ws0, ws1, start = seated
    number = 0
    seats = [ws0, ws1]
    message = start
    while message["status"] != "over":
        ws = seats[number % 2]
        ws.send_json({"type": "sync", "last": number})
        message = ws.receive_json()
        got = play(ws, number, legal(message)[0])
        message = got[-1]
        number += 1
        drain(seats[number % 2])
    assert message["result"] is not None and len(message["result"]["scores"]) == 2
    assert errors(play(ws0, number, "1")) == ["game_over"]


# ---------------------------------------------------------------------- catch-up, resync
def test_sync_catch_up_and_full(seated: Seats) -> None:
    ws0, ws1, start = seated
    play(ws0, 0, legal(start)[0])
    assert [m["type"] for m in drain(ws1)] == ["update"]
    ws1.send_json({"type": "sync", "last": 0})
    catch_up = ws1.receive_json()
    assert catch_up["full"] is False and catch_up["since"] == 0 and catch_up["number"] == 1
    assert [s["number"] for s in catch_up["steps"]] == [1]
    card = legal(catch_up)[0]
    play(ws1, 1, card)
    drain(ws0)
    ws0.send_json({"type": "sync"})
    full = next(m for m in drain(ws0) if m["type"] == "sync")
    assert full["full"] is True and [s["number"] for s in full["steps"]] == [1, 2]
    ws0.send_json({"type": "sync", "last": 99})  # from the future: a full resync
    assert next(m for m in drain(ws0) if m["type"] == "sync")["full"] is True


def test_reconnect_gets_what_it_missed(client: TestClient, table: tuple[str, list[str]]) -> None:
    table_id, tokens = table
    with client.websocket_connect(ws_url(table_id)) as ws0:
        hello(ws0, tokens[0])
        with client.websocket_connect(ws_url(table_id)) as ws1:
            hello(ws1, tokens[1])
            start = latest(drain(ws0))
            play(ws0, 0, legal(start)[0])
            last_seen = latest(drain(ws1))["number"]
            assert last_seen == 1
        # seat 1 is away; seat 0 cannot move (not its turn), so seat 1 comes back to number 1
    with client.websocket_connect(ws_url(table_id)) as ws1:
        _, sync = hello(ws1, tokens[1], last=1)
        assert sync["full"] is False and sync["steps"] == [] and sync["number"] == 1
        play(ws1, 1, legal(sync)[0])
    with client.websocket_connect(ws_url(table_id)) as ws1:
        _, sync = hello(ws1, tokens[1], last=1)
        assert sync["full"] is False and [s["number"] for s in sync["steps"]] == [2]
        assert sync["steps"][0]["actor"] == 1
    with client.websocket_connect(ws_url(table_id)) as ws1:
        _, sync = hello(ws1, tokens[1], last=-4)
        assert sync["full"] is True and [s["number"] for s in sync["steps"]] == [1, 2]


def test_truncated_legal_actions_accept_free_form(make_client: Callable[..., TestClient]) -> None:
    client = make_client(legal_cap=1)
    table_id, tokens = two_people(client)
    with client.websocket_connect(ws_url(table_id)) as ws0, client.websocket_connect(ws_url(table_id)) as ws1:
        _, sync = hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        start = latest(drain(ws0))
        assert start["legal"]["truncated"] is True and start["legal"]["free_form"] is True
        assert len(start["legal"]["actions"]) == 1
        unlisted = str(sync["view"]["hand"][-1])
        assert unlisted not in legal(start)
        assert "ack" in play(ws0, 0, unlisted)[0]


def test_two_people_joining_at_once_each_learn_the_other_has_joined(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ana's hello is between its welcome and its listening when Bea takes her seat: Bea's claim must reach
    # Ana, in the welcome or in a later `table` frame (it was broadcast to the listeners only, which Ana was
    # not yet among: she saw Bea absent for the whole game).
    table_id, tokens = two_people(client)
    bea_claims: list[asyncio.Event] = []  # (made on the server's loop)
    chat_log, claim = TableService.chat_log, TableService.claim

    def bea_claiming() -> asyncio.Event:
        if not bea_claims:
            bea_claims.append(asyncio.Event())
        return bea_claims[0]

    async def chat_log_after_bea(self: TableService, table: Any) -> Any:
        await asyncio.wait_for(bea_claiming().wait(), 10)  # Ana's hello waits here for Bea's claim
        return await chat_log(self, table)

    async def seen_claim(self: TableService, table: Any, seat: int) -> None:
        if seat == 1:
            bea_claiming().set()
        await claim(self, table, seat)

    monkeypatch.setattr(TableService, "chat_log", chat_log_after_bea)
    monkeypatch.setattr(TableService, "claim", seen_claim)
    with client.websocket_connect(ws_url(table_id)) as ana, client.websocket_connect(ws_url(table_id)) as bea:
        ana.send_json({"type": "hello", "token": tokens[0], "last": None})
        welcome = ana.receive_json()
        assert welcome["type"] == "welcome" and not welcome["seats"][1]["claimed"]
        bea.send_json({"type": "hello", "token": tokens[1], "last": None})
        frames = wait_for(ana, lambda m: m["type"] == "table" and m["seats"][1]["claimed"], seconds=10)
        assert [m["status"] for m in frames if m["type"] == "sync"][-1] == "playing"
