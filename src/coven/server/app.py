"""The ASGI application: the lobby's HTTP routes, the live socket and the static client.

The HTTP edge (:class:`HttpEdge`) bounds request bodies while they are read (413) and turns anything a
route did not foresee into a 500 with the API's error shape and one log line; :func:`_guard` maps every
typed error (and odd query parameters) to its 4xx.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.resources
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import msgspec
from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from coven.core import CovenError, InvalidOptionError, UnknownBotError, UnknownGameError
from coven.core.explain import moments_from_steps
from coven.core.game import AnyGame
from coven.server import schemas
from coven.server.limits import ClientCounts, ClientLimits, client_key
from coven.server.messages import CloseCode, ErrorCode, encode_json, reason_json, shorten
from coven.server.openapi import openapi_document
from coven.server.replays import ReplayBusyError, Replays, record_of
from coven.server.rules_page import LANGS, asked_lang, localized_name, missing_document, rules_document
from coven.server.settings import Settings
from coven.server.table import Table
from coven.server.tables import SeatRequest, TableService
from coven.server.ws import TRANSPORT_KEY, describe, table_socket
from coven.store import StoredTable, unreachable

log = logging.getLogger("coven.server.http")

Endpoint = Callable[[Request], Awaitable[Response]]

MAX_HTTP_ERROR_TEXT = 500
"""An HTTP error's ``message`` is cut to this many characters (it may quote the request)."""
_WHOLE_NUMBER = re.compile(r"[0-9]{1,6}")
"""A query parameter that is a seat or a count: ASCII digits only (``str.isdigit`` also takes ``²``)."""


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        headers: dict[str, str] | None = None,
        reason: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.reason = reason


def _json(model: BaseModel | list[Any], status: int = 200) -> JSONResponse:
    if isinstance(model, list):
        return JSONResponse([m.model_dump(mode="json") for m in model], status_code=status)
    return JSONResponse(model.model_dump(mode="json"), status_code=status)


def _error(
    status: int,
    code: str,
    message: str,
    headers: dict[str, str] | None = None,
    reason: dict[str, Any] | None = None,
) -> JSONResponse:
    said = None if reason is None else schemas.MessageKeyOut.model_validate(reason)
    body = schemas.ErrorOut(error=schemas.ErrorBody(code=code, message=message, reason=said))
    return JSONResponse(body.model_dump(mode="json", exclude_none=True), status_code=status, headers=headers)


def _guard(endpoint: Endpoint, whole_numbers: tuple[str, ...] = ()) -> Endpoint:
    """``endpoint`` with every typed error mapped to its status and the API's error shape.

    ``whole_numbers``: query parameters that, when given and not empty, must be small whole numbers in
    ASCII digits (422 otherwise, before the endpoint runs). Anything else escaping the endpoint is a bug:
    :class:`HttpEdge` answers 500."""

    async def wrapped(request: Request) -> Response:
        try:
            for name in whole_numbers:
                value = request.query_params.get(name)
                if value and not _WHOLE_NUMBER.fullmatch(value):
                    message = f"{name} must be a whole number, not {value!r}"
                    raise ApiError(422, ErrorCode.BAD_REQUEST, message)
            return await endpoint(request)
        except ApiError as exc:
            return _short_error(exc.status, exc.code, exc.message, exc.headers, exc.reason)
        except UnknownGameError as exc:
            return _short_error(404, exc.code, str(exc))
        except (InvalidOptionError, UnknownBotError) as exc:
            return _short_error(422, exc.code, str(exc), reason=reason_json(exc))
        except CovenError as exc:
            return _short_error(400, exc.code, str(exc), reason=reason_json(exc))
        except ValidationError as exc:
            first = exc.errors(include_url=False, include_input=False)[0]
            where = ".".join(str(p) for p in first["loc"]) or "body"
            return _short_error(422, ErrorCode.BAD_REQUEST, f"{shorten(where, 80)}: {first['msg']}")

    return wrapped


def _short_error(
    status: int,
    code: str,
    message: str,
    headers: dict[str, str] | None = None,
    reason: dict[str, Any] | None = None,
) -> JSONResponse:
    return _error(status, code, shorten(message, MAX_HTTP_ERROR_TEXT), headers, reason)


