"""The ASGI application: the lobby's HTTP routes, the live socket and the static client."""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from coven.core import CovenError, Game, InvalidOptionError, Record, UnknownBotError, UnknownGameError
from coven.server import schemas
from coven.server.messages import PROTOCOL_VERSION
from coven.server.openapi import openapi_document
from coven.server.settings import Settings
from coven.server.tables import SeatRequest, Table, TableService
from coven.server.ws import table_socket
from coven.store import StoredTable

AnyGame = Game[Any, Any, Any]
Endpoint = Callable[[Request], Awaitable[Response]]


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _json(model: BaseModel | list[Any], status: int = 200) -> JSONResponse:
    if isinstance(model, list):
        return JSONResponse([m.model_dump(mode="json") for m in model], status_code=status)
    return JSONResponse(model.model_dump(mode="json"), status_code=status)


def _error(status: int, code: str, message: str) -> JSONResponse:
    body = schemas.ErrorOut(error=schemas.ErrorBody(code=code, message=message))
    return JSONResponse(body.model_dump(mode="json"), status_code=status)


def _guard(endpoint: Endpoint) -> Endpoint:
    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except ApiError as exc:
            return _error(exc.status, exc.code, exc.message)
        except UnknownGameError as exc:
            return _error(404, exc.code, str(exc))
        except (InvalidOptionError, UnknownBotError) as exc:
            return _error(422, exc.code, str(exc))
        except CovenError as exc:
            return _error(400, exc.code, str(exc))

    return wrapped


def rules_text(game: AnyGame) -> str | None:
    """The game's rulebook: ``spec.rules_file`` resolved inside the game's package."""
    name = game.spec.rules_file
    if not name:
        return None
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
        if isinstance(stored, Table):
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
                schemas.SeatOut(seat=s.seat, kind=s.kind, name=s.name, bot=s.bot, claimed=s.claimed)
                for s in seats
            ],
            result=result,
        )

    async def _table(self, request: Request) -> Table:
        table_id = str(request.path_params["table_id"])
        table = await self.service.get(table_id)
        if table is None:
            raise ApiError(404, "unknown_table", f"no table {table_id!r}")
        return table

    def _game(self, request: Request) -> AnyGame:
        return self.service.games.get(str(request.path_params["game_id"]))

    # ----------------------------------------------------------- endpoints
    async def health(self, request: Request) -> Response:
        return _json(
            schemas.HealthOut(ok=True, protocol=PROTOCOL_VERSION, games=list(self.service.games.ids()))
        )

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

    async def create_table(self, request: Request) -> Response:
        try:
            body = schemas.CreateTableIn.model_validate_json(await request.body())
        except ValidationError as exc:
            first = exc.errors()[0]
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
        table, invites = await self.service.create(body.game, body.players, body.options, seats, body.seed)
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
        return _json(self.table_out(request, await self._table(request)))

    async def record(self, request: Request) -> Response:
        table = await self._table(request)
        if table.status != "over":
            raise ApiError(409, "not_over", "the record (and its seed) is served once the game is over")
        record = Record(
            game=table.game.spec.id,
            players=table.players,
            options=dict(table.options),
            seed=table.seed,
            seats=tuple(s.name for s in table.seats),
            moves=tuple(_move(s.actor, s.action) for s in table.steps),
        )
        return JSONResponse(record.to_json())

    async def replay(self, request: Request) -> Response:
        table = await self._table(request)
        if table.status != "over":
            raise ApiError(409, "not_over", "the replay is served once the game is over")
        seat: int | None = None
        raw_seat = request.query_params.get("seat")
        if raw_seat not in (None, ""):
            if not raw_seat.isdigit() or int(raw_seat) >= table.players:
                raise ApiError(422, "bad_request", f"seat is 0 to {table.players - 1}")
            seat = int(raw_seat)
        reveal = request.query_params.get("reveal", "").lower() in {"1", "true", "yes"}
        game = table.game
        state = game.setup(table.players, dict(table.options), table.seed)
        steps = [
            schemas.ReplayStepOut(
                number=0,
                actor=None,
                action=None,
                events=[],
                view=game.view_to_json(game.view(state, seat)),
                scores=list(game.scores(state)),
            )
        ]
        for step in table.steps:
            events = game.apply(state, step.actor, game.parse_action(step.action))
            steps.append(
                schemas.ReplayStepOut(
                    number=step.number,
                    actor=step.actor,
                    action=step.action if reveal or step.actor == seat else None,
                    events=[e.to_json() for e in events if reveal or e.visible_to(seat)],
                    view=game.view_to_json(game.view(state, seat)),
                    scores=list(game.scores(state)),
                )
            )
        result = table.result()
        assert result is not None
        out = schemas.ReplayOut(
            table=table.id,
            game=game.spec.id,
            seat=seat,
            reveal=reveal,
            result=schemas.ResultOut(**result),
            steps=steps,
        )
        return _json(out)

    async def openapi(self, request: Request) -> Response:
        return JSONResponse(openapi_document())


def _move(seat: int, action: str) -> Any:
    from coven.core import Move

    return Move(seat, action)


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

    async def socket(websocket: WebSocket) -> None:
        await table_socket(websocket, service)

    routes: list[BaseRoute] = [
        Route("/api/health", _guard(lobby.health), methods=["GET"]),
        Route("/api/openapi.json", _guard(lobby.openapi), methods=["GET"]),
        Route("/api/games", _guard(lobby.games), methods=["GET"]),
        Route("/api/games/{game_id}", _guard(lobby.game), methods=["GET"]),
        Route("/api/games/{game_id}/rules", _guard(lobby.rules), methods=["GET"]),
        Route("/api/tables", _guard(lobby.create_table), methods=["POST"]),
        Route("/api/tables", _guard(lobby.list_tables), methods=["GET"]),
        Route("/api/tables/{table_id}", _guard(lobby.table), methods=["GET"]),
        Route("/api/tables/{table_id}/record", _guard(lobby.record), methods=["GET"]),
        Route("/api/tables/{table_id}/replay", _guard(lobby.replay), methods=["GET"]),
        WebSocketRoute("/ws/tables/{table_id}", socket),
    ]
    web = settings.resolved_web_dir()
    index = web / "index.html"

    async def page(request: Request) -> Response:
        if not index.is_file():
            return PlainTextResponse("the browser client is not installed", status_code=404)
        return FileResponse(index)

    routes.append(Route("/t/{table_id}", page, methods=["GET"]))
    if web.is_dir():
        routes.append(Mount("/", app=StaticFiles(directory=web, html=True), name="web"))
    else:
        routes.append(Route("/", page, methods=["GET"]))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.service = service
    app.state.settings = settings
    return app
