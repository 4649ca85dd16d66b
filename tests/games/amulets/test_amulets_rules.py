"""Amulets rules, written in the game's notation: answers, questions, casts, turns, options."""

from __future__ import annotations

import pytest

from coven.core import IllegalActionError, NotationError, NotYourTurnError
from coven.games.amulets import GAME, Ask, Cast
from coven.games.amulets.board import (
    PLACEMENT_COUNT,
    answer,
    answer_codes,
    answer_masks,
    field_name,
    format_placement,
    parse_field,
    parse_placement,
    placement_at,
    placement_index,
)

from .helpers import answers, play, table

# Seat 1 is the spirit under test: Red amulet, home C3. Seat 0 asks.
SPIRIT = "Y@A1 R@C3 G@E5"


def _answer_of_spirit(question: str) -> str:
    state = table(SPIRIT)
    play(state, 0, f"ask {question}")
    return answers(state)[1]


# ------------------------------------------------------------------ the four answers and priority
def test_star_my_amulet_on_my_field() -> None:
    assert _answer_of_spirit("RC3 YA2 GB2 BD1 KE2") == "*"


def test_home_a_foreign_amulet_on_my_field() -> None:
    assert _answer_of_spirit("RA2 YC3 GB2 BD1 KE2") == "o"


def test_feel_same_letter() -> None:
    assert _answer_of_spirit("RC1 YA2 GB2 BD1 KE2") == "+"


def test_feel_same_number() -> None:
    assert _answer_of_spirit("RA3 YA2 GB2 BD1 KE2") == "+"


def test_nothing() -> None:
    assert _answer_of_spirit("RA1 YA2 GB2 BD4 KE2") == "-"


def test_star_over_feel() -> None:
    # the amulet on its own field also shares the field's letter and number: '*' is the answer
    assert answer((12, 0, 1, 2, 3), 12, 0) == "*"
    assert _answer_of_spirit("RC3 YC1 GA3 BD1 KE2") == "*"


def test_home_over_feel() -> None:
    # Red is in the home's column (C5) and Yellow sits on the home (C3): 'o' wins over '+'
    assert _answer_of_spirit("RC5 YC3 GB2 BD1 KE2") == "o"


def test_answer_masks_and_codes_agree_with_answer() -> None:
    for q in (placement_at(0), placement_at(123457), placement_at(PLACEMENT_COUNT - 1), (12, 2, 7, 22, 13)):
        masks = answer_masks(q)
        codes = answer_codes(q)
        for pair in range(125):
            field, amulet = pair % 25, pair // 25
            expected = "*o+-".index(answer(q, field, amulet))
            assert codes[pair] == expected
            assert [m >> pair & 1 for m in masks] == [int(i == expected) for i in range(4)]


# ------------------------------------------------------------------ questions
def test_every_other_wizard_answers_clockwise_and_publicly() -> None:
    state = table("R@A1 Y@B2 G@C3 B@D4")
    events = play(state, 0, "ask RA1 YB2 GA3 BE4 KE5")
    question = events[0]
    assert question.kind == "question" and question.audience is None
    assert question.data["answers"] == [[1, "*"], [2, "+"], [3, "+"]]
    assert answers(state) == ".*++"
    assert state.turn == 1
    state2 = table("R@A1 Y@B2 G@C3 B@D4")
    state2.turn = 2
    events = play(state2, 2, "ask RA1 YB2 GA3 BE4 KE5")
    assert events[0].data["answers"] == [[3, "+"], [0, "*"], [1, "*"]]


def test_only_the_asker_asks_and_others_may_cast() -> None:
    state = table(SPIRIT)
    assert GAME.to_act(state) == {0}
    assert GAME.may_act(state) == {1, 2}
    with pytest.raises(IllegalActionError, match="only the asker"):
        play(state, 1, "ask RA1 YA2 GB2 BD4 KE2")
    assert state.book == []


def test_a_placement_needs_distinct_fields() -> None:
    state = table(SPIRIT)
    with pytest.raises(IllegalActionError, match="two amulets on A1"):
        play(state, 0, "ask RA1 YA1 GB2 BD4 KE2")
    with pytest.raises(IllegalActionError, match="all five"):
        GAME.apply(state, 0, Ask((0, 1, 2)))
    with pytest.raises(IllegalActionError, match="not a field"):
        GAME.apply(state, 0, Cast((0, 1, 2, 3, 25)))
    assert state.book == [] and not any(state.out)


