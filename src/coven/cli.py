"""The ``coven`` command line: play, simulate, replay, bench and serve."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from coven.bots.arena import make_bot, run_tournament
from coven.core.errors import CovenError, InvalidOptionError
from coven.core.events import Event
from coven.core.game import Game
from coven.core.record import Move, Record, replay_steps
from coven.games import game_ids, get_game

AnyGame = Game[Any, Any, Any]

app = typer.Typer(
    name="coven",
    help="Coven: The 3 Commandments, Brujas del Sábado, Namaste and Amulets, with honest bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
bench_app = typer.Typer(help="Measure the engine or the server.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

GameArg = Annotated[
    str, typer.Argument(help="Game id: " + ", ".join(("commandments", "brujas", "namaste", "amulets")))
]
OptionArg = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="A table option as KEY=VALUE; repeatable.")
]


def _fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(code)


def _game(game_id: str) -> AnyGame:
    try:
        return get_game(game_id)
    except CovenError as exc:
        raise _fail(str(exc)) from None


def _parse_options(pairs: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise _fail(f"an option is KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def _players(game: AnyGame, players: int | None) -> int:
    count = players if players is not None else game.spec.min_players
    try:
        game.spec.check_players(count)
    except InvalidOptionError as exc:
        raise _fail(str(exc)) from None
    return count


# --------------------------------------------------------------------------- play
def _print_events(game: AnyGame, events: Sequence[Event], seat: int) -> None:
    for event in events:
        if event.visible_to(seat):
            details = ", ".join(f"{k}={v}" for k, v in event.data.items())
            console.print(f"[dim]·[/] [cyan]{event.kind}[/] {details}")


def _show_legal(game: AnyGame, legal: Sequence[Hashable], limit: int = 60) -> None:
    shown = [game.format_action(legal[i]) for i in range(min(len(legal), limit))]
    more = f"  … and {len(legal) - limit} more" if len(legal) > limit else ""
    console.print("[bold]legal:[/] " + "  ".join(shown) + more)


@app.command()
def play(
    game_id: GameArg,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")] = None,
    seat: Annotated[int, typer.Option("--seat", "-s", help="Your seat (0 is the first player).")] = 0,
    bots: Annotated[str, typer.Option("--bots", "-b", help="Bots for the other seats, in seat order.")] = "",
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for the deal and the dice.")] = None,
    option: OptionArg = None,
    save: Annotated[Path | None, typer.Option("--save", help="Write the game's record here.")] = None,
) -> None:
    """Play in the terminal against bots, typing moves in the game's notation ('?' lists legal moves)."""
    game = _game(game_id)
    count = _players(game, players)
    if not 0 <= seat < count:
        raise _fail(f"--seat is 0 to {count - 1}")
    names = [b.strip() for b in bots.split(",") if b.strip()] or ["best"]
    others = [s for s in range(count) if s != seat]
    if len(names) == 1:
        names = names * len(others)
    if len(names) != len(others):
        raise _fail(f"give one bot for each of the {len(others)} other seats, or one for all")
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    try:
        state = game.new_game(count, _parse_options(option), seed)
        seat_bots = {s: make_bot(game, n, s, seed + 1000 * s + 1) for s, n in zip(others, names, strict=True)}
    except CovenError as exc:
        raise _fail(str(exc)) from None
    moves: list[Move] = []
    console.print(f"[bold]{game.spec.title}[/] — {count} players, you are seat {seat}, seed {seed}.")
    console.print("Type a move, '?' for the legal moves, 'help' for this text, 'quit' to leave.")

    def act(who: int, action: Hashable) -> None:
        events = game.apply(state, who, action)
        moves.append(Move(who, game.format_action(action)))
        if who != seat:
            console.print(f"[magenta]seat {who}[/] plays [bold]{game.format_action(action)}[/]")
        _print_events(game, events, seat)

    shown_for = -1
    while not game.is_over(state):
        acted = False
        for other in sorted(game.may_act(state) - {seat}):
            choice = seat_bots[other].act(game.view(state, other), game.legal_actions(state, other), False)
            if choice is not None:
                act(other, choice)
                acted = True
                break
        if acted:
            continue
        required = game.to_act(state)
        mine_required = seat in required
        mine_optional = seat in game.may_act(state)
        if not mine_required and not mine_optional:
            other = min(required)
            act(other, seat_bots[other].act(game.view(state, other), game.legal_actions(state, other), True))
            continue
        if shown_for != len(moves):
            console.print(game.render(game.view(state, seat)))
            shown_for = len(moves)
        prompt = "your move" if mine_required else "you may act (Enter to pass)"
        try:
            text = console.input(f"[bold green]{prompt}>[/] ").strip()
        except EOFError:
            raise typer.Exit(1) from None
        if text in {"quit", "exit"}:
            raise typer.Exit(0)
        if text in {"help", "h"}:
            console.print("Type a move in notation, '?' for legal moves, 'quit' to leave.")
            continue
        if text in {"?", "moves"}:
            _show_legal(game, game.legal_actions(state, seat))
            continue
        if not text:
            if mine_required:
                continue
            other = min(required)
            act(other, seat_bots[other].act(game.view(state, other), game.legal_actions(state, other), True))
            continue
        try:
            act(seat, game.parse_action(text))
        except CovenError as exc:
            console.print(f"[red]{exc}[/]")
    console.print(game.render(game.view(state, seat)))
    scores = game.scores(state)
    winners = game.winners(state)
    for s, value in enumerate(scores):
        who = "you" if s == seat else f"seat {s} ({names[others.index(s)]})"
        crown = " [bold yellow]wins[/]" if s in winners else ""
        console.print(f"{who}: {value:g}{crown}")
    if save is not None:
        seats = tuple("you" if s == seat else names[others.index(s)] for s in range(count))
        Record(game.spec.id, count, dict(game.options(state)), seed, seats, tuple(moves)).save(save)
        console.print(f"record saved to {save}")


