"""One turn driver: who acts next, asking each actor, applying the answer, telling each seat.

Every front end (the arena, the terminal, tests) plays a game through :class:`Driver`, so they all
order the same decisions the same way:

1. Seats that may act without having to (:meth:`Game.may_act`, e.g. Amulets' casts out of turn) are
   offered the chance first, one at a time, clockwise from the seat after the last mover (before any
   move, from seat 0). The first one that acts ends the round of offers: its action is applied and the
   order is worked out again. An actor lets the chance pass by answering ``None``.
2. When nobody takes the chance, the lowest seat of :meth:`Game.to_act` must act. Simultaneous
   decisions (Namaste's) are so taken in seat order; what each decided stays hidden as far as the game's
   events say.

An *actor* is anything with the bot interface (:class:`coven.core.bot.Bot`): a bot, a person at a
terminal (:class:`TerminalSeat`), a recorded log (:class:`RecordedLog`). It receives its seat's view and
legal actions only. Answers go through the checked path (:meth:`Game.apply`). An actor that has a
``refused(error)`` method is a person: a refused answer is reported to it and it is asked again, the
state unchanged. Any other actor whose answer is refused (or who passes on a required decision) raises
:class:`BotError`.

An *observer* of a seat (:class:`Observer`) is told, after every applied action, that seat's view and
the events visible to that seat, plus the action itself only when that seat took it: whatever a front
end shows a seat comes from there, never from another seat's action.

:func:`play_terminal` is the terminal game loop of ``coven play`` on top of it, with the input and the
output injected (a line reader and a sink of Rich console markup), so it is tested like any function.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from coven.core.bot import Bot
from coven.core.errors import CovenError, IllegalActionError
from coven.core.events import Event
from coven.core.explain import Explanation, Message, Moment, fill, translate
from coven.core.game import AnyGame
from coven.core.lang import explanation_catalogue, pick_lang, translations
from coven.core.record import Move
from coven.core.refusals import CORE
from coven.core.types import Seat

Actor = Bot
"""Whoever decides for a seat: a bot, a person, a recorded log (the bot interface)."""

Read = Callable[[str], str]
"""Shows a prompt (Rich markup) and returns the line typed; raises EOFError when input ends."""
Write = Callable[[str], None]
"""Shows one block of text written in Rich console markup."""
Translate = Callable[[str], str]
"""The terminal's fixed texts in the chosen language (:mod:`coven.core.lang`); identity for English."""


def _same(text: str) -> str:
    return text


class BotError(CovenError):
    """An actor that is not a person answered with something the rules refuse, or not at all."""

    code = "bot_error"


class Quit(Exception):  # noqa: N818 - a request, not an error
    """The person at the terminal asked to leave the game."""

    driver: Driver | None = None
    """The game left (its moves so far: :meth:`Driver.record_moves`), where :func:`play_terminal` ran it."""


class InputEnded(EOFError):  # noqa: N818 - an end of input, as EOFError is
    """The terminal's input ended before the game did (a pipe ran dry); an ``EOFError``."""

    driver: Driver | None = None
    """The game left, as :attr:`Quit.driver`."""


class Observer(Protocol):
    def observe(self, view: Any, events: Sequence[Event], action: Hashable | None) -> None:
        """After an action: the seat's view, the events it may see, and the action if it was its own."""


def offer_order(may_act: Iterable[Seat], last: Seat, players: int) -> list[Seat]:
    """The optional actors in the order they are offered the chance: clockwise from after ``last``."""
    return sorted(may_act, key=lambda s: (s - last - 1) % players)


def decisions(game: AnyGame, state: Any, last: Seat) -> list[tuple[Seat, bool]]:
    """The decisions open in ``state``, in the one order every front end follows: ``(seat, required)``
    for each optional actor, clockwise from after ``last`` (the seat that moved last), then the seats
    the game waits for, lowest first. The arena and the terminal ask them in this order through
    :class:`Driver`; the server offers its bots their decisions in it (people act when they like); the
    research adapters (:mod:`coven.rl`, :mod:`coven.spiel`) make it their sequence of turns, an
    optional actor's pass being an action of its own."""
    players = game.num_players(state)
    optional = [(seat, False) for seat in offer_order(game.may_act(state), last, players)]
    return optional + [(seat, True) for seat in sorted(game.to_act(state))]


