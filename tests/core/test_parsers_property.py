"""Every engine-side parser of core is total: any input gives a valid value or a typed CovenError.

Property tests over ``Option.parse`` (every option of every registered game), ``GameSpec.check_players``
and ``resolve_options``, ``Record.loads``/``from_json`` and the JSON codecs; then one plain test per
known defect, so that a regression names its exact case. Input sizes are bounded in the strategies; the
very long inputs are explicit examples.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coven.core import CovenError, InvalidOptionError, NotationError, Option, Record
from coven.core.codec import MAX_DEPTH, Codec, TaggedCodec, check_json
from coven.core.errors import SHORT_REPR, short_repr
from coven.core.spec import INT_LIMIT, GameSpec
from coven.games import game_ids, get_game

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTIONS: list[tuple[str, Option]] = [
    (game_id, option) for game_id in game_ids() for option in get_game(game_id).spec.options
]
SPECS: list[GameSpec] = [get_game(game_id).spec for game_id in game_ids()]

# ------------------------------------------------------------------------------------------ strategies
UNICODE_DIGITS = "²³¹⁴½١٢٣٤٥٦٧٨٩٠۱۲۳０１２３４５６７８９߁१२३৪੫௬౭๘໙༢၃႕០᠑᥇᧐᪁᭒᮳᱀꘡꣒꤁꧑꩒꯳𐒠𝟎𝟙𝟤𝟯𝟺🯰🯹⑴⒈①⓵❶"
"""Characters that ``str.isdigit()`` or ``int()`` take but a notation refuses: other scripts' decimal
digits, full-width and mathematical digits, superscripts, circled and parenthesised numbers."""

unicode_digits = st.sampled_from(UNICODE_DIGITS)
digit_texts = st.text(alphabet=st.one_of(unicode_digits, st.sampled_from("0123456789-+ ")), max_size=30)
number_texts = st.from_regex(r"\A[ \t]*-?[0-9]{1,30}[ \t]*\Z")
numbers = st.one_of(
    st.integers(), st.integers(min_value=-(10**60), max_value=10**60), st.sampled_from([2**63, -(2**63)])
)
json_scalars = st.one_of(
    st.none(), st.booleans(), numbers, st.floats(allow_nan=False), st.text(max_size=30), digit_texts
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
any_value = st.one_of(
    json_values,
    number_texts,
    st.floats(),  # NaN and infinities too
    st.tuples(numbers, numbers),
    st.binary(max_size=10),
    st.sets(st.integers(), max_size=3),
)


def _deep(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def _is_valid(option: Option, value: object) -> bool:
    kind = option.kind
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return (
            type(value) is int
            and (option.minimum is None or value >= option.minimum)
            and (option.maximum is None or value <= option.maximum)
            and abs(value) <= INT_LIMIT
        )
    return type(value) is str and (not option.choices or value in option.choices)


# -------------------------------------------------------------------------------------------- options
@pytest.mark.parametrize(("game_id", "option"), OPTIONS, ids=[f"{g}.{o.key}" for g, o in OPTIONS])
@SETTINGS
@given(value=st.one_of(any_value, digit_texts, number_texts, st.sampled_from(["true", "No", "0", "1"])))
def test_every_option_parses_to_a_valid_value_or_a_typed_error(
    game_id: str, option: Option, value: object
) -> None:
    try:
        parsed = option.parse(value)
    except InvalidOptionError as exc:
        assert len(str(exc)) < 200 + len(", ".join(option.choices))
        return
    assert _is_valid(option, parsed), (game_id, option.key, value, parsed)
    assert option.parse(parsed) == parsed  # a parsed value is accepted as it is


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
@SETTINGS
@given(data=st.data())
def test_resolve_options_gives_every_option_a_valid_value_or_a_typed_error(
    spec: GameSpec, data: st.DataObject
) -> None:
    keys = st.one_of(st.sampled_from([o.key for o in spec.options] or ["x"]), st.text(max_size=10))
    given = data.draw(
        st.one_of(st.dictionaries(keys, any_value, max_size=4), json_values, st.none()), label="given"
    )
    try:
        resolved = spec.resolve_options(given)
    except InvalidOptionError:
        return
    assert set(resolved) == {o.key for o in spec.options}
    for option in spec.options:
        assert _is_valid(option, resolved[option.key])


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
@SETTINGS
@given(players=st.one_of(any_value, st.integers(min_value=-3, max_value=10)))
def test_check_players_accepts_the_range_and_refuses_the_rest_with_a_typed_error(
    spec: GameSpec, players: object
) -> None:
    try:
        spec.check_players(players)
    except InvalidOptionError:
        assert not (type(players) is int and spec.min_players <= players <= spec.max_players)
        return
    assert type(players) is int and spec.min_players <= players <= spec.max_players


# -------------------------------------------------------------------------------------------- records
def _record() -> Record:
    return Record.loads(
        json.dumps(
            {
                "game": "namaste",
                "players": 2,
                "options": {},
                "seed": 7,
                "seats": ["ada", "best"],
                "moves": [[0, "roll 2"], [0, "karma"], [1, "pass"]],
            }
        )
    )


def _check_record(record: Record) -> None:
    assert isinstance(record, Record)
    assert Record.loads(record.dumps()) == record


@SETTINGS
@given(text=st.one_of(st.text(max_size=200), json_values.map(json.dumps)))
def test_record_loads_any_text_to_a_record_or_a_notation_error(text: str) -> None:
    try:
        record = Record.loads(text)
    except NotationError:
        return
    _check_record(record)


@SETTINGS
@given(data=st.data())
def test_record_from_json_with_any_field_replaced_gives_a_record_or_a_notation_error(
    data: st.DataObject,
) -> None:
    raw: dict[str, Any] = _record().to_json()
    key = data.draw(st.sampled_from([*raw, "moves.0", "moves.0.0", "moves.0.1", "seats.0", "options.x"]))
    value = data.draw(any_value, label="value")
    if "." in key:
        head, _, rest = key.partition(".")
        target: Any = raw[head]
        *path, last = rest.split(".")
        for part in path:
            target = target[int(part)]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    elif data.draw(st.booleans(), label="drop"):
        del raw[key]
    else:
        raw[key] = value
    try:
        record = Record.from_json(raw)
    except NotationError:
        return
    _check_record(record)


@SETTINGS
@given(raw=any_value)
def test_record_from_json_of_anything_gives_a_record_or_a_notation_error(raw: object) -> None:
    try:
        record = Record.from_json(raw)
    except NotationError:
        return
    _check_record(record)


# --------------------------------------------------------------------------------------------- codecs
@dataclass(frozen=True, slots=True)
class Pair:
    left: int
    right: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Flag:
    on: bool


CODEC: Codec[Pair] = Codec(Pair)
TAGGED: TaggedCodec[Pair | Flag] = TaggedCodec([Pair, Flag])


@SETTINGS
@given(raw=st.one_of(any_value, st.fixed_dictionaries({"left": any_value, "right": any_value})))
def test_a_codec_decodes_anything_to_its_type_or_a_notation_error(raw: object) -> None:
    try:
        value = CODEC.from_json(raw)
    except NotationError as exc:
        assert len(str(exc)) < 200
        return
    assert isinstance(value, Pair)
    assert CODEC.from_json(CODEC.to_json(value)) == value


@SETTINGS
@given(
    raw=st.one_of(
        any_value,
        st.fixed_dictionaries({"type": st.sampled_from(["Pair", "Flag", "pair"]), "left": any_value}),
        st.fixed_dictionaries({"type": st.sampled_from(["Flag"]), "on": any_value}),
    )
)
def test_a_tagged_codec_decodes_anything_to_a_member_or_a_notation_error(raw: object) -> None:
    try:
        value = TAGGED.from_json(raw)
    except NotationError:
        return
    assert isinstance(value, Pair | Flag)
    assert TAGGED.from_json(TAGGED.to_json(value)) == value


@pytest.mark.parametrize("game_id", game_ids())
@SETTINGS
@given(raw=st.one_of(any_value, st.dictionaries(st.sampled_from(["seat", "players", "turn"]), any_value)))
def test_view_from_json_of_anything_gives_a_view_or_a_notation_error(game_id: str, raw: object) -> None:
    game = get_game(game_id)
    try:
        game.view_from_json(raw)
    except NotationError:
        return


# ------------------------------------------------------------------------------ known defects, by name
INT_OPTION = get_game("amulets").spec.option_index["question_cap"]
BOOL_OPTION = get_game("brujas").spec.option_index["conflict"]
CHOICE_OPTION = get_game("commandments").spec.option_index["judge"]


@pytest.mark.parametrize(
    "text",
    ["²", "³", "1²", "١٤", "۱۲", "１２", "𝟙", "①", "--3", "-", "+3", "3-", "1 2", "0x1", "1_000", "1e3", "٣"],
)
def test_integer_options_take_ascii_digits_only(text: str) -> None:
    """Before: "²" passed ``isdigit()`` and ``int()`` raised a plain ValueError (an HTTP 500), "--3"
    likewise; "١٤" and "１２" were silently read as 14 and 12."""
    with pytest.raises(InvalidOptionError, match="digits 0-9"):
        INT_OPTION.parse(text)


def test_integer_options_accept_plain_numbers_with_spaces_and_a_sign() -> None:
    assert INT_OPTION.parse(" 12 ") == 12
    assert INT_OPTION.parse("007") == 7
    assert INT_OPTION.parse("-0") == 0
    with pytest.raises(InvalidOptionError, match="at least 0"):
        INT_OPTION.parse("-5")


@pytest.mark.parametrize("text", ["9" * 5000, "1" * 21, "0" * 100 + "1", "9" * 10**6], ids=short_repr)
def test_integer_options_refuse_long_texts_with_a_reason(text: str) -> None:
    """Before: 5000 digits raised Python's int-from-string limit as a plain ValueError."""
    with pytest.raises(InvalidOptionError, match="at most 20 characters") as caught:
        INT_OPTION.parse(text)
    assert len(str(caught.value)) < 120


