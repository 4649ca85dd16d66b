"""The card language is bounded: anything a table's creator can write is refused at creation with a
reason, or judges cheaply; a mistake in the static bounds still meets the run-time step budget.

No test here measures time: they assert on rejection, or on the work counted (``Ctx.steps``).
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from coven.core import InvalidOptionError
from coven.games.commandments import GAME
from coven.games.commandments.cards import (
    BUILTIN,
    MAX_CARD_TEXT,
    MAX_CUSTOM_CARDS,
    MAX_CUSTOM_TEXT,
    Card,
    Deck,
    make_card,
    parse_custom_cards,
)
from coven.games.commandments.lang import (
    BOARD_WORDS,
    MAX_COST,
    MAX_COUNTING_NESTING,
    MAX_DEPTH,
    MAX_NUMBER,
    MAX_STEPS,
    MAX_TEXT,
    MAX_TOKENS,
    PERFORMANCE_WORDS,
    CardBudgetError,
    CardError,
    Ctx,
    compile_card_expr,
    compile_tree,
    counting_nesting,
    estimate_cost,
    parse,
    tokenize,
)
from coven.games.commandments.notation import Move
from coven.games.commandments.rules import move_context

from .helpers import karma_event, play, table

NESTED_8 = "sum(" * 8 + "count(area)" + ")" * 8
"""The card that took about a minute to judge: eight counting functions, 12**8 rounds."""
BOARD = (*(0, 1, 1, 6, 11), *(0, 2, 4, 11, 11), *(4, 4, 8, 11, 11))


def _ctx() -> Ctx:
    return move_context(BOARD, Move(3, 0, path=(1, 12), words="white is right", seconds=40))


def _custom(expr: str, card_id: str = "Deep", value: int | str = "?") -> str:
    return json.dumps([{"id": card_id, "type": "artefact", "value": value, "en": "a card", "expr": expr}])


# ------------------------------------------------------------------------------ refused at creation
def test_nested_counting_functions_are_refused_when_the_table_is_created() -> None:
    with pytest.raises(InvalidOptionError) as caught:
        GAME.new_game(3, {"custom_cards": _custom(NESTED_8)}, 1)
    message = str(caught.value)
    assert "custom card 1 (Deep)" in message
    assert f"counting functions (sum, areas, max) nest at most {MAX_COUNTING_NESTING} deep" in message
    assert "this card nests 8 (the innermost at 28)" in message


def test_a_card_costing_too_much_is_refused_with_its_cost() -> None:
    expr = "sum(sum(" + "+".join(["count(area)"] * 3) + "))"  # nests 2 deep, but a big inside
    assert counting_nesting(parse(expr))[0] == MAX_COUNTING_NESTING
    with pytest.raises(
        InvalidOptionError,
        match=rf"custom card 1 \(Deep\).*too long to judge: it costs \d+, at most {MAX_COST}",
    ):
        GAME.new_game(3, {"custom_cards": _custom(expr)}, 1)


TOO_BIG: list[tuple[str, str]] = [
    ("(" * 10_000 + "1" + ")" * 10_000, f"longer than {MAX_TEXT} characters"),
    ("(" * 60 + "to == from" + ")" * 60, f"nests more than {MAX_DEPTH} deep at {MAX_DEPTH}"),
    ("not " * 90 + "to == from", f"nests more than {MAX_DEPTH} deep"),
    ("not(" * 40 + "to == from" + ")" * 40, f"nests more than {MAX_DEPTH} deep"),
    ("1>0" + " or 1>0" * 32, f"nests more than {MAX_DEPTH} deep"),
    ("count(to)" + " + 1" * 40 + " > 0", f"nests more than {MAX_DEPTH} deep"),
    ("1+" * 100 + "1 > 0", f"more than {MAX_TOKENS} tokens"),
    ("9" * 5000 + " > 0", f"longer than {MAX_TEXT} characters"),
    ("9" * 390 + " > 0", f"numbers are at most {MAX_NUMBER}; the one at 0 is larger (390 digits)"),
    ("count(to) > 10000", f"numbers are at most {MAX_NUMBER}"),
    ("count(to) > ²", "unexpected character '²' at 12 (numbers are written with the digits 0-9)"),
    ("count(to) > ١٢", "digits 0-9"),
    ("count(to) > ۳", "digits 0-9"),
    ("count(to) > １２", "digits 0-9"),
    ("count(to) > 𝟙", "digits 0-9"),
    ("count(to) > ①", "digits 0-9"),
    ("1² > 0", "unexpected character '²' at 1"),
    (NESTED_8 + " > 0", "this card nests 8"),
    ("areas(areas(areas(to == from) > 0) > 0) > 0", "this card nests 3"),
    ("max(before(max(before(max(count(area)))))) > 0", "this card nests 3"),
]


@pytest.mark.parametrize(("expr", "message"), TOO_BIG, ids=[f"case{i}" for i in range(len(TOO_BIG))])
def test_oversized_expressions_are_card_errors_with_reasons(expr: str, message: str) -> None:
    with pytest.raises(CardError, match=re.escape(message)) as caught:
        compile_card_expr(expr, "board", False)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(("expr", "message"), TOO_BIG, ids=[f"case{i}" for i in range(len(TOO_BIG))])
def test_oversized_expressions_are_refused_at_table_creation(expr: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=re.escape(message)) as caught:
        GAME.new_game(3, {"custom_cards": _custom(expr, value=3)}, 1)
    assert "custom card 1 (Deep)" in str(caught.value)
    assert len(str(caught.value)) < 300


def test_the_bounds_themselves_are_accepted() -> None:
    compile_card_expr(f"count(to) < {MAX_NUMBER}", "board", False)
    compile_card_expr("count(to) < 0009999", "board", False)  # leading zeros are not digits of value
    nots = "not " * (MAX_DEPTH - 2) + "to == from"  # 30 "not", "==" and its leaves
    assert parse(nots).depth == MAX_DEPTH
    compile_card_expr(nots, "board", False)
    brackets = "(" * (MAX_DEPTH - 1) + "to == from" + ")" * (MAX_DEPTH - 1)
    compile_card_expr(brackets, "board", False)
    compile_card_expr("sum(sum(count(area)))", "board", True)  # two counting functions deep is allowed


def test_the_parser_counts_depth_so_deep_brackets_never_reach_the_recursion_limit() -> None:
    """140 brackets (within the token bound) would take the descent about a thousand Python frames
    deep: refused at the 33rd."""
    with pytest.raises(CardError, match=f"nests more than {MAX_DEPTH} deep at {MAX_DEPTH}"):
        parse("(" * (MAX_TOKENS - 10) + "1")
    with pytest.raises(CardError, match="tokens"):
        parse("(" * (MAX_TEXT - 1) + "1")


def test_tokens_are_bounded_and_ascii() -> None:
    assert len(tokenize("1+" * 74 + "1")) == MAX_TOKENS
    with pytest.raises(CardError, match="tokens"):
        tokenize("1+" * 75 + "1")
    with pytest.raises(CardError, match="digits 0-9"):
        tokenize("٣")


# ---------------------------------------------------------------------------------- custom_cards text
@pytest.mark.parametrize(
    ("custom", "message"),
    [
        (" " * (MAX_CUSTOM_TEXT + 1), f"at most {MAX_CUSTOM_TEXT} characters"),
        ("[" * 40_000 + "]" * 40_000, "nests too deeply"),
        ('[{"id": "X1", "type": "artefact", "value": ' + "9" * 5000 + ', "en": "x", "expr": "out"}]', "JSON"),
        (_custom("to == from", card_id="X" * 5000), "custom card 1 ('XXX"),
        (_custom("to == from", card_id="X1\n"), "id 'X1\\n'"),
        (
            json.dumps(
                [{"id": "X1", "type": "action", "value": 1, "en": "x" * (MAX_CARD_TEXT + 1), "expr": "out"}]
            ),
            f"at most {MAX_CARD_TEXT} characters",
        ),
        (
            json.dumps(
                [{"id": "X1", "type": "action", "value": 1, "en": "x", "fr": "y" * 10_000, "expr": "out"}]
            ),
            f"text 'fr' must be a non-empty text of at most {MAX_CARD_TEXT} characters",
        ),
        (
            json.dumps([{"id": "X1", "type": "action", "value": 10**4000, "en": "x", "expr": "out"}]),
            "value must be",
        ),
        (
            json.dumps([{"id": "X1", "type": ["a"] * 1000, "value": 1, "en": "x", "expr": "out"}]),
            "type must be",
        ),
        (
            json.dumps([{"id": "X1", "type": "action", "value": 1, "en": "x", "expr": "out" + " " * 5000}]),
            "longer",
        ),
    ],
    ids=[
        "long-text",
        "deep-json",
        "huge-json-number",
        "long-id",
        "id-newline",
        "en",
        "fr",
        "huge-value",
        "type",
        "expr",
    ],
)
def test_the_custom_cards_option_and_its_fields_are_bounded(custom: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=re.escape(message)) as caught:
        GAME.new_game(3, {"custom_cards": custom}, 1)
    assert len(str(caught.value)) < 300


def test_the_largest_valid_custom_cards_are_accepted_even_escaped_to_ascii() -> None:
    expr = 'mentions("' + "é" * (MAX_TEXT - 12) + '")'
    assert len(expr) == MAX_TEXT
    cards = [
        {
            "id": f"A{'b' * 11}{i:04d}",
            "type": "action",
            "value": 9,
            "en": "é" * 200,
            "fr": "é" * 200,
            "expr": expr,
        }
        for i in range(MAX_CUSTOM_CARDS)
    ]
    text = json.dumps(cards)  # every "é" becomes \u00e9
    assert MAX_CUSTOM_TEXT * 0.9 < len(text) <= MAX_CUSTOM_TEXT
    assert len(parse_custom_cards(text)) == MAX_CUSTOM_CARDS


# ------------------------------------------------------------------------------------ the built-in deck
def test_every_builtin_card_is_well_within_the_bounds() -> None:
    """The box may not drift towards the limits: each bound is at least about twice its costliest card."""
    for card in BUILTIN:
        tree = parse(card.expr)
        assert estimate_cost(tree) <= MAX_COST // 5, card.id
        assert counting_nesting(tree)[0] <= 1, card.id
        assert tree.depth <= MAX_DEPTH // 2, card.id
        assert len(tokenize(card.expr)) <= MAX_TOKENS // 2, card.id
        assert len(card.expr) <= MAX_TEXT // 2, card.id


def test_builtin_cards_are_compiled_without_the_step_counter() -> None:
    """The box is the bots' hot path: judging it never touches the counter (custom cards do)."""
    ctx = _ctx()
    ctx.steps = -7
    for card in BUILTIN:
        card.judge(ctx)
    assert ctx.steps == -7
    custom = make_card("Z1", "artefact", "?", "x", "x", "areas(count(area) == 0)")
    assert custom.judge(ctx) == 6  # H3 H5 T1 T2 T4 T5
    assert ctx.steps == estimate_cost(parse(custom.expr)) - 1  # the outer node is not a round


