"""Namaste notation: the actions and the dice as text, and the text of a whole position, both ways.

Actions (every decision is a typed action; the rulebook reading is in :mod:`coven.games.namaste.rules`):

- ``roll N`` (:class:`Roll`): the active player rolls N = 1-3 white dice and the turquoise die.
- ``V@cell`` (:class:`Write`), e.g. ``14@c3``: write V in that circle (cells as in
  :mod:`coven.games.namaste.sheet`: rows a-g top to bottom, columns 1-7 left to right). The 1 or 7 of
  each 1/7 die is chosen by the value itself.
- ``karma`` (:class:`Karma`): the active player takes the turquoise value as bad karma.
- ``pass`` (:class:`Pass`): a fellow player writes nothing.

Dice are written white faces first, then ``+`` and the turquoise face: ``1/7 2 + 4``.

Positions (:func:`format_position` / :func:`parse_position`): the whole state on one line, fields
separated by `` | `` in this fixed order::

    namaste 2 | starter 0 | active 1 | rolls 7 | decide 1/7 2 + 4 | decided 0=3@c2 | ending no
    | claimed row b | chance 9e3779b97f4a7c15:21 | queue 3 5 2
    | 1 / 5 7 9 / . 8 . . . / . . . . . . . / . . . . . / . . . / . ; karma - ; lines 7
    | . / . . . / . . . . . / . . . . . . . / . . . . . / . . . / . ; karma 2 ; lines -

(written here on several lines; the text is one line: seat 1 rolled 1/7, 2 and a turquoise 4, seat 0 has
chosen already, seat 1 not yet; the next roll of two white dice will show 3, 5 and a turquoise 2). The
fields:

- ``namaste P``: the number of players;
- ``starter S``, ``active S``: the seat that checked "I'm first" and the seat whose turn it is;
- ``rolls N``: rolls resolved so far;
- the phase: ``choose`` (the active seat chooses how many dice to roll), ``decide DICE`` (the dice are
  on the table and the seats asked decide; who is asked follows from the sheets and the dice) or
  ``over``;
- ``decided``: the decisions already taken on the current roll, ``seat=action`` (hidden from the other
  seats until everyone asked has decided), ``-`` for none;
- ``ending yes|no``: somebody filled every circle or every bad-karma space, this is the last round;
- ``claimed``: the symbol lines somebody completed already (``row b``, ``column 4``, comma-separated;
  ``-`` for none);
- ``chance KEY:COUNTER``: the state's chance source (:class:`coven.core.chance.Chance`), i.e. all the
  dice not yet rolled;
- ``queue``: faces fixed by hand for the next rolls, used before the chance source is drawn (each roll
  takes its white dice, then the turquoise one, from the front of the queue): ``queue 3 5 2`` fixes
  the next roll of two white dice to 3 and 5 with a turquoise 2 (a ``+`` may be written as a reading
  aid, ``queue 3 5 + 2``; it is not written back); ``-`` for none;
- one field per seat: the sheet (:func:`coven.games.namaste.sheet.format_sheet`), ``karma`` and the
  values in its filled bad-karma spaces, ``lines`` and the points of its completed symbol lines in line
  order (rows b-f, then columns 2-6; each the pink number, or half of it for a line completed after
  somebody else had).

A test writes a position by hand to fix the next dice (``queue``) or the whole future (``chance``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from coven.core import NotationError
from coven.core.errors import short_repr
from coven.games.namaste.sheet import (
    CELL_NAMES,
    LINE_NAMES,
    MAX_VALUE,
    NCELLS,
    NOTATION_REFUSALS,
    format_sheet,
    parse_cell,
    parse_sheet,
)


# ------------------------------------------------------------------------------------------ actions
@dataclass(frozen=True, slots=True)
class Roll:
    """The active player rolls ``white`` (1-3) white dice and the turquoise die."""

    white: int


@dataclass(frozen=True, slots=True)
class Write:
    """Write ``value`` in circle ``cell`` (0-24; notation ``14@c3``)."""

    value: int
    cell: int


@dataclass(frozen=True, slots=True)
class Karma:
    """The active player takes the turquoise value as bad karma."""


@dataclass(frozen=True, slots=True)
class Pass:
    """A fellow player writes nothing."""


Action = Roll | Write | Karma | Pass

ROLLS: tuple[Roll, ...] = (Roll(1), Roll(2), Roll(3))
WRITES: tuple[tuple[Write, ...], ...] = tuple(
    tuple(Write(v, c) for c in range(NCELLS)) for v in range(MAX_VALUE + 1)
)
"""Interned writes: ``WRITES[value][cell]``."""
WRITE_TEXT: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{v}@{CELL_NAMES[c]}" for c in range(NCELLS)) for v in range(MAX_VALUE + 1)
)
"""The notation of ``WRITES[value][cell]``, built once."""
KARMA = Karma()
PASS = Pass()

_VALUE = re.compile(r"[0-9]{1,4}")
"""A written value: ASCII digits only (``int()`` also reads "١٤"; ``str.isdigit()`` takes "²"), and
few of them (``int()`` refuses thousands)."""


def format_action(action: Action) -> str:
    if isinstance(action, Write):
        if 0 <= action.cell < NCELLS and 0 <= action.value <= MAX_VALUE:
            return WRITE_TEXT[action.value][action.cell]
        name = CELL_NAMES[action.cell] if 0 <= action.cell < NCELLS else f"#{action.cell}"
        return f"{action.value}@{name}"
    if isinstance(action, Roll):
        return f"roll {action.white}"
    if isinstance(action, Karma):
        return "karma"
    return "pass"


def parse_action(text: object) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {short_repr(text)}")
    t = " ".join(text.strip().lower().split())
    if t == "karma":
        return KARMA
    if t == "pass":
        return PASS
    if t.startswith("roll "):
        n = t[5:].strip()
        if n in {"1", "2", "3"}:
            return ROLLS[int(n) - 1]
        raise NotationError(NOTATION_REFUSALS("refusal.namaste.notation.roll", text=short_repr(n)))
    value, at, cell = t.replace(" ", "").partition("@")
    if at and _VALUE.fullmatch(value):
        v = int(value)
        if not 1 <= v <= MAX_VALUE:
            raise NotationError(NOTATION_REFUSALS("refusal.namaste.notation.value", max=MAX_VALUE, value=v))
        return WRITES[v][parse_cell(cell)]
    if at and value:
        raise NotationError(
            NOTATION_REFUSALS("refusal.namaste.notation.digits", max=MAX_VALUE, text=short_repr(value))
        )
    raise NotationError(NOTATION_REFUSALS("refusal.namaste.notation.unknown", text=short_repr(text)))


# --------------------------------------------------------------------------------------------- dice
WILD: Final = 1
"""A die showing the 1/7 face is stored as 1."""
FACES = (WILD, 2, 3, 4, 5, 6)
_FACE_OF_TEXT = {"1/7": WILD, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}


def die_text(face: int) -> str:
    return "1/7" if face == WILD else str(face)


def dice_text(white: Sequence[int], turquoise: int) -> str:
    """``1/7 2 + 4``: the white dice, then the turquoise one."""
    return " ".join(die_text(f) for f in white) + " + " + die_text(turquoise)


def dice_phrase(white: Sequence[int], turquoise: int) -> str:
    """A roll as the terminal prints it (the view's picture and the roll's event alike)."""
    return f"white {' '.join(die_text(f) for f in white)}  turquoise {die_text(turquoise)}"


def parse_dice(text: str) -> tuple[tuple[int, ...], int]:
    """The inverse of :func:`dice_text`: ``"1/7 2 + 4"`` -> ((1, 2), 4)."""
    white_text, plus, turquoise_text = text.partition("+")
    white = white_text.split()
    if not plus or not 1 <= len(white) <= 3 or turquoise_text.strip() not in _FACE_OF_TEXT:
        raise NotationError(f"dice are 1-3 white faces, '+', the turquoise face (e.g. '1/7 2 + 4'): {text!r}")
    if any(f not in _FACE_OF_TEXT for f in white):
        raise NotationError(f"die faces are 2-6 and 1/7: {text!r}")
    return tuple(_FACE_OF_TEXT[f] for f in white), _FACE_OF_TEXT[turquoise_text.strip()]


def sums(dice: Sequence[int]) -> tuple[int, ...]:
    """Every total the dice allow, each 1/7 die read as 1 or 7 (ascending)."""
    wild = sum(1 for f in dice if f == WILD)
    base = sum(f for f in dice if f != WILD) + wild
    return tuple(base + 6 * j for j in range(wild + 1))


# ---------------------------------------------------------------------------------------- positions
PHASES = ("choose", "decide", "over")


@dataclass(frozen=True, slots=True)
class SeatPosition:
    """One seat's part of a position: its sheet, its bad karma, its completed lines' points."""

    sheet: tuple[int, ...]
    karma: tuple[int, ...]
    line_points: tuple[int, ...]
    """The points of the completed lines, in line order (as many as the sheet completes)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A position's fields as :func:`parse_position` reads them (the rules check that they fit)."""

    players: int
    starter: int
    active: int
    rolls: int
    phase: str
    white: tuple[int, ...]
    turquoise: int
    decided: tuple[tuple[int, Action], ...]
    ending: bool
    claimed: tuple[int, ...]
    """The indices of the claimed lines (ascending)."""
    chance: str
    queue: tuple[int, ...]
    seats: tuple[SeatPosition, ...]


