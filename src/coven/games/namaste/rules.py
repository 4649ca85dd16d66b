"""Namaste (Lach and Rapp; moses. Verlag 2021): the rules engine.

Rulebook: ``003_f6987cddd837ac43.txt``; the project's rulings (``README.md``, Namaste section) stand over
it: the diamond of 25 circles, pink middles of the lines of length 3, 5 and 7, the four truth tips (top
and left in full, bottom and right half rounded up), dice faces 2-6 and 1/7, every player choosing 1 or
7 for each such die separately, simultaneous decisions on one roll, same-roll completions all first,
the end after the round in which someone filled all 25 circles or all 4 bad-karma spaces, ties to
fewer bad-karma spaces filled and then shared.

Turn structure (every decision is a typed action; the notation is in
:mod:`coven.games.namaste.notation`):

- ``roll N`` (:class:`Roll`): the active player takes N = 1-3 white dice and rolls them with the
  turquoise die. The roll itself is chance, drawn from the state's :class:`~coven.core.chance.Chance`
  (after any faces a hand-written position fixed in its ``queue``).
- After the roll, ``to_act`` holds every seat still to decide, in any order: the active player (who
  must write the sum of all rolled dice or take bad karma) and each other player who can write the
  sum of the white dice somewhere (a player who has no legal circle for any reading of the dice is
  not asked: passing is their only choice).
- ``V@cell`` (:class:`Write`), e.g. ``14@c3``: write V in that circle. The 1 or 7 of each 1/7 die is
  chosen by the value itself: V must be one of the sums the dice allow that player (Magdalena's
  1/7, 2 and turquoise 4 allow her 7 or 13, the others 3 or 9).
- ``karma`` (:class:`Karma`): the active player writes the turquoise value (1/7 counts 1) in the next
  empty bad-karma space, as minus points.
- ``pass`` (:class:`Pass`): a fellow player writes nothing, without penalty.

Choices of one roll are hidden from the other seats until everyone asked has decided (a view shows
only who has decided, :mod:`coven.games.namaste.view`); then all entries are made at once and count as
simultaneous for first completions. A line's points are the number in its pink circle: in full for
everyone completing it on the first roll any player completes it, half rounded up afterwards.

Choices where rulebook and rulings are silent:
- Seat 0 is the starting player (it checks "I'm first"); the seats roll in order 0, 1, 2, ...
- Which white dice are taken does not matter (they are identical), so the choice is their number.
- The bad-karma spaces are filled in order; which one is used does not matter.
- An active player always has an empty bad-karma space (filling the fourth ends the game at the end of
  that round, before their next turn). Should one ever have neither a space nor a legal circle, they
  may pass.

Representation (the hot path of search and simulation): each sheet is one integer of a byte per circle
(``entries``: a write is one OR; the tuple of 25 circles is made only when read), bad karma and line points
are tuples (a clone shares them); per seat the state keeps one integer ``fits`` of 29 fields of 25 bits, field
v = 1-28 holding the circles that can take the value v now (bit c set when lo < v < hi, see
:func:`coven.games.namaste.sheet.bounds_of`) and field 0 the empty circles (a line is complete when none of
its circles is there). Writing V in circle c is one AND with a precomputed mask (c taken out of every field,
the circles left of and above c out of the fields V and up, those right of and below it out of the fields 1 to
V); whether a seat can write one of a roll's totals is one AND with those totals' fields, and its legal writes
are read from those fields a chunk of circles at a time from tables (one total: three chunks of shared tuples
added, the last holding the pass or the bad karma; the two totals six apart of a roll with one 1/7 die: five
circles at a time). A write's effects on these integers are one lookup (:data:`_WRITE_EFFECT`). A roll is one
draw of the chance source and one lookup in a table of every roll (its totals, their fields and its text).
``waiting`` is the bitmask of the seats the game waits for, ``finished`` that of the seats that filled every
circle or every bad-karma space (the end condition). The events that depend only on a seat and its decision
are made once (:mod:`coven.games.namaste.view`); :meth:`NamasteGame.advance` takes the same steps
(:func:`_roll`, :func:`_resolve`) and makes no event. The views read the public part of a position once
(``shown``, see :func:`coven.games.namaste.view.view_of`), and their JSON is written directly
(:func:`~coven.games.namaste.view.view_json`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter
from typing import Final, final

from coven.core import (
    Bounds,
    Event,
    Game,
    GameSpec,
    JSONValue,
    NotationError,
    Options,
    Seat,
    check_seat,
    check_seed,
)
from coven.core.chance import Chance
from coven.core.codec import through_notation
from coven.core.refusals import CORE
from coven.core.texts import Param, Texts
from coven.games.namaste.notation import (
    FACES,
    KARMA,
    PASS,
    ROLLS,
    WILD,
    WRITE_TEXT,
    WRITES,
    Action,
    Karma,
    Pass,
    Position,
    Roll,
    SeatPosition,
    Write,
    dice_text,
    format_action,
    format_position,
    parse_action,
    parse_dice,
    parse_position,
    sums,
)
from coven.games.namaste.sheet import (
    ABOVE,
    BELOW,
    CELL_NAMES,
    ENTRY_REFUSALS,
    KARMA_SPACES,
    LEFT,
    LINE_NAMES,
    LINES,
    LINES_OF_CELL,
    MAX_VALUE,
    NCELLS,
    NOTATION_REFUSALS,
    PINK,
    RIGHT,
    bounds_of,
    entry_problem,
    half_up,
    parse_sheet,
    truth_points,
)
from coven.games.namaste.view import (
    DECIDED_KARMA,
    DECIDED_PASS,
    DECIDED_WRITE,
    WAITING,
    NamasteView,
    Shown,
    end_triggered_event,
    entries_event,
    game_over_event,
    line_event,
    roll_event,
    view_json,
    view_of,
)

__all__ = [
    "CHOOSE",
    "DECIDE",
    "KARMA",
    "OVER",
    "PASS",
    "ROLLS",
    "RULES",
    "WILD",
    "Action",
    "Karma",
    "NamasteGame",
    "NamasteState",
    "NamasteView",
    "Pass",
    "Roll",
    "Write",
    "assemble",
    "dice_text",
    "parse_dice",
    "sums",
]
"""The rules' own names, and the actions and dice helpers that lived here before the package took the
shape of every game (notation and view hold them now)."""

CHOOSE: Final = "choose"
DECIDE: Final = "decide"
OVER: Final = "over"

# ------------------------------------------------------------------------------------------ tables
_ALL_VALUES: Final = sum(1 << v for v in range(1, MAX_VALUE + 1))
"""Bit v for every value 1-28: what an empty circle with no filled neighbour can take."""
_LESS: Final[tuple[int, ...]] = tuple(((1 << x) - 1) & _ALL_VALUES for x in range(MAX_VALUE + 2))
"""``_LESS[x]``: the values below x."""
_MORE: Final[tuple[int, ...]] = tuple(_ALL_VALUES & ~((1 << (x + 1)) - 1) for x in range(MAX_VALUE + 1))
"""``_MORE[x]``: the values above x."""
_BEFORE: Final[tuple[tuple[int, ...], ...]] = tuple(LEFT[c] + ABOVE[c] for c in range(NCELLS))
"""The circles that must hold less than circle c (left of it and above it)."""
_AFTER: Final[tuple[tuple[int, ...], ...]] = tuple(RIGHT[c] + BELOW[c] for c in range(NCELLS))
"""The circles that must hold more than circle c (right of it and below it)."""
_LINE_MASK: Final[tuple[int, ...]] = tuple(sum(1 << c for c in line) for line in LINES)
_NEVER: Final = 0x2000000
"""A mask no sheet's filled circles cover (no circle has that bit): ``1 << NCELLS``. This constant and
the others written as numbers are literals so that compiled code folds them into its arithmetic (the
assertions below hold them to what they stand for)."""
_ROW_LINES: Final = 5
"""Symbol lines 0-4 are rows b-f, 5-9 columns 2-6 (:data:`coven.games.namaste.sheet.LINES`)."""


def _cell_lines(cell: int) -> tuple[int, int, int, int]:
    rows = [k for k in LINES_OF_CELL[cell] if k < _ROW_LINES]
    columns = [k for k in LINES_OF_CELL[cell] if k >= _ROW_LINES]
    assert len(rows) <= 1 and len(columns) <= 1
    row, column = (rows or [0])[0], (columns or [0])[0]
    return (row, _LINE_MASK[row] if rows else _NEVER, column, _LINE_MASK[column] if columns else _NEVER)


_CELL_LINES: Final[tuple[tuple[int, int, int, int], ...]] = tuple(_cell_lines(c) for c in range(NCELLS))
"""``_CELL_LINES[c]``: the symbol row through circle c and its mask, then the symbol column and its mask
(:data:`_NEVER` where c is on no such line): a line is complete when the filled circles cover its mask."""
_FULL: Final = 0x1FFFFFF
_CELLS_MASK: Final = 0x1FFFFFF
"""One field of ``fits``: a bit per circle (``(1 << NCELLS) - 1``, as :data:`_FULL`)."""
assert _NEVER == 1 << NCELLS and _FULL == _CELLS_MASK == (1 << NCELLS) - 1
_EMPTY_FITS: Final = sum(_CELLS_MASK << (NCELLS * v) for v in range(MAX_VALUE + 1))
"""The fits of an empty sheet: every circle empty (field 0) and able to take every value."""
_VALUE_ONES: Final[tuple[int, ...]] = tuple(1 << (NCELLS * v) for v in range(MAX_VALUE + 1))
"""Bit 0 of the field of each value: ``cells * _VALUE_ONES[v]`` is those circles in field v."""
_KEEP: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        _EMPTY_FITS
        & ~(
            (1 << c) * sum(_VALUE_ONES)
            | sum(1 << d for d in _BEFORE[c]) * sum(_VALUE_ONES[x:])
            | sum(1 << d for d in _AFTER[c]) * sum(_VALUE_ONES[1 : x + 1])
        )
        for x in range(MAX_VALUE + 1)
    )
    for c in range(NCELLS)
)
"""``fits & _KEEP[c][x]``: the fits after writing x in circle c (c is no longer empty: out of field 0
too)."""
_CHUNK_SPANS: Final[tuple[tuple[int, int], ...]] = ((0, 9), (9, 8), (17, 8))
"""The circles of a field in three chunks (first circle, number of circles): 9, 8 and 8."""
_CHUNKS: Final[tuple[tuple[tuple[tuple[Write, ...], ...], ...], ...]] = tuple(
    tuple(
        tuple(tuple(WRITES[v][first + i] for i in range(size) if bits >> i & 1) for bits in range(1 << size))
        for first, size in _CHUNK_SPANS
    )
    for v in range(MAX_VALUE + 1)
)
"""``_CHUNKS[v][k][bits]``: the writes of v in the circles of chunk k (:data:`_CHUNK_SPANS`) whose bits
are set in ``bits``."""

Picker = Callable[[tuple[Write, ...]], tuple[Write, ...]]
_PAIR_SHIFT: Final = 150
"""From the field of a roll's lower total to that of the higher one six above (one 1/7 die):
``6 * NCELLS``."""
assert _PAIR_SHIFT == 6 * NCELLS
_PAIR_ROWS: Final[tuple[tuple[Write, ...], ...]] = tuple(
    WRITES[v] + WRITES[v + 6] if v + 6 <= MAX_VALUE else () for v in range(MAX_VALUE + 1)
)
"""``_PAIR_ROWS[v]``: the writes of v in every circle, then those of v + 6 (the two totals of a roll
with one 1/7 die)."""


def _picker(indices: list[int]) -> Picker:
    if not indices:
        return lambda row: ()
    if len(indices) == 1:
        index = indices[0]
        return lambda row: (row[index],)
    pick: Picker = itemgetter(*indices)
    return pick


_PAIR_PICKS: Final[tuple[tuple[tuple[Picker, ...], ...], ...]] = tuple(
    tuple(
        tuple(
            _picker(
                [
                    j * NCELLS + 5 * k + i
                    for i in range(5)
                    for j, bits in ((0, low), (1, high))
                    if bits >> i & 1 and 5 * k + i < NCELLS
                ]
            )
            for high in range(32)
        )
        for low in range(32)
    )
    for k in range(5)
)
"""``_PAIR_PICKS[k][a][b]``: from a pair row, the writes in circles 5k to 5k+4 where the five bits
``a`` (the lower total) and ``b`` (the higher) are set, circle by circle and then by value."""
_PASS_TAIL: Final[tuple[Action, ...]] = (PASS,)
_KARMA_TAIL: Final[tuple[Action, ...]] = (KARMA,)
"""What follows the writes in the legal actions: a fellow's pass, or the bad karma of the player who
rolled while a space is free (nothing once all four are filled); alone, the legal actions of a seat with
no circle for the dice (the tuples are shared: nobody may change what legal_actions returns)."""
_ROLLS: Final = ROLLS
_WRITE: Final = Write
_KARMA: Final = Karma
"""The legal actions of the player about to roll (:data:`~coven.games.namaste.notation.ROLLS`), and the
classes of the actions the rules tell apart on the hot path, bound here: compiled, a final name is read
without a lookup in the module's namespace."""
_CELL_OF: Final = attrgetter("cell")
_NO_LINES: Final = (0,) * len(LINES)
_SEATS: Final[tuple[frozenset[Seat], ...]] = tuple(
    frozenset(s for s in range(4) if m >> s & 1) for m in range(16)
)
_FIRST: Final[tuple[Seat | None, ...]] = tuple(min(seats) if seats else None for seats in _SEATS)
"""The lowest waiting seat by the mask of waiting seats (None for nobody)."""
"""``_SEATS[mask]``: the seats of a bitmask, as ``to_act`` returns them."""
_SEAT_TEXT: Final = tuple(str(s) for s in range(4))