# ------------------------------------------------------------------------------------------ run time
ACCEPTED_WORST = [
    "sum(" + "+".join(['total("hexagon")'] * 4) + ")",
    "sum(" + "+".join(["colours(area)"] * 10) + ")",
    "sum(" + "*".join(["colours(area)"] * 10) + ")",
    "sum(sum(count(area)))",
    'sum(sum(count(area, "white")+count(area, "white")))',
    "max(max(count(area)))",
    "+".join(["sum(count(area))"] * 18),
    "areas(areas(adjacent(area, to)) > 0)",
]


@pytest.mark.parametrize("expr", ACCEPTED_WORST)
def test_the_costliest_accepted_cards_do_bounded_work(expr: str) -> None:
    """Cards near the budget: the step counter never exceeds the static estimate, nor the budget."""
    cost = estimate_cost(parse(expr))
    assert MAX_COST // 3 < cost <= MAX_COST
    card = make_card("Z1", "artefact", "?", "x", "x", expr)
    ctx = _ctx()
    card.judge(ctx)
    assert 0 < ctx.steps <= cost <= MAX_STEPS


def _heavy_card(card: Card) -> Card:
    """``card`` with the 8-deep card's function, compiled past the static bounds (as a bug in them
    would let through) but with the run-time guard."""
    return dataclasses.replace(card, fn=compile_tree(parse(NESTED_8 + " > 0"), "board", False))


