"""No input hurts the HTTP API: odd bodies, sizes and parameters get a typed 4xx, never a 500/traceback."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import re
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

import coven
from coven.games import REGISTRY
from coven.server.app import HttpEdge
from coven.server.settings import Settings
from coven.server.ws import TRANSPORT_KEY
from tests.server.conftest import TestClient
from tests.server.helpers import create, hello, humans, wait_for, ws_url


def refused(response: Any, status: int, code: str | None = None) -> str:
    """The response is ``status`` with the API's error shape; returns its message."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) - {"reason"} == {"code", "message"}, body
    if "reason" in body["error"]:  # why the rules refused, in words of no language
        reason = body["error"]["reason"]
        assert set(reason) == {"key", "params"} and reason["key"].startswith("refusal."), body
    if code is not None:
        assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert len(message) <= 500
    return message


@pytest.fixture(autouse=True)
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Any:
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.WARNING, logger="sqlalchemy")
    yield
    for record in caplog.records:
        assert record.exc_info is None, record.getMessage()
        assert "Traceback" not in record.getMessage()


# ----------------------------------------------------------------------------- media type
@pytest.mark.parametrize(
    "media",
    [
        None,
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
        "text/json",
        "",
    ],
)
def test_a_body_not_sent_as_json_is_415_and_makes_nothing(
    make_client: Callable[..., TestClient], media: str | None
) -> None:
    """A form or plain text is what another site's page can make a browser send without asking the
    server first: read as JSON, it let any page create tables in its visitor's name (and use up their
    address's creation allowance). Refused before the body is read, it counts for nothing."""
    client = make_client(create_limit=1, create_burst=1)
    headers = {} if media is None else {"content-type": media}
    body = json.dumps({"game": "toy", "players": 2}).encode()
    message = refused(
        client.post("/api/tables", content=body, headers=headers), 415, "unsupported_media_type"
    )
    assert "application/json" in message
    assert client.get("/api/tables").json() == []
    made = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert made.status_code == 201  # the refused one did not count against the limit of one


@pytest.mark.parametrize(
    "media", ["application/json", "Application/JSON; charset=utf-8", " application/json ;x=1"]
)
def test_json_under_any_spelling_of_its_type_is_read(client: TestClient, media: str) -> None:
    body = json.dumps({"game": "toy", "players": 2}).encode()
    assert client.post("/api/tables", content=body, headers={"content-type": media}).status_code == 201


def test_a_card_not_sent_as_json_is_415(make_client: Callable[..., TestClient]) -> None:
    real = make_client(games=REGISTRY)
    body = json.dumps({"card": {"type": "action", "value": 1, "en": "x", "expr": "silent"}}).encode()
    path = "/api/games/commandments/cards/preview"
    refused(
        real.post(path, content=body, headers={"content-type": "text/plain"}), 415, "unsupported_media_type"
    )
    assert real.post(path, content=body, headers={"content-type": "application/json"}).status_code == 200