JSON_MEDIA = "application/json"
"""The media type of every request body the API reads (a parameter such as ``charset`` may follow)."""


def _require_json(request: Request) -> None:
    """Refuse (415 ``unsupported_media_type``) a request whose body does not say it is JSON: a body sent
    as a form or as plain text is what a page of another site can make a browser send (a "simple"
    request, without asking the server first), so read as JSON it let any page create tables in the name
    of whoever visited it (using up their address's creation allowance)."""
    given = request.headers.get("content-type", "")
    if given.partition(";")[0].strip().lower() != JSON_MEDIA:
        shown = repr(given) if given else "none"
        message = f"the body is JSON: send it with Content-Type: {JSON_MEDIA} (not {shorten(shown, 60)})"
        raise ApiError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, message)


class _BodyTooLargeError(Exception):
    """Raised into the app by the body reader of :class:`HttpEdge` past the limit."""


class HttpEdge:
    """Pure ASGI middleware at the edge of the app.

    HTTP: a client address past its rate of API requests and socket upgrades (``requests``, see
    ``Settings.http_limit``; the page's own files are not counted) gets 429 ``rate_limited`` with
    ``Retry-After`` (a socket: refused before its upgrade, 403), before anything else is done for it; a
    request body over ``max_body_bytes`` gets 413 ``too_large`` — at once from its ``Content-Length``,
    else as soon as the bytes read exceed it (a body is never buffered beyond the limit; a GET's or a
    HEAD's, which no route reads, is dropped past it instead: a page's file may be on its way); any exception
    escaping the app gets a 500 ``internal`` with the API's error shape and one log line without
    traceback. Websocket: the same catch-all (the socket handler has its own; this one closes with 1011).
    Lifespan passes through."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, requests: ClientLimits | None = None) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.requests = requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            if self._refused(scope) is not None:  # refused before the upgrade: the client sees a 403
                await send({"type": "websocket.close", "code": CloseCode.POLICY_VIOLATION, "reason": ""})
                return
            scope[TRANSPORT_KEY] = (receive, send)
            try:
                await self.app(scope, receive, send)
            except Exception as exc:
                log.error("websocket %s failed: %s", shorten(str(scope.get("path", "")), 80), describe(exc))
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": CloseCode.INTERNAL_ERROR, "reason": ""})
            finally:
                # the server's connection holds the scope, and the scope its methods: a cycle, which the
                # collector (tuned for a server: rarely a full pass) would keep for long; cut it now
                del scope[TRANSPORT_KEY]
        else:
            await self.app(scope, receive, send)

    def _refused(self, scope: Scope) -> int | None:
        """Take one of the client's requests (an API request or a socket's upgrade); the whole seconds it
        must wait if it has none left (None: go on)."""
        if self.requests is None:
            return None
        client = scope.get("client")
        return self.requests.take(client[0] if client else None) or None

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if str(scope.get("path", "")).startswith("/api/"):
            seconds = self._refused(scope)
            if seconds is not None:
                message = f"too many requests from this address: try again in {seconds} s"
                refusal = _error(429, ErrorCode.RATE_LIMITED, message, {"Retry-After": str(seconds)})
                await refusal(scope, receive, send)
                return
        limit = self.max_body_bytes
        too_large = f"request bodies are at most {limit} bytes"
        declared = _content_length(scope)
        if declared is None:
            await _error(400, ErrorCode.BAD_REQUEST, "Content-Length is not a number")(scope, receive, send)
            return
        if declared > limit:
            await _error(413, ErrorCode.TOO_LARGE, too_large)(scope, receive, send)
            return
        received = 0
        started = False
        unread = scope.get("method") in ("GET", "HEAD")  # no route reads its body: past the limit, dropped

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    if unread:
                        # no route reads it, and a page's file answers while it listens (for a disconnect)
                        # to what comes: raised there, the refusal cut the page short (headers, no page)
                        return {**message, "body": b""}
                    raise _BodyTooLargeError
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except _BodyTooLargeError:
            if not started:
                await _error(413, ErrorCode.TOO_LARGE, too_large)(scope, receive, send)
        except Exception as exc:
            method = str(scope.get("method", ""))
            log.error("%s %s failed: %s", method, shorten(str(scope.get("path", "")), 80), describe(exc))
            if not started:
                if unreachable(exc):  # for a while: the client (or the proxy) may try again
                    message = "the server cannot reach its database just now: try again in a moment"
                    failed = _error(503, ErrorCode.UNAVAILABLE, message, {"Retry-After": STORE_RETRY_AFTER})
                else:
                    failed = _error(500, ErrorCode.INTERNAL, "the server failed on this request")
                await failed(scope, receive, send)


STORE_RETRY_AFTER = "5"
"""Seconds a client is told to wait when the database cannot be reached (503 ``unavailable``)."""


def _content_length(scope: Scope) -> int | None:
    """The declared body length (0 if none); None if a Content-Length header is not a number."""
    longest = 0
    for name, raw in scope.get("headers", ()):
        if name.lower() == b"content-length":
            value = raw.strip()
            if not value.isdigit():  # bytes.isdigit: ASCII digits only
                return None
            longest = max(longest, int(value) if len(value) <= 18 else 10**18)
    return longest


def rules_text(game: AnyGame, lang: str = "en") -> str | None:
    """The game's rulebook: ``spec.rules_file`` resolved inside the game's package (in ``lang``: see
    ``rules_page.localized_name``; None when the game has no rulebook in that language)."""
    name = game.spec.rules_file
    if not name:
        return None
    name = localized_name(name, lang)
    package = type(game).__module__
    for candidate in (package, package.rpartition(".")[0]):
        if not candidate:
            continue
        try:
            resource = importlib.resources.files(candidate).joinpath(name)
            if resource.is_file():
                return resource.read_text(encoding="utf-8")
        except (ModuleNotFoundError, TypeError, OSError, ValueError):
            continue
    return None


class Lobby:
    """The HTTP endpoints; thin: the work is in :class:`TableService`."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        settings = service.settings
        self.creations = ClientLimits(settings.create_limit / 60, settings.create_burst)
        """Tables created per client address (``settings.create_limit`` a minute)."""
        self.replays = Replays(derive=self._derive)
        self._rules_pages: dict[tuple[str, str], tuple[str, int]] = {}
        """Each rules page once made, by game and language (a rulebook is a file of the game's package: it
        does not change while the server runs). Made at each request, a page cost about 1 ms, and a flood
        of them slowed every table's acks to 35 ms (p50) and 140-220 ms (p99), found by an attacker's pass
        for issue 12. Bounded: the server's games, by its languages."""

    async def _derive(self, table: Table, views: dict[int, Any]) -> dict[int, Any] | None:
        """A replay's views, derived by the bot pool's deriver (see :meth:`Replays._derived_views`)."""
        return await self.service.bot_pool.derive(table.game, table.id, views)

    # ------------------------------------------------------------ helpers
    def game_out(self, game: AnyGame) -> schemas.GameOut:
        spec = game.spec
        return schemas.GameOut(
            id=spec.id,
            title=spec.title,
            summary=spec.summary,
            min_players=spec.min_players,
            max_players=spec.max_players,
            hidden_information=spec.hidden_information,
            optional_actors=spec.optional_actors,
            simultaneous=spec.simultaneous,
            has_rules=rules_text(game) is not None,
            options=[
                schemas.OptionOut(
                    key=o.key,
                    kind=o.kind,
                    default=o.default,
                    description=o.description,
                    choices=list(o.choices),
                    minimum=o.minimum,
                    maximum=o.maximum,
                )
                for o in spec.options
            ],
            bots=sorted(game.bots()),
        )

    @staticmethod
    def table_url(request: Request, table_id: str) -> str:
        return str(request.base_url).rstrip("/") + f"/t/{table_id}"

    def table_out(self, request: Request, stored: StoredTable | Table) -> schemas.TableOut:
        result = None
        to_act: list[int] = []
        if isinstance(stored, Table):
            if stored.status == "playing":
                to_act = stored.turn()[0]
            raw = stored.result()
            if raw is not None:
                result = schemas.ResultOut(**raw)
            seats = stored.seats
            number = stored.number
            game_id = stored.game.spec.id
        else:
            seats = list(stored.seats)
            number = stored.number
            game_id = stored.game
        try:
            reveals = self.service.games.get(game_id).reveals_at_end(dict(stored.options))
        except (ImportError, CovenError):  # a game this server no longer offers: keep its secrets
            reveals = False
        return schemas.TableOut(
            id=stored.id,
            game=game_id,
            players=stored.players,
            options=dict(stored.options),
            status=stored.status,
            number=number,
            created_at=stored.created_at.isoformat(),
            spectator_url=self.table_url(request, stored.id),
            seats=[
                schemas.SeatOut(
                    seat=s.seat, kind=s.kind, name=s.name, bot=s.bot, claimed=s.claimed, stand_in=s.stand_in
                )
                for s in seats
            ],
            result=result,
            pace=stored.pace,
            pace_seconds=stored.pace_seconds,
            to_act=to_act,
            reveals=reveals,
        )

    async def _table(self, request: Request) -> Table:
        table_id = str(request.path_params["table_id"])
        table = await self.service.get(table_id)
        if table is None:
            raise ApiError(404, "unknown_table", f"no table {table_id!r}")
        return table

    async def _finished_seat(self, request: Request, what: str) -> tuple[Table, int | None]:
        """The finished table and the ``seat`` query parameter (None: a spectator) of a route that shows
        ``what`` of a finished game as one seat saw it; at a table that keeps its secrets for ever, a
        seat's ``what`` is shown only to that seat's token."""
        table = await self._table(request)
        if table.status != "over":
            raise ApiError(409, "not_over", f"the {what} is served once the game is over")
        seat: int | None = None
        raw_seat = request.query_params.get("seat")
        if raw_seat not in (None, ""):
            if not raw_seat.isdigit() or int(raw_seat) >= table.players:
                raise ApiError(422, "bad_request", f"seat is 0 to {table.players - 1}")
            seat = int(raw_seat)
        secret = not table.game.reveals_at_end(table.options)
        if secret and seat is not None and not _holds_seat(request, table, seat):
            raise ApiError(
                403,
                "secret",
                _KEPT_SECRET + f": seat {seat}'s {what} is shown only to seat {seat} "
                "(send its token as 'Authorization: Bearer <token>')",
            )
        return table, seat

    def _game(self, request: Request) -> AnyGame:
        return self.service.games.get(str(request.path_params["game_id"]))

    # ----------------------------------------------------------- endpoints
    async def health(self, request: Request) -> Response:
        """How this process is (:meth:`TableService.health`): 200 while it can serve its tables, 503 when
        its store or its bus is away (a proxy's health check then sends people to another process)."""
        health = self.service.health()
        return _json(health, 200 if health.ok else 503)

    async def games(self, request: Request) -> Response:
        out = []
        for game_id in self.service.games.ids():
            try:
                out.append(self.game_out(self.service.games.get(game_id)))
            except (ImportError, CovenError, TypeError):  # a game that fails to load is left out
                continue
        return _json(out)

    async def game(self, request: Request) -> Response:
        return _json(self.game_out(self._game(request)))

    async def rules(self, request: Request) -> Response:
        game = self._game(request)
        text = rules_text(game)
        if text is None:
            raise ApiError(404, "no_rules", f"{game.spec.title} ships no rulebook")
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")

    async def rules_page(self, request: Request) -> Response:
        """``GET /rules/{game}``: the rulebook as a readable HTML page (a 404 page says what is missing)."""
        game_id = str(request.path_params["game_id"])
        lang = asked_lang(request.query_params.get("lang"))
        try:
            game = self.service.games.get(game_id)
        except (ImportError, CovenError):
            shown = shorten(game_id, 40)
            missing = {
                "en": f"There is no game {shown!r} on this server.",
                "fr": f"Il n'y a pas de jeu « {shown} » sur ce serveur.",
            }
            return HTMLResponse(missing_document(missing, lang), 404)
        key = (game.spec.id, lang)
        page = self._rules_pages.get(key)
        if page is None:
            page = self._rules_pages[key] = self._rules_page(game, lang)
        return HTMLResponse(page[0], page[1])

    @staticmethod
    def _rules_page(game: AnyGame, lang: str) -> tuple[str, int]:
        """The rules page of ``game`` in ``lang`` and its status (404: the game has no rulebook)."""
        text = rules_text(game)
        if text is None:
            title = game.spec.title
            none = {
                "en": f"{title} ships no rulebook on this server.",
                "fr": f"{title} n'a pas de règles sur ce serveur.",
            }
            return missing_document(none, lang), 404
        langs = tuple(code for code in LANGS if code == "en" or rules_text(game, code) is not None)
        if lang not in langs:
            lang = "en"  # no rulebook in that language: the English one
        shown = text if lang == "en" else rules_text(game, lang) or text
        return rules_document(game.spec.id, game.spec.title, shown, lang, langs), 200

    async def create_table(self, request: Request) -> Response:
        host = request.client.host if request.client is not None else None
        seconds = self.creations.take(host)
        if seconds:
            raise ApiError(
                429,
                ErrorCode.RATE_LIMITED,
                f"too many tables created from this address ({self.service.settings.create_burst} at once, "
                f"then {self.service.settings.create_limit:g} a minute): try again in {seconds} s",
                {"Retry-After": str(seconds)},
            )
        try:
            return await self._create_table(request, host)
        except BaseException:  # refused (or failed): no table was made, so none counts against the limit
            self.creations.give_back(host)
            raise

    async def _create_table(self, request: Request, host: str | None) -> Response:
        _require_json(request)
        try:
            body = schemas.CreateTableIn.model_validate_json(await request.body())
        except ValidationError as exc:
            errors = exc.errors()
            if any(e["loc"] == ("seed",) and e["type"] == "extra_forbidden" for e in errors):
                raise ApiError(
                    422,
                    "seed_not_allowed",
                    "a table's deal is drawn by the server from the operating system's secure source, "
                    "so that nobody at the table can know it: leave out 'seed'",
                ) from None
            first = errors[0]
            where = ".".join(str(p) for p in first["loc"]) or "body"
            raise ApiError(422, "bad_request", f"{where}: {first['msg']}") from None
        seats = None
        if body.seats is not None:
            seats = [
                SeatRequest("bot", s.name, s.bot)
                if isinstance(s, schemas.BotSeatIn)
                else SeatRequest("human", s.name)
                for s in body.seats
            ]
        seconds = body.pace_seconds or {"move": 120, "clock": 600}.get(body.pace, 0)
        table, invites = await self.service.create(
            body.game, body.players, body.options, seats, body.pace, seconds, creator=client_key(host)
        )
        url = self.table_url(request, table.id)
        out = schemas.TableCreatedOut(
            table=self.table_out(request, table),
            spectator_url=url,
            invites=[
                schemas.InviteOut(seat=i.seat, name=i.name, token=i.token, url=f"{url}#token={i.token}")
                for i in invites
            ],
        )
        return _json(out, status=201)

    async def list_tables(self, request: Request) -> Response:
        stored = await self.service.list_tables(50)
        return _json([self.table_out(request, s) for s in stored])

    async def table(self, request: Request) -> Response:
        """``GET /api/tables/{id}``: the table's public facts, as it stands (a table that rests is looked at
        and let rest: see :meth:`TableService.peek`)."""
        table_id = str(request.path_params["table_id"])
        table = await self.service.peek(table_id)
        if table is None:
            raise ApiError(404, "unknown_table", f"no table {table_id!r}")
        return _json(self.table_out(request, table))

    async def record(self, request: Request) -> Response:
        table = await self._table(request)
        if table.status != "over":
            raise ApiError(409, "not_over", "the record (and its seed) is served once the game is over")
        if not table.game.reveals_at_end(table.options):
            raise ApiError(403, "secret", f"{_KEPT_SECRET}: its record, which tells the deal, is not served")
        return JSONResponse(record_of(table).to_json())

    async def replay(self, request: Request) -> Response:
        """``GET /api/tables/{id}/replay?seat=&reveal=``: every step of a finished game as ``seat`` saw it
        (made off the event loop and kept: see :mod:`coven.server.replays`)."""
        reveal = request.query_params.get("reveal", "").lower() in {"1", "true", "yes"}
        table, seat = await self._finished_seat(request, "replay")
        game = table.game
        if reveal and not game.reveals_at_end(table.options):
            raise ApiError(403, "secret", _KEPT_SECRET + ": it is never revealed in full")
        try:
            steps = await self.replays.steps(table, seat, reveal)
        except ReplayBusyError:
            why = "the server is making other replays: ask again in a moment"
            raise ApiError(503, ErrorCode.BUSY, why, {"Retry-After": "1"}) from None
        result = table.result()
        assert result is not None
        out = schemas.ReplayOut(
            table=table.id,
            game=game.spec.id,
            seat=seat,
            reveal=reveal,
            result=schemas.ResultOut(**result),
            steps=[],
            chat=[schemas.ChatLineOut(**line.to_json()) for line in await self.service.chat_log(table)],
        )
        body = out.model_dump(mode="json")
        body["steps"] = msgspec.Raw(steps)  # (JSON made once, see Replays)
        return Response(encode_json(body), media_type="application/json")

    # ------------------------------------------- The 3 Commandments: the deck and custom cards
    async def commandments_deck(self, request: Request) -> Response:
        """``GET /api/games/commandments/deck``: every card of the box (404 where the server does not
        offer the game)."""
        self.service.games.get("commandments")
        from coven.server.commandments_cards import deck_out

        return _json(deck_out())

    async def commandments_card_preview(self, request: Request) -> Response:
        """``POST /api/games/commandments/cards/preview`` with ``{card}``: the card checked as a table's
        ``custom_cards`` would be (422 ``invalid_card`` saying why) and judged on a sample board."""
        self.service.games.get("commandments")
        from coven.server.commandments_cards import CardPreviewError, preview

        _require_json(request)
        body = schemas.CardPreviewIn.model_validate_json(await request.body())
        try:
            return _json(preview(body.card))
        except CardPreviewError as exc:
            raise ApiError(422, exc.code, str(exc), reason=reason_json(exc)) from None

    async def explanation(self, request: Request) -> Response:
        """``GET /api/tables/{id}/explanation?seat=``: why each seat scored what it scored, from the final
        view of ``seat`` (none: a spectator's) and the events that seat saw; the same secrecy as the
        replay (at a reveal=never table a seat's explanation needs that seat's token)."""
        table, seat = await self._finished_seat(request, "explanation")
        game = table.game
        moments = moments_from_steps(((s.number, s.events) for s in table.steps), seat)
        explained = game.explain(game.bare_views(table.state, (seat,))[seat], moments)  # (no derived part)
        if explained is None:
            raise ApiError(404, "no_explanation", f"{game.spec.title} does not explain its results")
        # Explanation.to_json: each English text and beside it its message key and parameters
        data = explained.to_json()
        del data["viewer"]  # the route says ``seat``
        out = schemas.ExplanationOut.model_validate(
            {
                **data,
                "table": table.id,
                "game": game.spec.id,
                "seat": seat,
                "scores": [float(s) for s in game.scores(table.state)],
            }
        )
        return _json(out)

    async def openapi(self, request: Request) -> Response:
        return JSONResponse(openapi_document())