def test_the_run_time_budget_stops_an_expression_the_static_bounds_missed() -> None:
    fn = compile_tree(parse(NESTED_8), "board", True)
    ctx = _ctx()
    with pytest.raises(CardBudgetError, match=f"past {MAX_STEPS} steps"):
        fn(ctx)
    assert ctx.steps <= MAX_STEPS  # charged before the work: at most the budget was done
    assert ctx.area == 0 and ctx.cur is ctx.after  # the counting functions restored what they change
    card = make_card("Z1", "artefact", "?", "x", "x", "count(to)")
    assert dataclasses.replace(card, fn=fn).judge(ctx) == 0  # a "?" card counts 0: unmarked
    fixed = _heavy_card(make_card("Z2", "artefact", 5, "x", "x", "to == from"))
    assert fixed.judge(ctx) == 0 and fixed.judge(ctx) == 0  # a fixed card is not matched, every time
    assert card.judge(ctx) == 3  # the same context still judges the next card normally


def test_the_engine_counts_a_card_past_its_budget_as_unmarked_and_stays_consistent() -> None:
    custom = _custom("sum(count(area)) > 0", card_id="Heavy", value=5)  # cheap: always matched
    state = table(4, ["Heavy", "A01", "P03", "P05"], {"custom_cards": custom})
    index = state.deck.index["Heavy"]
    cards = list(state.deck.cards)
    cards[index] = _heavy_card(cards[index])
    state.deck = Deck.of(cards)
    play(state, 0, "ordain discard=P05 taboo=P03")  # taboo: dance; commandments: Heavy, white moved
    play(state, 0, "place wh=R,R,R,R,R bk=R,R,R,R,R br=R,R,R,R,R")
    events = play(state, 1, "wh1>C")
    result = karma_event(events)
    assert result["marks"] == [0, 0, 1]  # Heavy (slot 1) unmarked; A01 (white moved, 2) marked
    assert result["total"] == 2 and result["verdict"] == "karma"
    assert state.karma[1] == 2 and state.board[0] == 0 and state.flips == 0
    play(state, 2, "bk1>C")  # the game goes on
    assert state.board[5] == 0


