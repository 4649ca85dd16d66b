"""Namaste rule tests in notation: every worked example of the rulebook, then each rule and edge case."""

from __future__ import annotations

import random

import pytest

from coven.core import GameOverError, IllegalActionError, NotationError, NotYourTurnError
from coven.games.namaste import GAME, KARMA, PASS, NamasteState
from coven.games.namaste.notation import parse_dice, sums
from coven.games.namaste.sheet import (
    CELL_NAMES,
    format_sheet,
    legal_cells,
    parse_cell,
    parse_sheet,
    truth_points,
)

EMPTY = ". / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."


def act(state: NamasteState, seat: int, text: str) -> list[str]:
    """Apply an action given in notation; return the kinds of the events."""
    return [e.kind for e in GAME.apply(state, seat, GAME.parse_action(text))]


def reason(state: NamasteState, seat: int, text: str) -> str:
    with pytest.raises(IllegalActionError) as info:
        GAME.apply(state, seat, GAME.parse_action(text))
    return str(info.value)


def cells(names: str) -> list[int]:
    return sorted(parse_cell(n) for n in names.split())


# ----------------------------------------------------------------------------- rulebook examples
MAGDALENA = ". / . . . / . 8 . . . / . . . . 12 . . / . . 14 . . / . . . / ."


def test_magdalena_14_goes_only_where_the_ascending_order_allows() -> None:
    """Her sheet holds an 8, a 12 and a 14 already: 14 fits only in c6, d6, d7, f3 and f5."""
    sheet = parse_sheet(MAGDALENA)
    assert legal_cells(sheet, 14) == cells("c6 d6 d7 f3 f5")
    state = GAME.position([MAGDALENA, EMPTY], dice="4 4 + 6")  # 4 + 4 + 6 = 14
    for name in ("c6", "d6", "d7", "f3", "f5"):
        assert GAME.illegal_reason(state, 0, GAME.parse_action(f"14@{name}")) is None
    # The red crosses, each with the reason.
    assert reason(state, 0, "14@e4") == "e4 already holds 14"
    assert reason(state, 0, "14@e5") == (
        "14 in e5 must be greater than the 14 in e4 to its left (row e increases left to right)"
    )
    assert reason(state, 0, "14@f4") == (
        "14 in f4 must be greater than the 14 in e4 above it (column 4 increases top to bottom)"
    )
    assert reason(state, 0, "14@c2") == (
        "14 in c2 must be less than the 8 in c3 to its right (row c increases left to right)"
    )
    assert reason(state, 0, "14@b5") == (
        "14 in b5 must be less than the 12 in d5 below it (column 5 increases top to bottom)"
    )
    assert reason(state, 0, "14@a4") == (
        "14 in a4 must be less than the 14 in e4 below it (column 4 increases top to bottom)"
    )
    # Nothing changed by the refusals; a legal entry goes in.
    act(state, 0, "14@f3")
    act(state, 1, "pass")
    assert state.sheets[0] == parse_sheet(". / . . . / . 8 . . . / . . . . 12 . . / . . 14 . . / 14 . . / .")


def test_magdalena_rolls_1_7_2_and_4_giving_7_or_13_for_her_and_3_or_9_for_the_others() -> None:
    white, turquoise = parse_dice("1/7 2 + 4")
    assert sums((*white, turquoise)) == (7, 13)
    assert sums(white) == (3, 9)
    state = GAME.position([EMPTY, EMPTY, EMPTY], dice="1/7 2 + 4", active=0)
    assert GAME.to_act(state) == {0, 1, 2}  # everyone decides on the same roll
    assert {a.value for a in GAME.legal_actions(state, 0) if hasattr(a, "value")} == {7, 13}
    assert {a.value for a in GAME.legal_actions(state, 1) if hasattr(a, "value")} == {3, 9}
    assert reason(state, 0, "9@d4") == "the dice give 7 or 13 for you (all rolled dice), not 9"
    assert reason(state, 1, "7@d4") == "the dice give 3 or 9 for you (white dice only), not 7"
    # Each player reads the 1/7 die for themselves.
    act(state, 0, "7@d4")
    act(state, 1, "9@d4")
    act(state, 2, "3@d4")
    assert [s[parse_cell("d4")] for s in state.sheets] == [7, 9, 3]


