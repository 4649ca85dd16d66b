"""Actions of The 3 Commandments and their typeable notation.

Notation (case-insensitive words, any spacing)::

    ordain discard=P05 taboo=A01          High Priestess: discard one card unseen, name the taboo
    place wh=C,C,H1,T2,R bk=... br=...    High Priestess: the areas of the 5 white, 5 black, 5 brown
    bk3>C                                 a novice moves black artefact 3 to the centre
    bk3>R>X>H2 +stand +dance @hp "may I, oh great one" 12s
                                          ... carried over R, out of the circle (X) and back to H2,
                                          standing up and dancing, touching the High Priestess,
                                          saying "may I, oh great one", in 12 seconds
    forfeit                               the novice's move is forfeited (an illegal move, a timeout)
    judge yes,no                          a human High Priestess says of each of her action cards, in
                                          slot order, whether the move matched it (also 1,0 or y,n)

Gestures ``+word`` and touches ``@word`` come from fixed vocabularies
(:mod:`coven.games.commandments.lang`); what the novice says is free text in double quotes (it may not
contain one), judged by the bilingual lexicon (:mod:`coven.games.commandments.lexicon`).

The performance has a cost, in *beats* (:func:`beats`): :data:`GESTURE_BEATS` per gesture,
:data:`TOUCH_BEATS` per touch, :data:`WORD_BEATS` per word said (the lexicon's tokens, so "may-I" is two
words) and :data:`PATH_BEATS` per area the artefact is carried over (``X`` included). A move may cost at
most :data:`BUDGET` beats: an ordinary move (a gesture or two, a short sentence, a touch or a detour)
fits, a stuffed one does not, and the rules refuse it (:func:`budget_problem`, an IllegalActionError
that says what it costs). The seconds are not part of the cost: they are the time the move took, as
measured by the front end (see :meth:`coven.games.commandments.game.CommandmentsGame.stamp_time`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from coven.core import NotationError
from coven.core.errors import short_repr
from coven.games.commandments.board import (
    ARTEFACT_NAMES,
    COLOUR_CODES,
    NUM_ARTEFACTS,
    OUTSIDE,
    PATH_NAMES,
    parse_area,
    parse_artefact,
)
from coven.games.commandments.lang import GESTURES, TOUCHES
from coven.games.commandments.lexicon import tokens

MAX_PATH: Final = 12
MAX_WORDS: Final = 200
MAX_SECONDS: Final = 3600
DEFAULT_SECONDS: Final = 10
"""The seconds of a typed move that gives none (a front end that measures time overwrites them)."""

GESTURE_BEATS: Final = 2
TOUCH_BEATS: Final = 2
WORD_BEATS: Final = 1
PATH_BEATS: Final = 1
BUDGET: Final = 10
"""The most beats a move's performance may cost (see the module's documentation)."""


@dataclass(frozen=True, slots=True)
class Ordain:
    """The High Priestess discards one of her four cards unseen and names the taboo among the rest."""

    discard: str
    taboo: str


@dataclass(frozen=True, slots=True)
class Place:
    """The High Priestess places all fifteen artefacts: ``areas[a]`` is artefact a's area."""

    areas: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Move:
    """A novice's move with its performance. ``path`` lists the areas (12 = outside the Holy Circle)
    the artefact was carried over between leaving its starting area and reaching ``to``."""

    artefact: int
    to: int
    path: tuple[int, ...] = ()
    gestures: tuple[str, ...] = ()
    touches: tuple[str, ...] = ()
    words: str = ""
    seconds: int = DEFAULT_SECONDS
    """How long the move took: measured and stamped by a trusted front end (the server, see
    :meth:`~coven.games.commandments.game.CommandmentsGame.stamp_time`); a bot or a test sets it."""


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A novice's move that counts as illegal (submitted by the server on a timeout, or by choice)."""