# ------------------------------------------------------------------ casts
FOUR = "R@A1 Y@B2 G@C3 B@D4"  # Black belongs to nobody


def test_a_true_cast_wins() -> None:
    state = table(FOUR)
    events = play(state, 0, "cast RA1 YB2 GC3 BD4 KE5")
    assert state.over and GAME.winners(state) == {0}
    assert GAME.scores(state) == (1.0, 0.0, 0.0, 0.0)
    assert events[0].data["checks"] == [[1, "y"], [2, "y"], [3, "y"]]
    assert GAME.to_act(state) == frozenset() and GAME.may_act(state) == frozenset()


def test_the_unowned_amulets_may_go_anywhere() -> None:
    state = table(FOUR)
    play(state, 0, "cast RE1 YB2 GC3 BD4 KA2")  # own Red and nobody's Black placed anywhere
    assert GAME.winners(state) == {0}


def test_a_false_cast_stops_at_the_first_no() -> None:
    state = table(FOUR)
    events = play(state, 1, "cast RA1 YB2 GC4 BD5 KE5")  # seat 1 casts out of turn
    assert events[0].data["checks"] == [[2, "n"]]
    assert events[0].data["success"] is False
    assert answers(state) == "..n."
    assert state.out == [False, True, False, False]
    assert not state.over and state.turn == 0  # the game continues where interrupted
    assert GAME.may_act(state) == {2, 3}


def test_a_cast_by_a_wizard_whose_turn_it_is_not_can_win() -> None:
    state = table(FOUR)
    play(state, 0, "ask RA2 YB3 GC4 BD5 KE1")
    assert state.turn == 1
    play(state, 3, "cast RA1 YB2 GC3 BD4 KE5")
    assert GAME.winners(state) == {3}
    assert answers(state) == "yyy."


def test_a_failed_caster_keeps_answering_but_never_acts() -> None:
    state = table(FOUR)
    play(state, 0, "cast RA1 YB3 GC3 BD4 KE5")  # the asker fails: seat 1 says no at once
    assert state.out[0] and state.turn == 1
    assert GAME.legal_actions(state, 0) == ()
    with pytest.raises(NotYourTurnError):
        play(state, 0, "cast RA1 YB2 GC3 BD4 KE5")
    play(state, 1, "ask RA1 YB3 GC3 BE4 KE5")
    assert answers(state) == "*.*+"  # seat 0 still answers as a spirit
    # casts are checked by failed casters too
    play(state, 2, "cast RA2 YB2 GC3 BD4 KE5")  # seat 3 says yes, seat 0 (out) says no
    assert answers(state) == "n..y" and state.book[-1].kind == "cast"


def test_turn_skips_failed_casters() -> None:
    state = table(FOUR)
    play(state, 1, "cast RA2 YB2 GC3 BD4 KE5")
    play(state, 0, "ask RA1 YB3 GC3 BE4 KE5")
    assert state.turn == 2


def test_every_wizard_failing_ends_without_a_winner() -> None:
    state = table("R@A1 Y@B2 G@C3")
    play(state, 1, "cast RA5 YB2 GC3 BD4 KE5")
    play(state, 2, "cast RA5 YB2 GC3 BD4 KE5")
    assert not state.over and GAME.to_act(state) == {0} and GAME.may_act(state) == frozenset()
    events = play(state, 0, "cast RA1 YB1 GC3 BD4 KE5")
    assert GAME.is_over(state) and [e.kind for e in events] == ["cast", "all_failed"]
    assert GAME.winners(state) == frozenset()
    assert GAME.scores(state) == (0.0, 0.0, 0.0)


def test_last_wizard_in_keeps_asking() -> None:
    state = table("R@A1 Y@B2 G@C3")
    play(state, 1, "cast RA5 YB2 GC3 BD4 KE5")
    play(state, 2, "cast RA5 YB2 GC3 BD4 KE5")
    play(state, 0, "ask RA2 YB3 GC4 BD4 KE5")
    assert state.turn == 0 and answers(state) == ".++"


# ------------------------------------------------------------------ options
def test_question_cap_forces_casts() -> None:
    state = table(SPIRIT, question_cap=2)
    play(state, 0, "ask RA2 YB3 GC4 BD4 KE5")
    play(state, 1, "ask RA2 YB3 GC4 BD4 KE5")
    assert len(GAME.legal_actions(state, 2)) == PLACEMENT_COUNT
    assert Ask((0, 1, 2, 3, 4)) not in GAME.legal_actions(state, 2)
    with pytest.raises(IllegalActionError, match="question cap"):
        play(state, 2, "ask RA2 YB3 GC4 BD4 KE5")
    play(state, 2, "cast RA2 YB3 GC4 BD4 KE5")
    assert state.out[2]