def test_each_1_7_die_is_read_separately_so_mixed_readings_count() -> None:
    # the ruling: "Each player chooses 1 or 7 for each such die separately": two white 1/7 dice and a
    # turquoise one give 1+1, 1+7 and 7+7 to the others, and with the turquoise 3, 9, 15 or 21 to the roller
    white, turquoise = parse_dice("1/7 1/7 + 1/7")
    assert sums(white) == (2, 8, 14)
    assert sums((*white, turquoise)) == (3, 9, 15, 21)
    state = GAME.position([EMPTY, EMPTY, EMPTY], dice="1/7 1/7 + 1/7", active=0)
    assert {a.value for a in GAME.legal_actions(state, 0) if hasattr(a, "value")} == {3, 9, 15, 21}
    assert {a.value for a in GAME.legal_actions(state, 1) if hasattr(a, "value")} == {2, 8, 14}
    act(state, 0, "9@d4")  # 1 + 1 + 7: the turquoise read as 7, the white dice as 1
    act(state, 1, "8@d4")  # 1 + 7: the two white dice read apart
    act(state, 2, "14@d4")
    assert [s[parse_cell("d4")] for s in state.sheets] == [9, 8, 14]


DANIEL = ". / 5 7 . / . . . . . / . . . . . . . / . . . . . / . . . / ."


def test_daniel_completes_the_second_row_first_and_scores_its_pink_7() -> None:
    state = GAME.position([EMPTY, DANIEL], active=1, dice="2 3 + 4")  # 9 for Daniel
    act(state, 0, "pass")
    kinds = act(state, 1, "9@b5")
    assert "line" in kinds
    assert state.line_points[1][0] == 7
    assert GAME.scores(state) == (0.0, 7.0)


def test_daniel_second_to_complete_the_row_scores_7_halved_rounded_up_to_4() -> None:
    other = "2 / 3 4 5 / . . . . . / . . . . . . . / . . . . . / . . . / ."
    state = GAME.position([other, DANIEL], active=1, dice="2 3 + 4")
    assert state.claimed[0]  # row b was completed by seat 0 earlier
    act(state, 0, "pass")
    act(state, 1, "9@b5")
    assert state.line_points[1][0] == 4


def test_truth_spaces_4_at_the_top_in_full_and_22_at_the_bottom_halved_to_11() -> None:
    sheet = parse_sheet("4 / . . . / . . . . . / . . . . . . . / . . . . . / . . . / 22")
    assert truth_points(sheet) == 4 + 11
    left_right = parse_sheet(". / . . . / . . . . . / 3 . . . . . 21 / . . . . . / . . . / .")
    assert truth_points(left_right) == 3 + 11
    state = GAME.position(["4 / . . . / . . . . . / . . . . . . . / . . . . . / . . . / 22", EMPTY])
    assert GAME.scores(state) == (15.0, 0.0)


# ------------------------------------------------------------------------------------ the turn
def test_a_turn_rolls_then_everyone_decides_then_the_next_player_rolls() -> None:
    state = GAME.new_game(2, {}, seed=5)
    assert state.starter == 0 and GAME.to_act(state) == {0}
    assert [GAME.format_action(a) for a in GAME.legal_actions(state, 0)] == ["roll 1", "roll 2", "roll 3"]
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 1, GAME.parse_action("roll 2"))
    assert act(state, 0, "roll 2") == ["roll"]
    assert len(state.white) == 2 and state.turquoise in {1, 2, 3, 4, 5, 6}
    assert GAME.to_act(state) == {0, 1}
    assert reason(state, 0, "roll 1") == "the dice are already rolled: write a value, take bad karma or pass"
    act(state, 1, "pass")
    act(state, 0, "karma")
    assert GAME.to_act(state) == {1} and state.phase == "choose" and state.active == 1


def test_bad_karma_is_the_turquoise_value_and_a_1_7_counts_1() -> None:
    state = GAME.position([EMPTY, EMPTY], dice="6 + 1/7")
    act(state, 1, "pass")
    act(state, 0, "karma")
    state2 = GAME.position([EMPTY, EMPTY], dice="6 + 5")
    act(state2, 1, "pass")
    act(state2, 0, "karma")
    assert state.karma[0] == (1,) and state2.karma[0] == (5,)
    assert GAME.scores(state)[0] == -1 and GAME.scores(state2)[0] == -5


def test_only_the_roller_takes_bad_karma_and_only_the_others_pass() -> None:
    state = GAME.position([EMPTY, EMPTY], dice="2 + 3")
    assert reason(state, 1, "karma") == "only the player who rolled takes bad karma; you may pass"
    assert reason(state, 0, "pass") == "the player who rolled must write the sum or take bad karma"
    assert KARMA in GAME.legal_actions(state, 0) and PASS not in GAME.legal_actions(state, 0)
    assert PASS in GAME.legal_actions(state, 1) and KARMA not in GAME.legal_actions(state, 1)


