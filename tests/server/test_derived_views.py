"""Views with a derived part (Amulets' deduction assistant, :meth:`Game.derive_view`) are worked out by
the bot pool's deriver (a worker process of its own), never on the event loop where every other table
waits, nor behind the bots' decisions; a derivation that fails or runs past its budget leaves the views
bare, and the game goes on."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from coven.server import botpool
from tests.server.conftest import TestClient, WebSocketTestSession
from tests.server.games import DerivedToy
from tests.server.helpers import create, drain, hello, humans, latest, wait_for, ws_url


@pytest.fixture(autouse=True)
def derivation() -> Iterator[type[DerivedToy]]:
    DerivedToy.how, DerivedToy.threads = "ok", []
    yield DerivedToy
    DerivedToy.how, DerivedToy.threads = "ok", []


def derived(message: dict[str, Any]) -> bool:
    return message["view"]["options"].get("derived") == "yes"


def play_out(
    ws0: WebSocketTestSession, ws1: WebSocketTestSession, sync1: dict[str, Any]
) -> list[dict[str, Any]]:
    """Both people play their first legal card until the game ends (seat 1 joined last, its hello's
    ``sync1`` the start); every frame seat 0 received."""
    seen = drain(ws0)  # the start
    sockets = (ws0, ws1)
    last = [latest(seen), sync1]
    while last[0]["status"] != "over":
        mover = last[0]["to_act"][0]
        frame = last[mover]
        sockets[mover].send_json(
            {"type": "act", "number": frame["number"], "action": frame["legal"]["actions"][0]["notation"]}
        )
        number = frame["number"] + 1
        got = [wait_for(ws, lambda m, n=number: m["type"] == "update" and m["number"] == n) for ws in sockets]
        seen.extend(got[0])
        last = [latest(got[0]), latest(got[1])]
    return seen


def two_people(client: TestClient) -> tuple[str, list[str]]:
    created = create(client, game="derived-toy", seats=humans(2))
    return created["table"]["id"], [i["token"] for i in created["invites"]]


def test_derived_views_are_worked_out_off_the_event_loop(make_client: Callable[..., TestClient]) -> None:
    """Every sync and update carries the derived views, and no derivation ran on the event loop's thread
    (without worker processes, on a thread of their own)."""
    client = make_client()
    table_id, tokens = two_people(client)
    with client.websocket_connect(ws_url(table_id)) as ws0, client.websocket_connect(ws_url(table_id)) as ws1:
        _, sync0 = hello(ws0, tokens[0])
        _, sync1 = hello(ws1, tokens[1])
        assert derived(sync0) and derived(sync1)
        seen = play_out(ws0, ws1, sync1)
        assert derived(next(m for m in seen if m["type"] == "sync"))  # the start, shown to seat 0
        updates = [m for m in seen if m["type"] == "update"]
        assert updates and all(derived(m) for m in updates)
        ws0.send_json({"type": "sync", "last": 0})  # asked again: the derived view, not derived again
        again = wait_for(ws0, lambda m: m["type"] == "sync")
        assert derived(latest(again))
    assert DerivedToy.threads
    assert all(name.startswith("coven-derive") for name in DerivedToy.threads), set(DerivedToy.threads)
    assert threading.main_thread().name not in DerivedToy.threads


@pytest.mark.parametrize("how", ["fail", 0.5])
def test_a_derivation_that_fails_or_runs_late_leaves_the_views_bare(
    make_client: Callable[..., TestClient],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    how: str | float,
) -> None:
    caplog.set_level(logging.WARNING, logger="coven.server")
    monkeypatch.setattr(botpool, "DERIVE_BUDGET", 0.1)
    DerivedToy.how = how
    client = make_client()
    table_id, tokens = two_people(client)
    with client.websocket_connect(ws_url(table_id)) as ws0, client.websocket_connect(ws_url(table_id)) as ws1:
        _, sync0 = hello(ws0, tokens[0])
        _, sync1 = hello(ws1, tokens[1])
        assert not derived(sync0)
        seen = play_out(ws0, ws1, sync1)
    assert latest(seen)["status"] == "over"  # the game went on, its views bare
    assert not any(derived(m) for m in seen if m["type"] in {"sync", "update"})
    said = " ".join(r.getMessage() for r in caplog.records)
    assert ("could not be derived" in said) if how == "fail" else ("ran past" in said)


def test_the_amulets_assistant_is_deduced_in_a_worker_process(make_client: Callable[..., TestClient]) -> None:
    """At a table with the assistant, the people's frames carry its conclusions, and the server's own
    process deduced nothing (its memo of conclusions stays empty): the bot worker did."""
    from coven.games.amulets import view as amulets_view

    amulets_view._CONCLUDED.clear()
    client = make_client(games=None, bot_processes=1)
    created = create(
        client,
        game="amulets",
        players=3,
        seats=[
            {"kind": "human", "name": "Ana"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ],
        options={"assistant": True},
    )
    table_id, token = created["table"]["id"], created["invites"][0]["token"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws, token)
        assert sync["view"]["assistant"] is not None and sync["view"]["assistant"]["worlds"] > 0
        seen = [sync]
        while latest(seen)["status"] != "over" and sum(m["type"] == "update" for m in seen) < 4:
            frame = latest(seen)
            if frame["legal"] is not None and 0 in frame["to_act"]:
                ws.send_json(
                    {
                        "type": "act",
                        "number": frame["number"],
                        "action": frame["legal"]["actions"][0]["notation"],
                    }
                )
            seen.extend(wait_for(ws, lambda m: m["type"] == "update", seconds=60))
    updates = [m for m in seen if m["type"] == "update"]
    assert updates and all(m["view"]["assistant"] is not None for m in updates)
    assert len(amulets_view._CONCLUDED) == 0
    workers = client.app.state.service.bot_pool.worker_pids()  # type: ignore[attr-defined]
    assert workers


def finished_table(client: TestClient) -> str:
    """A table of the derived toy, played to its end by two people."""
    table_id, tokens = two_people(client)
    with client.websocket_connect(ws_url(table_id)) as ws0, client.websocket_connect(ws_url(table_id)) as ws1:
        hello(ws0, tokens[0])
        _, sync1 = hello(ws1, tokens[1])
        play_out(ws0, ws1, sync1)
    return table_id


def test_a_replay_s_views_are_derived_by_the_deriver_too(make_client: Callable[..., TestClient]) -> None:
    """A finished table's replay (made in a thread beside the loop) has its views derived where the live
    table's are: by the pool's deriver (a thread of its own here), not in the replay's thread."""
    client = make_client()
    table_id = finished_table(client)
    DerivedToy.threads = []
    replay = client.get(f"/api/tables/{table_id}/replay?seat=0")
    assert replay.status_code == 200, replay.text
    steps = replay.json()["steps"]
    assert len(steps) > 2 and all(derived(step) for step in steps)
    assert len(DerivedToy.threads) == len(steps)  # each step's view derived once
    assert all(name.startswith("coven-derive") for name in DerivedToy.threads), set(DerivedToy.threads)


