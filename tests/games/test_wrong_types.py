"""What a caller hands the engine from outside (a seed, an action object) is refused with a typed error,
in every game, when it is not of the type it stands for; never a bare TypeError, never silently taken."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest

from coven.bots.arena import make_bot, run_tournament
from coven.core import BotError, Driver, IllegalActionError, InvalidOptionError, RandomBot
from coven.games import game_ids, get_game
from coven.games.amulets.notation import Ask, Cast
from coven.games.brujas.notation import MoveWitch, Play, Take
from coven.games.commandments.notation import Judge, Ordain, Place
from coven.games.namaste.notation import Roll, Write

BAD_SEEDS: list[Any] = ["7", 1.5, None, True, False, b"7", [7], np.float64(7.0)]


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_a_seed_that_is_no_whole_number_is_an_invalid_option(game_id: str, seed: object) -> None:
    game = get_game(game_id)
    players = game.spec.max_players
    with pytest.raises(InvalidOptionError, match="a seed is a whole number, not"):
        game.new_game(players, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="a seed is a whole number, not"):
        game.new_game(players, {}, seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seed", [np.int64(7), np.uint32(7), np.int8(7)], ids=repr)
def test_a_numpy_integer_seed_deals_as_its_int(game_id: str, seed: object) -> None:
    game = get_game(game_id)
    players = game.spec.max_players
    expected = game.write_position(game.new_game(players, seed=7))
    assert game.write_position(game.new_game(players, seed=seed)) == expected  # type: ignore[arg-type]
    assert game.write_position(game.new_game(players, {}, seed=seed)) == expected  # type: ignore[arg-type]


def test_the_arena_and_bots_check_their_seeds() -> None:
    game = get_game("namaste")
    with pytest.raises(InvalidOptionError, match="seed"):
        run_tournament(game, ["random"], 2, 1, seed="7")  # type: ignore[arg-type]
    numpy_seeded = run_tournament(game, ["random"], 2, 2, seed=np.int64(3)).to_json()  # type: ignore[arg-type]
    int_seeded = run_tournament(game, ["random"], 2, 2, seed=3).to_json()
    for result in (numpy_seeded, int_seeded):
        del result["games_per_second"]
    assert numpy_seeded == int_seeded and type(numpy_seeded["seed"]) is int
    with pytest.raises(InvalidOptionError, match="seed"):
        make_bot(game, "random", 0, 1.5)  # type: ignore[arg-type]
    make_bot(game, "random", 0, np.int64(1))  # type: ignore[arg-type]


def test_namaste_positions_check_their_seed() -> None:
    game: Any = get_game("namaste")
    empty = ". / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."
    with pytest.raises(InvalidOptionError, match="seed"):
        game.position([empty, empty], seed="1")
    numpy_seeded = game.position([empty, empty], seed=np.int64(1))
    assert game.write_position(numpy_seeded) == game.write_position(game.position([empty, empty], seed=1))


# ------------------------------------------------------------------------------------ actions
class Text(str):
    """A text that is not exactly a ``str``: no notation reads one back as itself."""


def wrong_types(action: Any) -> list[Any]:
    """``action`` with one field at a time of another type than the notation reads (the same value
    where one can be kept: a float, a numpy integer, a list for a tuple, a bool for 0 or 1)."""
    found: list[Any] = []
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        others: list[object] = [None]
        if type(value) is int:
            others += [float(value), str(value), np.int64(value)]
            others += [bool(value)] if value in (0, 1) else []
        elif type(value) is str:
            others += [Text(value), value.encode(), list(value)]
        elif type(value) is tuple:
            others += [list(value)]
            others += [tuple(bool(v) for v in value)] if value and set(value) <= {0, 1} else []
            others += [tuple(float(v) for v in value)] if value and type(value[0]) is int else []
        found.extend(dataclasses.replace(action, **{field.name: other}) for other in others)
    return found


ODD_ACTIONS: dict[str, list[Any]] = {
    "namaste": [Roll("2"), Roll(2.0), Roll(True), Write(True, 3), Write(4, 3.0)],  # type: ignore[arg-type]
    "brujas": [Play(3), Take(None), MoveWitch(["u", "p"])],  # type: ignore[arg-type]
    "commandments": [Ordain(None, None), Place([0, 1, 2]), Judge([1])],  # type: ignore[arg-type]
    "amulets": [Ask([0, 1, 2, 3, 4]), Cast((0, 1, 2, 3, 4.0))],  # type: ignore[arg-type]
}


def states(game: Any, players: int) -> list[Any]:
    """States met in a random game of ``players``: each decision's, a dozen of them."""
    rng = random.Random(players)
    state, met = game.new_game(players, seed=players), []
    while not game.is_over(state) and len(met) < 12:
        met.append(game.clone(state))
        seat = game.first_to_act(state)
        legal = game.legal_actions(state, seat)
        game.apply(state, seat, legal[rng.randrange(len(legal))])
    return met


@pytest.mark.parametrize("game_id", game_ids())
def test_an_action_with_fields_of_the_wrong_type_is_an_illegal_action(game_id: str) -> None:
    game: Any = get_game(game_id)
    for players in game.spec.player_counts:
        for state in states(game, players):
            for seat in sorted(game.to_act(state) | game.may_act(state)):
                legal = game.legal_actions(state, seat)
                taken = legal[0]
                game.apply(game.clone(state), seat, taken)  # well formed: taken (and kept as such)
                before = game.write_position(state)
                for action in [*wrong_types(taken), *ODD_ACTIONS[game_id]]:
                    with pytest.raises(IllegalActionError):
                        game.apply(state, seat, action)
                    with pytest.raises(IllegalActionError):
                        game.check(state, seat, action)
                    assert game.write_position(state) == before, action


def test_an_ill_formed_action_says_so() -> None:
    game: Any = get_game("namaste")
    state = game.new_game(2, seed=1)
    game.apply(game.clone(state), 0, Roll(1))
    with pytest.raises(IllegalActionError) as caught:
        game.apply(state, 0, Roll(True))  # equal to Roll(1) for Python, and once recorded "roll True"
    assert str(caught.value) == (
        "Roll(white=True) is not a well-formed action of Namaste (a field of the wrong type, "
        "or a move its notation cannot write)"
    )
    reason = caught.value.reason
    assert reason is not None and reason.key == "refusal.core.ill_formed"
    game.apply(state, 0, Roll(1))


def test_a_bot_s_ill_formed_action_is_refused_by_the_driver() -> None:
    game = get_game("namaste")

    class Sloppy(RandomBot):
        def act(self, view: Any, legal: Any, required: bool) -> Any:
            return Roll(True) if Roll(1) in legal else super().act(view, legal, required)

    with pytest.raises(BotError, match="not a well-formed action"):
        Driver(game, game.new_game(2, seed=1), {0: Sloppy(game, 0, 1), 1: RandomBot(game, 1, 2)}).run()
