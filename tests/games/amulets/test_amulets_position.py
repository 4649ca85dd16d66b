"""Amulets positions (write_position / read_position), the deal from the state's Chance, and the hot
path's shortcuts (they must make exactly what the plain constructors make)."""

from __future__ import annotations

import itertools
import pickle
import random

import pytest

from coven.core import Event, InvalidOptionError, NotationError, public
from coven.core.chance import Chance
from coven.games.amulets import GAME, Ask, Cast, Entry, notation
from coven.games.amulets.board import PLACEMENT_COUNT, _slow_placement_at, placement_at
from coven.games.amulets.view import EVENT_KIND, Line, entry_of, write_line

from .helpers import answers, play

# Seat 0: Red on A1, seat 1: Yellow on B2, seat 2: Green on C3, seat 3: Blue on D4 (Black is nobody's).
# Seat 1 asked, seat 3 cast out of turn and failed, seat 2 asks next.
FOUR = "R@A1 Y@B2 G@C3 B@D4"
WRITTEN = f"{FOUR} | question_cap=0 assistant=no | 0?A2B3C4D5E1 3!A1B2C4D4E5 1?A1B3C3D4E5 | 0:0"


def test_a_hand_written_position_fixes_the_deal_and_the_spell_book() -> None:
    state = GAME.read_position(WRITTEN)
    assert (state.fields, state.amulets) == ((0, 6, 12, 18), (0, 1, 2, 3))
    # the answers follow from the secrets (Yellow on B3 is in the letter of seat 1's B2: '+'; seat 3's
    # cast fails at seat 2, whose Green is not on C4)...
    assert [e.as_tuple() for e in state.book] == [
        ("ask", 0, (1, 7, 13, 19, 20), ".+++"),
        ("cast", 3, (0, 6, 13, 18, 24), "yyn."),
        ("ask", 1, (0, 7, 12, 18, 24), "*.**"),
    ]
    # ... and so does everything else: the turn went 0 -> 1 -> 2, seat 3 is out, two questions
    assert state.turn == 2 and state.out == [False, False, False, True] and state.questions == 2
    assert GAME.to_act(state) == {2} and GAME.may_act(state) == {0, 1}
    assert state.chance == Chance.at(0, 0)
    # the written text is the canonical one, answers included
    text = GAME.write_position(state)
    assert text == (
        f"{FOUR} | question_cap=0 assistant=no | 0?A2B3C4D5E1:.+++ 3!A1B2C4D4E5:yyn. 1?A1B3C3D4E5:*.** | 0:0"
    )
    assert GAME.write_position(GAME.read_position(text)) == text


def test_the_example_of_the_notation_docstring() -> None:
    state = GAME.new_game(3, None, 2026)
    play(state, 0, "ask RA1 YB2 GC3 BD4 KE5")
    play(state, 2, "cast RC3 YA1 GE5 BB1 KB2")
    example = "Y@E2 K@C1 B@D3 | question_cap=0 assistant=no | 0?A1B2C3D4E5:.-+ 2!C3A1E5B1B2:n.. | 7ea:1"
    assert GAME.write_position(state) == example
    assert notation.__doc__ is not None and example in notation.__doc__


def test_a_position_plays_on_from_its_deal() -> None:
    state = GAME.read_position(WRITTEN)
    play(state, 2, "ask RA1 YB2 GC3 BE4 KE5")
    assert answers(state) == "**.+" and state.turn == 0  # seat 3 is out: the turn skips it
    events = play(state, 0, "cast RA1 YB2 GC3 BD4 KE5")
    assert [e.kind for e in events] == ["cast", "win"] and GAME.winners(state) == {0}
    assert GAME.write_position(state).endswith("0!A1B2C3D4E5:.yyy | 0:0")


def test_written_answers_must_be_the_ones_the_secrets_give() -> None:
    with pytest.raises(NotationError, match=r"line 1 .*gives? the answers '\.\+\+\+', not '\.\*\+\+'"):
        GAME.read_position(f"{FOUR} | - | 0?A2B3C4D5E1:.*++ | 0:0")