@dataclass(frozen=True, slots=True)
class Judge:
    """A High Priestess's verdict on her action cards for the last move, in slot order: 1 (yes, the
    move matched the card) or 0 (no). A "?" card she says yes to counts what the engine counts."""

    marks: tuple[int, ...]


Action = Ordain | Place | Move | Forfeit | Judge
ACTION_CLASSES: Final = (Ordain, Place, Move, Forfeit, Judge)
FORFEIT: Final = Forfeit()


def move_problem(move: Move) -> str | None:
    """What is structurally wrong with a move and its performance (state aside), or None."""
    if not 0 <= move.artefact < NUM_ARTEFACTS:
        return f"there is no artefact {move.artefact}"
    if not 0 <= move.to < OUTSIDE:
        return "an artefact must end its move in an area of the Holy Circle (C, H1-H5, T1-T5, R)"
    if len(move.path) > MAX_PATH:
        return f"a path passes over at most {MAX_PATH} areas"
    for area in move.path:
        if not 0 <= area <= OUTSIDE:
            return f"{area} is not an area a path can pass over"
    for a, b in zip(move.path, move.path[1:], strict=False):
        if a == b:
            return f"the path names {PATH_NAMES[a]} twice in a row"
    for values, vocabulary, what in (
        (move.gestures, GESTURES, "gesture"),
        (move.touches, TOUCHES, "touch"),
    ):
        for value in values:
            if value not in vocabulary:
                return f"{value!r} is not a {what} (one of {', '.join(vocabulary)})"
        if len(set(values)) != len(values):
            return f"a {what} is given twice"
    if len(move.words) > MAX_WORDS:
        return f"free words are at most {MAX_WORDS} characters"
    if '"' in move.words or not move.words.isprintable():
        return 'free words may not hold a double quote (") or control characters'
    if move.words != move.words.strip():
        return "free words may not start or end with spaces"
    if not 0 <= move.seconds <= MAX_SECONDS:
        return f"a move takes 0 to {MAX_SECONDS} seconds"
    return None


def beats(move: Move) -> int:
    """What a move's performance costs (see the module's documentation)."""
    return (
        GESTURE_BEATS * len(move.gestures)
        + TOUCH_BEATS * len(move.touches)
        + WORD_BEATS * len(tokens(move.words))
        + PATH_BEATS * len(move.path)
    )


def budget_problem(move: Move) -> str | None:
    """Why a move's performance is too long for one move, or None."""
    cost = beats(move)
    if cost <= BUDGET:
        return None
    n_words = len(tokens(move.words))
    return (
        f"this performance takes {cost} beats, more than the {BUDGET} a move allows "
        f"({len(move.gestures)} gesture(s) x {GESTURE_BEATS}, {len(move.touches)} touch(es) x {TOUCH_BEATS}, "
        f"{n_words} word(s) x {WORD_BEATS}, {len(move.path)} area(s) carried over x {PATH_BEATS}): "
        "do less"
    )


# ------------------------------------------------------------------------------------------ notation
def format_action(action: Action) -> str:
    if isinstance(action, Move):
        parts = [
            ">".join(
                [
                    ARTEFACT_NAMES[action.artefact],
                    *(PATH_NAMES[a] for a in action.path),
                    PATH_NAMES[action.to],
                ]
            )
        ]
        parts += [f"+{g}" for g in action.gestures]
        parts += [f"@{t}" for t in action.touches]
        if action.words:
            parts.append(f'"{action.words}"')
        parts.append(f"{action.seconds}s")
        return " ".join(parts)
    if isinstance(action, Forfeit):
        return "forfeit"
    if isinstance(action, Ordain):
        return f"ordain discard={action.discard} taboo={action.taboo}"
    if isinstance(action, Place):
        groups = []
        for c, code in enumerate(COLOUR_CODES):
            areas = action.areas[c * 5 : c * 5 + 5]
            groups.append(f"{code}=" + ",".join(_area_text(a) for a in areas))
        return "place " + " ".join(groups)
    return "judge " + (",".join("yes" if m else "no" for m in action.marks) or "-")