# ----------------------------------------------------------------------------- body size
def test_a_body_over_the_limit_is_413(client: TestClient, settings: Settings) -> None:
    limit = settings.max_body_bytes
    body = json.dumps({"game": "toy", "players": 2, "options": {"pad": "x" * limit}})
    response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert str(limit) in refused(response, 413, "too_large")
    # without a Content-Length (chunked), it is counted while read
    chunks = (b"x" * 4096 for _ in range(limit // 4096 + 2))
    refused(
        client.post("/api/tables", content=chunks, headers={"content-type": "application/json"}),
        413,
        "too_large",
    )
    assert client.get("/api/tables").json() == []  # nothing was created


def test_the_default_limit_holds_the_largest_custom_cards() -> None:
    card = {"id": "A" + "b" * 15, "type": "artefact", "value": "?", "en": "é" * 200, "fr": "é" * 200}
    cards = [{**card, "expr": "x" * 400}] * 60  # Commandments' caps: 60 cards, 200-char texts, 400-char expr
    body = json.dumps({"game": "commandments", "players": 5, "options": {"custom_cards": json.dumps(cards)}})
    assert len(body.encode("utf-8")) < Settings().max_body_bytes


def test_a_body_within_the_limit_is_read(make_client: Callable[..., TestClient]) -> None:
    client = make_client(max_body_bytes=200)
    assert client.post("/api/tables", json={"game": "toy", "players": 2}).status_code == 201
    refused(client.post("/api/tables", json={"game": "toy", "players": 2, "seed": 1, "x": "y" * 200}), 413)


def test_the_body_is_never_read_past_the_limit() -> None:
    """The middleware stops the app's reading at the limit: an endless body is not buffered."""
    pulled = 0

    async def endless() -> Message:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b"x" * 1000, "more_body": True}

    async def reads_everything(scope: Scope, receive: Receive, send: Send) -> None:
        while (await receive()).get("more_body"):
            pass

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {"type": "http", "method": "POST", "path": "/api/tables", "headers": []}
    asyncio.run(HttpEdge(reads_everything, max_body_bytes=10_000)(scope, endless, send))
    assert pulled == 11
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"]["code"] == "too_large"


@pytest.mark.parametrize("path", ["/", "/index.html", "/t/abc"])
def test_a_page_asked_with_a_body_over_the_limit_is_served_whole(
    make_client: Callable[..., TestClient], settings: Settings, path: str
) -> None:
    """A page's file answers before the body is read (Starlette's FileResponse only listens for a
    disconnect while it sends): a chunked body past the limit, arriving meanwhile, used to be raised into
    the answer, which went out as its headers and no page (and uvicorn logged an error)."""
    client = make_client(max_body_bytes=1_000)
    page = (settings.resolved_web_dir() / "index.html").read_text(encoding="utf-8")
    chunks = (b"x" * 600 for _ in range(5))
    response = client.request("GET", path, content=chunks)
    assert response.status_code == 200
    assert response.text == page


@pytest.mark.parametrize(
    ("length", "status"), [(b"20000", 413), (b"99999999999999999999999", 413), (b"12x", 400), (b"-1", 400)]
)
def test_content_length_is_checked_before_reading(length: bytes, status: int) -> None:
    reached = False

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        nonlocal reached
        reached = True

    async def receive() -> Message:
        raise AssertionError("the body was read")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {"type": "http", "method": "POST", "path": "/", "headers": [(b"content-length", length)]}
    asyncio.run(HttpEdge(app, max_body_bytes=10_000)(scope, receive, send))
    assert not reached and sent[0]["status"] == status


# ------------------------------------------------------------------------- odd bodies
@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"\xff\xfe\x00",
        b"",
        b"[]",
        b'"toy"',
        b"null",
        b"[" * 100_000,
        b'{"game": "toy"}',
        b'{"game": ["toy"], "players": 2}',
        b'{"game": "toy", "players": "\xc2\xb2"}',
        b'{"game": "toy", "players": 1e400}',
        b'{"game": "toy", "players": ' + b"9" * 5_000 + b"}",
        b'{"game": "toy", "players": 2, "seed": -1}',
        b'{"game": "toy", "players": 2, "seed": ' + b"9" * 5_000 + b"}",
        b'{"game": "toy", "players": 2, "seats": {"kind": "human"}}',
        b'{"game": "toy", "players": 2, "seats": [{"kind": "robot"}, {"kind": "human"}]}',
        b'{"game": "toy", "players": 2, "options": []}',
        b'{"game": "toy", "players": 2, "options": {"hand": null}}',
        b'{"game": "toy", "players": 2, "surplus": 1}',
        b'{"game": "toy", "players": 2, "seats": [{"kind": "human", "name": "\\ud800"}, {"kind": "human"}]}',
    ],
)
def test_malformed_create_table_is_422(client: TestClient, body: bytes) -> None:
    response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    refused(response, 422)


@pytest.mark.parametrize(
    "value",
    [
        *("²", "³²", "١٢", "9" * 5_000, "-" + "9" * 5_000),
        *("2.0", "0x2", "", "two", ["2"], [], {"n": 2}, 2.5, None),
    ],
)
def test_odd_integer_options_are_422(client: TestClient, value: Any) -> None:
    response = client.post("/api/tables", json={"game": "toy", "players": 2, "options": {"hand": value}})
    refused(response, 422)


