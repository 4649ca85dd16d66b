"""Rule tests in notation: every worked example of the rulebook, the exceptions, the witch, collecting,
scoring and both variants. Positions are written in the compact form of ``coven.games.brujas.notation``:

    <witches top..bottom> <hands seat0/seat1/..> <piles ..> <leader> <trick> <phase> [<aside>] [conflict]
    [silent] [past=<tricks>]
"""

from __future__ import annotations

import random
import re

import pytest

from coven.core import IllegalActionError, NotationError, NotYourTurnError
from coven.games.brujas import GAME, BrujasState
from coven.games.brujas.cards import KIND, add
from coven.games.brujas.notation import format_position, parse_position
from coven.games.brujas.state import SCORE_VALUES, devil_scores, witch_scores


def pos(text: str) -> BrujasState:
    return GAME.read_position(text)


def legal(state: BrujasState) -> str:
    (seat,) = GAME.to_act(state)
    return " ".join(GAME.format_action(a) for a in GAME.legal_actions(state, seat))


def act(state: BrujasState, *moves: str) -> None:
    """Apply moves in notation through the checked path, each by the seat whose turn it is."""
    for move in moves:
        (seat,) = GAME.to_act(state)
        GAME.apply(state, seat, GAME.parse_action(move))


def turn(state: BrujasState) -> int:
    (seat,) = GAME.to_act(state)
    return seat


def pile(*names: str) -> int:
    bits = 0
    for name in names:
        bits = add(bits, KIND[name])
    return bits


# ------------------------------------------------------------------------------- rulebook examples
def test_example_second_player_matches_colour_or_number() -> None:
    # "Green 3 is the first card. In the hand of second player, Green 4 or Yellow 3 can be played,
    # but Red 2 can't."
    state = pos("RBYG B1B5/R2Y3G4/R4B2Y5/B3Y1G1 -/-/-/- 0 G3 play")
    assert turn(state) == 1
    assert legal(state) == "Y3 G4"
    with pytest.raises(IllegalActionError, match="colour or the number of the first card G3"):
        act(state, "R2")
    assert format_position(state) == "RBYG B1B5/R2Y3G4/R4B2Y5/B3Y1G1 -/-/-/- 0 G3 play"


def test_example_lead_green_and_the_third_players_options() -> None:
    # "Green 3 and Green 4 are played. The Lead is then Green. In the third player's hand, only Green 5
    # can be played, Blue 1 and Yellow 4 can't."
    state = pos("RBYG R3B2/R1R5/B1Y4G5/B3B4Y2 -/-/-/- 0 G3G4 play")
    assert GAME.view(state, 2).lead == "colour"
    assert legal(state) == "G5"
    with pytest.raises(IllegalActionError, match="follow the Lead"):
        act(state, "Y4")


def test_example_witch_column_orders_colours_for_a_number_lead() -> None:
    # "Red > Blue > Yellow > Green": with a number Lead, the colour standing highest wins.
    state = pos("RBYG -/-/-/- -/-/-/- 0 G3Y3B3R1 witch")
    assert GAME.view(state, 0).lead == "number"
    assert turn(state) == 2  # Blue 3 (seat 2) beats Yellow 3 and Green 3; Red 1 does not follow
    state = pos("RBYG -/-/-/- -/-/-/- 0 G3Y3R3B3 witch")
    assert turn(state) == 2  # Red 3 (seat 2) stands highest


def test_example_acquired_colours_worth_five() -> None:
    # "You acquired 4 Red, 2 Blue, 4 Yellow and 3 Green. Red and Yellow are the colours with most cards.
    # In this case Red is of highest value, and you get 5 points."
    me = pile("R1", "R2", "R3", "R4", "B1", "B2", "Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3")
    rank = [0, 1, 2, 3]  # RBYG top to bottom
    assert witch_scores([me], rank, SCORE_VALUES["basic"], False) == [5]
    # The same pile with yellow above red takes yellow's value instead.
    assert witch_scores([me], [1, 2, 0, 3], SCORE_VALUES["basic"], False) == [5]
    assert witch_scores([me], [2, 3, 1, 0], SCORE_VALUES["basic"], False) == [3]


def test_example_devil_score() -> None:
    # 1: C most; 2: B most; 3: A and B; 4: B and C; 5: A and C -- 2 points each.
    a = pile("R3", "B3", "G5")
    b = pile("Y2", "G3", "Y3", "R4")
    c = pile("B1", "B4", "R5")
    assert devil_scores([a, b, c]) == [4, 6, 6]


