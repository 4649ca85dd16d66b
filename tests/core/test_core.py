"""The core contracts, on the toy game: options, errors, records, events, codecs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from coven.core import (
    Event,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    NotationError,
    NotYourTurnError,
    Option,
    Record,
    Registry,
    UnknownGameError,
    private,
    public,
    replay,
)
from coven.testing.conformance import all_views
from tests.core.toygame import GAME, Play


def test_option_parsing_accepts_text_and_typed_values() -> None:
    flag = Option("expert", False, "expert variant")
    assert flag.parse("true") is True
    assert flag.parse(False) is False
    count = Option("cap", 0, "question cap", minimum=0, maximum=20)
    assert count.parse("7") == 7
    choice = Option("side", "basic", "score cards", choices=("basic", "conflict"))
    assert choice.parse("conflict") == "conflict"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        (Option("expert", False, ""), "maybe", "true or false"),
        (Option("cap", 0, "", minimum=0, maximum=20), "21", "at most 20"),
        (Option("cap", 0, "", minimum=0, maximum=20), -1, "at least 0"),
        (Option("cap", 0, ""), True, "whole number"),
        (Option("side", "basic", "", choices=("basic", "conflict")), "other", "one of basic, conflict"),
    ],
)
def test_option_errors_say_what_is_wrong(option: Option, value: object, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        option.parse(value)


def test_new_game_validates_players_and_options() -> None:
    with pytest.raises(InvalidOptionError, match="2 to 3 players"):
        GAME.new_game(4)
    with pytest.raises(InvalidOptionError, match="no option 'colour'"):
        GAME.new_game(2, {"colour": "red"})
    with pytest.raises(InvalidOptionError, match="at most 3"):
        GAME.new_game(2, {"hand": 9})
    assert GAME.options(GAME.new_game(2, {"hand": "2"})) == {"hand": 2}


def test_same_seed_same_game_different_seed_different_deal() -> None:
    a, b, c = GAME.new_game(3, None, 7), GAME.new_game(3, None, 7), GAME.new_game(3, None, 8)
    assert all_views(GAME, a) == all_views(GAME, b)
    assert all_views(GAME, a) != all_views(GAME, c)


def test_every_refusal_is_typed_and_changes_nothing() -> None:
    state = GAME.new_game(2, None, 1)
    before = all_views(GAME, state)
    hand = state.hands[0]
    missing = next(c for c in range(1, 10) if c not in hand)
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 1, Play(state.hands[1][0]))
    with pytest.raises(IllegalActionError, match=f"do not hold a {missing}"):
        GAME.apply(state, 0, Play(missing))
    with pytest.raises(IllegalActionError, match="not an action"):
        GAME.apply(state, 0, "7")  # type: ignore[arg-type]
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 5, Play(hand[0]))
    assert all_views(GAME, state) == before
    # Errors subclass ValueError, like python-chess's.
    with pytest.raises(ValueError, match="may not act"):
        GAME.apply(state, 1, Play(1))


def test_game_over_refuses_everything() -> None:
    state = GAME.new_game(2, {"hand": 1}, 3)
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])
    assert GAME.is_over(state)
    with pytest.raises(GameOverError):
        GAME.apply(state, 0, Play(1))


def test_views_hide_other_hands_and_spectators_see_none() -> None:
    state = GAME.new_game(3, None, 4)
    assert GAME.view(state, 0).hand == tuple(state.hands[0])
    assert GAME.view(state, None).hand == ()
    raw = GAME.view_to_json(GAME.view(state, 1))
    assert isinstance(raw, dict)
    assert str(state.hands[0]) not in str(raw) or state.hands[0] == state.hands[1]


def test_sampled_world_keeps_the_view_and_redeals_the_rest() -> None:
    state = GAME.new_game(3, None, 5)
    worlds = [GAME.sample_world(state, 0, random.Random(i)) for i in range(10)]
    assert all(GAME.view(w, 0) == GAME.view(state, 0) for w in worlds)
    assert len({tuple(w.hands[1]) for w in worlds}) > 1


def test_notation_errors_are_typed() -> None:
    for text in ("", "0", "10", "x"):
        with pytest.raises(NotationError):
            GAME.parse_action(text)
    with pytest.raises(NotationError, match="unknown type"):
        GAME.action_from_json({"type": "Fold"})
    with pytest.raises(NotationError):
        GAME.action_from_json({"type": "Play", "card": "high"})
    with pytest.raises(NotationError):
        GAME.view_from_json({"seat": 0})


def test_record_round_trips_and_replays() -> None:
    state = GAME.new_game(2, None, 9)
    record_moves = []
    from coven.core import Move

    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        action = GAME.legal_actions(state, seat)[-1]
        GAME.apply(state, seat, action)
        record_moves.append(Move(seat, GAME.format_action(action)))
    record = Record("toy", 2, {"hand": 3}, 9, ("a", "b"), tuple(record_moves))
    assert Record.loads(record.dumps()) == record
    final = replay(GAME, record)
    assert GAME.scores(final) == GAME.scores(state)
    with pytest.raises(NotationError):
        Record.loads("{not json")
    with pytest.raises(NotationError, match="not a record"):
        Record.loads('{"game": "toy"}')
    # the seats are named all or not at all (a replay would otherwise invent the names it lacks)
    with pytest.raises(NotationError, match="name all 2 seats or none, not 1"):
        Record.loads('{"game": "toy", "players": 2, "seed": 9, "seats": ["a"], "moves": []}')
    assert Record.loads('{"game": "toy", "players": 2, "seed": 9, "moves": []}').seats == ()


def test_a_record_is_saved_and_loaded_by_any_path(tmp_path: Path) -> None:
    record = Record("toy", 2, {"hand": 3}, 9, ("a", "b"))
    record.save(str(tmp_path / "as-text.json"))  # a path as text, as a researcher types it
    record.save(tmp_path / "as-path.json")
    assert Record.load(str(tmp_path / "as-path.json")) == Record.load(tmp_path / "as-text.json") == record


def test_events_carry_an_audience() -> None:
    everyone = public("play", seat=0, card=3)
    secret = private("deal", [1], cards=[1, 2])
    assert everyone.visible_to(None) and everyone.visible_to(2)
    assert secret.visible_to(1) and not secret.visible_to(0) and not secret.visible_to(None)
    assert Event.from_json(secret.to_json()) == secret
    with pytest.raises(NotationError):
        Event.from_json({"kind": 3})


def test_registry_is_lazy_and_refuses_unknown_ids() -> None:
    registry = Registry()
    registry.register_lazy("toy", "tests.core.toygame:GAME")
    assert registry.ids() == ["toy"]
    assert registry.get("toy") is GAME
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        registry.get("chess")
    with pytest.raises(ValueError, match="already registered"):
        registry.register(type(GAME)())


def test_a_copied_generator_draws_what_the_original_would_and_is_independent() -> None:
    from coven.core import copy_rng

    original = random.Random(42)
    original.random()
    copy = copy_rng(original)
    assert [copy.random() for _ in range(5)] == [original.random() for _ in range(5)]
    copy.random()
    assert copy.random() != original.random()


def test_fast_events_equal_the_plain_ones() -> None:
    """The hot paths' events (slots filled directly) are the very values the constructor makes."""
    from coven.core.events import Event, fast_event, slot_setters

    for audience in (None, frozenset({1, 2})):
        fast = fast_event("roll", {"seat": 1, "dice": "3 5"}, audience)
        plain = Event("roll", {"seat": 1, "dice": "3 5"}, audience)
        assert fast == plain and fast.to_json() == plain.to_json()
    assert len(slot_setters(Event)) == 3
