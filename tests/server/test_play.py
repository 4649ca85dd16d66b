"""Whole games: bots as seats, secrets kept, restart-resume from the database, several processes."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from coven.core import Record, replay
from coven.games import game_ids as real_game_ids
from coven.games import get_game
from coven.server import Settings
from tests.server.conftest import TestClient, WebSocketTestSession
from tests.server.games import GATE, SECRET_TOY, TOY
from tests.server.helpers import create, drain, hello, humans, latest, wait_for, ws_url
from tests.store.backends import unique_prefix


def _play_out(ws: WebSocketTestSession, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """Play the first legal action whenever this seat must act, until the game is over."""
    current = latest(seen)
    for _ in range(500):
        if current["status"] == "over":
            return current
        if current["legal"] is not None and current["legal"]["required"]:
            ws.send_json(
                {
                    "type": "act",
                    "number": current["number"],
                    "action": current["legal"]["actions"][0]["notation"],
                }
            )
        batch = wait_for(ws, lambda m: m["type"] in {"update", "sync"})
        seen.extend(batch)
        current = latest(batch)
    raise AssertionError("the game did not end")


def test_bots_play_a_whole_game_for_spectators(client: TestClient) -> None:
    created = create(client, players=3, seats=[{"kind": "bot", "bot": "random"}] * 3, seed=4)
    table_id = created["table"]["id"]
    assert created["invites"] == [] and created["table"]["status"] == "playing"
    with client.websocket_connect(ws_url(table_id)) as ws:
        greeting = hello(ws)
        seen = wait_for(ws, lambda m: m.get("status") == "over", already=greeting)[1:]  # the sync on
    final = latest(seen)
    assert final["number"] == 9 and final["result"] is not None
    record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    assert final["result"]["scores"] == list(TOY.scores(replay(TOY, record)))


def test_a_person_against_bots(client: TestClient) -> None:
    created = create(client, players=3, seed=9)  # seat 0 a person, the others random bots
    table_id = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws, created["invites"][0]["token"])
        final = _play_out(ws, [sync])
    assert final["number"] == 9
    assert final["view"]["hand"] == []
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"


def test_a_thinking_bot_blocks_no_other_table(client: TestClient) -> None:
    GATE.clear()
    try:
        slow = create(client, game="gated-toy", seats=[{"kind": "bot", "bot": "gate"}] * 2, seed=2)
        other = create(client, seats=humans(2), seed=3)
        tokens = [i["token"] for i in other["invites"]]
        with (
            client.websocket_connect(ws_url(other["table"]["id"])) as ws0,
            client.websocket_connect(ws_url(other["table"]["id"])) as ws1,
        ):
            hello(ws0, tokens[0])
            hello(ws1, tokens[1])
            start = latest(drain(ws0))
            ws0.send_json({"type": "act", "number": 0, "action": start["legal"]["actions"][0]["notation"]})
            got = drain(ws0)  # while the bot still thinks
            assert [m["type"] for m in got] == ["update"] and "ack" in got[0]
        assert client.get(f"/api/tables/{slow['table']['id']}").json()["number"] == 0
    finally:
        GATE.set()
    with client.websocket_connect(ws_url(slow["table"]["id"])) as ws:
        greeting = hello(ws)
        assert latest(wait_for(ws, lambda m: m.get("status") == "over", already=greeting))["number"] == 6


def test_no_secret_reaches_another_seat(client: TestClient) -> None:
    created = create(client, game="secret-toy", players=2, seats=humans(2), seed=21)
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    received: dict[str, list[str]] = {"0": [], "1": [], "spectator": []}
    with (
        client.websocket_connect(ws_url(table_id)) as ws0,
        client.websocket_connect(ws_url(table_id)) as ws1,
        client.websocket_connect(ws_url(table_id)) as spectator,
    ):
        sockets = {"0": ws0, "1": ws1, "spectator": spectator}
        for key, token in (("0", tokens[0]), ("1", tokens[1]), ("spectator", None)):
            received[key].extend(json.dumps(m) for m in hello(sockets[key], token))
        for _ in range(6):
            for key, ws in sockets.items():
                received[key].extend(json.dumps(m) for m in drain(ws))
            views = {k: latest([json.loads(t) for t in received[k]]) for k in ("0", "1")}
            mover = next(k for k in ("0", "1") if views[k]["legal"] is not None)
            last = views[mover]
            sockets[mover].send_json(
                {"type": "act", "number": last["number"], "action": last["legal"]["actions"][-1]["notation"]}
            )
            received[mover].extend(json.dumps(m) for m in drain(sockets[mover]))  # the act is done
        for key, ws in sockets.items():
            received[key].extend(json.dumps(m) for m in drain(ws))
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["status"] == "over"
    everything = {k: "\n".join(v) for k, v in received.items()}
    for seat in ("0", "1"):
        other = "1" if seat == "0" else "0"
        assert f"SECRET-{seat}-" in everything[seat]  # a seat sees its own private events
        assert f"SECRET-{seat}-" not in everything[other]
        assert f"SECRET-{seat}-" not in everything["spectator"]
    for token in tokens:
        assert all(token not in text for text in everything.values())
    for key in ("0", "1"):
        for text in received[key]:
            message = json.loads(text)
            if message["type"] in {"sync", "update"}:
                assert message["view"]["seat"] == int(key)
    spectator_views = [json.loads(t) for t in received["spectator"]]
    assert all(m["view"]["hand"] == [] for m in spectator_views if m["type"] in {"sync", "update"})
    assert all(m.get("legal") is None for m in spectator_views)


def test_restart_resumes_every_unfinished_table(
    make_client: Callable[..., TestClient], settings: Settings, database_url: str
) -> None:
    first = make_client(database_url=database_url)
    created = create(first, players=2, seed=33)  # a person against a bot
    table_id = created["table"]["id"]
    token = created["invites"][0]["token"]
    bots_only = create(first, players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=34)["table"]["id"]
    with first.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws, token)
        seen = [sync, *drain(ws)]
        current = latest(seen)
        ws.send_json({"type": "act", "number": 0, "action": current["legal"]["actions"][0]["notation"]})
        seen = wait_for(ws, lambda m: m["type"] == "update" and m["number"] == 2)
        before = latest(seen)
    first.__exit__(None, None, None)  # the server stops

    second = make_client(database_url=database_url)
    service = second.app.state.service  # type: ignore[attr-defined]
    assert {table_id, bots_only} <= set(service.tables)  # resumed at start, before anyone asks
    with second.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws, token, last=2)
        assert sync["full"] is False and sync["number"] == 2 and sync["steps"] == []
        assert sync["view"] == before["view"] and sync["legal"] == before["legal"]
        final = _play_out(ws, [sync])
    assert final["number"] == 6 and final["status"] == "over"
    record = Record.from_json(second.get(f"/api/tables/{table_id}/record").json())
    assert final["result"]["scores"] == list(TOY.scores(replay(TOY, record)))
    assert second.get(f"/api/tables/{bots_only}").json()["status"] == "waiting"


def test_steps_a_bot_commits_survive_a_restart(make_client: Callable[..., TestClient]) -> None:
    first = make_client()
    table_id = create(first, players=2, seats=[{"kind": "bot", "bot": "random"}] * 2, seed=3)["table"]["id"]
    with first.websocket_connect(ws_url(table_id)) as ws:
        greeting = hello(ws)
        final = latest(wait_for(ws, lambda m: m.get("status") == "over", already=greeting))
    first.__exit__(None, None, None)
    second = make_client()
    with second.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws)
    assert sync["view"] == final["view"] and sync["result"] == final["result"]
    assert [s["number"] for s in sync["steps"]] == [1, 2, 3, 4, 5, 6]


def test_the_stores_writer_process_commits_a_whole_game_and_ends_with_the_server(
    make_client: Callable[..., TestClient],
) -> None:
    import os

    first = make_client(commit_process=True)
    writer = first.app.state.service.commits.writer  # type: ignore[attr-defined]
    assert writer is not None
    table_id = create(first, players=2, seats=[{"kind": "bot", "bot": "random"}] * 2, seed=3)["table"]["id"]
    created = create(first, players=3, seed=9)  # a person against bots: her moves go through it too
    with first.websocket_connect(ws_url(table_id)) as ws:
        greeting = hello(ws)
        final = latest(wait_for(ws, lambda m: m.get("status") == "over", already=greeting))
    with first.websocket_connect(ws_url(created["table"]["id"])) as ws:
        _, sync = hello(ws, created["invites"][0]["token"])
        hers = _play_out(ws, [sync])
    pid = writer.pid
    assert pid is not None and pid != os.getpid() and writer.answered > 0
    with open(f"/proc/{pid}/stat") as stat:  # a child of the server, alive while it serves
        assert int(stat.read().rsplit(")", 1)[1].split()[1]) == os.getpid()
    first.__exit__(None, None, None)
    assert writer.pid is None  # the server's stop closed it ...
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # ... and waited for it: nothing is left behind
    second = make_client()
    with second.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws)
    assert sync["view"] == final["view"] and [s["number"] for s in sync["steps"]] == [1, 2, 3, 4, 5, 6]
    record = Record.from_json(second.get(f"/api/tables/{created['table']['id']}/record").json())
    assert hers["number"] == 9 and len(record.moves) == 9  # every move she and the bots made


@pytest.mark.redis
def test_two_processes_share_a_table_over_redis(
    make_client: Callable[..., TestClient], bus_redis_url: str
) -> None:
    prefix = unique_prefix()
    a = make_client(bus_url=bus_redis_url, bus_prefix=prefix)
    b = make_client(bus_url=bus_redis_url, bus_prefix=prefix)
    created = create(a, seats=humans(2), seed=8)
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with a.websocket_connect(ws_url(table_id)) as ws0, b.websocket_connect(ws_url(table_id)) as ws1:
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])  # claimed on b: a learns of it over the bus and starts
        start = latest(wait_for(ws0, lambda m: m["type"] == "sync" and m["legal"] is not None))
        ws0.send_json({"type": "act", "number": 0, "action": start["legal"]["actions"][0]["notation"]})
        got = latest(wait_for(ws1, lambda m: m["type"] == "update"))
        assert got["number"] == 1 and got["legal"]["required"] is True
        ws1.send_json({"type": "act", "number": 1, "action": got["legal"]["actions"][0]["notation"]})
        back = latest(wait_for(ws0, lambda m: m["type"] == "update" and m["number"] == 2))
        assert back["legal"]["required"] is True


@pytest.mark.parametrize("game_id", real_game_ids())
def test_every_registered_game_plays_through_with_bots(
    make_client: Callable[..., TestClient], game_id: str
) -> None:
    from coven.games import REGISTRY

    game = get_game(game_id)
    client = make_client(games=REGISTRY)
    players = game.spec.min_players
    created = create(
        client, game=game_id, players=players, seats=[{"kind": "bot", "bot": "random"}] * players, seed=1
    )
    table_id = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        hello(ws)
        final = latest(wait_for(ws, lambda m: m.get("status") == "over", seconds=120))
    record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    assert final["result"]["scores"] == [float(s) for s in game.scores(replay(game, record))]
    assert len(record.moves) == final["number"]


assert SECRET_TOY.spec.id == "secret-toy"


def test_a_step_taken_by_another_process_is_a_conflict_and_is_caught_up(
    make_client: Callable[..., TestClient],
) -> None:
    a = make_client()
    b = make_client()  # same database, no shared bus: b does not hear of a's steps
    created = create(a, seats=humans(2), seed=12)
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with b.websocket_connect(ws_url(table_id)) as late:
        hello(late, tokens[0])  # b loads the table at number 0
        with a.websocket_connect(ws_url(table_id)) as ws0, a.websocket_connect(ws_url(table_id)) as ws1:
            hello(ws0, tokens[0])
            hello(ws1, tokens[1])
            start = latest(drain(ws0))
            ws0.send_json({"type": "act", "number": 0, "action": start["legal"]["actions"][0]["notation"]})
            assert "ack" in drain(ws0)[0]
        drain(late)
        late.send_json({"type": "act", "number": 0, "action": start["legal"]["actions"][-1]["notation"]})
        got = drain(late)
        # b learns from the database that the table started, catches up with step 1, then refuses
        assert [m["type"] for m in got] == ["table", "sync", "update", "error"]
        assert got[2]["number"] == 1 and got[3]["code"] == "conflict"
    record = a.get(f"/api/tables/{table_id}").json()
    assert record["number"] == 1


def test_server_keepalive_pings(make_client: Callable[..., TestClient]) -> None:
    client = make_client(ping_interval=0.05)
    table_id = create(client, seats=humans(2))["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        hello(ws)
        assert ws.receive_json() == {"type": "ping"}


@pytest.mark.parametrize("bot", ["knocker", "random"])
def test_optional_actors_are_offered_the_chance_without_stalling(client: TestClient, bot: str) -> None:
    created = create(client, game="knock-toy", seats=[{"kind": "human"}, {"kind": "bot", "bot": bot}], seed=5)
    table_id = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws, created["invites"][0]["token"])
        seen = [sync]
        if bot == "knocker" and sync["number"] == 0:
            # People act when they like, so a person who never pauses may always beat a bot to its
            # optional moment: this person waits for the knock the bot has the chance of at once (if
            # the bot has not knocked already, before this person came in).
            knocked = lambda m: any(e["kind"] == "knock" for e in m.get("events") or ())  # noqa: E731
            seen.extend(wait_for(ws, knocked))
        final = _play_out(ws, seen)
    assert final["status"] == "over"
    record = client.get(f"/api/tables/{table_id}/record").json()
    knocks = [seat for seat, action in record["moves"] if action == "knock"]
    assert knocks == ([1] if bot == "knocker" else [])
    # the person is offered the optional knock too, as a legal action that is not required
    offered = [
        m["legal"]
        for m in seen
        if m["type"] in {"sync", "update"} and m["legal"] and not m["legal"]["required"]
    ]
    assert offered and offered[0]["actions"] == [{"notation": "knock"}]


def test_a_people_table_driver_is_not_woken_by_moves_but_ends_with_the_game(client: TestClient) -> None:
    """A table of people without bots, pace or a game time limit: a move does not wake its driver (it
    would find nothing to do), and the game's end does, so the driver task ends with the game."""
    created = create(client, seats=humans(2), seed=3)
    table_id, tokens = created["table"]["id"], [i["token"] for i in created["invites"]]
    service = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect(ws_url(table_id)) as ws0, client.websocket_connect(ws_url(table_id)) as ws1:
        sockets = (ws0, ws1)
        said = [hello(ws0, tokens[0])]
        said.append(hello(ws1, tokens[1]))
        table = service.tables[table_id]
        assert table.driver is not None and not table.driver.done()
        woken: list[int] = []  # the driver looks at the pace once per wake: at which numbers it woke
        enforce = service._enforce_pace

        async def counted(watched: Any) -> None:
            woken.append(watched.number)
            await enforce(watched)

        service._enforce_pace = counted
        seen = [latest(said[k] + drain(ws)) for k, ws in enumerate(sockets)]
        moves = 0
        while seen[0]["status"] != "over":
            seat = seen[0]["to_act"][0]
            legal = seen[seat]["legal"]
            action = legal["actions"][0]["notation"]
            sockets[seat].send_json({"type": "act", "number": seen[seat]["number"], "action": action})
            seen = [latest(wait_for(ws, lambda m: m["type"] == "update")) for ws in sockets]
            moves += 1
        assert moves > 2
        deadline = time.monotonic() + 5
        while not table.driver.done() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table.driver.done()
        assert [n for n in woken if 0 < n < moves] == []  # woken by no move but the last


