"""The rules' fast paths give exactly what the plain computation gives: artefact cards judged by
their tables, events and log entries made with their slots filled (karma events shared), the offered
ordainments and placements made once. Random playouts, every move checked against the plain one."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from coven.core import Event, JSONValue, private, public
from coven.core.chance import Chance
from coven.games.commandments import GAME
from coven.games.commandments.board import (
    AREA_NAMES,
    CODE_COLOURS,
    CODE_COUNT,
    CODE_TOTAL,
    NUM_AREAS,
    NUM_ARTEFACTS,
    codes_of,
    rows_of,
)
from coven.games.commandments.cards import (
    ARTEFACT,
    BOARDLESS_SIZE,
    BUILTIN,
    COUNT_CAP,
    Card,
    Deck,
    boardless_table,
    deck_for,
    make_card,
)
from coven.games.commandments.lang import (
    CardError,
    Ctx,
    Fn,
    board_function,
    check_bounds,
    compile_tree,
    counted_function,
    emit_board_card,
    parse,
)
from coven.games.commandments.notation import (
    MOVE_FAMILY,
    ORDAIN,
    PLACE,
    Move,
    MoveLog,
    Ordain,
    Place,
    format_action,
)
from coven.games.commandments.rules import (
    _FAMILY_INFO,
    _ORDAINED,
    CommandmentsState,
    Judging,
    Plan,
    announce,
    deal,
    deal_piles,
    judge_cards,
    judging_plan,
    karma_total,
    move_context,
    ordainments,
    packed_slot,
    plan_part,
    unpacked_entry,
    verdicts,
)
from coven.games.commandments.view import (
    MARKS,
    disempowered_event,
    forfeit_event,
    game_over_event,
    karma_event,
    move_event,
    ordained_events,
    revealed_event,
    ritual_end_event,
    ritual_events,
    shared_karma_event,
)

from .helpers import table

ARTEFACT_DOMAIN = "board"


def _boards(rng: random.Random, count: int) -> list[list[int]]:
    """Random boards, and the crowded ones (everything in one area, in two)."""
    boards = [[rng.randrange(NUM_AREAS) for _ in range(NUM_ARTEFACTS)] for _ in range(count)]
    return [*boards, [0] * NUM_ARTEFACTS, [11] * 7 + [6] * 8]


def _check_table(card: Card, table: tuple[int, ...], rng: random.Random) -> None:
    for board in _boards(rng, 6):
        for artefact in range(NUM_ARTEFACTS):
            for to in range(NUM_AREAS):
                ctx = move_context(board, Move(artefact, to))
                at = (ctx.colour * NUM_AREAS + ctx.frm) * NUM_AREAS + to
                assert table[at] == card.judge(ctx), (card.id, board, artefact, to)


@pytest.mark.parametrize("card", [c for c in BUILTIN if c.type == ARTEFACT], ids=lambda c: c.id)
def test_an_artefact_card_that_never_reads_the_board_is_judged_by_its_table(card: Card) -> None:
    table = boardless_table(card)
    reads = any(word in card.expr for word in ("count(", "colours(", "total(", "areas(", "sum(", "max("))
    assert (table is None) == reads, card.expr
    if table is not None:
        assert len(table) == BOARDLESS_SIZE
        _check_table(card, table, random.Random(card.id))


def test_cards_that_read_the_board_on_some_moves_only_or_before_the_move_get_no_table() -> None:
    for expr in (
        "from != to and count(from) == 0",
        "before(count(to)) == 0",
        'colour == "black" or count(to) > 9',
    ):
        assert boardless_table(make_card("Z1", ARTEFACT, 2, "x", "x", expr)) is None, expr
    action = next(c for c in BUILTIN if c.type != ARTEFACT)
    assert boardless_table(action) is None
    # a custom card that never reads the board but does much work per judgement: no table either
    costly = make_card("Z2", ARTEFACT, "?", "x", "x", "areas(sum(adjacent(area, to), 1) > 2)")
    assert boardless_table(costly) is None
    cheap = make_card("Z3", ARTEFACT, "?", "x", "x", "areas(adjacent(area, to))")
    table = boardless_table(cheap)
    assert table is not None
    _check_table(cheap, table, random.Random(3))


def test_a_custom_deck_gets_the_tables_of_its_own_cards() -> None:
    custom = json.dumps(
        [
            {
                "id": "Loc",
                "type": "artefact",
                "value": 4,
                "en": "x",
                "expr": 'adjacent(from, to) and colour != "brown"',
            },
            {"id": "Brd", "type": "artefact", "value": 3, "en": "x", "expr": "count(to) == 2 and to != from"},
        ]
    )
    deck = deck_for(custom)
    local, board = deck.cards[deck.index["Loc"]], deck.cards[deck.index["Brd"]]
    assert deck.boardless[deck.index["Brd"]] is None
    assert deck.on_board[deck.index["Brd"]] is None  # a custom card is guarded: judged by its closures
    table = deck.boardless[deck.index["Loc"]]
    assert table is not None and table == boardless_table(local)
    _check_table(local, table, random.Random(5))
    replaced = [dataclasses.replace(c, fn=board.fn) if c.id == "Loc" else c for c in deck.cards]
    assert Deck.of(replaced).boardless[deck.index["Loc"]] is None  # the table follows the function


def _contexts(rng: random.Random, boards: int) -> list[Ctx]:
    return [
        move_context(board, Move(rng.randrange(NUM_ARTEFACTS), rng.randrange(NUM_AREAS)))
        for board in _boards(rng, boards)
        for _ in range(4)
    ]


def _same_judgement(emitted: Fn, closures: Fn, contexts: list[Ctx], expr: str) -> None:
    for ctx in contexts:
        got, want = emitted(ctx), closures(ctx)
        assert got == want and type(got) is type(want), (expr, got, want)
        assert ctx.cur is ctx.after and ctx.area == 0


@pytest.mark.parametrize("card", [c for c in BUILTIN if c.type == ARTEFACT], ids=lambda c: c.id)
def test_a_built_in_artefact_card_is_one_emitted_function_that_judges_as_the_closures(card: Card) -> None:
    node = parse(card.expr)
    emitted = emit_board_card(node)
    assert emitted is not None and card.fn.__code__.co_filename == "<board card>"
    closures = compile_tree(node, ARTEFACT_DOMAIN, card.counting)  # guarded: never emitted
    assert closures.__code__.co_filename != "<board card>"
    contexts = _contexts(random.Random(card.id), 20)
    _same_judgement(emitted, closures, contexts, card.expr)
    # without a Ctx, as the rules judge it (Deck.on_board), and counted as Card.judge counts
    on_board = board_function(card.fn)
    assert on_board is not None and deck_for("").on_board[deck_for("").index[card.id]] is on_board
    counted = counted_function(card.fn, COUNT_CAP)  # what Deck.karma is made of, for a "?" card
    assert (counted is None) == (card.value is not None)
    for ctx in contexts:
        result = on_board(_codes(ctx.after), _codes(ctx.before), ctx.colour, ctx.frm, ctx.to)
        assert result == card.fn(ctx) and type(result) is type(card.fn(ctx))
        assert card.karma_of(result) == card.judge(ctx)
        if counted is not None:  # a "?" card: its karma straight from the codes
            karma = counted(_codes(ctx.after), _codes(ctx.before), ctx.colour, ctx.frm, ctx.to)
            assert karma == card.judge(ctx) and type(karma) is int
        # every board card, fixed or "?": its karma straight from the codes (Deck.karma, the rules' hot path)
        karma_of = deck_for("").karma[deck_for("").index[card.id]]
        assert karma_of is not None
        karma = karma_of(_codes(ctx.after), _codes(ctx.before), ctx.colour, ctx.frm, ctx.to)
        assert karma == card.judge(ctx) and type(karma) is int


def _codes(rows: Sequence[Sequence[int]]) -> bytes:
    """A board of rows (white, black, brown) as codes, by the definition of a code."""
    return bytes(w + 6 * b + 36 * r for w, b, r in rows)


def test_a_board_of_codes_is_its_counts() -> None:
    for board in _boards(random.Random(3), 30):
        codes = codes_of(board)
        rows = counts_table(board)
        assert codes == _codes(rows) and rows_of(codes) == [tuple(row) for row in rows]
        for area, code in enumerate(codes):
            assert CODE_TOTAL[code] == sum(rows[area])
            assert CODE_COLOURS[code] == sum(1 for n in rows[area] if n)
            assert [CODE_COUNT[c][code] for c in range(3)] == list(rows[area])


def counts_table(board: Sequence[int]) -> list[list[int]]:
    rows = [[0, 0, 0] for _ in range(NUM_AREAS)]
    for artefact, area in enumerate(board):
        rows[area][artefact // 5] += 1
    return rows


# Well-typed board expressions (every word of the board's language, counting functions nested).
numbers: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        st.sampled_from(["count(area)", "count(to)", 'count(from, "black")', "count(area, colour)"]),
        st.sampled_from(["colours(area)", "colours(from)", "1", "0", "12", 'count("C", "white")']),
        st.sampled_from(['total("hexagon")', 'total("ring", "brown")', "total(kind(to), colour)"]),
        st.builds("sum({})".format, numbers),
        st.builds("max({})".format, numbers),
        st.builds("areas({})".format, conditions),
        st.builds("sum({}, {})".format, conditions, numbers),
        st.builds("before({})".format, numbers),
        st.builds("min({}, {})".format, numbers, numbers),
        st.builds("({} {} {})".format, numbers, st.sampled_from("+-*"), numbers),
    )
)
conditions: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        st.sampled_from(["to == from", "adjacent(area, to)", 'kind(area) == "ring"', 'colour != "white"']),
        st.sampled_from(['"T2" == area', "kind(from) != kind(area)", 'adjacent("C", from)', "area == to"]),
        st.builds("not {}".format, conditions),
        st.builds("({} {} {})".format, conditions, st.sampled_from(["and", "or"]), conditions),
        st.builds("{} {} {}".format, numbers, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), numbers),
        st.builds("before({})".format, conditions),
    )
)
_FUZZ_CONTEXTS = _contexts(random.Random(11), 3)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(numbers, conditions))
@example(text="areas(sum(adjacent(area, to), count(area)) > before(max(count(area, colour))))")
@example(text='sum(kind(area) == "hexagon", areas(adjacent(area, from) and colours(area) == 2))')
@example(text='areas(count(area) > 1 and kind(area) == "ring" and colours(area) != 2)')
@example(text='sum(adjacent("T2", area) and count(area, "white") > 0, count(area) + 1)')
@example(text='areas(adjacent(to, area)) + sum(kind(area) == "centre", colours(area))')
@example(text="before(areas(adjacent(area, from) and count(area) == 0))")
@example(text="areas(adjacent(area, to) and sum(adjacent(area, from), count(area)) > 2)")
def test_the_emitted_function_of_any_board_expression_judges_as_the_closures(text: str) -> None:
    try:
        node = parse(text)
        check_bounds(node)
    except CardError:
        return
    try:
        closures = compile_tree(node, ARTEFACT_DOMAIN, counting=True)
    except CardError:  # a condition, or 'area' outside a counting function
        try:
            closures = compile_tree(node, ARTEFACT_DOMAIN, counting=False)
        except CardError:
            return
    emitted = emit_board_card(node)
    assert emitted is not None
    _same_judgement(emitted, closures, _FUZZ_CONTEXTS, text)
    on_codes = board_function(emitted)
    assert on_codes is not None
    for ctx in _FUZZ_CONTEXTS:
        got, want = (
            on_codes(_codes(ctx.after), _codes(ctx.before), ctx.colour, ctx.frm, ctx.to),
            closures(ctx),
        )
        assert got == want and type(got) is type(want), (text, got, want)


def _plain_move(state: CommandmentsState, seat: int, move: Move) -> tuple[list[Event], MoveLog]:
    """A novice's move as the plain rules make it (engine judging): its two events and its log entry."""
    cards = [state.deck.cards[c] for c in state.ritual.slots]
    values = judge_cards(cards, move_context(state.board, move))
    total = karma_total(values)
    flips = 0 if total > 0 else state.flips + 1
    marks = tuple(1 if v > 0 else 0 for v in values)
    verdict = "karma" if total > 0 else "no karma" if total == 0 else "bad karma"
    start = state.board[move.artefact]
    data: dict[str, JSONValue] = {"seat": seat, "verdict": verdict, "total": announce(total), "flips": flips}
    if not state.options["expert"]:
        data["marks"] = list(marks)
    events = [
        Event("move", {"seat": seat, "action": format_action(move), "start": AREA_NAMES[start]}),
        Event("karma", data),
    ]
    return events, MoveLog(seat, move, start, marks, announce(total), flips)


