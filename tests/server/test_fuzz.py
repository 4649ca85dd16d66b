"""Fuzz the live socket in process: no frame breaks a connection, the server, or the log.

A few hundred random and mutated frames go to a table's socket (before ``hello``, as a seated player and
as a spectator). After each batch the connection has either answered typed errors (and whatever the
valid frames asked for) and still answers a ``ping``, or been closed with a documented close code. Then a
normal game is played to the end on the same server, and no log record carries a traceback.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from coven.server.messages import MAX_ERROR_TEXT, CloseCode, ErrorCode
from tests.server.conftest import TestClient, WebSocketTestSession
from tests.server.helpers import create, humans, ws_url

FRAME_LIMIT = 16_384
"""``Settings.max_frame_bytes`` of this test."""
BATCHES = 12
BATCH = 12

# every code a refused frame may get after hello (never ``internal``)
REFUSALS = {
    ErrorCode.BAD_JSON,
    ErrorCode.BAD_MESSAGE,
    ErrorCode.TOO_LARGE,
    ErrorCode.RATE_LIMITED,
    ErrorCode.ALREADY_JOINED,
    ErrorCode.BAD_TOKEN,
    ErrorCode.SPECTATOR,
    ErrorCode.NOT_STARTED,
    ErrorCode.GAME_OVER,
    ErrorCode.STALE,
    ErrorCode.NOT_YOUR_TURN,
    ErrorCode.BAD_NOTATION,
    ErrorCode.ILLEGAL_ACTION,
}
BEFORE_HELLO = {ErrorCode.BAD_JSON, ErrorCode.BAD_MESSAGE, ErrorCode.HELLO_REQUIRED}
CLOSES = {CloseCode.TOO_BIG, CloseCode.RATE_LIMITED}
ANSWERS = {"error", "pong", "ack", "update", "sync", "table"}
"""What a connection may receive during the fuzz: refusals, and the answers to frames that were valid."""

ODD_VALUES: list[Any] = [
    None,
    True,
    -1,
    0.5,
    "",
    "²",
    "١٢",
    "𝟙",
    "٣",
    "\ud800",
    "x" * 5_000,
    [],
    [1, [2, [3]]],
    {},
    {"type": "Play", "card": "²"},
    {"type": "Play", "card": [1]},
    {"type": "Play", "card": 10**30},
    {"type": "Play", "card": {"a": None}},
    {"type": "Nope"},
    2**53,
    -(2**63),
]
ODD_LITERALS = ["1e400", "-1e400", "9" * 10_000, "NaN", "Infinity", "[" * 3_000 + "]" * 3_000]
_marks = itertools.count()


def templates(number: int, token: str | None) -> list[dict[str, Any]]:
    return [
        {"type": "act", "number": number, "action": "1", "id": 1, "token": token},
        {"type": "act", "number": number, "action_json": {"type": "Play", "card": 2}, "id": "j"},
        {"type": "sync", "last": number},
        {"type": "ping", "id": "p"},
        {"type": "hello", "protocol": 1, "token": token, "last": None},
    ]


def mutated(rng: random.Random, number: int, token: str | None, hello: bool = True) -> tuple[str, bool]:
    """A frame (text, or bytes as latin-1 text) and whether it is sent as binary."""
    choices = [t for t in templates(number, token) if hello or t["type"] != "hello"]
    base = dict(rng.choice(choices))
    kind = rng.randrange(10)
    if kind == 0:
        return "".join(chr(rng.randrange(256)) for _ in range(rng.randrange(64))), True
    if kind == 1:
        alphabet = '{}[]":,0123456789eE.-+ \\u tnrfalse²١\ud800\x00é'
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 80))), False
    if kind == 2:
        text = json.dumps(base)
        return text[: rng.randrange(len(text))], False
    if kind == 3:
        base[rng.choice([*base, "type", "extra"])] = rng.choice(ODD_VALUES)
        return json.dumps(base), False
    if kind == 4:
        name = rng.choice([k for k in base if k != "type"])
        head = json.dumps({k: v for k, v in base.items() if k != name})
        return head[:-1] + f', "{name}": {rng.choice(ODD_LITERALS)}' + "}", False
    if kind == 5:
        base["type"] = rng.choice([["act"], {"t": 1}, 7, None, "ACT", "act ", "résign"])
        return json.dumps(base), False
    if kind == 6 and base["type"] == "act":
        base.pop("action_json", None)
        base["action"] = rng.choice(["²", "١", "٣", "𝟙", "1 ", " ", "", "\x00", "x" * 4_000, "9" * 4_000])
        return json.dumps(base), False
    if kind == 7:
        depth = rng.choice([33, 500, 3_000])
        return json.dumps({**base, "id": "d"})[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}", False
    if kind == 8:
        return rng.choice(
            ["[]", "null", "1", '"hello"', "true", "{}", '{"type":"ping"} x', "\ufeff{}"]
        ), False
    return json.dumps(base), False  # some valid frames too


def send(ws: WebSocketTestSession, frame: str, binary: bool) -> None:
    if binary:
        ws.send_bytes(frame.encode("latin-1"))
    else:
        ws.send_text(frame)


def settle(ws: WebSocketTestSession) -> tuple[list[dict[str, Any]], int | None]:
    """Everything answered up to a ping's pong, or what came before the connection closed and its code."""
    mark = f"fuzz-{next(_marks)}"
    got: list[dict[str, Any]] = []
    try:
        ws.send_json({"type": "ping", "id": mark})
        while True:
            message = ws.receive_json()
            if message == {"type": "pong", "id": mark}:
                return got, None
            got.append(message)
    except WebSocketDisconnect as closed:
        return got, closed.code