def test_a_replay_whose_views_cannot_be_derived_shows_them_bare(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="coven.server")
    client = make_client()
    table_id = finished_table(client)
    DerivedToy.how = "fail"
    replay = client.get(f"/api/tables/{table_id}/replay?seat=1")
    assert replay.status_code == 200, replay.text
    assert not any(derived(step) for step in replay.json()["steps"])
    assert "could not be derived" in " ".join(r.getMessage() for r in caplog.records)


def test_a_derivation_never_waits_behind_a_bot_s_decision() -> None:
    """A bot worker held up (stopped here, as a long search holds it) does not hold up the views a person
    waits for: they go to a worker of their own, which runs at the server's priority, not the bots'."""
    import asyncio
    import os
    import signal

    from coven.bots.arena import make_bot
    from coven.games import get_game
    from coven.server.botpool import BotPool

    brujas, amulets = get_game("brujas"), get_game("amulets")
    state = brujas.new_game(3, None, 5)
    seat = brujas.first_to_act(state)
    assert seat is not None
    view, legal = brujas.view(state, seat), brujas.legal_actions(state, seat)
    bot, where = make_bot(brujas, "random", seat, 1), ("brujas", "t1", seat, "random", 1)
    deduced = amulets.new_game(3, {"assistant": True}, 2)
    bare = amulets.bare_views(deduced, (0, 1, None))

    async def run() -> None:
        pool = BotPool(1, 1, budget=30.0)
        assert await pool.decide(bot, where, view, legal, True) in list(legal)  # the bot worker runs
        [worker] = pool.worker_pids()
        os.kill(worker, signal.SIGSTOP)
        thinking = asyncio.create_task(pool.decide(bot, where, view, legal, True))
        try:
            await asyncio.sleep(0.1)
            derived = await asyncio.wait_for(pool.derive(amulets, "t2", bare), 30)
            assert derived == amulets.views(deduced, (0, 1, None))
            assert not thinking.done()  # the bot is still held up
            deriver = pool.deriver_pid()
            assert deriver is not None and deriver not in pool.worker_pids()
            if hasattr(os, "SCHED_IDLE"):
                assert os.sched_getscheduler(deriver) != os.SCHED_IDLE
                assert os.sched_getscheduler(worker) == os.SCHED_IDLE
        finally:
            os.kill(worker, signal.SIGCONT)
            thinking.cancel()
            await pool.close()
        assert pool.deriver_pid() is None

    asyncio.run(run())
