"""The OpenAPI document of the lobby, written from the pydantic models."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from coven.server import schemas
from coven.server.messages import PROTOCOL_VERSION

_MODELS: list[type[BaseModel]] = [
    schemas.CreateTableIn,
    schemas.GameOut,
    schemas.TableOut,
    schemas.TableCreatedOut,
    schemas.ReplayOut,
    schemas.ExplanationOut,
    schemas.HealthOut,
    schemas.ErrorOut,
    schemas.DeckOut,
    schemas.CardPreviewIn,
    schemas.CardPreviewOut,
]
_INPUTS: tuple[type[BaseModel], ...] = (schemas.CreateTableIn, schemas.CardPreviewIn)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _response(description: str, schema: dict[str, Any], media: str = "application/json") -> dict[str, Any]:
    return {"description": description, "content": {media: {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    return {str(c): _response("error", _ref("ErrorOut")) for c in codes}


@cache
def openapi_document() -> dict[str, Any]:
    modes: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        (m, "validation" if m in _INPUTS else "serialization") for m in _MODELS
    ]
    _, defs = models_json_schema(
        modes,
        ref_template="#/components/schemas/{model}",
    )
    table_id = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
    game_id = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    paths: dict[str, Any] = {
        "/api/health": {
            "get": {
                "summary": "Whether this process can serve its tables (store, bus), and what it holds",
                "responses": {
                    "200": _response("it can", _ref("HealthOut")),
                    "503": _response("its store or its bus is away", _ref("HealthOut")),
                },
            }
        },
        "/api/games": {
            "get": {
                "summary": "The games, their options and bots",
                "responses": {"200": _response("games", {"type": "array", "items": _ref("GameOut")})},
            }
        },
        "/api/games/{game_id}": {
            "get": {
                "summary": "One game",
                "parameters": [game_id],
                "responses": {"200": _response("the game", _ref("GameOut")), **_errors(404)},
            }
        },
        "/api/games/{game_id}/rules": {
            "get": {
                "summary": "The game's rulebook (Markdown)",
                "parameters": [game_id],
                "responses": {"200": _response("rules", {"type": "string"}, "text/markdown"), **_errors(404)},
            }
        },
        "/api/tables": {
            "post": {
                "summary": "Create a table; returns one secret invite link per human seat",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("CreateTableIn")}},
                },
                "description": "One client address may create `create_limit` tables a minute (10 by default) "
                "after a burst of `create_burst` (30); past it the answer is 429 `rate_limited` with a "
                "`Retry-After` header in seconds.",
                "responses": {
                    "201": _response("created", _ref("TableCreatedOut")),
                    **_errors(404, 415, 422, 429),
                },
            },
            "get": {
                "summary": "Recent tables (public facts only)",
                "responses": {"200": _response("tables", {"type": "array", "items": _ref("TableOut")})},
            },
        },
        "/api/tables/{table_id}": {
            "get": {
                "summary": "A table's public facts",
                "parameters": [table_id],
                "responses": {"200": _response("the table", _ref("TableOut")), **_errors(404)},
            }
        },
        "/api/tables/{table_id}/record": {
            "get": {
                "summary": "The record (seed and every action) of a finished game that reveals its "
                "secrets at the end (403 `secret` for a table with reveal=never)",
                "parameters": [table_id],
                "responses": {
                    "200": _response("a coven.core.Record", {"type": "object"}),
                    **_errors(403, 404, 409),
                },
            }
        },
        "/api/tables/{table_id}/replay": {
            "get": {
                "summary": "A finished game step by step, as one seat saw it (or revealed in full)",
                "parameters": [
                    table_id,
                    {"name": "seat", "in": "query", "required": False, "schema": {"type": "integer"}},
                    {"name": "reveal", "in": "query", "required": False, "schema": {"type": "boolean"}},
                ],
                "description": "At a table that never reveals its secrets (reveal=never), `reveal=true` is "
                "refused and a seat's replay needs that seat's token as `Authorization: Bearer <token>` "
                "(403 `secret` otherwise). Replays are made beside the event loop, one at a time, and "
                "kept; past 32 being made or waiting, 503 `busy` with `Retry-After`.",
                "responses": {
                    "200": _response("the replay", _ref("ReplayOut")),
                    **_errors(403, 404, 409, 422, 503),
                },
            }
        },
        "/api/tables/{table_id}/explanation": {
            "get": {
                "summary": "Why each seat of a finished game scored what it scored, line by line with the "
                "replay steps where it happened, from one seat's final view (or a spectator's)",
                "parameters": [
                    table_id,
                    {"name": "seat", "in": "query", "required": False, "schema": {"type": "integer"}},
                ],
                "description": "At a table that never reveals its secrets (reveal=never), a seat's "
                "explanation needs that seat's token as `Authorization: Bearer <token>` (403 `secret`).",
                "responses": {
                    "200": _response("the explanation", _ref("ExplanationOut")),
                    **_errors(403, 404, 409, 422),
                },
            }
        },
        "/api/games/commandments/deck": {
            "get": {
                "summary": "The 3 Commandments: every card of the box (text in English and French, value, "
                "artefact or action, its condition) and the words of the card language",
                "responses": {"200": _response("the deck", _ref("DeckOut")), **_errors(404)},
            }
        },
        "/api/games/commandments/cards/preview": {
            "post": {
                "summary": "The 3 Commandments: check one custom card as the custom_cards option would "
                "(422 `invalid_card` says why) and judge it on a sample board for a few sample moves",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("CardPreviewIn")}},
                },
                "responses": {
                    "200": _response("the judgements", _ref("CardPreviewOut")),
                    **_errors(404, 415, 422),
                },
            }
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Coven lobby",
            "version": f"{PROTOCOL_VERSION}",
            "description": "The HTTP part of Coven's server. The live part is a WebSocket at "
            "/ws/tables/{table_id}; see src/coven/server/PROTOCOL.md.",
        },
        "paths": paths,
        "components": {"schemas": defs["$defs"]},
    }
