"""Each live table has one owning process (a lease in the database): only it runs the table's bots; when
it goes away another process adopts the table, bots included; finished tables leave memory."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from coven.server.settings import Settings
from coven.server.tables import SeatRequest, TableService
from tests.server.conftest import TestClient
from tests.server.helpers import create, hello, latest, wait_for, ws_url
from tests.store.backends import unique_prefix

FAST = {"lease_seconds": 1.0, "heartbeat_seconds": 0.1}


def service(client: TestClient) -> Any:
    return client.app.state.service  # type: ignore[attr-defined]


def eventually(check: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("the condition never held")


def beatless_service(tmp_path: Path, node: str, **settings: Any) -> TableService:
    """A table service named ``node`` on its own SQLite file whose heartbeat never beats by itself (the
    test runs its steps), bots playing at once."""
    settings.setdefault("database_url", f"sqlite:///{tmp_path / f'{node}.sqlite3'}")
    return TableService(
        Settings(
            node_id=node,
            bot_processes=0,
            bot_pause=0,
            ping_interval=0,
            heartbeat_seconds=3600,
            **settings,
        )
    )


def test_only_the_owner_runs_the_bots_and_another_process_adopts_them(
    make_client: Callable[..., TestClient],
) -> None:
    a = make_client(node_id="proc-a", **FAST)
    b = make_client(node_id="proc-b", **FAST)
    created = create(a, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=4)
    table_id, token = created["table"]["id"], created["invites"][0]["token"]
    assert table_id in service(a).owned
    with b.websocket_connect(ws_url(table_id)) as watching:  # b holds a replica now
        hello(watching)
    replica = service(b).tables[table_id]
    assert table_id not in service(b).owned and replica.driver is None

    a.__exit__(None, None, None)  # a leaves (cleanly: its leases are released at once)
    eventually(lambda: table_id in service(b).owned)
    with b.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws, token)
        while sync["status"] != "over":
            if sync["legal"] and sync["legal"]["required"]:
                ws.send_json(
                    {
                        "type": "act",
                        "number": sync["number"],
                        "action": sync["legal"]["actions"][0]["notation"],
                    }
                )
            sync = latest(wait_for(ws, lambda m: m["type"] in {"update", "sync"}))
        steps = service(b).tables[table_id].steps  # (read while watched: a finished table then leaves memory)
    assert sync["result"] is not None
    assert any(s.actor == 1 for s in steps), "the adopted bot never played"


def test_finished_tables_leave_memory_and_load_on_demand(make_client: Callable[..., TestClient]) -> None:
    client = make_client(**FAST)
    created = create(client, seats=[{"kind": "bot", "bot": "random"}] * 2, seed=6)
    table_id = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        greeting = hello(ws)
        final = latest(wait_for(ws, lambda m: m.get("status") == "over", already=greeting))
    eventually(lambda: table_id not in service(client).tables)
    assert table_id not in service(client).owned
    again = client.get(f"/api/tables/{table_id}").json()  # loaded from the store again
    assert again["status"] == "over" and again["number"] == final["number"]
    assert client.get(f"/api/tables/{table_id}/record").json()["seed"] == 6


def test_a_table_created_while_the_leases_are_renewed_stays_owned_and_driven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The heartbeat asks the store which leases it still holds; a table created before the answer comes
    # back is not in it. It must stay this process's, its bots running (it was dropped and its driver
    # stopped, while its lease stayed ours: nobody ever played its bots again).
    async def play() -> None:
        service = beatless_service(tmp_path, "renewing")
        await service.start()
        asked, answer = threading.Event(), threading.Event()
        renew = service.store.renew_leases

        def slow_renew(node: str, seconds: float) -> set[str]:
            held = renew(node, seconds)  # the store answers before the table exists...
            asked.set()
            answer.wait(10)  # ... and the answer arrives after it was created
            return held

        monkeypatch.setattr(service.store, "renew_leases", slow_renew)
        try:
            renewing = asyncio.create_task(service._renew())
            assert await asyncio.to_thread(asked.wait, 10)
            bots = [SeatRequest("bot", bot="random")] * 2
            table, _ = await service.create("brujas", 3, {}, [SeatRequest("human"), *bots])
            assert table.id in service.owned and table.driver is not None
            answer.set()
            await renewing
            assert table.id in service.owned
            assert table.driver is not None and not table.driver.done()
        finally:
            answer.set()
            await service.stop()

    asyncio.run(play())


def test_a_process_restarted_under_its_node_id_drives_its_tables_at_once(tmp_path: Path) -> None:
    # Killed and restarted at once by a service manager, under the same COVEN_NODE_ID: its tables' leases
    # still run (its last life renewed them), so nobody adopts them, and the new life renewed them at
    # every beat without driving them: stuck for good, every health check ok. It takes them back at start.
    async def play() -> None:
        first = beatless_service(tmp_path, "web-3", lease_seconds=600.0)
        await first.start()
        bots = [SeatRequest("bot", bot="random")] * 2
        table, _ = await first.create("brujas", 3, {}, [SeatRequest("human"), *bots])
        # killed: nothing released, nothing more done (its leases run for ten minutes)
        assert first._heartbeat is not None
        first._heartbeat.cancel()
        await asyncio.to_thread(first.commits.close)
        await asyncio.to_thread(first.store.dispose)

        again = beatless_service(tmp_path, "web-3", lease_seconds=600.0)
        await again.start()
        try:
            assert table.id in again.owned
            adopted = again.tables[table.id]
            assert adopted.driver is not None and not adopted.driver.done()
        finally:
            await again.stop()

    asyncio.run(play())


def test_the_process_that_starts_a_table_shows_every_seat_taken(tmp_path: Path) -> None:
    # People joining at once through different processes: the last claim starts the table, but the process
    # that made it had not heard of the others' claims (their notices came while it loaded the table, or
    # not yet), and showed their seats as free for the whole game. Two processes on one store, each with a
    # bus of its own (no notice crosses): the worst case of a notice that comes late.
    async def play() -> None:
        url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        a = beatless_service(tmp_path, "web-a", database_url=url)
        b = beatless_service(tmp_path, "web-b", database_url=url)
        await a.start()
        await b.start()
        try:
            table, _ = await a.create("brujas", 3, {}, [SeatRequest("human")] * 3)
            replica = await b.get(table.id)  # b loads it for its people
            await a.claim(table, 0)
            await a.claim(table, 1)
            await b.claim(replica, 2)  # the last seat: b starts the table
            assert replica.status == "playing"
            assert [s.claimed for s in replica.seats] == [True, True, True]
        finally:
            await b.stop()
            await a.stop()

    asyncio.run(play())


def test_two_processes_under_one_node_id_are_told(
    tmp_path: Path, bus_redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # Both take the id's tables as their own and each ignores the other's notices as its own: the log says
    # so, once, as soon as one hears the other (an operator's recipe gave every machine the same ids).
    async def play() -> None:
        url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        shared = {"database_url": url, "bus_url": bus_redis_url, "bus_prefix": unique_prefix()}
        first = beatless_service(tmp_path, "web-1", **shared)
        twin = beatless_service(tmp_path, "web-1", **shared)
        other = beatless_service(tmp_path, "web-2", **shared)
        for s in (first, twin, other):
            await s.start()
        try:
            for _ in range(2):
                table, _ = await first.create("brujas", 3, {}, [SeatRequest("human")] * 3)
                await first.claim(table, 0)
            deadline = time.monotonic() + 10
            while not twin.twin_seen and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        finally:
            for s in (other, twin, first):
                await s.stop()
        assert twin.twin_seen and not other.twin_seen and not first.twin_seen
        said = [r for r in caplog.records if "another process runs as node id 'web-1'" in r.getMessage()]
        assert len(said) == 1 and said[0].levelname == "ERROR"

    with caplog.at_level(logging.ERROR, logger="coven.server"):
        asyncio.run(play())


RESTING = {**FAST, "rest_seconds": 0.3}


def play_out(ws: Any, sync: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal action whenever this seat must act, until the game is over; the last view."""
    while sync["status"] != "over":
        if sync["legal"] and sync["legal"]["required"]:
            action = sync["legal"]["actions"][0]["notation"]
            ws.send_json({"type": "act", "number": sync["number"], "action": action})
        sync = latest(wait_for(ws, lambda m: m["type"] in {"update", "sync"}))
    return sync


