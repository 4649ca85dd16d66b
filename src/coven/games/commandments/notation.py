"""Actions and positions of The 3 Commandments as text, both ways.

Rulebook reading: the moves of the English rulebook (pages 5-6); the performance vocabulary and its
cost in beats are the project's choices (see :mod:`coven.games.commandments.rules`).

Action notation (case-insensitive words, any spacing)::

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
measured by the front end (see :meth:`coven.games.commandments.rules.CommandmentsGame.stamp_time`).

Position notation (:func:`write_position`, :func:`read_position`): the whole state on one line, as FEN
is to chess, for tests, analysis and debugging (it holds every secret: never show it to a seat). Fields
are separated by single spaces, in this order::

    commandments players=3 expert=0 judge=engine reveal=ritual_end cards=- chance=KEY:COUNTER
    red=A07,A03,... green=P12,P04,... r=0/HAND/DISCARD/SLOTS/PLACEMENT/GAINS/FLAGS/MOVES
    r=1/... pending=-

- ``players``; the options ``expert`` (0 or 1), ``judge``, ``reveal`` and ``cards`` (the
  ``custom_cards`` option percent-encoded, ``-`` when empty);
- ``chance``: the state's chance source (:meth:`coven.core.chance.Chance.to_text`);
- ``red`` and ``green``: the artefact and action piles still face down, by card id, the top card
  last (the next ritual draws two of each from the end): the future of the game. ``-`` for an empty pile;
- one ``r=`` per ritual so far (ritual k's High Priestess is seat k), eight ``/``-separated parts:
  her seat; her hand of four as drawn (two artefact cards, then two action cards); her discard;
  the slots (the taboo, then the two commandments); the placement (15 area names, wh1-wh5,
  bk1-bk5, br1-br5); the karma each seat gained in this ritual; flags (``d`` disempowered, ``e``
  ended, ``-`` neither); the moves, ``;``-separated, each ``SEAT:START:MARKS:TOTAL:FLIPS:ACTION``
  (START the artefact's area before the move, ``-`` for a forfeit; MARKS one digit per slot, ``-``
  for a forfeit; TOTAL as announced; FLIPS the negative destiny cards after it; ACTION the move's
  notation, percent-encoded). An empty part is ``-``;
- ``pending``: the move waiting for a judging High Priestess (percent-encoded), or ``-``.

Everything else follows from these: the phase, the board (the placement with the moves made), the
destiny cards, whose turn it is and the karma totals. An example: three players, seed 7, in the
first ritual after one move (seat 1 carried bk1 from R to H1 bowing and saying "may I": the taboo
A02 and the commandment A25 marked, 1 karma in all); the piles are cut short here, a real position
lists all their cards (the chance has made its 12 draws: the top six cards of each pile)::

    commandments players=3 expert=0 judge=engine reveal=ritual_end cards=- chance=7:12
    red=A01,A62,...,A55 green=P01,P02,...,P06 r=0/A25,A02,P21,P14/P14/A02,A25,P21/
    C,C,C,C,C,R,R,R,R,R,H1,H2,H3,H4,H5/0,1,0/-/1:R:110:1:0:bk1>H1%20+bow%20%22may%20I%22%208s pending=-

(on one line; ``tests/games/commandments`` write such positions by hand to fix the next deal).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple
from urllib.parse import quote, unquote

from coven.core import InvalidOptionError, NotationError
from coven.core.chance import Chance
from coven.core.errors import short_repr
from coven.core.texts import Message, Texts
from coven.games.commandments.board import (
    AREA_NAMES,
    ARTEFACT_NAMES,
    COLOUR_CODES,
    NUM_ARTEFACTS,
    OUTSIDE,
    PATH_NAMES,
    parse_area,
    parse_artefact,
)
from coven.games.commandments.cards import ACTION, ARTEFACT, Deck, deck_for
from coven.games.commandments.lang import GESTURES, TOUCHES
from coven.games.commandments.lexicon import tokens

if TYPE_CHECKING:
    from coven.games.commandments.rules import CommandmentsState

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
    :meth:`~coven.games.commandments.rules.CommandmentsGame.stamp_time`); a bot or a test sets it."""


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

