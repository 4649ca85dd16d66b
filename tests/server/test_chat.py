"""Chat at the table: seated players talk, spectators read; lines are bounded, cleaned, stored with the
table and shown in the replay."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from coven.server.tables import SeatRequest
from coven.store import ChatLine
from tests.server.conftest import TestClient, WebSocketTestSession
from tests.server.helpers import create, drain, hello, humans, running_service, wait_for, ws_url


def chats(messages: list[dict[str, object]]) -> list[object]:
    return [m["line"] for m in messages if m["type"] == "chat"]


@contextlib.contextmanager
def two_people_and_a_spectator(
    client: TestClient,
) -> Iterator[tuple[str, WebSocketTestSession, WebSocketTestSession, WebSocketTestSession]]:
    """A new table of two people, each seated on a socket, and a spectator's socket: its id and the three,
    each past its hello."""
    created = create(client, seats=humans(2))
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with (
        client.websocket_connect(ws_url(table_id)) as a,
        client.websocket_connect(ws_url(table_id)) as b,
        client.websocket_connect(ws_url(table_id)) as watcher,
    ):
        hello(a, tokens[0])
        hello(b, tokens[1])
        hello(watcher)
        yield table_id, a, b, watcher


def test_players_talk_and_spectators_read(client: TestClient) -> None:
    with two_people_and_a_spectator(client) as (table_id, a, b, watcher):
        a.send_json({"type": "chat", "text": "  hello\\n<b>there</b>\x07 "})
        said = {"id": 1, "seat": 0, "number": 0, "text": "hello\\n<b>there</b>"}
        for ws in (a, b, watcher):
            assert said in chats(wait_for(ws, lambda m: m["type"] == "chat"))
        watcher.send_json({"type": "chat", "text": "I am only watching"})
        assert [m["code"] for m in drain(watcher) if m["type"] == "error"] == ["spectator"]
        b.send_json({"type": "chat", "text": "x" * 501})
        b.send_json({"type": "chat", "text": " \x00 "})
        b.send_json({"type": "chat", "text": "\u3164\u200b\u2800"})  # printable, but nothing shows
        assert [m["code"] for m in drain(b) if m["type"] == "error"] == ["bad_message"] * 3
        assert chats(drain(a)) == []  # nothing refused reached anyone
    with client.websocket_connect(ws_url(table_id)) as late:  # a newcomer gets what was said
        late.send_json({"type": "hello", "token": None, "last": None})
        log = [late.receive_json() for _ in range(3)][2]
        assert log == {"type": "chat_log", "lines": [said]}


def test_chat_is_kept_with_the_table_and_shown_in_the_replay(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=3)
    table_id = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        _, sync = hello(ws, created["invites"][0]["token"])
        ws.send_json({"type": "chat", "text": "good luck"})
        wait_for(ws, lambda m: m["type"] == "chat")
        while sync["status"] != "over":
            if sync["legal"] and sync["legal"]["required"]:
                ws.send_json(
                    {
                        "type": "act",
                        "number": sync["number"],
                        "action": sync["legal"]["actions"][0]["notation"],
                    }
                )
            sync = [
                m
                for m in wait_for(ws, lambda m: m["type"] in {"update", "sync"})
                if m["type"] in {"update", "sync"}
            ][-1]
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert replay["chat"] == [{"id": 1, "seat": 0, "number": 0, "text": "good luck"}]


def test_the_chat_log_is_read_from_the_store_once_and_kept_up_to_date(tmp_path: Path) -> None:
    """Every hello shows the chat: a table keeps its lines rather than reading the store each time, and
    what the bus says of another process's line (or a reconnected bus) sends the next reader back to it."""

    async def run() -> None:
        async with running_service(tmp_path / "c.sqlite3") as service:
            reads: list[str] = []
            read = service.store.chat

            def counted(table_id: str, limit: int = 200) -> list[ChatLine]:
                reads.append(table_id)
                return read(table_id, limit)

            service.store.chat = counted  # type: ignore[method-assign]
            table, _ = await service.create("brujas", 3, {}, [SeatRequest("human")] * 3)
            assert await service.chat_log(table) == [] and reads == []  # a new table: nothing said
            await service.say(table, 1, "hi")
            await service.say(table, 2, "hello")
            expected = [ChatLine(1, 1, 0, "hi"), ChatLine(2, 2, 0, "hello")]
            assert await service.chat_log(table) == expected and reads == []
            assert service.store.chat(table.id) == expected  # the store says the same
            reads.clear()

            # another process said something: its notice makes the next hello read the store, once
            other = service.store.add_chat(table.id, 0, 0, "from elsewhere")
            await service._on_bus({"kind": "chat", "table": table.id, "line": other.to_json(), "origin": "x"})
            assert await service.chat_log(table) == [*expected, other] and reads == [table.id]
            assert await service.chat_log(table) == [*expected, other] and reads == [table.id]

            # a reconnected bus may have lost notices: read again
            late = service.store.add_chat(table.id, 0, 0, "unheard")
            await service._resync_all()
            assert (await service.chat_log(table))[-1] == late and reads == [table.id] * 2

            # a table loaded from the store (another process made it, or this one restarted) reads it
            service.tables.pop(table.id)
            loaded = await service.get(table.id)
            assert loaded is not None and (await service.chat_log(loaded))[-1] == late
            assert reads == [table.id] * 3

    asyncio.run(run())