# ----------------------------------------------------------------------- simulate
@app.command()
def simulate(
    game_id: GameArg,
    players: Annotated[int | None, typer.Option("--players", "-p")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 100,
    bots: Annotated[str, typer.Option("--bots", "-b", help="One bot per seat, or one for all.")] = "random",
    seed: Annotated[int, typer.Option("--seed")] = 0,
    option: OptionArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    timing: Annotated[bool, typer.Option("--timing", help="Add decision times per bot (ms).")] = False,
) -> None:
    """A tournament between bots; chairs rotate so an entry is a bot, not a chair."""
    game = _game(game_id)
    count = _players(game, players)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    options = _parse_options(option)
    try:
        if as_json:
            result = run_tournament(game, names, count, games, seed, options)
        else:
            with _progress() as bar:
                task = bar.add_task(f"{game.spec.id} ×{games}", total=games)
                result = run_tournament(
                    game, names, count, games, seed, options, lambda done: bar.update(task, completed=done)
                )
    except CovenError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps(result.to_json(timing)))
        return
    table = Table(title=f"{game.spec.title}: {games} games, {count} players, seed {seed}")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("mean score", justify="right")
    if timing:
        table.add_column("p95 ms", justify="right")
    p95 = result.timing.get("decision_ms_p95")
    for i, name in enumerate(result.bots):
        row = [
            f"{i}: {name}",
            f"{result.wins[i]:g}",
            f"{100 * result.wins[i] / games:.1f}",
            f"{result.mean_score[i]:.2f}",
        ]
        if timing and isinstance(p95, list):
            row.append(f"{p95[i]}")
        table.add_row(*row)
    console.print(table)
    console.print(f"{result.games_per_second:.1f} games/s")
    if result.metrics:
        console.print_json(data=result.metrics)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
    )