def test_scores_add_witch_and_devil_and_ties_share_the_win() -> None:
    state = pos("RBYG -/-/- R1R2/B1B2/Y1Y2 0 - over")
    # Witch: red 5, blue 3, yellow 2. Devil: 1s and 2s tied by all three: 4 each.
    assert GAME.scores(state) == (9.0, 7.0, 6.0)
    assert GAME.winners(state) == frozenset({0})
    state = pos("RBYG -/-/- R1B2/B1R2/Y1Y2 0 - over")
    assert GAME.scores(state) == (9.0, 9.0, 6.0)
    assert GAME.winners(state) == frozenset({0, 1})


# ------------------------------------------------------------------------------------------ the Lead
def test_identical_second_card_leaves_the_lead_open() -> None:
    state = pos("RBYG B5Y5/B1Y1G3/R3B2G1/R5B4Y2 -/-/-/- 0 G3 play")
    act(state, "G3")
    assert GAME.view(state, 2).lead == ""
    assert legal(state) == "R3 G1"  # the third player now decides, still matching Green 3


def test_a_card_matching_neither_passes_the_decision_on() -> None:
    state = pos("RBYG B5/R1R2/B4Y3/R4B1 -/-/-/- 0 G3 play")
    assert legal(state) == "R1 R2"  # cannot match: any card
    act(state, "R1")
    assert GAME.view(state, 2).lead == ""
    assert legal(state) == "Y3"  # the third player must match Green 3
    act(state, "Y3")
    assert GAME.view(state, 3).lead == "number"


def test_a_card_that_does_not_follow_never_wins() -> None:
    state = pos("RBYG B2/B3/R2/R5B1 -/-/-/- 0 G1G2Y3 play")
    assert legal(state) == "R5 B1"
    act(state, "R5")
    assert turn(state) == 1  # Green 2 wins the colour Lead; Red 5 and Yellow 3 did not follow


def test_colour_lead_highest_number_wins() -> None:
    state = pos("RBYG -/-/-/- -/-/-/- 1 G2G4G1G3 witch")
    assert turn(state) == 2  # Green 4, the second card, played by seat 2


def test_exception_1_later_identical_card_wins() -> None:
    state = pos("RBYG -/-/-/- -/-/-/- 0 G3G5G5B1 witch")
    assert turn(state) == 2
    state = pos("YGBR -/-/-/- -/-/-/- 0 G3Y3Y3R3 witch")
    assert turn(state) == 2  # number Lead; the later Yellow 3 beats the first


def test_exception_2_no_lead_the_first_card_wins() -> None:
    state = pos("RBYG -/-/-/- -/-/-/- 3 G3R1B2Y4 witch")
    assert GAME.view(state, 0).lead == ""
    assert turn(state) == 3


def test_exception_3_identical_second_card_wins_when_no_lead() -> None:
    state = pos("RBYG -/-/-/- -/-/-/- 0 G3G3R1B2 witch")
    assert turn(state) == 1
    # An identical copy played before the Lead counts as following it.
    state = pos("GRBY -/-/-/- -/-/-/- 0 G3G3Y3B1 witch")
    assert GAME.view(state, 0).lead == "number"
    assert turn(state) == 1  # green stands highest: the later Green 3 wins


# ---------------------------------------------------------------------------------------- the witch
def test_witch_moves_one_step_either_way_and_swaps() -> None:
    state = pos("RBYG -/-/-/- -/-/-/- 0 B3B5Y1R2 witch")
    assert turn(state) == 1
    assert legal(state) == "up down"
    act(state, "up")
    assert format_position(state).startswith("BRYG ")
    assert GAME.view(state, 0).moved == "up"


def test_witch_at_the_top_only_moves_down_and_at_the_bottom_only_up() -> None:
    state = pos("RBYG -/-/-/- -/-/-/- 0 R3R5Y1B2 witch")
    assert legal(state) == "down"
    with pytest.raises(IllegalActionError, match="cannot move up"):
        act(state, "up")
    state = pos("RBYG -/-/-/- -/-/-/- 0 G3G5Y1B2 witch")
    assert legal(state) == "up"
    act(state, "up")
    assert format_position(state).startswith("RBGY ")