def test_a_line_said_while_the_log_is_read_is_not_lost(tmp_path: Path) -> None:
    async def run() -> None:
        async with running_service(tmp_path / "r.sqlite3") as service:
            table, _ = await service.create("brujas", 3, {}, [SeatRequest("human")] * 3)
            table.chat = None  # as if loaded from the store
            read = service.store.chat
            said = asyncio.Event()

            def slow_read(table_id: str, limit: int = 200) -> list[ChatLine]:
                lines = read(table_id, limit)  # read before the line below is said
                asyncio.run_coroutine_threadsafe(wait(said), loop).result()
                return lines

            async def wait(event: asyncio.Event) -> None:
                await event.wait()

            loop = asyncio.get_running_loop()
            service.store.chat = slow_read  # type: ignore[method-assign]
            reading = asyncio.create_task(service.chat_log(table))
            await asyncio.sleep(0.05)
            await service.say(table, 0, "during the read")
            said.set()
            assert await reading == []  # the read began before the line
            service.store.chat = read  # type: ignore[method-assign]
            assert [line.text for line in await service.chat_log(table)] == ["during the read"]

    asyncio.run(run())


def test_a_player_saying_lines_in_a_loop_is_refused_and_nothing_is_kept(
    make_client: Callable[..., TestClient],
) -> None:
    """Each line is a write to the store: past ``chat_burst`` lines at once (then ``chat_limit`` a second)
    a line is refused with rate_limited, reaches nobody and is not kept; the other seat's lines are its
    own."""
    client = make_client(chat_limit=0.1, chat_burst=2)
    created = create(client, seats=humans(2))
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with client.websocket_connect(ws_url(table_id)) as a, client.websocket_connect(ws_url(table_id)) as b:
        hello(a, tokens[0])
        hello(b, tokens[1])
        for n in range(4):
            a.send_json({"type": "chat", "text": f"line {n}"})
        seen = drain(a)
        assert [line["text"] for line in chats(seen)] == ["line 0", "line 1"]  # type: ignore[index]
        refused = [m for m in seen if m["type"] == "error"]
        assert [m["code"] for m in refused] == ["rate_limited"] * 2
        b.send_json({"type": "chat", "text": "mine"})
        assert "mine" in [line["text"] for line in chats(wait_for(b, lambda m: m["type"] == "chat"))]  # type: ignore[index]
    stored = client.app.state.service.store.chat(table_id)  # type: ignore[attr-defined]
    assert [line.text for line in stored] == ["line 0", "line 1", "mine"]


def test_the_chat_limit_is_the_seats_whatever_its_sockets(make_client: Callable[..., TestClient]) -> None:
    """A seat's sockets share one bucket: three sockets with the same token together say ``chat_burst``
    lines, then each is refused (rate_limited) and nothing more is kept; the other seat says its own."""
    client = make_client(chat_limit=0.01, chat_burst=3)
    created = create(client, seats=humans(2))
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with (
        client.websocket_connect(ws_url(table_id)) as a1,
        client.websocket_connect(ws_url(table_id)) as a2,
        client.websocket_connect(ws_url(table_id)) as a3,
        client.websocket_connect(ws_url(table_id)) as b,
    ):
        sockets = [a1, a2, a3]
        for ws in sockets:
            hello(ws, tokens[0])
        hello(b, tokens[1])
        refused: list[tuple[int, int, object]] = []
        for n in range(2):
            for k, ws in enumerate(sockets):
                ws.send_json({"type": "chat", "text": f"line {n}.{k}"})
                refused += [(n, k, m["code"]) for m in drain(ws) if m["type"] == "error"]
        # 6 lines from one seat: the burst (3) said, the next 3 refused, whichever socket says them
        assert refused == [(1, 0, "rate_limited"), (1, 1, "rate_limited"), (1, 2, "rate_limited")]
        b.send_json({"type": "chat", "text": "mine"})
        assert [m for m in drain(b) if m["type"] == "error"] == []
    stored = client.app.state.service.store.chat(table_id)  # type: ignore[attr-defined]
    assert [(line.seat, line.text) for line in stored] == [
        (0, "line 0.0"),
        (0, "line 0.1"),
        (0, "line 0.2"),
        (1, "mine"),
    ]


