"""Bot levels (``beginner``, ``casual``, ``best``): offered by every game, legal, from the view alone."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from coven.bots.arena import make_bot
from coven.bots.levels import LEVELS, LevelBot
from coven.core.bot import Bot
from coven.games import game_ids, get_game
from coven.games.amulets.bots import BeginnerBot, CasualBot
from coven.games.amulets.rules import AmuletsView, Cast

AnyGame = Any
GAMES = list(game_ids())
NAMES = {"random", "greedy", *LEVELS}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_offers_the_five_names(game_id: str) -> None:
    assert set(get_game(game_id).bots()) >= NAMES


def play(game: AnyGame, players: int, seed: int, bots: dict[int, Bot]) -> list[tuple[Any, Hashable]]:
    """A whole game through the checked path, optional moves offered first; returns every (view, action)
    of seat 0 that acted."""
    state = game.new_game(players, None, seed)
    acted: list[tuple[Any, Hashable]] = []
    steps = 0
    while not game.is_over(state):
        steps += 1
        assert steps < 2000, "the game did not end"
        for seat in sorted(game.may_act(state) - game.to_act(state)):
            view = game.view(state, seat)
            action = bots[seat].act(view, game.legal_actions(state, seat), False)
            if action is not None:
                if seat == 0:
                    acted.append((view, action))
                game.apply(state, seat, action)  # checked: raises if illegal
                if game.is_over(state):
                    return acted
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        view = game.view(state, seat)
        action = bots[seat].act(view, game.legal_actions(state, seat), True)
        assert action is not None
        if seat == 0:
            acted.append((view, action))
        game.apply(state, seat, action)
    return acted


@pytest.mark.parametrize("level", ["beginner", "casual"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_level_plays_whole_games_legally(game_id: str, level: str) -> None:
    game = get_game(game_id)
    players = 4 if 4 in game.spec.player_counts else game.spec.max_players
    for seed in (1, 2):
        bots = {0: make_bot(game, level, 0, seed)} | {
            s: make_bot(game, "greedy", s, seed + s) for s in range(1, players)
        }
        acted = play(game, players, seed, bots)
        assert acted


@pytest.mark.parametrize("level", ["beginner", "casual"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_level_decides_from_its_view_alone(game_id: str, level: str) -> None:
    # A mid-game position and another world seat `seat` cannot tell apart (other hidden information):
    # the same bot (same seed) makes the same decision in both.
    game = get_game(game_id)
    players = 4 if 4 in game.spec.player_counts else game.spec.max_players
    state = game.new_game(players, None, 3)
    rng = random.Random(5)
    for _ in range(3 if game_id == "amulets" else 12):  # three questions: no Amulets bot is sure yet
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        mover = make_bot(game, "random", seat, rng.randrange(1000))
        game.apply(state, seat, mover.act(game.view(state, seat), legal, True))
    seat = min(game.to_act(state))
    view = game.view(state, seat)
    other = game.world_from_view(view, random.Random(9))
    assert game.view(other, seat) == view
    assert any(game.view(other, s) != game.view(state, s) for s in range(players) if s != seat)
    decisions = [
        make_bot(game, level, seat, 11).act(game.view(world, seat), game.legal_actions(world, seat), True)
        for world in (state, other)
    ]
    assert decisions[0] == decisions[1]


class Scripted:
    """A stand-in greedy bot: always the last legal action; acts optionally with the first."""

    def __init__(self, game: AnyGame, seat: int, seed: int) -> None:
        self.calls = 0

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        self.calls += 1
        return legal[-1] if required else legal[0]


def test_slip_and_eagerness_do_what_they_say() -> None:
    legal = list(range(10))
    never = LevelBot(None, 0, 1, Scripted, slip=0.0)  # type: ignore[arg-type]
    assert {never.act(None, legal, True) for _ in range(50)} == {9}
    assert {never.act(None, legal, False) for _ in range(50)} == {0}
    always = LevelBot(None, 0, 1, Scripted, slip=1.0, eagerness=0.0)  # type: ignore[arg-type]
    slips = [always.act(None, legal, True) for _ in range(200)]
    assert set(slips) == set(legal)
    assert {always.act(None, legal, False) for _ in range(50)} == {None}
    half = LevelBot(None, 0, 1, Scripted, slip=0.0, eagerness=0.5)  # type: ignore[arg-type]
    taken = sum(half.act(None, legal, False) is not None for _ in range(400))
    assert 120 < taken < 280
    assert isinstance(half.greedy, Scripted) and half.greedy.calls == 400  # asked every time
    with pytest.raises(ValueError):
        LevelBot(None, 0, 1, Scripted, slip=1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", [BeginnerBot, CasualBot])
def test_amulets_levels_cast_only_when_sure_after_their_rounds(cls: type[BeginnerBot | CasualBot]) -> None:
    game = get_game("amulets")
    casts = 0
    for seed in range(1, 9):
        players = 3 + seed % 2
        bots: dict[int, Bot] = {0: cls(game, 0, seed)} | {  # random askers: the level gets its chance
            s: make_bot(game, "random", s, seed + s) for s in range(1, players)
        }
        for view, action in play(game, players, seed, bots):
            assert isinstance(view, AmuletsView)
            if isinstance(action, Cast):
                casts += 1
                assert view.questions >= cls.min_rounds * players
                if not cls.out_of_turn:
                    assert view.turn == 0
    assert casts > 0