def _same(fast: Event, plain: Event) -> None:
    assert fast == plain and plain == fast
    assert type(fast) is Event and type(fast.data) is dict
    assert json.dumps(fast.to_json()) == json.dumps(plain.to_json())


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {}),
        (4, {"expert": True}),
        (5, {"reveal": "never"}),
        (7, {}),
        (4, {"judge": "priestess"}),
        (
            4,
            {
                "custom_cards": json.dumps(
                    [{"id": "Cu", "type": "artefact", "value": 2, "en": "x", "expr": 'to == "T3"'}]
                )
            },
        ),
    ],
)
def test_every_move_of_random_playouts_gives_the_plain_events_log_and_counts(
    players: int, options: dict[str, object]
) -> None:
    rng = random.Random(players * 7 + len(options))
    moves = 0
    for game in range(12):
        state = GAME.new_game(players, options, seed=game)
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            if isinstance(action, Move) and rng.random() < 0.3:  # off the interned family: the plain path
                action = dataclasses.replace(action, seconds=rng.randrange(1, 60))
            if state.phase == ORDAIN:
                ids = [state.deck.cards[c].id for c in state.ritual.hand]
                plain_ordains = [Ordain(d, t) for d in ids for t in ids if t != d]
                assert list(legal) == plain_ordains and all(type(a) is Ordain for a in legal)
                assert [hash(a) for a in legal] == [hash(a) for a in plain_ordains]
            judging = state.options["judge"] == "priestess" and any(
                state.deck.cards[c].type != ARTEFACT for c in state.ritual.slots
            )
            plain: tuple[list[Event], MoveLog] | None = None
            if isinstance(action, Move):
                plain = _plain_move(state, seat, action)
            ritual = state.ritual
            placed = state.phase == PLACE
            events = GAME.apply(state, seat, action)
            assert state.mover == GAME.current_seat(state)  # the rules keep the seat to act up to date
            if placed:
                assert isinstance(action, Place)
                _same(events[0], Event("placed", {"action": format_action(action)}))
                assert state.codes == codes_of(state.board)
            if plain is None:
                continue
            moves += 1
            _same(events[0], plain[0][0])
            if judging:
                assert len(events) == 1 and state.pending == action
                continue
            _same(events[1], plain[0][1])
            log = ritual.moves[-1]
            assert log == plain[1] and type(log) is MoveLog and hash(log) == hash(plain[1])
            if state.codes:
                assert state.codes == codes_of(state.board)
    assert moves > 100