_KEPT_SECRET = "this table keeps its secrets for ever (reveal=never)"


def _holds_seat(request: Request, table: Table, seat: int) -> bool:
    """Whether the request carries ``seat``'s token (``Authorization: Bearer <token>``)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    return scheme.lower() == "bearer" and 0 < len(token) <= 256 and table.token_matches(seat, token)


class _ClientFiles(StaticFiles):
    """The browser client's files; an address that is none of them gets the client's page with a 404, and
    the page says what is missing, in the person's language, with the way back (not a bare "Not Found")."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, html=True)
        self.index = directory / "index.html"

    async def get_response(self, path: str, scope: Scope) -> Response:
        try:
            return await super().get_response(path, scope)
        except HTTPException as exc:
            if exc.status_code != 404 or not self.index.is_file():
                raise
            return FileResponse(self.index, status_code=404)


class _ApiUnmatched:
    """The answer to a request under /api/ that no API route took, in the API's error shape: 405 with an
    ``Allow`` header when routes have the path but not the method, else 404 (the page's static files,
    which would answer in plain text, never see /api/). An ASGI app, so that its route takes every method.
    """

    def __init__(self, api: list[Route]) -> None:
        self.api = api

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        allowed: set[str] = set()
        for route in self.api:
            match, _ = route.matches(scope)
            if match != Match.NONE and route.methods:
                allowed |= route.methods
        asked = shorten(f"{scope.get('method', '')} {scope.get('path', '')}", 200)
        if allowed:
            methods = ", ".join(sorted(allowed))
            message = f"{asked}: this route takes {methods}"
            response = _error(405, "method_not_allowed", message, {"Allow": methods})
        else:
            response = _error(404, "not_found", f"no API route {asked}: see /api/openapi.json")
        await response(scope, receive, send)