# ------------------------------------------------------------------------- replay
@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record saved by `coven play --save` or the server.")],
    seat: Annotated[int | None, typer.Option("--seat", help="Show the game as this seat saw it.")] = None,
    steps: Annotated[bool, typer.Option("--steps", help="Print every move.")] = False,
) -> None:
    """Replay a saved record; show the final position and the scores."""
    try:
        record = Record.load(file)
    except OSError as exc:
        raise _fail(f"cannot read {file}: {exc.strerror}") from None
    except CovenError as exc:
        raise _fail(str(exc)) from None
    game = _game(record.game)
    state: Any = None
    try:
        for step in replay_steps(game, record):
            state = step.state
            if steps and step.move is not None:
                console.print(f"seat {step.move.seat}: {step.move.action}")
    except CovenError as exc:
        raise _fail(f"the record does not replay: {exc}") from None
    console.print(game.render(game.view(state, seat)))
    winners = game.winners(state)
    names = record.seats or tuple(f"seat {s}" for s in range(record.players))
    for s, value in enumerate(game.scores(state)):
        crown = " [bold yellow]wins[/]" if s in winners else ""
        console.print(f"seat {s} ({names[s]}): {value:g}{crown}")
    if not game.is_over(state):
        console.print("[yellow]the game is not over[/]")


# -------------------------------------------------------------------------- bench
def bench_playouts(game: AnyGame, players: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Random playouts through the engine's fast path for about ``seconds``; player decisions counted."""
    rng = random.Random(seed)
    rand = rng.random
    to_act, legal_actions, apply = game.to_act, game.legal_actions, game.apply_unchecked
    games = decisions = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        state = game.new_game(players, None, rng.getrandbits(32))
        while True:
            seats = to_act(state)
            if not seats:
                break
            seat = min(seats)
            legal = legal_actions(state, seat)
            apply(state, seat, legal[int(rand() * len(legal))])
            decisions += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - started
    return {
        "game": game.spec.id,
        "players": players,
        "games_per_second": round(games / elapsed, 2),
        "actions_per_second": round(decisions / elapsed, 1),
    }


@bench_app.command("engine")
def bench_engine(
    game_filter: Annotated[list[str] | None, typer.Option("--game", "-g", help="Only these games.")] = None,
    seconds: Annotated[float, typer.Option("--seconds", help="Time per game and player count.")] = 2.0,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Random playouts per game and player count on one core: games and decisions per second."""
    ids = game_filter or game_ids()
    results = []
    cases = [(g, p) for g in ids for p in _game(g).spec.player_counts]
    with _progress() as bar:
        task = bar.add_task("bench engine", total=len(cases))
        for game_id, players in cases:
            results.append(bench_playouts(_game(game_id), players, seconds))
            bar.advance(task)
    if as_json:
        print(json.dumps({"results": results}))
        return
    table = Table(title="random playouts, one core")
    for column in ("game", "players", "games/s", "decisions/s"):
        table.add_column(column, justify="right" if column != "game" else "left")
    for row in results:
        table.add_row(
            row["game"],
            str(row["players"]),
            f"{row['games_per_second']:,.1f}",
            f"{row['actions_per_second']:,.0f}",
        )
    console.print(table)


@bench_app.command("server")
def bench_server(
    players: Annotated[int, typer.Option("--players", help="Simulated players (websockets).")] = 64,
    seconds: Annotated[float, typer.Option("--seconds", help="How long to send moves.")] = 10.0,
    game_id: Annotated[str, typer.Option("--game", help="The game the tables play.")] = "brujas",
    per_table: Annotated[int | None, typer.Option("--per-table", help="Players per table.")] = None,
    database: Annotated[
        str | None, typer.Option("--database", help="SQLAlchemy URL; default a temp SQLite.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Many simulated players over real websockets on loopback: moves/s and acknowledgement times."""
    from coven.server.commands import bench_server as run_bench

    _game(game_id)
    result = run_bench(players=players, seconds=seconds, game=game_id, per_table=per_table, database=database)
    if as_json:
        print(json.dumps(result))
        return
    table = Table(title="server, loopback websockets")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        table.add_row(key, str(value))
    console.print(table)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    database: Annotated[
        str | None, typer.Option("--database", help="SQLAlchemy URL; default: SQLite in your data folder.")
    ] = None,
    bus: Annotated[
        str | None, typer.Option("--bus", help="redis://... to share tables between processes.")
    ] = None,
) -> None:
    """Serve the lobby, the tables and the browser client."""
    from coven.server.commands import serve as run_server

    run_server(host=host, port=port, database=database, bus=bus)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