class Driver:
    """Plays one game: asks the actors in the fixed order and applies their answers.

    ``moves`` and ``events`` hold everything applied (all events: the driver itself is trusted);
    observers only ever get their seat's share.
    """

    def __init__(
        self,
        game: AnyGame,
        state: Any,
        actors: Mapping[Seat, Actor],
        observers: Mapping[Seat | None, Observer] | None = None,
    ) -> None:
        self.game = game
        self.state = state
        self.actors = actors
        self.observers = dict(observers or {})
        self.players = game.num_players(state)
        self.max_decisions = game.bounds(self.players, game.options(state)).max_decisions
        self.moves: list[tuple[Seat, Hashable]] = []
        self.events: list[Event] = []
        self.last: Seat = self.players - 1
        """The seat that moved last (before any move: the seat before seat 0)."""

    def record_moves(self) -> tuple[Move, ...]:
        """The applied actions in notation, as a record keeps them."""
        return tuple(Move(seat, self.game.format_action(action)) for seat, action in self.moves)

    def run(self) -> None:
        """Play until the game is over."""
        while self.step():
            pass

    def step(self) -> bool:
        """Apply the next action (after offering the optional actors their chance); False once over."""
        game, state = self.game, self.state
        if game.is_over(state):
            return False
        if len(self.moves) > self.max_decisions:
            raise BotError(f"{game.spec.id}: more than {self.max_decisions} decisions")
        for seat, required in decisions(game, state, self.last):
            if self._decide(seat, required) or required:
                return True
        raise BotError(f"{game.spec.id}: the game is not over but nobody has to act")

    def _decide(self, seat: Seat, required: bool) -> bool:
        """Ask ``seat``; apply its answer. False if it let an optional chance pass."""
        game, state = self.game, self.state
        actor = self.actors[seat]
        refused: Callable[[CovenError], None] | None = getattr(actor, "refused", None)
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        while True:
            action = actor.act(view, legal, required)
            if action is None:
                if not required:
                    return False
                if refused is None:
                    raise BotError(f"the bot at seat {seat} passed on a required decision")
                refused(IllegalActionError(CORE("refusal.core.must_act")))
                continue
            try:
                events = game.apply(state, seat, action, legal)  # a legal one as given: no form check
            except CovenError as exc:
                if refused is None:
                    if isinstance(exc, IllegalActionError):
                        raise BotError(f"the bot at seat {seat} chose {action!r}: {exc}") from exc
                    raise
                refused(exc)
                continue
            break
        self.moves.append((seat, action))
        self.events.extend(events)
        self.last = seat
        for watcher, observer in self.observers.items():
            visible = [e for e in events if e.visible_to(watcher)]
            observer.observe(game.view(state, watcher), visible, action if watcher == seat else None)
        return True


class RecordedLog:
    """Moves recorded earlier (by this driver), played back: one cursor shared by every seat's actor.

    ``actor(seat)`` answers for ``seat``: the next recorded move when it is that seat's, a pass on an
    optional decision otherwise. A required decision whose next recorded move belongs to another seat
    means the log was not made in this driver's order: it raises :class:`BotError`.
    """

    def __init__(self, game: AnyGame, moves: Sequence[Move]) -> None:
        self.game = game
        self.moves = moves
        self.cursor = 0

    def actor(self, seat: Seat) -> Actor:
        return _LogSeat(self, seat)

    def take(self, seat: Seat, required: bool) -> Hashable | None:
        if self.cursor < len(self.moves) and self.moves[self.cursor].seat == seat:
            move = self.moves[self.cursor]
            self.cursor += 1
            action: Hashable = self.game.parse_action(move.action)
            return action
        if not required:
            return None
        due = self.moves[self.cursor].seat if self.cursor < len(self.moves) else None
        raise BotError(f"the log has no move of seat {seat} here (next: seat {due}, move {self.cursor})")


class _LogSeat:
    def __init__(self, log: RecordedLog, seat: Seat) -> None:
        self.log = log
        self.seat = seat

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        return self.log.take(self.seat, required)