def create_app(settings: Settings | None = None) -> Starlette:
    """The Coven server. ``settings`` default: SQLite in the per-user data folder, in-process bus."""
    settings = settings or Settings()
    service = TableService(settings)
    lobby = Lobby(service)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    sockets = ClientCounts(settings.sockets_per_client)
    requests = ClientLimits(settings.http_limit, settings.http_burst) if settings.http_limit else None

    async def socket(websocket: WebSocket) -> None:
        await table_socket(websocket, service, sockets)

    routes: list[BaseRoute] = [
        Route("/api/health", _guard(lobby.health), methods=["GET"]),
        Route("/api/openapi.json", _guard(lobby.openapi), methods=["GET"]),
        Route("/api/games", _guard(lobby.games), methods=["GET"]),
        Route("/api/games/commandments/deck", _guard(lobby.commandments_deck), methods=["GET"]),
        Route(
            "/api/games/commandments/cards/preview",
            _guard(lobby.commandments_card_preview),
            methods=["POST"],
        ),
        Route("/api/games/{game_id}", _guard(lobby.game), methods=["GET"]),
        Route("/api/games/{game_id}/rules", _guard(lobby.rules), methods=["GET"]),
        Route("/api/tables", _guard(lobby.create_table), methods=["POST"]),
        Route("/api/tables", _guard(lobby.list_tables), methods=["GET"]),
        Route("/api/tables/{table_id}", _guard(lobby.table), methods=["GET"]),
        Route("/api/tables/{table_id}/record", _guard(lobby.record), methods=["GET"]),
        Route(
            "/api/tables/{table_id}/replay", _guard(lobby.replay, whole_numbers=("seat",)), methods=["GET"]
        ),
        Route(
            "/api/tables/{table_id}/explanation",
            _guard(lobby.explanation, whole_numbers=("seat",)),
            methods=["GET"],
        ),
        WebSocketRoute("/ws/tables/{table_id}", socket),
    ]
    unmatched = _ApiUnmatched([r for r in routes if isinstance(r, Route)])
    routes.append(Route("/api", unmatched))  # (every method: after the API's routes, before the page's)
    routes.append(Route("/api/{rest:path}", unmatched))
    web = settings.resolved_web_dir()
    index = web / "index.html"

    async def page(request: Request) -> Response:
        if not index.is_file():
            return PlainTextResponse("the browser client is not installed", status_code=404)
        return FileResponse(index)

    routes.append(Route("/t/{table_id}", page, methods=["GET"]))
    routes.append(Route("/rules/{game_id}", lobby.rules_page, methods=["GET"]))
    if web.is_dir():
        routes.append(Mount("/", app=_ClientFiles(web), name="web"))
    else:
        routes.append(Route("/", page, methods=["GET"]))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(HttpEdge, max_body_bytes=settings.max_body_bytes, requests=requests)],
    )
    app.state.service = service
    app.state.lobby = lobby
    app.state.sockets = sockets
    app.state.settings = settings
    return app