@pytest.mark.parametrize("number", [10**5000, -(10**5000), 61, -1, 10**19], ids=short_repr)
def test_integer_options_refuse_out_of_range_numbers_without_printing_them(number: int) -> None:
    """Before: 10**5000 raised ValueError while the error message printed it."""
    with pytest.raises(InvalidOptionError) as caught:
        INT_OPTION.parse(number)
    assert len(str(caught.value)) < 120


def test_an_integer_option_without_bounds_is_still_bounded() -> None:
    free = Option("count", 0, "a count")
    assert free.parse(10**18) == 10**18
    assert free.parse("-999999999999999999") == -999999999999999999
    with pytest.raises(InvalidOptionError, match="10\\*\\*18"):
        free.parse(10**18 + 1)
    with pytest.raises(InvalidOptionError, match="10\\*\\*18"):
        free.parse("9999999999999999999")


@pytest.mark.parametrize("option", [INT_OPTION, BOOL_OPTION, CHOICE_OPTION], ids=["int", "bool", "choice"])
@pytest.mark.parametrize(
    "value",
    [1.5, 3.0, float("nan"), float("inf"), None, [1], [[[[[1]]]]], {"a": 1}, b"1", {1}, "x" * 10**6],
    ids=["float", "whole-float", "nan", "inf", "none", "list", "nested", "dict", "bytes", "set", "megabyte"],
)
def test_options_of_the_wrong_type_get_a_short_typed_error(option: Option, value: object) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        option.parse(value)
    assert len(str(caught.value)) < 150


