"""Amulets (Jörg Hansen, Warpspawn): the state, the setup, the legal actions and applying them.

Rulebook 004 with the project's rulings (the Amulets section of rules/README.md stands over it):

- Setup: each wizard secretly draws one field (A1-E5) and one amulet (Red, Yellow, Green, Blue, Black),
  all different; with fewer than five wizards the undrawn amulets belong to nobody, unrevealed.
- Turn: the asker must ask or cast. A question (``ask``) places all five amulets on distinct fields;
  every other wizard answers, eliminated ones included, clockwise from the asker's left, and the
  engine computes each answer from the secret (``*`` > ``o`` > ``+`` > ``-``, the first true one). The
  question is atomic: no cast can come between its answers. All answers are public.
- Casting (``cast``): the rulebook has the caster put "the assumed player amulets on their assumed
  homes and all the assumed non-player amulets at random altar fields", and each spirit checks only
  "his personal amulet stands on his personal field". So a cast is, like a question, a placement of
  all five amulets on distinct fields (the caster chooses where the amulets he thinks nobody holds go,
  which lets him hedge between two candidates that differ in an unowned amulet). The other wizards,
  eliminated ones included, check clockwise from the caster's left; the first "No" stops the check.
  The placement and the answers given are public. All "Yes": the caster wins and the game ends.
- Who may act: the asker is in ``to_act``; every other wizard still in is in ``may_act`` (may cast,
  need not). A wizard whose cast failed never asks or casts again but keeps answering; if the failed
  caster was the asker, the turn passes to the next wizard still in, otherwise play resumes where it
  was interrupted. If every wizard has failed, the game ends and nobody wins.

Choices where rulebook and rulings are silent:

- Seat 0 is the start wizard ("the wizards choose a start wizard"); the arena rotates chairs.
- The start position of the amulets on the altar is cosmetic and not modelled.
- ``question_cap`` (table option, 0 = off): once that many questions have been asked in total, the
  asker must cast. With the cap off the engine still stops questions after ``HARD_QUESTION_LIMIT``
  (60, far beyond any real game) so every game has a finite length.
- ``assistant`` (table option, off by default): when on, the view (:mod:`.view`) carries what the
  deduction engine says is still possible for every other wizard, and the terminal shows it. The view
  itself always carries the whole public record, from which :mod:`coven.games.amulets.deduction`
  computes the same.
- Scores: 1 for the winner, 0 for everyone else; nobody scores when every wizard failed.

The package's other modules: the altar's encoding in :mod:`.board`, actions and positions as text in
:mod:`.notation`, what a wizard sees in :mod:`.view`, sampled worlds in :mod:`.worlds` (by the exact
deduction engine of :mod:`.deduction`); bots, the terminal's text, explanations and metrics are handed
to the rules by the package's ``__init__`` (:class:`coven.core.Parts`).

The hot path (``to_act``, ``legal_actions``, ``apply_unchecked``, ``clone``) reads tables built at import
and copies a few lists (a clone shares the deal's :class:`~coven.core.chance.Chance`: nothing draws from
it after the deal). The spell book is kept as plain tuples (``record``) with the answers (a question's, a
cast's checks) left unwritten: they follow from the secrets and the placement, and the rules only need to
know whether a cast succeeded, so ``lines`` writes them when someone reads the book, once per line and
state (``written`` keeps them; its :class:`Entry` values are made when read: ``book``, the view). The
rules of a question or a cast are in ``advance`` (playouts call it: it makes no event);
``apply_unchecked`` reads its events off what ``advance`` did.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, overload

from coven.core import (
    Bounds,
    Event,
    FixedActions,
    Game,
    GameError,
    GameSpec,
    NotationError,
    Option,
    Options,
    Parts,
    Seat,
    check_seat,
    check_seed,
    checked_seats,
)
from coven.core.chance import Chance
from coven.core.codec import through_notation
from coven.core.refusals import CORE
from coven.core.texts import Texts
from coven.games.amulets import notation
from coven.games.amulets.board import (
    AMULETS,
    FIELDS,
    LINE,
    NO,
    NOTATION_REFUSALS,
    PLACEMENT_COUNT,
    PLACEMENT_HEADS,
    PLACEMENT_REFUSALS,
    PLACEMENT_TAIL_COUNT,
    PLACEMENT_TAILS,
    SILENT,
    YES,
    placement_index,
    placement_problem,
)
from coven.games.amulets.notation import Action, Ask, Cast
from coven.games.amulets.view import (
    AmuletsView,
    Entry,
    Line,
    entry_of,
    line_event,
    view_of,
    views_of,
    with_assistant,
)

REFUSALS: Final = (
    CORE
    | PLACEMENT_REFUSALS
    | NOTATION_REFUSALS
    | Texts(
        {
            "refusal.amulets.out": "a wizard whose cast failed may no longer ask or cast",
            "refusal.amulets.not_asker": "only the asker (seat {seat}) may ask now; you may cast",
            "refusal.amulets.cap_reached": "the question cap ({cap}) is reached: cast",
        }
    )
)
"""Why the rules refuse an action (:mod:`coven.core.refusals`), and why a move's notation cannot be read
(:data:`~coven.games.amulets.board.NOTATION_REFUSALS`)."""

HARD_QUESTION_LIMIT = 60


@dataclass(slots=True, init=False)
class AmuletsState:
    players: int
    options: Options
    fields: tuple[int, ...]
    """Each wizard's secret field (fixed by the deal: clones share it)."""
    amulets: tuple[int, ...]
    """Each wizard's secret amulet (fixed by the deal: clones share it)."""
    turn: int
    """The asker: the wizard whose turn it is."""
    out: list[bool]
    """Wizards whose cast failed."""
    winner: int
    """The successful caster, or -1."""
    over: bool
    record: list[Line]
    """The spell book as the rules write it: plain tuples ``(kind, seat, fields, answers)`` whose answers
    (a question's, a cast's checks) are left unwritten (``""``) until read (:attr:`lines` writes them)."""
    questions: int
    chance: Chance
    """The deal's chance source. Amulets draws nothing after the deal, so a clone shares it."""
    limit: int
    """Questions asked in total after which the askers must cast (from ``options``)."""
    written: list[Line] | None = field(default=None, compare=False, repr=False)
    """The first lines of ``record`` with their answers written, as :attr:`lines` last read them (the
    record only grows, so each line is answered once; a clone starts with a copy of its original's)."""

    def __init__(
        self,
        players: int,
        options: Options,
        fields: tuple[int, ...],
        amulets: tuple[int, ...],
        turn: int,
        out: list[bool],
        winner: int,
        over: bool,
        record: list[Line],
        questions: int,
        chance: Chance,
        limit: int,
        written: list[Line] | None = None,
    ) -> None:
        # the dataclass's own __init__, written out: compiled (see setup.py), this one is native, where
        # the generated one would be interpreted (a state is made on every playout and every clone)
        self.players = players
        self.options = options
        self.fields = fields
        self.amulets = amulets
        self.turn = turn
        self.out = out
        self.winner = winner
        self.over = over
        self.record = record
        self.questions = questions
        self.chance = chance
        self.limit = limit
        self.written = written

    @property
    def lines(self) -> list[Line]:
        """The spell book as plain tuples ``(kind, seat, fields, answers)``, every line answered (the
        answers are written here, when the book is read: the rules' record keeps none of them)."""
        written = self.written
        if written is None:
            written = self.written = []
        record = self.record
        if len(written) < len(record):
            answered = self.answered
            written.extend(line if line[3] else answered(line) for line in record[len(written) :])
        return written[:]

    def answered(self, line: Line) -> Line:
        """A line of the record with its answers written (the rules leave them out: see ``advance``)."""
        kind, seat, placed, answers = line
        if answers:
            return line
        said = question_answers if kind == "ask" else cast_checks
        return (kind, seat, placed, said(self.fields, self.amulets, seat, placed))

    @property
    def book(self) -> list[Entry]:
        """The spell book: one :class:`Entry` per line, made when read."""
        return list(map(entry_of, self.lines))