def play_seat(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """Sit at ``table_id`` with ``token`` and play the seat to the end of the game; the last view."""
    with client.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws, token)
        return play_out(ws, sync)


def bot_moves(client: TestClient, table_id: str) -> set[int]:
    """The seats that moved at the table, as the store's log has them (a finished table leaves memory)."""
    stored = service(client).store.load_table(table_id)
    assert stored is not None
    return {seat for seat, _ in stored.actions}


def rests(client: TestClient, table_id: str) -> bool:
    """The table is out of this process's memory and rests in the store (no owner, no lease)."""
    held = service(client)
    gone = table_id not in held.tables and table_id not in held.owned
    return gone and held.store.resting_ids([table_id]) == {table_id}


def test_a_table_left_alone_rests_and_comes_back_when_opened(make_client: Callable[..., TestClient]) -> None:
    """A table whose people left (or never came) waits on nobody the server moves for: after
    ``rest_seconds`` it leaves memory and its lease, no heartbeat (here or after a restart) loads it, and
    opening it again loads it, takes its lease and drives its bots."""
    a = make_client(node_id="proc-a", **RESTING)
    created = create(a, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=8)
    table_id, token = created["table"]["id"], created["invites"][0]["token"]
    eventually(lambda: rests(a, table_id))
    assert not service(a).tables and not service(a).owned
    b = make_client(node_id="proc-b", **RESTING)  # another process, or a restart: nothing to adopt
    time.sleep(0.5)  # several heartbeats
    assert table_id not in service(b).tables and rests(a, table_id)
    assert a.get(f"/api/tables/{table_id}").json()["status"] == "waiting"  # looked at (the lobby) ...
    assert rests(a, table_id)  # ... and let rest
    assert play_seat(a, table_id, token)["result"] is not None  # opened: loaded, a's, its bot driven
    assert 1 in bot_moves(a, table_id), "the bot of the table that rested never played"


