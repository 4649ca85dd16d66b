"""Every game's notation parsers are total: any text or JSON gives an action that round-trips, or a
NotationError -- never another exception. A text that is no action is refused in words of no language (a
refusal's key and params, :mod:`coven.core.refusals`), so each front end says it in the person's own.

The inputs are arbitrary text and JSON, and mutations of real notations: legal actions (and positions,
sheets, dice) taken from random play, with characters replaced by other scripts' digits, inserted,
truncated and duplicated. Known defects then each have a plain test, so a regression names its case.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coven.core import Game, NotationError
from coven.core.errors import short_repr
from coven.core.texts import Message
from coven.games import game_ids, get_game
from coven.games.brujas.notation import format_position, parse_position
from coven.games.namaste.notation import dice_text, parse_dice
from coven.games.namaste.sheet import MAX_VALUE, NCELLS, format_sheet, parse_sheet

AnyGame = Game[Any, Any, Any]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

UNICODE_DIGITS = "²³¹½١٤٣۱۲０１２５𝟙𝟤①⑴⒈❶४৪੫௬๘០᠑߁"
"""Characters ``str.isdigit()`` or ``int()`` take that no notation may: other scripts' decimal digits,
full-width and mathematical digits, superscripts, circled and parenthesised numbers."""
OPTIONS: dict[str, list[dict[str, object]]] = {
    "brujas": [{}, {"silent": True}],
    "commandments": [{"judge": "priestess"}, {}],
    "namaste": [{}],
    "amulets": [{}],
}


# ------------------------------------------------------------------------------------------ real play
@cache
def samples(game_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Formatted legal actions and JSON forms (as text) from random positions of random play."""
    game = get_game(game_id)
    texts: list[str] = []
    jsons: list[str] = []
    rng = random.Random(game_id)
    for options in OPTIONS[game_id]:
        for players in (game.spec.min_players, game.spec.max_players):
            state = game.new_game(players, options, rng.randrange(1000))
            for _ in range(80):
                actors = sorted(game.to_act(state) | game.may_act(state))
                if not actors:
                    break
                for seat in actors:
                    legal = game.legal_actions(state, seat)
                    for _ in range(min(len(legal), 2)):
                        action = legal[rng.randrange(len(legal))]
                        texts.append(game.format_action(action))
                        jsons.append(json.dumps(game.action_to_json(action)))
                seat = rng.choice(sorted(game.to_act(state)))
                legal = game.legal_actions(state, seat)
                game.apply(state, seat, legal[rng.randrange(len(legal))])
    return tuple(dict.fromkeys(texts)), tuple(dict.fromkeys(jsons))


@cache
def brujas_positions() -> tuple[str, ...]:
    game = get_game("brujas")
    rng = random.Random(5)
    out: list[str] = []
    for players, options in ((3, {}), (4, {"silent": True}), (5, {})):
        state = game.new_game(players, options, rng.randrange(1000))
        while game.to_act(state):
            out.append(format_position(state))
            (seat,) = game.to_act(state)
            legal = game.legal_actions(state, seat)
            game.apply(state, seat, legal[rng.randrange(len(legal))])
        out.append(format_position(state))
    return tuple(rng.sample(out, 60))


@cache
def namaste_sheets_and_dice() -> tuple[tuple[str, ...], tuple[str, ...]]:
    game = get_game("namaste")
    rng = random.Random(6)
    state = game.new_game(3, {}, 6)
    sheets: list[str] = []
    dice: list[str] = []
    while game.to_act(state):
        if state.white:
            dice.append(dice_text(state.white, state.turquoise))
        sheets.extend(format_sheet(sheet) for sheet in state.sheets)
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        game.apply(state, seat, legal[rng.randrange(len(legal))])
    return tuple(dict.fromkeys(sheets)), tuple(dict.fromkeys(dice))


# ----------------------------------------------------------------------------------------- strategies
odd_chars = st.one_of(
    st.sampled_from(UNICODE_DIGITS),
    st.sampled_from("0123456789 @>,/+-.\"'=xX"),
    st.characters(codec="utf-8"),
)


