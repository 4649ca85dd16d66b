"""The fast legal actions of Namaste (chunk tables, the pass or bad karma appended as a tail, several
totals sorted by circle) against the rule read plainly from the sheet and the bad-karma spaces."""

from __future__ import annotations

import random

from coven.core import Event
from coven.games.namaste import GAME, KARMA, PASS, NamasteState, Write
from coven.games.namaste.notation import Action
from coven.games.namaste.rules import _CELL_LINES, _FULL, _NEVER, _WRITE_EFFECT
from coven.games.namaste.sheet import CELL_NAMES, KARMA_SPACES, LINES, LINES_OF_CELL, legal_cells


def _plain_legal(state: NamasteState, seat: int) -> list[str]:
    """The legal decisions on a roll, from the rulebook's reading: every value the dice allow the seat
    in every empty circle it fits (circle by circle, then by value); then a fellow may pass, and the
    player who rolled takes bad karma while a space is free (passes only with neither)."""
    sheet = state.sheets[seat]
    values = GAME.totals(state, seat)
    out = [
        f"{v}@{CELL_NAMES[c]}"
        for c in range(len(sheet))
        if not sheet[c]
        for v in values
        if c in legal_cells(sheet, v)
    ]
    if seat != state.active:
        out.append("pass")
    elif len(state.karma[seat]) < KARMA_SPACES:
        out.append("karma")
    elif not out:
        out.append("pass")
    return out


def _texts(actions: object) -> list[str]:
    assert isinstance(actions, (list, tuple))
    return [GAME.format_action(a) for a in actions]


def test_every_decision_on_a_roll_matches_the_plain_reading() -> None:
    rng = random.Random(14)
    totals: dict[int, int] = {}
    roles: dict[str, int] = {}
    for game in range(16):
        state = GAME.new_game(2 + game % 3, {}, seed=100 + game)
        while GAME.to_act(state):
            if state.phase == "decide":
                for seat in sorted(GAME.to_act(state)):
                    assert _texts(GAME.legal_actions(state, seat)) == _plain_legal(state, seat)
                    n = len(GAME.totals(state, seat))
                    totals[n] = totals.get(n, 0) + 1
                    role = "fellow" if seat != state.active else "active"
                    roles[role] = roles.get(role, 0) + 1
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    assert totals[1] > 300 and totals[2] > 100 and totals.get(3, 0) + totals.get(4, 0) > 10
    assert roles["fellow"] > 100 and roles["active"] > 100


def test_a_player_who_rolled_with_every_bad_karma_space_filled_writes_or_passes() -> None:
    """Bad karma is offered only while a space is free; with none left, the writes alone, or a pass
    when no circle takes the sum."""
    rng = random.Random(3)
    seen = {"writes": 0, "pass": 0}
    for game in range(30):
        state = GAME.new_game(2, {}, seed=game)
        while GAME.to_act(state) and sum(seen.values()) < 400:
            active = state.active
            if state.phase == "decide" and active in GAME.to_act(state):
                free = state.karma[active]
                state.karma[active] = (1,) * KARMA_SPACES  # by hand: every space filled
                legal: list[Action] = list(GAME.legal_actions(state, active))
                assert _texts(legal) == _plain_legal(state, active)
                assert KARMA not in legal
                seen["pass" if legal == [PASS] else "writes"] += 1
                state.karma[active] = free
            seat = min(GAME.to_act(state))
            options = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, options[rng.randrange(len(options))])
    assert seen["writes"] > 50 and seen["pass"] > 0


def test_the_shared_roll_events_are_the_plain_events() -> None:
    """A roll's event is made once per dice, seat that rolled and seats asked, then shared: it is the
    event the plain reading makes (the dice, the white faces, the turquoise face, who is asked)."""
    from coven.core import public
    from coven.games.namaste.notation import Roll, dice_text

    rng = random.Random(5)
    rolls = 0
    for game in range(12):
        state = GAME.new_game(2 + game % 3, {}, seed=game)
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            events = GAME.apply(state, seat, action)
            if isinstance(action, Roll):
                rolls += 1
                plain = public(
                    "roll",
                    seat=seat,
                    dice=dice_text(state.white, state.turquoise),
                    white=list(state.white),
                    turquoise=state.turquoise,
                    asked=list(state.asked),
                )
                assert events == [plain] and events[0].to_json() == plain.to_json()
                assert state.asked == tuple(sorted(GAME.to_act(state))) and seat in state.asked
    assert rolls > 200


