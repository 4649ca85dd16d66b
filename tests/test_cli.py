"""The command line, driven in process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coven.cli import app
from coven.games import REGISTRY
from tests.core.toygame import GAME

runner = CliRunner()


@pytest.fixture
def toy() -> Iterator[None]:
    REGISTRY.register(GAME)
    yield
    REGISTRY.unregister("toy")


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("play", "simulate", "replay", "bench", "serve"):
        assert command in result.output


@pytest.mark.usefixtures("toy")
def test_simulate_json_has_the_promised_keys_and_is_deterministic() -> None:
    args = ["simulate", "toy", "--players", "3", "--games", "9", "--bots", "random", "--seed", "4", "--json"]
    first = json.loads(runner.invoke(app, args).stdout)
    second = json.loads(runner.invoke(app, args).stdout)
    for key in (
        "game",
        "players",
        "games",
        "seed",
        "bots",
        "wins",
        "mean_score",
        "games_per_second",
        "metrics",
    ):
        assert key in first
    assert first["bots"] == ["random"] * 3
    assert len(first["wins"]) == 3 and sum(first["wins"]) == pytest.approx(9)
    first.pop("games_per_second")
    second.pop("games_per_second")
    assert first == second


@pytest.mark.usefixtures("toy")
def test_simulate_timing_adds_decision_times() -> None:
    args = ["simulate", "toy", "--games", "2", "--json", "--timing"]
    out = json.loads(runner.invoke(app, args).stdout)
    assert len(out["timing"]["decision_ms_p95"]) == 2
    assert len(out["timing"]["decision_cpu_ms_p95"]) == 2
    assert all(t >= 0 for t in out["timing"]["decision_cpu_ms_p95"])


@pytest.mark.usefixtures("toy")
def test_simulate_refuses_bad_input_with_a_clear_error() -> None:
    result = runner.invoke(app, ["simulate", "toy", "--bots", "genius", "--json"])
    assert result.exit_code == 2
    assert "no bot 'genius'" in result.stderr
    result = runner.invoke(app, ["simulate", "toy", "--option", "hand=9", "--json"])
    assert result.exit_code == 2 and "at most 3" in result.stderr
    result = runner.invoke(app, ["simulate", "chess"])
    assert result.exit_code == 2 and "unknown game" in result.stderr


@pytest.mark.usefixtures("toy")
def test_bench_engine_json() -> None:
    result = runner.invoke(app, ["bench", "engine", "--game", "toy", "--seconds", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["results"]
    assert [(r["game"], r["players"]) for r in rows] == [("toy", 2), ("toy", 3)]
    assert all(r["actions_per_second"] > 0 and r["games_per_second"] > 0 for r in rows)


@pytest.mark.usefixtures("toy")
def test_play_a_whole_game_in_the_terminal_then_replay_it(tmp_path: Path) -> None:
    state = GAME.new_game(2, None, 11)
    mine = state.hands[0]
    moves = "\n".join(["?", "0", *(str(c) for c in mine)]) + "\n"
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "toy", "--seed", "11", "--bots", "random", "--save", str(record)], input=moves
    )
    assert result.exit_code == 0, result.output
    assert "legal:" in result.output
    assert "a play is a card 1-9" in result.output  # the bad move was refused, the game went on
    assert "record saved" in result.output
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert f"seat 0 (you): {float(sum(mine)):g}" in replayed.output


def test_replay_refuses_a_broken_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    result = runner.invoke(app, ["replay", str(broken)])
    assert result.exit_code == 2 and "record is JSON" in result.stderr