def test_a_huge_integer_option_literal_is_422(client: TestClient) -> None:
    for literal in ("9" * 5_000, "-" + "9" * 5_000, "1e400", str(2**64)):
        body = '{"game": "toy", "players": 2, "options": {"hand": ' + literal + "}}"
        response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        refused(response, 422)


# ------------------------------------------------------------------------------ JSON types
@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"game": "toy", "players": "2"}, "players"),
        ({"game": "toy", "players": 2.0}, "players"),
        ({"game": "toy", "players": True}, "players"),
        ({"game": "toy", "players": 2, "pace": "move", "pace_seconds": "60"}, "pace_seconds"),
        ({"game": "toy", "players": 2, "pace": "move", "pace_seconds": 60.0}, "pace_seconds"),
        ({"game": "toy", "players": 2, "seats": [{"kind": "human", "name": 5}] * 2}, "seats.0.human.name"),
        ({"game": "toy", "players": 2, "seats": [{"kind": "bot", "bot": True}] * 2}, "seats.0.bot.bot"),
        ({"game": "toy", "players": 2, "options": {"hand": 2.5}}, "options.hand"),
        ({"game": "toy", "players": 2, "options": {"hand": None}}, "options.hand"),
        ({"game": "toy", "players": 2, "options": {"hand": [2]}}, "options.hand"),
    ],
)
def test_json_of_the_wrong_type_is_refused(client: TestClient, body: dict[str, Any], where: str) -> None:
    """JSON carries types: a count is a whole number (not "2", 2.0 or true), a text a string; anything else
    is 422 bad_request naming the field, and nothing is made."""
    message = refused(client.post("/api/tables", json=body), 422, "bad_request")
    assert message.startswith(f"{where}: "), message
    assert client.get("/api/tables").json() == []


TYPED_OPTIONS = {
    "brujas": {"silent": True, "conflict": False},
    "amulets": {"question_cap": 5, "assistant": True},
    "commandments": {"expert": True, "judge": "priestess", "reveal": "never", "custom_cards": ""},
}
"""Options of each game's own types: taken."""


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        ("brujas", {"silent": "yes"}, "option silent takes true or false, not the text 'yes'"),
        ("brujas", {"conflict": "true"}, "option conflict takes true or false, not the text 'true'"),
        ("brujas", {"silent": 1}, "option silent takes true or false, not 1"),
        ("amulets", {"question_cap": "5"}, "option question_cap takes a whole number, not the text '5'"),
        ("amulets", {"question_cap": True}, "option question_cap takes a whole number, not True"),
        ("commandments", {"expert": "false"}, "option expert takes true or false, not the text 'false'"),
        ("commandments", {"judge": 1}, "option judge takes a word, not 1"),
    ],
)
def test_an_option_value_of_another_type_than_its_options_is_refused(
    make_client: Callable[..., TestClient], game: str, options: dict[str, Any], message: str
) -> None:
    """Each game's options have types (a flag, a count, a word): the text form of a flag or a count, which
    the command line takes, is refused over HTTP (422 invalid_option naming the option), and nothing is
    made; the same options of their own types are taken."""
    client = make_client(games=REGISTRY)
    response = client.post("/api/tables", json={"game": game, "players": 3, "options": options})
    assert refused(response, 422, "invalid_option") == message
    assert client.get("/api/tables").json() == []
    typed = TYPED_OPTIONS[game]
    assert create(client, game=game, players=3, options=typed)["table"]["options"] == typed


