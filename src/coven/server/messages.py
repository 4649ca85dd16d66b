"""The live protocol's messages (see PROTOCOL.md). Client messages are parsed here, at the edge, into a
closed set of typed values; anything else becomes a :class:`ProtocolError` with a stable code.
"""

from __future__ import annotations

import dataclasses
import json
import math
import unicodedata
from enum import IntEnum
from typing import Annotated, Any, Literal

import msgspec
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from coven.core.texts import Message

PROTOCOL_VERSION = 1

MAX_SAFE_INTEGER = 2**53 - 1
"""Integers in messages are JavaScript-safe (a browser reads larger ones inexactly)."""
MAX_INT_DIGITS = 20
"""Longer integer literals are refused while decoding, before Python converts them."""
MAX_DEPTH = 32
"""Deepest nesting of arrays/objects in a client message."""
MAX_ERROR_TEXT = 200
"""An error's ``message`` is cut to this many characters: it never echoes a large input back."""

MAX_ID_CHARS = 64
MAX_TOKEN_CHARS = 128
MAX_ACTION_CHARS = 4096
"""The longest message id, seat token and action notation a client may send (characters)."""

SafeInt = Annotated[int, Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)]
MessageId = Annotated[str, StringConstraints(max_length=MAX_ID_CHARS)] | SafeInt
ID_RULE = (
    f"a message id is text of at most {MAX_ID_CHARS} characters or a whole number "
    f"from -{MAX_SAFE_INTEGER} to {MAX_SAFE_INTEGER}"
)
"""What a message's ``id`` may be, as a refusal says it."""
Token = Annotated[str, StringConstraints(max_length=MAX_TOKEN_CHARS)]


class CloseCode(IntEnum):
    NORMAL = 1000
    GOING_AWAY = 1001
    POLICY_VIOLATION = 1008
    TOO_BIG = 1009
    BAD_TOKEN = 4001
    BAD_PROTOCOL = 4002
    UNKNOWN_TABLE = 4004
    HELLO_TIMEOUT = 4008
    TOO_SLOW = 4013
    RATE_LIMITED = 4029
    TOO_MANY_SOCKETS = 4030
    TOO_MANY_SPECTATORS = 4031
    INTERNAL_ERROR = 1011
    TRY_AGAIN_LATER = 1013


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
    TOO_MANY_SPECTATORS = "too_many_spectators"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    STALE = "stale"
    NOT_YOUR_TURN = "not_your_turn"
    BAD_NOTATION = "bad_notation"
    ILLEGAL_ACTION = "illegal_action"
    CONFLICT = "conflict"
    INTERNAL = "internal"
    UNKNOWN_TABLE = "unknown_table"
    BAD_REQUEST = "bad_request"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    BUSY = "busy"
    UNAVAILABLE = "unavailable"


class ProtocolError(Exception):
    """A refused message: sent to the client as ``{"type": "error", "code", "message", "id"}``, with the
    rules' ``reason`` beside them when they said why in words of no language (:func:`reason_json`).
    ``msg_id``: the refused message's own ``id``, where it could be read (an ``act`` or a ``chat`` of
    another field wrong still says which it was)."""

    def __init__(
        self,
        code: str,
        message: str,
        msg_id: str | int | None = None,
        *,
        reason: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id
        self.reason = reason


MAX_REASON_CHARS = 2_000
"""A refusal's reason is sent only while its JSON is at most this long: its params are short by making
(card ids, numbers, notation cut by ``short_repr``), and this bounds what an error can echo back."""


def reason_json(exc: BaseException) -> dict[str, Any] | None:
    """The ``{"key", "params"}`` of why ``exc`` refuses (a :class:`~coven.core.errors.GameError` or a card
    error raised with a refusal's message, see :mod:`coven.core.refusals`; nested messages as the same
    kind of object), or None: it says why in English only, or its reason would be too long to send."""
    reason = getattr(exc, "reason", None)
    if not isinstance(reason, Message):
        return None
    said = reason.key_json()
    return said if len(json.dumps(said)) <= MAX_REASON_CHARS else None


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    protocol: SafeInt = PROTOCOL_VERSION
    token: Token | None = None
    last: SafeInt | None = None


MAX_ANIMATION_MS = 5_000


class Act(_Message):
    type: Literal["act"]
    number: SafeInt
    action: Annotated[str, StringConstraints(max_length=MAX_ACTION_CHARS)] | None = None
    action_json: dict[str, Any] | None = None
    id: MessageId | None = None
    token: Token | None = None
    animation_ms: Annotated[int, Field(ge=0, le=MAX_ANIMATION_MS)] = 0
    """How long the page spent animating the last move before the person could act (subtracted from the
    time the server measures for the move; bounded, so it can only shorten a move by a few seconds)."""

    @model_validator(mode="after")
    def _one_form(self) -> Act:
        if (self.action is None) == (self.action_json is None):
            raise ValueError("give exactly one of action (notation) and action_json")
        return self


class Sync(_Message):
    type: Literal["sync"]
    last: SafeInt | None = None


class Ping(_Message):
    type: Literal["ping"]
    id: MessageId | None = None


MAX_CHAT = 500
"""The longest thing a player may say at once (characters)."""


class Chat(_Message):
    """A seated player says something to the table (spectators read only). ``id``: the sender's, given back
    with the line said (the ``chat`` its sender gets) or with its refusal (the ``error``)."""

    type: Literal["chat"]
    text: Annotated[str, StringConstraints(min_length=1, max_length=MAX_CHAT)]
    id: MessageId | None = None


def clean_chat(text: str) -> str:
    """What is kept of a chat line: printable characters on one line, spaces squeezed ("" if nothing)."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Printable characters that show nothing: the Hangul fillers and the blank braille pattern."""


def visible_text(text: str) -> str:
    """What is kept of a seat's name or a chat line: cleaned as :func:`clean_chat` cleans (control
    characters, line breaks, bidi overrides and isolates and other invisible formatting characters become
    spaces, spaces squeezed); "" when nothing visible is left (no letter, digit, punctuation or symbol that
    shows: accents on nothing, a Hangul filler, blank braille)."""
    cleaned = clean_chat(text)
    shows = any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK_LETTERS for c in cleaned)
    return cleaned if shows else ""