def test_a_finished_table_leaves_memory_when_its_last_connection_closes(
    make_client: Callable[..., TestClient],
) -> None:
    """Not at the next heartbeat (made an hour here): at once, so finished tables never pile up between
    beats; and not while anyone still watches it."""
    client = make_client(heartbeat_seconds=3600)
    service = client.app.state.service  # type: ignore[attr-defined]
    created = create(client, players=3, seed=9)  # seat 0 a person, the others random bots
    table_id = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as watcher:
        hello(watcher)
        with client.websocket_connect(ws_url(table_id)) as ws:
            _, sync = hello(ws, created["invites"][0]["token"])
            assert _play_out(ws, [sync])["status"] == "over"
            assert table_id in service.tables
        drain(watcher)
        assert table_id in service.tables  # the spectator still watches
    deadline = time.monotonic() + 10
    while table_id in service.tables and time.monotonic() < deadline:
        time.sleep(0.01)
    assert table_id not in service.tables
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"  # the store serves it


def test_a_move_the_store_could_not_keep_is_refused_without_the_stores_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the database away, a move was refused with the driver's own error: the database's host, port
    and name, sent to every player who moved. Its words stay in the server's log; the move is not played,
    and is taken once the store is back."""
    created = create(client, players=2, seats=humans(2), seed=5)
    table_id = created["table"]["id"]
    tokens = [invite["token"] for invite in created["invites"]]
    service = client.app.state.service  # type: ignore[attr-defined]

    async def away(*args: object, **kwargs: object) -> None:
        raise OSError('connection to server at "10.1.2.3", port 5432 failed: database "coven_prod"')

    with (
        client.websocket_connect(ws_url(table_id)) as mover,
        client.websocket_connect(ws_url(table_id)) as other,
    ):
        hello(mover, tokens[0])
        hello(other, tokens[1])
        start = latest(drain(mover))  # the table's start: seat 0 plays first
        drain(other)
        action = start["legal"]["actions"][0]["notation"]
        monkeypatch.setattr(service.commits, "append", away)
        mover.send_json({"type": "act", "number": 0, "action": action, "id": "m1"})
        [error] = [m for m in drain(mover) if m["type"] == "error"]
        assert (error["code"], error["id"], error["number"]) == ("internal", "m1", 0), error
        assert "10.1.2.3" not in error["message"] and "coven_prod" not in error["message"]
        assert "not played" in error["message"]
        assert [m for m in drain(other) if m["type"] == "update"] == []  # nothing happened
        monkeypatch.undo()
        mover.send_json({"type": "act", "number": 0, "action": action, "id": "m2"})
        update = wait_for(mover, lambda m: m["type"] == "update")[-1]
        assert update["ack"]["id"] == "m2" and update["number"] == 1
