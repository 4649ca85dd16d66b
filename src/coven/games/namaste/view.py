"""What may leave the Namaste engine: the per-seat view and the audiences of the events.

Namaste hides no hand: every sheet, every bad-karma space and the dice on the table are public. Two
things stay hidden all the same (rulings, see :mod:`coven.games.namaste.rules`): the other players'
choices on the current roll until everyone asked has decided (a view shows only who has decided; the
``decided`` event goes to its seat alone, the ``entries`` event to everyone once the roll resolves),
and the dice not yet rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from coven.core import Event, JSONValue, Seat
from coven.core.events import fast_event, slot_setters
from coven.core.native import mypyc_attr, native_dataclasses
from coven.games.namaste.notation import WRITE_TEXT, format_action, sums
from coven.games.namaste.sheet import MAX_VALUE, NCELLS, truth_points

if TYPE_CHECKING:
    from coven.games.namaste.rules import NamasteState


# The view's class is compiled (setup.py), with its ``__init__`` written out: see coven.core.native.
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class NamasteView:
    seat: int | None
    players: int
    options: dict[str, bool | int | str]
    starter: int
    active: int
    phase: str
    white: tuple[int, ...]
    turquoise: int
    sheets: tuple[tuple[int, ...], ...]
    karma: tuple[tuple[int, ...], ...]
    line_points: tuple[tuple[int, ...], ...]
    claimed: tuple[bool, ...]
    asked: tuple[int, ...]
    to_decide: tuple[int, ...]
    my_choice: str
    """The viewer's own decision on the current roll, in notation ("" if none yet)."""
    turns: int
    ending: bool

    def __init__(
        self,
        seat: int | None,
        players: int,
        options: dict[str, bool | int | str],
        starter: int,
        active: int,
        phase: str,
        white: tuple[int, ...],
        turquoise: int,
        sheets: tuple[tuple[int, ...], ...],
        karma: tuple[tuple[int, ...], ...],
        line_points: tuple[tuple[int, ...], ...],
        claimed: tuple[bool, ...],
        asked: tuple[int, ...],
        to_decide: tuple[int, ...],
        my_choice: str,
        turns: int,
        ending: bool,
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "starter", starter)
        object.__setattr__(self, "active", active)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "white", white)
        object.__setattr__(self, "turquoise", turquoise)
        object.__setattr__(self, "sheets", sheets)
        object.__setattr__(self, "karma", karma)
        object.__setattr__(self, "line_points", line_points)
        object.__setattr__(self, "claimed", claimed)
        object.__setattr__(self, "asked", asked)
        object.__setattr__(self, "to_decide", to_decide)
        object.__setattr__(self, "my_choice", my_choice)
        object.__setattr__(self, "turns", turns)
        object.__setattr__(self, "ending", ending)


native_dataclasses(NamasteView)


def plain_view(state: NamasteState, seat: Seat | None) -> NamasteView:
    """Everything ``seat`` knows: the whole table, and of the current roll's decisions only its own (the
    plain reading of :func:`view_of`, which tests hold it to)."""
    mine = state.pending.get(seat) if seat is not None else None
    asked = state.asked
    return NamasteView(
        seat=seat,
        players=state.players,
        options=dict(state.options),
        starter=state.starter,
        active=state.active,
        phase=state.phase,
        white=state.white,
        turquoise=state.turquoise,
        sheets=tuple(state.sheets),
        karma=tuple(state.karma),
        line_points=tuple(state.line_points),
        claimed=tuple(state.claimed),
        asked=asked,
        to_decide=tuple(s for s in asked if s not in state.pending),
        my_choice=format_action(mine) if mine is not None else "",
        turns=state.turns,
        ending=state.ending,
    )


Shown = tuple[int, int, object, NamasteView]
"""What :attr:`NamasteState.shown` keeps: the position's ``turns``, ``waiting`` and ``roll``, then the
spectator's view of it."""
_NO_OPTIONS: Final[dict[str, bool | int | str]] = {}
"""The options of the kept spectator's view (never shown: each view gets its own copy of the table's)."""


def _public(state: NamasteState) -> NamasteView:
    """The spectator's view (:func:`plain_view` with ``seat=None``), its options left out (each view
    gets its own dict: :func:`view_of`)."""
    asked = state.asked
    pending = state.pending
    return NamasteView(
        None,
        state.players,
        _NO_OPTIONS,
        state.starter,
        state.active,
        state.phase,
        state.white,
        state.turquoise,
        tuple(state.sheets),
        tuple(state.karma),
        tuple(state.line_points),
        tuple(state.claimed),
        asked,
        tuple([s for s in asked if s not in pending]),
        "",
        state.turns,
        state.ending,
    )


def view_of(state: NamasteState, seat: Seat | None) -> NamasteView:
    """:func:`plain_view`, its public part read once per position: the server asks every seat's view
    after every move. The spectator's view (each sheet decoded once) is kept in
    :attr:`NamasteState.shown` with the position it shows, its rolls completed, seats waited for and
    roll on the table: the rules change the rest of the state only when a roll resolves, which counts it
    in ``turns`` (a decision changes ``waiting``, a roll ``roll``), so a view kept for the same three
    still shows the state. Each view shares its immutable values and gets its own options (a dict),
    viewer and own decision."""
    shown = state.shown
    if shown is None or shown[0] != state.turns or shown[1] != state.waiting or shown[2] is not state.roll:
        public = _public(state)
        state.shown = (state.turns, state.waiting, state.roll, public)
    else:
        public = shown[3]
    mine = state.pending.get(seat) if seat is not None else None
    return NamasteView(
        seat,
        public.players,
        dict(state.options),
        public.starter,
        public.active,
        public.phase,
        public.white,
        public.turquoise,
        public.sheets,
        public.karma,
        public.line_points,
        public.claimed,
        public.asked,
        public.to_decide,
        format_action(mine) if mine is not None else "",
        public.turns,
        public.ending,
    )