ORDAIN: Final = 0
PLACE: Final = 1
MOVE: Final = 2
JUDGE: Final = 3
OVER: Final = 4
"""The phases of a ritual (and the end of the game), in order. Final literals: the compiled rules fold
them into their comparisons instead of looking them up."""
PHASE_NAMES: Final = ("ordain", "place", "move", "judge", "over")


@dataclass(frozen=True, slots=True)
class MoveLog:
    """One novice's turn as everyone saw it. ``move`` is None for a forfeit; ``marks`` holds one
    0/1 per slot (empty when hidden: the expert variant); ``total`` is as announced (see
    :func:`~coven.games.commandments.rules.announce`); ``flips`` counts the negative destiny cards
    after the move."""

    seat: int
    move: Move | None
    start: int
    marks: tuple[int, ...]
    total: int
    flips: int


MOVE_REFUSALS: Final = Texts(
    {
        "refusal.commandments.no_artefact": "there is no artefact {artefact}",
        "refusal.commandments.end_in_circle": (
            "an artefact must end its move in an area of the Holy Circle (C, H1-H5, T1-T5, R)"
        ),
        "refusal.commandments.path_length": "a path passes over at most {max} areas",
        "refusal.commandments.path_area": "{area} is not an area a path can pass over",
        "refusal.commandments.path_twice": "the path names {area} twice in a row",
        "refusal.commandments.not_gesture": "{value} is not a gesture (one of {words})",
        "refusal.commandments.not_touch": "{value} is not a touch (one of {words})",
        "refusal.commandments.gesture_twice": "a gesture is given twice",
        "refusal.commandments.touch_twice": "a touch is given twice",
        "refusal.commandments.words_length": "free words are at most {max} characters",
        "refusal.commandments.words_quote": (
            'free words may not hold a double quote (") or control characters'
        ),
        "refusal.commandments.words_spaces": "free words may not start or end with spaces",
        "refusal.commandments.seconds": "a move takes 0 to {max} seconds",
        "refusal.commandments.budget": (
            "this performance takes {cost} beats, more than the {budget} a move allows "
            "({gestures} gesture(s) x {gesture_beats}, {touches} touch(es) x {touch_beats}, "
            "{words} word(s) x {word_beats}, {areas} area(s) carried over x {path_beats}): do less"
        ),
    }
)
"""Why a novice's move is refused whatever the board (:mod:`coven.core.refusals`): areas, gestures and
touches as the notation writes them."""


def move_problem(move: Move) -> Message | None:
    """What is structurally wrong with a move and its performance (state aside), or None."""
    if not 0 <= move.artefact < NUM_ARTEFACTS:
        return MOVE_REFUSALS("refusal.commandments.no_artefact", artefact=move.artefact)
    if not 0 <= move.to < OUTSIDE:
        return MOVE_REFUSALS("refusal.commandments.end_in_circle")
    if len(move.path) > MAX_PATH:
        return MOVE_REFUSALS("refusal.commandments.path_length", max=MAX_PATH)
    for area in move.path:
        if not 0 <= area <= OUTSIDE:
            return MOVE_REFUSALS("refusal.commandments.path_area", area=area)
    for a, b in zip(move.path, move.path[1:], strict=False):
        if a == b:
            return MOVE_REFUSALS("refusal.commandments.path_twice", area=PATH_NAMES[a])
    for values, vocabulary, what in (
        (move.gestures, GESTURES, "gesture"),
        (move.touches, TOUCHES, "touch"),
    ):
        for value in values:
            if value not in vocabulary:
                return MOVE_REFUSALS(
                    f"refusal.commandments.not_{what}", value=short_repr(value), words=", ".join(vocabulary)
                )
        if len(set(values)) != len(values):
            return MOVE_REFUSALS(f"refusal.commandments.{what}_twice")
    if len(move.words) > MAX_WORDS:
        return MOVE_REFUSALS("refusal.commandments.words_length", max=MAX_WORDS)
    if '"' in move.words or not move.words.isprintable():
        return MOVE_REFUSALS("refusal.commandments.words_quote")
    if move.words != move.words.strip():
        return MOVE_REFUSALS("refusal.commandments.words_spaces")
    if not 0 <= move.seconds <= MAX_SECONDS:
        return MOVE_REFUSALS("refusal.commandments.seconds", max=MAX_SECONDS)
    return None