def question_answers(
    homes: Sequence[int], amulets: Sequence[int], asker: Seat, placed: tuple[int, ...]
) -> str:
    """The answers to the question ``placed`` asked by ``asker``: every other wizard's spirit answers from
    its home and amulet (``* o + -``), ``.`` for the asker."""
    marks = [SILENT] * len(homes)
    for s in _ORDER[len(homes)][asker]:
        home = homes[s]
        marks[s] = _ANSWER[home in placed][placed[amulets[s]]][home]
    return "".join(marks)


def cast_checks(homes: Sequence[int], amulets: Sequence[int], caster: Seat, placed: tuple[int, ...]) -> str:
    """The checks of the cast ``placed`` by ``caster``: the other wizards' spirits, clockwise from the
    caster's left, say ``y`` if their amulet stands on their home and ``n`` if not, up to the first ``n``;
    ``.`` for the caster and the spirits not reached."""
    marks = [SILENT] * len(homes)
    for s in _ORDER[len(homes)][caster]:
        if placed[amulets[s]] == homes[s]:
            marks[s] = YES
        else:
            marks[s] = NO
            break
    return "".join(marks)


def question_limit(options: Mapping[str, object]) -> int:
    cap = options.get("question_cap", 0)
    return int(cap) if isinstance(cap, int) and cap > 0 else HARD_QUESTION_LIMIT


