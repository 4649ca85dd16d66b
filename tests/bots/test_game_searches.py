"""Every game offers a bot built on the generic search (:mod:`coven.bots.search`), configured in the
game's own ``bots.py``: it plays legal moves through the driver's checked path, reproducibly."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable

import pytest

from coven.bots.arena import make_bot, play_game
from coven.bots.search import SearchBot
from coven.core import Seat
from coven.core.bot import Bot
from coven.games import get_game

SEARCH_BOTS = {"brujas": "best", "amulets": "search", "namaste": "search", "commandments": "search"}
"""The search-based bot of each game: Brujas' ``best`` is the search; the others keep a ``best`` of
their own beside it (see each game's ``bots.py``)."""


def small_search(game_id: str, seat: Seat, seed: int) -> SearchBot:
    game = get_game(game_id)
    bot = make_bot(game, SEARCH_BOTS[game_id], seat, seed)
    assert isinstance(bot, SearchBot)
    bot.plan = dataclasses.replace(bot.plan, iterations=4, steps=None)
    return bot


def play(game_id: str, players: int, seed: int) -> list[tuple[Seat, Hashable]]:
    game = get_game(game_id)
    bots: list[Bot] = [small_search(game_id, 0, seed)]
    bots += [make_bot(game, "random", s, seed + s) for s in range(1, players)]
    result = play_game(game, bots, players, None, seed)  # checked: an illegal answer raises BotError
    assert game.is_over(result.state)
    return result.moves


@pytest.mark.parametrize(
    ("game_id", "players"), [("brujas", 3), ("amulets", 3), ("namaste", 2), ("commandments", 3)]
)
def test_every_game_has_a_search_bot_that_plays_legal_moves_reproducibly(game_id: str, players: int) -> None:
    first = play(game_id, players, 2)
    assert any(seat == 0 for seat, _ in first)
    assert play(game_id, players, 2) == first