# ------------------------------------------------------------------------------------------ property
WORDS = [
    *["(", ")", ",", "+", "-", "*", "==", "!=", "<", "<=", ">", ">=", "and", "or", "not"],
    *sorted(BOARD_WORDS | PERFORMANCE_WORDS),
    *['"C"', '"H1"', '"X"', '"white"', '"hexagon"', '"dance"', '"hp"', "'x'", "0", "1", "12", "9999"],
    *["99999", "²", "١", "１", "((((((((", "sum(sum(sum(", "not not not"],
]
# Well-typed board expressions, so that many compile and are judged (nesting counting functions too).
numbers: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        st.sampled_from(["count(area)", "count(to)", 'count(from, "black")', "colours(area)", "1", "12"]),
        st.sampled_from(['total("hexagon")', 'total("ring", "brown")']),
        st.builds("sum({})".format, numbers),
        st.builds("max({})".format, numbers),
        st.builds("areas({})".format, conditions),
        st.builds("sum({}, {})".format, conditions, numbers),
        st.builds("before({})".format, numbers),
        st.builds("({} {} {})".format, numbers, st.sampled_from("+-*"), numbers),
    )
)
conditions: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        st.sampled_from(["to == from", "adjacent(area, to)", 'kind(area) == "ring"', 'colour != "white"']),
        st.builds("not {}".format, conditions),
        st.builds("({} {} {})".format, conditions, st.sampled_from(["and", "or"]), conditions),
        st.builds("{} {} {}".format, numbers, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), numbers),
        st.builds("before({})".format, conditions),
    )
)
expressions = st.one_of(
    numbers,
    conditions,
    st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join),
    st.lists(st.sampled_from(WORDS), max_size=40).map("".join),
    st.text(alphabet=st.sampled_from('()",<=>+-*! _aeiorstuCHTX0129²١'), max_size=60),
    st.text(max_size=40),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=expressions, domain=st.sampled_from(["board", "performance"]), counting=st.booleans())
@example(text=NESTED_8, domain="board", counting=True)
@example(text="(" * 5000, domain="board", counting=True)
@example(text="sum(sum(count(area)))", domain="board", counting=True)
def test_any_text_compiles_to_a_cheap_card_or_raises_card_error(
    text: str, domain: str, counting: bool
) -> None:
    try:
        fn = compile_card_expr(text, domain, counting)
    except CardError as exc:
        assert len(str(exc)) < 200
        return
    cost = estimate_cost(parse(text))
    assert cost <= MAX_COST
    for ctx in (_ctx(), move_context(BOARD, Move(14, 11))):
        ctx.steps = 0
        result = fn(ctx)  # never CardBudgetError for an accepted card
        assert isinstance(result, int)  # bool is an int
        assert ctx.steps <= cost
