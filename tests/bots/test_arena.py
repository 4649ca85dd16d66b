"""The arena: seeded, chair-rotating, fair to shared wins, honest to optional actors."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from coven.bots.arena import make_bot, play_game, run_tournament, seat_assignment
from coven.core import Game, InvalidOptionError, Seat, UnknownBotError
from coven.core.bot import BotFactory, RandomBot
from tests.core.toygame import GAME, Play, ToyGame, ToyState, ToyView


class HighBot:
    """Always plays its highest card."""

    def __init__(self, game: Game[Any, Any, Any], seat: Seat, seed: int) -> None:
        self.seat = seat

    def act(self, view: ToyView, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        return max(legal, key=lambda a: a.card) if required else None  # type: ignore[attr-defined]


class ToyWithHigh(ToyGame):
    def bots(self) -> dict[str, BotFactory]:
        return {"random": RandomBot, "high": HighBot}


class Interrupting(ToyWithHigh):
    """A seat holding the 1 may, once, knock out of turn (recorded as a 0 in its played cards)."""

    def may_act(self, state: ToyState) -> frozenset[Seat]:
        turn = self.to_act(state)
        return frozenset(
            s
            for s in range(state.players)
            if s not in turn and 1 in state.hands[s] and 0 not in state.played[s]
        )

    def legal_actions(self, state: ToyState, seat: Seat) -> Sequence[Play]:
        if seat in self.may_act(state):
            return [Play(0)]
        return super().legal_actions(state, seat)

    def illegal_reason(self, state: ToyState, seat: Seat, action: Play) -> str | None:
        if seat in self.may_act(state):
            return None if action == Play(0) else "only a knock"
        return super().illegal_reason(state, seat, action)

    def apply_unchecked(self, state: ToyState, seat: Seat, action: Play) -> list[Any]:
        if seat in self.to_act(state):
            return super().apply_unchecked(state, seat, action)
        state.played[seat].append(0)
        return []


class OneThrower:
    def __init__(self, game: Game[Any, Any, Any], seat: Seat, seed: int) -> None:
        self.inner = RandomBot(game, seat, seed)

    def act(self, view: ToyView, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        if not required:
            return legal[0]
        return self.inner.act(view, legal, required)


def test_seat_rotation_puts_every_bot_in_every_chair() -> None:
    chairs = [seat_assignment(i, 3) for i in range(3)]
    assert chairs == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    for bot in range(3):
        assert {c.index(bot) for c in chairs} == {0, 1, 2}


def test_tournament_is_deterministic_and_counts_every_game() -> None:
    a = run_tournament(GAME, ["random", "random", "random"], 3, 12, seed=5)
    b = run_tournament(GAME, ["random", "random", "random"], 3, 12, seed=5)
    assert a.to_json() | {"games_per_second": 0} == b.to_json() | {"games_per_second": 0}
    assert sum(a.wins) == pytest.approx(12)


def test_duplicate_deals_cancel_the_luck_of_the_cards() -> None:
    # In the toy game every card is played whatever anyone does, so the deal alone decides: each bot
    # sits at every hand of every deal once, and so wins exactly as often as the other.
    result = run_tournament(ToyWithHigh(), ["random", "high"], 2, 60, seed=1)
    assert result.wins[0] == result.wins[1] == 30
    assert result.mean_score[0] == result.mean_score[1]


def test_shared_wins_count_as_fractions() -> None:
    game = ToyWithHigh()
    state_scores = []
    for seed in range(30):
        result = play_game(game, [HighBot(game, 0, 0), HighBot(game, 1, 0)], 2, {"hand": 1}, seed)
        state_scores.append(len(result.winners))
    tournament = run_tournament(game, ["high", "high"], 2, 30, seed=0, options={"hand": 1})
    assert sum(tournament.wins) == pytest.approx(30)
    assert all(n == 1 for n in state_scores)  # distinct cards: no ties with one card each


def test_optional_actors_get_their_chance() -> None:
    game = Interrupting()
    factories = {"thrower": OneThrower}
    game.bots = lambda: {**ToyWithHigh.bots(game), **factories}  # type: ignore[method-assign]
    knocks = 0
    for seed in range(20):
        bots = [make_bot(game, "thrower", s, seed) for s in range(3)]
        result = play_game(game, bots, 3, None, seed)
        start = game.new_game(3, None, seed)
        holders = [s for s in range(3) if 1 in start.hands[s]]
        knocked = [s for s in range(3) if 0 in result.state.played[s]]
        # Whoever held the 1 was offered the chance as soon as it was out of turn, and took it; only
        # seat 0, which moves first, can have played the 1 on its own turn before that.
        first_move = result.moves[0]
        played_first = [0] if first_move == (0, Play(1)) else []
        assert knocked == [h for h in holders if h not in played_first]
        assert result.decisions == 9 + len(knocked)
        knocks += len(knocked)
    assert knocks > 0


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(UnknownBotError, match="no bot 'genius'"):
        run_tournament(GAME, ["genius"], 2, 1)
    with pytest.raises(InvalidOptionError, match="one bot per seat"):
        run_tournament(GAME, ["random", "random"], 3, 1)
    with pytest.raises(InvalidOptionError, match="2 to 3 players"):
        run_tournament(GAME, ["random"], 5, 1)
