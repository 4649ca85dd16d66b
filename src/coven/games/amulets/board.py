"""The altar, the amulets, the spirits' answers and the notation of Amulets.

Rulebook 004 ("Asking the spirits", "The spirits' answers") with the project's rulings: the answer is
the first true condition of ``*`` (my amulet is on my field), ``o`` (another amulet is on my field),
``+`` (my amulet is in my field's row or column: same letter or same number), ``-`` (none of these).

Encoding, built once at import:

- a *field* is ``0 .. 24``: letter ``A-E`` is ``field // 5``, number ``1-5`` is ``field % 5 + 1``;
- an *amulet* is ``0 .. 4`` in the spell book's order Red, Yellow, Green, Blue, Black (``R Y G B K``);
- a *pair* (a wizard's secret: one field and one amulet) is ``amulet * 25 + field``, ``0 .. 124``, and
  a set of pairs is an int bitmask over those 125 bits;
- a *placement* is a tuple of five distinct fields, ``placement[amulet]`` being that amulet's field.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import permutations

from coven.core import JSONValue, NotationError
from coven.core.errors import short_repr
from coven.core.texts import Message, Texts

FIELDS = 25
AMULETS = 5
PAIRS = FIELDS * AMULETS
LETTERS = "ABCDE"
AMULET_CODES = "RYGBK"
FRENCH_CODES = "RJVBN"
"""The amulets' initials in French (Rouge, Jaune, Vert, Bleu, Noir), as the French page shows them: a
placement is read with either set (the two share R and B, at the same amulets, and nothing else)."""
AMULET_NAMES = ("Red", "Yellow", "Green", "Blue", "Black")

STAR, HOME, FEEL, NOTHING = "*", "o", "+", "-"
ANSWERS = (STAR, HOME, FEEL, NOTHING)
"""Answers in priority order; an answer's *code* is its index here."""
YES, NO, SILENT = "y", "n", "."
"""A spirit's check of a cast; ``.`` for the caster, the asker, or a spirit not reached."""