def test_advance_reaches_the_positions_of_apply_step_by_step() -> None:
    """``advance`` (no events) leaves every state exactly as ``apply_unchecked`` does, at every step of
    seeded random games at 2-4 players, decisions on a roll taken in random order, to the end (bad karma,
    completed lines, the end triggered and the game over included)."""
    rng = random.Random(11)
    kinds: set[str] = set()
    for game in range(24):
        state = GAME.new_game(2 + game % 3, {}, seed=100 + game)
        twin = GAME.clone(state)
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            assert GAME.legal_actions(twin, seat) == legal
            action = legal[rng.randrange(len(legal))]
            kinds.update(event.kind for event in GAME.apply_unchecked(state, seat, action))
            assert GAME.advance(twin, seat, action) is None
            assert GAME.write_position(twin) == GAME.write_position(state)
            assert GAME.scores(twin) == GAME.scores(state)
        assert GAME.is_over(twin) and GAME.winners(twin) == GAME.winners(state)
    assert {"roll", "entries", "line", "end_triggered", "game_over"} <= kinds


def test_the_lines_through_each_circle_are_the_sheets_lines() -> None:
    """The resolution tests a write's symbol row and column by their masks (_NEVER where the circle is on
    no such line): the same lines as the sheet's LINES_OF_CELL."""
    for cell, (row, row_mask, column, column_mask) in enumerate(_CELL_LINES):
        found = [k for k, mask in ((row, row_mask), (column, column_mask)) if mask != _NEVER]
        assert found == list(LINES_OF_CELL[cell])
        for k in found:
            assert (row_mask if k == row else column_mask) == sum(1 << c for c in LINES[k])


def test_a_write_that_completes_a_line_or_fills_the_sheet_passes_a_gate() -> None:
    """The resolution reads a write's lines plainly only when no empty circle lies in one of its two
    gates (_WRITE_EFFECT): the gates are the masks of the lines through the circle, _FULL for a line it is
    not on, so a completed line empties its gate (field 0 of the fits) and a full sheet both."""
    for cell, (_, row_mask, _, column_mask) in enumerate(_CELL_LINES):
        for value in range(1, 29):
            *_, row_gate, column_gate = _WRITE_EFFECT[cell][value]
            for mask, gate in ((row_mask, row_gate), (column_mask, column_gate)):
                assert gate == (_FULL if mask == _NEVER else mask)
                assert _FULL & gate == gate


def test_the_sheets_kept_as_bytes_are_the_entries_written_one_by_one() -> None:
    """Each sheet is kept as one integer of a byte per circle: read back (``state.sheets``), it is the
    sheet made plainly from the ``entries`` events, write by write; the seats asked on a roll (a property
    of the waiting seats and those that decided) stay those the roll asked until it resolves."""
    rng = random.Random(21)
    writes = 0
    for game in range(12):
        players = 2 + game % 3
        state = GAME.new_game(players, {}, seed=300 + game)
        plain = [[0] * 25 for _ in range(players)]
        asked: tuple[int, ...] = ()
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            events = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
            if events[0].kind == "roll":
                asked = tuple(sorted(GAME.to_act(state)))
            for event in events:
                if event.kind == "entries":
                    for who, text in event.data["entries"].items():  # type: ignore[union-attr]
                        action = GAME.parse_action(str(text))
                        if isinstance(action, Write):
                            plain[int(who)][action.cell] = action.value
                            writes += 1
            assert state.asked == (asked if state.phase == "decide" else ())
            assert state.sheets == [tuple(sheet) for sheet in plain]
            assert [state.sheet(s) for s in range(players)] == state.sheets
    assert writes > 400


