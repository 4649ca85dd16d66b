"""Namaste positions: the one-line text of a whole state (coven.games.namaste.notation), read and written
by hand, fixing future chance (the next dice in ``queue``, everything after in ``chance``)."""

from __future__ import annotations

import random

import pytest

from coven.core import Event, NotationError
from coven.core.chance import Chance
from coven.games.namaste import GAME, NamasteState, notation
from coven.games.namaste.notation import FACES
from coven.games.namaste.sheet import parse_cell, parse_sheet

EMPTY = ". / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."


def docstring_example() -> str:
    """The position the notation module's docstring shows, on one line."""
    doc = notation.__doc__ or ""
    block = doc.split("fixed order::")[1].strip().split("\n\n")[0]
    return " ".join(line.strip() for line in block.splitlines())


def act(state: NamasteState, seat: int, text: str) -> list[str]:
    return [e.kind for e in GAME.apply(state, seat, GAME.parse_action(text))]


def position(
    sheets: list[str],
    *,
    active: int = 0,
    phase: str = "choose",
    decided: str = "-",
    karma: tuple[str, ...] = (),
    lines: tuple[str, ...] = (),
    claimed: str = "-",
    chance: str = "0:0",
    queue: str = "-",
    rolls: int = 0,
) -> str:
    """A position text written out field by field, as a person would write one."""
    seats = [
        f"{sheet} ; karma {karma[s] if karma else '-'} ; lines {lines[s] if lines else '-'}"
        for s, sheet in enumerate(sheets)
    ]
    head = [
        f"namaste {len(sheets)}",
        "starter 0",
        f"active {active}",
        f"rolls {rolls}",
        phase,
        f"decided {decided}",
        "ending no",
        f"claimed {claimed}",
        f"chance {chance}",
        f"queue {queue}",
    ]
    return " | ".join(head + seats)


# ---------------------------------------------------------------------------------------- the text
def test_the_documented_example_reads_and_writes_back_the_same() -> None:
    text = docstring_example()
    state = GAME.read_position(text)
    assert GAME.write_position(state) == text
    assert state.active == 1 and state.turns == 7 and state.phase == "decide"
    assert (state.white, state.turquoise) == ((1, 2), 4)
    assert state.karma == [(), (2,)] and state.line_points[0][0] == 7 and state.claimed[0]
    # Seat 0 decided 3@c2, hidden from seat 1 and the spectators; seat 1 is still to decide.
    assert GAME.to_act(state) == {1}
    assert GAME.view(state, 0).my_choice == "3@c2"
    assert GAME.view(state, 1).my_choice == "" and GAME.view(state, None).to_decide == (1,)
    assert GAME.view(state, 1).sheets[0][parse_cell("c2")] == 0
    assert state.chance == Chance.at(0x9E3779B97F4A7C15, 21)


def test_a_new_game_writes_its_seed_as_chance_and_empty_sheets() -> None:
    state = GAME.new_game(3, {}, seed=5)
    text = GAME.write_position(state)
    assert text.startswith("namaste 3 | starter 0 | active 0 | rolls 0 | choose | decided - | ending no")
    assert f"chance {Chance(5).to_text()} | queue -" in text
    assert text.count(f"{EMPTY} ; karma - ; lines -") == 3


# ----------------------------------------------------------------------------------- future chance
def test_the_queue_fixes_the_next_roll_then_chance_takes_over() -> None:
    text = position([EMPTY, EMPTY], queue="3 5 + 2", chance="2a:7")
    state = GAME.read_position(text)
    assert act(state, 0, "roll 2") == ["roll"]
    assert (state.white, state.turquoise) == ((3, 5), 2)
    assert GAME.legal_actions(state, 1)[0] == GAME.parse_action("8@a4")  # 3 + 5 for the fellow player
    assert "queue -" in GAME.write_position(state) and "chance 2a:7 " in GAME.write_position(state)
    # The roll after comes from the chance source: the same for every reading of the same text.
    act(state, 1, "pass")
    act(state, 0, "karma")
    act(state, 1, "roll 3")
    again = GAME.read_position(text)
    for seat, action in ((0, "roll 2"), (1, "pass"), (0, "karma"), (1, "roll 3")):
        act(again, seat, action)
    assert (again.white, again.turquoise) == (state.white, state.turquoise)
    assert GAME.write_position(again) == GAME.write_position(state)


def test_a_short_queue_is_used_first_and_chance_rolls_the_rest() -> None:
    state = GAME.read_position(position([EMPTY, EMPTY], queue="1/7", chance="5:0"))
    act(state, 0, "roll 2")
    assert state.white[0] == 1  # the 1/7 face from the queue
    copy = Chance.at(5, 0)
    assert (state.white[1], state.turquoise) == (FACES[copy.below(6)], FACES[copy.below(6)])


def test_a_position_carries_the_future_the_original_would_have_rolled() -> None:
    rng = random.Random(3)
    state = GAME.new_game(4, {}, seed=11)
    for _ in range(60):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    back = GAME.read_position(GAME.write_position(state))
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        assert GAME.legal_actions(back, seat) == legal
        action = legal[rng.randrange(len(legal))]
        assert GAME.apply(back, seat, action) == GAME.apply(state, seat, action)
    assert GAME.scores(back) == GAME.scores(state)