def _area_text(area: int) -> str:
    return PATH_NAMES[area] if 0 <= area < len(PATH_NAMES) else str(area)


_WORDS = re.compile(r'"([^"]*)"')
_NUMBER = re.compile(r"[0-9]{1,9}")
"""A count or a time: ASCII digits only (``int()`` also reads "١٤"; ``str.isdigit()`` takes "²", which
``int()`` refuses) and few of them (the rules check the range)."""
_CARD_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,15}")
"""The shape of a card id (as :mod:`coven.games.commandments.cards` defines them)."""


def parse_action(text: str) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action is a text, not {short_repr(text)}")
    stripped = text.strip()
    head = stripped.split(None, 1)[0].lower() if stripped else ""
    if not head:
        raise NotationError("empty action")
    if head == "forfeit" and stripped.lower() == "forfeit":
        return FORFEIT
    if head == "ordain":
        return _parse_ordain(stripped)
    if head == "place":
        return _parse_place(stripped)
    if head == "judge":
        return _parse_judge(stripped)
    return _parse_move(stripped)


def _parse_ordain(text: str) -> Ordain:
    fields: dict[str, str] = {}
    for token in text.split()[1:]:
        key, sep, value = token.partition("=")
        if not sep or key.lower() not in ("discard", "taboo") or not value:
            raise NotationError(f"ordain takes discard=CARD taboo=CARD, not {short_repr(token)}")
        if not _CARD_ID.fullmatch(value):
            raise NotationError(
                f"a card id is a letter and up to 15 letters, digits, - or _, not {short_repr(value)}"
            )
        fields[key.lower()] = value
    if set(fields) != {"discard", "taboo"}:
        raise NotationError("ordain takes discard=CARD taboo=CARD (e.g. ordain discard=P05 taboo=A01)")
    return Ordain(fields["discard"], fields["taboo"])


def _parse_place(text: str) -> Place:
    groups: dict[str, list[int]] = {}
    for token in text.split()[1:]:
        key, sep, value = token.partition("=")
        key = key.lower()
        if not sep or key not in COLOUR_CODES:
            raise NotationError(
                f"place takes wh=.. bk=.. br=.. with five areas each, not {short_repr(token)}"
            )
        areas: list[int] = []
        for name in value.split(","):
            area = parse_area(name)
            if area is None:
                raise NotationError(f"{short_repr(name)} is not an area (C, H1-H5, T1-T5, R)")
            areas.append(area)
        if len(areas) != 5:
            raise NotationError(f"{key}= takes five areas, one per artefact, not {len(areas)}")
        groups[key] = areas
    if set(groups) != set(COLOUR_CODES):
        raise NotationError("place takes wh=.. bk=.. br=.. (five areas each, e.g. wh=C,C,H1,T2,R)")
    return Place(tuple(a for code in COLOUR_CODES for a in groups[code]))


_VERDICTS: Final[dict[str, int]] = {"yes": 1, "y": 1, "1": 1, "no": 0, "n": 0, "0": 0}


def _parse_judge(text: str) -> Judge:
    rest = text.split(None, 1)[1].strip() if len(text.split(None, 1)) > 1 else ""
    if rest == "-":
        return Judge(())
    marks: list[int] = []
    for raw in rest.split(","):
        mark = _VERDICTS.get(raw.strip().lower())
        if mark is None:
            raise NotationError(
                "judge takes yes or no for each of your action cards, in slot order, e.g. judge yes,no "
                f"(not {short_repr(rest)})"
            )
        marks.append(mark)
    return Judge(tuple(marks))


