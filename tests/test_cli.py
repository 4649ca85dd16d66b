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
    out = json.loads(result.stdout)
    rows = out["results"]
    assert [(r["game"], r["players"]) for r in rows] == [("toy", 2), ("toy", 3)]
    assert all(r["actions_per_second"] > 0 and r["games_per_second"] > 0 for r in rows)
    if "openspiel_oh_hell_actions_per_second" in out:  # open_spiel installed (the dev extras have it)
        # each ratio is to the OpenSpiel slice run just before its case; the figure shown is their median
        for r in rows:
            ratio = r["actions_per_second"] / r["openspiel_oh_hell_adjacent"]
            assert r["ratio_to_openspiel"] == round(ratio, 3)
        adjacent = sorted(r["openspiel_oh_hell_adjacent"] for r in rows)
        assert out["openspiel_oh_hell_actions_per_second"] == (adjacent[0] + adjacent[1]) / 2


@pytest.mark.parametrize("bench", ["engine", "server"])
@pytest.mark.parametrize("seconds", ["nan", "inf", "0", "-1", "1e9"])
def test_a_bench_refuses_a_time_it_could_not_keep(bench: str, seconds: str) -> None:
    # (--seconds nan ran the engine's bench for ever: no deadline is ever past NaN)
    result = runner.invoke(app, ["bench", bench, "--seconds", seconds, "--json"])
    assert result.exit_code == 2 and "--seconds" in result.output, result.output
    assert not result.stdout.lstrip().startswith("{")


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


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("leaving", ["quit\n", ""])
def test_a_game_left_early_keeps_its_record_and_says_why(tmp_path: Path, leaving: str) -> None:
    # quit, or an input that runs dry (a pipe): the moves made so far are saved with --save, and an input
    # that ended says so (it used to end with status 1 and not a word)
    state = GAME.new_game(2, None, 11)
    record = tmp_path / "left.json"
    args = ["play", "toy", "--seed", "11", "--bots", "random", "--save", str(record)]
    result = runner.invoke(app, args, input=f"{state.hands[0][0]}\n{leaving}")
    assert "record saved" in result.output
    if leaving:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 1 and "the input ended before the game did" in result.stderr
    replayed = runner.invoke(app, ["replay", str(record), "--steps"])
    assert replayed.exit_code == 0, replayed.output
    assert f"play seat=0 card={state.hands[0][0]}" in replayed.output and "not over" in replayed.output


@pytest.mark.usefixtures("toy")
def test_a_game_left_early_crowns_nobody_in_its_replay(tmp_path: Path) -> None:
    state = GAME.new_game(2, None, 11)
    record = tmp_path / "left.json"
    args = ["play", "toy", "--seed", "11", "--bots", "random", "--save", str(record)]
    runner.invoke(app, args, input=f"{state.hands[0][0]}\nquit\n")
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0 and "not over" in replayed.output
    assert "wins" not in replayed.output  # (every seat was crowned: tied at the top mid-game)


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize(
    ("where", "why"), [("missing/game.json", "there is no folder"), ("", "it is a folder")]
)
def test_play_refuses_a_record_it_could_not_save_before_the_game(
    tmp_path: Path, where: str, why: str
) -> None:
    # found at the end, it lost the whole game in a traceback
    args = ["play", "toy", "--seed", "11", "--bots", "random", "--save", str(tmp_path / where)]
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2 and "cannot save the record" in result.stderr and why in result.stderr
    assert "you are seat" not in result.output  # refused before anything was played
    french = runner.invoke(app, [*args, "--lang", "fr"], input="quit\n")
    assert french.exit_code == 2 and "impossible d'enregistrer la partie" in french.stderr