# ---------------------------------------------------------------------------------------- collecting
def test_collecting_from_the_winner_clockwise_then_the_winner_leads() -> None:
    state = pos("RBYG B4/B1/Y2/G2 -/-/-/- 2 R3R5Y1R5 witch")
    assert turn(state) == 1  # the later Red 5 (seat 1) wins
    act(state, "down")
    assert turn(state) == 1
    assert legal(state) == "xR3 xR5 xY1"  # identical cards are one choice
    act(state, "xR5")
    assert turn(state) == 2
    act(state, "xR5", "xY1")
    assert legal(state) == "xR3"  # the last picker takes the last card
    with pytest.raises(IllegalActionError, match="no R5 is left"):
        act(state, "xR5")
    act(state, "xR3")
    # The position now remembers the finished trick, as every seat does.
    assert format_position(state) == "BRYG B4/B1/Y2/G2 R3/R5/R5/Y1 1 - play past=2/R3R5Y1R5/1/down/R5R5Y1R3"
    assert turn(state) == 1


def test_the_game_ends_when_the_last_trick_is_collected() -> None:
    state = pos("RBYG -/-/- R1R2G3/B1B2/Y1Y2G5 0 G3G4G5 take/2/down/G5G3")
    assert turn(state) == 1
    act(state, "xG4")
    assert GAME.is_over(state)
    assert GAME.view(state, None).phase == "over"
    # Witch: red 5, blue 3, yellow 2; devil: every number has a leader, 6 points each.
    assert GAME.scores(state) == (11.0, 9.0, 8.0)


def test_out_of_turn_and_wrong_phase_are_refused() -> None:
    state = pos("RBYG B1B5/R2Y3G4/R4B2Y5/B3Y1G1 -/-/-/- 0 G3 play")
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 2, GAME.parse_action("B2"))
    with pytest.raises(IllegalActionError, match="time to play a card"):
        act(state, "up")
    with pytest.raises(IllegalActionError, match="hold no G5"):
        act(state, "G5")


# ------------------------------------------------------------------------- future fixed by a position
def test_a_hand_written_deal_fixes_every_card_to_come() -> None:
    # The deal is Brujas' only chance: writing the hands (and the card set aside) fixes the rest of the
    # game. Seat 0 leads; seat 1 must match Red 5 and only Red 4 does; the Lead is colour, so seat 2
    # must follow with Red 1. Yellow 5 lies aside, unseen by all, and never comes into play.
    text = "RBYG R5G1/R4B2/R1Y3 -/-/- 0 - play Y5"
    state = pos(text)
    assert GAME.write_position(state) == text
    assert all("Y5" in GAME.hidden_facts(state, seat) for seat in range(3))
    assert legal(state) == "R5 G1"
    act(state, "R5")
    assert legal(state) == "R4"
    act(state, "R4")
    assert legal(state) == "R1"
    act(state, "R1")
    assert turn(state) == 0  # the highest red wins
    assert legal(state) == "down"  # red stands at the top
    act(state, "down", "xR5", "xR4", "xR1")
    assert GAME.view(state, None).witches == ("B", "R", "Y", "G")
    act(state, "G1")
    assert legal(state) == "B2"  # matches neither green nor 1: any card (the only one)
    act(state, "B2", "Y3")
    assert GAME.view(state, None).lead == ""  # no Lead: the first card wins (exception 2)
    assert turn(state) == 0
    assert legal(state) == "up"  # green stands at the bottom
    act(state, "up", "xG1", "xB2", "xY3")
    assert GAME.is_over(state)
    assert GAME.write_position(state) == (
        "BRGY -/-/- R5G1/R4B2/R1Y3 0 - over Y5 past=0/R5R4R1/0/down/R5R4R1,0/G1B2Y3/0/up/G1B2Y3"
    )
    # Witch: seat 0 red (ties green, red stands higher) 3, seat 1 blue 5, seat 2 red 3.
    # Devil: 1s tied by seats 0 and 2; 5s seat 0; 2s and 4s seat 1; 3s seat 2.
    assert GAME.scores(state) == (7.0, 9.0, 7.0)
    assert GAME.winners(state) == {1}


def test_the_notation_docstring_examples_read_back() -> None:
    from coven.games.brujas import notation

    examples = re.findall(r"``([A-Z]{4} [^`]+)``", notation.__doc__ or "")
    assert len(examples) == 2
    for text in examples:
        assert GAME.write_position(pos(text)) == text
    after = pos(examples[1])
    assert turn(after) == 0
    assert GAME.view(after, 2).past[0].cards == ("R2", "R4", "G1", "R5")