# ------------------------------------------------------------------------------------------ terminal
_MARKUP = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def escape(text: str) -> str:
    """``text`` shown literally in Rich console markup (as ``rich.markup.escape``)."""

    def replace(match: re.Match[str]) -> str:
        backslashes, tag = match.groups()
        return f"{backslashes}{backslashes}\\{tag}"

    text = _MARKUP.sub(replace, text)
    return text + "\\" if text.endswith("\\") and not text.endswith("\\\\") else text


def seat_lines(
    game: AnyGame, seat: Seat, events: Iterable[Event], own: str | None = None, tr: Translate = _same
) -> list[str]:
    """What ``seat`` is told of one action (Rich markup): its own notation when it took the action
    (``own``), then every event visible to it, in words (:meth:`Game.describe_event`)."""
    lines = (
        [] if own is None else [tr("[bold green]you[/] play [bold]{action}[/]").format(action=escape(own))]
    )
    for event in events:
        if event.visible_to(seat):
            lines.append(f"[dim]·[/] {escape(game.describe_event(event, seat))}")
    return lines


HELP = "Type a move in notation, '?' for the legal moves, 'help' for this text, 'quit' to leave."


def refusal_text(
    error: CovenError, refusals: Mapping[str, str], lang: str | None, tr: Translate = _same
) -> str:
    """Why ``error`` refuses, for the terminal: in the language of ``refusals`` (the refusals' templates by
    key) where the rules gave a reason (:attr:`GameError.reason`) it holds, else the rules' English. A
    seat, a number to the rules, is named as the terminal names it (``tr("seat {n}")``)."""
    reason = getattr(error, "reason", None)
    if not isinstance(reason, Message) or not refusals:
        return str(error)
    if "seat" in reason.params:
        named = tr("seat {n}").format(n=reason.params["seat"])
        reason = Message(str(reason), reason.key, {**reason.params, "seat": named})
    return translate(reason, refusals, pick_lang(lang))


class TerminalSeat:
    """A person at a terminal: the actor of one seat and the observer of that seat.

    It shows the seat's view (:meth:`Game.render`) before asking, reads a line, and answers with the
    parsed action; ``?`` lists the legal actions, ``help`` repeats the help, ``quit`` raises
    :class:`Quit`, an empty line lets an optional chance pass. Everything it writes comes from its own
    seat's view, its own seat's events and its own actions.
    """

    def __init__(
        self,
        game: AnyGame,
        seat: Seat,
        read: Read,
        write: Write,
        legal_limit: int = 60,
        tr: Translate = _same,
        refusals: Mapping[str, str] | None = None,
        lang: str | None = None,
    ) -> None:
        self.tr = tr
        self.refusals: Mapping[str, str] = refusals or {}
        """The refusals' templates in the person's language by key (none: English, as the rules say)."""
        self.lang = lang
        self.game = game
        self.seat = seat
        self.read = read
        self.write = write
        self.legal_limit = legal_limit
        self._fresh = True
        """Something happened since the view was last shown."""

    def observe(self, view: Any, events: Sequence[Event], action: Hashable | None) -> None:
        own = None if action is None else self.game.format_action(action)
        for line in seat_lines(self.game, self.seat, events, own, self.tr):
            self.write(line)
        self._fresh = True

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        game = self.game
        while True:
            if self._fresh:
                self.write(game.render(view))
                self._fresh = False
            prompt = self.tr("your move") if required else self.tr("you may act (Enter to pass)")
            text = self.read(f"[bold green]{prompt}>[/] ").strip()
            if text.lower() in {"quit", "exit"}:
                raise Quit
            if text.lower() in {"help", "h"}:
                self.write(self.tr(HELP))
                continue
            if text in {"?", "moves"}:
                self._show_legal(legal)
                continue
            if not text:
                if required:
                    continue
                return None
            try:
                action: Hashable = game.parse_action(text)
            except CovenError as exc:
                self.refused(exc)
                continue
            return action

    def refused(self, error: CovenError) -> None:
        """Say why ``error`` refused the answer (:func:`refusal_text`)."""
        self.write(f"[red]{escape(refusal_text(error, self.refusals, self.lang, self.tr))}[/]")

    def _show_legal(self, legal: Sequence[Hashable]) -> None:
        shown = [escape(self.game.format_action(legal[i])) for i in range(min(len(legal), self.legal_limit))]
        more = (
            self.tr("  … and {n} more").format(n=len(legal) - self.legal_limit)
            if len(legal) > self.legal_limit
            else ""
        )
        self.write(f"[bold]{self.tr('legal:')}[/] " + "  ".join(shown) + more)


