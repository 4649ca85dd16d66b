"""The ``coven`` command line: play, simulate, ladder, replay, bench and serve."""

from __future__ import annotations

import errno
import json
import os
import random
import socket
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from coven.bots.arena import make_bot, run_tournament
from coven.core.driver import Driver, InputEnded, Quit, escape, play_terminal, refusal_text, seat_lines
from coven.core.errors import CovenError, InvalidOptionError
from coven.core.game import AnyGame
from coven.core.lang import LANGS, known_lang, pick_lang, translations
from coven.core.record import Record, replay_steps
from coven.core.refusals import PREFIX as REFUSAL_PREFIX
from coven.games import game_ids, get_game

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


def refusal_catalogue(lang: str | None) -> dict[str, str]:
    """Why the rules refuse, in ``lang``, by key (:mod:`coven.core.refusals`): the browser's own catalogue
    (``coven/web/i18n``), so the terminal and the page say a refusal in the same words. English: none
    (the rules' texts are English)."""
    code = pick_lang(lang)
    if code == "en":
        return {}
    source = Path(__file__).resolve().parent / "web" / "i18n" / f"{code}.json"
    entries: dict[str, str] = json.loads(source.read_text(encoding="utf-8"))
    return {key: text for key, text in entries.items() if key.startswith(REFUSAL_PREFIX)}


def _fail(message: str, code: int = 2) -> typer.Exit:
    # the message as written, brackets and all (a record's "[seat, action]", a bot named "[b]x")
    err_console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)  # one line, however long
    return typer.Exit(code)


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


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
@app.command()
def play(
    game_id: GameArg,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")] = None,
    seat: Annotated[int, typer.Option("--seat", "-s", help="Your seat (0 is the first player).")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", "-b", help="Bots for the other seats, in seat order, or one for all (default best)."
        ),
    ] = "",
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for the deal and the dice.")] = None,
    bot_seed: Annotated[
        int | None,
        typer.Option("--bot-seed", help="Seed for the bots' choices (default: drawn apart from the deal)."),
    ] = None,
    option: OptionArg = None,
    save: Annotated[Path | None, typer.Option("--save", help="Write the game's record here.")] = None,
    lang: Annotated[
        str,
        typer.Option(
            "--lang", envvar="COVEN_LANG", help=f"Language of the prompts: {', '.join(LANGS)} (default en)."
        ),
    ] = "en",
) -> None:
    """Play in the terminal against bots, typing moves in the game's notation ('?' lists legal moves).

    You see what your seat sees: your view, your own moves and the events shown to you (the other
    seats' moves as their events tell them, never their notation).
    """
    if known_lang(lang) is None:
        raise _fail(f"--lang is one of {', '.join(LANGS)}, not {lang!r}")
    tr = translations(lang).gettext
    refusals = refusal_catalogue(lang)
    game = _game(game_id)
    count = _players(game, players)
    if save is not None and (problem := _unwritable(save, tr)):
        raise _fail(tr("cannot save the record to {path}: {why}").format(path=save, why=problem))
    if not 0 <= seat < count:
        raise _fail(tr("--seat is 0 to {last}").format(last=count - 1))
    names = [b.strip() for b in bots.split(",") if b.strip()] or ["best"]
    others = [s for s in range(count) if s != seat]
    if len(names) == 1:
        names = names * len(others)
    if len(names) != len(others):
        raise _fail(tr("give one bot for each of the {n} other seats, or one for all").format(n=len(others)))
    # The deal's seed is told only if you chose it: it fixes every hidden card. The bots draw their
    # own randomness apart from it (or from --bot-seed, to replay a game exactly).
    deal_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    bot_rng = random.Random(bot_seed) if bot_seed is not None else random.SystemRandom()
    by_seat = dict(zip(others, names, strict=True))
    try:
        state = game.new_game(count, _parse_options(option), deal_seed)
        seat_bots = {s: make_bot(game, n, s, bot_rng.randrange(2**62)) for s, n in by_seat.items()}
    except CovenError as exc:
        raise _fail(refusal_text(exc, refusals, lang, tr)) from None
    told = tr(", seed {seed}").format(seed=seed) if seed is not None else ""
    title = f"[bold]{game.spec.title}[/]"
    console.print(
        tr("{title} — {count} players, you are seat {seat}{told}.").format(
            title=title, count=count, seat=seat, told=told
        )
    )

    def keep(driver: Driver | None, finished: bool = True) -> None:
        """Tell the deal's seed (if it was drawn, once the game is over) and save the record (with --save):
        of the whole game, or of the moves made until the person left."""
        if seed is None and finished:
            console.print(tr("the deal's seed was {seed}").format(seed=deal_seed))
        if save is not None and driver is not None:
            seats = tuple("you" if s == seat else by_seat[s] for s in range(count))
            options = dict(game.options(state))
            record = Record(game.spec.id, count, options, deal_seed, seats, driver.record_moves())
            try:
                record.save(save)
            except OSError as exc:  # (checked before the game, but the disk may have changed since)
                failed = _fail(
                    tr("cannot save the record to {path}: {why}").format(path=save, why=exc.strerror), 1
                )
                print(record.dumps())  # not lost: the record itself, to keep by hand
                raise failed from None
            console.print(tr("record saved to {path}").format(path=save))

    try:
        driver = play_terminal(
            game, state, seat, seat_bots, console.input, console.print, by_seat, lang, refusals
        )
    except Quit as left:
        keep(left.driver, finished=False)
        raise typer.Exit(0) from None
    except InputEnded as ended:
        keep(ended.driver, finished=False)
        raise _fail(tr("the input ended before the game did"), 1) from None
    except CovenError as exc:
        raise _fail(str(exc), 1) from None
    keep(driver)