def test_bounds_follow_the_cap() -> None:
    assert GAME.bounds(4, {"question_cap": 10, "assistant": False}).max_decisions == 14
    assert GAME.bounds(3, {"question_cap": 0, "assistant": False}).max_decisions == 63


def test_assistant_shows_in_render() -> None:
    state = table(SPIRIT, assistant=True)
    play(state, 0, "ask RC3 YA2 GB2 BD1 KE2")
    text = GAME.render(GAME.view(state, 2))
    assert "Deduction assistant" in text and "wizard 1" in text
    assert "Red" in text and "C3" in text
    plain = table(SPIRIT)
    play(plain, 0, "ask RC3 YA2 GB2 BD1 KE2")
    text = GAME.render(GAME.view(plain, 2))
    assert "Deduction assistant" not in text
    assert "The spell book" in text and "The altar" in text


# ------------------------------------------------------------------ notation and the lazy actions
def test_fields_and_placements_round_trip() -> None:
    assert [field_name(f) for f in (0, 4, 5, 24)] == ["A1", "A5", "B1", "E5"]
    assert all(parse_field(field_name(f)) == f for f in range(25))
    q = parse_placement("KE5 RA1 GC2 YB3 BD4")
    assert format_placement(q) == "RA1 YB3 GC2 BD4 KE5"
    assert parse_placement("a1 b3 c2 d4 e5") == q
    assert parse_placement("R@A1, Y@B3, G@C2, B@D4, K@E5") == q


def test_a_placement_is_read_in_the_french_initials_the_french_page_shows() -> None:
    # Rouge, Jaune, Vert, Bleu, Noir: what a French player sees on the pieces and in the spell book
    assert parse_placement("RA1 JB3 VC2 BD4 NE5") == parse_placement("RA1 YB3 GC2 BD4 KE5")
    assert parse_placement("ne5 jb3 RA1 vc2 bd4") == parse_placement("KE5 YB3 RA1 GC2 BD4")
    assert GAME.parse_action("ask RA1 JB3 VC2 BD4 NE5") == GAME.parse_action("ask RA1 YB3 GC2 BD4 KE5")
    with pytest.raises(NotationError, match="placed twice"):
        parse_placement("YA1 JB3 RC2 BD4 KE5")  # Y and J are the same amulet
    with pytest.raises(NotationError, match="not an amulet"):
        parse_placement("RA1 XB3 VC2 BD4 NE5")