def test_a_fellow_player_with_no_circle_for_the_white_sum_is_not_asked() -> None:
    # Seat 1's only empty circle is a4, which must stay below 2: no white total fits.
    full = "0 / 2 3 4 / 3 4 5 6 7 / 4 5 6 7 8 9 10 / 7 8 9 10 11 / 11 12 13 / 14".replace("0 /", ". /", 1)
    state = GAME.position([EMPTY, full], dice="5 + 5")
    assert state.asked == (0,)
    assert GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 1) == ()


def test_same_number_twice_in_a_line_is_refused() -> None:
    state = GAME.position(
        [". / . . . / . . . . . / . . 9 . . . . / . . . . . / . . . / .", EMPTY], dice="4 + 5"
    )
    assert reason(state, 0, "9@d6") == (
        "9 in d6 must be greater than the 9 in d3 to its left (row d increases left to right)"
    )
    assert GAME.illegal_reason(state, 0, GAME.parse_action("9@c6")) is None  # other row and column


# ----------------------------------------------------------------------------- simultaneity
def test_choices_are_hidden_until_everyone_decided_then_entered_at_once() -> None:
    state = GAME.position([EMPTY, EMPTY, EMPTY], dice="3 3 + 2")  # 8 for seat 0, 6 for the others
    act(state, 1, "6@d4")
    for seat in (0, 2, None):
        view = GAME.view(state, seat)
        assert view.my_choice == ""
        assert view.sheets[1] == parse_sheet(EMPTY)
        assert view.to_decide == (0, 2)
    assert GAME.view(state, 1).my_choice == "6@d4"
    act(state, 2, "pass")
    kinds = act(state, 0, "8@d5")
    assert "entries" in kinds
    assert state.sheets[1][parse_cell("d4")] == 6 and state.sheets[0][parse_cell("d5")] == 8


ROW_B_MISSING_B5 = ". / 5 7 . / . . . . . / . . . . . . . / . . . . . / . . . / ."


def test_completions_on_the_same_roll_all_count_as_first() -> None:
    state = GAME.position([ROW_B_MISSING_B5, ROW_B_MISSING_B5, ROW_B_MISSING_B5], dice="4 5 + 2")
    act(state, 0, "11@b5")  # 4 + 5 + 2
    act(state, 1, "9@b5")  # 4 + 5
    act(state, 2, "pass")
    assert [p[0] for p in state.line_points] == [7, 7, 0]
    # The next roll's completer is second: half of 7, rounded up. The position fixes that roll's dice.
    state = GAME.read_position(GAME.write_position(state).replace("| queue - |", "| queue 4 4 + 2 |"))
    act(state, 1, "roll 2")
    assert (state.white, state.turquoise) == ((4, 4), 2)  # 8 for seats 0 and 2, 10 for seat 1
    assert GAME.to_act(state) == {0, 1, 2}
    act(state, 0, "pass")
    act(state, 1, "karma")
    act(state, 2, "8@b5")
    assert [p[0] for p in state.line_points] == [7, 7, 4]


# ------------------------------------------------------------------------------------- the end
NEARLY_FULL = "1 / 2 3 4 / 3 4 5 6 7 / 4 5 6 7 8 9 10 / 7 8 9 10 11 / 11 12 13 / ."


def test_filling_the_25th_circle_ends_the_game_after_the_round() -> None:
    state = GAME.position([EMPTY, NEARLY_FULL, EMPTY], active=1, dice="6 + 1/7")  # 7 or 13 for seat 1
    act(state, 0, "pass")
    act(state, 2, "pass")
    assert "end_triggered" in act(state, 1, "13@g4")
    assert state.ending and not GAME.is_over(state)
    assert GAME.to_act(state) == {2}  # seat 2 still rolls: everyone rolls equally often
    act(state, 2, "roll 1")
    for seat in sorted(GAME.to_act(state)):
        act(state, seat, "karma" if seat == 2 else "pass")
    assert GAME.is_over(state) and GAME.to_act(state) == frozenset()
    with pytest.raises(GameOverError):
        GAME.apply(state, 0, GAME.parse_action("roll 1"))


def test_the_fourth_bad_karma_ends_the_game_after_the_round() -> None:
    state = GAME.position([EMPTY, EMPTY], karma=[[], [2, 3, 4]], active=1, dice="2 + 5")
    act(state, 0, "pass")
    assert "game_over" in act(state, 1, "karma")  # seat 1 was last in the round
    assert state.karma[1] == (2, 3, 4, 5)
    assert GAME.scores(state) == (0.0, -14.0)