# ------------------------------------------------------------------------------ seat names
@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("\u202eevil\u0000\u0007", "evil"),  # a bidi override, a NUL, a bell
        ("a\nb\r\tc", "a b c"),
        ("  Ana\u200b ", "Ana"),  # a zero-width space
        ("Zoé\u2028Ana\u2029", "Zoé Ana"),  # line and paragraph separators
        ("\u2066Ana\u2069 \u202bBen\u202c", "Ana Ben"),  # bidi isolates and embeddings
        ("李\ufeff\u00ad", "李"),  # a byte order mark, a soft hyphen
        ("Ana 👍🏽", "Ana 👍🏽"),
    ],
)
def test_seat_names_are_cleaned_as_chat_lines_are(client: TestClient, given: str, kept: str) -> None:
    """Control characters, line breaks and invisible formatting characters (bidi overrides and isolates,
    zero-width ones) become spaces and spaces are squeezed, in every seat's name, as in a chat line: what
    everyone is shown is what the lobby answered."""
    seats = [{"kind": "human", "name": given}, {"kind": "bot", "bot": "random", "name": given}]
    response = client.post("/api/tables", json={"game": "toy", "players": 2, "seats": seats})
    assert response.status_code == 201, response.text
    created = response.json()
    assert [s["name"] for s in created["table"]["seats"]] == [kept, kept]
    assert [i["name"] for i in created["invites"]] == [kept]
    table_id = created["table"]["id"]
    assert [s["name"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]] == [kept, kept]
    with client.websocket_connect(ws_url(table_id)) as ws:
        welcome, _ = hello(ws)
        assert [s["name"] for s in welcome["seats"]] == [kept, kept]


@pytest.mark.parametrize(
    "name",
    [
        "",
        "\u200b",
        "\u202e\u202c",
        "\u0000\u0007\n",
        " \u00a0\u3000 ",  # spaces that are not ASCII
        "\u3164",  # the Hangul filler: a letter that shows nothing
        "\u2800\u2800",  # blank braille
        "\u0301\u0301",  # accents on nothing
        "\ufeff",
    ],
)
@pytest.mark.parametrize("kind", ["human", "bot"])
def test_a_name_with_nothing_visible_is_refused(client: TestClient, name: str, kind: str) -> None:
    seat = (
        {"kind": "human", "name": name} if kind == "human" else {"kind": "bot", "bot": "random", "name": name}
    )
    response = client.post(
        "/api/tables", json={"game": "toy", "players": 2, "seats": [seat, {"kind": "human"}]}
    )
    message = refused(response, 422, "bad_request")
    assert message.startswith(f"seats.0.{kind}.name: ") and "visible" in message, message
    assert client.get("/api/tables").json() == []  # nothing was made


# -------------------------------------------------------------------- odd parameters
@pytest.fixture
def finished(client: TestClient) -> str:
    created = create(client, seats=[{"kind": "bot", "bot": "random"}] * 2, seed=3)
    table_id: str = created["table"]["id"]
    with client.websocket_connect(ws_url(table_id)) as ws:
        greeting = hello(ws)
        wait_for(ws, lambda m: m.get("status") == "over", already=greeting)
    return table_id


@pytest.mark.parametrize("seat", ["²", "١", "-1", "9" * 5_000, "1.0", " 1", "0x1", "1e3", "seat", "\x00"])
def test_odd_seat_parameters_are_422(client: TestClient, finished: str, seat: str) -> None:
    response = client.get(f"/api/tables/{finished}/replay", params={"seat": seat})
    assert "whole number" in refused(response, 422, "bad_request")


def test_seat_parameters_that_are_numbers(client: TestClient, finished: str) -> None:
    assert client.get(f"/api/tables/{finished}/replay", params={"seat": "1"}).json()["seat"] == 1
    assert client.get(f"/api/tables/{finished}/replay", params={"seat": ""}).json()["seat"] is None
    refused(client.get(f"/api/tables/{finished}/replay", params={"seat": "2"}), 422)
    refused(client.get(f"/api/tables/{finished}/replay", params={"seat": "999999"}), 422)
    waiting = create(client, seats=humans(2))["table"]["id"]
    refused(client.get(f"/api/tables/{waiting}/replay", params={"seat": "²"}), 422)


def test_odd_paths_are_404_with_short_messages(client: TestClient) -> None:
    refused(client.get("/api/tables/" + "x" * 10_000), 404, "unknown_table")
    refused(client.get("/api/tables/%ED%A0%80"), 404, "unknown_table")
    refused(client.get("/api/games/%00"), 404, "unknown_game")
    refused(client.get("/api/games/" + "g" * 10_000 + "/rules"), 404, "unknown_game")


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PUT", "/api/tables", "GET, HEAD, POST"),
        ("DELETE", "/api/tables", "GET, HEAD, POST"),
        ("PATCH", "/api/tables", "GET, HEAD, POST"),
        ("POST", "/api/health", "GET, HEAD"),
        ("DELETE", "/api/tables/abc", "GET, HEAD"),
        ("PUT", "/api/games/commandments/cards/preview", "POST"),
    ],
)
def test_a_method_an_api_route_does_not_take_is_405_in_the_apis_shape(
    client: TestClient, method: str, path: str, allow: str
) -> None:
    response = client.request(method, path)
    assert f"{method} {path}" in refused(response, 405, "method_not_allowed")
    assert response.headers["allow"] == allow