def test_the_events_made_with_their_slots_filled_equal_the_plain_ones() -> None:
    for priestess in range(7):
        _same_all(
            ritual_events(priestess, 2, ["A01", "A02", "P01", "P02"]),
            [
                public("ritual", priestess=priestess, number=2),
                private("hand", [priestess], cards=["A01", "A02", "P01", "P02"]),
            ],
        )
        _same_all(
            ordained_events(priestess, ["artefact", "action", "action"], "A02"),
            [
                public("ordained", priestess=priestess, slots=["artefact", "action", "action"]),
                private("discarded", [priestess], card="A02"),
            ],
        )
        _same_all(
            [revealed_event(priestess, ["A01"], True)], [private("revealed", [priestess], cards=["A01"])]
        )
        _same_all([revealed_event(priestess, ["A01"], False)], [public("revealed", cards=["A01"])])
        _same_all(
            [move_event(priestess, "wh1 C", "R")], [public("move", seat=priestess, action="wh1 C", start="R")]
        )
        _same_all(
            [
                ritual_end_event(priestess, 7),
                disempowered_event(priestess, 20),
                forfeit_event(priestess, 2, 3),
            ],
            [
                public("ritual_end", priestess=priestess, gain=7),
                public("disempowered", priestess=priestess, bonus=20),
                public("forfeit", seat=priestess, bonus=2, flips=3),
            ],
        )
    _same_all([game_over_event([3, 0, 12])], [public("game_over", karma=[3, 0, 12])])
    # those that depend on a few small values are made once and shared
    assert ritual_events(2, 3, ["A01"])[0] is ritual_events(2, 3, ["A02"])[0]
    assert ritual_events(2, 3, ["A01"])[1] is not ritual_events(2, 3, ["A01"])[1]
    first, second = (
        ordained_events(4, ["artefact", "action"], "P01"),
        ordained_events(4, ["artefact", "action"], "P01"),
    )
    assert first[0] is second[0] and first[1] is second[1]
    assert ordained_events(4, ["action", "action"], "P01")[0] != first[0]
    assert ritual_end_event(1, 9) is ritual_end_event(1, 9) and disempowered_event(
        1, 20
    ) is disempowered_event(1, 20)
    for bits in range(8):
        for announced in (-1, 0, 1, 7, 40):
            for expert in (False, True):
                shared = shared_karma_event(3, announced, 2, bits, expert)
                verdict = "karma" if announced > 0 else "no karma" if announced == 0 else "bad karma"
                plain = karma_event(3, verdict, announced, 2, MARKS[bits], expert)
                _same(shared, plain)
                assert shared is shared_karma_event(3, announced, 2, bits, expert)
                assert MARKS[bits] == tuple(bits >> i & 1 for i in range(3))