def beats(move: Move) -> int:
    """What a move's performance costs (see the module's documentation)."""
    return (
        GESTURE_BEATS * len(move.gestures)
        + TOUCH_BEATS * len(move.touches)
        + WORD_BEATS * len(tokens(move.words))
        + PATH_BEATS * len(move.path)
    )


def budget_problem(move: Move) -> Message | None:
    """Why a move's performance is too long for one move, or None."""
    cost = beats(move)
    if cost <= BUDGET:
        return None
    return MOVE_REFUSALS(
        "refusal.commandments.budget",
        cost=cost,
        budget=BUDGET,
        gestures=len(move.gestures),
        gesture_beats=GESTURE_BEATS,
        touches=len(move.touches),
        touch_beats=TOUCH_BEATS,
        words=len(tokens(move.words)),
        word_beats=WORD_BEATS,
        areas=len(move.path),
        path_beats=PATH_BEATS,
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


NOTATION_REFUSALS: Final = Texts(
    {
        "refusal.commandments.notation.empty": "empty action",
        "refusal.commandments.notation.ordain_field": "ordain takes discard=CARD taboo=CARD, not {text}",
        "refusal.commandments.notation.card_id": (
            "a card id is a letter and up to 15 letters, digits, - or _, not {text}"
        ),
        "refusal.commandments.notation.ordain": (
            "ordain takes discard=CARD taboo=CARD (e.g. ordain discard=P05 taboo=A01)"
        ),
        "refusal.commandments.notation.place_group": (
            "place takes wh=.. bk=.. br=.. with five areas each, not {text}"
        ),
        "refusal.commandments.notation.place_area": "{text} is not an area (C, H1-H5, T1-T5, R)",
        "refusal.commandments.notation.place_count": (
            "{colour}= takes five areas, one per artefact, not {count}"
        ),
        "refusal.commandments.notation.place": (
            "place takes wh=.. bk=.. br=.. (five areas each, e.g. wh=C,C,H1,T2,R)"
        ),
        "refusal.commandments.notation.judge": (
            "judge takes yes or no for each of your action cards, in slot order, e.g. judge yes,no "
            "(not {text})"
        ),
        "refusal.commandments.notation.words_once": "give the free words once, in one pair of double quotes",
        "refusal.commandments.notation.unclosed": "unclosed double quote in the free words",
        "refusal.commandments.notation.unknown": (
            "a move is ARTEFACT>AREA (e.g. bk3>C), or forfeit, ordain, place, judge; not {text}"
        ),
        "refusal.commandments.notation.words_alone": (
            "a move is ARTEFACT>AREA (e.g. bk3>C), or forfeit, ordain, place, judge; not free words alone"
        ),
        "refusal.commandments.notation.artefact": "{text} is not an artefact (wh1-wh5, bk1-bk5, br1-br5)",
        "refusal.commandments.notation.area": (
            "{text} is not an area (C, H1-H5, T1-T5, R; X = out of the circle)"
        ),
        "refusal.commandments.notation.saying": (
            '{text}: what you say is free text now, in double quotes (e.g. "may I?" asks for permission)'
        ),
        "refusal.commandments.notation.unexpected": (
            'unexpected {text}: use +gesture, @touch, "free words" or a time like 12s'
        ),
    }
)
"""Why a move's notation cannot be read (``text``: what was typed, quoted), in the person's language
(:mod:`coven.core.refusals`); a path too long says :data:`MOVE_REFUSALS`' own words. A position's own
texts (a researcher's tool) stay English."""


_WORDS = re.compile(r'"([^"]*)"')
_NUMBER = re.compile(r"[0-9]{1,9}")
"""A count or a time: ASCII digits only (``int()`` also reads "١٤"; ``str.isdigit()`` takes "²", which
``int()`` refuses) and few of them (the rules check the range)."""
_CARD_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,15}")
"""The shape of a card id (as :mod:`coven.games.commandments.cards` defines them)."""