def test_a_watched_table_and_a_table_whose_clock_runs_do_not_rest(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(**RESTING)
    watched = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])["table"]["id"]
    clocked = create(client, players=2, seats=[{"kind": "human"}, {"kind": "human"}], pace="move")
    clocked_id = clocked["table"]["id"]
    for invite in clocked["invites"]:  # both sit down: the game starts, and the first mover's time runs
        with client.websocket_connect(ws_url(clocked_id)) as ws:
            hello(ws, invite["token"])
    left = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])["table"]["id"]
    with client.websocket_connect(ws_url(watched)) as ws:
        hello(ws)  # a spectator
        eventually(lambda: rests(client, left))  # the table nobody watches rests meanwhile ...
        time.sleep(0.6)
        held = service(client)
        assert {watched, clocked_id} <= held.owned and {watched, clocked_id} <= held.tables.keys()
    eventually(lambda: rests(client, watched))  # ... and the watched one once its spectator left
    assert clocked_id in service(client).owned  # (120 s a move: its clock still runs)


def test_a_table_watched_in_another_process_moves_there_when_its_owner_lets_it_rest(
    make_client: Callable[..., TestClient],
) -> None:
    """Its people are all on process b, so its owner a never sees them: when a lets the table rest, b
    (whose people watch it) takes its lease and drives its bot."""
    a = make_client(node_id="proc-a", **RESTING)
    b = make_client(node_id="proc-b", **RESTING)
    created = create(a, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=9)
    table_id, token = created["table"]["id"], created["invites"][0]["token"]
    with b.websocket_connect(ws_url(table_id)) as spectator:
        hello(spectator)
        assert table_id in service(b).tables and table_id not in service(b).owned  # a replica
        eventually(lambda: table_id in service(b).owned)
        assert table_id not in service(a).tables and table_id not in service(a).owned
        assert play_seat(b, table_id, token)["result"] is not None
    assert 1 in bot_moves(b, table_id), "the bot of the table that moved to b never played"


def test_a_table_opened_while_it_is_being_let_rest_is_loaded_after_and_owned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone opens a table at the moment its owner lets it rest: the open waits for the store's answer,
    then loads the table afresh and takes its lease (not a copy whose lease was just let go)."""

    async def play() -> None:
        service = beatless_service(tmp_path, "resting", rest_seconds=0.01)
        await service.start()
        asked, answer = threading.Event(), threading.Event()
        rest = service.store.rest_tables

        def slow_rest(node: str, table_ids: list[str]) -> set[str]:
            asked.set()
            answer.wait(10)
            return rest(node, table_ids)

        monkeypatch.setattr(service.store, "rest_tables", slow_rest)
        try:
            left, _ = await service.create("brujas", 3, {}, [SeatRequest("human")] * 3)
            await asyncio.sleep(0.05)
            resting = asyncio.create_task(service._rest_idle())
            assert await asyncio.to_thread(asked.wait, 10)
            assert left.id not in service.tables and left.id not in service.owned
            opening = asyncio.create_task(service.get(left.id))
            await asyncio.sleep(0.05)
            assert not opening.done()  # it waits for the store's answer
            answer.set()
            await resting
            opened = await opening
            assert opened is not None and opened is not left and opened.status == "waiting"
            assert service.tables[left.id] is opened and left.id in service.owned
            assert opened.driver is not None and not opened.driver.done()
            assert service.store.resting_ids([left.id]) == set()  # its lease is ours again
            assert service.store.renew_leases("resting", 30) == {left.id}
        finally:
            answer.set()
            await service.stop()

    asyncio.run(play())


def test_a_table_nobody_joined_expires_and_one_somebody_joined_does_not(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table made and never joined leaves the store once it has rested ``expire_days`` after its making
    (its invite then opens nothing); a table where one person sat down waiting for another is kept, and
    that person gets back to their seat."""
    monkeypatch.setattr("coven.server.tables.EXPIRE_EVERY", 0.0)  # (once an hour: here at every beat)
    a = make_client(node_id="proc-a", **RESTING, expire_days=0.5 / 86_400)  # half a second
    people = [{"kind": "human"}, {"kind": "human"}]
    alone = create(a, game="toy", players=2, seats=people, seed=3)
    joined = create(a, game="toy", players=2, seats=people, seed=4)
    alone_id, joined_id = alone["table"]["id"], joined["table"]["id"]
    token = joined["invites"][0]["token"]
    with a.websocket_connect(ws_url(joined_id)) as ws:
        hello(ws, token)  # sits down, then leaves
    eventually(lambda: a.get(f"/api/tables/{alone_id}").status_code == 404)
    with a.websocket_connect(ws_url(alone_id)) as ws:
        assert ws.receive_json()["code"] == "unknown_table"
    time.sleep(0.5)  # more heartbeats, each looking for tables to expire
    assert a.get(f"/api/tables/{joined_id}").json()["status"] == "waiting"
    with a.websocket_connect(ws_url(joined_id)) as ws:
        assert hello(ws, token)[0]["seat"] == 0  # back at the seat
