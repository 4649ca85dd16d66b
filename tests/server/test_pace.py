"""A table's pace: a person out of time is replaced by a bot until they come back; in The 3 Commandments a
novice out of time forfeits, as the rulebook says; a clock counts each person's time.

The tests move a table's clock instead of waiting: ``Table.changed_at`` (when the move began) is set back
past the limit and the table's driver woken, exactly as the passing of time would."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from coven.games import REGISTRY
from coven.server.table import LAST_SECONDS
from tests.server.conftest import TestClient
from tests.server.helpers import create, drain, hello, humans, latest, wait_for, ws_url


def live(client: TestClient, table_id: str) -> Any:
    return client.app.state.service.tables[table_id]  # type: ignore[attr-defined]


def time_passes(client: TestClient, table: Any, seconds: float) -> None:
    """``seconds`` pass for the move under way (in the server's own event loop thread)."""

    def rewind() -> None:
        table.changed_at -= seconds
        table.wake.set()

    client.portal.call(rewind)  # type: ignore[union-attr]


@contextlib.contextmanager
def seated(client: TestClient, created: dict[str, Any]) -> Iterator[tuple[Any, Any, dict[str, Any]]]:
    """The two people of a table just ``created`` on their sockets, each past its hello (the second's
    starts the table): the two sockets and the sync the second was sent."""
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with client.websocket_connect(ws_url(table_id)) as a, client.websocket_connect(ws_url(table_id)) as b:
        hello(a, tokens[0])
        _, started = hello(b, tokens[1])
        yield a, b, started


def test_a_person_out_of_time_is_replaced_by_a_bot_until_they_come_back(client: TestClient) -> None:
    created = create(client, seats=humans(2), pace="move", pace_seconds=60)
    table_id = created["table"]["id"]
    assert (created["table"]["pace"], created["table"]["pace_seconds"]) == ("move", 60)
    tokens = [i["token"] for i in created["invites"]]
    with seated(client, created) as (a, b, sync):
        assert sync["pace"]["limits"] == {str(s): 60.0 for s in sync["to_act"]}
        mover = sync["to_act"][0]
        watcher, mover_ws = (b, a) if mover == 0 else (a, b)
        time_passes(client, live(client, table_id), 61)
        seen = wait_for(watcher, lambda m: m["type"] == "update")
        assert latest(seen)["actor"] == mover  # the bot played the absent person's move
        tables = [m for m in seen if m["type"] == "table"]
        assert tables and tables[-1]["seats"][mover]["stand_in"] is True
        assert client.get(f"/api/tables/{table_id}").json()["seats"][mover]["stand_in"] is True
        # the person comes back (a new connection, as after closing the page) and has the seat again
        mover_ws.close()
    with client.websocket_connect(ws_url(table_id)) as back:
        welcome, _ = hello(back, tokens[mover])
        assert welcome["seats"][mover]["stand_in"] is False
        assert client.get(f"/api/tables/{table_id}").json()["seats"][mover]["stand_in"] is False
    assert mover not in live(client, table_id).bots


def test_a_commandments_novice_out_of_time_forfeits(make_client: Callable[..., TestClient]) -> None:
    client = make_client(games=REGISTRY)
    created = create(client, game="commandments", players=3, seats=humans(3), pace="move", pace_seconds=30)
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    table = live(client, table_id)
    with client.websocket_connect(ws_url(table_id)) as ws:
        for token in tokens:
            hello(ws, token) if token == tokens[0] else None
        others = [client.websocket_connect(ws_url(table_id)) for _ in tokens[1:]]
        for other, token in zip(others, tokens[1:], strict=True):
            other.__enter__()
            hello(other, token)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not any(s.action == "forfeit" for s in table.steps):
                time_passes(
                    client, table, 31
                )  # the priestess's bot ordains and places; then a novice forfeits
                drain(ws)
                time.sleep(0.05)
        finally:
            for other in others:
                other.__exit__(None, None, None)
    forfeits = [s for s in table.steps if s.action == "forfeit"]
    assert forfeits, [s.action for s in table.steps]
    novice = forfeits[0].actor
    assert table.seats[novice].stand_in is False  # the rules answered: no bot took her seat


def test_a_clock_counts_each_persons_time(client: TestClient) -> None:
    created = create(client, seats=humans(2), pace="clock")
    table_id = created["table"]["id"]
    assert created["table"]["pace_seconds"] == 600
    with seated(client, created) as (a, b, started):  # the last seat: the table starts
        mover = started["to_act"][0]
        if mover == 1:
            legal, mine, other = started["legal"], b, a
        else:
            legal, mine, other = [m for m in drain(a) if m["type"] == "sync"][-1]["legal"], a, b
        time.sleep(0.3)  # the mover thinks
        mine.send_json({"type": "act", "number": 0, "action": legal["actions"][0]["notation"]})
        update = latest(wait_for(other, lambda m: m["type"] == "update"))
    bank = live(client, table_id).banks[mover]
    assert 0 < bank <= 600 - 0.3
    assert update["pace"]["banks"] == {str(mover): round(bank, 1)}


def test_a_pace_is_checked(client: TestClient) -> None:
    for body in (
        {"pace": "fast"},
        {"pace": "move", "pace_seconds": 1},
        {"pace": "clock", "pace_seconds": 10**6},
    ):
        response = client.post("/api/tables", json={"game": "toy", "players": 2, **body})
        assert response.status_code == 422, body


def test_seconds_without_a_pace_are_refused_not_dropped(client: TestClient) -> None:
    """Seconds with no pace to count them were taken and stored as 0: the creator believed the table had
    a limit it did not have."""
    for body in ({"pace_seconds": 30}, {"pace": "none", "pace_seconds": 30}):
        response = client.post("/api/tables", json={"game": "toy", "players": 2, **body})
        assert response.status_code == 422, body
        error = response.json()["error"]
        assert error["code"] == "bad_request"
        assert error["message"].startswith("pace_seconds: seconds need a pace"), error
    assert client.post("/api/tables", json={"game": "toy", "players": 2, "pace": "none"}).status_code == 201


def test_bots_act_by_choice_only_after_people_had_a_look(make_client: Callable[..., TestClient]) -> None:
    """The knocker bot knocks (an optional act) at its first chance, but not before the person at the
    table had ``bot_look_seconds`` to read the last move."""
    client = make_client(bot_look_seconds=3600)
    created = create(client, game="knock-toy", seats=[{"kind": "human"}, {"kind": "bot", "bot": "knocker"}])
    table_id = created["table"]["id"]
    table = live(client, table_id)
    with client.websocket_connect(ws_url(table_id)) as ws:
        hello(ws, created["invites"][0]["token"])
        time.sleep(0.3)
        assert not [s for s in table.steps if s.action == "knock"]  # an hour to look: no knock yet
        time_passes(client, table, 3601)
        knocked = wait_for(ws, lambda m: m["type"] == "update" and m["events"][0]["kind"] == "knock")
    assert latest(knocked)["actor"] == 1


def test_a_priestess_who_does_not_judge_in_time_is_stood_in_for(
    make_client: Callable[..., TestClient],
) -> None:
    """The 3 Commandments with a judging priestess and no pace at all: her judging still has a limit
    (``decision_seconds``); past it a bot judges for her by the engine's reading."""
    client = make_client(games=REGISTRY)
    created = create(client, game="commandments", players=3, seats=humans(3), options={"judge": "priestess"})
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    table = live(client, table_id)
    sockets = [client.websocket_connect(ws_url(table_id)) for _ in tokens]
    try:
        last: dict[int, Any] = {}
        for seat, (ws, token) in enumerate(zip(sockets, tokens, strict=True)):
            ws.__enter__()
            last[seat] = hello(ws, token)[1]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for seat, ws in enumerate(sockets):
                views = [m for m in drain(ws) if m["type"] in {"sync", "update"}]
                if views:
                    last[seat] = views[-1]
            judging = [
                s
                for s, m in last.items()
                if m["legal"] and m["legal"]["actions"][0]["notation"].startswith("judge")
            ]
            if judging:
                break
            for seat, m in last.items():
                if m["legal"] and m["legal"]["required"] and m["number"] == table.number:
                    moves = [a["notation"] for a in m["legal"]["actions"] if a["notation"] != "forfeit"]
                    sockets[seat].send_json({"type": "act", "number": m["number"], "action": moves[0]})
            time.sleep(0.02)
        assert judging, "the table never reached a judging"
        priestess = judging[0]
        assert last[priestess]["pace"]["limits"] == {str(priestess): 120.0}
        time_passes(client, table, 121)
        eventually = time.monotonic() + 30
        while time.monotonic() < eventually and not any(s.action.startswith("judge") for s in table.steps):
            time.sleep(0.05)
        judged = [s for s in table.steps if s.action.startswith("judge")]
        assert judged and judged[0].actor == priestess
        assert table.seats[priestess].stand_in is True
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_the_pace_counts_down_only_for_people_who_play_their_own_seat(client: TestClient) -> None:
    """``pace.limits`` names the seats whose time runs: a bot's seat, or a person's a bot stands in for,
    has none (the server holds no bot to a pace, so a countdown there promised a deadline that never
    comes, and every page counted one down to 0 for it)."""
    created = create(client, players=3, seats=[*humans(2), {"kind": "bot", "bot": "random"}], pace="move")
    table_id = created["table"]["id"]
    table = live(client, table_id)
    with seated(client, created) as (a, b, first):
        seen = [first]
        # the first person to act lets their time run out: a bot stands in and plays for them
        absent = first["to_act"][0]
        present, present_ws = (1, b) if absent == 0 else (0, a)
        time_passes(client, table, 121)
        while not any(m["type"] == "table" and m["seats"][absent]["stand_in"] for m in seen):
            seen += wait_for(present_ws, lambda m: m["type"] == "table")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and table.status == "playing":
            now = latest(seen) if any(m["type"] in {"sync", "update"} for m in seen) else first
            if present in now["to_act"] and now["number"] == table.number:
                notation = now["legal"]["actions"][0]["notation"]
                present_ws.send_json({"type": "act", "number": now["number"], "action": notation})
            seen += wait_for(present_ws, lambda m: m["type"] in {"update", "sync"}, seconds=10)
            shown = [m for m in seen if m["type"] in {"update", "sync"}]
            if {absent, 2} <= {s for m in shown for s in m["to_act"]} and len(shown) > 6:
                break
    shown = [m for m in seen if m["type"] in {"update", "sync"} and m["number"] > first["number"]]
    assert any(2 in m["to_act"] for m in shown) and any(absent in m["to_act"] for m in shown)
    for m in shown:
        assert set(m["pace"]["limits"]) == {str(s) for s in m["to_act"] if s == present}, m


def _table_frame(ws: Any) -> dict[str, Any]:
    """The next ``table`` frame ``ws`` is sent (what comes before it is passed over)."""
    return next(m for m in wait_for(ws, lambda m: m["type"] == "table") if m["type"] == "table")


@contextlib.contextmanager
def stood_in_for(client: TestClient) -> Iterator[tuple[Any, int, str, Any, dict[str, Any], dict[str, Any]]]:
    """Two people at a table of 60 s a move; the time of the one the game waits for (Ana) runs out, and a
    bot stands in for her. Yields the table, Ana's seat and token, the other person's socket, the sync
    that started the table and the ``table`` frame the other was sent when the bot took Ana's seat."""
    created = create(client, seats=humans(2), pace="move", pace_seconds=60)
    table = live(client, created["table"]["id"])
    tokens = [i["token"] for i in created["invites"]]
    with seated(client, created) as (a, b, started):
        ana = started["to_act"][0]
        other = b if ana == 0 else a
        time_passes(client, table, 61)
        taken = _table_frame(other)
        assert taken["seats"][ana]["stand_in"] is True
        yield table, ana, tokens[ana], other, started, taken


def test_every_page_hears_whose_time_runs_when_a_bot_takes_a_seat_or_gives_it_back(
    make_client: Callable[..., TestClient],
) -> None:
    """A bot standing in for a person, or stepping aside, changes whose time runs (``pace.limits`` names
    only the people who play their own seat). The ``table`` frame that says so carried the seats alone, so
    every other page (the opponents', the spectators') counted the move's old limits down until the next
    move: 'Waiting for Ana (0 s left)' while a bot played her seat, and no countdown once she had it back
    although her time ran again. The frame now carries the pace as it is now, and how long ago the move
    began. (A server whose bots pause: the bot has not played Ana's move yet when she takes it back.)"""
    client = make_client(bot_pause=3600)
    with stood_in_for(client) as (table, ana, token, other, started, taken):
        assert taken["pace"]["limits"] == {}  # a bot plays her move: no time runs
        assert 61 <= taken["elapsed"] < 120
        with client.websocket_connect(ws_url(table.id)) as back:
            hello(back, token)  # Ana is back (her page's "Take my seat back" says hello again)
            given = _table_frame(other)
        assert given["seats"][ana]["stand_in"] is False
        # her time runs again: the last seconds, from her return (see the test after this one)
        assert given["pace"]["limits"].keys() == {str(ana)}
        assert given["pace"]["limits"][str(ana)] - given["elapsed"] == pytest.approx(LAST_SECONDS, abs=0.5)
        assert taken["elapsed"] <= given["elapsed"] < 120
        assert given["number"] == taken["number"] == started["number"]  # (the same move all along)


def test_a_person_back_during_the_move_their_time_ran_out_on_has_the_last_seconds_for_it(
    make_client: Callable[..., TestClient],
) -> None:
    """Back during the very move their time ran out on (the page's "Take my seat back"), a person had
    nothing left of it: once the bot's pause was over, the pace, already past, let the bot take the seat
    again, and the button held for half a second. They now have LAST_SECONDS for that move from their
    return; past them, the bot stands in again. (Bots pause 2 s: Ana is back before hers plays.)"""
    client = make_client(bot_pause=2.0)
    with stood_in_for(client) as (table, ana, token, other, started, _):
        with client.websocket_connect(ws_url(table.id)) as back:
            hello(back, token)
            assert _table_frame(other)["seats"][ana]["stand_in"] is False
            time.sleep(2.5)  # the bot's pause is over (it does not play: the seat is hers), the pace looked
            assert table.seats[ana].stand_in is False and table.number == started["number"]
            time_passes(client, table, LAST_SECONDS - 5)
            time.sleep(0.3)
            assert table.seats[ana].stand_in is False
            time_passes(client, table, 5)  # her last seconds are over: the bot stands in again
            again = _table_frame(other)
        assert again["seats"][ana]["stand_in"] is True
        assert again["number"] == started["number"]  # (still the same move)


def _move(client: TestClient, table_id: str, ws: Any, seconds: float) -> None:
    """The seat on ``ws`` (whose turn it is) thinks for ``seconds`` and plays its first listed action."""
    time_passes(client, live(client, table_id), seconds)
    ws.send_json({"type": "sync", "last": None})
    sync = latest(wait_for(ws, lambda m: m["type"] == "sync"))
    action = sync["legal"]["actions"][0]["notation"]
    ws.send_json({"type": "act", "number": sync["number"], "action": action, "id": "mine"})
    wait_for(ws, lambda m: m["type"] == "update" and m.get("ack", {}).get("id") == "mine")


def test_a_clock_survives_a_restart(make_client: Callable[..., TestClient]) -> None:
    # Each person's clock is kept with their steps: a server restarted (or a process adopting the table)
    # gives each the time they had left, not a full clock again (found by the players' pass: 39.7 s and
    # 40.0 s left read 60 s after a restart). Ana's time ran out meanwhile: a bot plays her seat, and
    # after the restart her clock is still empty.
    client = make_client()
    created = create(client, seats=humans(2), pace="clock", pace_seconds=600)
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with seated(client, created) as (a, b, started):
        sockets = {0: a, 1: b}
        first = started["to_act"][0]
        _move(client, table_id, sockets[first], 100)
        second = live(client, table_id).turn()[0][0]
        assert second != first  # (the seats take turns)
        _move(client, table_id, sockets[second], 40)
        banks = dict(live(client, table_id).banks)
        assert 499 < banks[first] <= 500 and 559 < banks[second] <= 560, banks
        # the first seat's time runs out: a bot plays for them
        table = live(client, table_id)
        time_passes(client, table, 601)
        wait_for(sockets[second], lambda m: m["type"] == "update" and m["actor"] == first)
        assert table.banks[first] == 0.0
    client.__exit__(None, None, None)  # the server stops

    again = make_client()  # ... and starts again on the same database
    with again.websocket_connect(ws_url(table_id)) as b:
        welcome, sync = hello(b, tokens[second])
        assert welcome["seats"][first]["stand_in"] is True
        assert sync["pace"]["banks"] == {str(first): 0.0, str(second): round(banks[second], 1)}
        assert live(again, table_id).banks == {first: 0.0, second: banks[second]}


def test_a_sync_in_the_middle_of_a_move_says_how_long_ago_it_began(client: TestClient) -> None:
    # The pace's limits count from when the move began. A page that syncs later (a reload, a return from
    # the lobby, a reconnection) counted the whole limit down again from its sync, while the server counts
    # from the move's start: it showed 60 s where 30 were left. A sync now says how long ago the move
    # began, the full one (made once per number and kept) as well as a catch-up.
    created = create(client, seats=humans(2), pace="move", pace_seconds=60)
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with seated(client, created) as (_, _, started):
        assert 0 <= started["elapsed"] < 30
        mover = started["to_act"][0]
        time_passes(client, live(client, table_id), 30)
    with client.websocket_connect(ws_url(table_id)) as back:
        _, sync = hello(back, tokens[mover])  # a full sync
        assert sync["full"] and sync["pace"]["limits"] == {str(mover): 60.0}
        assert 30 <= sync["elapsed"] < 60
        back.send_json({"type": "sync", "last": None})  # the same full sync, kept: the time is this answer's
        again = latest(wait_for(back, lambda m: m["type"] == "sync"))
        assert sync["elapsed"] <= again["elapsed"] < 60
        assert {k: v for k, v in again.items() if k != "elapsed"} == {
            k: v for k, v in sync.items() if k != "elapsed"
        }
        back.send_json({"type": "sync", "last": sync["number"]})  # a catch-up
        caught_up = latest(wait_for(back, lambda m: m["type"] == "sync"))
        assert not caught_up["full"] and 30 <= caught_up["elapsed"] < 60