def parse_action(text: object) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action is a text, not {short_repr(text)}")
    stripped = text.strip()
    head = stripped.split(None, 1)[0].lower() if stripped else ""
    if not head:
        raise NotationError(NOTATION_REFUSALS("refusal.commandments.notation.empty"))
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
            raise NotationError(
                NOTATION_REFUSALS("refusal.commandments.notation.ordain_field", text=short_repr(token))
            )
        if not _CARD_ID.fullmatch(value):
            raise NotationError(
                NOTATION_REFUSALS("refusal.commandments.notation.card_id", text=short_repr(value))
            )
        fields[key.lower()] = value
    if set(fields) != {"discard", "taboo"}:
        raise NotationError(NOTATION_REFUSALS("refusal.commandments.notation.ordain"))
    return Ordain(fields["discard"], fields["taboo"])


def _parse_place(text: str) -> Place:
    groups: dict[str, list[int]] = {}
    for token in text.split()[1:]:
        key, sep, value = token.partition("=")
        key = key.lower()
        if not sep or key not in COLOUR_CODES:
            raise NotationError(
                NOTATION_REFUSALS("refusal.commandments.notation.place_group", text=short_repr(token))
            )
        areas: list[int] = []
        for name in value.split(","):
            area = parse_area(name)
            if area is None:
                raise NotationError(
                    NOTATION_REFUSALS("refusal.commandments.notation.place_area", text=short_repr(name))
                )
            areas.append(area)
        if len(areas) != 5:
            raise NotationError(
                NOTATION_REFUSALS("refusal.commandments.notation.place_count", colour=key, count=len(areas))
            )
        groups[key] = areas
    if set(groups) != set(COLOUR_CODES):
        raise NotationError(NOTATION_REFUSALS("refusal.commandments.notation.place"))
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
                NOTATION_REFUSALS("refusal.commandments.notation.judge", text=short_repr(rest))
            )
        marks.append(mark)
    return Judge(tuple(marks))


def _parse_move(text: str) -> Move:
    words_found = _WORDS.findall(text)
    if len(words_found) > 1:
        raise NotationError(NOTATION_REFUSALS("refusal.commandments.notation.words_once"))
    words = words_found[0].strip() if words_found else ""
    rest = _WORDS.sub(" ", text)
    if '"' in rest:
        raise NotationError(NOTATION_REFUSALS("refusal.commandments.notation.unclosed"))
    tokens = rest.split()
    chain = tokens[0].split(">") if tokens else []
    if len(chain) < 2:
        if not tokens:
            raise NotationError(NOTATION_REFUSALS("refusal.commandments.notation.words_alone"))
        raise NotationError(
            NOTATION_REFUSALS("refusal.commandments.notation.unknown", text=short_repr(tokens[0]))
        )
    if len(chain) > MAX_PATH + 2:
        raise NotationError(MOVE_REFUSALS("refusal.commandments.path_length", max=MAX_PATH))
    artefact = parse_artefact(chain[0])
    if artefact is None:
        raise NotationError(
            NOTATION_REFUSALS("refusal.commandments.notation.artefact", text=short_repr(chain[0]))
        )
    areas: list[int] = []
    for name in chain[1:]:
        area = parse_area(name, outside=True)
        if area is None:
            raise NotationError(
                NOTATION_REFUSALS("refusal.commandments.notation.area", text=short_repr(name))
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
                NOTATION_REFUSALS("refusal.commandments.notation.saying", text=short_repr(token))
            )
        if low[:1] in "+@" and len(low) > 1:
            (gestures if low[0] == "+" else touches).append(low[1:])
        elif low.endswith("s") and _NUMBER.fullmatch(low[:-1]) and not seen_seconds:
            seconds = int(low[:-1])
            seen_seconds = True
        else:
            raise NotationError(
                NOTATION_REFUSALS("refusal.commandments.notation.unexpected", text=short_repr(token))
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


# ------------------------------------------------------------------------------------------ positions
RitualFields = tuple[int, list[int], int, list[int], tuple[int, ...], list[MoveLog], list[int], bool, bool]
"""A ritual as :class:`~coven.games.commandments.rules.Ritual` takes it: priestess, hand, discard,
slots, placement, moves, gains, disempowered, ended."""


class Position(NamedTuple):
    """A state read from its position text, field by field (the rules build the state from it)."""

    players: int
    options: dict[str, bool | int | str]
    deck: Deck
    chance: Chance
    red: list[int]
    green: list[int]
    rituals: list[RitualFields]
    phase: int
    board: list[int]
    flips: int
    karma: list[int]
    turn: int
    pending: Move | None
    pending_start: int


_HEAD: Final = "commandments"
_AREA_OF: Final[dict[str, int]] = {name: area for area, name in enumerate(AREA_NAMES)}
"""Areas as positions write them (exactly: a position is written, not typed)."""
_KEYS: Final = ("players", "expert", "judge", "reveal", "cards", "chance", "red", "green")
_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "judge": ("engine", "priestess"),
    "reveal": ("ritual_end", "never"),
}


