"""The Holy Circle of The 3 Commandments: twelve areas, their adjacency, and the fifteen artefacts.

Rulings (shared/rules/README.md): centre C; hexagons H1-H5 touch C; triangles T1-T5; outer ring R.
Adjacency: C-Hi, Hi-H(i+1), Ti-Hi, Ti-H(i+1), R-Hi, R-Ti (indices mod 5); triangles never touch C or
each other. Everything here is data built once at import.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

Area = int
"""An area of the Holy Circle, 0-11 (see :data:`AREA_NAMES`); 12 (``X``) is outside the circle."""

Artefact = int
"""One of the fifteen distinct artefacts, 0-14 (see :data:`ARTEFACT_NAMES`)."""

CENTRE: Final = 0
RING: Final = 11
OUTSIDE: Final = 12
"""Only in a path: the artefact was carried out of the Holy Circle."""

AREA_NAMES: Final[tuple[str, ...]] = (
    "C",
    "H1",
    "H2",
    "H3",
    "H4",
    "H5",
    "T1",
    "T2",
    "T3",
    "T4",
    "T5",
    "R",
)
PATH_NAMES: Final[tuple[str, ...]] = (*AREA_NAMES, "X")
AREA_INDEX: Final[dict[str, int]] = {n: i for i, n in enumerate(PATH_NAMES)}
NUM_AREAS: Final = 12

KINDS: Final[tuple[str, ...]] = ("centre", "hexagon", "triangle", "ring")
KIND_OF: Final[tuple[str, ...]] = ("centre",) + ("hexagon",) * 5 + ("triangle",) * 5 + ("ring",)


def _hexagon(i: int) -> int:
    return 1 + i % 5


def _triangle(i: int) -> int:
    return 6 + i % 5


def _edges() -> frozenset[tuple[int, int]]:
    edges: set[tuple[int, int]] = set()
    for i in range(5):
        edges.add((CENTRE, _hexagon(i)))
        edges.add((_hexagon(i), _hexagon(i + 1)))
        edges.add((_triangle(i), _hexagon(i)))
        edges.add((_triangle(i), _hexagon(i + 1)))
        edges.add((RING, _hexagon(i)))
        edges.add((RING, _triangle(i)))
    return frozenset(edges | {(b, a) for a, b in edges})


EDGES: Final = _edges()
ADJACENT: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple((a, b) in EDGES for b in range(NUM_AREAS)) for a in range(NUM_AREAS)
)
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(b for b in range(NUM_AREAS) if ADJACENT[a][b]) for a in range(NUM_AREAS)
)

COLOURS: Final[tuple[str, ...]] = ("white", "black", "brown")
COLOUR_CODES: Final[tuple[str, ...]] = ("wh", "bk", "br")
COLOUR_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(COLOURS)}
NUM_ARTEFACTS: Final = 15
ARTEFACT_NAMES: Final[tuple[str, ...]] = tuple(f"{code}{k}" for code in COLOUR_CODES for k in range(1, 6))
ARTEFACT_INDEX: Final[dict[str, int]] = {n: i for i, n in enumerate(ARTEFACT_NAMES)}
COLOUR_OF: Final[tuple[int, ...]] = tuple(i // 5 for i in range(NUM_ARTEFACTS))


def area_name(area: int) -> str:
    return PATH_NAMES[area]


def parse_area(text: str, *, outside: bool = False) -> int | None:
    """The area named ``text`` (case-insensitive), or None; ``X`` only when ``outside``."""
    index = AREA_INDEX.get(text.strip().upper())
    if index is None or (index == OUTSIDE and not outside):
        return None
    return index


def parse_artefact(text: str) -> int | None:
    return ARTEFACT_INDEX.get(text.strip().lower())


Counts = tuple[tuple[int, int, int], ...]
"""Per area (12), the number of white, black and brown artefacts."""


def counts_of(board: Sequence[int]) -> list[list[int]]:
    """Per area, the artefacts of each colour; ``board[a]`` is the area of artefact ``a``."""
    table = [[0, 0, 0] for _ in range(NUM_AREAS)]
    for artefact, area in enumerate(board):
        table[area][COLOUR_OF[artefact]] += 1
    return table


Codes = bytearray
"""Per area (12), its artefacts as one number, its *code*: ``white + 6 * black + 36 * brown`` (each
colour has five artefacts, so a code is below 216 and an area is one byte). The rules' hot path and the
board cards' compiled functions read the board this way (:data:`CODE_TOTAL`, :data:`CODE_COLOURS`,
:data:`CODE_COUNT`): a move changes two bytes, by :data:`CODE_STEP` of its colour (in place, in the
rules' state, which owns its codes: a clone copies them)."""
CODE_STEP: Final[tuple[int, ...]] = (1, 6, 36)
"""What one artefact of each colour adds to an area's code."""
NUM_CODES: Final = 216
CODE_ROWS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (code % 6, code // 6 % 6, code // 36) for code in range(NUM_CODES)
)
"""The white, black and brown artefacts of each code."""
CODE_TOTAL: Final = bytes(sum(row) for row in CODE_ROWS)
CODE_COLOURS: Final = bytes(sum(1 for n in row if n) for row in CODE_ROWS)
CODE_COUNT: Final[tuple[bytes, ...]] = tuple(bytes(row[c] for row in CODE_ROWS) for c in range(3))
"""Per colour, the artefacts of that colour of each code."""


def codes_of(board: Sequence[int]) -> Codes:
    """Per area, the code of its artefacts (see :data:`Codes`); ``board[a]`` is the area of artefact ``a``."""
    codes = bytearray(NUM_AREAS)
    for artefact, area in enumerate(board):
        codes[area] += CODE_STEP[COLOUR_OF[artefact]]
    return codes


def rows_of(codes: Sequence[int]) -> list[tuple[int, int, int]]:
    """The :func:`counts_of` rows of each area of a :data:`Codes` board."""
    return [CODE_ROWS[code] for code in codes]