_HEAD = 10
"""Fields before the seats' fields."""
_NUMBER = re.compile(r"[0-9]{1,6}")


def _number(text: str, what: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise NotationError(f"{what} is a number, not {short_repr(text)}")
    return int(text)


def _keyword(field: str, keyword: str) -> str:
    """The rest of ``field`` after ``keyword`` and a space; a NotationError if it starts otherwise."""
    head, _, rest = field.partition(" ")
    if head != keyword or not rest.strip():
        raise NotationError(f"expected the field '{keyword} ...', not {short_repr(field)}")
    return rest.strip()


def _numbers(text: str, what: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(_number(t, what) for t in text.split())


def format_position(p: Position) -> str:
    """The one-line text of a position (see the module docstring)."""
    phase = f"decide {dice_text(p.white, p.turquoise)}" if p.phase == "decide" else p.phase
    decided = " ".join(f"{s}={format_action(a)}" for s, a in p.decided) or "-"
    claimed = ", ".join(LINE_NAMES[k] for k in p.claimed) or "-"
    queue = " ".join(die_text(f) for f in p.queue) or "-"
    fields = [
        f"namaste {p.players}",
        f"starter {p.starter}",
        f"active {p.active}",
        f"rolls {p.rolls}",
        phase,
        f"decided {decided}",
        f"ending {'yes' if p.ending else 'no'}",
        f"claimed {claimed}",
        f"chance {p.chance}",
        f"queue {queue}",
    ]
    for seat in p.seats:
        karma = " ".join(str(k) for k in seat.karma) or "-"
        lines = " ".join(str(k) for k in seat.line_points) or "-"
        fields.append(f"{format_sheet(seat.sheet)} ; karma {karma} ; lines {lines}")
    return " | ".join(fields)


def parse_position(text: object) -> Position:
    """The fields of a position text; NotationError (saying what is wrong) for anything else. Whether
    they make a reachable state (legal sheets, decisions the dice allow) the rules check."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {short_repr(text)}")
    fields = [f.strip() for f in text.split("|")]
    players = _number(_keyword(fields[0], "namaste"), "the number of players")
    if not 2 <= players <= 4:
        raise NotationError(f"Namaste has 2-4 players, not {players}")
    if len(fields) != _HEAD + players:
        raise NotationError(
            f"a position of {players} players has {_HEAD + players} fields split by '|', not {len(fields)}"
        )
    starter = _number(_keyword(fields[1], "starter"), "the starter")
    active = _number(_keyword(fields[2], "active"), "the active seat")
    rolls = _number(_keyword(fields[3], "rolls"), "the number of rolls")
    phase, _, dice = fields[4].partition(" ")
    white: tuple[int, ...] = ()
    turquoise = 0
    if phase == "decide":
        white, turquoise = parse_dice(dice)
    elif phase not in PHASES or dice:
        raise NotationError(f"the phase is 'choose', 'decide DICE' or 'over', not {short_repr(fields[4])}")
    decided: list[tuple[int, Action]] = []
    for item in _keyword(fields[5], "decided").split():
        if item == "-":
            continue
        seat, eq, action = item.partition("=")
        if not eq:
            raise NotationError(f"a decision is written seat=action (0=14@c3), not {short_repr(item)}")
        decided.append((_number(seat, "a deciding seat"), parse_action(action)))
    ending_text = _keyword(fields[6], "ending")
    if ending_text not in {"yes", "no"}:
        raise NotationError(f"ending is 'yes' or 'no', not {short_repr(ending_text)}")
    claimed: list[int] = []
    claimed_text = _keyword(fields[7], "claimed")
    if claimed_text != "-":
        for name in claimed_text.split(","):
            if name.strip() not in LINE_NAMES:
                raise NotationError(f"no line {short_repr(name.strip())}; lines are {', '.join(LINE_NAMES)}")
            claimed.append(LINE_NAMES.index(name.strip()))
    chance = _keyword(fields[8], "chance")
    queue_text = _keyword(fields[9], "queue").replace("+", " ")
    queue: list[int] = []
    if queue_text.strip() != "-":
        for face in queue_text.split():
            if face not in _FACE_OF_TEXT:
                raise NotationError(f"die faces are 2-6 and 1/7, not {short_repr(face)}")
            queue.append(_FACE_OF_TEXT[face])
    seats = []
    for s, field in enumerate(fields[_HEAD:]):
        parts = [part.strip() for part in field.split(";")]
        if len(parts) != 3:
            raise NotationError(f"seat {s}: 'SHEET ; karma ... ; lines ...', not {short_repr(field)}")
        karma = _numbers(_keyword(parts[1], "karma"), "a bad-karma value")
        lines = _numbers(_keyword(parts[2], "lines"), "a line's points")
        seats.append(SeatPosition(parse_sheet(parts[0]), karma, lines))
    return Position(
        players=players,
        starter=starter,
        active=active,
        rolls=rolls,
        phase=phase,
        white=white,
        turquoise=turquoise,
        decided=tuple(decided),
        ending=ending_text == "yes",
        claimed=tuple(sorted(set(claimed))),
        chance=chance,
        queue=tuple(queue),
        seats=tuple(seats),
    )