def write_position(state: CommandmentsState) -> str:
    """The position text of ``state`` (see the module's documentation)."""
    cards = state.deck.cards
    options = state.options
    custom = str(options["custom_cards"])

    def ids(seq: list[int] | tuple[int, ...]) -> str:
        return ",".join([cards[c].id for c in seq]) or "-"

    parts = [
        _HEAD,
        f"players={state.players}",
        f"expert={1 if options['expert'] else 0}",
        f"judge={options['judge']}",
        f"reveal={options['reveal']}",
        f"cards={quote(custom, safe='') if custom else '-'}",
        f"chance={state.chance.to_text()}",
        f"red={ids(state.red)}",
        f"green={ids(state.green)}",
    ]
    for ritual in state.rituals:
        moves = ";".join(
            f"{m.seat}:{AREA_NAMES[m.start] if m.start >= 0 else '-'}:"
            f"{''.join(map(str, m.marks)) or '-'}:{m.total}:{m.flips}:"
            f"{'forfeit' if m.move is None else _quoted(m.move)}"
            for m in ritual.moves
        )
        placement = ",".join([AREA_NAMES[a] for a in ritual.placement]) or "-"
        flags = ("d" if ritual.disempowered else "") + ("e" if ritual.ended else "")
        discard = cards[ritual.discard].id if ritual.discard >= 0 else "-"
        gains = ",".join(map(str, ritual.gains))
        parts.append(
            f"r={ritual.priestess}/{ids(ritual.hand)}/{discard}/{ids(ritual.slots)}/{placement}/{gains}"
            f"/{flags or '-'}/{moves or '-'}"
        )
    parts.append(f"pending={'-' if state.pending is None else _quoted(state.pending)}")
    return " ".join(parts)


def _quoted(move: Move) -> str:
    return quote(format_action(move), safe=">+@")


