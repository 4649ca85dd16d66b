"""The Namaste score sheet as data: 25 circles in a diamond, lines, pink and truth circles, notation.

Geometry (rulings): a circle (r, c), rows and columns 1-7, exists where |r-4| + |c-4| <= 3. Rows are
named ``a`` (top) to ``g`` (bottom), columns ``1`` (left) to ``7`` (right), so the centre is ``d4``,
the truth circles are ``a4`` (top), ``d1`` (left), ``g4`` (bottom) and ``d7`` (right), and the pink
circles are ``b4 c4 d4 e4 f4`` and ``d2 d3 d4 d5 d6``.

Cells are numbered 0-24 in reading order (row by row, left to right). A sheet is a tuple of 25 ints,
0 for an empty circle. Its text form lists the rows top to bottom separated by ``/``, the circles of a
row separated by spaces, ``.`` for an empty circle::

    4 / . 8 . / . . . . . / . . . 14 . . . / . . . . . / . . . / .
"""

from __future__ import annotations

import re
from typing import Final

from coven.core import NotationError
from coven.core.errors import short_repr
from coven.core.texts import Message, Texts

ROW_NAMES: Final = "abcdefg"
ROW_LENGTHS: Final[tuple[int, ...]] = (1, 3, 5, 7, 5, 3, 1)

CELLS: Final[tuple[tuple[int, int], ...]] = tuple(
    (r, c) for r in range(1, 8) for c in range(1, 8) if abs(r - 4) + abs(c - 4) <= 3
)
"""(row, column) of each cell index, rows and columns 1-7."""
NCELLS: Final = 25
"""The number of circles (a literal, so that compiled code folds it into its arithmetic)."""
assert len(CELLS) == NCELLS
INDEX: Final[dict[tuple[int, int], int]] = {rc: i for i, rc in enumerate(CELLS)}
CELL_NAMES: Final[tuple[str, ...]] = tuple(f"{ROW_NAMES[r - 1]}{c}" for r, c in CELLS)
CELL_BY_NAME: Final[dict[str, int]] = {name: i for i, name in enumerate(CELL_NAMES)}

ROWS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(INDEX[(r, c)] for c in range(1, 8) if (r, c) in INDEX) for r in range(1, 8)
)
COLS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(INDEX[(r, c)] for r in range(1, 8) if (r, c) in INDEX) for c in range(1, 8)
)

LEFT: Final[tuple[tuple[int, ...], ...]] = tuple(
    ROWS[r - 1][: ROWS[r - 1].index(i)] for i, (r, _) in enumerate(CELLS)
)
RIGHT: Final[tuple[tuple[int, ...], ...]] = tuple(
    ROWS[r - 1][ROWS[r - 1].index(i) + 1 :] for i, (r, _) in enumerate(CELLS)
)
ABOVE: Final[tuple[tuple[int, ...], ...]] = tuple(
    COLS[c - 1][: COLS[c - 1].index(i)] for i, (_, c) in enumerate(CELLS)
)
BELOW: Final[tuple[tuple[int, ...], ...]] = tuple(
    COLS[c - 1][COLS[c - 1].index(i) + 1 :] for i, (_, c) in enumerate(CELLS)
)
NEAR_BEFORE: Final[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]] = tuple(
    (LEFT[i][::-1], ABOVE[i][::-1]) for i in range(NCELLS)
)
"""For each cell, the other cells of its row (left/right) and column (above/below), nearest last/first."""

# The ten symbol lines: rows b-f (index 0-4), then columns 2-6 (index 5-9).
LINES: Final[tuple[tuple[int, ...], ...]] = tuple(ROWS[1:6]) + tuple(COLS[1:6])
LINE_NAMES: Final[tuple[str, ...]] = tuple(f"row {ROW_NAMES[r]}" for r in range(1, 6)) + tuple(
    f"column {c}" for c in range(2, 7)
)
PINK: Final[tuple[int, ...]] = tuple(INDEX[(r, 4)] for r in range(2, 7)) + tuple(
    INDEX[(4, c)] for c in range(2, 7)
)
"""The pink circle of each symbol line (the centre d4 is the pink circle of row d and column 4)."""
PINK_CELLS: Final = frozenset(PINK)
LINES_OF_CELL: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(k for k, line in enumerate(LINES) if i in line) for i in range(NCELLS)
)

TOP: Final = INDEX[(1, 4)]
LEFT_TIP: Final = INDEX[(4, 1)]
BOTTOM: Final = INDEX[(7, 4)]
RIGHT_TIP: Final = INDEX[(4, 7)]
TRUTH_FULL: Final[tuple[int, ...]] = (TOP, LEFT_TIP)
TRUTH_HALF: Final[tuple[int, ...]] = (BOTTOM, RIGHT_TIP)
TRUTH_CELLS: Final = frozenset(TRUTH_FULL + TRUTH_HALF)

MAX_VALUE: Final = 28
"""Four dice showing 7 each."""
KARMA_SPACES: Final = 4
_VALUE: Final = re.compile(r"[0-9]{1,4}")
"""A value in a circle: a few ASCII digits (``str.isdigit()`` takes "²", which ``int()`` refuses)."""


def half_up(n: int) -> int:
    """Half, rounded up (7 -> 4)."""
    return (n + 1) // 2


def truth_points(sheet: tuple[int, ...] | list[int]) -> int:
    """Top and left truth circles in full, bottom and right half rounded up."""
    return sheet[TOP] + sheet[LEFT_TIP] + half_up(sheet[BOTTOM]) + half_up(sheet[RIGHT_TIP])


def line_complete(sheet: tuple[int, ...] | list[int], line: int) -> bool:
    return all(sheet[i] for i in LINES[line])