def _same_all(fast: list[Event], plain: list[Event]) -> None:
    assert len(fast) == len(plain)
    for a, b in zip(fast, plain, strict=True):
        _same(a, b)


def test_a_hand_with_a_custom_card_offers_the_plain_ordainments() -> None:
    custom = json.dumps([{"id": "Cu", "type": "artefact", "value": 2, "en": "x", "expr": 'to == "T3"'}])
    for hand in (["Cu", "A01", "P01", "P02"], ["A05", "A01", "P01", "P02"]):
        state = table(4, hand, {"custom_cards": custom})
        ids = [state.deck.cards[c].id for c in state.ritual.hand]
        assert ids == hand
        legal = GAME.legal_actions(state, 0)
        assert legal == [Ordain(d, t) for d in ids for t in ids if t != d]
        assert all(type(a) is Ordain for a in legal)


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3, -5])
def test_the_deal_draws_as_the_plain_fisher_yates_steps(seed: int) -> None:
    for cards, draws in ((tuple(range(63)), 14), (tuple(range(45)), 8), (tuple(range(3)), 9), ((), 2)):
        fast, plain = Chance(seed), Chance(seed)
        pile = list(cards)
        for i in range(len(pile) - 1, max(len(pile) - 1 - draws, 0), -1):
            j = plain.below(i + 1)
            pile[i], pile[j] = pile[j], pile[i]
        assert deal(fast, cards, draws) == tuple(pile)
        assert fast == plain


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3, -5, 2**64 - 1])
def test_both_piles_dealt_at_once_are_the_two_deals_one_after_the_other(seed: int) -> None:
    for draws in (0, 1, 2, 3, 4, 6, 14):
        for red, green in (
            (tuple(range(63)), tuple(range(63, 106))),
            (tuple(range(3)), tuple(range(5))),
            ((), (1,)),
        ):
            fast, plain = Chance(seed), Chance(seed)
            fast.counter = plain.counter = draws  # from any point of the stream
            assert deal_piles(fast, red, green, draws) == (deal(plain, red, draws), deal(plain, green, draws))
            assert fast == plain
            assert fast.bits64() == plain.bits64()