Chunks = tuple[tuple[tuple[Write, ...], ...], ...]
"""The writes of one value by chunk and bits (a row of :data:`_CHUNKS`)."""


@final
class OneTotal:
    """A roll's single total for some seats (the fellow players, or the player who rolled): the shift of
    its field of ``fits`` and its writes in each chunk (the three parts of its row of :data:`_CHUNKS`, the
    last one's each followed by the tail of those seats' legal actions: a fellow's pass, the bad karma of
    the player who rolled)."""

    __slots__ = ("first", "second", "shift", "third")

    def __init__(self, value: int, tail: tuple[Action, ...]) -> None:
        self.shift: int = NCELLS * value
        first, second, third = _CHUNKS[value]
        self.first: tuple[tuple[Write, ...], ...] = first
        self.second: tuple[tuple[Write, ...], ...] = second
        self.third: tuple[tuple[Action, ...], ...] = tuple(writes + tail for writes in third)


@final
class RollInfo:
    """A roll and what follows from it, made once per roll in :data:`_ROLL_OF_DRAW` (a class, not a
    tuple: compiled, its fields are read without unpacking the whole)."""

    __slots__ = (
        "events",
        "fellow",
        "fellow_fields",
        "fellow_one",
        "mine",
        "mine_fields",
        "mine_one",
        "text",
        "turquoise",
        "white",
        "white_list",
    )

    def __init__(self, white: tuple[int, ...], turquoise: int) -> None:
        self.white: tuple[int, ...] = white
        """The white faces."""
        self.turquoise: int = turquoise
        """The turquoise face."""
        self.fellow: tuple[int, ...] = sums(white)
        """The totals of the white dice (for the fellow players)."""
        self.fellow_fields: int = _fields(self.fellow)
        """Their fields of ``fits``."""
        self.mine: tuple[int, ...] = sums((*white, turquoise))
        """The totals of all dice (for the player who rolled)."""
        self.mine_fields: int = _fields(self.mine)
        """Their fields of ``fits``."""
        self.text: str = dice_text(white, turquoise)
        """The dice in notation."""
        self.white_list: list[JSONValue] = list(white)
        """The white faces as the ``roll`` event's list (made once, like the events' data a read-only
        value)."""
        self.events: list[Event | None] = [None] * 64
        """The ``roll`` events of this roll made so far, by ``active << 4 | asked`` (the event depends only
        on the dice, the seat that rolled and the seats asked: made the first time, then shared like the
        other events' values)."""
        self.fellow_one: OneTotal | None = _one_total(self.fellow, _PASS_TAIL)
        """When the white dice give one total (for the fellow players), its :class:`OneTotal`: the legal
        writes' common case, read without looking at the totals."""
        self.mine_one: OneTotal | None = _one_total(self.mine, _KARMA_TAIL)
        """The same when all dice give one total (for the player who rolled)."""