def check_answers(messages: list[dict[str, Any]], codes: set[str]) -> None:
    for message in messages:
        assert message["type"] in ANSWERS, message
        if message["type"] == "error":
            assert message["code"] in codes, message
            assert len(message["message"]) <= MAX_ERROR_TEXT


@contextlib.contextmanager
def connection(client: TestClient, table_id: str) -> Iterator[WebSocketTestSession]:
    with client.websocket_connect(ws_url(table_id)) as ws:
        yield ws


def join(client: TestClient, stack: contextlib.ExitStack, table_id: str, token: str | None) -> Any:
    ws = stack.enter_context(connection(client, table_id))
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    assert ws.receive_json()["type"] == "sync"
    return ws


def fuzz(
    client: TestClient, rng: random.Random, table_id: str, token: str | None, rejoin: Callable[[], Any]
) -> int:
    """Fuzz one seat (``token``; None: a spectator); returns how many frames were sent."""
    sent = 0
    ws = rejoin()
    for batch in range(BATCHES):
        number = client.get(f"/api/tables/{table_id}").json()["number"]
        frames = [mutated(rng, number, token) for _ in range(BATCH)]
        oversized = batch % 4 == 3
        if oversized:
            big = json.dumps({"type": "act", "number": number, "action": "é" * FRAME_LIMIT})
            frames.insert(rng.randrange(len(frames)), (big, batch % 8 == 7))
        for frame, binary in frames:
            send(ws, frame, binary)
            sent += 1
        answers, closed = settle(ws)
        check_answers(answers, REFUSALS)
        if closed is None:
            assert not oversized
            continue
        assert closed in CLOSES, closed
        assert oversized and closed == CloseCode.TOO_BIG
        assert answers[-1]["code"] == ErrorCode.TOO_LARGE
        ws = rejoin()  # a client that sent too much reconnects and goes on
    return sent


def play_to_the_end(seats: list[WebSocketTestSession], spectator: WebSocketTestSession) -> dict[str, Any]:
    for _ in range(100):
        moved = False
        for ws in seats:
            drain_until_quiet(ws)  # (updates of the other seat's moves)
            ws.send_json({"type": "sync", "last": None})
            sync = ws.receive_json()
            assert sync["type"] == "sync"
            if sync["status"] == "over":
                drain_until_quiet(spectator)
                spectator.send_json({"type": "sync", "last": None})
                final = spectator.receive_json()
                assert final["status"] == "over" and final["result"] is not None
                return final
            legal = sync["legal"]
            if legal and legal["required"]:
                action = legal["actions"][0]["notation"]
                ws.send_json({"type": "act", "number": sync["number"], "action": action})
                moved = True
                drain_until_quiet(ws)  # the act is done, so its update is queued for every connection
        assert moved, "nobody could act"
    raise AssertionError("the game never ended")


def drain_until_quiet(ws: WebSocketTestSession) -> None:
    answers, closed = settle(ws)
    assert closed is None
    check_answers(answers, {ErrorCode.STALE, ErrorCode.NOT_YOUR_TURN})


def test_no_frame_breaks_the_socket(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.WARNING, logger="sqlalchemy")
    client = make_client(rate_limit=100_000, rate_burst=100_000, max_frame_bytes=FRAME_LIMIT)
    created = create(client, seats=humans(2), seed=11)
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    rng = random.Random(20_24)
    sent = 0
    with contextlib.ExitStack() as stack:
        # before hello: junk is refused, then a hello still joins
        with connection(client, table_id) as early:
            for _ in range(40):
                send(early, *mutated(rng, 0, None, hello=False))
                sent += 1
            early.send_json({"type": "hello", "token": tokens[0]})
            while (message := early.receive_json())["type"] != "welcome":
                assert message["type"] == "error" and message["code"] in BEFORE_HELLO, message
            assert early.receive_json()["type"] == "sync"
        seat1 = join(client, stack, table_id, tokens[1])
        sent += fuzz(client, rng, table_id, tokens[0], lambda: join(client, stack, table_id, tokens[0]))
        sent += fuzz(client, rng, table_id, None, lambda: join(client, stack, table_id, None))
        drain_until_quiet(seat1)
        # the fuzzed table still plays (its valid frames may have played some of it already) ...
        play_to_the_end(
            [join(client, stack, table_id, tokens[0]), seat1], join(client, stack, table_id, None)
        )
        # ... and so does a new one on the same server
        fresh = create(client, seats=humans(2), seed=12)
        fresh_id = fresh["table"]["id"]
        seats = [join(client, stack, fresh_id, i["token"]) for i in fresh["invites"]]
        final = play_to_the_end(seats, join(client, stack, fresh_id, None))
    assert sent >= 300
    for done in (table_id, fresh_id):
        assert client.get(f"/api/tables/{done}").json()["status"] == "over"
    assert final["number"] == len(client.get(f"/api/tables/{fresh_id}/record").json()["moves"]) > 0
    for record in caplog.records:
        assert record.exc_info is None, record.getMessage()
        assert "Traceback" not in record.getMessage()
        assert record.levelno < logging.ERROR, record.getMessage()


