"""The websocket parser is total: any text gives a typed message or a short ProtocolError, nothing else."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from coven.server.messages import (
    ID_RULE,
    MAX_DEPTH,
    MAX_ERROR_TEXT,
    MAX_ID_CHARS,
    MAX_SAFE_INTEGER,
    Act,
    Chat,
    ErrorCode,
    Hello,
    Ping,
    PlainAct,
    ProtocolError,
    Sync,
    _plain_act,
    error_message,
    parse_any_message,
    parse_client_message,
)

CHECK = settings(
    max_examples=300,
    deadline=None,  # no wall clock in tests
    database=None,  # nothing written to the working tree
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

VALID: list[dict[str, Any]] = [
    {"type": "hello", "protocol": 1, "token": "S8j0abc", "last": None},
    {"type": "hello", "token": None, "last": 3},
    {"type": "act", "number": 0, "action": "2", "id": 1, "token": "S8j0abc"},
    {"type": "act", "number": 4, "action_json": {"type": "Play", "card": 2}, "id": "m-1"},
    {"type": "sync", "last": 7},
    {"type": "sync", "last": None},
    {"type": "ping", "id": "abc"},
    {"type": "ping"},
    {"type": "chat", "text": "good luck", "id": "c1"},
    {"type": "chat", "text": "x", "id": 7},
    {"type": "chat", "text": "hello"},
]

ODD_NUMBERS = [
    "1e400",
    "-1e400",
    "9" * 10_000,
    "-" + "9" * 5_000,
    str(2**53),
    str(2**63),
    "NaN",
    "Infinity",
    "-Infinity",
    "0.5",
    "1E5",
    '"²"',
    '"١٢"',
    '"12"',
    "true",
    "[]",
    "{}",
    "[" * 5_000 + "]" * 5_000,
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=6)  # ², ١٢, ...
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=40,
)
field_names = st.sampled_from(
    ["type", "protocol", "token", "last", "number", "action", "action_json", "id", "text"]
)


def check(text: str) -> None:
    """The contract of the parser, for any ``text``; and its fast path for the usual ``act`` agrees with
    the general parser on it (accepts exactly what the general one accepts, as the same message)."""
    try:
        expected = parse_any_message(text)
    except ProtocolError as exc:
        assert exc.code in {ErrorCode.BAD_JSON, ErrorCode.BAD_MESSAGE}
        assert len(exc.message) <= MAX_ERROR_TEXT
        assert "\n" not in exc.message
        frame = json.loads(error_message(exc.code, exc.message, None, exc.msg_id))
        assert frame["code"] == exc.code
        # the refused message's own id comes back only where it is a valid one
        given = frame["id"]
        assert (
            given is None
            or (type(given) is int and abs(given) <= MAX_SAFE_INTEGER)
            or (type(given) is str and len(given) <= MAX_ID_CHARS and given.encode("utf-8"))
        )
        assert _plain_act(text) is None
        try:
            parse_client_message(text)
        except ProtocolError as again:
            assert (again.code, again.message, again.msg_id) == (exc.code, exc.message, exc.msg_id)
        else:
            raise AssertionError(f"the fast path accepted {text[:60]!r}")
        return
    message = parse_client_message(text)
    if isinstance(message, PlainAct):  # the fast path: the same message, field by field
        assert isinstance(expected, Act) and msgspec.structs.asdict(message) == expected.model_dump()
        message = expected
    assert message == expected and message.model_dump() == expected.model_dump()
    assert isinstance(message, Hello | Act | Sync | Ping | Chat)
    for name in ("protocol", "last", "number"):
        value = getattr(message, name, None)
        assert value is None or (type(value) is int and abs(value) <= MAX_SAFE_INTEGER)
    # a parsed message says the same thing once written out again
    again = parse_client_message(json.dumps(message.model_dump()))
    assert (msgspec.structs.asdict(again) if isinstance(again, PlainAct) else again.model_dump()) == (
        message.model_dump()
    )


@CHECK
@given(st.text())
@example("")
@example('{"type": [1]}')
@example('{"type": {"a": 1}}')
@example('{"type": null}')
@example("[1, 2]")
@example('"\\ud800"')
@example('{"type": "ping", "id": "\\udfff"}')
@example('{"type": "act", "number": 0, "action_json": {"\\ud800": 1}}')
@example("\x00")
@example("\ufeff{}")
def test_any_text(text: str) -> None:
    check(text)


@CHECK
@given(json_values)
def test_any_json_value(value: Any) -> None:
    check(json.dumps(value))  # NaN and Infinity come out as the non-JSON literals: refused too


@CHECK
@given(st.sampled_from(VALID), field_names, json_values)
def test_a_valid_message_with_one_field_replaced(base: dict[str, Any], name: str, value: Any) -> None:
    check(json.dumps({**base, name: value}))


@CHECK
@given(st.sampled_from(VALID), field_names, st.sampled_from(ODD_NUMBERS))
def test_a_valid_message_with_an_odd_literal(base: dict[str, Any], name: str, literal: str) -> None:
    head = json.dumps({k: v for k, v in base.items() if k != name})
    check(head[:-1] + (", " if len(head) > 2 else "") + f'"{name}": {literal}' + "}")


@CHECK
@given(st.sampled_from(VALID), st.data())
def test_a_valid_message_cut_dropped_or_widened(base: dict[str, Any], data: st.DataObject) -> None:
    text = json.dumps(base, ensure_ascii=data.draw(st.booleans()))
    cut = data.draw(st.integers(min_value=0, max_value=len(text)))
    check(text[:cut])
    dropped = data.draw(st.sampled_from(sorted(base)))
    check(json.dumps({k: v for k, v in base.items() if k != dropped}))
    check(json.dumps({**base, data.draw(st.text(max_size=12)): data.draw(json_values)}))
    position = data.draw(st.integers(min_value=0, max_value=len(text)))
    check(text[:position] + data.draw(st.text(max_size=4)) + text[position:])


def test_valid_messages_parse() -> None:
    for raw in VALID:
        assert parse_client_message(json.dumps(raw)).type == raw["type"]


def test_the_usual_act_takes_the_fast_path() -> None:
    for text in (
        '{"type":"act","number":3,"action":"play 7R","id":12}',
        '{"type": "act", "action": "ask 1 2", "number": 0, "id": "m-1", "token": "S8", "animation_ms": 4}',
    ):
        fast, general = _plain_act(text), parse_any_message(text)
        assert fast is not None and isinstance(general, Act)
        assert msgspec.structs.asdict(fast) == general.model_dump()  # the same message, field by field
        assert fast.action_json is None and isinstance(fast.number, int)
    for text in (
        '{"type":"act","number":3,"action_json":{"type":"Play"}}',  # the JSON form: the general path
        '{"type":"act","number":3,"action":"x","extra":1}',
        '{"type":"act","number":3,"action":"x","animation_ms":5001}',
        '{"type":"act","number":true,"action":"x"}',
        '{"type":"hello","protocol":1}',
    ):
        assert _plain_act(text) is None


def test_each_odd_input_gets_its_typed_error() -> None:
    def code(text: str) -> str:
        try:
            parse_client_message(text)
        except ProtocolError as exc:
            return exc.code
        raise AssertionError(f"accepted {text[:60]!r}")

    assert code('{"type": ["hello"]}') == "bad_message"  # was TypeError: unhashable type: 'list'
    assert code('{"type": "act", "number": 1e400, "action": "1"}') == "bad_message"
    assert code('{"type": "act", "number": ' + "9" * 10_000 + ', "action": "1"}') == "bad_message"
    assert code('{"type": "sync", "last": ' + "9" * 30 + "}") == "bad_message"  # was accepted
    assert code('{"type": "sync", "last": ' + str(2**53) + "}") == "bad_message"
    assert code('{"type": "sync", "last": "3"}') == "bad_message"
    assert code('{"type": "sync", "last": true}') == "bad_message"
    assert code('{"type": "ping", "id": NaN}') == "bad_json"
    assert code("[" * 100_000) == "bad_json"
    nested = '{"type": "act", "number": 0, "action_json": ' + "[" * 40 + "]" * 40 + "}"
    assert code(nested) == "bad_message"
    assert code('{"type": "act", "number": 0, "action": "\\ud800"}') == "bad_message"
    huge = "x" * 1_000_000
    try:
        parse_client_message(json.dumps({"type": huge}))
    except ProtocolError as exc:
        assert exc.code == "bad_message" and len(exc.message) <= MAX_ERROR_TEXT


@pytest.mark.parametrize("odd", [str(2**53), "1.5", "true", "[1]", json.dumps("x" * 65)])
@pytest.mark.parametrize("kind", ['"type": "ping"', '"type": "act", "number": 1, "action": "x"'])
def test_an_odd_message_id_is_refused_for_what_an_id_may_be(kind: str, odd: str) -> None:
    # (the id is text or a whole number: pydantic's complaint about the text branch alone, "Input should be
    # a valid string" for 2**53, misled)
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(f'{{{kind}, "id": {odd}}}')
    assert refused.value.code == "bad_message"
    assert refused.value.message == f"id: {ID_RULE}"
    assert "64 characters" in ID_RULE and str(2**53 - 1) in ID_RULE


def test_a_refused_act_or_chat_still_says_which_it_was() -> None:
    """Refused for another field, an ``act``, ``chat`` or ``ping`` gets its own ``id`` back (when that id is
    valid itself), so that the client knows which of its messages was refused."""

    def refused(raw: str) -> tuple[str, str | int | None]:
        try:
            parse_client_message(raw)
        except ProtocolError as exc:
            return exc.code, exc.msg_id
        raise AssertionError(f"accepted {raw[:60]!r}")

    assert refused(json.dumps({"type": "chat", "text": "x" * 501, "id": "c1"})) == ("bad_message", "c1")
    assert refused(json.dumps({"type": "chat", "text": "", "id": 2})) == ("bad_message", 2)
    assert refused('{"type": "chat", "text": "\\ud800", "id": "c3"}') == ("bad_message", "c3")
    assert refused('{"type": "chat", "text": "hi", "id": "c4", "extra": 1}') == ("bad_message", "c4")
    assert refused('{"type": "act", "number": "3", "action": "x", "id": "m5"}') == ("bad_message", "m5")
    assert refused('{"type": "act", "number": 3, "id": 6}') == ("bad_message", 6)
    assert refused('{"type": "ping", "id": "p7", "x": 0}') == ("bad_message", "p7")
    # an id that is itself wrong is not echoed; nor that of a message that has no id
    assert refused(json.dumps({"type": "chat", "text": "hi", "id": "c" * 65})) == ("bad_message", None)
    assert refused('{"type": "chat", "text": "hi", "id": "\\ud800"}') == ("bad_message", None)
    assert refused('{"type": "chat", "text": "hi", "id": true}') == ("bad_message", None)
    assert refused('{"type": "chat", "text": "hi", "id": 9007199254740992}') == ("bad_message", None)
    assert refused('{"type": "sync", "last": "1", "id": 8}') == ("bad_message", None)
    assert refused('{"type": "chat", "text": "hi", "id": NaN}') == ("bad_json", None)


def test_text_that_is_not_unicode_is_refused_by_the_general_path() -> None:
    # a lone surrogate, as a JSON escape and as a character of the frame's own text (the fuzzer's case)
    for text in (
        '{"type":"act","number":3,"action":"\\ud800"}',
        '{"type":"act","number":3,"action":"\ud800"}',
    ):
        assert _plain_act(text) is None
        try:
            parse_client_message(text)
        except ProtocolError as exc:
            assert exc.code in {ErrorCode.BAD_JSON, ErrorCode.BAD_MESSAGE}
        else:
            raise AssertionError("accepted text that is not Unicode")