def read_position(text: object) -> Position:
    """The fields of the state a :func:`write_position` text describes; NotationError if it is not one."""
    if not isinstance(text, str):
        raise NotationError(f"a position is a text, not {short_repr(text)}")
    if not text.isascii() or not text.isprintable():
        raise NotationError("a position is printable ASCII on one line (free words are percent-encoded)")
    fields = text.split(" ")
    if not fields or fields[0] != _HEAD:
        raise NotationError(f"a position of The 3 Commandments starts with {_HEAD!r}, not {short_repr(text)}")
    if len(fields) < len(_KEYS) + 3:
        raise NotationError("a position has players, options, chance, red, green, r= per ritual and pending")
    values: dict[str, str] = {}
    for key, field_ in zip(_KEYS, fields[1:], strict=False):
        name, sep, value = field_.partition("=")
        if name != key or not sep or not value:
            raise NotationError(f"expected {key}=... in the position, not {short_repr(field_)}")
        values[key] = value
    players = _number(values["players"], "players")
    if not 3 <= players <= 7:
        raise NotationError(f"The 3 Commandments takes 3 to 7 players, not {players}")
    options: dict[str, bool | int | str] = {}
    if values["expert"] not in ("0", "1"):
        raise NotationError(f"expert is 0 or 1, not {short_repr(values['expert'])}")
    options["expert"] = values["expert"] == "1"
    for key, choices in _CHOICES.items():
        if values[key] not in choices:
            raise NotationError(f"{key} is one of {', '.join(choices)}, not {short_repr(values[key])}")
        options[key] = values[key]
    custom = "" if values["cards"] == "-" else _unquote(values["cards"], "the custom cards")
    options["custom_cards"] = custom
    try:
        deck = deck_for(custom)
    except InvalidOptionError as exc:
        raise NotationError(f"the custom cards of this position do not make a deck: {exc}") from None
    try:
        chance = Chance.from_text(values["chance"])
    except ValueError as exc:
        raise NotationError(str(exc)) from None
    red = _cards(deck, values["red"], ARTEFACT, "the red pile")
    green = _cards(deck, values["green"], ACTION, "the green pile")
    rest = fields[len(_KEYS) + 1 :]
    last = rest[-1]
    if not last.startswith("pending="):
        raise NotationError(f"a position ends with pending=MOVE or pending=-, not {short_repr(last)}")
    if not 1 <= len(rest) - 1 <= players:
        raise NotationError(f"a position has one to {players} rituals (r=...), not {len(rest) - 1}")
    rituals = [_ritual(deck, players, k, token) for k, token in enumerate(rest[:-1])]
    for ritual in rituals[:-1]:
        if not ritual[8]:
            raise NotationError(f"ritual {ritual[0] + 1} is not ended, yet another one follows it")
    seen = red + green
    for ritual in rituals:
        seen += ritual[1]
    if sorted(seen) != list(range(len(deck.cards))):
        raise NotationError(
            "every card of the deck is once in a pile or a priestess's hand, no more, no less"
        )
    _, _, discard, _, placement, moves, _, _, ended = rituals[-1]
    pending_text = last.partition("=")[2]
    pending = None if pending_text == "-" else _logged_move(pending_text)
    if ended and len(rituals) < players:
        raise NotationError("a ritual ended, yet the next High Priestess has not started hers")
    phase = OVER if ended else ORDAIN if discard < 0 else PLACE if not placement else MOVE
    rounds = 4 if players == 3 else 3 if players <= 5 else 2
    if phase == MOVE and len(moves) >= (players - 1) * rounds:
        raise NotationError("every novice has moved in this ritual: it should have ended")
    if pending is not None:
        if phase != MOVE or options["judge"] != "priestess":
            raise NotationError(
                "a move waits for judgement only while a judging High Priestess's ritual goes on"
            )
        phase = JUDGE
    board = list(placement) if phase >= MOVE else []
    for log in moves:
        if log.move is not None and board:
            board[log.move.artefact] = log.move.to
    pending_start = -1
    if pending is not None:
        pending_start = board[pending.artefact]
        board[pending.artefact] = pending.to
    karma = [sum(r[6][s] for r in rituals) for s in range(players)]
    flips = moves[-1].flips if moves else 0
    return Position(
        players,
        options,
        deck,
        chance,
        red,
        green,
        rituals,
        phase,
        board,
        flips,
        karma,
        len(moves),
        pending,
        pending_start,
    )


def _number(text: str, what: str) -> int:
    sign = text[1:] if text.startswith("-") else text
    if not _NUMBER.fullmatch(sign):
        raise NotationError(f"{what} is a whole number, not {short_repr(text)}")
    return int(text)


def _cards(deck: Deck, text: str, kind: str | None, what: str) -> list[int]:
    if text == "-":
        return []
    out = []
    for card_id in text.split(","):
        card = deck.index.get(card_id)
        if card is None:
            raise NotationError(f"{what}: {short_repr(card_id)} is no card of this deck")
        if kind is not None and deck.cards[card].type != kind:
            raise NotationError(f"{what}: {card_id} is not an {kind} card")
        out.append(card)
    return out


def _unquote(text: str, what: str) -> str:
    try:
        return unquote(text, errors="strict")
    except UnicodeDecodeError:
        raise NotationError(f"{what}: {short_repr(text)} is not percent-encoded UTF-8") from None


def _logged_move(text: str) -> Move:
    action = parse_action(_unquote(text, "a move"))
    if not isinstance(action, Move):
        raise NotationError(f"{short_repr(text)} is not a novice's move")
    return action