def test_the_game_does_not_end_mid_round_when_the_starter_triggers_it() -> None:
    state = GAME.position([EMPTY, EMPTY], karma=[[1, 1, 1], []], active=0, dice="2 + 3")
    act(state, 1, "pass")
    act(state, 0, "karma")
    assert state.ending and GAME.to_act(state) == {1}


# --------------------------------------------------------------------------------- tie-breaks
def test_ties_go_to_fewer_bad_karma_spaces_then_are_shared() -> None:
    six = "6 / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."
    four = "4 / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."
    state = GAME.position([four, six, six], karma=[[], [1, 1], [2]])
    assert GAME.scores(state) == (4.0, 4.0, 4.0)
    assert GAME.winners(state) == {0}
    state = GAME.position([six, six, four], karma=[[1], [1], [2, 3]])
    assert GAME.scores(state) == (5.0, 5.0, -1.0)
    assert GAME.winners(state) == {0, 1}


# ------------------------------------------------------------------------------------ notation
def test_action_notation_round_trips_and_refuses_junk() -> None:
    state = GAME.position([EMPTY, EMPTY], dice="1/7 6 + 1/7")
    for action in [*GAME.legal_actions(state, 0), *GAME.legal_actions(state, 1)]:
        text = GAME.format_action(action)
        assert GAME.parse_action(text) is action  # interned
        assert GAME.action_from_json(GAME.action_to_json(action)) == action
    assert GAME.format_action(GAME.parse_action(" 14 @ C3 ")) == "14@c3"
    for junk in ("", "roll 4", "roll", "14@h1", "14@a1", "0@d4", "29@d4", "14", "@d4", "bad", "karma 3"):
        with pytest.raises(NotationError):
            GAME.parse_action(junk)


def test_sheet_notation_round_trips_and_names_cells() -> None:
    sheet = parse_sheet(MAGDALENA)
    assert parse_sheet(format_sheet(sheet)) == sheet
    assert format_sheet(sheet) == MAGDALENA
    assert CELL_NAMES[:4] == ("a4", "b3", "b4", "b5") and CELL_NAMES[-1] == "g4"
    for junk in (
        ". / .",
        ". / . . / . . . . . / . . . . . . . / . . . . . / . . . / .",
        EMPTY.replace(".", "x", 1),
    ):
        with pytest.raises(NotationError):
            parse_sheet(junk)
    with pytest.raises(NotationError):
        parse_dice("1/7 8 + 4")


def test_render_shows_the_diamond_marks_and_the_legal_circles() -> None:
    state = GAME.position([MAGDALENA, EMPTY], dice="4 4 + 6")
    text = GAME.render(GAME.view(state, 0))
    assert "I'm first" in text and "turquoise" in text
    assert "14 -> c6 d6 d7 f3 f5" in text
    assert "[magenta]<12>[/magenta] [magenta]< +>[/magenta] [cyan]{ +}[/cyan]" in text  # d5 d6 d7
    assert text.count(" +") == 5  # the five legal circles
    assert "[cyan]{ ·}[/cyan]" in text  # empty truth circles


# ------------------------------------------------------------------------------- the fast path
def test_legal_actions_from_the_masks_match_the_rule_read_from_the_sheet() -> None:
    """The bitmasks of the hot path against the rule itself: every value the dice allow the seat, in
    every empty circle whose filled neighbours it fits between (circle by circle, then by value), for
    one total, two (one 1/7 die) and more."""
    rng = random.Random(8)
    checked: dict[int, int] = {}
    for game in range(12):
        state = GAME.new_game(2 + game % 3, {}, seed=game)
        while GAME.to_act(state):
            for seat in sorted(GAME.to_act(state)):
                if state.phase != "decide":
                    continue
                sheet = state.sheets[seat]
                values = GAME.totals(state, seat)
                expected = [
                    f"{v}@{CELL_NAMES[c]}"
                    for c in range(len(sheet))
                    if not sheet[c]
                    for v in values
                    if c in legal_cells(sheet, v)
                ]
                writes = [
                    GAME.format_action(a)
                    for a in GAME.legal_actions(state, seat)
                    if "@" in GAME.format_action(a)
                ]
                assert writes == expected
                checked[len(values)] = checked.get(len(values), 0) + 1
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    assert checked[1] > 300 and checked[2] > 100 and checked[3] > 10
