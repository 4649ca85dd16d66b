"""The conformance suite: what every game promises, checked on random play.

A game gets all of this by registering. :func:`check_game` plays one random game and checks, along the
way and at the end:

- the game ends within ``bounds.max_decisions`` and its scores stay within the declared range;
- replaying its record reproduces every view (every seat and the spectator) and every event;
- actions round-trip through notation and JSON; views through JSON; the record through JSON;
- seats outside ``to_act | may_act`` have no legal actions and their attempts raise NotYourTurnError;
- illegal actions raise IllegalActionError and change nothing; so do wrong seats and foreign objects;
- a clone is independent of its original;
- a world sampled for a seat gives that seat an identical view, and (for games with hidden information)
  the other seats' views vary across samples somewhere in the game.

:func:`check_terminal` plays a whole game through the terminal driver (``coven play``'s loop) with one
seat typed by a scripted random chooser and bots elsewhere, and checks that nothing printed to that seat
holds a fact hidden from it (``Game.hidden_facts``) at the moment it was printed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from coven.core.driver import play_terminal
from coven.core.errors import (
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    NotationError,
    NotYourTurnError,
)
from coven.core.events import Event
from coven.core.game import AnyGame
from coven.core.record import Move, Record, replay_steps
from coven.core.refusals import keys
from coven.core.types import JSONValue, Seat


class ConformanceError(AssertionError):
    """A game broke one of its promises; the message says which, where."""


@dataclass
class Report:
    decisions: int = 0
    checked_steps: int = 0
    worlds_sampled: int = 0
    hidden_varied: bool = False
    illegal_tried: int = 0
    record: Record | None = None
    final_scores: tuple[float, ...] = ()
    notes: list[str] = field(default_factory=list)


def all_views(game: AnyGame, state: Any) -> list[Any]:
    players = game.num_players(state)
    return [game.view(state, s) for s in range(players)] + [game.view(state, None)]


def _fail(where: str, message: str) -> ConformanceError:
    return ConformanceError(f"{where}: {message}")


def _choose_actor(game: AnyGame, state: Any, rng: random.Random, optional_rate: float) -> tuple[Seat, bool]:
    required = sorted(game.to_act(state))
    optional = sorted(game.may_act(state))
    if optional and rng.random() < optional_rate:
        return optional[rng.randrange(len(optional))], False
    return required[rng.randrange(len(required))], True


def _expect_unchanged(game: AnyGame, state: Any, before: list[Any], where: str) -> None:
    if all_views(game, state) != before:
        raise _fail(where, "a refused action changed the state")


def check_reused_items(
    game: AnyGame, views: Sequence[Any], met: dict[int, tuple[object, JSONValue]], where: str
) -> None:
    """What a server may write once and keep (:attr:`Game.reused_view_items`): each declared member of
    ``views`` is a tuple, each of its items a value that cannot change (hashable), and an item met before
    (``met``, by identity, filled in here: each item with its JSON when first met) has the same JSON
    again."""
    if not game.reused_view_items:
        return
    for view in views:
        written = game.view_to_json(view)  # (once a view, for all its members)
        for member in game.reused_view_items:
            items = getattr(view, member)
            if type(items) is not tuple:
                raise _fail(where, f"the views' {member!r} is declared reused but is not a tuple")
            shown = written.get(member) if isinstance(written, dict) else None
            if not isinstance(shown, list):
                raise _fail(where, f"the views' {member!r} is declared reused but is not written as a list")
            for item, json_item in zip(items, shown, strict=True):
                try:
                    hash(item)
                except TypeError:
                    raise _fail(
                        where, f"an item of the views' {member!r} (declared reused) can change"
                    ) from None
                if met.setdefault(id(item), (item, json_item))[1] != json_item:  # (met keeps it alive)
                    raise _fail(where, f"an item of the views' {member!r} (declared reused) changed")


def _check_step(
    game: AnyGame,
    state: Any,
    rng: random.Random,
    report: Report,
    foreign_actions: list[Hashable],
    where: str,
    met: dict[int, tuple[object, JSONValue]],
) -> None:
    """The per-state checks (expensive ones; run on a sample of steps). ``met``: the items of reused view
    members seen at the steps checked before (see :func:`check_reused_items`)."""
    players = game.num_players(state)
    to_act, may_act = game.to_act(state), game.may_act(state)
    if to_act & may_act:
        raise _fail(where, f"to_act {sorted(to_act)} and may_act {sorted(may_act)} overlap")
    before = all_views(game, state)
    seats: list[Seat | None] = [*range(players), None]
    together = game.views(state, [*reversed(seats), 0])  # any order, a seat twice: the same answer
    if together != dict(zip(seats, before, strict=True)):
        raise _fail(where, "views of several seats at once differ from each seat's view")
    for member in game.shared_view_members:  # one object for every seat (the server writes it once)
        if len({id(getattr(view, member)) for view in together.values()}) != 1:
            raise _fail(where, f"the views' {member!r} is declared shared but is not one object")
    check_reused_items(game, list(together.values()), met, where)
    bare = game.bare_views(state, seats)
    if {seat: game.derive_view(view) for seat, view in bare.items()} != together:
        raise _fail(where, "the bare views, once derived, differ from the views")

    # Views round-trip through JSON.
    for seat, view in zip([*range(players), None], before, strict=True):
        raw = game.view_to_json(view)
        if game.view_from_json(raw) != view:
            raise _fail(where, f"view of seat {seat} does not round-trip through JSON")

    # Seats that may not act.
    for seat in range(players):
        if seat in to_act or seat in may_act:
            continue
        if len(game.legal_actions(state, seat)) != 0:
            raise _fail(where, f"seat {seat} is not to act but has legal actions")
        probe = foreign_actions[rng.randrange(len(foreign_actions))] if foreign_actions else None
        if probe is not None:
            try:
                game.apply(state, seat, probe)
            except NotYourTurnError:
                pass
            else:
                raise _fail(where, f"seat {seat} acted out of turn")
            _expect_unchanged(game, state, before, where)
    for bad_seat in (-1, players, "0"):
        try:
            game.apply(state, bad_seat, foreign_actions[0] if foreign_actions else object())  # type: ignore[arg-type]
        except NotYourTurnError:
            pass
        else:
            raise _fail(where, f"{bad_seat!r} acted although it is no seat")
        _expect_unchanged(game, state, before, where)

    # Acting seats: notation and JSON round trips; illegal actions refused.
    for seat in sorted(to_act | may_act):
        legal = game.legal_actions(state, seat)
        if seat in to_act and len(legal) == 0:
            raise _fail(where, f"seat {seat} must act but has no legal action")
        sample = [legal[rng.randrange(len(legal))] for _ in range(min(len(legal), 6))]
        for action in sample:
            text = game.format_action(action)
            try:
                parsed = game.parse_action(text)
            except GameError as exc:
                raise _fail(where, f"notation {text!r} does not round-trip: {exc}") from None
            if parsed != action:
                raise _fail(where, f"notation {text!r} does not round-trip")
            if game.action_from_json(game.action_to_json(action)) != action:
                raise _fail(where, f"action {text!r} does not round-trip through JSON")
            if game.illegal_reason(state, seat, action) is not None:
                raise _fail(where, f"legal action {text!r} is called illegal")
        try:
            game.apply(state, seat, object())
        except IllegalActionError:
            pass
        else:
            raise _fail(where, "a foreign object was accepted as an action")
        _expect_unchanged(game, state, before, where)
        for probe in rng.sample(foreign_actions, min(len(foreign_actions), 8)):
            if game.illegal_reason(state, seat, probe) is None:
                continue
            report.illegal_tried += 1
            try:
                game.apply(state, seat, probe)
            except IllegalActionError as exc:
                if not str(exc):
                    raise _fail(where, "an illegal action was refused without a reason") from None
                if exc.reason is not None and not keys(exc.reason) <= set(game.refusals.templates):
                    raise _fail(
                        where, f"the refusal {exc.reason.key!r} is not among the game's refusals"
                    ) from None
            else:
                raise _fail(where, f"illegal {game.format_action(probe)!r} was accepted")
            _expect_unchanged(game, state, before, where)

    # The position round-trips, future chance included.
    _check_position(game, state, rng, before, where)

    # Clones are independent.
    seat = sorted(to_act)[0]
    copy = game.clone(state)
    if all_views(game, copy) != before:
        raise _fail(where, "a clone does not look like its original")
    legal = game.legal_actions(copy, seat)
    game.apply(copy, seat, legal[rng.randrange(len(legal))])
    _expect_unchanged(game, state, before, where + " (clone)")

    # Sampled worlds keep the seat's view; hidden parts vary.
    for seat in range(players):
        others: set[str] = set()
        for _ in range(4):
            world = game.sample_world(state, seat, random.Random(rng.getrandbits(64)))
            report.worlds_sampled += 1
            if game.view(world, seat) != before[seat]:
                raise _fail(where, f"a world sampled for seat {seat} changes that seat's view")
            others.add(repr([game.view(world, s) for s in range(players) if s != seat]))
        if len(others) > 1:
            report.hidden_varied = True
    _expect_unchanged(game, state, before, where + " (sampling)")
    report.checked_steps += 1


def _check_advanced(game: AnyGame, quiet: Any, state: Any, where: str) -> None:
    """``advance`` (no events) has kept ``quiet`` where ``apply`` has taken ``state``: the same position,
    and the same things derived from it (who acts, the scores: a game may derive them from a log that a
    careless quiet path could keep right while getting them wrong)."""
    if game.write_position(quiet) != game.write_position(state):
        raise _fail(where, "advance (without events) reached another position than apply")
    if (game.to_act(quiet), game.may_act(quiet), game.is_over(quiet), game.scores(quiet)) != (
        game.to_act(state),
        game.may_act(state),
        game.is_over(state),
        game.scores(state),
    ):
        raise _fail(where, "advance (without events) reached another turn or other scores than apply")
    for each in (state, quiet):
        seats = game.to_act(each)
        if game.first_to_act(each) != (min(seats) if seats else None):
            raise _fail(where, f"first_to_act is not the lowest seat of to_act {sorted(seats)}")


def _check_position(game: AnyGame, state: Any, rng: random.Random, before: list[Any], where: str) -> None:
    """write_position / read_position: the text reads back to a state that writes the same text, looks
    the same to every seat, offers the same decisions and, given the same next action, goes on to the
    same position (the future chance travels with the text); bad texts are NotationErrors."""
    text = game.write_position(state)
    if not isinstance(text, str) or "\n" in text:
        raise _fail(where, "a position is one line of text")
    try:
        back = game.read_position(text)
    except GameError as exc:
        raise _fail(where, f"position {text!r} does not read back: {exc}") from None
    if game.write_position(back) != text:
        raise _fail(where, f"position {text!r} does not round-trip")
    if all_views(game, back) != before:
        raise _fail(where, f"position {text!r} reads back to different views")
    if (game.to_act(back), game.may_act(back), game.is_over(back)) != (
        game.to_act(state),
        game.may_act(state),
        game.is_over(state),
    ):
        raise _fail(where, f"position {text!r} reads back with other seats to act")
    if game.is_over(state):
        return
    seat = sorted(game.to_act(state) or game.may_act(state))[0]
    legal = game.legal_actions(state, seat)
    if len(game.legal_actions(back, seat)) != len(legal):
        raise _fail(where, f"position {text!r} reads back with other legal actions")
    action = legal[rng.randrange(len(legal))]
    original = game.clone(state)
    events = [e.to_json() for e in game.apply(original, seat, action)]
    if [e.to_json() for e in game.apply(back, seat, action)] != events:
        raise _fail(where, f"position {text!r} goes on with other events")
    if game.write_position(back) != game.write_position(original):
        raise _fail(where, f"position {text!r} goes on to another position (is its future chance in it?)")
    for bad in ("", "?", text[: len(text) // 2] + "\x00", text + " ### nonsense"):
        try:
            game.read_position(bad)
        except NotationError:
            continue
        except Exception as exc:
            name = type(exc).__name__
            raise _fail(where, f"read_position({bad[:30]!r}) raised {name}, not NotationError") from None
        raise _fail(where, f"read_position accepted the malformed {bad[:40]!r}")


def check_game(
    game: AnyGame,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    max_checked_steps: int = 30,
    optional_rate: float = 0.05,
) -> Report:
    """Play one random game with every check on; raise ConformanceError on the first broken promise."""
    rng = random.Random(f"conformance/{game.spec.id}/{players}/{seed}")
    state = game.new_game(players, options, seed)
    resolved = game.options(state)
    bounds = game.bounds(players, resolved)
    report = Report()
    trail: list[tuple[list[Any], list[Event]]] = [(all_views(game, state), [])]
    quiet = game.clone(state)  # the same game through advance (no events): it must keep the same positions
    moves: list[Move] = []
    foreign: list[Hashable] = []
    met: dict[int, tuple[object, JSONValue]] = {}  # reused view items seen (see check_reused_items)
    # Decide which steps get the expensive checks: spread them over the expected length.
    stride = max(1, bounds.max_decisions // max(1, max_checked_steps * 3))

    while not game.is_over(state):
        where = f"{game.spec.id} players={players} seed={seed} step={report.decisions}"
        if report.decisions >= bounds.max_decisions:
            raise _fail(where, f"still running after the declared {bounds.max_decisions} decisions")
        if report.decisions % stride == 0 and report.checked_steps < max_checked_steps:
            _check_step(game, state, rng, report, foreign, where, met)
            _check_advanced(game, quiet, state, where)
        seat, _ = _choose_actor(game, state, rng, optional_rate)
        legal: Sequence[Hashable] = game.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        if len(foreign) < 400:
            foreign.append(action)
        else:
            foreign[rng.randrange(len(foreign))] = action
        events = game.apply(state, seat, action)
        game.advance(quiet, seat, action)
        moves.append(Move(seat, game.format_action(action)))
        trail.append((all_views(game, state), events))
        report.decisions += 1

    where = f"{game.spec.id} players={players} seed={seed} end"
    _check_advanced(game, quiet, state, where)
    _check_position(game, state, rng, all_views(game, state), where)
    # Over: nobody acts, every attempt is GameOverError.
    if game.to_act(state) or game.may_act(state):
        raise _fail(where, "the game is over but seats may still act")
    for seat in range(players):
        if len(game.legal_actions(state, seat)) != 0:
            raise _fail(where, f"seat {seat} has legal actions after the end")
        if foreign:
            try:
                game.apply(state, seat, foreign[0])
            except GameOverError:
                pass
            else:
                raise _fail(where, "an action was accepted after the end")
    scores = game.scores(state)
    if len(scores) != players:
        raise _fail(where, f"{len(scores)} scores for {players} players")
    for s, value in enumerate(scores):
        if not bounds.min_score <= value <= bounds.max_score:
            raise _fail(where, f"seat {s} scored {value}, outside [{bounds.min_score}, {bounds.max_score}]")
    winners = game.winners(state)
    if not winners <= set(range(players)):
        raise _fail(where, f"winners {sorted(winners)} are not seats")

    # The record round-trips and replays to identical views and events.
    record = Record(
        game.spec.id, players, dict(resolved), seed, tuple(f"random{s}" for s in range(players)), tuple(moves)
    )
    if Record.loads(record.dumps()) != record:
        raise _fail(where, "the record does not round-trip through JSON")
    for index, step in enumerate(replay_steps(game, Record.loads(record.dumps()))):
        views, events = trail[index]
        if all_views(game, step.state) != views:
            raise _fail(where, f"replay differs in the views after move {index}")
        if [e.to_json() for e in step.events] != [e.to_json() for e in events]:
            raise _fail(where, f"replay differs in the events of move {index}")
        for event in events:
            raw: JSONValue = event.to_json()
            if Event.from_json(raw) != event:
                raise _fail(where, f"event {raw!r} does not round-trip through JSON")
    report.record = record
    report.final_scores = scores
    return report


def check_bad_setup(game: AnyGame) -> None:
    """Bad player counts and options raise InvalidOptionError (a GameError)."""
    spec = game.spec
    for players in (spec.min_players - 1, spec.max_players + 1):
        try:
            game.new_game(players, None, 0)
        except GameError:
            pass
        else:
            raise ConformanceError(f"{spec.id}: {players} players were accepted")
    wrong: tuple[object, ...] = ("3", float(spec.min_players), None, True)
    for count in wrong:  # no whole number: refused as such
        try:
            game.new_game(count, None, 0)  # type: ignore[arg-type]
        except InvalidOptionError:
            pass
        except Exception as exc:
            raise ConformanceError(
                f"{spec.id}: {count!r} players raised {type(exc).__name__}: {exc}"
            ) from exc
        else:
            raise ConformanceError(f"{spec.id}: {count!r} players were accepted")
    try:
        game.new_game(spec.min_players, {"no such option": 1}, 0)
    except GameError:
        pass
    else:
        raise ConformanceError(f"{spec.id}: an unknown option was accepted")
    check_bad_seats(game)


def check_bad_seats(game: AnyGame) -> None:
    """What is no seat of the game (-1, the player count, 99) gets a view, views, legal actions or a
    sampled world of none: each raises NotYourTurnError (seat -1 must never read the last seat's hand)."""
    spec = game.spec
    state = game.new_game(spec.min_players, None, 0)
    asks: dict[str, Callable[[int], object]] = {
        "view": lambda seat: game.view(state, seat),
        "views": lambda seat: game.views(state, [None, 0, seat]),
        "bare_views": lambda seat: game.bare_views(state, [seat]),
        "legal_actions": lambda seat: game.legal_actions(state, seat),
        "sample_world": lambda seat: game.sample_world(state, seat, random.Random(0)),
    }
    for seat in (-1, spec.min_players, 99):
        for name, ask in asks.items():
            try:
                ask(seat)
            except NotYourTurnError:
                continue
            except Exception as exc:
                raise ConformanceError(
                    f"{spec.id}: {name} of seat {seat} raised {type(exc).__name__}"
                ) from exc
            raise ConformanceError(f"{spec.id}: {name} of seat {seat} answered (it is no seat)")


@dataclass
class TerminalReport:
    decisions: int = 0
    """Actions applied in the game (every seat's)."""
    reads: int = 0
    """Lines the scripted person typed (moves, passes, ``?``, ``help``, mistakes)."""
    facts_checked: int = 0
    """(printed text, hidden fact) pairs checked: zero means nothing was hidden from the seat."""
    transcript: list[str] = field(default_factory=list)
    """Everything the terminal printed to the seat, as plain text."""


def check_terminal(
    game: AnyGame,
    players: int,
    seed: int,
    seat: Seat,
    options: dict[str, Any] | None = None,
    bots: Sequence[str] = ("random",),
    *,
    pass_rate: float = 0.85,
) -> TerminalReport:
    """Play one game through the terminal driver (:func:`coven.core.driver.play_terminal`): ``seat`` is
    typed by a scripted random chooser (legal moves in notation, passes, ``?``, ``help``, stale and
    malformed moves), the other seats by ``bots`` (one name for all, or one per other seat).

    Every text the terminal prints is checked, as plain text, against ``game.hidden_facts(state, seat)``
    of the state at the moment it is printed, leaving out the facts that the seat's own picture
    (``game.render`` of its view) shows anyway; the first hidden fact found raises ConformanceError.
    """
    from rich.text import Text

    where = f"{game.spec.id} players={players} seed={seed} seat={seat} (terminal)"
    state = game.new_game(players, options, seed)
    bounds = game.bounds(players, game.options(state))
    rng = random.Random(f"terminal/{game.spec.id}/{players}/{seed}/{seat}")
    others = [s for s in range(players) if s != seat]
    names = list(bots) * len(others) if len(bots) == 1 else list(bots)
    if len(names) != len(others):
        raise ValueError(f"give one bot for all or one for each of the {len(others)} other seats")
    factories = game.bots()
    actors = {s: factories[name](game, s, rng.getrandbits(62)) for s, name in zip(others, names, strict=True)}
    report = TerminalReport()
    typed: list[str] = []
    notation_errors: set[str] = set()
    """What parse_action said of the lines typed: a function of the text alone, so it hides nothing
    (its examples may name a card that happens to be hidden)."""

    def plain(markup: str) -> str:
        return Text.from_markup(markup).plain

    def write(text: str) -> None:
        shown = plain(text)
        report.transcript.append(shown)
        hidden = game.hidden_facts(state, seat)
        if not hidden or shown in notation_errors:
            return
        own = plain(game.render(game.view(state, seat)))
        for fact in hidden:
            if fact in own:
                continue
            report.facts_checked += 1
            if fact in shown:
                raise _fail(
                    where, f"seat {seat} was shown {fact!r}, hidden from it at that moment, in {shown!r}"
                )

    def read(prompt: str) -> str:
        text = choose()
        try:
            game.parse_action(text)
        except GameError as exc:
            notation_errors.add(str(exc))
        return text

    def choose() -> str:
        report.reads += 1
        if report.reads > 20 * bounds.max_decisions + 100:
            raise _fail(where, "the terminal keeps asking without the game moving on")
        required = seat in game.to_act(state)
        legal = game.legal_actions(state, seat)
        roll = rng.random()
        if roll < 0.02:
            return "?"
        if roll < 0.03:
            return "help"
        if roll < 0.04:
            return "no such move"
        if roll < 0.07 and typed:
            return typed[rng.randrange(len(typed))]  # an old move: legal again or refused
        if not required and rng.random() < pass_rate:
            return ""
        text = game.format_action(legal[rng.randrange(len(legal))])
        typed.append(text)
        return text

    driver = play_terminal(game, state, seat, actors, read, write)
    report.decisions = len(driver.moves)
    if not game.is_over(state):
        raise _fail(where, "the terminal game ended before the game did")
    if not report.transcript:
        raise _fail(where, "the terminal printed nothing")
    record = Record(game.spec.id, players, dict(game.options(state)), seed, (), driver.record_moves())
    final: Any = None
    for step in replay_steps(game, record):
        final = step.state
    if all_views(game, final) != all_views(game, state):
        raise _fail(where, "the terminal game's moves do not replay to its final position")
    return report