def parse_cell(text: str) -> int:
    cell = CELL_BY_NAME.get(text.strip().lower())
    if cell is None:
        raise NotationError(NOTATION_REFUSALS("refusal.namaste.notation.cell", text=short_repr(text)))
    return cell


def format_sheet(sheet: tuple[int, ...] | list[int]) -> str:
    return " / ".join(" ".join(str(sheet[i]) if sheet[i] else "." for i in row) for row in ROWS)


def parse_sheet(text: str) -> tuple[int, ...]:
    """The inverse of :func:`format_sheet` (spacing is free)."""
    rows = text.split("/")
    if len(rows) != len(ROWS):
        raise NotationError(f"a sheet has 7 rows separated by '/', not {len(rows)}")
    sheet = [0] * NCELLS
    for r, (row_text, row) in enumerate(zip(rows, ROWS, strict=True)):
        items = row_text.split()
        if len(items) != len(row):
            raise NotationError(
                f"row {ROW_NAMES[r]} has {len(row)} circles, not {len(items)}: {short_repr(row_text)}"
            )
        for item, cell in zip(items, row, strict=True):
            if item == ".":
                continue
            if not _VALUE.fullmatch(item) or not 1 <= int(item) <= MAX_VALUE:
                raise NotationError(f"a circle holds 1-{MAX_VALUE} or '.', not {short_repr(item)}")
            sheet[cell] = int(item)
    return tuple(sheet)


NOTATION_REFUSALS: Final = Texts(
    {
        "refusal.namaste.notation.cell": (
            "no circle {text}: circles are a4, b3-b5, c2-c6, d1-d7, e2-e6, f3-f5, g4"
        ),
        "refusal.namaste.notation.roll": "roll 1, 2 or 3 white dice, not {text}",
        "refusal.namaste.notation.value": "a value is 1-{max}, not {value}",
        "refusal.namaste.notation.digits": "a value is 1-{max}, written in the digits 0-9, not {text}",
        "refusal.namaste.notation.unknown": (
            "not a Namaste action: {text} (try 'roll 2', '14@c3', 'karma', 'pass')"
        ),
    }
)
"""Why a move's notation cannot be read (``text``: what was typed, quoted)."""


ENTRY_REFUSALS: Final = Texts(
    {
        "refusal.namaste.taken": "{cell} already holds {held}",
        "refusal.namaste.left": (
            "{value} in {cell} must be greater than the {held} in {other} to its left "
            "(row {row} increases left to right)"
        ),
        "refusal.namaste.right": (
            "{value} in {cell} must be less than the {held} in {other} to its right "
            "(row {row} increases left to right)"
        ),
        "refusal.namaste.above": (
            "{value} in {cell} must be greater than the {held} in {other} above it "
            "(column {column} increases top to bottom)"
        ),
        "refusal.namaste.below": (
            "{value} in {cell} must be less than the {held} in {other} below it "
            "(column {column} increases top to bottom)"
        ),
    }
)
"""Why a number cannot be written in a circle (:mod:`coven.core.refusals`): circles, rows and columns as
the notation names them (``c3``, row ``c``, column ``3``), ``held`` the number already written."""


_SIDES: Final[tuple[tuple[str, tuple[tuple[int, ...], ...], bool, bool], ...]] = (
    ("refusal.namaste.left", LEFT, True, True),
    ("refusal.namaste.right", RIGHT, False, True),
    ("refusal.namaste.above", ABOVE, True, False),
    ("refusal.namaste.below", BELOW, False, False),
)
"""A cell's neighbours on each side, checked in this order: the refusal that names a clash there, the
neighbours on that side by index, whether they come before the cell on their line (they must hold less)
or after it (more), and whether that line is the cell's row (else its column)."""


def entry_problem(sheet: tuple[int, ...] | list[int], value: int, cell: int) -> Message | None:
    """Why ``value`` cannot go in ``cell`` of ``sheet`` (the first neighbour it clashes with), or None."""
    name = CELL_NAMES[cell]
    if sheet[cell]:
        return ENTRY_REFUSALS("refusal.namaste.taken", cell=name, held=sheet[cell])
    for key, side, before, in_row in _SIDES:
        for other in side[cell]:
            held = sheet[other]
            if held and (held >= value if before else held <= value):
                line = {"row": name[0]} if in_row else {"column": name[1]}
                return ENTRY_REFUSALS(key, value=value, cell=name, held=held, other=CELL_NAMES[other], **line)
    return None


def bounds_of(sheet: tuple[int, ...] | list[int], cell: int) -> tuple[int, int]:
    """The open interval (lo, hi) a value in empty ``cell`` must lie in: lo < value < hi.

    Lines increase, so the nearest filled neighbour on each side is the binding one.
    """
    lo = 0
    for other in NEAR_BEFORE[cell][0]:
        if sheet[other]:
            lo = sheet[other]
            break
    for other in NEAR_BEFORE[cell][1]:
        if sheet[other]:
            lo = max(lo, sheet[other])
            break
    hi = MAX_VALUE + 1
    for other in RIGHT[cell]:
        if sheet[other]:
            hi = sheet[other]
            break
    for other in BELOW[cell]:
        if sheet[other]:
            hi = min(hi, sheet[other])
            break
    return lo, hi


def legal_cells(sheet: tuple[int, ...] | list[int], value: int) -> list[int]:
    """The empty cells that may take ``value``."""
    out = []
    for cell in range(NCELLS):
        if not sheet[cell]:
            lo, hi = bounds_of(sheet, cell)
            if lo < value < hi:
                out.append(cell)
    return out