def test_a_tables_chat_buckets_leave_memory_with_the_table(tmp_path: Path) -> None:
    """The seats' buckets are kept per table in memory: a table that rests, or ends and is let go, takes
    its buckets along (a table back in memory starts with full ones)."""

    async def run() -> None:
        async with running_service(tmp_path / "b.sqlite3", rest_seconds=0.01, chat_burst=1) as service:
            resting, _ = await service.create("brujas", 3, {}, [SeatRequest("human")] * 3)
            over, _ = await service.create("brujas", 3, {}, [SeatRequest("human")] * 3)
            assert service.chat_limits.allow(resting.id, 0) and not service.chat_limits.allow(resting.id, 0)
            assert service.chat_limits.allow(over.id, 2)
            assert len(service.chat_limits) == 2
            over.status = "over"
            service._evict_finished()
            assert over.id not in service.tables and len(service.chat_limits) == 1
            await asyncio.sleep(0.05)
            await service._rest_idle()
            assert resting.id not in service.tables and len(service.chat_limits) == 0
            back = await service.get(resting.id)
            assert back is not None and service.chat_limits.allow(back.id, 0)

    asyncio.run(run())


def test_a_line_said_is_acknowledged_to_its_sender_with_its_id(client: TestClient) -> None:
    """The ``chat`` that shows the line to the connection that said it carries the chat's ``id`` (one frame:
    the line is kept, and this is its acknowledgement); everyone else, the seat's other sockets included,
    gets the plain line."""
    created = create(client, seats=humans(2))
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    with (
        client.websocket_connect(ws_url(table_id)) as a,
        client.websocket_connect(ws_url(table_id)) as a_again,
        client.websocket_connect(ws_url(table_id)) as b,
        client.websocket_connect(ws_url(table_id)) as watcher,
    ):
        hello(a, tokens[0])
        hello(a_again, tokens[0])
        hello(b, tokens[1])
        hello(watcher)
        for ws in (a, a_again, b, watcher):
            drain(ws)  # the table's start
        a.send_json({"type": "chat", "text": " good   luck ", "id": "c1"})
        line = {"id": 1, "seat": 0, "number": 0, "text": "good luck"}
        assert drain(a) == [{"type": "chat", "id": "c1", "line": line}]
        for ws in (a_again, b, watcher):
            assert drain(ws) == [{"type": "chat", "line": line}]
        b.send_json({"type": "chat", "text": "thanks", "id": -(2**53 - 1)})  # any id an act may carry
        assert drain(b) == [
            {"type": "chat", "id": -(2**53 - 1), "line": {**line, "id": 2, "seat": 1, "text": "thanks"}}
        ]
        b.send_json({"type": "chat", "text": "no id"})  # still its own line: "id" null says so
        assert [m.get("id", "absent") for m in drain(b)] == [None]
        assert [m.get("id", "absent") for m in drain(a)] == ["absent"] * 2