def _parse_move(text: str) -> Move:
    words_found = _WORDS.findall(text)
    if len(words_found) > 1:
        raise NotationError("give the free words once, in one pair of double quotes")
    words = words_found[0].strip() if words_found else ""
    rest = _WORDS.sub(" ", text)
    if '"' in rest:
        raise NotationError("unclosed double quote in the free words")
    tokens = rest.split()
    chain = tokens[0].split(">") if tokens else []
    if len(chain) < 2:
        first = short_repr(tokens[0]) if tokens else "free words alone"
        raise NotationError(
            f"a move is ARTEFACT>AREA (e.g. bk3>C), or forfeit, ordain, place, judge; not {first}"
        )
    if len(chain) > MAX_PATH + 2:
        raise NotationError(f"a path passes over at most {MAX_PATH} areas")
    artefact = parse_artefact(chain[0])
    if artefact is None:
        raise NotationError(f"{short_repr(chain[0])} is not an artefact (wh1-wh5, bk1-bk5, br1-br5)")
    areas: list[int] = []
    for name in chain[1:]:
        area = parse_area(name, outside=True)
        if area is None:
            raise NotationError(
                f"{short_repr(name)} is not an area (C, H1-H5, T1-T5, R; X = out of the circle)"
            )
        areas.append(area)
    gestures: list[str] = []
    touches: list[str] = []
    seconds = DEFAULT_SECONDS
    seen_seconds = False
    for token in tokens[1:]:
        low = token.lower()
        if low[:1] == "!" and len(low) > 1:
            raise NotationError(
                f"{short_repr(token)}: what you say is free text now, in double quotes "
                '(e.g. "may I?" asks for permission)'
            )
        if low[:1] in "+@" and len(low) > 1:
            (gestures if low[0] == "+" else touches).append(low[1:])
        elif low.endswith("s") and _NUMBER.fullmatch(low[:-1]) and not seen_seconds:
            seconds = int(low[:-1])
            seen_seconds = True
        else:
            raise NotationError(
                f'unexpected {short_repr(token)}: use +gesture, @touch, "free words" or a time like 12s'
            )
    move = Move(artefact, areas[-1], tuple(areas[:-1]), tuple(gestures), tuple(touches), words, seconds)
    problem = move_problem(move)
    if problem is not None:
        raise NotationError(problem)
    return move


# --------------------------------------------------------------------------- representative family
Perf = tuple[tuple[int, ...], tuple[str, ...], tuple[str, ...], str, int]
"""A performance apart from the artefact and its target: path, gestures, touches, words, seconds."""

PERFORMANCES: Final[tuple[Perf, ...]] = (
    ((), (), (), "", 8),
    ((), (), (), "May I?", 10),
    ((), ("bow",), (), "thank you", 4),
    ((), ("stand", "dance"), (), "", 15),
    ((), ("sing", "clap"), (), "", 20),
    ((), ("macho", "stamp"), (), "you fool", 12),
    ((), (), (), "damn", 3),
    ((), ("kneel",), ("hp_art",), "", 20),
    ((), ("laugh",), ("novice", "artefact"), "", 10),
    ((OUTSIDE,), ("jump", "wave"), (), "", 25),
    ((), ("smile",), (), "what a lovely white cat", 10),
    ((), ("hum", "pray"), (), "my precious", 45),
    ((0,), ("whistle", "close_eyes"), ("hp",), "", 4),
    ((), ("stretch",), (), "", 40),
)
"""Canonical performances offered for every artefact and target in :data:`MOVE_FAMILY`, each within
the budget; together they match every action card of the box at least once and miss it at least
once."""


def _family() -> tuple[Move, ...]:
    moves: list[Move] = []
    for artefact in range(NUM_ARTEFACTS):
        for to in range(OUTSIDE):
            for path, gestures, touches, words, seconds in PERFORMANCES:
                carried = (OUTSIDE,) if path == (to,) else path
                moves.append(Move(artefact, to, carried, gestures, touches, words, seconds))
    return tuple(moves)


MOVE_FAMILY: Final[tuple[Move, ...]] = _family()
"""Every artefact to every area with each canonical performance (interned once)."""