@st.composite
def mutated(draw: st.DrawFn, pool: st.SearchStrategy[str]) -> str:
    """A real notation with one to three edits: a character replaced (by another script's digit, say),
    a character inserted or deleted, the text truncated, or a piece of it repeated."""
    text = draw(pool)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["replace", "digit", "insert", "delete", "truncate", "duplicate"]))
        i = draw(st.integers(0, len(text)))
        if kind == "digit" and any(c.isdigit() for c in text):
            j = draw(st.sampled_from([k for k, c in enumerate(text) if c.isdigit()]))
            text = text[:j] + draw(st.sampled_from(UNICODE_DIGITS)) + text[j + 1 :]
        elif kind == "replace" and i < len(text):
            text = text[:i] + draw(odd_chars) + text[i + 1 :]
        elif kind == "insert":
            text = text[:i] + draw(st.text(odd_chars, min_size=1, max_size=3)) + text[i:]
        elif kind == "delete" and i < len(text):
            text = text[:i] + text[i + 1 :]
        elif kind == "truncate":
            text = text[:i]
        else:
            j = draw(st.integers(i, len(text)))
            text = text[:i] + text[i:j] * draw(st.integers(2, 4)) + text[j:]
    return text


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(min_value=-(10**40), max_value=10**40),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=12),
        st.text(st.sampled_from(UNICODE_DIGITS + "0123456789"), max_size=6),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=16,
)


@st.composite
def mutated_json(draw: st.DrawFn, game_id: str) -> object:
    """A real action's JSON with one field (or its type) replaced by an arbitrary JSON value."""
    raw: dict[str, Any] = json.loads(draw(st.sampled_from(samples(game_id)[1])))
    key = draw(st.sampled_from([*raw, "extra"]))
    if key == "type" and draw(st.booleans()):
        raw["type"] = draw(st.sampled_from(["Roll", "Write", "Play", "Take", "Ask", "Cast", "Move", "Judge"]))
    elif isinstance(raw.get(key), list) and raw[key] and draw(st.booleans()):
        raw[key][draw(st.integers(0, len(raw[key]) - 1))] = draw(json_values)
    else:
        raw[key] = draw(json_values)
    return raw


def _non_ascii_digit(text: str, game_id: str) -> bool:
    if game_id == "commandments":  # free words in double quotes may say anything printable
        text = re.sub(r'"[^"]*"', " ", text)
    return any(not c.isascii() and (c.isdigit() or c.isnumeric()) for c in text)


def check_text(game: AnyGame, text: str) -> None:
    try:
        action = game.parse_action(text)
    except NotationError as exc:
        said(game, exc)
        return
    assert not _non_ascii_digit(text, game.spec.id), (text, action)
    assert isinstance(action, game.action_classes)
    hash(action)
    again = game.format_action(action)
    assert game.parse_action(again) == action, (text, again)
    assert game.action_from_json(game.action_to_json(action)) == action


def said(game: AnyGame, exc: NotationError) -> None:
    """``exc`` refuses a typed text with one of the game's declared refusals (its key and params)."""
    reason = exc.reason
    assert isinstance(reason, Message), f"{game.spec.id}: {str(exc)!r} is said in English only"
    assert reason.key in game.refusals.templates, reason.key


def check_json(game: AnyGame, raw: object) -> None:
    try:
        action = game.action_from_json(raw)
    except NotationError as exc:
        assert len(str(exc)) < 300
        return
    assert isinstance(action, game.action_classes)
    assert game.parse_action(game.format_action(action)) == action
    assert game.action_from_json(game.action_to_json(action)) == action


GAMES = game_ids()


# ------------------------------------------------------------------------------------ action notation
@pytest.mark.parametrize("game_id", GAMES)
def test_real_notations_round_trip(game_id: str) -> None:
    game = get_game(game_id)
    texts, jsons = samples(game_id)
    assert len(texts) > 20
    for text in texts:
        assert game.format_action(game.parse_action(text)) == text
    for raw in jsons:
        action = game.action_from_json(json.loads(raw))
        assert json.loads(json.dumps(game.action_to_json(action))) == json.loads(raw)


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_mutated_notations_parse_to_a_round_tripping_action_or_a_notation_error(
    game_id: str, data: st.DataObject
) -> None:
    pool = st.sampled_from(samples(game_id)[0])
    check_text(get_game(game_id), data.draw(mutated(pool), label="text"))


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(text=st.one_of(st.text(max_size=40), st.text(odd_chars, max_size=20)))
def test_arbitrary_text_parses_to_a_round_tripping_action_or_a_notation_error(
    game_id: str, text: str
) -> None:
    check_text(get_game(game_id), text)


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_action_from_json_gives_a_round_tripping_action_or_a_notation_error(
    game_id: str, data: st.DataObject
) -> None:
    raw = data.draw(st.one_of(mutated_json(game_id), json_values), label="raw")
    check_json(get_game(game_id), raw)