def test_every_refusal_of_a_line_carries_its_id(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator's line, a line of nothing visible, one too long, one past the seat's limit, one the store
    could not keep: each gets its ``error`` with the chat's ``id`` (the page knows which line it was), and
    nothing is said. The connection stays open."""
    client = make_client(chat_limit=0.01, chat_burst=2)  # (a line the store failed to keep is not counted)
    with two_people_and_a_spectator(client) as (table_id, a, b, watcher):
        for ws in (a, b, watcher):
            drain(ws)  # the table's start
        watcher.send_json({"type": "chat", "text": "I am only watching", "id": "w1"})
        a.send_json({"type": "chat", "text": "\u200b \u3164", "id": "c1"})
        a.send_json({"type": "chat", "text": "x" * 501, "id": "c2"})
        a.send_json({"type": "chat", "text": "", "id": 3})
        refused = [(m["code"], m["id"]) for m in drain(watcher) + drain(a)]
        assert refused == [
            ("spectator", "w1"),
            ("bad_message", "c1"),
            ("bad_message", "c2"),
            ("bad_message", 3),
        ]

        store = client.app.state.service.store  # type: ignore[attr-defined]

        def failing(*args: object) -> None:
            raise OSError("the disk is away")

        monkeypatch.setattr(store, "add_chat", failing)
        a.send_json({"type": "chat", "text": "lost", "id": "c4"})
        [error] = drain(a)
        assert (error["type"], error["code"], error["id"]) == ("error", "internal", "c4"), error
        assert "disk" not in error["message"]  # the store's own words stay in the server's log
        monkeypatch.undo()
        a.send_json({"type": "chat", "text": "hello", "id": "c5"})  # the connection is still open
        assert [(m["type"], m["id"]) for m in drain(a)] == [("chat", "c5")]
        a.send_json({"type": "chat", "text": "hello again", "id": "c6"})
        assert [(m["type"], m["id"]) for m in drain(a)] == [("chat", "c6")]
        a.send_json({"type": "chat", "text": "and again", "id": "c7"})  # past the seat's burst
        [error] = drain(a)
        assert (error["code"], error["id"], error["number"]) == ("rate_limited", "c7", 0), error
        assert [line["text"] for line in chats(drain(b))] == ["hello", "hello again"]  # type: ignore[index]
    stored = client.app.state.service.store.chat(table_id)  # type: ignore[attr-defined]
    assert [line.text for line in stored] == ["hello", "hello again"]


def test_a_line_refused_past_the_sockets_rate_carries_its_id(make_client: Callable[..., TestClient]) -> None:
    """A frame past the connection's own message rate is refused before it is parsed; a chat line (or an
    act) refused so still gets its ``id`` back, so that the page knows which line was not said (and does
    not wait for an acknowledgement that cannot come). A frame without a readable id gets none."""
    client = make_client(rate_limit=0.01, rate_burst=3, rate_strikes=10)
    with two_people_and_a_spectator(client) as (_table_id, a, _b, _watcher):
        a.send_json({"type": "chat", "text": "one", "id": "c1"})  # (the hello took the first token)
        a.send_json({"type": "chat", "text": "two", "id": "c2"})
        a.send_json({"type": "chat", "text": "three", "id": 3})
        a.send_json({"type": "act", "number": 0, "action": "x", "id": "a4"})
        a.send_json({"type": "chat", "text": "five", "id": True})  # (not a valid id: none echoed)
        a.send_text("not JSON")
        answers: list[tuple[object, object, object]] = []
        while len(answers) < 6:  # (drain's ping would be refused too: the answers are read one by one)
            m = a.receive_json()
            if m["type"] in {"chat", "error"}:
                answers.append((m["type"], m.get("code"), m.get("id")))
        assert answers == [
            ("chat", None, "c1"),
            ("chat", None, "c2"),
            ("error", "rate_limited", 3),
            ("error", "rate_limited", "a4"),
            ("error", "rate_limited", None),
            ("error", "rate_limited", None),
        ]


def test_a_line_the_store_failed_to_keep_does_not_count_against_the_seat(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat's chat limit counts what was said: a line the store could not keep (refused ``internal``)
    gives its token back, and the seat still says as many lines as its burst allows."""
    client = make_client(chat_limit=0.01, chat_burst=2)
    with two_people_and_a_spectator(client) as (table_id, a, b, _watcher):
        drain(a)
        drain(b)
        store = client.app.state.service.store  # type: ignore[attr-defined]

        def failing(*args: object) -> None:
            raise OSError("the disk is away")

        monkeypatch.setattr(store, "add_chat", failing)
        for n in range(3):  # more failures than the burst: none is counted
            a.send_json({"type": "chat", "text": f"lost {n}", "id": f"f{n}"})
            assert [(m["code"], m["id"]) for m in drain(a)] == [("internal", f"f{n}")]
        monkeypatch.undo()
        for n in range(3):
            a.send_json({"type": "chat", "text": f"said {n}", "id": f"s{n}"})
        answers = [(m["type"], m.get("code"), m["id"]) for m in drain(a)]
        assert answers == [("chat", None, "s0"), ("chat", None, "s1"), ("error", "rate_limited", "s2")]
    stored = client.app.state.service.store.chat(table_id)  # type: ignore[attr-defined]
    assert [line.text for line in stored] == ["said 0", "said 1"]


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("c" * 64, True),
        (0, True),
        (2**53 - 1, True),
        (None, True),
        ("c" * 65, False),
        (2**53, False),
        (True, False),
        (1.5, False),
        ([1], False),
        ({"id": 1}, False),
    ],
)
def test_a_chats_id_follows_the_rules_of_an_acts(client: TestClient, given: object, kept: bool) -> None:
    """A string of at most 64 characters or a JavaScript-safe whole number (or null); any other ``id`` is
    refused (``bad_message``, the line not said) and not echoed."""
    created = create(client, seats=humans(2))
    with client.websocket_connect(ws_url(created["table"]["id"])) as ws:
        hello(ws, created["invites"][0]["token"])
        drain(ws)
        ws.send_json({"type": "chat", "text": "hi", "id": given})
        [answer] = drain(ws)
        if kept:
            assert answer["type"] == "chat" and answer["id"] == given
        else:
            assert (answer["type"], answer["code"], answer["id"]) == ("error", "bad_message", None), answer
            assert answer["message"].startswith("id"), answer
