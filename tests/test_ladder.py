"""``coven ladder``: every bot in rotating seats, rated on one OpenSkill ladder."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from typer.testing import CliRunner

from coven.bots import ladder
from coven.bots.arena import GameResult
from coven.bots.ladder import lineup, placings, run_ladder
from coven.cli import app
from coven.games import get_game

runner = CliRunner()
START_MU, START_SIGMA = 25.0, 25.0 / 3


def ladder_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["ladder", *args, "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert isinstance(out, dict)
    return out


def test_a_tiny_ladder_ranks_greedy_above_random_with_uncertainty() -> None:
    args = ("namaste", "--players", "2", "--games", "6", "--bots", "random,greedy", "--seed", "3")
    out = ladder_json(*args)
    assert (out["game"], out["players"], out["games"]) == ("namaste", 2, 6)
    ratings = out["ratings"]
    assert isinstance(ratings, list)
    assert [r["bot"] for r in ratings] == ["greedy", "random"]
    for r in ratings:
        assert set(r) >= {"bot", "mu", "sigma", "ordinal", "games", "wins", "win_rate", "mean_score"}
        assert r["games"] == 6
        assert 0 < r["sigma"] < START_SIGMA  # six games taught the model something, not everything
        assert abs(r["ordinal"] - (r["mu"] - 3 * r["sigma"])) < 1e-3
    greedy, random_ = ratings
    assert greedy["mu"] > START_MU > random_["mu"]
    assert greedy["mean_score"] > random_["mean_score"]
    assert abs(greedy["wins"] + random_["wins"] - 6) < 1e-9
    assert ladder_json(*args) == out  # seeded: the same games, the same ratings


def test_the_table_shows_ratings_and_the_model() -> None:
    result = runner.invoke(app, ["ladder", "namaste", "-p", "2", "-n", "2", "-b", "greedy,random"])
    assert result.exit_code == 0, result.output
    assert "ordinal" in result.output and "OpenSkill" in result.output
    lines = [line for line in result.output.splitlines() if "greedy" in line or "random" in line]
    assert len(lines) == 2


def test_unknown_bots_and_single_bots_are_refused() -> None:
    result = runner.invoke(app, ["ladder", "namaste", "-b", "random,nobody"])
    assert result.exit_code == 2
    assert "nobody" in result.output
    result = runner.invoke(app, ["ladder", "namaste", "-b", "random"])
    assert result.exit_code == 2
    assert "two different bots" in result.output


def test_lineups_rotate_through_every_bot_equally() -> None:
    bots = ["a", "b", "c"]
    seats = Counter(name for block in range(3) for name in lineup(block, bots, 2))
    assert seats == {"a": 2, "b": 2, "c": 2}
    assert lineup(0, bots, 2) == ["a", "b"] and lineup(1, bots, 2) == ["a", "c"]
    four = ["a", "b", "c", "d"]
    pairs = {frozenset(lineup(block, four, 2)) for block in range(6)}
    assert len(pairs) == 6  # every bot meets every other in one cycle
    assert lineup(0, ["a", "b"], 3) == ["a", "b", "a"]


def test_more_bots_than_seats_and_more_seats_than_bots() -> None:
    game = get_game("namaste")
    three = run_ladder(game, ["random", "greedy", "best"], 2, 6, seed=1)
    assert {s.bot: s.games for s in three.standings} == {"random": 4, "greedy": 4, "best": 4}
    assert abs(sum(s.wins for s in three.standings) - 6) < 1e-9
    # Two bots for three seats: one of them sits twice in every game.
    two = run_ladder(game, ["random", "greedy"], 3, 3, seed=1)
    assert {s.bot: s.games for s in two.standings} == {"random": 3, "greedy": 3}
    assert abs(sum(s.wins for s in two.standings) - 3) < 1e-9


def test_the_default_ladder_includes_the_reference_bot() -> None:
    for game_id in ("brujas", "amulets", "namaste"):
        assert {"random", "greedy", "best", "reference"} <= set(get_game(game_id).bots())
    result = runner.invoke(app, ["ladder", "--help"])
    assert result.exit_code == 0 and "default: all" in result.output


def test_places_put_the_winners_first_then_the_others_by_score() -> None:
    assert placings([4.0, 4.0], {0}) == [1, 2]  # a tie the rules broke: the winner alone is first
    assert placings([4.0, 4.0], {0, 1}) == [1, 1]  # shared
    assert placings([3.0, 9.0, 5.0, 5.0], {1}) == [3, 1, 2, 2]
    assert placings([0.0, 2.0, 1.0], set()) == [3, 1, 2]  # nobody won (Amulets): by score alone


def test_a_namaste_tie_broken_by_bad_karma_is_rated_as_a_win(monkeypatch: pytest.MonkeyPatch) -> None:
    # the ruling: "Ties: fewer bad-karma spaces filled wins". Four points each, seat 1 with two bad-karma
    # spaces: seat 0 wins, and the ladder must rate it so (rated by score alone, it was a draw)
    game = get_game("namaste")
    four = "4 / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."
    six = "6 / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."  # less two for bad karma
    state = game.position([four, six], karma=[[], [1, 1]])
    assert game.scores(state) == (4.0, 4.0) and game.winners(state) == {0}

    def played(_game: Any, _bots: Any, _players: int, _options: Any, _seed: int) -> GameResult:
        return GameResult(state, [], game.scores(state), game.winners(state), 0, [])

    monkeypatch.setattr(ladder, "play_game", played)
    result = run_ladder(game, ["random", "greedy"], 2, 1, seed=0)
    by_bot = {s.bot: s for s in result.standings}
    seated_first = lineup(0, ["random", "greedy"], 2)[ladder.seat_assignment(0, 2)[0]]
    winner, loser = by_bot[seated_first], by_bot[next(b for b in by_bot if b != seated_first)]
    assert (winner.wins, loser.wins) == (1.0, 0.0)
    assert winner.mu > START_MU > loser.mu