ClientMessage = Annotated[Hello | Act | Sync | Ping | Chat, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Hello | Act | Sync | Ping | Chat] = TypeAdapter(ClientMessage)
_TYPES = ("hello", "act", "sync", "ping", "chat")
_WITH_ID = frozenset({"act", "ping", "chat"})
"""The messages that carry an ``id``: refused for another field, the error still gives it back."""
_ID: TypeAdapter[str | int] = TypeAdapter(MessageId, config=ConfigDict(strict=True))


def shorten(text: str, limit: int = MAX_ERROR_TEXT) -> str:
    """``text`` on one line and at most ``limit`` characters (for errors and logs)."""
    flat = " ".join(text.split()) if not text.isprintable() else text
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INT_DIGITS:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"numbers have at most {MAX_INT_DIGITS} digits")
    return int(literal)


def _float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "numbers must be finite")
    return value


def _constant(name: str) -> Any:
    raise ProtocolError(ErrorCode.BAD_JSON, f"not JSON: {name} is not a JSON value")


def _check_tree(raw: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH and strings that are not Unicode text (lone surrogates)."""
    stack: list[tuple[Any, int]] = [(raw, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"values nest at most {MAX_DEPTH} deep")
            if isinstance(value, dict):
                for key in value:
                    _check_text(key)
                stack.extend((v, depth + 1) for v in value.values())
            else:
                stack.extend((v, depth + 1) for v in value)


def _check_text(text: str) -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "strings must be Unicode text") from None


_MsgSafeInt = Annotated[int, msgspec.Meta(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)]


class PlainAct(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The usual ``act`` (a notation, no ``action_json``), with :class:`Act`'s constraints and fields: a
    frame that fits it is decoded and checked in one C call, and handled as it is (no model built from
    it: every move comes this way). Anything else, errors included, takes the general path, which says
    what is wrong; the two agree on every frame that fits (tests pin it)."""

    type: Literal["act"]
    number: _MsgSafeInt
    action: Annotated[str, msgspec.Meta(max_length=MAX_ACTION_CHARS)]
    action_json: None = None
    id: Annotated[str, msgspec.Meta(max_length=MAX_ID_CHARS)] | _MsgSafeInt | None = None
    token: Annotated[str, msgspec.Meta(max_length=MAX_TOKEN_CHARS)] | None = None
    animation_ms: Annotated[int, msgspec.Meta(ge=0, le=MAX_ANIMATION_MS)] = 0


_PLAIN_ACT = msgspec.json.Decoder(PlainAct)


def _plain_act(text: str) -> PlainAct | None:
    """``text`` as the usual ``act``, or None when it is anything else (or not valid at all)."""
    try:
        return _PLAIN_ACT.decode(text)
    except (msgspec.DecodeError, UnicodeEncodeError):  # a ValidationError is a DecodeError
        return None  # not JSON, not this shape, or text that is not Unicode (a lone surrogate): in general


def parse_client_message(text: str) -> Hello | Act | PlainAct | Sync | Ping | Chat:
    """One client frame, parsed; total: returns a typed message or raises ProtocolError (bad_json |
    bad_message) whose text is short, whatever ``text`` is."""
    act = _plain_act(text)  # the hot path: every move
    if act is not None:
        return act
    return parse_any_message(text)


def parse_any_message(text: str) -> Hello | Act | Sync | Ping | Chat:
    """:func:`parse_client_message` without its fast path for the usual ``act``: the general parser,
    which gives every refusal its reason."""
    try:
        raw = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except ProtocolError:
        raise
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        raise ProtocolError(ErrorCode.BAD_JSON, f"not JSON: {reason}") from None
    if not isinstance(raw, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message is a JSON object with a type")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        shown = shorten(repr(kind) if isinstance(kind, str) else f"a JSON {_json_kind(kind)}", 40)
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"unknown message type {shown} (one of {', '.join(_TYPES)})"
        )
    try:
        _check_tree(raw)
    except ProtocolError as exc:
        raise ProtocolError(exc.code, exc.message, _own_id(kind, raw.get("id"))) from None
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        text = shorten(f"{shorten(where, 60)}: {first['msg']}")
        if first["loc"][1:2] == ("id",):  # (a union: its first branch's complaint alone would mislead)
            text = f"id: {ID_RULE}"
        raise ProtocolError(ErrorCode.BAD_MESSAGE, text, _own_id(kind, raw.get("id"))) from None


class _Labelled(msgspec.Struct):
    """What :func:`message_id` reads of a frame: its ``type`` and its ``id``, whatever else it holds."""

    type: Any = None
    id: Any = None


_LABELLED = msgspec.json.Decoder(_Labelled)


def message_id(text: str) -> str | int | None:
    """The ``id`` of the frame ``text``, if it is a message that carries one and it is a valid id (None
    otherwise), read without parsing the rest: for a refusal that comes before a frame is parsed (one
    past the connection's rate), so that the client knows which of its messages was refused."""
    try:
        labelled = _LABELLED.decode(text)
    except (msgspec.DecodeError, UnicodeEncodeError, RecursionError):  # (nested too deeply)
        return None
    return _own_id(labelled.type, labelled.id) if isinstance(labelled.type, str) else None


def _own_id(kind: str, value: Any) -> str | int | None:
    """The ``id`` of a refused message, if it has one and it is a valid id (else None: it is not echoed)."""
    if kind not in _WITH_ID or value is None:
        return None
    try:
        if isinstance(value, str):
            _check_text(value)
        return _ID.validate_python(value)
    except (ValidationError, ProtocolError):
        return None


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "array" if isinstance(value, list) else "object"


_ENCODER = msgspec.json.Encoder()


def _plain(value: Any) -> Any:
    if isinstance(value, msgspec.Raw):  # JSON written before (see encode_json)
        return json.loads(bytes(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset | set):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def dumps(message: dict[str, Any]) -> str:
    """A server message as compact JSON text (UTF-8 characters as they are).

    Values may be the engine's own objects: a game's view (a dataclass of JSON-like fields) is written
    directly, as its codec's JSON form (``Game.view_to_json``; tests pin the two equal for every game),
    without building that form first."""
    try:
        return _ENCODER.encode(message).decode("utf-8")
    except UnicodeEncodeError:  # text that is not Unicode (a lone surrogate): as the standard library does
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False, default=_plain)


def encode_json(value: Any) -> bytes:
    """``value`` as compact JSON, UTF-8 (ASCII with escapes if it holds text that is not Unicode), to be
    put in messages as it is (as a ``msgspec.Raw``: :func:`dumps` copies it, without writing it again)."""
    try:
        return _ENCODER.encode(value)
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"), default=_plain).encode("ascii")


_UPDATE = '{"type":"update",'


def with_ack(update: str, ack: dict[str, Any]) -> str:
    """An ``update`` frame (as :func:`dumps` wrote it) with ``"ack": ack`` added: the acknowledgement of
    the mover's action travels in the update that its action made."""
    if not update.startswith(_UPDATE):
        raise ValueError("not an update frame")
    return f'{_UPDATE}"ack":{dumps(ack)},{update[len(_UPDATE) :]}'


def error_message(
    code: str,
    message: str,
    number: int | None,
    msg_id: str | int | None = None,
    reason: dict[str, Any] | None = None,
) -> str:
    """An ``error`` frame; ``message`` is cut short and the frame is ASCII (so any text is sendable).
    ``reason`` (see :func:`reason_json`), when there is one, goes beside them."""
    body: dict[str, Any] = {
        "type": "error",
        "code": code,
        "message": shorten(message),
        "id": msg_id,
        "number": number,
    }
    if reason is not None:
        body["reason"] = reason
    return json.dumps(body, separators=(",", ":"))