@pytest.mark.parametrize("text", ["ask RA1 YB3 GC2 BD4 KE5", "cast RE5 YA1 GB1 BC1 KD1"])
def test_actions_round_trip(text: str) -> None:
    action = GAME.parse_action(text)
    assert GAME.format_action(action) == text
    assert GAME.action_from_json(GAME.action_to_json(action)) == action


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "ask",
        "pass RA1 YB3 GC2 BD4 KE5",
        "ask RA1 YB3 GC2 BD4",
        "ask RA1 RB3 GC2 BD4 KE5",
        "ask RA1 YB3 GC2 BD4 KF5",
        "ask XA1 YB3 GC2 BD4 KE5",
        "cast A1 B3 C2 D4 A6",
    ],
)
def test_junk_notation_is_refused(junk: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_action(junk)


def test_placement_indices_round_trip() -> None:
    for i in (0, 1, 20, 21, 999_999, PLACEMENT_COUNT - 1):
        q = placement_at(i)
        assert len(set(q)) == 5
        assert placement_index(q) == i
    assert placement_at(0) == (0, 1, 2, 3, 4)


def test_legal_actions_are_lazy_and_structural() -> None:
    state = table(SPIRIT)
    legal = GAME.legal_actions(state, 0)
    assert len(legal) == 2 * PLACEMENT_COUNT
    assert isinstance(legal[0], Ask) and isinstance(legal[PLACEMENT_COUNT], Cast)
    assert legal[-1] == Cast(placement_at(PLACEMENT_COUNT - 1))
    assert Ask((24, 3, 9, 11, 0)) in legal and Ask((24, 24, 9, 11, 0)) not in legal
    assert legal.index(Cast((5, 6, 7, 8, 9))) == PLACEMENT_COUNT + placement_index((5, 6, 7, 8, 9))
    others = GAME.legal_actions(state, 1)
    assert len(others) == PLACEMENT_COUNT and Ask((0, 1, 2, 3, 4)) not in others
    assert Cast((0, 1, 2, 3, 4)) in others


def test_advance_reaches_the_positions_of_apply_step_by_step() -> None:
    """``advance`` (no events) leaves every state exactly as ``apply_unchecked`` does, at every step of
    seeded random games at 3-5 players: questions, failed casts by the asker and by others, winning
    casts, every wizard failing."""
    import random

    from coven.games.amulets.board import AMULETS

    rng = random.Random(3)
    kinds: set[str] = set()
    for game in range(60):
        players = 3 + game % 3
        state = GAME.new_game(players, {}, seed=game)
        twin = GAME.clone(state)
        while GAME.to_act(state):
            seats = sorted(GAME.to_act(state) | GAME.may_act(state))
            seat = rng.choice(seats)
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            if rng.random() < 0.02 * (game % 4):  # a true cast: the wizards' amulets on their fields
                placed = list(action.fields)
                for s in range(players):
                    home, mine = state.fields[s], state.amulets[s]
                    if home in placed:
                        other = placed.index(home)
                        placed[other], placed[mine] = placed[mine], home
                    else:
                        placed[mine] = home
                assert len(set(placed)) == AMULETS
                action = Cast(tuple(placed))
            kinds.update(event.kind for event in GAME.apply_unchecked(state, seat, action))
            assert GAME.advance(twin, seat, action) is None
            assert GAME.write_position(twin) == GAME.write_position(state)
            assert twin == state
    assert {"question", "turn", "cast", "win", "all_failed"} <= kinds


def test_the_record_leaves_answers_unwritten_and_the_book_writes_the_spirits_answers() -> None:
    """``advance`` keeps a question's answers and a cast's checks out of the state's record (``""``);
    every reader of the spell book (``lines``, ``book``, the view, the position, the events) gets the
    answers each spirit gives by :func:`~coven.games.amulets.board.answer` and the checks up to the first
    ``n``, one spirit at a time, over seeded random games."""
    import random

    rng = random.Random(5)
    questions = 0
    for game in range(40):
        players = 3 + game % 3
        state = GAME.new_game(players, None, seed=100 + game)
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            events = GAME.apply_unchecked(state, seat, action)
            clockwise = [(seat + i) % players for i in range(1, players)]
            marks = ["."] * players
            if isinstance(action, Ask):
                questions += 1
                for s in clockwise:
                    marks[s] = answer(action.fields, state.fields[s], state.amulets[s])
                said = "".join(marks)
                assert events[0].data["answers"] == [[s, said[s]] for s in clockwise]
            else:
                for s in clockwise:
                    marks[s] = "y" if action.fields[state.amulets[s]] == state.fields[s] else "n"
                    if marks[s] == "n":
                        break
                said = "".join(marks)
                assert events[0].data["checks"] == [[s, said[s]] for s in clockwise if said[s] != "."]
            kind = "ask" if isinstance(action, Ask) else "cast"
            assert state.record[-1] == (kind, seat, action.fields, "")
            assert state.lines[-1] == (kind, seat, action.fields, said)
            assert state.book[-1].answers == GAME.view(state, seat).book[-1].answers == said
        assert [line[:3] for line in state.record] == [line[:3] for line in state.lines]
        written = GAME.write_position(state)
        assert GAME.write_position(GAME.read_position(written)) == written
    assert questions > 50


def test_a_clone_keeps_the_answered_book_and_neither_reaches_the_other() -> None:
    """A clone starts with a copy of its original's answered lines (the server clones before each move and
    shows every seat the new state: only the new line is answered). Moves on either side never show in
    the other's book, and each book is the one a fresh reading of its record gives."""
    import random

    rng = random.Random(3)
    for seed in range(12):
        state = GAME.new_game(4, None, seed=seed)
        while not GAME.is_over(state):
            before = state.lines  # answered (and kept) now
            twin = GAME.clone(state)
            assert twin.written == state.written and twin.written is not state.written
            seat = GAME.first_to_act(state)
            assert seat is not None
            legal = GAME.legal_actions(twin, seat)
            GAME.apply(twin, seat, legal[rng.randrange(len(legal))])
            assert state.lines == before  # the original's book did not move
            fresh = GAME.clone(twin)
            fresh.written = None
            assert twin.lines == fresh.lines and len(twin.lines) >= len(before)
            state = twin