def view_json(view: NamasteView) -> dict[str, JSONValue]:
    """The view's JSON form as its codec writes it (:meth:`coven.core.Game.view_to_json`: tuples as
    lists, fields in order; tests hold the two equal), written directly: the codec walks the types of
    17 fields and four sheets of 25 circles on every view, and the server writes every seat's view after
    every move."""
    return {
        "seat": view.seat,
        "players": view.players,
        "options": dict(view.options),
        "starter": view.starter,
        "active": view.active,
        "phase": view.phase,
        "white": list(view.white),
        "turquoise": view.turquoise,
        "sheets": list(map(list, view.sheets)),
        "karma": list(map(list, view.karma)),
        "line_points": list(map(list, view.line_points)),
        "claimed": list(view.claimed),
        "asked": list(view.asked),
        "to_decide": list(view.to_decide),
        "my_choice": view.my_choice,
        "turns": view.turns,
        "ending": view.ending,
    }


def options_of(seat: Seat, state_white: Sequence[int], turquoise: int, active: Seat) -> tuple[int, ...]:
    """The totals ``seat`` may write for this roll."""
    if seat == active:
        return sums((*state_white, turquoise))
    return sums(state_white)


def score_of(sheet: Sequence[int], karma: Sequence[int], line_points: Sequence[int]) -> int:
    return sum(line_points) + truth_points(list(sheet)) - sum(karma)


# ------------------------------------------------------------------------------------------ events
# The rules make one to three events per action: they are made with their slots filled directly, not
# through the frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field, a good part of an
# action's cost in a playout), and the two that depend only on a seat and its decision (``decided``,
# ``waiting``) are made once, in the tables below: events are values (frozen, their data a read-only
# ``Mapping``), so every roll may return the same one. The tests check they equal the plain values.
_new = object.__new__
_set_kind, _set_data, _set_audience = slot_setters(Event)
_ONLY: Final[tuple[frozenset[Seat], ...]] = tuple(frozenset((s,)) for s in range(4))


_event = fast_event


def decided_event(seat: Seat, action_text: str) -> Event:
    """A seat's own decision: only that seat sees it until the roll resolves."""
    event: Event = _new(Event)
    _set_kind(event, "decided")
    _set_data(event, {"seat": seat, "action": action_text})
    _set_audience(event, _ONLY[seat])
    return event


def waiting_event(seat: Seat, still: list[JSONValue]) -> Event:
    """Everyone sees that ``seat`` has decided (not what) and who is still to decide."""
    event: Event = _new(Event)
    _set_kind(event, "waiting")
    _set_data(event, {"seat": seat, "still": still})
    _set_audience(event, None)
    return event


DECIDED_WRITE: Final[tuple[tuple[tuple[Event, ...], ...], ...]] = tuple(
    tuple(tuple(decided_event(seat, WRITE_TEXT[v][c]) for c in range(NCELLS)) for v in range(MAX_VALUE + 1))
    for seat in range(4)
)
"""``DECIDED_WRITE[seat][value][cell]``: the ``decided`` event of that write."""
DECIDED_KARMA: Final[tuple[Event, ...]] = tuple(decided_event(seat, "karma") for seat in range(4))
DECIDED_PASS: Final[tuple[Event, ...]] = tuple(decided_event(seat, "pass") for seat in range(4))
WAITING: Final[tuple[tuple[Event, ...], ...]] = tuple(
    tuple(waiting_event(seat, [s for s in range(4) if still >> s & 1]) for still in range(16))
    for seat in range(4)
)
"""``WAITING[seat][still]``: ``seat`` has decided, the seats of the bitmask ``still`` have not."""


def roll_event(
    seat: Seat, dice: str, white: list[JSONValue], turquoise: int, asked: list[JSONValue]
) -> Event:
    """The dice are public."""
    event: Event = _new(Event)
    _set_kind(event, "roll")
    _set_data(event, {"seat": seat, "dice": dice, "white": white, "turquoise": turquoise, "asked": asked})
    _set_audience(event, None)
    return event


def entries_event(dice: str, entries: dict[str, JSONValue]) -> Event:
    """Everyone's decisions on the roll, public once everyone asked has decided."""
    event: Event = _new(Event)
    _set_kind(event, "entries")
    _set_data(event, {"dice": dice, "entries": entries})
    _set_audience(event, None)
    return event


def line_event(seat: Seat, line: str, points: int, first: bool) -> Event:
    return _event("line", {"seat": seat, "line": line, "points": points, "first": first})


def end_triggered_event(seat: Seat) -> Event:
    return _event("end_triggered", {"seat": seat})


def game_over_event(scores: list[JSONValue]) -> Event:
    return _event("game_over", {"scores": scores})