def test_a_position_read_twice_plays_on_identically() -> None:
    # Everything to come is in the text: two games read from it, given the same choices, stay equal.
    text = GAME.write_position(GAME.new_game(4, {"silent": True}, 12))
    first, second = pos(text), pos(text)
    while GAME.to_act(first):
        seat = turn(first)
        assert GAME.legal_actions(first, seat) == GAME.legal_actions(second, seat)
        action = GAME.legal_actions(first, seat)[-1]
        assert GAME.apply(first, seat, action) == GAME.apply(second, seat, action)
    assert GAME.write_position(first) == GAME.write_position(second)
    assert GAME.is_over(second)


# -------------------------------------------------------------------------------------------- setup
@pytest.mark.parametrize(("players", "size"), [(3, 13), (4, 10), (5, 8)])
def test_deal_sizes_and_the_card_set_aside(players: int, size: int) -> None:
    state = GAME.new_game(players, None, 7)
    view = GAME.view(state, 0)
    assert view.hand_sizes == (size,) * players
    assert len(view.hand) == size
    assert sorted(view.witches) == sorted("RBYG")
    assert (state.aside >= 0) == (players == 3)
    every = sorted(c for s in range(players) for c in GAME.view(state, s).hand)
    assert len(every) == 40 - (players == 3)


# -------------------------------------------------------------------------------------------- variants
def test_devils_in_conflict_values_and_shared_colour_halved() -> None:
    state = pos("RBYG -/-/- R2B2/R1/Y1 0 - over conflict")
    # Seat 0: red and blue tie, red (8) counts; seat 1 holds red most too: both halved to 4.
    # Seat 2: yellow 3 alone. Devil: 2s seat 0; 1s seats 1 and 2 (tied at one).
    assert GAME.scores(state) == (4.0 + 2, 4.0 + 2, 3.0 + 2)
    state = pos("BRYG -/-/- B2/R1/Y1 0 - over conflict")
    assert GAME.scores(state) == (8.0 + 2, 5.0 + 2, 3.0 + 2)
    odd = pos("RBYG -/-/- B2/B1/Y1 0 - over conflict")
    assert GAME.scores(odd)[:2] == (3.0 + 2, 3.0 + 2)  # 5 halved, rounded up


def test_devils_in_conflict_half_of_the_bottom_witch_is_still_one() -> None:
    # Seats 0 and 1 both score green, beside the bottom score card (1): half, rounded up, is 1 again.
    state = pos("RBYG -/-/- G1/G2/Y1 0 - over conflict")
    assert GAME.scores(state) == (1.0 + 2, 1.0 + 2, 3.0 + 2)
    explained = GAME.explain(GAME.view(state, None))
    assert explained is not None
    for seat in explained.seats:
        assert sum(line.points for line in seat.lines) == GAME.scores(state)[seat.seat]
        assert all(line.points for line in seat.lines)  # no line that changes nothing
    assert any("green witch" in note for note in explained.seats[0].notes)


def test_witches_refrain_from_speaking_face_down_card_hidden_until_collecting() -> None:
    state = pos("RBYG Y5/Y4G4/R1R5/B2B5 -/-/-/- 0 G3 play silent")
    act(state, "G4")
    events = GAME.apply(state, 2, GAME.parse_action("R5"))  # cannot follow green: face down
    public = [e for e in events if e.audience is None]
    assert [e.data["card"] for e in public] == ["?"]
    assert all(e.visible_to(2) for e in events)
    assert not any(e.visible_to(0) and e.data.get("card") == "R5" for e in events)
    assert GAME.view(state, 2).trick == ("G3", "G4", "R5")
    assert GAME.view(state, 2).face_down == (False, False, True)
    for seat in (0, 1, 3, None):
        view = GAME.view(state, seat)
        assert view.trick == ("G3", "G4", "?")
        assert "R5" not in str(GAME.view_to_json(view))
    assert format_position(state) == "RBYG Y5/Y4/R1/B2B5 -/-/-/- 0 G3G4r5 play silent"
    act(state, "B2")
    assert turn(state) == 1  # Green 4 wins; the face-down card never does
    assert GAME.view(state, 0).trick[2] == "?"  # still hidden while the witch moves
    events = GAME.apply(state, 1, GAME.parse_action("up"))
    assert [e.kind for e in events] == ["witch", "reveal"]
    assert GAME.view(state, 0).trick == ("G3", "G4", "R5", "B2")
    assert GAME.legal_actions(state, 1) == tuple(GAME.parse_action(m) for m in ("xR5", "xB2", "xG3", "xG4"))