@pytest.mark.usefixtures("toy")
def test_a_record_the_disk_refuses_at_the_end_is_printed_not_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from coven.core.record import Record

    def full(self: Record, path: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Record, "save", full)
    state = GAME.new_game(2, None, 11)
    args = ["play", "toy", "--seed", "11", "--bots", "random", "--save", str(tmp_path / "game.json")]
    result = runner.invoke(app, args, input=f"{state.hands[0][0]}\nquit\n")
    assert result.exit_code == 1, result.output
    assert "cannot save the record" in result.stderr and "No space left on device" in result.stderr
    printed = Record.loads(result.stdout[result.stdout.index('{"game"') :])  # the moves made, to keep by hand
    assert printed.seed == 11 and printed.moves[0].action == str(state.hands[0][0])


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("lang", ["de", "frog", "", "e"])
def test_play_refuses_a_language_it_does_not_speak(lang: str) -> None:
    result = runner.invoke(app, ["play", "toy", "--lang", lang], input="quit\n")
    assert result.exit_code == 2 and "--lang is one of en, fr" in result.stderr


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("lang", ["fr", "FR", "fr_FR.UTF-8", "en-GB"])
def test_play_takes_a_language_as_a_locale_names_it(lang: str) -> None:
    result = runner.invoke(
        app, ["play", "toy", "--seed", "2", "--bots", "random", "--lang", lang], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert ("joueurs" in result.output) == lang.lower().startswith("fr")


def test_an_error_is_shown_as_written_brackets_and_all(tmp_path: Path) -> None:
    broken = tmp_path / "pairs.json"
    broken.write_text('{"game": "namaste", "players": 2, "seed": 1, "moves": [[0]]}')
    result = runner.invoke(app, ["replay", str(broken)])
    assert result.exit_code == 2 and "is a pair [seat, action]" in result.stderr, result.stderr
    result = runner.invoke(app, ["simulate", "brujas", "-n", "1", "-b", "[b]x"])
    assert result.exit_code == 2 and "has no bot '[b]x'" in result.stderr, result.stderr


def test_simulate_shows_each_game_s_figures_as_tables() -> None:
    result = runner.invoke(app, ["simulate", "namaste", "-n", "2", "-b", "random,greedy", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "{" not in result.output  # no JSON left for people to read
    rows = [line for line in result.output.splitlines() if "0: random" in line or "1: greedy" in line]
    assert len(rows) == 4  # each bot in the results, then in the figures per bot
    assert "karma" in result.output and "circles" in result.output  # (headings wrap in 80 columns)
    assert "mean rolls per game" in result.output and "2 games" in result.output
    one = runner.invoke(app, ["simulate", "namaste", "-n", "1", "-b", "random"])
    assert "1 game," in one.output


def test_replay_refuses_a_broken_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    result = runner.invoke(app, ["replay", str(broken)])
    assert result.exit_code == 2 and "record is JSON" in result.stderr


def test_play_commandments_never_shows_a_novice_the_priestess_s_cards() -> None:
    from coven.games.commandments import GAME as COMMANDMENTS

    state = COMMANDMENTS.new_game(3, None, 5)
    hand = [state.deck.cards[c].id for c in state.rituals[0].hand]
    args = ["play", "commandments", "--players", "3", "--seat", "1", "--seed", "5", "--bots", "random"]
    # one move each for the two novices (at most two destiny cards flip: the ritual goes on), then quit
    result = runner.invoke(app, args, input="bk3>C\nquit\n")
    assert result.exit_code == 0, result.output
    assert "seat 0 ordained taboo" in result.output  # the novice learns that she ordained...
    assert "the artefacts are placed: place wh=" in result.output
    assert "ordain discard=" not in result.output  # ...never what
    for card in hand:
        assert card not in result.output
    assert "you play bk3>C" in result.output
    assert "seat 2: from " in result.output  # the other novice's move, as its event tells it


@pytest.mark.usefixtures("toy")
def test_bots_draw_their_randomness_apart_from_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    import coven.cli
    from coven.bots.arena import make_bot as real

    seeds: list[int] = []

    def spy(game: object, name: str, seat: int, seed: int) -> object:
        seeds.append(seed)
        return real(game, name, seat, seed)  # type: ignore[arg-type]

    monkeypatch.setattr(coven.cli, "make_bot", spy)
    state = GAME.new_game(2, None, 11)
    moves = "\n".join(str(c) for c in state.hands[0]) + "\n"
    outputs = []
    for bot_seed in (None, None, "3", "3"):
        extra = ["--bot-seed", bot_seed] if bot_seed else []
        result = runner.invoke(app, ["play", "toy", "--seed", "11", "--bots", "random", *extra], input=moves)
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert seeds[0] != seeds[1]  # the same deal, but the bots' seeds come from the operating system
    assert seeds[2] == seeds[3]  # unless --bot-seed fixes them: the same game again
    assert outputs[2] == outputs[3]


@pytest.mark.usefixtures("toy")
def test_the_deal_seed_is_told_only_after_the_game_unless_chosen() -> None:
    result = runner.invoke(app, ["play", "toy", "--bots", "random"], input="quit\n")
    assert result.exit_code == 0
    assert "seed" not in result.output
    chosen = runner.invoke(app, ["play", "toy", "--bots", "random", "--seed", "4"], input="quit\n")
    assert "seed 4" in chosen.output.splitlines()[0]


def _commandments_record(tmp_path: Path) -> tuple[Path, list[str]]:
    from coven.bots.arena import make_bot, play_game
    from coven.core import Move, Record
    from coven.games.commandments import GAME as COMMANDMENTS

    bots = [make_bot(COMMANDMENTS, "random", s, s) for s in range(3)]
    result = play_game(COMMANDMENTS, bots, 3, None, 8)
    moves = tuple(Move(s, COMMANDMENTS.format_action(a)) for s, a in result.moves)  # type: ignore[arg-type]
    record = Record("commandments", 3, dict(COMMANDMENTS.options(result.state)), 8, ("a", "b", "c"), moves)
    path = tmp_path / "commandments.json"
    record.save(path)
    discards = [m.action.split()[1].removeprefix("discard=") for m in moves if m.action.startswith("ordain")]
    return path, discards


def test_replay_as_a_seat_shows_only_what_that_seat_saw(tmp_path: Path) -> None:
    path, discards = _commandments_record(tmp_path)
    full = runner.invoke(app, ["replay", str(path), "--steps"])
    assert full.exit_code == 0, full.output
    assert "seat 0: ordain discard=" in full.output  # the holder of the record has everything
    as_seat = runner.invoke(app, ["replay", str(path), "--seat", "1", "--steps"])
    assert as_seat.exit_code == 0, as_seat.output
    assert "discard=" not in as_seat.output.replace("you play ordain discard=", "")
    assert "you play ordain discard=" in as_seat.output  # its own ritual, in its own notation
    others = [d for i, d in enumerate(discards) if i != 1]  # the discards of seats 0 and 2 (in order)
    for card in others:
        assert card not in as_seat.output
    assert "seat 0 ordained taboo" in as_seat.output
    assert "seat 1 (b):" in as_seat.output  # the scores


def test_replay_refuses_a_seat_the_record_does_not_have(tmp_path: Path) -> None:
    path, _ = _commandments_record(tmp_path)
    for bad in ("3", "-1"):
        result = runner.invoke(app, ["replay", str(path), "--seat", bad])
        assert result.exit_code == 2
        assert "--seat is 0 to 2" in result.stderr


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """``coven serve`` with the server itself replaced: the calls it would have made."""
    import coven.server.commands

    calls: list[dict[str, object]] = []
    monkeypatch.setattr(coven.server.commands, "serve", lambda **kw: calls.append(kw))
    return calls


def test_serve_on_a_port_in_use_says_so_before_announcing_anything(served: list[dict[str, object]]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 1
    assert f"port {port} on 127.0.0.1 is already in use" in result.stderr
    assert "--port" in result.stderr  # what to do about it
    assert "serving" not in result.output.lower()
    assert served == []


def test_serve_on_a_free_port_starts_the_server(served: list[dict[str, object]]) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = runner.invoke(app, ["serve", "--host", "127.0.0.1", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert [(c["host"], c["port"]) for c in served] == [("127.0.0.1", port)]


def test_serve_on_an_address_this_machine_lacks_says_so(served: list[dict[str, object]]) -> None:
    result = runner.invoke(app, ["serve", "--host", "no-such-host.invalid", "--port", "8000"])
    assert result.exit_code == 1
    assert "cannot listen on 'no-such-host.invalid'" in result.stderr
    assert served == []


def test_replay_does_what_its_help_says(tmp_path: Path) -> None:
    path, _ = _commandments_record(tmp_path)
    help_text = " ".join(runner.invoke(app, ["replay", "--help"]).output.split())
    assert "--steps prints every move" in help_text and "--steps prints only what seat K saw" in help_text
    assert "Show the game only as this seat saw it" not in help_text  # the old, contradicted promise
    # Without --steps: the final position and the scores, no moves, whatever --seat says.
    for args in ([], ["--seat", "1"]):
        quiet = runner.invoke(app, ["replay", str(path), *args])
        assert quiet.exit_code == 0, quiet.output
        assert "ordain discard=" not in quiet.output and "ordained" not in quiet.output
        assert all(f"seat {s} (" in quiet.output for s in range(3))  # every seat's score
    # With --steps: every move without --seat (checked above for a seat's own eyes).
    loud = runner.invoke(app, ["replay", str(path), "--steps"])
    assert "seat 0: ordain discard=" in loud.output


def test_serve_reads_its_settings_from_the_environment(served: list[dict[str, object]]) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        "COVEN_HOST": "127.0.0.1",
        "COVEN_PORT": str(port),
        "COVEN_DATABASE": "postgresql+psycopg://coven@db/coven",
        "COVEN_BUS": "redis://cache:6379/0",
        "COVEN_BUS_NAMESPACE": "prod",
        "COVEN_NODE_ID": "web-1",
        "COVEN_BOT_PROCESSES": "3",
        "COVEN_LEASE_SECONDS": "9",
        "COVEN_ROUTE_SECONDS": "1.5",
        "COVEN_COMMIT_INTERVAL": "0.005",
        "COVEN_COMMIT_PROCESS": "true",
        "COVEN_REST_SECONDS": "120",
        "COVEN_EXPIRE_DAYS": "7",
        "COVEN_HTTP_LIMIT": "50",
        "COVEN_HTTP_BURST": "500",
        "COVEN_SOCKETS_PER_CLIENT": "40",
        "COVEN_SPECTATORS_PER_TABLE": "25",
        "COVEN_CREATE_LIMIT": "4",
        "COVEN_CREATE_BURST": "12",
        "COVEN_FORWARDED_ALLOW_IPS": "127.0.0.1",
    }
    result = runner.invoke(app, ["serve"], env=env)
    assert result.exit_code == 0, result.output
    assert served == [
        {
            "host": "127.0.0.1",
            "port": port,
            "database": "postgresql+psycopg://coven@db/coven",
            "bus": "redis://cache:6379/0",
            "bus_namespace": "prod",
            "forwarded_allow_ips": "127.0.0.1",
            "node_id": "web-1",
            "bot_processes": 3,
            "lease_seconds": 9.0,
            "route_seconds": 1.5,
            "commit_interval": 0.005,
            "commit_process": True,
            "rest_seconds": 120.0,
            "expire_days": 7.0,
            "http_limit": 50.0,
            "http_burst": 500,
            "sockets_per_client": 40,
            "spectators_per_table": 25,
            "create_limit": 4.0,
            "create_burst": 12,
            "heartbeat_seconds": 3.0,
        }
    ]


@pytest.mark.parametrize(
    "setting",
    [
        "COVEN_LEASE_SECONDS=inf",
        "COVEN_LEASE_SECONDS=1e300",
        "COVEN_LEASE_SECONDS=3601",
        "COVEN_EXPIRE_DAYS=inf",
        "COVEN_EXPIRE_DAYS=1e300",
        "COVEN_REST_SECONDS=inf",
    ],
)
def test_serve_refuses_a_duration_past_any_date(setting: str, served: list[dict[str, object]]) -> None:
    """An infinite lease made the first table created fail with a 500, an infinite expiry every heartbeat:
    both are refused before anything starts, naming the variable."""
    name, _, value = setting.partition("=")
    result = runner.invoke(app, ["serve", "--port", "8000"], env={name: value})
    assert result.exit_code == 2
    assert name in " ".join(result.output.replace("│", " ").split())
    assert served == []


def test_serve_takes_the_longest_durations_it_allows(served: list[dict[str, object]]) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {"COVEN_LEASE_SECONDS": "3600", "COVEN_EXPIRE_DAYS": "36500", "COVEN_REST_SECONDS": "31536000"}
    result = runner.invoke(app, ["serve", "--port", str(port)], env=env)
    assert result.exit_code == 0, result.output
    assert served[0]["lease_seconds"] == 3600.0 and served[0]["expire_days"] == 36500.0
