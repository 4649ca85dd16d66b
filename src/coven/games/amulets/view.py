"""What an Amulets wizard sees (rulebook 004): its own secret field and amulet, and the whole public
spell book (every placement and every answer). Every event of Amulets is public: the questions, their
answers, the casts and the spirits' checks are said aloud at the table.

With the table option ``assistant`` the view also carries what the exact deduction engine
(:mod:`coven.games.amulets.deduction`) concludes from it; that is derived from the view alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, cast

from coven.core import Event, Seat
from coven.core.events import slot_setters
from coven.core.native import mypyc_attr, native_dataclasses
from coven.games.amulets.board import FIELDS, Spoken, pair_of
from coven.games.amulets.deduction import Knowledge

if TYPE_CHECKING:
    from coven.games.amulets.rules import AmuletsState


# The classes of the views are compiled (setup.py), with their ``__init__`` written out: see
# coven.core.native.
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the spell book (public).

    ``kind`` is ``"ask"`` or ``"cast"``; ``seat`` asked or cast; ``fields`` is the placement;
    ``answers`` has one character per seat: ``* o + -`` for a question (``.`` for the asker), ``y n``
    for a cast's checks (``.`` for the caster and for spirits after the first ``n``).
    """

    kind: str
    seat: int
    fields: tuple[int, ...]
    answers: str

    def __init__(
        self,
        kind: str,
        seat: int,
        fields: tuple[int, ...],
        answers: str,
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "answers", answers)

    def as_tuple(self) -> tuple[str, int, tuple[int, ...], str]:
        return (self.kind, self.seat, self.fields, self.answers)


Line = tuple[str, int, tuple[int, ...], str]
"""A spell-book line as the rules keep it: ``(kind, seat, fields, answers)``, the fields of :class:`Entry`
in order (:meth:`Entry.as_tuple`). The state holds these plain tuples; an :class:`Entry` is made from one
when someone reads the book (:func:`entry_of`)."""


# Spell-book events are read far less often than lines are written: their frozen values are made with
# their slots filled directly, not through the frozen dataclass's ``__init__`` (one ``object.__setattr__``
# per field). The tests check they equal the plain values.
_new = object.__new__
_set_event_kind, _set_event_data, _set_event_audience = slot_setters(Event)
_set_line = vars(Spoken)["_line"].__set__
EVENT_KIND: Final = {"ask": "question", "cast": "cast"}
"""The kind of the event of a spell-book line of each kind."""


def entry_of(line: Line) -> Entry:
    """``Entry(*line)``: the spell-book entry of a line as the rules keep it."""
    kind, seat, fields, answers = line
    return Entry(kind, seat, fields, answers)


_READ: Final[dict[int, tuple[object, Entry]]] = {}
"""Entries of lines read before, by the line's identity (a line is one tuple, shared by every later state
and clone: the server shows the whole book to every seat after every move). Each entry keeps its line,
so the identity names no other while it lasts."""
READ_BOUND = 8_192
"""At most this many entries are kept (then they all go, and are made again as read): the books of the
tables in play (a game's book has tens of lines), not of every game since. At 65,536 the entries (each
keeping its line, about 330 bytes together) of a thousand finished games stayed: ``coven bench server
--game amulets --tables 10 --games 1000`` grew by 16 MB. Not ``Final``: a compiled module would build
the number in, and tests lower it."""


def read_entry(line: object) -> Entry:
    """:func:`entry_of` of a :data:`Line`, made once per line (see :data:`_READ`). The line is typed
    ``object``: this module is compiled, and there a ``Line`` would be unpacked into a native struct
    (boxed again as a new tuple when kept), losing the identity the memo goes by."""
    hit = _READ.get(id(line))
    if hit is not None and hit[0] is line:
        return hit[1]
    if len(_READ) >= READ_BOUND:
        _READ.clear()
    entry = entry_of(cast("Line", line))
    _READ[id(line)] = (line, entry)
    return entry


def line_event(line: Line) -> Event:
    """The public event of a spell-book line (kind ``EVENT_KIND[kind]``), whose data (:class:`Spoken`)
    is written out when read."""
    data: Spoken = _new(Spoken)
    _set_line(data, line)
    event: Event = _new(Event)
    _set_event_kind(event, EVENT_KIND[line[0]])
    _set_event_data(event, data)
    _set_event_audience(event, None)
    return event