@pytest.mark.parametrize(
    ("book", "why"),
    [
        ("1?A2B3C4D5E1", "only the asker"),  # seat 0 asks first
        ("3!A1B2C4D4E5 3!A1B2C4D4E5", "may not act"),  # a wizard whose cast failed casts again
        ("0!A1B2C3D4E5 1?A2B3C4D5E1", "over"),  # a line after the winning cast
        ("0?A1A1C4D5E1", "two amulets on A1"),
    ],
)
def test_a_spell_book_that_breaks_the_rules_is_refused(book: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        GAME.read_position(f"{FOUR} | - | {book} | 0:0")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("R@A1 Y@B2 | - | - | 0:0", "3 to 5 players"),
        ("R@A1 Y@B2 G@C3 B@D4 K@E5 R@E1 | - | - | 0:0", "all different"),
        ("R@A1 Y@A1 G@C3 | - | - | 0:0", "all different"),
        ("R@A1 Y@B2 G@F3 | - | - | 0:0", "A1 to E5"),
        ("R@A1 Y@B2 X@C3 | - | - | 0:0", "R@C3"),
        ("R@A1 Y@B2 G@C3 | question_cap=99 | - | 0:0", "question_cap"),
        ("R@A1 Y@B2 G@C3 | dice=3 | - | 0:0", "no option"),
        ("R@A1 Y@B2 G@C3 | - | 3?A1B2C3D4E5 | 0:0", "no seat 3"),
        ("R@A1 Y@B2 G@C3 | - | 0?A1B2C3D4E5:.**+ | 0:0", "per seat"),
        ("R@A1 Y@B2 G@C3 | - | 0?A1B2C3D4 | 0:0", "five fields"),
        ("R@A1 Y@B2 G@C3 | - | - | 0", "key:counter"),
        ("R@A1 Y@B2 G@C3 | - | -", "four parts"),
        ("R@A1 Y@B2 G@C3 | - | - | 0:0\x00", "printable"),
    ],
)
def test_malformed_positions_say_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        GAME.read_position(text)


def test_a_position_mid_game_goes_on_like_the_game() -> None:
    rng = random.Random(5)
    state = GAME.new_game(5, {"question_cap": 9}, 11)
    while GAME.to_act(state):
        back = GAME.read_position(GAME.write_position(state))
        seat = min(GAME.to_act(state) | GAME.may_act(state), key=lambda s: rng.random())
        legal = GAME.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        assert GAME.apply(back, seat, action) == GAME.apply(state, seat, action)
        assert GAME.write_position(back) == GAME.write_position(state)
    assert state.options == {"question_cap": 9, "assistant": False}


# ------------------------------------------------------------------------------------- the deal
def test_the_deal_comes_from_the_states_chance() -> None:
    deals = set()
    for seed in range(200):
        state = GAME.new_game(5, None, seed)
        assert sorted(state.amulets) == [0, 1, 2, 3, 4] and len(set(state.fields)) == 5
        assert state.chance == Chance(seed, 1)  # the deal is one draw of the seed's chance
        deals.add((tuple(state.fields), tuple(state.amulets)))
    assert len(deals) == 200
    again = GAME.new_game(5, None, 3)
    assert (again.fields, again.amulets) == (GAME.new_game(5, {}, 3).fields, GAME.new_game(5, {}, 3).amulets)


def test_the_deal_is_uniform_enough() -> None:
    # each seat's amulet and field over many seeds: every value turns up about equally often
    amulet_counts = [0] * 5
    field_counts = [0] * 25
    for seed in range(5000):
        state = GAME.new_game(3, None, seed)
        amulet_counts[state.amulets[1]] += 1
        field_counts[state.fields[2]] += 1
    assert all(800 < n < 1200 for n in amulet_counts)
    assert all(130 < n < 270 for n in field_counts)


@pytest.mark.parametrize("players", [2, 6, True, "4"])
def test_the_fast_start_still_refuses_bad_player_counts(players: object) -> None:
    with pytest.raises(InvalidOptionError):
        GAME.new_game(players, None, 0)  # type: ignore[arg-type]


def test_clones_are_independent() -> None:
    state = GAME.read_position(WRITTEN)
    copy = GAME.clone(state)
    play(copy, 2, "cast RA1 YB2 GC3 BD4 KE5")
    assert copy.over and not state.over and len(state.book) == 3
    assert GAME.write_position(state) == GAME.write_position(GAME.read_position(WRITTEN))


