"""The conformance suite over every registered game, every player count, several seeds."""

from __future__ import annotations

from typing import Any

import pytest

from coven.core.game import Game
from coven.games import game_ids, get_game
from coven.testing.conformance import check_bad_setup, check_game, check_terminal
from tests.core.toygame import GAME as TOY

SEEDS = (1, 2, 3)


def _games() -> list[Game[object, object, object]]:
    return [TOY, *(get_game(i) for i in game_ids())]


CASES = [
    pytest.param(game, players, seed, id=f"{game.spec.id}-{players}p-s{seed}")
    for game in _games()
    for players in game.spec.player_counts
    for seed in SEEDS
]


@pytest.mark.parametrize(("game", "players", "seed"), CASES)
def test_random_game_keeps_every_promise(game: Game[object, object, object], players: int, seed: int) -> None:
    report = check_game(game, players, seed)
    assert report.decisions > 0
    assert report.checked_steps > 0
    assert report.worlds_sampled > 0


@pytest.mark.parametrize("players", [3, 5])
def test_amulets_with_its_assistant_keeps_every_promise(players: int) -> None:
    """The one game whose views carry a derived part (Game.derive_view) with it on: the bare views, once
    derived, are the views, at every checked step."""
    game = get_game("amulets")
    assert game.derives_views(game.spec.resolve_options({"assistant": True}))
    report = check_game(game, players, 4, {"assistant": True}, max_checked_steps=8)
    assert report.checked_steps > 0


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.spec.id)
def test_hidden_information_varies_in_sampled_worlds(game: Game[object, object, object]) -> None:
    if not game.spec.hidden_information:
        pytest.skip(f"{game.spec.id} declares no hidden information")
    players = game.spec.min_players
    assert any(check_game(game, players, seed).hidden_varied for seed in SEEDS)


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.spec.id)
def test_bad_setup_is_refused(game: Game[object, object, object]) -> None:
    check_bad_setup(game)


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.spec.id)
def test_every_game_offers_the_three_bots(game: Game[object, object, object]) -> None:
    if game is TOY:
        pytest.skip("the toy game only has the random bot")
    assert {"random", "greedy", "best"} <= set(game.bots())


def _terminal_cases() -> list[Any]:
    """Two terminal games per game id (smallest table, person in seat 1, random bots; largest table,
    person in the last seat, greedy bots), plus the variants that hide the most."""
    cases = []
    for game in _games():
        low, high = game.spec.min_players, game.spec.max_players
        strong = "random" if game is TOY else "greedy"
        cases.append(pytest.param(game, low, 1, 1, None, "random", id=f"{game.spec.id}-{low}p-random"))
        cases.append(
            pytest.param(game, high, 2, high - 1, None, strong, id=f"{game.spec.id}-{high}p-{strong}")
        )
    brujas, commandments = get_game("brujas"), get_game("commandments")
    cases.append(pytest.param(brujas, 3, 1, 0, {"silent": True}, "random", id="brujas-3p-silent"))
    cases.append(
        pytest.param(brujas, 4, 4, 2, {"silent": True, "conflict": True}, "greedy", id="brujas-4p-silent")
    )
    cases.append(pytest.param(commandments, 4, 5, 2, {}, "random", id="commandments-4p-novice"))
    cases.append(pytest.param(commandments, 3, 6, 0, {"expert": True}, "greedy", id="commandments-3p-expert"))
    return cases


@pytest.mark.parametrize(("game", "players", "seed", "seat", "options", "bots"), _terminal_cases())
def test_the_terminal_shows_a_seat_nothing_hidden_from_it(
    game: Game[object, object, object],
    players: int,
    seed: int,
    seat: int,
    options: dict[str, object] | None,
    bots: str,
) -> None:
    report = check_terminal(game, players, seed, seat, options, (bots,))
    assert report.decisions > 0 and report.reads > 0
    if game is not TOY:  # every real game hides something from a seat, and the check looked for it
        assert report.facts_checked > 0