# Actions made on the hot path (one per decision of a playout) have their slot filled directly, without
# the frozen dataclass's ``__init__``; the tests check they equal ``Ask(fields)`` and ``Cast(fields)``.
_new = object.__new__
_set_ask = vars(Ask)["fields"].__set__
_set_cast = vars(Cast)["fields"].__set__
_Head = tuple[int, int, tuple[int, ...], type[Action], Callable[[Action, tuple[int, ...]], None]]
_ASK_HEADS: tuple[_Head, ...] = tuple((r, y, free, Ask, _set_ask) for r, y, free in PLACEMENT_HEADS)
_CAST_HEADS: tuple[_Head, ...] = tuple((r, y, free, Cast, _set_cast) for r, y, free in PLACEMENT_HEADS)
""":data:`PLACEMENT_HEADS` as questions and as casts: each with its action's class and the setter of its
``fields``."""


class Moves(FixedActions[Action]):
    """The legal actions of a seat, lazily: every placement as a question and/or as a cast.

    Indexing decodes a placement (no list of 6.4 million actions is ever built); membership is a
    structural check.
    """

    __slots__ = ("_ask", "_cast", "_heads", "_len")

    def __init__(self, ask: bool, cast: bool) -> None:
        self._ask = ask
        self._cast = cast
        self._heads = (_ASK_HEADS if ask else ()) + (_CAST_HEADS if cast else ())
        """The questions' heads, then the casts': index ``i`` is head ``i // PLACEMENT_TAIL_COUNT``."""
        self._len = len(self._heads) * PLACEMENT_TAIL_COUNT

    def __reduce__(self) -> tuple[type[Moves], tuple[bool, bool]]:
        # made again from what it is made of (a bot worker receives a seat's legal actions pickled);
        # compiled, the class's constructor runs __init__, so the default reduction (a bare new object,
        # then its slots) is refused
        return (Moves, (self._ask, self._cast))

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        # placement_at, inlined: the playouts' hot path. The tables check the index: past the end (or
        # before -len) the head's lookup raises IndexError, and a negative index counts from the end as
        # the floor division and the remainder make it.
        try:
            r, y, free, kind, fill = self._heads[index // PLACEMENT_TAIL_COUNT]  # type: ignore[operator]
            g, b, k = PLACEMENT_TAILS[index % PLACEMENT_TAIL_COUNT]  # type: ignore[operator]
        except TypeError:
            if isinstance(index, slice):
                return list(map(self.__getitem__, range(*index.indices(self._len))))
            return self[operator.index(index)]
        action: Action = _new(kind)
        fill(action, (r, y, free[g], free[b], free[k]))
        return action

    def __contains__(self, action: object) -> bool:
        if isinstance(action, Ask):
            return self._ask and placement_problem(action.fields) is None
        if isinstance(action, Cast):
            return self._cast and placement_problem(action.fields) is None
        return False

    def __iter__(self) -> Iterator[Action]:
        for i in range(self._len):
            yield self[i]

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        if value not in self or not isinstance(value, Ask | Cast):
            raise ValueError(value)
        i = placement_index(value.fields)
        return i if isinstance(value, Ask) or not self._ask else PLACEMENT_COUNT + i

    def __repr__(self) -> str:
        kinds = [k for k, on in (("ask", self._ask), ("cast", self._cast)) if on]
        return f"Moves({'+'.join(kinds)}: {self._len})"


ASK_OR_CAST = Moves(ask=True, cast=True)
CAST_ONLY = Moves(ask=False, cast=True)

_NOBODY: frozenset[Seat] = frozenset()
_ALONE = tuple(frozenset((s,)) for s in range(5))
"""``frozenset((seat,))`` by seat: who acts on an ordinary turn."""
_ORDER = tuple(tuple(tuple((seat + i) % n for i in range(1, n)) for seat in range(n)) for n in range(6))
"""``_ORDER[players][seat]``: the other wizards clockwise from ``seat``'s left (who answers or checks)."""
_ANSWER = tuple(
    tuple(
        tuple(
            "*" if mine == home else "o" if taken else "+" if LINE[home] >> mine & 1 else "-"
            for home in range(FIELDS)
        )
        for mine in range(FIELDS)
    )
    for taken in (False, True)
)
"""``_ANSWER[taken][mine][home]``: a spirit's answer when its amulet stands on ``mine`` and some amulet
stands on its ``home`` (``taken``) or none does: ``*`` > ``o`` > ``+`` > ``-``, the first true one."""
_AMULET_ORDERS = tuple(itertools.permutations(range(AMULETS)))
_AMULET_PREFIXES = tuple(tuple(order[:players] for order in _AMULET_ORDERS) for players in range(AMULETS + 1))
"""``_AMULET_PREFIXES[players][order]``: the amulets the wizards draw in that order of the five."""
_DEALS = PLACEMENT_COUNT * len(_AMULET_ORDERS)
"""Deals as one draw: a placement of the five amulets (its fields) times an order of the amulets."""
_TURN = tuple(Event("turn", {"seat": s}) for s in range(5))
_WIN = tuple(Event("win", {"seat": s}) for s in range(5))
_ALL_FAILED = Event("all_failed", {})
"""The events that only name a seat, built once (events are frozen values, shared like actions)."""


class AmuletsGame(Game[AmuletsState, Action, AmuletsView]):
    spec = GameSpec(
        id="amulets",
        title="Amulets",
        summary="Place the five amulets, read the spirits' answers, and cast the freeing spell first.",
        min_players=3,
        max_players=5,
        options=(
            Option(
                "question_cap",
                0,
                "questions asked in total before the askers must cast (0 = no cap)",
                minimum=0,
                maximum=HARD_QUESTION_LIMIT,
            ),
            Option("assistant", False, "show what the deduction engine says is still possible"),
        ),
        hidden_information=True,
        optional_actors=True,
        simultaneous=False,
        rules_file="rules.md",
    )
    action_classes = (Ask, Cast)
    view_class = AmuletsView
    shared_view_members = ("book",)
    refusals = REFUSALS

    def __init__(self, parts: Parts[AmuletsState, AmuletsView] | None = None) -> None:
        super().__init__(parts)
        self._defaults: Options = self.spec.resolve_options(None)
        self._default_limit = question_limit(self._defaults)
        self._player_counts = range(self.spec.min_players, self.spec.max_players + 1)

    # ------------------------------------------------------------------ setup
    def new_game(
        self, players: object, options: Mapping[str, object] | None = None, seed: object = 0
    ) -> AmuletsState:
        # ``players`` and ``seed`` are ``object``: compiled (see setup.py), a method refuses an argument of
        # another type than it declares with a TypeError, and a count or a seed that is no whole number gets
        # an InvalidOptionError (a numpy integer seed is taken: check_seed)
        if options is None and type(players) is int and players in self._player_counts and type(seed) is int:
            # the default options, resolved once: playouts start many games. The states share that dict
            # as clones share their options (nothing changes a state's options)
            return self._shuffled(players, self._defaults, self._default_limit, seed)
        self.spec.check_players(players)  # as the base does first: what is no whole number is refused
        assert isinstance(players, int)
        return super().new_game(players, options, check_seed(seed))  # checks players and options

    def setup(self, players: int, options: Options, seed: int) -> AmuletsState:
        return self._shuffled(players, options, question_limit(options), seed)

    def _shuffled(self, players: int, options: Options, limit: int, seed: int) -> AmuletsState:
        """The deal: one draw picks a placement of the five amulets and an order of the five amulets
        uniformly; wizard ``s`` gets the ``s``-th field of the one and the ``s``-th amulet of the other
        (so fields and amulets are uniform and all different)."""
        chance = Chance(seed)
        where, order = divmod(chance.below(_DEALS), 120)
        r, y, free = PLACEMENT_HEADS[where // PLACEMENT_TAIL_COUNT]  # placement_at(where), inlined
        g, b, k = PLACEMENT_TAILS[where % PLACEMENT_TAIL_COUNT]
        return AmuletsState(
            players,
            options,
            (r, y, free[g], free[b], free[k])[:players],
            _AMULET_PREFIXES[players][order],
            0,
            [False] * players,
            -1,
            False,
            [],
            0,
            chance,
            limit,
        )

    @staticmethod
    def _deal(
        players: int,
        options: Options,
        fields: tuple[int, ...],
        amulets: tuple[int, ...],
        chance: Chance,
        limit: int,
    ) -> AmuletsState:
        """A state before the first question, with this deal."""
        return AmuletsState(
            players, options, fields, amulets, 0, [False] * players, -1, False, [], 0, chance, limit
        )

    def bounds(self, players: int, options: Options) -> Bounds:
        return Bounds(max_decisions=question_limit(options) + players, min_score=0.0, max_score=1.0)

    def num_players(self, state: AmuletsState) -> int:
        return state.players

    def options(self, state: AmuletsState) -> Options:
        return state.options

    def clone(self, state: AmuletsState) -> AmuletsState:
        return AmuletsState(
            state.players,
            state.options,
            state.fields,
            state.amulets,
            state.turn,
            state.out[:],
            state.winner,
            state.over,
            state.record[:],
            state.questions,
            state.chance,
            state.limit,
            # the book as far as it was answered: the clone's record begins with the same lines (a server
            # clones before each move and shows the new state to every seat: only the new line is answered)
            None if state.written is None else state.written[:],
        )

    # -------------------------------------------------------------- positions
    def write_position(self, state: AmuletsState) -> str:
        """The whole state as one line (the format: :mod:`coven.games.amulets.notation`)."""
        return notation.write_position(state)

    def read_position(self, text: object) -> AmuletsState:
        """The state a position text describes: the deal, then the spell book replayed through the rules
        (each line must be legal when it comes, and its answers, if written, those the secrets give)."""
        position = notation.read_position(text)
        players = len(position.fields)
        try:
            self.spec.check_players(players)
            options = self.spec.resolve_options(position.options)
            self.validate_options(players, options)
        except GameError as exc:
            raise NotationError(f"position: {exc}") from None
        fields, amulets = tuple(position.fields), tuple(position.amulets)
        state = self._deal(players, options, fields, amulets, position.chance, question_limit(options))
        for i, line in enumerate(position.book, 1):
            action: Action = Ask(line.fields) if line.kind == "ask" else Cast(line.fields)
            where = f"spell-book line {i} ({line.seat} {self.format_action(action)})"
            try:
                self.check(state, line.seat, action)
            except GameError as exc:
                raise NotationError(f"{where}: {exc}") from None
            self.apply_unchecked(state, line.seat, action)
            given = state.answered(state.record[-1])[3]
            if line.answers is not None and line.answers != given:
                raise NotationError(f"{where}: the secrets give the answers {given!r}, not {line.answers!r}")
        return state

    # ------------------------------------------------------------------ turns
    def to_act(self, state: AmuletsState) -> frozenset[Seat]:
        return _NOBODY if state.over else _ALONE[state.turn]

    def first_to_act(self, state: AmuletsState) -> Seat | None:
        return None if state.over else state.turn

    def may_act(self, state: AmuletsState) -> frozenset[Seat]:
        if state.over:
            return _NOBODY
        out, turn = state.out, state.turn
        return frozenset(s for s in range(state.players) if s != turn and not out[s])

    def can_ask(self, state: AmuletsState) -> bool:
        return state.questions < state.limit

    def legal_actions(self, state: AmuletsState, seat: Seat) -> Sequence[Action]:
        if not 0 <= seat < state.players:  # (compared here: the call only where it refuses)
            check_seat(seat, state.players, spectator=False)
        if seat == state.turn and not state.over:  # the asker (never out while the game goes on)
            return ASK_OR_CAST if state.questions < state.limit else CAST_ONLY
        if state.over or not 0 <= seat < state.players or state.out[seat]:
            return ()
        return CAST_ONLY

    def illegal_reason(self, state: AmuletsState, seat: Seat, action: Action) -> str | None:
        if state.out[seat]:
            return REFUSALS("refusal.amulets.out")
        problem = placement_problem(action.fields)
        if problem is not None:
            return problem
        if isinstance(action, Ask):
            if seat != state.turn:
                return REFUSALS("refusal.amulets.not_asker", seat=state.turn)
            if not self.can_ask(state):
                return REFUSALS("refusal.amulets.cap_reached", cap=state.limit)
        return None

    def apply_unchecked(self, state: AmuletsState, seat: Seat, action: Action) -> list[Event]:
        """:meth:`advance`, then its events read from what it did: the spell book's new line (a question
        or a cast), and who asks next (after a question or the asker's failed cast), who won, or that
        every wizard failed."""
        asker = state.turn
        self.advance(state, seat, action)
        event = line_event(state.answered(state.record[-1]))
        if state.over:
            return [event, _WIN[seat] if state.winner == seat else _ALL_FAILED]
        if seat == asker:  # a question, or the asker's failed cast: the turn passes
            return [event, _TURN[state.turn]]
        return [event]  # a failed cast out of turn: play resumes where it was

    def advance(self, state: AmuletsState, seat: Seat, action: Action) -> None:
        placed = action.fields
        order = _ORDER[state.players][seat]
        if type(action) is Ask:
            # every other wizard's spirit answers (question_answers), but nothing in the rules reads the
            # answers: the record leaves them unwritten, for the book's readers (AmuletsState.lines)
            state.record.append(("ask", seat, placed, ""))
            state.questions += 1
            out = state.out
            for s in order:  # the next wizard still in (the asker is still in)
                if not out[s]:
                    state.turn = s
                    return
            state.turn = seat
            return
        # the spirits check until the first "no" (cast_checks); the record leaves the checks unwritten too
        state.record.append(("cast", seat, placed, ""))
        homes, amulets = state.fields, state.amulets
        for s in order:
            if placed[amulets[s]] != homes[s]:
                break
        else:  # every spirit said yes
            state.winner = seat
            state.over = True
            return
        out = state.out
        out[seat] = True
        if seat != state.turn:
            if False in out:
                return
        else:
            for s in order:  # the failed asker's turn passes to the next wizard still in
                if not out[s]:
                    state.turn = s
                    return
        state.over = True  # every wizard has failed

    # ------------------------------------------------------------ information
    def view(self, state: AmuletsState, seat: Seat | None) -> AmuletsView:
        if seat is not None and not 0 <= seat < state.players:
            check_seat(seat, state.players)
        return view_of(state, seat)

    def views(self, state: AmuletsState, seats: Iterable[Seat | None]) -> dict[Seat | None, AmuletsView]:
        return views_of(state, checked_seats(seats, state.players))

    def derives_views(self, options: Options) -> bool:
        return bool(options.get("assistant"))

    def bare_views(self, state: AmuletsState, seats: Iterable[Seat | None]) -> dict[Seat | None, AmuletsView]:
        return views_of(state, checked_seats(seats, state.players), derived=False)

    def derive_view(self, view: AmuletsView) -> AmuletsView:
        return with_assistant(view)

    # ---------------------------------------------------------------- outcome
    def scores(self, state: AmuletsState) -> tuple[float, ...]:
        return tuple(1.0 if s == state.winner else 0.0 for s in range(state.players))

    def winners(self, state: AmuletsState) -> frozenset[Seat]:
        return frozenset((state.winner,)) if state.winner >= 0 else frozenset()

    # --------------------------------------------------------------- notation
    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def parse_action(self, text: object) -> Action:
        # ``object``, as the notation reads it: compiled (see setup.py), a method refuses an argument of
        # another type than it declares with a TypeError, and what is no text must get a NotationError
        return notation.parse_action(text)

    def action_from_json(self, raw: object) -> Action:
        """The action a JSON value describes, held to the notation (a field 99 is no field)."""
        return through_notation(super().action_from_json(raw), self.format_action, self.parse_action)


__all__ = [
    "ASK_OR_CAST",
    "CAST_ONLY",
    "HARD_QUESTION_LIMIT",
    "Action",
    "AmuletsGame",
    "AmuletsState",
    "AmuletsView",
    "Ask",
    "Cast",
    "Entry",
    "Moves",
    "question_limit",
]