# ------------------------------------------------------------------------------------ position notation
@SETTINGS
@given(data=st.data())
def test_brujas_positions_parse_to_a_stable_position_or_a_notation_error(data: st.DataObject) -> None:
    text = data.draw(st.one_of(mutated(st.sampled_from(brujas_positions())), st.text(max_size=40)))
    try:
        state = parse_position(text)
    except NotationError:
        assert True
        return
    assert not _non_ascii_digit(text, "brujas")
    again = format_position(state)
    assert format_position(parse_position(again)) == again


@SETTINGS
@given(data=st.data())
def test_namaste_sheets_and_dice_parse_to_valid_values_or_a_notation_error(data: st.DataObject) -> None:
    sheets, dice = namaste_sheets_and_dice()
    text = data.draw(st.one_of(mutated(st.sampled_from(sheets)), st.text(max_size=30)))
    try:
        sheet = parse_sheet(text)
    except NotationError:
        pass
    else:
        assert len(sheet) == NCELLS and all(0 <= v <= MAX_VALUE for v in sheet)
        assert parse_sheet(format_sheet(sheet)) == sheet
    text = data.draw(st.one_of(mutated(st.sampled_from(dice)), st.text(max_size=12)))
    try:
        white, turquoise = parse_dice(text)
    except NotationError:
        return
    assert parse_dice(dice_text(white, turquoise)) == (white, turquoise)


# ----------------------------------------------------------------------------- known defects, by name
LONG = "9" * 5000


@pytest.mark.parametrize(
    ("game_id", "text"),
    [
        ("namaste", "١٤@c3"),  # was Write(14, c3): int() reads Arabic-Indic digits
        ("namaste", "１４@c3"),  # full-width digits, likewise
        ("namaste", "²@c3"),  # was ValueError: isdigit() is True, int() refuses
        ("namaste", "1²@c3"),
        ("namaste", "roll ²"),
        ("namaste", "roll ３"),
        ("namaste", LONG + "@c3"),  # was ValueError: Python's 4300-digit limit
        ("namaste", "14@c" + LONG),
        ("namaste", "14@c٣"),
        ("commandments", "judge ²"),  # was ValueError
        ("commandments", "judge 1,٣"),  # was Judge((1, 3))
        ("commandments", "judge " + LONG),  # was ValueError
        ("commandments", "judge " + ",".join(["1"] * 5000) + ",²"),
        ("commandments", "bk3>C ²s"),  # was ValueError
        ("commandments", "bk3>C ١٢s"),  # was a move of 12 seconds
        ("commandments", "bk3>C " + LONG + "s"),  # was ValueError
        ("commandments", '"oh great one"'),  # was IndexError: free words and nothing else
        ("commandments", '""'),
        ("commandments", "bk٣>C"),
        ("commandments", "bk3>H٢"),
        ("commandments", "bk3>" + ">".join(["C", "R"] * 2500)),
        ("commandments", "ordain discard=P٠5 taboo=A01"),
        ("commandments", "ordain discard=" + "P" * 5000 + " taboo=A01"),
        ("commandments", "place wh=C,C,H١,T2,R bk=C,C,C,C,C br=C,C,C,C,C"),
        ("brujas", "R³"),
        ("brujas", "R٣"),
        ("brujas", "xR３"),
        ("brujas", "take G²"),
        ("brujas", "R" + LONG),
        ("brujas", "x" * 5000),
        ("amulets", "ask RA1 YB3 GC2 BD4 KE٥"),
        ("amulets", "cast A1 B2 C3 D4 E²"),
        ("amulets", "ask A١ B2 C3 D4 E5"),
        ("amulets", "ask " + " ".join(["RA1"] * 5000)),
        ("amulets", "ask RA" + LONG),
    ],
    ids=short_repr,
)
def test_bad_notations_get_a_notation_error(game_id: str, text: str) -> None:
    with pytest.raises(NotationError) as caught:
        get_game(game_id).parse_action(text)
    assert len(str(caught.value)) < 300
    said(get_game(game_id), caught.value)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("text", [None, 14, b"pass", ["pass"]], ids=short_repr)