def _unwritable(path: Path, tr: Callable[[str], str]) -> str | None:
    """Why a record could not be written to ``path`` (None: it can), found before the game is played, in
    the language of ``tr``."""
    folder = path.parent
    if path.is_dir():
        return tr("it is a folder")
    if not folder.is_dir():
        return tr("there is no folder {folder}").format(folder=folder)
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return tr("not allowed to write there")
    return None


# ----------------------------------------------------------------------- simulate
@app.command()
def simulate(
    game_id: GameArg,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players (default: the game's fewest).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 100,
    bots: Annotated[str, typer.Option("--bots", "-b", help="One bot per seat, or one for all.")] = "random",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and the bots: a run repeats.")] = 0,
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
    table = Table(title=f"{game.spec.title}: {_games(games)}, {count} players, seed {seed}")
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
    for figures in metrics_tables(result.metrics, result.bots):
        console.print(figures)


def metrics_tables(metrics: Mapping[str, Any], bots: Sequence[str]) -> list[Table]:
    """A tournament's game-specific figures (``--json`` gives them as the game writes them) as tables: one
    row per bot for those given per bot (a list in bot order, an object keyed by the bot's index, or
    ``by_bot``), then one row per figure for the rest."""
    count = len(bots)
    keys = {str(b) for b in range(count)}
    columns: dict[str, list[Any]] = {}
    rest: list[tuple[str, Any]] = []

    def per_bot(name: str, value: Any) -> bool:
        if isinstance(value, list) and len(value) == count and all(_scalar(v) for v in value):
            columns[name] = list(value)
            return True
        if (
            isinstance(value, dict)
            and value
            and set(value) <= keys
            and all(_scalar(v) for v in value.values())
        ):
            columns[name] = [value.get(str(b), "") for b in range(count)]
            return True
        return False

    for name, value in metrics.items():
        if name == "by_bot" and isinstance(value, dict) and set(value) <= keys:
            for b, figures in value.items():
                for key, figure in figures.items() if isinstance(figures, dict) else ():
                    columns.setdefault(key, [""] * count)[int(b)] = figure
        elif not per_bot(name, value):
            if isinstance(value, dict):
                rest.extend((f"{name}: {key}", figure) for key, figure in value.items())
            else:
                rest.append((name, value))
    tables = []
    if columns:
        by_bot = Table(title="per bot")
        by_bot.add_column("bot", no_wrap=True)
        for name in columns:
            by_bot.add_column(name.replace("_", " "), justify="right")
        for b in range(count):
            by_bot.add_row(escape(f"{b}: {bots[b]}"), *(_figure(values[b]) for values in columns.values()))
        tables.append(by_bot)
    if rest:
        overall = Table(title="over all games")
        overall.add_column("figure")
        overall.add_column("value", justify="right")
        for name, value in rest:
            overall.add_row(escape(name.replace("_", " ")), _figure(value))
        tables.append(overall)
    return tables


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


def _figure(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return escape(value if isinstance(value, str) else json.dumps(value))


@app.command()
def ladder(
    game_id: GameArg,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players (default: the game's fewest).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 40,
    bots: Annotated[
        str | None, typer.Option("--bots", "-b", help="Bots to rate, comma-separated (default: all).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and the bots: a run repeats.")] = 0,
    option: OptionArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Rate bots on one ladder: games in rotating seats, OpenSkill ratings with their uncertainty."""
    from coven.bots.ladder import run_ladder

    game = _game(game_id)
    count = _players(game, players)
    names = [b.strip() for b in bots.split(",") if b.strip()] if bots else sorted(game.bots())
    options = _parse_options(option)
    try:
        if as_json:
            result = run_ladder(game, names, count, games, seed, options)
        else:
            with _progress() as bar:
                task = bar.add_task(f"{game.spec.id} ladder ×{games}", total=games)
                result = run_ladder(
                    game, names, count, games, seed, options, lambda done: bar.update(task, completed=done)
                )
    except CovenError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps(result.to_json()))
        return
    table = Table(title=f"{game.spec.title} ladder: {_games(games)}, {count} players, seed {seed}")
    for column in ("rank", "bot", "mu", "± sigma", "ordinal", "games", "win %", "mean score"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, s in enumerate(result.standings, 1):
        row = s.to_json()
        table.add_row(
            str(rank),
            s.bot,
            f"{s.mu:.2f}",
            f"{s.sigma:.2f}",
            f"{s.ordinal:.2f}",
            str(s.games),
            f"{100 * float(row['win_rate']):.1f}",  # type: ignore[arg-type]
            f"{float(row['mean_score']):.2f}",  # type: ignore[arg-type]
        )
    console.print(table)
    console.print("OpenSkill (Plackett-Luce): ordinal = mu - 3 sigma; sorted by ordinal.")


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
_REPLAY_HELP = (
    "Replay a saved record: draw the final position, then every seat's score.\n\n"
    "A record holds the deal's seed, so whoever has the file can see everything; --seat only chooses "
    "whose eyes the replay uses. Without --seat the final position is drawn as a spectator sees it, and "
    "--steps prints every move in notation with all of its events. With --seat K the final position is "
    "drawn as seat K sees it, and --steps prints only what seat K saw: its own moves in notation, the "
    "others' moves as the events shown to it.\n\n"
    "The scores are every seat's, computed from the whole record (at the end of a game they are public)."
)


@app.command(help=_REPLAY_HELP)
def replay(
    file: Annotated[Path, typer.Argument(help="A record saved by `coven play --save` or the server.")],
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            metavar="K",
            help="Draw the final position (and, with --steps, the moves) as seat K saw them.",
        ),
    ] = None,
    steps: Annotated[
        bool, typer.Option("--steps", help="Also print the moves, before the final position.")
    ] = False,
) -> None:
    try:
        record = Record.load(file)
    except OSError as exc:
        raise _fail(f"cannot read {file}: {exc.strerror}") from None
    except CovenError as exc:
        raise _fail(str(exc)) from None
    game = _game(record.game)
    if seat is not None and not 0 <= seat < record.players:
        raise _fail(f"--seat is 0 to {record.players - 1} for this record of {record.players} players")
    state: Any = None
    try:
        for step in replay_steps(game, record):
            state = step.state
            if not steps or step.move is None:
                continue
            if seat is None:
                console.print(f"seat {step.move.seat}: [bold]{escape(step.move.action)}[/]")
                for event in step.events:
                    console.print(f"  [dim]·[/] {escape(game.describe_event(event, None))}")
            else:
                own = step.move.action if step.move.seat == seat else None
                for line in seat_lines(game, seat, step.events, own):
                    console.print(line)
    except CovenError as exc:
        raise _fail(f"the record does not replay: {exc}") from None
    console.print(game.render(game.view(state, seat)))
    winners = game.winners(state) if game.is_over(state) else frozenset()  # (nobody wins a game under way)
    names = record.seats or tuple(f"seat {s}" for s in range(record.players))
    for s, value in enumerate(game.scores(state)):
        crown = " [bold yellow]wins[/]" if s in winners else ""
        name = names[s] if s < len(names) else f"seat {s}"
        console.print(f"seat {s} ({escape(name)}): {value:g}{crown}")
    if not game.is_over(state):
        console.print("[yellow]the game is not over[/]")


# -------------------------------------------------------------------------- bench
def bench_playouts(game: AnyGame, players: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Random playouts through the engine's fast path (:meth:`Game.advance`: nobody reads the events, as
    nobody does in OpenSpiel's playouts) for about ``seconds`` of this process's CPU time (what other
    processes on the machine take does not count); player decisions counted."""
    rng = random.Random(seed)
    rand = rng.random
    first_to_act, legal_actions, apply = game.first_to_act, game.legal_actions, game.advance
    games = decisions = 0
    started = time.process_time()
    deadline = started + seconds
    while True:
        state = game.new_game(players, None, rng.getrandbits(32))
        while True:
            seat = first_to_act(state)
            if seat is None:
                break
            legal = legal_actions(state, seat)
            apply(state, seat, legal[int(rand() * len(legal))])
            decisions += 1
        games += 1
        if time.process_time() >= deadline:
            break
    elapsed = time.process_time() - started
    return {
        "game": game.spec.id,
        "players": players,
        "games_per_second": round(games / elapsed, 2),
        "actions_per_second": round(decisions / elapsed, 1),
    }


def bench_clone(game: AnyGame, players: int, seconds: float = 0.3, seed: int = 0) -> float:
    """Microseconds of CPU per :meth:`Game.clone`, over the states of one random game (early, middle,
    late)."""
    rng = random.Random(seed)
    state = game.new_game(players, None, seed)
    states = []
    while game.to_act(state):
        states.append(game.clone(state))
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        game.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
    clone = game.clone
    done = 0
    started = time.process_time()
    deadline = started + seconds
    while time.process_time() < deadline:
        for each in states:
            clone(each)
        done += len(states)
    return round((time.process_time() - started) / max(1, done) * 1e6, 3)


def bench_openspiel_oh_hell(seconds: float, seed: int = 0) -> float | None:
    """Player decisions per CPU second of random playouts of OpenSpiel's C++ Oh Hell (4 players) driven
    from Python the same way (chance sampled by its probabilities); None without ``open_spiel``."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4})
    rng = random.Random(seed)
    rand = rng.random
    decisions = 0
    started = time.process_time()
    deadline = started + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick, total = rand(), 0.0
                chosen = outcomes[-1][0]
                for outcome, probability in outcomes:
                    total += probability
                    if pick < total:
                        chosen = outcome
                        break
                state.apply_action(chosen)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
                decisions += 1
        if time.process_time() >= deadline:
            break
    return round(decisions / (time.process_time() - started), 1)


@bench_app.command("engine")
def bench_engine(
    game_filter: Annotated[list[str] | None, typer.Option("--game", "-g", help="Only these games.")] = None,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.01, max=3600.0, help="Time per game and player count.")
    ] = 2.0,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Random playouts per game and player count on one core: games and decisions per CPU second, the
    cost of a clone, and (with ``open_spiel`` installed) each figure's ratio to OpenSpiel's C++ Oh Hell
    for 4 players measured in the same run.

    Every figure is counted in this process's CPU time, so other work on the machine does not slow it;
    and each case's ratio is taken against an OpenSpiel slice run just before it (half as long), so a
    drift of the machine's speed over the run (other processes sharing caches, the clock) cannot make a
    game look faster or slower than OpenSpiel. ``openspiel_oh_hell_actions_per_second`` is the median of
    those slices."""
    ids = game_filter or game_ids()
    results: list[dict[str, Any]] = []
    cases = [(g, p) for g in ids for p in _game(g).spec.player_counts]
    slices: list[float] = []
    with _progress() as bar:
        task = bar.add_task("bench engine", total=len(cases))
        for game_id, players in cases:
            adjacent = bench_openspiel_oh_hell(seconds / 2)
            row = bench_playouts(_game(game_id), players, seconds)
            row["clone_us"] = bench_clone(_game(game_id), players)
            if adjacent:
                slices.append(adjacent)
                row["openspiel_oh_hell_adjacent"] = adjacent
                row["ratio_to_openspiel"] = round(row["actions_per_second"] / adjacent, 3)
            results.append(row)
            bar.advance(task)
    reference = statistics.median(slices) if slices else None
    if as_json:
        out: dict[str, Any] = {"results": results}
        if reference is not None:
            out["openspiel_oh_hell_actions_per_second"] = reference
        print(json.dumps(out))
        return
    table = Table(title="random playouts, one core (per CPU second)")
    columns = ["game", "players", "games/s", "decisions/s", "clone µs"]
    if reference:
        columns.append("× OpenSpiel Oh Hell")
    for column in columns:
        table.add_column(column, justify="right" if column != "game" else "left")
    for row in results:
        cells = [
            row["game"],
            str(row["players"]),
            f"{row['games_per_second']:,.1f}",
            f"{row['actions_per_second']:,.0f}",
            f"{row['clone_us']:.2f}",
        ]
        if reference:
            cells.append(f"{row['ratio_to_openspiel']:.2f}")
        table.add_row(*cells)
    console.print(table)
    if reference:
        console.print(
            f"OpenSpiel Oh Hell (4 players, C++ from Python): {reference:,.0f} decisions/s"
            " (the median of the slices each ratio is taken against)"
        )
    else:
        console.print("[dim]install open_spiel (pip install 'coven[openspiel]') to compare with OpenSpiel[/]")


@bench_app.command("server")
def bench_server(
    game_id: Annotated[str, typer.Option("--game", help="The game the tables play.")] = "brujas",
    tables: Annotated[
        int | None, typer.Option("--tables", min=1, help="Tables of simulated people (default 20).")
    ] = None,
    bot_tables: Annotated[
        int,
        typer.Option(
            "--bot-tables",
            min=0,
            help="All-'best' bot tables thinking in a second phase (people's ack p99 with and without).",
        ),
    ] = 0,
    seconds: Annotated[
        float,
        typer.Option(
            "--seconds", min=0.1, max=3600.0, help="How long each phase lasts (people, bots, echo)."
        ),
    ] = 10.0,
    per_table: Annotated[int | None, typer.Option("--per-table", help="Players per table.")] = None,
    players: Annotated[
        int | None, typer.Option("--players", help="Instead of --tables: this many people in all.")
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            min=0,
            help="The people's phase lasts until this many games have ended (memory growth over them).",
        ),
    ] = 0,
    database: Annotated[
        str | None, typer.Option("--database", help="SQLAlchemy URL; default a temp SQLite.")
    ] = None,
    commit_process: Annotated[
        bool,
        typer.Option(
            "--commit-process",
            help="The server commits in its store writer process, as coven serve --commit-process does.",
        ),
    ] = False,
    commit_interval: Annotated[
        float | None,
        typer.Option(
            "--commit-interval",
            min=0.0,
            max=0.1,
            help="The server's least seconds between two group commits (default: coven serve's).",
        ),
    ] = None,
    socket_protocol: Annotated[
        str,
        typer.Option(
            "--socket-protocol",
            help="The server's websocket protocol: coven (as coven serve serves) or uvicorn (its own, "
            "as the echo is served), to compare them.",
        ),
    ] = "coven",
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
) -> None:
    """Simulated people over real websockets on 127.0.0.1: moves/s, ack times, the server's CPU per move
    beside a bare websocket echo's CPU per message (cpu_ratio), memory growth, and the people's ack p99
    with and without bot tables."""
    from coven.server.bench import bench_server as run_bench

    _game(game_id)
    try:
        result = run_bench(
            players=players,
            seconds=seconds,
            game=game_id,
            per_table=per_table,
            database=database,
            tables=tables,
            bot_tables=bot_tables,
            games=games,
            commit_process=commit_process,
            commit_interval=commit_interval,
            socket_protocol=socket_protocol,
        )
    except (CovenError, ValueError) as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps(result))
        return
    table = Table(title="server, loopback websockets")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        if key != "cpu_ratio_parts":
            table.add_row(key, str(value))
    console.print(table)
    parts = result.get("cpu_ratio_parts")
    if parts:
        console.print(_ratio_parts_table(parts, result["cpu_ratio"]))
    if result.get("cpu_ratio_q1") is not None:
        console.print(
            f"cpu_ratio round by round: half of the {result['cpu_ratio_rounds']} rounds between "
            f"{result['cpu_ratio_q1']} and {result['cpu_ratio_q3']} (the run's own noise)"
        )


RATIO_PART_NAMES = {
    "transport": "the frames through the transport alone (fanout_ratio)",
    "setup": "setting tables up (setup_share)",
    "commit": "committing each step to the database (commit_share)",
    "table": "a move's own work: rules, views, legal lists, JSON (table_cpu_us_per_move)",
    "rest": "the rest: reading each message, the lock, the commit's wait, the sends",
}


def _ratio_parts_table(parts: dict[str, float], ratio: float) -> Table:
    """Where a move's CPU goes, in echo messages (``cpu_ratio`` in its parts), with a bar for each."""
    table = Table(title=f"a move's server CPU: {ratio} echo messages (cpu_ratio), in parts")
    table.add_column("part")
    table.add_column("echo messages", justify="right")
    table.add_column("")
    scale = 40 / max(ratio, sum(parts.values()), 1e-9)
    for name, value in parts.items():
        table.add_row(RATIO_PART_NAMES.get(name, name), f"{value:.2f}", "█" * round(value * scale))
    return table


MAX_LEASE_SECONDS = 3600.0
"""``--lease-seconds`` at most (an hour). Without a bound, ``inf`` (or ``1e300``) was taken, and the first
table created failed with a 500 (a lease's end past any date)."""
MAX_REST_SECONDS = 365 * 86400.0
"""``--rest-seconds`` at most (a year; 0 is never)."""
MAX_EXPIRE_DAYS = 36500.0
"""``--expire-days`` at most (a hundred years; 0 is never). Without a bound, ``inf`` failed every
heartbeat (an expiry date before any date)."""


@app.command()
def serve(
    host: Annotated[
        str, typer.Option("--host", envvar="COVEN_HOST", help="Address to listen on (0.0.0.0: every one).")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", envvar="COVEN_PORT", min=1, max=65535, help="Port to listen on.")
    ] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            "--database", envvar="COVEN_DATABASE", help="SQLAlchemy URL; default: SQLite in your data folder."
        ),
    ] = None,
    bus: Annotated[
        str | None,
        typer.Option("--bus", envvar="COVEN_BUS", help="redis://... to share tables between processes."),
    ] = None,
    bus_namespace: Annotated[
        str | None,
        typer.Option(
            "--bus-namespace",
            envvar="COVEN_BUS_NAMESPACE",
            help="This deployment's namespace on a shared Redis (default: coven).",
        ),
    ] = None,
    node_id: Annotated[
        str | None,
        typer.Option("--node-id", envvar="COVEN_NODE_ID", help="This process's name (default: random)."),
    ] = None,
    bot_processes: Annotated[
        int | None,
        typer.Option(
            "--bot-processes",
            envvar="COVEN_BOT_PROCESSES",
            min=0,
            help="Bots' worker processes (default: the machine's cores less one, at least 1).",
        ),
    ] = None,
    lease_seconds: Annotated[
        float | None,
        typer.Option(
            "--lease-seconds",
            envvar="COVEN_LEASE_SECONDS",
            min=1.0,
            max=MAX_LEASE_SECONDS,
            help="How soon another process adopts a dead one's tables (default 6; at most an hour).",
        ),
    ] = None,
    route_seconds: Annotated[
        float | None,
        typer.Option(
            "--route-seconds",
            envvar="COVEN_ROUTE_SECONDS",
            min=0.1,
            max=60.0,
            help="How long a move sent to its table's owner waits before it is taken here (default 2).",
        ),
    ] = None,
    commit_interval: Annotated[
        float | None,
        typer.Option(
            "--commit-interval",
            envvar="COVEN_COMMIT_INTERVAL",
            min=0.0,
            max=0.1,
            help="Least seconds between two group commits: moves arriving within it share a sync to disk "
            "(default 0.002).",
        ),
    ] = None,
    commit_process: Annotated[
        bool | None,
        typer.Option(
            "--commit-process/--no-commit-process",
            envvar="COVEN_COMMIT_PROCESS",
            help="Commit moves in a child process, outside the server's interpreter lock: steadier "
            "acknowledgements under heavy load, more CPU under light load (default: no, a thread).",
        ),
    ] = None,
    rest_seconds: Annotated[
        float | None,
        typer.Option(
            "--rest-seconds",
            envvar="COVEN_REST_SECONDS",
            min=0.0,
            max=MAX_REST_SECONDS,
            help="A live table nobody has watched for this long, waiting on nobody the server moves for, "
            "leaves memory until it is opened again (default 600, at most a year; 0: never).",
        ),
    ] = None,
    expire_days: Annotated[
        float | None,
        typer.Option(
            "--expire-days",
            envvar="COVEN_EXPIRE_DAYS",
            min=0.0,
            max=MAX_EXPIRE_DAYS,
            help="A table nobody has joined this many days after it was made is deleted "
            "(default 30, at most 36500; 0: never).",
        ),
    ] = None,
    http_limit: Annotated[
        float | None,
        typer.Option(
            "--http-limit",
            envvar="COVEN_HTTP_LIMIT",
            min=0.0,
            help="API requests one client address may make a second, after a burst of --http-burst "
            "(default 50; 0: no limit).",
        ),
    ] = None,
    http_burst: Annotated[
        int | None,
        typer.Option(
            "--http-burst",
            envvar="COVEN_HTTP_BURST",
            min=1,
            help="API requests one client address may make at once (default 200).",
        ),
    ] = None,
    sockets_per_client: Annotated[
        int | None,
        typer.Option(
            "--sockets-per-client",
            envvar="COVEN_SOCKETS_PER_CLIENT",
            min=0,
            help="Live connections one client address may hold open (default 100; 0: no limit).",
        ),
    ] = None,
    spectators_per_table: Annotated[
        int | None,
        typer.Option(
            "--spectators-per-table",
            envvar="COVEN_SPECTATORS_PER_TABLE",
            min=0,
            help="People one table may have watching it on this process (default 200; 0: no limit).",
        ),
    ] = None,
    create_limit: Annotated[
        float | None,
        typer.Option(
            "--create-limit",
            envvar="COVEN_CREATE_LIMIT",
            min=0.0,
            help="Tables one client address may create a minute, after a burst of --create-burst "
            "(default 10; 0: no limit).",
        ),
    ] = None,
    create_burst: Annotated[
        int | None,
        typer.Option(
            "--create-burst",
            envvar="COVEN_CREATE_BURST",
            min=1,
            help="Tables one client address may create at once (default 30).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            envvar="COVEN_FORWARDED_ALLOW_IPS",
            help="Reverse proxies whose X-Forwarded-* headers to trust (e.g. 127.0.0.1).",
        ),
    ] = None,
) -> None:
    """Serve the lobby, the tables and the browser client (every option can come from the environment)."""
    from coven.server.commands import StartupError
    from coven.server.commands import serve as run_server
    from coven.server.settings import bus_prefix_for

    if bus_namespace:
        try:
            bus_prefix_for(bus_namespace)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--bus-namespace") from None
    problem = port_problem(host, port)
    if problem is not None:
        raise _fail(problem, 1)
    tuning: dict[str, Any] = {
        key: value
        for key, value in {
            "node_id": node_id,
            "bot_processes": bot_processes,
            "lease_seconds": lease_seconds,
            "route_seconds": route_seconds,
            "commit_interval": commit_interval,
            "commit_process": commit_process,
            "rest_seconds": rest_seconds,
            "expire_days": expire_days,
            "http_limit": http_limit,
            "http_burst": http_burst,
            "sockets_per_client": sockets_per_client,
            "spectators_per_table": spectators_per_table,
            "create_limit": create_limit,
            "create_burst": create_burst,
        }.items()
        if value is not None
    }
    if "lease_seconds" in tuning:
        tuning["heartbeat_seconds"] = tuning["lease_seconds"] / 3
    try:
        run_server(
            host=host,
            port=port,
            database=database,
            bus=bus,
            bus_namespace=bus_namespace or None,
            forwarded_allow_ips=forwarded_allow_ips,
            **tuning,
        )
    except StartupError as exc:
        raise _fail(str(exc), 1) from None


def port_problem(host: str, port: int) -> str | None:
    """Why ``coven serve`` could not listen on ``host:port`` (None: it can), checked before it announces
    itself. The socket is opened as uvicorn opens it (``SO_REUSEADDR``: a port left in TIME_WAIT is free,
    one another program listens on is not) and closed at once."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except socket.gaierror:
        return f"cannot listen on {host!r}: no such address on this machine (try --host 127.0.0.1)"
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return (
                f"port {port} on {host} is already in use (another Coven or another program is listening "
                f"there): stop it, or choose another port with --port"
            )
        if exc.errno == errno.EACCES:
            return f"not allowed to listen on port {port} (ports below 1024 need privileges): use --port"
        if exc.errno == errno.EADDRNOTAVAIL:
            return f"cannot listen on {host}: this machine has no such address (try --host 127.0.0.1)"
        return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def main() -> None:
    app()


if __name__ == "__main__":
    main()