def test_a_face_down_card_never_sets_the_lead() -> None:
    state = pos("RBYG R5/R1R2/B4Y3/B1B2 -/-/-/- 0 G3 play silent")
    act(state, "R1")
    assert GAME.view(state, 0).trick == ("G3", "?")
    assert GAME.view(state, 0).lead == ""
    assert legal(state) == "Y3"


def test_without_the_variant_nothing_is_face_down() -> None:
    state = pos("RBYG Y5/Y4G4/R1R5/B2B5 -/-/-/- 0 G3 play")
    act(state, "G4", "R5")
    assert GAME.view(state, 0).trick == ("G3", "G4", "R5")


# -------------------------------------------------------------------------------------------- notation
@pytest.mark.parametrize("text", ["R3", "G5", "xB1", "up", "down"])
def test_action_notation_round_trips(text: str) -> None:
    action = GAME.parse_action(text)
    assert GAME.format_action(action) == text
    assert GAME.action_from_json(GAME.action_to_json(action)) == action


def test_action_notation_accepts_variants_and_refuses_junk() -> None:
    assert GAME.parse_action("take r3") == GAME.parse_action("xR3")
    assert GAME.parse_action(" UP ") == GAME.parse_action("up")
    for junk in ("", "R6", "Q1", "x", "sideways", "R33", "xx1"):
        with pytest.raises(NotationError):
            GAME.parse_action(junk)


@pytest.mark.parametrize(
    "text",
    [
        "RBYG G3 -/-/- 0 - play",  # one hand only
        "RBYY -/-/- -/-/- 0 - play",
        "RBYG R1R1R1/-/- -/-/- 0 - play",
        "RBYG -/-/- -/-/- 0 G3G4G5 play",
        "RBYG -/-/- -/-/- 0 G3 witch",
        "RBYG -/-/- -/-/- 7 - play",
        "RBYG -/-/- -/-/- 0 G3G4G5 take/0/sideways/-",
    ],
)
def test_bad_positions_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_position(text)


# ------------------------------------------------------------------- positions no game could reach
# What write_position writes always holds together; a text that could come from no game is refused (a
# state read from it could deadlock: a seat to act with no card while others still hold some).
IMPOSSIBLE = [
    pytest.param(
        # found by fuzzing: hands of 9, 8, 10 and 10 cards; after 82 random moves seat 1 had to act with
        # no legal action while the game was not over
        "RBYG R2R5B1B1Y1G1G4G4G5/B2B4B5Y3Y5Y5G2G2/R1R3R3R4R4B3Y1Y4Y4G5/R1R5B2B3B4B5Y2Y2Y3G1 -/-/-/- 0 G3G3 "
        "play",
        "seat 1 holds 8 cards, not 9: seat 2, next to play, holds 10",
        id="hands-against-the-trick",
    ),
    pytest.param(
        "RBYG B1Y4G5/R2R3/B2B3/Y1Y2 -/-/-/- 3 G3G4 play",
        "seat 3 holds 2 cards, not 1: seat 1, next to play, holds 2, and the 2 seats from the leader "
        r"\(seat 3\) on have played into the trick",
        id="hands-against-the-leader",
    ),
    pytest.param(
        "RBYG -/-/R1/- -/-/-/- 0 G3 play",
        "seat 1 is to play into the trick but holds no card",
        id="to-play-empty",
    ),
    pytest.param(
        "RBYG R1/B1B2/Y1Y2/G1G2 -/-/-/- 0 - play",
        "between tricks every hand holds as many cards, not 1/2/2/2",
        id="between-tricks",
    ),
    pytest.param(
        "RBYG R1/-/-/- -/-/-/- 0 G3G4G5G1 witch",
        "once the trick is full every hand holds as many cards, not 1/0/0/0",
        id="full-trick",
    ),
    pytest.param(
        "RBYG R1/B1/Y1 -/-/- 0 - over",
        "the game is over only once every hand is empty, but seat 0 holds 1 card",
        id="over-with-cards",
    ),
    pytest.param(
        "RBYG -/-/- R1/B1/Y1 0 - play",
        r"every hand is empty: the game is over \(phase over\), not in play",
        id="play-with-no-cards",
    ),
    pytest.param(
        "RBYG B1B4/Y3G4/B2B3Y5/Y1Y2G1 -/-/-/- 0 G3R2 play",
        "seat 1 played R2 into the trick though it held Y3, which follows",
        id="trick-card-that-could-have-matched",
    ),
    pytest.param(
        "RBYG Y5/Y4/R1/B2B5 -/-/-/- 0 G3G4R5 play silent",
        r"R5 did not follow: it lies face down \(r5\) in the silent variant",
        id="silent-face-up",
    ),
    pytest.param(
        "RBYG -/-/R1/B2 -/-/-/- 0 G3g4 play silent",
        r"G4 followed: it lies face up \(G4\) in the silent variant",
        id="silent-face-down",
    ),
    pytest.param(
        "RBYG -/-/-/- -/G4/-/- 0 G3G4r5B2 take/1/down/G4 silent",
        "face-down cards are turned face up before collecting",
        id="face-down-while-collecting",
    ),
    pytest.param(
        "RBYG -/-/- -/-/- 0 G3G4G5 take/1/down/-",
        "G5 of seat 2 won the trick, not seat 1's G4",
        id="take-winner",
    ),
    pytest.param(
        "RBYG -/-/- -/-/- 0 G3G4G5 take/2/up/-",
        "the G witch, now bottom, cannot have moved up after the trick",
        id="take-witch-move",
    ),
    pytest.param(
        "RBYG -/-/- -/-/- 0 G3G4G5 take/2/down/G5",
        "seat 2 picked G5 from the trick but its pile lacks it",
        id="take-pick-not-in-pile",
    ),
    pytest.param(
        "BRYG B4/B1/Y2/G2 R3/R5/R5/Y1 2 - play past=2/R3R5Y1R5/1/down/R5R5Y1R3",
        "seat 1 won past trick 1, so it led the trick after it, not seat 2",
        id="past-leader",
    ),
    pytest.param(
        "BRYG B4/B1/Y2/G2 Y1/R5/R3/R5 2 - play past=2/R3R5Y1R5/2/down/R3R5Y1R5",
        "R5 of seat 1 won past trick 1, not seat 2's R3",
        id="past-winner",
    ),
    pytest.param(
        "BRYG R2/B1/Y2/G2 R3/R5/R5/Y1 1 - play past=2/R3R5Y1R5/1/down/R5R5Y1R3",
        "seat 0 played Y1 into past trick 1 though it held R2, which follows",
        id="past-card-that-could-have-followed",
    ),
    pytest.param(
        "RBYG B4/B1/Y2/G2 R3/R5/R5/Y1 1 - play past=2/R3R5Y1R5/1/down/R5R5Y1R3",
        "the R witch, now top, cannot have moved down after past trick 1",
        id="past-witch-move",
    ),
]