def _resolved(seats_order: str, game: int) -> list[Event]:
    """Every event of a seeded game whose seats decide each roll in ascending or descending order, each
    seat choosing as it would in the other order (legal actions do not depend on the others' choices)."""
    rng = random.Random(game)
    state = GAME.new_game(2 + game % 3, {}, seed=500 + game)
    out: list[Event] = []
    while GAME.to_act(state):
        if state.phase != "decide":
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            out += GAME.apply(state, seat, legal[rng.randrange(len(legal))])
            continue
        choices = {}
        for seat in sorted(GAME.to_act(state)):
            legal = GAME.legal_actions(state, seat)
            choices[seat] = legal[rng.randrange(len(legal))]
        for seat in sorted(choices, reverse=seats_order == "descending"):
            events = GAME.apply(state, seat, choices[seat])
        out += [e for e in events if e.kind not in {"decided", "waiting"}]  # the resolution
    return out


def test_the_events_of_a_roll_do_not_depend_on_the_order_of_the_decisions() -> None:
    """The resolution walks the decisions in the order they came; its events (entries, completed lines
    in seat order, the end triggered by the lowest seat) are those of the seats in seat order."""
    kinds: set[str] = set()
    for game in range(20):
        ascending = _resolved("ascending", game)
        assert _resolved("descending", game) == ascending
        kinds.update(e.kind for e in ascending)
    assert {"entries", "line", "end_triggered", "game_over"} <= kinds


def test_lines_completed_on_one_roll_are_told_in_seat_order_whatever_the_order_of_decisions() -> None:
    missing_b5 = ". / 5 7 . / . . . . . / . . . . . . . / . . . . . / . . . / ."
    state = GAME.position([missing_b5, missing_b5, missing_b5], dice="4 5 + 2")
    events: list[Event] = []
    for seat, text in ((2, "9@b5"), (1, "9@b5"), (0, "11@b5")):  # 4 + 5 for the others, + 2 for seat 0
        events += GAME.apply(state, seat, GAME.parse_action(text))
    lines = [(e.data["seat"], e.data["points"]) for e in events if e.kind == "line"]
    assert lines == [(0, 7), (1, 7), (2, 7)]


def test_the_end_condition_of_a_hand_written_position_is_read_from_its_sheets() -> None:
    """A position where seats already filled every bad-karma space or every circle but the game is not
    yet ending (written by hand) ends with the next resolved roll, naming the lowest such seat."""
    full = "1 / 2 3 4 / 3 4 5 6 7 / 4 5 6 7 8 9 10 / 7 8 9 10 11 / 11 12 13 / 14"
    empty = ". / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."
    state = GAME.position([empty, full, empty], karma=[[], [], [1, 2, 3, 4]], active=0, dice="2 + 3")
    assert not state.ending and state.finished == 0b110
    events: list[Event] = []
    for seat in sorted(GAME.to_act(state)):
        events += GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    ends = [e for e in events if e.kind == "end_triggered"]
    assert state.ending and len(ends) == 1 and ends[0].data["seat"] == 1


def test_the_masks_a_write_leaves_are_those_read_plainly_from_the_sheet() -> None:
    """A write's effect is one lookup (_WRITE_EFFECT: its byte, the mask that keeps the fits, its bit,
    its gates): along seeded games, every seat's fits are those computed from its sheet circle by
    circle (the values each empty circle can take between its nearest neighbours; field 0 the circles
    holding no value), its line points those of the lines its sheet completes."""
    from coven.games.namaste.rules import _fits_of

    rng = random.Random(4)
    writes = 0
    for game in range(12):
        players = 2 + game % 3
        state = GAME.new_game(players, {}, seed=700 + game)
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            writes += isinstance(action, Write)
            GAME.advance(state, seat, action)
            for s in range(players):
                sheet = state.sheet(s)
                assert state.fits[s] == _fits_of(sheet)
                assert state.fits[s] & _FULL == sum(1 << c for c in range(25) if not sheet[c])
                complete = {k for k in range(len(LINES)) if all(sheet[c] for c in LINES[k])}
                assert {k for k in range(len(LINES)) if state.line_points[s][k]} == complete
    assert writes > 400