def test_an_unforeseen_failure_closes_only_its_connection(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last resort: one log line, ``internal`` and 1011 for that connection; the others go on."""
    created = create(client, seats=humans(2), seed=5)
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    service = client.app.state.service

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug\nover two lines")

    with contextlib.ExitStack() as stack:
        seat0 = join(client, stack, table_id, tokens[0])
        seat1 = join(client, stack, table_id, tokens[1])
        spectator = join(client, stack, table_id, None)
        drain_until_quiet(seat0)
        monkeypatch.setattr(service, "act", broken)
        seat0.send_json({"type": "act", "number": 0, "action": "1"})
        answers, closed = settle(seat0)
        assert closed == CloseCode.INTERNAL_ERROR
        assert [(m["type"], m["code"]) for m in answers] == [("error", "internal")]
        assert "bug" not in answers[0]["message"]  # nothing internal is shown
        for ws in (seat1, spectator):
            assert settle(ws)[1] is None
        monkeypatch.undo()
        again = join(client, stack, table_id, tokens[0])
        again.send_json({"type": "sync", "last": None})
        legal = again.receive_json()["legal"]["actions"][0]["notation"]
        again.send_json({"type": "act", "number": 0, "action": legal})
        assert "ack" in again.receive_json()
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(failures) == 1
    assert failures[0].exc_info is None
    line = failures[0].getMessage()
    assert "RuntimeError" in line and "\n" not in line and "Traceback" not in line


def test_a_database_out_of_reach_closes_with_try_again_later(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table opened while the database is away (a PostgreSQL restarting) is no bug of the server:
    ``unavailable`` and close 1013 (try again later), not ``internal`` and 1011; the driver's words (the
    database's address and name) stay in the log line. Once it is back, the same seat joins."""
    from sqlalchemy.exc import OperationalError

    created = create(client, seats=humans(2), seed=5)
    table_id = created["table"]["id"]
    token = created["invites"][0]["token"]
    service = client.app.state.service
    said = 'connection to server at "10.1.2.3", port 5432 failed: database "coven_prod" is not accepting'

    async def away(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError(said))

    monkeypatch.setattr(service, "get", away)
    with contextlib.ExitStack() as stack:
        ws = stack.enter_context(connection(client, table_id))
        answers, closed = settle(ws)
        assert closed == CloseCode.TRY_AGAIN_LATER
        assert [(m["type"], m["code"]) for m in answers] == [("error", ErrorCode.UNAVAILABLE)]
        message = answers[0]["message"]
        assert "database" in message and "10.1.2.3" not in message and "coven_prod" not in message
        monkeypatch.undo()
        join(client, stack, table_id, token)  # back with the database
    failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(failures) == 1 and "10.1.2.3" in failures[0]


def test_odd_actions_are_bad_notation(client: TestClient) -> None:
    """What a game's parser did not foresee is ``bad_notation``, never an exception in the handler."""
    created = create(client, seats=humans(2), seed=5)
    table_id = created["table"]["id"]
    tokens = [i["token"] for i in created["invites"]]
    odd: list[dict[str, Any]] = [
        {"action": "²"},  # the toy parser checks str.isdigit, then int("²") fails: ValueError
        {"action": "٣"},  # int("٣") == 3: a lenient parser would take it
        {"action": "𝟙"},
        {"action_json": {"type": "Play", "card": "²"}},
        {"action_json": {"type": "Play", "card": [1]}},  # unhashable
        {"action_json": {"type": "Play", "card": 10**18}},  # no notation of the game reads back as it
        {"action_json": {"type": "Play"}},
    ]
    with contextlib.ExitStack() as stack:
        seat0 = join(client, stack, table_id, tokens[0])
        join(client, stack, table_id, tokens[1])
        drain_until_quiet(seat0)
        for fields in odd:
            seat0.send_json({"type": "act", "number": 0, "id": "odd", **fields})
            answers, closed = settle(seat0)
            assert closed is None
            assert [(m["type"], m.get("code")) for m in answers] in (
                [("error", "bad_notation")],
                [("error", "illegal_action")],
            ), (fields, answers)
        seat0.send_json({"type": "sync", "last": None})
        assert seat0.receive_json()["number"] == 0  # nothing was played