def test_non_text_notations_get_a_notation_error(game_id: str, text: object) -> None:
    """Before: Namaste called ``.strip()`` on whatever it was given (AttributeError)."""
    with pytest.raises(NotationError):
        get_game(game_id).parse_action(text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game_id", "raw"),
    [
        ("namaste", {"type": "Roll", "white": 10**5000}),  # was Roll(10**5000); formatting it: ValueError
        ("namaste", {"type": "Roll", "white": 7}),  # "roll 7" is no notation
        ("namaste", {"type": "Write", "value": 14, "cell": 99}),
        ("namaste", {"type": "Write", "value": "١٤", "cell": 3}),
        ("namaste", {"type": "Write", "value": LONG, "cell": 3}),
        ("brujas", {"type": "Play", "card": "zz"}),  # was Play("zz"): no notation reads it back
        ("brujas", {"type": "Take", "card": "R3 "}),
        ("brujas", {"type": "MoveWitch", "direction": "sideways"}),
        ("amulets", {"type": "Ask", "fields": [99, 1, 2, 3, 4]}),  # was Ask((99, ...)); format: IndexError
        ("amulets", {"type": "Cast", "fields": [-1, 1, 2, 3, 4]}),
        ("amulets", {"type": "Ask", "fields": [0, 1, 2]}),
        ("commandments", {"type": "Move", "artefact": 99, "to": 0}),  # format: IndexError
        ("commandments", {"type": "Move", "artefact": 0, "to": 0, "seconds": 10**30}),
        ("commandments", {"type": "Judge", "marks": [10**18]}),
        ("commandments", {"type": "Judge", "marks": [-1]}),
        ("commandments", {"type": "Ordain", "discard": "P05 taboo=A02", "taboo": "A01"}),
        ("commandments", {"type": "Ordain", "discard": "P" * 5000, "taboo": "A01"}),
        ("commandments", {"type": "Place", "areas": [0] * 14 + [40]}),
        ("commandments", {"type": "Move", "artefact": 0, "to": 0, "words": " padded "}),
        ("commandments", {"type": "Move", "artefact": [[[[0]]]], "to": 0}),
    ],
    ids=short_repr,
)
def test_bad_json_actions_get_a_notation_error(game_id: str, raw: object) -> None:
    with pytest.raises(NotationError) as caught:
        get_game(game_id).action_from_json(raw)
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize("game_id", GAMES)
def test_very_deep_or_huge_json_gets_a_notation_error(game_id: str) -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    game = get_game(game_id)
    for raw in (deep, {"type": "Roll", "white": deep}, {"type": game.action_classes[0].__name__, "x": deep}):
        with pytest.raises(NotationError):
            game.action_from_json(raw)
    with pytest.raises(NotationError):
        game.view_from_json({"seat": deep})


@pytest.mark.parametrize(
    "text",
    [
        "RBYG R1/B1/Y1/G1 R2/B2/Y2/G2 ² - play",  # was ValueError: isdigit() takes "²"
        "RBYG R1/B1/Y1/G1 R2/B2/Y2/G2 ٣ - play",  # was leader 3
        "RBYG R1/B1/Y1/G1 R2/B2/Y2/G2 " + LONG + " - play",  # was ValueError: 4300-digit limit
        "RBYG -/-/-/- -/-/-/- 0 R4B4Y4G4 take/²/down/-",  # was ValueError
        "RBYG -/-/-/- -/-/-/- 0 R4B4Y4G4 take/" + LONG + "/down/-",  # was ValueError
        "RBYG -/-/-/- -/-/-/- 0 R4B4Y4G4 take/7/down/-",  # was silently seat 3 (7 % 4)
        "RBYG R1/B1/Y1 R2/B2/Y2 0 - play R5G5",  # was ValueError: two cards set aside
        "RBYG R1/B1/Y1 R2/B2/Y2 0 - play -",  # was ValueError: none
        "RBYG R1/B1/Y1/G1 R2/B2/Y2/G2 0 - play R5",  # an aside with four players
    ],
    ids=short_repr,
)
def test_bad_brujas_positions_get_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_position(text)
    assert len(str(caught.value)) < 300


def test_brujas_positions_still_read_seats_and_the_card_set_aside() -> None:
    state = parse_position("RBYG R1/B1/Y1 R2/B2/Y2 2 - play R5")
    assert state.leader == 2
    assert format_position(state) == "RBYG R1/B1/Y1 R2/B2/Y2 2 - play R5"
    with pytest.raises(NotationError):
        parse_position(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        ". / . . . / . ² . . . / . . . . . . . / . . . . . / . . . / .",  # was ValueError
        ". / . . . / . ١٤ . . . / . . . . . . . / . . . . . / . . . / .",  # was 14
        ". / . . . / . " + LONG + " . . . / . . . . . . . / . . . . . / . . . / .",  # was ValueError
    ],
    ids=short_repr,
)
def test_bad_namaste_sheets_get_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_sheet(text)
    assert len(str(caught.value)) < 300
