"""Amulets in text: the actions (a question or a cast, each a placement of the five amulets) and the
position of a whole game, both ways.

Actions (rulebook 004, "Asking the spirits", "Casting the freeing spell"): ``ask RA1 YB2 GC3 BD4 KE5``
and ``cast RC3 YA1 GE5 BB1 KB2``, each amulet's code (Red, Yellow, Green, Blue, Black: ``R Y G B K``)
and its field (``A1`` .. ``E5``); five bare fields in amulet order are read too (``ask A1 B2 C3 D4 E5``).

A *position* is one line of four parts separated by ``" | "``; the deal of seed 2026 for three wizards,
after a question by seat 0 and a failed cast by seat 2, is::

    Y@E2 K@C1 B@D3 | question_cap=0 assistant=no | 0?A1B2C3D4E5:.-+ 2!C3A1E5B1B2:n.. | 7ea:1

1. the secrets, one ``amulet@field`` per wizard, seat 0 first (so also the number of wizards);
2. the table options, ``name=value`` (a missing option takes its default);
3. the spell book, ``-`` when empty, else one token per line: the seat, ``?`` for a question or ``!`` for a
   cast, the placement as five fields in amulet order, and ``:`` with the answers as the spell book has
   them (one character per seat: ``* o + -`` or ``y n``, ``.`` for the asker/caster and unreached
   spirits). The answers may be left out (``0?A1B2C3D4E5``) when a position is written by hand: the
   reader computes them from the secrets, and refuses written answers the secrets would not give;
4. the chance source, ``key:counter`` (:meth:`coven.core.chance.Chance.to_text`): Amulets draws only the
   deal, so it only tells how the secrets were drawn.

The rest of the state (whose turn, who is out, who won, how many questions) follows from the spell book,
so :meth:`AmuletsGame.read_position <coven.games.amulets.rules.AmuletsGame.read_position>` replays the
book through the rules, which also refuses a book that breaks them (a question out of turn, a cast by a
wizard already out, a line after the game ended).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from coven.core import NotationError
from coven.core.chance import Chance
from coven.core.errors import short_repr
from coven.games.amulets.board import (
    AMULET_CODES,
    AMULETS,
    FIELD_NAMES,
    LETTERS,
    NOTATION_REFUSALS,
    SILENT,
    format_placement,
    parse_field,
    parse_placement,
)

if TYPE_CHECKING:
    from coven.games.amulets.rules import AmuletsState


@dataclass(frozen=True, slots=True)
class Ask:
    """A question: ``fields[amulet]`` is where each of the five amulets is placed."""

    fields: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Cast:
    """A try at the freeing spell: a placement of all five amulets, checked by the spirits."""

    fields: tuple[int, ...]


Action = Ask | Cast


def format_action(action: Action) -> str:
    kind = "ask" if type(action) is Ask else "cast"
    return f"{kind} {format_placement(action.fields)}"


def parse_action(text: object) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {short_repr(text)}")
    head, _, rest = text.strip().partition(" ")
    kind = head.lower()
    if kind not in ("ask", "cast"):
        raise NotationError(NOTATION_REFUSALS("refusal.amulets.notation.unknown", text=short_repr(text)))
    fields = parse_placement(rest)
    return Ask(fields) if kind == "ask" else Cast(fields)


# ------------------------------------------------------------------------------------ positions
SEPARATOR = " | "
_KINDS = {"?": "ask", "!": "cast"}
_MARKS = {"ask": "?", "cast": "!"}
_ANSWER_CHARS = frozenset("*o+-yn.")


@dataclass(frozen=True, slots=True)
class BookLine:
    """A spell-book line as a position writes it: ``answers`` is None when the text leaves them out."""

    seat: int
    kind: str
    fields: tuple[int, ...]
    answers: str | None


@dataclass(frozen=True, slots=True)
class Position:
    """A position text, read but not yet checked against the rules (see ``AmuletsGame.read_position``)."""

    fields: tuple[int, ...]
    amulets: tuple[int, ...]
    options: dict[str, str]
    book: tuple[BookLine, ...]
    chance: Chance


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def write_position(state: AmuletsState) -> str:
    """The position of ``state`` as one line (see the module's docstring)."""
    secrets = " ".join(
        f"{AMULET_CODES[a]}@{FIELD_NAMES[f]}" for f, a in zip(state.fields, state.amulets, strict=True)
    )
    options = " ".join(f"{key}={_option_text(value)}" for key, value in state.options.items())
    book = " ".join(
        f"{seat}{_MARKS[kind]}{''.join(FIELD_NAMES[f] for f in fields)}:{answers}"
        for kind, seat, fields, answers in state.lines
    )
    return SEPARATOR.join((secrets, options or "-", book or "-", state.chance.to_text()))


def _secret(token: str) -> tuple[int, int]:
    code, at, where = token.partition("@")
    if not at or len(code) != 1 or code not in AMULET_CODES:
        raise NotationError(
            f"a wizard's secret is written like R@C3 (amulet R Y G B K, field), not {short_repr(token)}"
        )
    return parse_field(where), AMULET_CODES.index(code)


def _book_line(token: str, players: int) -> BookLine:
    head, colon, answers = token.partition(":")
    mark = next((i for i, c in enumerate(head) if c in _KINDS), -1)
    seat_text, placed = head[:mark], head[mark + 1 :]
    if mark < 1 or not seat_text.isascii() or not seat_text.isdigit() or len(seat_text) > 1:
        raise NotationError(
            "a spell-book line is a seat, ? or !, five fields and :answers (0?A1B2C3D4E5:.*o), "
            f"not {short_repr(token)}"
        )
    seat = int(seat_text)
    if seat >= players:
        raise NotationError(
            f"spell-book line {short_repr(token)}: there is no seat {seat} among {players} wizards"
        )
    if len(placed) != 2 * AMULETS or any(
        placed[i] not in LETTERS or placed[i + 1] not in "12345" for i in range(0, len(placed), 2)
    ):
        raise NotationError(
            f"spell-book line {short_repr(token)}: the placement is five fields like A1B2C3D4E5"
        )
    fields = tuple(parse_field(placed[i : i + 2]) for i in range(0, len(placed), 2))
    if not colon:
        return BookLine(seat, _KINDS[head[mark]], fields, None)
    if len(answers) != players or not set(answers) <= _ANSWER_CHARS or answers[seat] != SILENT:
        raise NotationError(
            f"spell-book line {short_repr(token)}: the answers are one of * o + - y n . per seat, "
            f"'.' for the wizard who asked or cast"
        )
    return BookLine(seat, _KINDS[head[mark]], fields, answers)


def read_position(text: object) -> Position:
    """The parts of a position text, each well formed; the rules check the rest (the book's answers,
    its order of turns) as they replay it. Raises :class:`NotationError` saying what is wrong."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {short_repr(text)}")
    if not text.isascii() or not text.isprintable():
        raise NotationError(f"a position is printable ASCII on one line, not {short_repr(text)}")
    parts = text.strip().split(SEPARATOR)
    if len(parts) != 4:
        raise NotationError(
            "a position has four parts separated by ' | ': the secrets, the options, the spell book "
            f"and the chance, not {short_repr(text)}"
        )
    secrets_text, options_text, book_text, chance_text = (p.strip() for p in parts)
    secrets = [_secret(t) for t in secrets_text.split()]
    if not secrets:
        raise NotationError("a position names every wizard's secret (R@C3 ...), seat 0 first")
    fields = tuple(f for f, _ in secrets)
    amulets = tuple(a for _, a in secrets)
    if len(set(fields)) != len(fields) or len(set(amulets)) != len(amulets):
        raise NotationError(
            f"the wizards' fields and amulets are all different, not {short_repr(secrets_text)}"
        )
    options: dict[str, str] = {}
    if options_text != "-":
        for token in options_text.split():
            key, eq, value = token.partition("=")
            if not eq or not key or not value or key in options:
                raise NotationError(f"an option is written name=value, once, not {short_repr(token)}")
            options[key] = value
    book: tuple[BookLine, ...] = ()
    if book_text != "-":
        book = tuple(_book_line(t, len(secrets)) for t in book_text.split())
    try:
        chance = Chance.from_text(chance_text)
    except ValueError as exc:
        raise NotationError(str(exc)) from None
    return Position(fields, amulets, options, book, chance)