def play_terminal(
    game: AnyGame,
    state: Any,
    seat: Seat,
    bots: Mapping[Seat, Actor],
    read: Read,
    write: Write,
    names: Mapping[Seat, str] | None = None,
    lang: str | None = None,
    refusals: Mapping[str, str] | None = None,
) -> Driver:
    """The terminal game: a person at ``seat``, ``bots`` in the other seats, until the game is over.

    Prints (through ``write``) only what ``seat`` may know, then the final position and the scores.
    Raises :class:`Quit` when the person leaves and :class:`InputEnded` (an EOFError) when the input ends,
    each with the game left as its ``driver``. ``lang`` (``fr``)
    translates the prompts and fixed lines, and with ``refusals`` (the refusals' templates in that
    language, by key: :mod:`coven.core.refusals`) why a move is refused; the game's own renders and event
    texts stay English.
    """
    tr = translations(lang).gettext
    person = TerminalSeat(game, seat, read, write, tr=tr, refusals=refusals, lang=lang)
    driver = Driver(game, state, {**bots, seat: person})
    moments = _MomentTee(person, driver)
    driver.observers[seat] = moments
    write(tr(HELP))
    try:
        driver.run()
    except Quit as left:
        left.driver = driver
        raise
    except EOFError as exc:
        ended = InputEnded(*exc.args)
        ended.driver = driver
        raise ended from exc
    view = game.view(state, seat)
    write(game.render(view))
    winners = game.winners(state)
    labels = names or {}

    def who(s: int) -> str:
        return (
            tr("you")
            if s == seat
            else tr("seat {n}").format(n=s) + (f" ({escape(labels[s])})" if s in labels else "")
        )

    for s, value in enumerate(game.scores(state)):
        crown = f" [bold yellow]{tr('wins')}[/]" if s in winners else ""
        write(f"{who(s)}: {value:g}{crown}")
    explained = game.explain(view, moments.seen)
    if explained is not None:
        for line in explanation_lines(explained, who, tr, lang):
            write(line)
    return driver


class _MomentTee:
    """The person's observer, keeping the moments it saw (numbered by step) for the explanation."""

    def __init__(self, inner: Observer, driver: Driver) -> None:
        self.inner = inner
        self.driver = driver
        self.seen: list[Moment] = []

    def observe(self, view: Any, events: Sequence[Event], action: Hashable | None) -> None:
        step = len(self.driver.moves)
        self.seen.extend((step, e) for e in events)
        self.inner.observe(view, events, action)


def explanation_lines(
    explained: Explanation, who: Callable[[int], str], tr: Translate = _same, lang: str | None = None
) -> list[str]:
    """The end-of-game explanation in Rich markup: per seat its score, then each line's points, label
    and the steps where it happened (step k: right after the game's k-th move, as in the browser's
    replay). ``lang`` (``fr``) translates the texts by their message keys."""
    code = pick_lang(lang)
    catalogue = explanation_catalogue(code)

    def text(raw: str) -> str:
        filled = fill(escape(translate(raw, catalogue, code)), who).replace("you wins", "you win")
        return filled[:1].upper() + filled[1:]

    out = ["", f"[bold]{tr('Why these scores')}[/]"]
    for s in explained.seats:
        out.append(f"[bold]{who(s.seat)}[/]: {s.score:g}")
        for line in s.lines:
            sign = f"{line.points:+g}" if line.points else " 0"
            at = ""
            if line.steps:
                shown = ", ".join(str(st) for st in line.steps[:6]) + (" …" if len(line.steps) > 6 else "")
                steps = tr("steps {steps}" if len(line.steps) > 1 else "step {steps}").format(steps=shown)
                at = f" [dim]({steps})[/]"
            out.append(f"  {sign:>4}  {text(line.message)}{at}")
        out.extend(f"        [dim]{text(note)}[/]" for note in s.notes)
    out.extend(f"[dim]{text(note)}[/]" for note in explained.notes)
    out.append(text(explained.summary))
    return out