def test_options_quote_at_most_a_short_repr_of_a_deeply_nested_value() -> None:
    with pytest.raises(InvalidOptionError) as caught:
        INT_OPTION.parse(_deep(100_000))
    assert len(str(caught.value)) < 120


@pytest.mark.parametrize(
    "players", [10**5000, -(10**5000), "4", 4.0, True, None, [4], "٤", 2, 6], ids=short_repr
)
def test_check_players_refuses_odd_inputs_with_a_typed_error(players: object) -> None:
    """Before: a number of 5000 digits raised ValueError while its message printed it."""
    with pytest.raises(InvalidOptionError) as caught:
        get_game("amulets").spec.check_players(players)
    assert len(str(caught.value)) < 120


@pytest.mark.parametrize("given", [[("question_cap", 3)], "question_cap=3", 3, {1: 2}, {("a",): 1}])
def test_resolve_options_refuses_what_is_not_a_mapping_of_names(given: Any) -> None:
    """Before: a list or a text raised AttributeError (no ``.items``)."""
    with pytest.raises(InvalidOptionError):
        get_game("amulets").spec.resolve_options(given)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"game":"namaste","players":2,"seed":' + "9" * 5000 + ',"moves":[]}', "4300 digits"),
        ('{"game":"namaste","players":2,"seed":1,"moves":[[Infinity,"pass"]]}', "Infinity"),
        ('{"game":"namaste","players":NaN,"seed":1,"moves":[]}', "NaN"),
        ('{"game":"namaste","players":2,"seed":1,"moves":["12"]}', "pair"),
        ('{"game":"namaste","players":2,"seed":1,"moves":[[1.5,"pass"]]}', "whole number"),
        ('{"game":"namaste","players":2,"seed":1,"moves":[[0,["pass"]]]}', "notation text"),
        ('{"game":"namaste","players":2,"seed":1,"moves":[[2,"pass"]]}', "0 to 1"),
        ('{"game":"namaste","players":2,"seed":1,"moves":[[0,"pass",1]]}', "pair"),
        ('{"game":"namaste","players":2,"seed":1,"moves":{"0":"pass"}}', "list"),
        ('{"game":"namaste","players":2,"seed":1,"moves":[],"seats":"ab"}', "list of names"),
        ('{"game":"namaste","players":2,"seed":1,"moves":[],"options":{"x":1.5}}', "option 'x'"),
        ('{"game":"namaste","players":2,"seed":1,"moves":[],"options":[]}', "options"),
        ('{"game":"namaste","players":true,"seed":1,"moves":[]}', "whole number"),
        ('{"game":"namaste","players":"2","seed":1,"moves":[]}', "whole number"),
        ('{"game":"namaste","players":2,"seed":' + "9" * 100 + ',"moves":[]}', "seed"),
        ('{"game":7,"players":2,"seed":1,"moves":[]}', "game id"),
        ('{"players":2,"seed":1}', "no game, moves"),
        ("[1, 2]", "JSON object"),
        ("\udcff", "JSON"),
        ("", "JSON"),
    ],
    ids=short_repr,
)
def test_malformed_records_get_a_notation_error(text: str, message: str) -> None:
    """Before: deep nesting raised RecursionError, 5000 digits a ValueError, Infinity an OverflowError;
    a move "12" was read as seat 1 playing "2", a seat 1.5 as seat 1."""
    with pytest.raises(NotationError, match=message):
        Record.loads(text)