@pytest.mark.parametrize(
    "path", ["/api/nothing", "/api/games/..%2f..%2fetc/rules", "/api/", "/api", "/api/tables/abc/nothing"]
)
def test_an_unknown_api_path_is_404_in_the_apis_shape(client: TestClient, path: str) -> None:
    """Under /api/ every error is the API's JSON; the page's own files answer as they did (plain text)."""
    for method in ("GET", "POST", "DELETE"):
        assert "no API route" in refused(client.request(method, path), 404, "not_found")
    for method, page, status in (("PUT", "/", 405), ("PUT", "/t/abc", 405)):
        response = client.request(method, page)
        assert response.status_code == status
        assert response.headers["content-type"].startswith("text/plain")


def test_a_page_that_is_not_there_is_the_clients_404_page(make_client: Callable[..., TestClient]) -> None:
    # a 404 that is the browser client's page, which says so in the person's language
    # (tests/e2e/test_i18n.py), not a bare "Not Found"
    client = make_client(web_dir=Path(coven.__file__).parent / "web")
    for path in ("/nothing.html", "/nosuchpage", "/a/b/c"):
        missing = client.get(path)
        assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/app.js">' in missing.text
    assert client.get("/").status_code == 200  # (the lobby is still the lobby)


# ------------------------------------------------------------------- the last resort
def test_a_database_out_of_reach_is_a_503_to_try_again(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PostgreSQL not accepting connections made every API request a 500 ``internal``, as if the server
    had a bug, with nothing to say it passes: a 503 ``unavailable`` with ``Retry-After``, the driver's words
    (the database's address and name) in the log line only."""
    from sqlalchemy.exc import OperationalError

    said = 'connection to server at "10.1.2.3", port 5432 failed: database "coven_prod" is not accepting'

    async def away(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError(said))

    service = client.app.state.service
    monkeypatch.setattr(service, "list_tables", away)
    monkeypatch.setattr(service, "create", away)
    for response in (
        client.get("/api/tables"),
        client.post("/api/tables", json={"game": "toy", "players": 2}),
    ):
        message = refused(response, 503, "unavailable")
        assert response.headers["retry-after"] == "5"
        assert "database" in message and "10.1.2.3" not in message and "coven_prod" not in message
    failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(failures) == 2 and all("10.1.2.3" in line for line in failures)
    monkeypatch.undo()
    assert client.get("/api/tables").status_code == 200  # back with the database


def test_an_unforeseen_failure_is_a_500_with_one_log_line(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(limit: int) -> Any:
        raise RuntimeError("the disk is on fire\nsecond line")

    monkeypatch.setattr(client.app.state.service, "list_tables", broken)
    refused(client.get("/api/tables"), 500, "internal")
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(failures) == 1
    line = failures[0].getMessage()
    assert "GET /api/tables" in line and "RuntimeError" in line and "\n" not in line
    assert client.get("/api/health").status_code == 200  # the server goes on


# ------------------------------------------------------------------------- under uvicorn
def test_serve_gives_uvicorn_the_same_limits_and_one_line_logs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import uvicorn

    from coven.server import commands

    runs: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: runs.append({"app": app, **kw}))
    commands.serve(database=f"sqlite:///{tmp_path / 'serve.sqlite3'}")
    (run,) = runs
    assert run["ws_max_size"] == run["app"].state.settings.max_frame_bytes
    config = run["log_config"]
    assert all(handler["filters"] == ["one_line"] for handler in config["handlers"].values())
    assert config["loggers"]["coven"]["handlers"] == ["default"]
    assert config["root"]["handlers"] == ["default"]  # asyncio, SQLAlchemy, ...: one line each too
    # each line says when: the logs of several processes line up (they said only what)
    from uvicorn.logging import DefaultFormatter

    made = config["formatters"]["default"]
    formatter = DefaultFormatter(fmt=made["fmt"], datefmt=made["datefmt"], use_colors=False)
    record = logging.LogRecord("coven.server", logging.WARNING, __file__, 1, "a %s", ("warning",), None)
    line = formatter.format(record)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[+-]\d{4} WARNING: +a warning", line), line


def test_a_log_record_with_a_traceback_becomes_one_line() -> None:
    from coven.server.commands import OneLineLogs

    try:
        b"\xff".decode()
    except UnicodeDecodeError:
        import sys

        record = logging.LogRecord(
            "uvicorn.error", logging.ERROR, __file__, 1, "bad %s", ("frame",), sys.exc_info()
        )
    assert OneLineLogs().filter(record)
    line = logging.Formatter().format(record)
    assert line.startswith("bad frame (UnicodeDecodeError: ") and "\n" not in line and "Traceback" not in line
    # a failed statement: the driver's words, not the SQL and its parameters SQLAlchemy adds to them
    from sqlalchemy.exc import OperationalError

    try:
        raise OperationalError(
            "SELECT secret FROM coven_seats WHERE x = ?", ("a-parameter",), Exception("gone")
        )
    except OperationalError:
        import sys

        failed = logging.LogRecord(
            "coven", logging.ERROR, __file__, 1, "bus handler failed", (), sys.exc_info()
        )
    assert OneLineLogs().filter(failed)
    said = logging.Formatter().format(failed)
    assert said == "bus handler failed (OperationalError: Exception: gone)", said
    plain = logging.LogRecord("coven", logging.INFO, __file__, 1, "ok %d", (1,), None)
    assert OneLineLogs().filter(plain) and logging.Formatter().format(plain) == "ok 1"


def test_a_socket_hands_its_transport_through_the_scope_and_leaves_no_cycle() -> None:
    """The edge leaves a websocket's raw receive/send in the scope for the table socket; once the socket
    ends they leave it, so the server's connection (which holds its scope, as uvicorn's does) is freed by
    its last reference, not by a collector pass (the server's collector rarely makes a full one: the
    cycle cost 8 MB per 1,000 games in `coven bench server --games 1000`)."""

    class Protocol:  # stands for the server's connection object
        def __init__(self) -> None:
            self.scope: Scope = {"type": "websocket", "path": "/ws/tables/t"}

        async def receive(self) -> Message:
            return {"type": "websocket.disconnect", "code": 1000}

        async def send(self, message: Message) -> None:
            pass

    seen: list[object] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope.get(TRANSPORT_KEY))

    protocol = Protocol()
    gone = weakref.ref(protocol)
    gc.disable()
    try:
        asyncio.run(HttpEdge(app, max_body_bytes=10_000)(protocol.scope, protocol.receive, protocol.send))
        assert seen == [(protocol.receive, protocol.send)]
        assert TRANSPORT_KEY not in protocol.scope
        seen.clear()
        del protocol
        assert gone() is None, "the connection outlived its socket (a reference cycle through its scope)"
    finally:
        gc.enable()


# ----------------------------------------------------------------------------- creating tables
def test_one_address_creating_tables_in_a_loop_is_stopped(make_client: Callable[..., TestClient]) -> None:
    """Every table lives in memory until it is over: one client creating tables in a loop could grow the
    server without bound. Past its burst an address gets 429 rate_limited with Retry-After, and nothing
    is created; another address is not slowed."""
    client = make_client(create_limit=2.0, create_burst=3)  # 3 at once, then one every 30 s
    for _ in range(3):
        create(client)
    response = client.post("/api/tables", json={"game": "toy", "players": 2})
    message = refused(response, 429, "rate_limited")
    assert "try again in" in message
    wait = int(response.headers["retry-after"])
    assert 25 <= wait <= 30  # the next table comes after 30 s at 2 a minute
    service = client.app.state.service  # type: ignore[attr-defined]
    assert len(client.get("/api/tables").json()) == 3 == len(service.tables)  # nothing was created
    other = TestClient(client.app, client=("203.0.113.9", 50000))  # type: ignore[arg-type]
    assert other.post("/api/tables", json={"game": "toy", "players": 2}).status_code == 201
    refused(client.post("/api/tables", json={"game": "toy", "players": 2}), 429, "rate_limited")


def test_a_refused_creation_does_not_count_against_the_limit(make_client: Callable[..., TestClient]) -> None:
    # the limit counts tables made: requests refused for what they ask (a bad body, an unknown game, bad
    # options) make none, and leave the address its tables
    client = make_client(create_limit=2.0, create_burst=2)
    for _ in range(5):
        refused(client.post("/api/tables", json={"game": "toy", "players": "2"}), 422, "bad_request")
        refused(client.post("/api/tables", json={"game": "chess", "players": 2}), 404, "unknown_game")
    create(client)
    create(client)
    refused(client.post("/api/tables", json={"game": "toy", "players": 2}), 429, "rate_limited")


def test_without_a_creation_limit_nothing_is_refused(make_client: Callable[..., TestClient]) -> None:
    client = make_client(create_limit=0, create_burst=1)
    for _ in range(5):
        create(client)
    assert len(client.get("/api/tables").json()) == 5


def test_the_openapi_document_names_the_creation_limit(client: TestClient) -> None:
    post = client.get("/api/openapi.json").json()["paths"]["/api/tables"]["post"]
    assert "429" in post["responses"] and "Retry-After" in post["description"]


def test_one_address_asking_in_a_loop_is_slowed_and_others_are_not(
    make_client: Callable[..., TestClient],
) -> None:
    """Some API requests cost the server milliseconds on the loop every table shares: one address gets
    ``http_burst`` at once, then ``http_limit`` a second, then 429 rate_limited with Retry-After, before
    anything else is done for it (a body is not even read); another address is served, and so are the
    page's own files."""
    client = make_client(http_limit=0.5, http_burst=3)
    for _ in range(3):
        assert client.get("/api/health").status_code == 200
    response = client.get("/api/games")
    assert "too many requests" in refused(response, 429, "rate_limited")
    assert response.headers["retry-after"] == "2"  # the next request comes after 2 s at 0.5 a second
    refused(client.post("/api/tables", json={"game": "toy", "players": 2}), 429, "rate_limited")
    assert client.get("/").status_code == 200  # the page's own files are not counted
    # a socket's upgrade counts: refused before it
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/ws/tables/nowhere"):
        pass
    assert closed.value.code == 1008
    other = TestClient(client.app, client=("203.0.113.7", 50000))  # type: ignore[arg-type]
    assert other.post("/api/tables", json={"game": "toy", "players": 2}).status_code == 201
    assert len(other.get("/api/tables").json()) == 1  # the refused request created nothing


def test_an_application_that_fails_to_start_says_why_in_its_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """uvicorn logs a failed start with the application's traceback as the message's text: squeezed and
    cut at 500 characters from its start, the line held frames and never what failed."""
    import asyncio
    from contextlib import asynccontextmanager

    from starlette.applications import Starlette
    from uvicorn import Config
    from uvicorn.lifespan.on import LifespanOn

    from coven.server.commands import OneLineLogs

    def deep(depth: int) -> None:
        if depth:
            deep(depth - 1)
        try:
            raise ConnectionRefusedError("the store said no")
        except ConnectionRefusedError as exc:
            raise RuntimeError("could not open the store at postgresql://db/coven") from exc

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        deep(12)
        yield

    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Keep()
    handler.addFilter(OneLineLogs())
    logger = logging.getLogger("uvicorn.error")
    monkeypatch.setattr(logger, "handlers", [handler])
    monkeypatch.setattr(logger, "propagate", False)
    monkeypatch.setattr(logger, "level", logging.INFO)
    starting = LifespanOn(Config(Starlette(lifespan=lifespan), lifespan="on", log_config=None))
    asyncio.run(starting.startup())
    assert starting.should_exit
    failed = [
        line for line in lines if "Startup failed" not in line and "Application startup failed" not in line
    ]
    assert any(
        "RuntimeError: could not open the store at postgresql://db/coven" in line for line in failed
    ), lines
    assert all("\n" not in line and 'File "' not in line for line in lines), lines