def test_the_packed_values_of_three_slots_add_up_to_the_total_and_the_markers() -> None:
    deck = deck_for("")
    rng = random.Random(3)
    for _ in range(300):
        slots = [rng.choice(deck.artefact), rng.choice(deck.action), rng.choice(deck.action + deck.artefact)]
        move = rng.choice(MOVE_FAMILY)
        board = [rng.randrange(NUM_AREAS) for _ in range(NUM_ARTEFACTS)]
        ctx = move_context(board, move)
        values = judge_cards([deck.cards[c] for c in slots], ctx)
        packed = 0
        for slot, c in enumerate(slots):
            table, by_performance, fn, _ = packed_slot(deck, c, slot)
            _, performance, _, _, colour, to, at = _FAMILY_INFO[id(move)]
            start = board[move.artefact]
            if fn is not None:
                after = codes_of([to if a == move.artefact else area for a, area in enumerate(board)])
                packed += fn(after, codes_of(board), colour, start, to)
            else:
                packed += table[performance] if by_performance else table[at + start * NUM_AREAS]
        assert packed >> 3 == karma_total(values)
        assert packed & 7 == sum(1 << slot for slot, v in enumerate(values) if v > 0)


def test_an_action_card_is_judged_by_its_verdict_on_each_performance_of_the_family() -> None:
    deck = deck_for("")
    board = [0] * NUM_ARTEFACTS
    for c in deck.action:
        table = verdicts(deck, c)
        for move in MOVE_FAMILY[:: len(MOVE_FAMILY) // 200]:
            same, performance, text, artefact, colour, to, at = _FAMILY_INFO[id(move)]
            assert same is move and (artefact, to) == (move.artefact, move.to) and colour == artefact // 5
            assert at == (colour * NUM_AREAS) * NUM_AREAS + to
            assert text == format_action(move)
            assert table[performance] == deck.cards[c].judge(move_context(board, move)), deck.cards[c].id


def test_the_ordainments_of_a_hand_of_the_box_are_the_plain_list_of_shared_actions() -> None:
    for seed in range(5):
        state = GAME.new_game(4, None, seed)
        legal = GAME.legal_actions(state, 0)
        ids = [state.deck.cards[c].id for c in state.ritual.hand]
        plain = [Ordain(d, t) for d in ids for t in ids if t != d]
        assert legal == plain and len(legal) == 12
        again = ordainments(state.ritual.hand)
        assert again == plain and all(x is y for x, y in zip(again, legal, strict=True))
        assert all(
            type(a) is Ordain and format_action(a) == format_action(p)
            for a, p in zip(legal, plain, strict=True)
        )


def test_a_state_read_from_its_position_works_out_the_seat_to_act() -> None:
    state = GAME.new_game(5, None, 3)
    rng = random.Random(4)
    for _ in range(40):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        GAME.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
        back = GAME.read_position(GAME.write_position(state))
        assert back.mover == -2 and back.judging is None and back.codes is None
        assert GAME.to_act(back) == GAME.to_act(state) and back.mover == state.mover
        assert GAME.legal_actions(back, state.mover) == GAME.legal_actions(state, state.mover)


def test_a_ritual_started_by_the_rules_is_the_plain_ritual() -> None:
    from coven.games.commandments.rules import Ritual

    for players in range(3, 8):
        state = GAME.new_game(players, None, players)
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            GAME.apply_unchecked(state, seat, GAME.legal_actions(state, seat)[0])  # forfeits: every ritual
            for number, ritual in enumerate(state.rituals):
                if not ritual.log and not ritual.slots:  # as it started
                    plain = Ritual(number, list(ritual.hand), -1, [], (), [], [0] * players, False, False)
                    assert ritual == plain and repr(ritual) == repr(plain) and ritual.made == 0


def _plain_plan(deck: Deck, slots: Sequence[int]) -> tuple[object, ...]:
    """The first seven entries of a judging plan, grouped the plain way: each slot's packed_slot by kind,
    in slot order, padded with tables of zeros and Nones."""
    performances: list[tuple[int, ...]] = []
    arts: list[tuple[int, ...]] = []
    fns: list[object] = []
    copy = False
    for slot, c in enumerate(slots):
        table, by_performance, fn, before = packed_slot(deck, c, slot)
        if fn is not None:
            fns.append(fn)
            copy = copy or before
        elif by_performance:
            performances.append(table)
        else:
            arts.append(table)
    if max(len(performances), len(arts), len(fns)) > 2:
        return ()  # three of a kind: the engine does not judge such slots by a plan
    zero = (0,) * max(BOARDLESS_SIZE, len(performances[0]) if performances else 0)
    performances += [zero, zero]
    arts += [zero, zero]
    fns += [None, None]
    return (performances[0], performances[1], arts[0], arts[1], fns[0], fns[1], copy)


def _plan_fields(plan: Judging) -> tuple[object, ...]:
    """A :class:`Plan`'s fields in order, ``()`` for no plan."""
    if not isinstance(plan, Plan):
        return ()
    return (
        plan.p1,
        plan.p2,
        plan.art,
        plan.art2,
        plan.on_board,
        plan.on_board2,
        plan.before,
        plan.turns,
        plan.following,
    )


def test_a_judging_plan_is_its_slots_grouped_by_kind_in_slot_order() -> None:
    rng = random.Random(11)
    deck = deck_for("")
    before = [c for c in deck.artefact if packed_slot(deck, c, 0)[3]]  # cards that read the board before
    assert before
    triples = [[*rng.sample(deck.artefact, 2), rng.choice(deck.action)] for _ in range(200)]
    triples += [[*rng.sample(deck.action, 2), rng.choice(deck.artefact)] for _ in range(200)]
    triples += [[rng.choice(deck.action), rng.choice(deck.artefact), c] for c in before]
    triples += [rng.sample(range(len(deck.cards)), 3) for _ in range(300)]  # any kinds, three of one too
    for players in (3, 5, 7):
        state = GAME.new_game(players, None, players)
        for triple in triples:
            for slots in (triple, triple[::-1], triple[1:] + triple[:1]):
                state.ritual.slots = list(slots)
                plan = _plan_fields(judging_plan(state))
                assert plan[:7] == _plain_plan(deck, slots), [deck.cards[c].id for c in slots]
                if plan:  # her turns and who follows whom (she, seat 0, never moves)
                    rounds = 4 if players == 3 else 3 if players <= 5 else 2
                    following = tuple(s + 1 if s + 1 < players else 1 for s in range(players))
                    assert plan[7:] == ((players - 1) * rounds, following)
                for slot, c in enumerate(slots):
                    assert plan_part(deck, c, slot) == deck.parts[c * 3 + slot]


def test_an_offered_ordainment_names_the_positions_of_its_cards() -> None:
    for seed in range(10):
        state = GAME.new_game(3, None, seed)
        for action in GAME.legal_actions(state, 0):
            assert isinstance(action, Ordain)
            index = state.deck.index
            assert _ORDAINED[id(action)] == (index[action.discard], index[action.taboo])
        GAME.advance(state, 0, GAME.legal_actions(state, 0)[seed % 12])
        hand = state.ritual.hand
        discard = state.ritual.discard
        slots = state.ritual.slots
        assert slots[1:] == [c for c in hand if c not in (discard, slots[0])] and discard not in slots


def test_a_new_game_is_the_plain_state_of_its_deal() -> None:
    from coven.games.commandments.rules import Ritual

    for players in range(3, 8):
        for seed in (0, 5, 2**33 + 1):
            state = GAME.new_game(players, None, seed)
            deck = deck_for("")
            chance = Chance(seed)
            red, green = deal(chance, deck.artefact, 2 * players), deal(chance, deck.action, 2 * players)
            hand = [red[-1], red[-2], green[-1], green[-2]]
            ritual = Ritual(0, hand, -1, [], (), [], [0] * players, False, False)
            plain = CommandmentsState(
                players, dict(GAME.spec.resolve_options(None)), deck, chance, red[:-2], green[:-2], [ritual],
                ORDAIN, [], 0, [0] * players, 0, None, -1, None, 0, None,
            )  # fmt: skip
            assert state == plain and repr(state) == repr(plain)
            assert state.mover == 0 and state.codes is None and state.judging is None


def test_a_packed_log_entry_is_the_turn_with_its_markers_and_the_total_as_announced() -> None:
    move = MOVE_FAMILY[7]
    for total in (-3, -1, 0, 1, 9):
        for bits in range(8):
            entry = unpacked_entry((2, move, 5, total * 8 + bits, 1))
            assert entry == (2, move, 5, MARKS[bits], announce(total), 1)
            assert MARKS[bits] == tuple((bits >> slot) & 1 for slot in range(3))