def test_records_load_from_bytes_and_refuse_bad_utf8() -> None:
    good = _record()
    assert Record.loads(good.dumps().encode()) == good
    with pytest.raises(NotationError):
        Record.loads(b"\xff\xfe{")
    with pytest.raises(NotationError):
        Record.loads(None)  # type: ignore[arg-type]


def test_a_loaded_record_round_trips() -> None:
    _check_record(_record())


@pytest.mark.parametrize(
    "raw",
    [
        _deep(100_000),
        {"left": _deep(100_000)},
        {"left": 10**5000},
        {"left": "9" * 5000},
        {"left": 2**63},
        {"left": 1, "right": ["a"] * 3 + [_deep(MAX_DEPTH + 1)]},
        {"left": 1, 2: 3},
        {"left": b"1"},
        {"left": object()},
        {"left": 1.5},
        None,
    ],
    ids=[
        "deep",
        "deep-field",
        "huge-int",
        "digits",
        "int64",
        "deep-item",
        "int-key",
        "bytes",
        "object",
        "float",
        "none",
    ],
)
def test_codecs_refuse_bad_json_with_a_short_notation_error(raw: object) -> None:
    """Before: a 5000-digit whole number went through pydantic into the value (and crashed later)."""
    with pytest.raises(NotationError) as caught:
        CODEC.from_json(raw)
    assert len(str(caught.value)) < 150
    tagged = {"type": "Pair", "left": raw} if not isinstance(raw, dict) else {"type": "Pair", **raw}
    with pytest.raises(NotationError):
        TAGGED.from_json(tagged)