def _ritual(deck: Deck, players: int, k: int, token: str) -> RitualFields:
    name, sep, value = token.partition("=")
    parts = value.split("/")
    if name != "r" or not sep or len(parts) != 8:
        raise NotationError(
            f"a ritual is r=SEAT/HAND/DISCARD/SLOTS/PLACEMENT/GAINS/FLAGS/MOVES, not {short_repr(token)}"
        )
    seat_text, hand_text, discard_text, slots_text, placement_text, gains_text, flags, moves_text = parts
    if _number(seat_text, "a priestess") != k:
        raise NotationError(f"ritual {k + 1}'s High Priestess is seat {k}, not {short_repr(seat_text)}")
    hand = _cards(deck, hand_text, None, f"ritual {k + 1}'s hand")
    if [deck.cards[c].type for c in hand] != [ARTEFACT, ARTEFACT, ACTION, ACTION]:
        raise NotationError(f"ritual {k + 1}'s hand is two artefact cards, then two action cards")
    discard = -1 if discard_text == "-" else _cards(deck, discard_text, None, "a discard")[0]
    slots = _cards(deck, slots_text, None, f"ritual {k + 1}'s slots")
    if (discard < 0) != (not slots) or (discard >= 0 and sorted([discard, *slots]) != sorted(hand)):
        raise NotationError(
            f"ritual {k + 1}: the discard and the three slots are her four cards, or none is set"
        )
    placement: tuple[int, ...] = ()
    if placement_text != "-":
        names = placement_text.split(",")
        if len(names) != NUM_ARTEFACTS or any(name not in _AREA_OF for name in names):
            raise NotationError(
                f"ritual {k + 1}: a placement is {NUM_ARTEFACTS} area names (C, H1-H5, T1-T5, R)"
            )
        placement = tuple(_AREA_OF[name] for name in names)
        if discard < 0:
            raise NotationError(f"ritual {k + 1}: the artefacts are placed after the cards are ordained")
    gains = [_number(g, "a gain") for g in gains_text.split(",")]
    if len(gains) != players or min(gains) < 0:
        raise NotationError(f"ritual {k + 1}: one karma gain (0 or more) per seat")
    if flags not in ("-", "d", "e", "de"):
        raise NotationError(f"ritual {k + 1}: flags are -, d (disempowered), e (ended) or de")
    moves: list[MoveLog] = []
    if moves_text != "-":
        if not placement:
            raise NotationError(f"ritual {k + 1}: novices move after the artefacts are placed")
        for n, entry in enumerate(moves_text.split(";")):
            moves.append(_move_log(entry, players, k, n, len(slots)))
    return (k, hand, discard, slots, placement, moves, gains, "d" in flags, "e" in flags)


def _move_log(entry: str, players: int, priestess: int, n: int, slots: int) -> MoveLog:
    bits = entry.split(":")
    if len(bits) != 6:
        raise NotationError(f"a logged move is SEAT:START:MARKS:TOTAL:FLIPS:ACTION, not {short_repr(entry)}")
    seat_text, start_text, marks_text, total_text, flips_text, action_text = bits
    seat = _number(seat_text, "a seat")
    if seat != (priestess + 1 + n % (players - 1)) % players:
        raise NotationError(f"move {n + 1} of ritual {priestess + 1} is not seat {seat}'s to make")
    total, flips = _number(total_text, "a total"), _number(flips_text, "destiny cards")
    if total < -1 or not 0 <= flips <= 4:
        raise NotationError(f"{short_repr(entry)}: a total is -1 or more, destiny cards 0-4")
    if action_text == "forfeit":
        if start_text != "-" or marks_text != "-" or total != 0:
            raise NotationError(f"a forfeit is logged SEAT:-:-:0:FLIPS:forfeit, not {short_repr(entry)}")
        return MoveLog(seat, None, -1, (), 0, flips)
    start = _AREA_OF.get(start_text)
    if start is None:
        raise NotationError(f"{short_repr(start_text)} is not an area (C, H1-H5, T1-T5, R)")
    if len(marks_text) != slots or any(m not in "01" for m in marks_text):
        raise NotationError(f"a move's marks are one 0 or 1 per slot, not {short_repr(marks_text)}")
    return MoveLog(seat, _logged_move(action_text), start, tuple(int(m) for m in marks_text), total, flips)