@pytest.mark.parametrize(("text", "why"), IMPOSSIBLE)
def test_positions_no_game_could_reach_are_refused(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        parse_position(text)


def test_the_refused_positions_neighbours_are_accepted() -> None:
    # The same positions made coherent read back: the checks refuse the fault, not the shape.
    for text in (
        "RBYG B1Y4/R2R3G5/B2B3Y5/Y1Y2 -/-/-/- 3 G3G4 play",
        "RBYG -/-/R1/B2 -/-/-/- 0 G3G4 play",
        "RBYG R1R2/B1B2/Y1Y2/G1G2 -/-/-/- 0 - play",
        "RBYG -/-/- R1/B1/Y1 0 - over",
        "RBYG B1B4/B5G4/B2B3Y5/Y1Y2G1 -/-/-/- 0 G3Y3 play",
        "RBYG Y5/Y4/R1/B2B5 -/-/-/- 0 G3G4r5 play silent",
        "RBYG -/-/-/- -/G4/-/- 0 G3G4R5B2 take/1/down/G4 silent",
        "RBYG -/-/- -/-/G5 0 G3G4G5 take/2/down/G5",
        "BRYG B4/B1/Y2/G2 R3/R5/R5/Y1 1 - play past=2/R3R5Y1R5/1/down/R5R5Y1R3",
    ):
        assert GAME.write_position(pos(text)) == text


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"silent": True}, {"conflict": True, "silent": True}])
def test_every_written_position_reads_back_and_leaves_no_seat_stuck(
    players: int, options: dict[str, object]
) -> None:
    # The checks refuse nothing write_position writes: every step of many random games reads back, and
    # every seat to act has a legal action (nobody to act only once the game is over).
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_game(players, options, seed)
        while True:
            text = GAME.write_position(state)
            again = pos(text)
            assert GAME.write_position(again) == text
            assert GAME.to_act(again) == GAME.to_act(state)
            if not GAME.to_act(again):
                assert GAME.is_over(again)
                break
            (seat,) = GAME.to_act(again)
            legal = GAME.legal_actions(again, seat)
            assert legal
            GAME.apply(state, seat, legal[rng.randrange(len(legal))])