FULL_FIELDS = (1 << FIELDS) - 1
ALL_PAIRS = (1 << PAIRS) - 1
AMULET_PAIRS = tuple(FULL_FIELDS << (a * FIELDS) for a in range(AMULETS))
"""The pairs holding amulet ``a``."""
FIELD_PAIRS = tuple(sum(1 << (a * FIELDS + f) for a in range(AMULETS)) for f in range(FIELDS))
"""The pairs on field ``f``."""
LINE = tuple(
    sum(1 << g for g in range(FIELDS) if g != f and (g // 5 == f // 5 or g % 5 == f % 5))
    for f in range(FIELDS)
)
"""Fields sharing a letter or a number with ``f`` (``f`` itself excluded), as a 25-bit mask."""
LINE_FIELDS = tuple(tuple(g for g in range(FIELDS) if LINE[f] >> g & 1) for f in range(FIELDS))


FIELD_NAMES = tuple(f"{LETTERS[f // 5]}{f % 5 + 1}" for f in range(FIELDS))
"""``A1`` .. ``E5`` by field."""


def field_name(field: int) -> str:
    return FIELD_NAMES[field]


def home_text(field: int) -> str:
    """A wizard's secret field as its own picture says it: ``your home is B3``."""
    return f"your home is {field_name(field)}"


def amulet_text(amulet: int) -> str:
    """A wizard's secret amulet as its own picture says it: ``your amulet Red (R)``."""
    return f"your amulet {AMULET_NAMES[amulet]} ({AMULET_CODES[amulet]})"


NOTATION_REFUSALS = Texts(
    {
        "refusal.amulets.notation.field": "a field is A1 to E5, not {text}",
        "refusal.amulets.notation.placement": "a placement names the five amulets' fields, not {text}",
        "refusal.amulets.notation.amulet": "{text} is not an amulet (R Y G B K) and a field (A1-E5)",
        "refusal.amulets.notation.twice": "amulet {amulet} is placed twice in {text}",
        "refusal.amulets.notation.unknown": (
            "an action is 'ask <placement>' or 'cast <placement>', not {text}"
        ),
    }
)
"""Why a move's notation cannot be read (``text``: what was typed, quoted; ``amulet``: an amulet's code),
in the person's language (:mod:`coven.core.refusals`). A position's own texts (a researcher's tool) stay
English."""


def parse_field(text: str) -> int:
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in LETTERS or t[1] not in "12345":
        raise NotationError(NOTATION_REFUSALS("refusal.amulets.notation.field", text=short_repr(text)))
    return LETTERS.index(t[0]) * 5 + int(t[1]) - 1


def pair_name(pair: int) -> str:
    """``R@A1``: an amulet on a field."""
    return f"{AMULET_CODES[pair // FIELDS]}@{field_name(pair % FIELDS)}"


def pair_of(field: int, amulet: int) -> int:
    return amulet * FIELDS + field


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


PLACEMENT_REFUSALS = Texts(
    {
        "refusal.amulets.placement_size": "a placement puts all five amulets on the altar",
        "refusal.amulets.not_a_field": "{field} is not a field of the altar",
        "refusal.amulets.two_on_field": "two amulets on {field}: at most one amulet per field",
    }
)
"""Why a placement is none (:mod:`coven.core.refusals`); a field as the notation writes it (``C3``)."""


def placement_problem(fields: object) -> Message | None:
    """Why ``fields`` is not a placement of the five amulets on distinct fields, or None."""
    if not isinstance(fields, tuple) or len(fields) != AMULETS:
        return PLACEMENT_REFUSALS("refusal.amulets.placement_size")
    for f in fields:
        if not isinstance(f, int) or isinstance(f, bool) or not 0 <= f < FIELDS:
            return PLACEMENT_REFUSALS("refusal.amulets.not_a_field", field=short_repr(f))
    if len(set(fields)) != AMULETS:
        twice = next(f for f in fields if fields.count(f) > 1)
        return PLACEMENT_REFUSALS("refusal.amulets.two_on_field", field=field_name(twice))
    return None


def format_placement(fields: Sequence[int]) -> str:
    """``RA1 YB3 GC2 BD4 KE5``: each amulet's code and field, in amulet order."""
    r, y, g, b, k = fields
    n = FIELD_NAMES
    return f"R{n[r]} Y{n[y]} G{n[g]} B{n[b]} K{n[k]}"


def parse_placement(text: str) -> tuple[int, ...]:
    """Inverse of :func:`format_placement`; also takes five bare fields in amulet order, and the amulets'
    French initials (:data:`FRENCH_CODES`: ``RA1 JB2 VC3 BD4 NE5``, what the French page shows).

    Distinct fields are not checked here (that is a rule: see :func:`placement_problem`).
    """
    tokens = text.replace(",", " ").split()
    if len(tokens) != AMULETS:
        raise NotationError(NOTATION_REFUSALS("refusal.amulets.notation.placement", text=short_repr(text)))
    if all(len(t) == 2 for t in tokens):
        return tuple(parse_field(t) for t in tokens)
    fields: list[int | None] = [None] * AMULETS
    for token in tokens:
        t = token.upper().replace("@", "").replace(":", "").replace("=", "")
        if len(t) != 3 or (t[0] not in AMULET_CODES and t[0] not in FRENCH_CODES):
            raise NotationError(NOTATION_REFUSALS("refusal.amulets.notation.amulet", text=short_repr(token)))
        a = AMULET_CODES.index(t[0]) if t[0] in AMULET_CODES else FRENCH_CODES.index(t[0])
        if fields[a] is not None:
            raise NotationError(
                NOTATION_REFUSALS("refusal.amulets.notation.twice", amulet=t[0], text=short_repr(text))
            )
        fields[a] = parse_field(t[1:])
    return tuple(f for f in fields if f is not None)


def answer(placement: Sequence[int], field: int, amulet: int) -> str:
    """The spirit's answer (``* o + -``) to a placement, given its secret field and amulet."""
    mine = placement[amulet]
    if mine == field:
        return STAR
    if field in placement:
        return HOME
    if mine // 5 == field // 5 or mine % 5 == field % 5:
        return FEEL
    return NOTHING


def answer_masks(placement: Sequence[int]) -> tuple[int, int, int, int]:
    """For each answer (``* o + -``), the set of pairs that would give it to ``placement``."""
    occupied = 0
    for f in placement:
        occupied |= 1 << f
    star = home = feel = 0
    for a, f in enumerate(placement):
        shift = a * FIELDS
        star |= 1 << (shift + f)
        home |= occupied << shift
        feel |= (LINE[f] & ~occupied) << shift
    home &= ~star
    return star, home, feel, ALL_PAIRS & ~(star | home | feel)


def answer_codes(placement: Sequence[int]) -> list[int]:
    """``codes[pair]``: the answer code (0-3, index in :data:`ANSWERS`) of every pair."""
    codes = [3] * PAIRS
    for a, f in enumerate(placement):
        base = a * FIELDS
        for g in LINE_FIELDS[f]:
            codes[base + g] = 2
    for f in placement:
        for a in range(AMULETS):
            codes[a * FIELDS + f] = 1
    for a, f in enumerate(placement):
        codes[a * FIELDS + f] = 0
    return codes


def cast_pairs(placement: Sequence[int]) -> int:
    """The pairs a cast's placement satisfies: a spirit says yes iff its pair is among them."""
    mask = 0
    for a, f in enumerate(placement):
        mask |= 1 << (a * FIELDS + f)
    return mask


# ------------------------------------------------------------------ placements as indices
_RADICES = (25, 24, 23, 22, 21)
PLACEMENT_COUNT = 25 * 24 * 23 * 22 * 21
"""How many placements of five amulets on distinct fields exist (6,375,600)."""


def _slow_placement_at(index: int) -> tuple[int, ...]:
    """The definition of :func:`placement_at` (digits one by one), from which its tables are built."""
    digits = []
    for radix in reversed(_RADICES):
        index, digit = divmod(index, radix)
        digits.append(digit)
    free = list(range(FIELDS))
    return tuple(free.pop(d) for d in reversed(digits))


PLACEMENT_TAIL_COUNT = 23 * 22 * 21
"""Placements of the last three amulets once Red and Yellow stand (the last three digits)."""
PLACEMENT_HEADS = tuple(
    (r, y, tuple(f for f in range(FIELDS) if f not in (r, y))) for r, y in permutations(range(FIELDS), 2)
)
"""By the first two digits: Red's and Yellow's fields and the 23 fields still free, in order."""
PLACEMENT_TAILS = tuple(permutations(range(FIELDS - 2), 3))
"""By the last three digits: positions among the 23 free fields of Green's, Blue's and Black's (the
mixed radix orders placements lexicographically, as :func:`itertools.permutations` does)."""


def placement_at(index: int) -> tuple[int, ...]:
    """The ``index``-th placement (mixed radix: each digit picks among the fields still free), from
    two tables built at import (the first two digits, the last three)."""
    hi, lo = divmod(index, PLACEMENT_TAIL_COUNT)
    r, y, free = PLACEMENT_HEADS[hi]
    g, b, k = PLACEMENT_TAILS[lo]
    return (r, y, free[g], free[b], free[k])


def placement_index(fields: Sequence[int]) -> int:
    """Inverse of :func:`placement_at`."""
    free = list(range(FIELDS))
    index = 0
    for radix, f in zip(_RADICES, fields, strict=True):
        d = free.index(f)
        free.pop(d)
        index = index * radix + d
    return index


# ------------------------------------------------------------------------------ a spell-book line, said
# (here, not in the view module: that one is compiled, and mypyc cannot make a class of a Mapping)
class Spoken(Mapping[str, JSONValue]):
    """The data of the public event of a spell-book line, written out the first time someone reads it
    (the rules make one per action; playouts never read them).

    A question: ``{"seat", "placement", "answers"}``, the answers as ``[seat, answer]`` clockwise from
    the asker's left. A cast: ``{"seat", "placement", "checks", "success"}``, the checks clockwise from
    the caster's left up to the first ``n``. Equal to the plain dict it stands for; copies and pickles
    become that dict.
    """

    __slots__ = ("_data", "_line")
    _data: dict[str, JSONValue]
    """The plain dict, once written (unset before)."""

    def __init__(self, line: tuple[str, int, tuple[int, ...], str]) -> None:
        self._line = line

    def written(self) -> dict[str, JSONValue]:
        try:
            return self._data
        except AttributeError:
            kind, seat, fields, said = self._line
            n = len(said)
            order = [(seat + i) % n for i in range(1, n)]
            placement = format_placement(fields)
            data: dict[str, JSONValue]
            if kind == "ask":
                answers: list[JSONValue] = [[s, said[s]] for s in order]
                data = {"seat": seat, "placement": placement, "answers": answers}
            else:
                checks: list[JSONValue] = [[s, said[s]] for s in order if said[s] != SILENT]
                data = {
                    "seat": seat,
                    "placement": placement,
                    "checks": checks,
                    "success": NO not in said,
                }
            self._data = data
            return data

    def __getitem__(self, key: str) -> JSONValue:
        return self.written()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.written())

    def __len__(self) -> int:
        return len(self.written())

    def __repr__(self) -> str:
        return repr(self.written())

    def __reduce__(self) -> tuple[type[dict[str, JSONValue]], tuple[dict[str, JSONValue]]]:
        return (dict, (self.written(),))