# ------------------------------------------------------------------------ rules through positions
DANIEL = ". / 5 7 . / . . . . . / . . . . . . . / . . . . . / . . . / ."


def test_daniel_rolls_2_3_and_4_from_a_written_position_and_completes_row_b_first() -> None:
    """The rulebook's example with the dice fixed by the position, not set on the state."""
    state = GAME.read_position(position([EMPTY, DANIEL], active=1, rolls=1, queue="2 3 + 4"))
    act(state, 1, "roll 2")
    legal = GAME.legal_actions(state, 1)
    assert GAME.parse_action("9@b5") in legal and GAME.parse_action("9@a4") not in legal  # a4 < 7
    act(state, 0, "pass")
    assert act(state, 1, "9@b5") == ["decided", "entries", "line"]
    assert state.line_points[1][0] == 7 and GAME.scores(state) == (0.0, 7.0)


def test_a_second_completion_on_a_later_roll_scores_half_from_a_written_position() -> None:
    done = "2 / 3 4 5 / . . . . . / . . . . . . . / . . . . . / . . . / ."
    text = position([done, DANIEL], active=1, rolls=1, claimed="row b", lines=("4", "-"), queue="2 3 + 4")
    state = GAME.read_position(text)
    act(state, 1, "roll 2")
    act(state, 0, "pass")
    act(state, 1, "9@b5")
    assert state.line_points[1][0] == 4  # 7 halved, rounded up


def test_a_written_decision_on_the_table_resolves_with_the_last_one() -> None:
    text = position([EMPTY, EMPTY, EMPTY], phase="decide 3 3 + 2", decided="1=6@d4 2=pass")
    state = GAME.read_position(text)
    assert GAME.to_act(state) == {0} and state.asked == (0, 1, 2)
    act(state, 0, "8@d5")
    assert state.sheets[1] == parse_sheet(". / . . . / . . . . . / . . . 6 . . . / . . . . . / . . . / .")
    assert state.sheets[0][parse_cell("d5")] == 8 and state.phase == "choose" and state.active == 1


# ----------------------------------------------------------------------------------- bad positions
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("namaste 2", "namaste 5"), "2-4 players"),
        (lambda t: t.replace(" | queue 3 5 2", ""), "fields"),
        (lambda t: t.replace("active 1", "active 2"), "active seat is a seat 0-1"),
        (lambda t: t.replace("decided 0=3@c2", "decided 0=7@c2"), "cannot have decided 7@c2"),
        (lambda t: t.replace("decided 0=3@c2", "decided 0=3@c2 1=pass"), "cannot have decided pass"),
        (lambda t: t.replace("decide 1/7 2 + 4", "choose"), "decisions are taken only on a roll"),
        (lambda t: t.replace("1 / 5 7 9", "1 / 5 4 9"), "rows and columns increase"),
        (lambda t: t.replace("; lines 7", "; lines 5"), "row b scores 7 or 4, not 5"),
        (lambda t: t.replace("; lines 7", "; lines -"), "completes 1 lines; 0 given"),
        (lambda t: t.replace("claimed row b", "claimed -"), "completed row b, so it is claimed"),
        (lambda t: t.replace("claimed row b", "claimed row z"), "no line 'row z'"),
        (lambda t: t.replace("chance 9e3779b97f4a7c15:21", "chance 21"), "key:counter"),
        (lambda t: t.replace("karma 2 ;", "karma 2 7 ;"), "bad-karma values of 1-6"),
        (lambda t: t.replace("queue 3 5 2", "queue 3 8"), "die faces are 2-6 and 1/7"),
        (lambda t: t.replace("ending no", "ending maybe"), "ending is 'yes' or 'no'"),
        (lambda t: t.replace("decide 1/7 2 + 4", "decide 1/7 2"), "dice are 1-3 white faces"),
    ],
)
def test_a_bad_position_says_what_is_wrong(change: object, message: str) -> None:
    text = change(docstring_example())  # type: ignore[operator]
    with pytest.raises(NotationError) as info:
        GAME.read_position(text)
    assert message in str(info.value)


# ------------------------------------------------------------------------------------------ events
def test_events_made_through_their_slots_equal_plain_events() -> None:
    state = GAME.read_position(position([EMPTY, DANIEL], active=1, rolls=1, queue="2 3 + 4"))
    events = [*GAME.apply(state, 1, GAME.parse_action("roll 2"))]
    events += GAME.apply(state, 0, GAME.parse_action("pass"))
    events += GAME.apply(state, 1, GAME.parse_action("9@b5"))
    plain = [Event(e.kind, dict(e.data), e.audience) for e in events]
    assert events == plain
    assert [e.to_json() for e in events] == [p.to_json() for p in plain]
    assert events[1] == Event("decided", {"seat": 0, "action": "pass"}, frozenset({0}))
    assert events[2] == Event("waiting", {"seat": 0, "still": [1]})
