"""The live protocol's messages (see PROTOCOL.md). Client messages are parsed here, at the edge, into a
closed set of typed values; anything else becomes a :class:`ProtocolError` with a stable code.
"""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

PROTOCOL_VERSION = 1

MessageId = Annotated[str, StringConstraints(max_length=64)] | int
Token = Annotated[str, StringConstraints(max_length=128)]


class CloseCode(IntEnum):
    NORMAL = 1000
    GOING_AWAY = 1001
    TOO_BIG = 1009
    BAD_TOKEN = 4001
    BAD_PROTOCOL = 4002
    UNKNOWN_TABLE = 4004
    HELLO_TIMEOUT = 4008
    TOO_SLOW = 4013
    RATE_LIMITED = 4029


class ErrorCode:
    """The ``code`` of an ``error`` message (also the HTTP API's error codes)."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    HELLO_REQUIRED = "hello_required"
    ALREADY_JOINED = "already_joined"
    BAD_PROTOCOL = "bad_protocol"
    BAD_TOKEN = "bad_token"
    SPECTATOR = "spectator"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    STALE = "stale"
    NOT_YOUR_TURN = "not_your_turn"
    BAD_NOTATION = "bad_notation"
    ILLEGAL_ACTION = "illegal_action"
    CONFLICT = "conflict"
    INTERNAL = "internal"
    UNKNOWN_TABLE = "unknown_table"


class ProtocolError(Exception):
    """A refused message: sent to the client as ``{"type": "error", "code", "message"}``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    protocol: int = PROTOCOL_VERSION
    token: Token | None = None
    last: int | None = None


class Act(_Message):
    type: Literal["act"]
    number: int
    action: Annotated[str, StringConstraints(max_length=4096)] | None = None
    action_json: dict[str, Any] | None = None
    id: MessageId | None = None
    token: Token | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Act:
        if (self.action is None) == (self.action_json is None):
            raise ValueError("give exactly one of action (notation) and action_json")
        return self


class Sync(_Message):
    type: Literal["sync"]
    last: int | None = None


class Ping(_Message):
    type: Literal["ping"]
    id: MessageId | None = None


ClientMessage = Annotated[Hello | Act | Sync | Ping, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Hello | Act | Sync | Ping] = TypeAdapter(ClientMessage)


def parse_client_message(text: str) -> Hello | Act | Sync | Ping:
    """One client frame, parsed; raises ProtocolError(bad_json | bad_message)."""
    try:
        raw = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ProtocolError(ErrorCode.BAD_JSON, f"not JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message is a JSON object with a type")
    kind = raw.get("type")
    if kind not in {"hello", "act", "sync", "ping"}:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"unknown message type {kind!r}")
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{where}: {first['msg']}") from None


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error_message(code: str, message: str, number: int | None, msg_id: str | int | None = None) -> str:
    return dumps({"type": "error", "code": code, "message": message, "id": msg_id, "number": number})