# ------------------------------------------------------------------------------- the hot path
def test_the_hot_path_makes_the_plain_values() -> None:
    legal = GAME.legal_actions(GAME.read_position(WRITTEN), 2)
    for i in (0, 123_457, PLACEMENT_COUNT - 1):
        assert legal[i] == Ask(placement_at(i)) and type(legal[i]) is Ask
        assert (
            legal[PLACEMENT_COUNT + i] == Cast(placement_at(i)) and type(legal[PLACEMENT_COUNT + i]) is Cast
        )
    assert legal[-1] == Cast(placement_at(PLACEMENT_COUNT - 1)) and legal[-PLACEMENT_COUNT] == Cast(
        placement_at(0)
    )
    for outside in (len(legal), -len(legal) - 1):
        with pytest.raises(IndexError):
            legal[outside]
    book: list[Line] = []
    fields = (3, 7, 11, 15, 24)
    asked = write_line(book, "ask", 1, fields, "*.o+", EVENT_KIND["ask"])
    cast = write_line(book, "cast", 2, fields, "n..y", EVENT_KIND["cast"])
    assert book == [("ask", 1, fields, "*.o+"), ("cast", 2, fields, "n..y")]
    entries = [entry_of(line) for line in book]
    assert entries == [Entry("ask", 1, fields, "*.o+"), Entry("cast", 2, fields, "n..y")]
    assert [type(e) for e in entries] == [Entry, Entry] and [e.as_tuple() for e in entries] == book
    with pytest.raises(AttributeError):
        entries[0].seat = 2  # type: ignore[misc]
    # the events' data are written when read, and are then the plain dicts they stand for
    question = public(
        "question", seat=1, placement="RA4 YB3 GC2 BD1 KE5", answers=[[2, "o"], [3, "+"], [0, "*"]]
    )
    assert asked == question and question == asked
    assert cast == public(
        "cast", seat=2, placement="RA4 YB3 GC2 BD1 KE5", checks=[[3, "y"], [0, "n"]], success=False
    )
    assert asked.to_json() == question.to_json() and Event.from_json(asked.to_json()) == asked
    assert (
        pickle.loads(pickle.dumps(asked)) == question and type(pickle.loads(pickle.dumps(asked)).data) is dict
    )
    assert dict(asked.data) == dict(question.data) and repr(asked.data) == repr(dict(question.data))
    assert asked.audience is None and cast.kind == "cast"
    assert write_line([], "cast", 0, fields, ".yyy", "cast").data["success"] is True


def test_placement_tables_match_the_mixed_radix() -> None:
    rng = random.Random(1)
    for i in [
        0,
        1,
        10_625,
        10_626,
        PLACEMENT_COUNT - 1,
        *(rng.randrange(PLACEMENT_COUNT) for _ in range(2000)),
    ]:
        assert placement_at(i) == _slow_placement_at(i)


def test_the_cast_only_moves_and_the_deal_follow_the_plain_placements() -> None:
    """A wizard who may only cast indexes casts from 0; a new game deals by the plain placement of its
    one draw (the hot path inlines placement_at)."""
    state = GAME.read_position(WRITTEN)
    casts = GAME.legal_actions(state, 1 if state.turn != 1 else 0)
    assert len(casts) == PLACEMENT_COUNT
    for i in (0, 98_765, PLACEMENT_COUNT - 1, -1, -PLACEMENT_COUNT):
        assert casts[i] == Cast(placement_at(i % PLACEMENT_COUNT)) and type(casts[i]) is Cast
    assert casts[True] == Cast(placement_at(1)) and casts[1:3] == [casts[1], casts[2]]
    for outside in (PLACEMENT_COUNT, -PLACEMENT_COUNT - 1, 2**70):
        with pytest.raises(IndexError):
            casts[outside]
    with pytest.raises(TypeError):
        casts[1.0]  # type: ignore[call-overload]
    for players in (3, 4, 5):
        for seed in (0, 7, 2**40 + 3, 2**64 + 5, -9):
            where, order = divmod(Chance(seed).below(PLACEMENT_COUNT * 120), 120)
            dealt = GAME.new_game(players, None, seed)
            assert dealt.fields == placement_at(where)[:players]
            assert dealt.amulets == list(itertools.permutations(range(5)))[order][:players]
            assert dealt.chance == Chance.at(Chance(seed).key, 1)


def test_the_spell_book_of_a_view_is_read_once_per_line_and_equals_its_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from coven.games.amulets import view as view_module

    rng = random.Random(4)
    state = GAME.new_game(4, None, 4)
    while not GAME.is_over(state) and len(state.lines) < 6:
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    assert len(state.lines) >= 3
    first = view_module.views_of(state, (0, 1, None))
    for view in first.values():
        assert view.book == tuple(Entry(*line) for line in state.lines)
    later = view_module.views_of(GAME.clone(state), (2,))[2]  # a clone shares its lines: read before
    assert all(a is b for a, b in zip(later.book, first[0].book, strict=True))
    monkeypatch.setattr(view_module, "READ_BOUND", 2)  # full: the memo starts again, and stays right
    view_module._READ.clear()
    assert view_module.views_of(state, (1,))[1].book == first[1].book and len(view_module._READ) <= 2