def test_tagged_codec_errors_quote_a_short_repr() -> None:
    with pytest.raises(NotationError) as caught:
        TAGGED.from_json({"type": "x" * 10**6})
    assert len(str(caught.value)) < 150
    with pytest.raises(NotationError) as caught:
        TAGGED.from_json(["x" * 10**6])
    assert len(str(caught.value)) < 150


def test_check_json_is_iterative_and_bounded() -> None:
    check_json(_deep(MAX_DEPTH - 1))
    check_json({"a": [1, 2.5, None, True, "x", -(2**63) + 1]})
    with pytest.raises(NotationError, match="deep"):
        check_json(_deep(MAX_DEPTH + 1))


@pytest.mark.parametrize(
    "value",
    [10**5000, "x" * 10**6, _deep(100_000), b"x" * 10**6, list(range(10**5)), {"k" * 10**5: 1}],
    ids=short_repr,
)
def test_short_repr_is_short_and_never_raises(value: object) -> None:
    assert len(short_repr(value)) <= SHORT_REPR


@SETTINGS
@given(value=any_value)
def test_short_repr_is_short_on_anything(value: object) -> None:
    assert len(short_repr(value)) <= SHORT_REPR


def test_covenerrors_are_value_errors_with_codes() -> None:
    for error in (InvalidOptionError("x"), NotationError("x")):
        assert isinstance(error, CovenError)
        assert isinstance(error, ValueError)
    assert NotationError.code == "bad_notation"
    assert InvalidOptionError.code == "invalid_option"


# ------------------------------------------------------------ custom cards (The 3 Commandments' option)
# The option holds JSON cards whose expressions are in a small language; the language's own bounds and
# their messages are tested in tests/games/commandments/test_card_language_bounds.py. Here: whatever a
# table's creator sends, creating the table gives a game or an InvalidOptionError, never another error.
COMMANDMENTS = get_game("commandments")
card_exprs = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "to == from",
            "count(to)",
            "sum(count(area))",
            "sum(" * 8 + "count(area)" + ")" * 8,
            "(" * 200 + "1",
            "not " * 80 + "out",
            "9" * 500,
            "count(to) > ١٢",
            "silent",
            'mentions("x")',
        ]
    ),
    json_values,
)
custom_card = st.fixed_dictionaries(
    {
        "id": st.one_of(st.sampled_from(["Z1", "A01", "z", "1X", "Z" * 17]), json_values),
        "type": st.one_of(st.sampled_from(["artefact", "action"]), json_values),
        "value": st.one_of(st.sampled_from([1, 9, 10, "?", 0, True]), json_values),
        "en": st.one_of(st.sampled_from(["a card", "", "x" * 201]), json_values),
        "expr": card_exprs,
    },
    optional={"fr": json_values, "extra": json_values},
)


@SETTINGS
@given(
    text=st.one_of(
        st.lists(custom_card, max_size=3).map(json.dumps),
        json_values.map(json.dumps),
        st.text(max_size=60),
    )
)
def test_custom_cards_give_a_game_or_an_invalid_option_error(text: str) -> None:
    try:
        state = COMMANDMENTS.new_game(3, {"custom_cards": text}, 1)
    except InvalidOptionError as exc:
        assert len(str(exc)) < 300
        return
    assert state is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 40_000 + "]" * 40_000, "nests too deeply"),
        ("[" + "9" * 5000 + "]", "JSON"),
        ("[NaN]", "must be an object"),
        ("x" * 10**6, "at most"),
        (
            '[{"id": "Z1", "type": "artefact", "value": "?", "en": "x", "expr": "'
            + "sum(" * 8
            + "1"
            + ")" * 8
            + '"}]',
            "nest",
        ),
    ],
    ids=short_repr,
)
def test_malformed_custom_cards_get_an_invalid_option_error(text: str, message: str) -> None:
    """Before: deep JSON raised RecursionError and 5000 digits a plain ValueError; a card nesting
    eight counting functions was accepted and took about a minute to judge on each move."""
    with pytest.raises(InvalidOptionError, match=message):
        COMMANDMENTS.new_game(3, {"custom_cards": text}, 1)