def _fields(values: Sequence[int]) -> int:
    """The fields of ``fits`` for these values."""
    return sum(_CELLS_MASK << (NCELLS * v) for v in values)


def _one_total(values: tuple[int, ...], tail: tuple[Action, ...]) -> OneTotal | None:
    return OneTotal(values[0], tail) if len(values) == 1 else None


_DRAW: Final[tuple[int, ...]] = (1, 6**2, 6**3, 6**4)
"""A roll of n white dice is one draw below ``_DRAW[n]``: its base-6 digits are the white dice, then the
turquoise one."""
_ROLL_OF_DRAW: Final[tuple[tuple[RollInfo, ...], ...]] = tuple(
    tuple(
        RollInfo(tuple(FACES[code // 6**i % 6] for i in range(n)), FACES[code // 6**n])
        for code in range(_DRAW[n])
    )
    for n in range(4)
)
"""Every roll of n white dice by its draw."""


def _roll_of_faces(white: Sequence[int], turquoise: int) -> RollInfo:
    """The table's entry for these faces."""
    n = len(white)
    code: int = sum(FACES.index(face) * 6**i for i, face in enumerate(white)) + FACES.index(turquoise) * 6**n
    return _ROLL_OF_DRAW[n][code]


_SEAT_TUPLES: Final[tuple[tuple[Seat, ...], ...]] = tuple(
    tuple(s for s in range(4) if m >> s & 1) for m in range(16)
)
"""``_SEAT_TUPLES[mask]``: the seats of a bitmask, ascending."""
_SEAT_LISTS: Final[tuple[list[JSONValue], ...]] = tuple(list(seats) for seats in _SEAT_TUPLES)
"""The same as the events' lists (read-only values)."""
_FELLOWS: Final[tuple[tuple[tuple[tuple[Seat, int], ...], ...], ...]] = tuple(
    tuple(tuple((s, 1 << s) for s in range(players) if s != active) for active in range(players))
    for players in range(5)
)
"""``_FELLOWS[players][active]``: the other seats and their bits, in seat order."""
_NOT_SEAT: Final[tuple[int, ...]] = tuple(~(1 << s) for s in range(4))
"""``waiting & _NOT_SEAT[seat]``: ``seat`` has decided."""
_BYTE_SHIFT: Final[tuple[int, ...]] = tuple(8 * c for c in range(NCELLS))
"""Where circle c's byte lies in :attr:`NamasteState.entries`."""
_PLACE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(v << (8 * c) for v in range(MAX_VALUE + 1)) for c in range(NCELLS)
)
"""``entries | _PLACE[c][v]``: v written in the empty circle c."""


def _gates(cell: int) -> tuple[int, int]:
    _, row_mask, _, column_mask = _CELL_LINES[cell]
    return (_FULL if row_mask == _NEVER else row_mask, _FULL if column_mask == _NEVER else column_mask)


_WRITE_EFFECT: Final[tuple[tuple[tuple[int, int, int, int], ...], ...]] = tuple(
    tuple((_PLACE[c][v], _KEEP[c][v], *_gates(c)) for v in range(MAX_VALUE + 1)) for c in range(NCELLS)
)
"""``_WRITE_EFFECT[c][v]``: what writing v in circle c does, read by one lookup: its byte in ``entries``
(:data:`_PLACE`), the mask that keeps the fits (:data:`_KEEP`), then two gates: the masks of its
symbol row and column (:data:`_CELL_LINES`), :data:`_FULL` in place of a line it is not on. A write
after which some empty circle (field 0 of the fits) lies in each gate completes no line and fills no
sheet (a full sheet empties both gates), so two tests pass the common write; the others take the plain
reading of :data:`_CELL_LINES` and :data:`_FULL`."""


# ------------------------------------------------------------------------------------------- state
@dataclass(slots=True, eq=False, init=False)
class NamasteState:
    players: int
    options: Options
    entries: list[int]
    """Per seat, its 25 circles as one integer of a byte per circle (byte c is circle c, 0 = empty): a
    write is one OR (:data:`_PLACE`), the sheet's tuple is made when read (:meth:`sheet`)."""
    karma: list[tuple[int, ...]]
    """Per seat, the values in its filled bad-karma spaces."""
    line_points: list[tuple[int, ...]]
    """Per seat and symbol line, the points written in its symbol space (0 = line not complete)."""
    claimed: tuple[bool, ...]
    """Per symbol line: somebody completed it on an earlier roll (now worth half)."""
    starter: Seat
    active: Seat
    pending: dict[Seat, Action]
    """Decisions already taken on the current roll (hidden from others until the roll resolves)."""
    turns: int
    """Rolls completed so far."""
    ending: bool
    """Someone filled all circles or all bad-karma spaces: the game ends with this round."""
    chance: Chance
    """The dice not yet rolled."""
    queue: tuple[int, ...]
    """Faces fixed for the next rolls (a hand-written position's), used before ``chance``."""
    fits: list[int]
    """Per seat, 29 fields of 25 bits: field v = 1-28 holds the empty circles that can take the value v
    now, field 0 the empty circles."""
    roll: RollInfo | None
    """The current roll's table entry (None before the roll)."""
    waiting: int
    """The bitmask of the seats the game waits for (``to_act``)."""
    finished: int
    """The bitmask of the seats that filled all their circles or all their bad-karma spaces (the end
    condition: the game ends with the round in which the first of them did)."""
    shown: Shown | None = field(default=None, compare=False, repr=False)
    """The views of this position as :func:`coven.games.namaste.view.view_of` last made them, with the
    position they show (no part of the state: a clone starts without; see :data:`Shown`)."""

    def __init__(
        self,
        players: int,
        options: Options,
        entries: list[int],
        karma: list[tuple[int, ...]],
        line_points: list[tuple[int, ...]],
        claimed: tuple[bool, ...],
        starter: Seat,
        active: Seat,
        pending: dict[Seat, Action],
        turns: int,
        ending: bool,
        chance: Chance,
        queue: tuple[int, ...],
        fits: list[int],
        roll: RollInfo | None,
        waiting: int,
        finished: int,
        shown: Shown | None = None,
    ) -> None:
        # The dataclass's own __init__, written out: compiled (see setup.py), a generated one would be
        # interpreted, and every new game makes a state.
        self.players = players
        self.options = options
        self.entries = entries
        self.karma = karma
        self.line_points = line_points
        self.claimed = claimed
        self.starter = starter
        self.active = active
        self.pending = pending
        self.turns = turns
        self.ending = ending
        self.chance = chance
        self.queue = queue
        self.fits = fits
        self.roll = roll
        self.waiting = waiting
        self.finished = finished
        self.shown = shown

    def sheet(self, seat: Seat) -> tuple[int, ...]:
        """The 25 circles of ``seat`` (0 = empty)."""
        return tuple(self.entries[seat].to_bytes(NCELLS, "little"))

    @property
    def sheets(self) -> list[tuple[int, ...]]:
        """Every seat's circles (:meth:`sheet`)."""
        return [tuple(code.to_bytes(NCELLS, "little")) for code in self.entries]

    @property
    def asked(self) -> tuple[Seat, ...]:
        """The seats asked to decide on the current roll (those still to decide and those that did)."""
        if self.roll is None:
            return ()
        seats = self.waiting
        for s in self.pending:
            seats |= 1 << s
        return _SEAT_TUPLES[seats]

    @property
    def phase(self) -> str:
        """``choose`` (the active seat rolls), ``decide`` (the dice are on the table) or ``over``."""
        return DECIDE if self.roll is not None else CHOOSE if self.waiting else OVER

    @property
    def white(self) -> tuple[int, ...]:
        """The current roll's white dice (``()`` before the roll)."""
        return () if self.roll is None else self.roll.white

    @property
    def turquoise(self) -> int:
        """The current roll's turquoise die (0 before the roll)."""
        return 0 if self.roll is None else self.roll.turquoise


def _fits_of(sheet: tuple[int, ...]) -> int:
    out = 0
    for cell in range(NCELLS):
        if not sheet[cell]:
            out |= 1 << cell  # field 0: the empty circles
            lo, hi = bounds_of(sheet, cell)
            for v in range(lo + 1, hi):
                out |= 1 << (NCELLS * v + cell)
    return out


def sheet_problem(sheet: Sequence[int]) -> str | None:
    """Why ``sheet`` could not have been written (a row or column not increasing), or None."""
    for cell in range(NCELLS):
        value = sheet[cell]
        if value:
            for other in _AFTER[cell]:
                if sheet[other] and sheet[other] <= value:
                    return (
                        f"{sheet[other]} in {CELL_NAMES[other]} does not exceed {value} in {CELL_NAMES[cell]}"
                    )
    return None


def score_points(state: NamasteState, seat: Seat) -> int:
    return sum(state.line_points[seat]) + truth_points(state.sheet(seat)) - sum(state.karma[seat])


def _all_points(state: NamasteState) -> list[JSONValue]:
    """Every seat's points, as the ``game_over`` event lists them (a function of its own, so that
    :func:`_resolve`, on the hot path, keeps no ``state`` in a comprehension's closure cell)."""
    return [score_points(state, s) for s in range(state.players)]


def assemble(
    players: int,
    options: Options,
    sheets: Sequence[Sequence[int]],
    karma: Sequence[Sequence[int]],
    line_points: Sequence[Sequence[int]],
    claimed: Sequence[bool],
    *,
    starter: Seat = 0,
    active: Seat = 0,
    phase: str = CHOOSE,
    dice: tuple[tuple[int, ...], int] | None = None,
    pending: dict[Seat, Action] | None = None,
    turns: int = 0,
    ending: bool = False,
    chance: Chance,
    queue: tuple[int, ...] = (),
) -> NamasteState:
    """A state from its parts, with everything that follows from them computed (who is asked on the
    current roll, the masks of the hot path). Checks only what the masks need (sheets that increase);
    read_position checks the rest."""
    sheet_tuples = [tuple(int(v) for v in s) for s in sheets]
    for s, sheet in enumerate(sheet_tuples):
        if len(sheet) != NCELLS or any(not 0 <= v <= MAX_VALUE for v in sheet):
            raise NotationError(f"seat {s}: a sheet has {NCELLS} circles of 0-{MAX_VALUE}")
        problem = sheet_problem(sheet)
        if problem is not None:
            raise NotationError(f"seat {s}: rows and columns increase: {problem}")
    state = NamasteState(
        players=players,
        options=options,
        entries=[int.from_bytes(bytes(sheet), "little") for sheet in sheet_tuples],
        karma=[tuple(k) for k in karma],
        line_points=[tuple(p) for p in line_points],
        claimed=tuple(claimed),
        starter=starter,
        active=active,
        pending={},
        turns=turns,
        ending=ending,
        chance=chance,
        queue=queue,
        fits=[_fits_of(sheet) for sheet in sheet_tuples],
        roll=None,
        waiting=0 if phase == OVER else 1 << active,
        finished=sum(1 << s for s in range(players) if all(sheet_tuples[s]) or len(karma[s]) >= KARMA_SPACES),
    )
    if phase == DECIDE:
        if dice is None:
            raise NotationError("a roll to decide on needs its dice")
        _set_roll(state, _roll_of_faces(*dice))
        for seat, action in (pending or {}).items():
            if not state.waiting >> seat & 1 or action not in RULES.legal_actions(state, seat):
                raise NotationError(f"seat {seat} cannot have decided {format_action(action)} on this roll")
            state.pending[seat] = action
            state.waiting &= ~(1 << seat)
    elif pending:
        raise NotationError("decisions are taken only on a roll")
    return state


def _set_roll(state: NamasteState, info: RollInfo) -> None:
    """The dice are on the table: ask the active seat and every fellow who can write the white total."""
    state.roll = info
    fellow = info.fellow_fields
    fits = state.fits
    active = state.active
    waiting = 1 << active
    for s, bit in _FELLOWS[state.players][active]:
        if fits[s] & fellow:
            waiting |= bit
    state.waiting = waiting


def _roll_event(state: NamasteState, info: RollInfo) -> Event:
    """The ``roll`` event of the roll just set: made the first time these dice, this roller and these
    seats asked come together, then shared."""
    made = info.events
    active = state.active
    waiting = state.waiting
    key = active << 4 | waiting
    event = made[key]
    if event is None:
        event = made[key] = roll_event(
            active, info.text, info.white_list, info.turquoise, _SEAT_LISTS[waiting]
        )
    return event


def _roll(state: NamasteState, white: int) -> RollInfo:
    """Roll ``white`` white dice and the turquoise one, and ask who decides; returns the roll."""
    if state.queue:
        # Faces fixed by hand come first (white dice, then the turquoise one); then chance, one die at
        # a time.
        faces = []
        for _ in range(white + 1):
            if state.queue:
                faces.append(state.queue[0])
                state.queue = state.queue[1:]
            else:
                faces.append(FACES[state.chance.below(6)])
        info = _roll_of_faces(faces[:-1], faces[-1])
    else:
        info = _ROLL_OF_DRAW[white][state.chance.below(_DRAW[white])]
    _set_roll(state, info)
    return info


def _resolve(state: NamasteState, events: list[Event] | None) -> None:
    """All decisions of the roll are in: make the entries at once and score completions, appending the
    events to ``events`` (None: make none, as :meth:`NamasteGame.advance` wants)."""
    info = state.roll
    assert info is not None
    pending = state.pending
    if events is not None:
        entries: dict[str, JSONValue] = {}
        for s in state.asked:
            action = pending[s]
            entries[_SEAT_TEXT[s]] = (
                WRITE_TEXT[action.value][action.cell]
                if isinstance(action, _WRITE)
                else "karma"
                if isinstance(action, _KARMA)
                else "pass"
            )
        events.append(entries_event(info.text, entries))
    completed: list[tuple[Seat, int]] | None = None  # made by the first completion (rare)
    codes, fits = state.entries, state.fits
    for s, action in pending.items():  # in the order of the decisions: the state does not depend on it
        if isinstance(action, _WRITE):
            place, keep, row_gate, column_gate = _WRITE_EFFECT[action.cell][action.value]
            codes[s] |= place
            fits[s] = left = fits[s] & keep
            if not left & row_gate or not left & column_gate:
                # A line may be complete or the sheet full (see _WRITE_EFFECT): the plain reading of
                # the filled circles (those not in field 0 of the fits).
                mine = ~left & _FULL
                row_line, row_mask, column_line, column_mask = _CELL_LINES[action.cell]
                if completed is None:
                    completed = []
                if mine & row_mask == row_mask:
                    completed.append((s, row_line))
                if mine & column_mask == column_mask:
                    completed.append((s, column_line))
                if mine == _FULL:
                    state.finished |= 1 << s
        elif isinstance(action, _KARMA):
            state.karma[s] = karma = (*state.karma[s], 1 if info.turquoise == WILD else info.turquoise)
            if len(karma) >= KARMA_SPACES:
                state.finished |= 1 << s
    if completed:
        if events is not None:
            completed.sort()  # the line events in seat order, each seat's row before its column
        claimed = list(state.claimed)
        for s, line in completed:
            pink = codes[s] >> _BYTE_SHIFT[PINK[line]] & 255
            first = not state.claimed[line]
            points = pink if first else half_up(pink)
            row = list(state.line_points[s])
            row[line] = points
            state.line_points[s] = tuple(row)
            claimed[line] = True
            if events is not None:
                events.append(line_event(s, LINE_NAMES[line], points, first))
        state.claimed = tuple(claimed)
    pending.clear()  # nothing else holds the dict (a clone copies it, a view reads it)
    state.roll = None
    state.turns += 1
    finished = state.finished
    if finished and not state.ending:
        state.ending = True
        if events is not None:
            events.append(end_triggered_event((finished & -finished).bit_length() - 1))  # the lowest seat
    state.active = active = (state.active + 1) % state.players
    if state.ending and active == state.starter:
        state.waiting = 0  # the phase is over
        if events is not None:
            events.append(game_over_event(_all_points(state)))
    else:
        state.waiting = 1 << active  # the active seat chooses its dice


# -------------------------------------------------------------------------------------------- game
REFUSALS: Final = (
    CORE
    | ENTRY_REFUSALS
    | NOTATION_REFUSALS
    | Texts(
        {
            "refusal.namaste.roll_first": "{action}: first choose how many white dice to roll (roll 1-3)",
            "refusal.namaste.roll_count": "roll 1, 2 or 3 white dice, not {white}",
            "refusal.namaste.rolled": "the dice are already rolled: write a value, take bad karma or pass",
            "refusal.namaste.dice_all": "the dice give {allowed} for you (all rolled dice), not {value}",
            "refusal.namaste.dice_white": "the dice give {allowed} for you (white dice only), not {value}",
            "refusal.namaste.or": "{first} or {then}",
            "refusal.namaste.no_circle": "no circle {cell}",
            "refusal.namaste.karma_roller_only": "only the player who rolled takes bad karma; you may pass",
            "refusal.namaste.karma_full": "all four bad-karma spaces are filled",
            "refusal.namaste.write_or_karma": "the player who rolled must write the sum or take bad karma",
            "refusal.namaste.must_write": (
                "the player who rolled must write the sum when a bad-karma space is not free"
            ),
        }
    )
)
"""Why the rules refuse an action (:mod:`coven.core.refusals`): actions and circles as the notation writes
them, ``allowed`` the totals the dice give (``refusal.namaste.or`` nested in itself)."""


class NamasteGame(Game[NamasteState, Action, NamasteView]):
    spec = GameSpec(
        id="namaste",
        title="Namaste",
        summary="Roll and write: fill the diamond in ascending order, complete lines first, mind your karma.",
        min_players=2,
        max_players=4,
        options=(),
        hidden_information=False,
        optional_actors=False,
        simultaneous=True,
        rules_file="rules.md",
    )
    action_classes = (Roll, Write, Karma, Pass)
    view_class = NamasteView
    refusals = REFUSALS

    # ------------------------------------------------------------------------------------ setup
    def new_game(
        self, players: object, options: Mapping[str, object] | None = None, seed: object = 0
    ) -> NamasteState:
        """As :meth:`Game.new_game`; without options (Namaste has none), none are resolved or checked."""
        if options is None and type(players) is int and 2 <= players <= 4 and type(seed) is int:
            return self.setup(players, {}, seed)
        # ``players`` and ``seed`` are ``object``: compiled, a method refuses an argument of another type
        # than it declares with a TypeError; a count or a seed that is no whole number gets an
        # InvalidOptionError (a numpy integer seed is taken: check_seed)
        self.spec.check_players(players)
        assert isinstance(players, int)
        return super().new_game(players, options, check_seed(seed))

    def setup(self, players: int, options: Options, seed: int) -> NamasteState:
        return NamasteState(
            players=players,
            options=dict(options),
            entries=[0] * players,
            karma=[()] * players,
            line_points=[_NO_LINES] * players,
            claimed=(False,) * len(LINES),
            starter=0,
            active=0,
            pending={},
            turns=0,
            ending=False,
            chance=Chance(seed),
            queue=(),
            fits=[_EMPTY_FITS] * players,
            roll=None,
            waiting=1,
            finished=0,
        )

    def bounds(self, players: int, options: Options) -> Bounds:
        # Each active turn fills a circle or a bad-karma space, so by a player's 28th turn one of the
        # end conditions holds: at most 28 rounds of (1 roll + up to `players` decisions) per seat.
        # Scores: at worst four bad-karma spaces of 6; at best (loosely) every pink and truth circle 28.
        return Bounds(
            max_decisions=28 * players * (1 + players),
            min_score=-6 * KARMA_SPACES,
            max_score=float(len(LINES) * MAX_VALUE + 2 * MAX_VALUE + 2 * half_up(MAX_VALUE)),
        )

    def num_players(self, state: NamasteState) -> int:
        return state.players

    def options(self, state: NamasteState) -> Options:
        return state.options

    def clone(self, state: NamasteState) -> NamasteState:
        # the constructor (compiled: its own __init__) fills the fields; the copy starts without views
        return NamasteState(
            state.players,
            state.options,
            state.entries[:],
            state.karma[:],
            state.line_points[:],
            state.claimed,
            state.starter,
            state.active,
            state.pending.copy(),
            state.turns,
            state.ending,
            state.chance.copy(),
            state.queue,
            state.fits[:],
            state.roll,
            state.waiting,
            state.finished,
        )

    # -------------------------------------------------------------------------------- positions
    def write_position(self, state: NamasteState) -> str:
        """The whole state as one line (:mod:`coven.games.namaste.notation` describes the text)."""
        seats = []
        for s in range(state.players):
            points = tuple(state.line_points[s][k] for k in range(len(LINES)) if _complete(state, s, k))
            seats.append(SeatPosition(state.sheet(s), state.karma[s], points))
        return format_position(
            Position(
                players=state.players,
                starter=state.starter,
                active=state.active,
                rolls=state.turns,
                phase=state.phase,
                white=state.white,
                turquoise=state.turquoise,
                decided=tuple(sorted(state.pending.items(), key=lambda item: item[0])),
                ending=state.ending,
                claimed=tuple(k for k in range(len(LINES)) if state.claimed[k]),
                chance=state.chance.to_text(),
                queue=state.queue,
                seats=tuple(seats),
            )
        )

    def read_position(self, text: object) -> NamasteState:
        """The state a :meth:`write_position` text describes (or one written by hand); NotationError
        for text that is not a position or a position no game could reach."""
        p = parse_position(text)
        for name, who in (("starter", p.starter), ("active seat", p.active)):
            if not 0 <= who < p.players:
                raise NotationError(f"the {name} is a seat 0-{p.players - 1}, not {who}")
        try:
            chance = Chance.from_text(p.chance)
        except ValueError as exc:
            raise NotationError(str(exc)) from None
        if p.rolls > self.bounds(p.players, {}).max_decisions:
            raise NotationError(f"{p.rolls} rolls is more than any game lasts")
        claimed = [k in p.claimed for k in range(len(LINES))]
        line_points: list[list[int]] = []
        for s, seat in enumerate(p.seats):
            problem = sheet_problem(seat.sheet)
            if problem is not None:
                raise NotationError(f"seat {s}: rows and columns increase: {problem}")
            if len(seat.karma) > KARMA_SPACES or any(not 1 <= k <= 6 for k in seat.karma):
                raise NotationError(
                    f"seat {s}: up to {KARMA_SPACES} bad-karma values of 1-6, not {seat.karma}"
                )
            complete = [k for k in range(len(LINES)) if all(seat.sheet[c] for c in LINES[k])]
            if len(complete) != len(seat.line_points):
                raise NotationError(
                    f"seat {s}: the sheet completes {len(complete)} lines; {len(seat.line_points)} given"
                )
            points = [0] * len(LINES)
            for k, given in zip(complete, seat.line_points, strict=True):
                pink = seat.sheet[PINK[k]]
                if given not in (pink, half_up(pink)):
                    raise NotationError(
                        f"seat {s}: {LINE_NAMES[k]} scores {pink} or {half_up(pink)}, not {given}"
                    )
                if not claimed[k]:
                    raise NotationError(f"seat {s} completed {LINE_NAMES[k]}, so it is claimed")
                points[k] = given
            line_points.append(points)
        return assemble(
            p.players,
            {},
            [seat.sheet for seat in p.seats],
            [seat.karma for seat in p.seats],
            line_points,
            claimed,
            starter=p.starter,
            active=p.active,
            phase=p.phase,
            dice=(p.white, p.turquoise) if p.phase == DECIDE else None,
            pending=dict(p.decided),
            turns=p.rolls,
            ending=p.ending,
            chance=chance,
            queue=p.queue,
        )

    def position(
        self,
        sheets: Sequence[str],
        karma: Sequence[Sequence[int]] = (),
        claimed: Sequence[str] = (),
        active: Seat = 0,
        dice: str = "",
        seed: object = 0,
    ) -> NamasteState:
        """A state from notation, for tests and puzzles: one sheet per seat (see
        :func:`coven.games.namaste.sheet.parse_sheet`), bad karma per seat, the names of lines already
        completed by somebody before the lines complete in
        ``sheets`` (``"row b"``, ``"column 4"``), the active seat and, if given, the current
        roll (``"1/7 2 + 4"``; the seats to decide are then asked as after a real roll)."""
        self.spec.check_players(len(sheets))
        parsed = [parse_sheet(text) for text in sheets]
        flags = [False] * len(LINES)
        for name in claimed:
            if name not in LINE_NAMES:
                raise NotationError(f"no line {name!r}; lines are {', '.join(LINE_NAMES)}")
            flags[LINE_NAMES.index(name)] = True
        points = [[0] * len(LINES) for _ in parsed]
        done = set()
        for s, sheet in enumerate(parsed):
            for k in range(len(LINES)):
                if all(sheet[c] for c in LINES[k]):
                    pink = sheet[PINK[k]]
                    points[s][k] = half_up(pink) if flags[k] else pink
                    done.add(k)
        for k in done:
            flags[k] = True
        return assemble(
            len(sheets),
            {},
            parsed,
            [tuple(k) for k in karma] or [() for _ in sheets],
            points,
            flags,
            active=active,
            phase=DECIDE if dice else CHOOSE,
            dice=parse_dice(dice) if dice else None,
            chance=Chance(check_seed(seed)),
        )

    # ------------------------------------------------------------------------------------ turns
    def to_act(self, state: NamasteState) -> frozenset[Seat]:
        return _SEATS[state.waiting]

    def first_to_act(self, state: NamasteState) -> Seat | None:
        return _FIRST[state.waiting]

    def is_over(self, state: NamasteState) -> bool:
        return state.phase == OVER

    def totals(self, state: NamasteState, seat: Seat) -> tuple[int, ...]:
        """The sums ``seat`` may write on the current roll."""
        if state.roll is None:
            return sums(())
        return state.roll.mine if seat == state.active else state.roll.fellow

    def legal_actions(self, state: NamasteState, seat: Seat) -> Sequence[Action]:
        if not 0 <= seat < state.players:  # (compared here: the call only where it refuses)
            check_seat(seat, state.players, spectator=False)
        info = state.roll
        if info is None:  # the active seat rolls, unless the game is over
            return _ROLLS if seat == state.active and state.waiting else ()
        if seat < 0 or not state.waiting >> seat & 1:  # not waited for (the bit of no seat is 0)
            return ()
        if seat == state.active:
            if len(state.karma[seat]) < KARMA_SPACES:
                one = info.mine_one
                tail = _KARMA_TAIL
            else:  # no bad-karma space left (rare): the general reading below, with no tail
                one = None
                tail = ()
        else:
            one = info.fellow_one
            tail = _PASS_TAIL
        fits = state.fits[seat]
        if one is not None:  # one total (no 1/7 die among the dice that count): the common case
            # The writes of each chunk are shared tuples, the last chunk's followed by the tail (alone
            # when no circle takes the total): a tuple added to an empty one is returned as it is, so
            # a seat whose circles for the total lie in one chunk gets a shared tuple, built once.
            m = fits >> one.shift & _CELLS_MASK
            return one.first[m & 511] + one.second[m >> 9 & 255] + one.third[m >> 17]
        values = info.mine if seat == state.active else info.fellow
        if len(values) == 2:
            # Two totals six apart: five circles at a time, circle by circle and then by value.
            above = fits >> (NCELLS * values[0])  # the field of the lower total first
            a = above & _CELLS_MASK
            b = above >> _PAIR_SHIFT & _CELLS_MASK  # the higher total's field, six fields up
            if a | b:
                row = _PAIR_ROWS[values[0]]
                p0, p1, p2, p3, p4 = _PAIR_PICKS
                return [
                    *p0[a & 31][b & 31](row),
                    *p1[a >> 5 & 31][b >> 5 & 31](row),
                    *p2[a >> 10 & 31][b >> 10 & 31](row),
                    *p3[a >> 15 & 31][b >> 15 & 31](row),
                    *p4[a >> 20][b >> 20](row),
                    *tail,
                ]
        else:
            # Three totals or four (several 1/7 dice): each total's writes from the chunk tables, then a
            # stable sort by circle puts them circle by circle, and by value within a circle.
            out: list[Action] = []
            for v in values:
                m = fits >> (NCELLS * v) & _CELLS_MASK
                if m:
                    chunk = _CHUNKS[v]
                    out += [*chunk[0][m & 511], *chunk[1][m >> 9 & 255], *chunk[2][m >> 17]]
            if out:
                out.sort(key=_CELL_OF)
                out += tail
                return out
        # No circle for any total: a fellow passes, the player who rolled takes bad karma (or passes
        # when no space is left).
        return _KARMA_TAIL if tail is _KARMA_TAIL else _PASS_TAIL

    def illegal_reason(self, state: NamasteState, seat: Seat, action: Action) -> str | None:
        if state.phase == CHOOSE:
            if not isinstance(action, Roll):
                return REFUSALS("refusal.namaste.roll_first", action=self.format_action(action))
            if not 1 <= action.white <= 3:
                return REFUSALS("refusal.namaste.roll_count", white=action.white)
            return None
        if isinstance(action, Roll):
            return REFUSALS("refusal.namaste.rolled")
        if isinstance(action, Write):
            values = self.totals(state, seat)
            if action.value not in values:
                key = "refusal.namaste.dice_all" if seat == state.active else "refusal.namaste.dice_white"
                return REFUSALS(key, allowed=_either(values), value=action.value)
            if not 0 <= action.cell < NCELLS:
                return REFUSALS("refusal.namaste.no_circle", cell=action.cell)
            return entry_problem(state.sheet(seat), action.value, action.cell)
        if isinstance(action, Karma):
            if seat != state.active:
                return REFUSALS("refusal.namaste.karma_roller_only")
            if len(state.karma[seat]) >= KARMA_SPACES:
                return REFUSALS("refusal.namaste.karma_full")
            return None
        if seat == state.active and len(state.karma[seat]) < KARMA_SPACES:
            return REFUSALS("refusal.namaste.write_or_karma")
        if seat == state.active and self._can_write(state, seat):
            return REFUSALS("refusal.namaste.must_write")
        return None

    def _can_write(self, state: NamasteState, seat: Seat) -> bool:
        info = state.roll
        if info is None:
            return False
        return bool(state.fits[seat] & (info.mine_fields if seat == state.active else info.fellow_fields))

    def apply_unchecked(self, state: NamasteState, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Write):
            decided = DECIDED_WRITE[seat][action.value][action.cell]
        elif isinstance(action, Roll):
            return [_roll_event(state, _roll(state, action.white))]
        else:
            decided = DECIDED_KARMA[seat] if isinstance(action, Karma) else DECIDED_PASS[seat]
        state.pending[seat] = action
        state.waiting = waiting = state.waiting & _NOT_SEAT[seat]
        if waiting:
            return [decided, WAITING[seat][waiting]]
        events = [decided]
        _resolve(state, events)
        return events

    def advance(self, state: NamasteState, seat: Seat, action: Action) -> None:
        """:meth:`apply_unchecked` without its events (the same steps: :func:`_roll`, :func:`_resolve`)."""
        if state.roll is None:  # no dice on the table: the (legal) action is a roll
            white: int = action.white  # type: ignore[union-attr]
            if state.queue:
                _roll(state, white)
                return
            # _roll's common case and _set_roll, inlined: ask the active seat and every fellow who can
            # write the white dice's total
            state.roll = info = _ROLL_OF_DRAW[white][state.chance.below(_DRAW[white])]
            fellow = info.fellow_fields
            fits = state.fits
            active = state.active
            waiting = 1 << active
            for s, bit in _FELLOWS[state.players][active]:
                if fits[s] & fellow:
                    waiting |= bit
            state.waiting = waiting
            return
        state.pending[seat] = action
        state.waiting = waiting = state.waiting & _NOT_SEAT[seat]
        if not waiting:
            _resolve(state, None)

    # ------------------------------------------------------------------------------ information
    def view(self, state: NamasteState, seat: Seat | None) -> NamasteView:
        if seat is not None and not 0 <= seat < state.players:
            check_seat(seat, state.players)
        return view_of(state, seat)

    def view_to_json(self, view: NamasteView) -> JSONValue:
        return view_json(view)

    # ---------------------------------------------------------------------------------- outcome
    def scores(self, state: NamasteState) -> tuple[float, ...]:
        return tuple(float(score_points(state, s)) for s in range(state.players))

    def winners(self, state: NamasteState) -> frozenset[Seat]:
        scores = self.scores(state)
        best = max(scores)
        tied = [s for s in range(state.players) if scores[s] == best]
        fewest = min(len(state.karma[s]) for s in tied)
        return frozenset(s for s in tied if len(state.karma[s]) == fewest)

    # --------------------------------------------------------------------------------- notation
    def format_action(self, action: Action) -> str:
        return format_action(action)

    def parse_action(self, text: object) -> Action:
        # ``object``, as the notation reads it: compiled (see setup.py), a method refuses an argument of
        # another type than it declares with a TypeError, and what is no text must get a NotationError
        return parse_action(text)

    def action_from_json(self, raw: object) -> Action:
        """The action a JSON value describes, held to the notation (a Write of 99 is no action)."""
        return through_notation(super().action_from_json(raw), self.format_action, self.parse_action)


def _complete(state: NamasteState, seat: Seat, line: int) -> bool:
    return not state.fits[seat] & _LINE_MASK[line]  # no empty circle (field 0) in the line


def _either(values: Sequence[int]) -> Param:
    """``5``, ``5 or 11``, ``5 or 11 or 17``: a message nested in itself, said in each language."""
    if len(values) < 2:
        return "".join(str(v) for v in values)
    return REFUSALS("refusal.namaste.or", first=values[0], then=_either(values[1:]))


RULES: Final = NamasteGame()
"""The bare rules (no bots, no text): checks inside the package, worlds on copies."""