def write_line(
    book: list[Line], kind: str, seat: int, fields: tuple[int, ...], answers: str, event_kind: str
) -> Event:
    """Append the line ``(kind, seat, fields, answers)`` to ``book`` and return its public event
    (:func:`line_event`), of kind ``event_kind`` (which must be ``EVENT_KIND[kind]``)."""
    line = (kind, seat, fields, answers)
    book.append(line)
    event = line_event(line)
    assert event.kind == event_kind
    return event


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class Possibility:
    """A (field, amulet) pair still possible for a wizard, and in how many joint worlds."""

    field: int
    amulet: int
    worlds: int

    def __init__(
        self,
        field: int,
        amulet: int,
        worlds: int,
    ) -> None:
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "amulet", amulet)
        object.__setattr__(self, "worlds", worlds)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class WizardKnowledge:
    seat: int
    possible: tuple[Possibility, ...]

    def __init__(
        self,
        seat: int,
        possible: tuple[Possibility, ...],
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "possible", possible)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class Assistant:
    """What the deduction engine concludes from a view (the table option ``assistant``)."""

    worlds: int
    """Joint assignments of every unknown secret still consistent with the spell book."""
    wizards: tuple[WizardKnowledge, ...]

    def __init__(
        self,
        worlds: int,
        wizards: tuple[WizardKnowledge, ...],
    ) -> None:
        object.__setattr__(self, "worlds", worlds)
        object.__setattr__(self, "wizards", wizards)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class AmuletsView:
    seat: int | None
    players: int
    options: dict[str, bool | int | str]
    field: int
    """This wizard's secret field (-1 for a spectator)."""
    amulet: int
    """This wizard's secret amulet (-1 for a spectator)."""
    turn: int
    out: tuple[bool, ...]
    winner: int
    over: bool
    book: tuple[Entry, ...]
    questions: int
    assistant: Assistant | None = None
    """The deduction engine's conclusions, when the table enables the assistant (derived, public)."""

    def __init__(
        self,
        seat: int | None,
        players: int,
        options: dict[str, bool | int | str],
        field: int,
        amulet: int,
        turn: int,
        out: tuple[bool, ...],
        winner: int,
        over: bool,
        book: tuple[Entry, ...],
        questions: int,
        assistant: Assistant | None = None,
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "amulet", amulet)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "out", out)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "over", over)
        object.__setattr__(self, "book", book)
        object.__setattr__(self, "questions", questions)
        object.__setattr__(self, "assistant", assistant)


native_dataclasses(Entry, Possibility, WizardKnowledge, Assistant, AmuletsView)


def view_of(state: AmuletsState, seat: Seat | None) -> AmuletsView:
    """Everything ``seat`` knows in ``state`` (``None``: a spectator, who knows no secret)."""
    return views_of(state, (seat,))[seat]


def views_of(
    state: AmuletsState, seats: Iterable[Seat | None], derived: bool = True
) -> dict[Seat | None, AmuletsView]:
    """The views of several seats of one state: the spell book and the table, the same for all, are made
    once; each seat adds its own secret (and, with the assistant and ``derived``, its own conclusions:
    without ``derived``, the bare views of :meth:`coven.core.Game.bare_views`)."""
    out, book = tuple(state.out), tuple(map(read_entry, state.lines))
    views: dict[Seat | None, AmuletsView] = {}
    for seat in seats:
        mine = seat is not None and 0 <= seat < state.players
        view = AmuletsView(
            seat=seat,
            players=state.players,
            options=dict(state.options),
            field=state.fields[seat] if mine and seat is not None else -1,
            amulet=state.amulets[seat] if mine and seat is not None else -1,
            turn=state.turn,
            out=out,
            winner=state.winner,
            over=state.over,
            book=book,
            questions=state.questions,
        )
        if derived:
            view = with_assistant(view)
        views[seat] = view
    return views


def with_assistant(view: AmuletsView) -> AmuletsView:
    """``view`` with the assistant's conclusions, if its table enables the assistant (see
    :meth:`coven.core.Game.derive_view`)."""
    if not view.options.get("assistant") or view.assistant is not None:
        return view
    return dataclasses.replace(view, assistant=assistant_of(view))


def knowledge_of(view: AmuletsView) -> Knowledge:
    """The deduction engine's knowledge for the seat of ``view`` (or a spectator)."""
    pair = pair_of(view.field, view.amulet) if view.seat is not None else 0
    return Knowledge.build(view.players, (e.as_tuple() for e in view.book), view.seat, pair)


_CONCLUDED: Final[dict[tuple[tuple[int, ...], tuple[int, ...]], Assistant]] = {}
"""Conclusions made before, by what they are made from: the unknown seats and their domains. Every seat
and spectator of a table asks after every move, a replay at every step, and most moves leave someone's
knowledge as it was (a question whose answers tell a seat nothing new); counting worlds costs up to tens
of milliseconds for a spectator of five wizards. A value is the same whoever asks (it is a function of
the key alone), so sharing it tells nobody anything."""
CONCLUDED_BOUND = 512
"""At most this many conclusions are kept (then they all go; one for five wizards is about 10 kB). Not
``Final``: tests lower it."""


def assistant_of(view: AmuletsView) -> Assistant:
    """The deduction assistant's conclusions for the seat of ``view``, from the view alone."""
    knowledge = knowledge_of(view)
    key = (knowledge.seats, knowledge.domains)
    known = _CONCLUDED.get(key)
    if known is not None:
        return known
    if len(_CONCLUDED) >= CONCLUDED_BOUND:
        _CONCLUDED.clear()
    made = _CONCLUDED[key] = _conclude(knowledge)
    return made


def _conclude(knowledge: Knowledge) -> Assistant:
    return Assistant(
        worlds=knowledge.count(),
        wizards=tuple(
            WizardKnowledge(
                seat,
                tuple(Possibility(p % FIELDS, p // FIELDS, n) for p, n in sorted(tally.items())),
            )
            for seat, tally in zip(knowledge.seats, knowledge.marginals(), strict=True)
        ),
    )
