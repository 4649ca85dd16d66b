"""Cards of The 3 Commandments: definitions as data, compiled once, and custom cards from an option.

A card is ``(id, type, value, en, fr, expr)``. Artefact cards (red backs) are always judged by the
engine on the board; action cards (green backs) on the performance (by the engine, or by a human High
Priestess when the table says so). A fixed card earns its value when its condition holds; a "?" card
earns one karma per unit counted (capped at :data:`COUNT_CAP`, our choice so that karma stays bounded
for custom cards), and a count of 0 or less leaves it unmarked.

Custom cards are untrusted input: the option's text is at most :data:`MAX_CUSTOM_TEXT` characters and
at most :data:`MAX_CUSTOM_CARDS` cards, each card's id, texts and expression are bounded, and the
expression must pass the language's bounds (size, nesting, counting functions and static cost; see
:mod:`coven.games.commandments.lang`), so a card that could not be judged cheaply is refused when the
table is created, with InvalidOptionError naming the card and the reason. Custom cards are compiled
with the run-time step budget as well: should judging one ever run past it
(:class:`~coven.games.commandments.lang.CardBudgetError`, which the static bounds are meant to make
impossible), :meth:`Card.judge` counts the card as not matched (0 karma, unmarked) on that move. The
budget counts steps, not time, so the engine, the bots' worlds and a replay all agree, and nothing
else of the state depends on it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from coven.core import InvalidOptionError
from coven.core.errors import short_repr
from coven.core.texts import Message, Texts
from coven.games.commandments.board import NUM_AREAS
from coven.games.commandments.deck import ACTION_ROWS, ARTEFACT_ROWS
from coven.games.commandments.lang import (
    LANGUAGE_REFUSALS,
    BoardFn,
    CardBudgetError,
    CardError,
    Ctx,
    Fn,
    board_function,
    compile_card_expr,
    karma_function,
)

ARTEFACT: Final = "artefact"
ACTION: Final = "action"
CARD_TYPES: Final = (ARTEFACT, ACTION)
COUNT_CAP: Final = 20
"""The most karma one "?" card can give on one move."""
MAX_FIXED: Final = 9
MAX_CUSTOM_CARDS: Final = 60
MAX_CUSTOM_TEXT: Final = 300_000
"""The longest ``custom_cards`` option, in characters: 60 cards at their longest fit even when every
letter of their texts and expressions is escaped to ``\\uXXXX`` (as ``json.dumps`` does), about
290,000 characters. It bounds the JSON parsing; the server's request-body limit is tighter still."""
MAX_CARD_TEXT: Final = 200
"""The longest English or French text of a card."""
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
_VALUE_TEXTS: Final = {str(n): n for n in range(1, MAX_FIXED + 1)}
"""A fixed value written as text, as the deck's listing gives it (``"2"``): read as its number (ASCII digits
only, no sign, no spaces)."""

CARD_REFUSALS: Final = LANGUAGE_REFUSALS | Texts(
    {
        # one card's fields (make_card)
        "refusal.commandments.card.field_id": (
            "id {value} must be a letter then up to 15 letters, digits, '_' or '-'"
        ),
        "refusal.commandments.card.field_type": "type must be 'artefact' or 'action', not {value}",
        "refusal.commandments.card.field_value": 'value must be a whole number 1-{max} or "?", not {value}',
        "refusal.commandments.card.field_text": (
            "text {field} must be a non-empty text of at most {max} characters"
        ),
        "refusal.commandments.card.field_expr": "expr must be a text, not {value}",
        "refusal.commandments.card.expr": "expr {expr}: {problem}",
        # the custom_cards option (parse_custom_cards)
        "refusal.commandments.cards.not_text": "custom_cards must be a JSON text, not {value}",
        "refusal.commandments.cards.too_long": "custom_cards is at most {max} characters, not {length}",
        "refusal.commandments.cards.not_json": (
            "custom_cards must be a JSON list of cards: the JSON goes wrong at line {line}, column {column}"
        ),
        "refusal.commandments.cards.too_deep": (
            "custom_cards must be a JSON list of cards: it nests too deeply"
        ),
        "refusal.commandments.cards.long_number": (
            "custom_cards must be a JSON list of cards: a number in it has too many digits"
        ),
        "refusal.commandments.cards.not_list": "custom_cards must be a JSON list of cards",
        "refusal.commandments.cards.too_many": "custom_cards holds at most {max} cards, not {count}",
        "refusal.commandments.cards.card": "custom card {n}",
        "refusal.commandments.cards.card_id": "custom card {n} ({id})",
        "refusal.commandments.cards.the_card": "the card",
        "refusal.commandments.cards.the_card_id": "the card ({id})",
        "refusal.commandments.cards.not_object": "{card} must be an object with id, type, value, en, expr",
        "refusal.commandments.cards.unknown_fields": "{card}: unknown field(s) {names}",
        "refusal.commandments.cards.missing_fields": "{card}: missing field(s) {names}",
        "refusal.commandments.cards.bad_card": "{card}: {problem}",
        "refusal.commandments.cards.id_taken": "{card}: id {id} is already taken",
    }
)
"""Why a card is refused (:mod:`coven.core.refusals`), and why the ``custom_cards`` option is: the card's
``card`` named as ``custom card 2 (X1)`` (``the card``: the one a person is making, on the deck page); a
card's id, its fields' names and its expression as they are written. ``not_json`` and ``long_number``
are worded in English by the JSON reader's own message."""


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    type: str
    value: int | None
    """The fixed karma, or None for a "?" card."""
    en: str
    fr: str
    expr: str
    fn: Fn = field(compare=False, repr=False)

    @property
    def counting(self) -> bool:
        return self.value is None

    @property
    def value_text(self) -> str:
        return "?" if self.value is None else str(self.value)

    def judge(self, ctx: Ctx) -> int:
        """The karma this card gives on a move (0 = not marked).

        A custom card whose judgement runs past the step budget is not marked (0); ``ctx`` is left as
        it was (the counting functions restore what they change)."""
        try:
            result = self.fn(ctx)
        except CardBudgetError:
            return 0
        if self.value is None:
            return max(0, min(COUNT_CAP, int(result)))
        return self.value if result else 0

    def karma_of(self, result: Any) -> int:
        """The karma of what the card's expression gave (as :meth:`judge` counts it)."""
        if self.value is None:
            return max(0, min(COUNT_CAP, int(result)))
        return self.value if result else 0

    def text(self, lang: str = "en") -> str:
        return self.fr if lang == "fr" else self.en


def make_card(
    card_id: str, card_type: str, value: int | str, en: str, fr: str, expr: str, *, guarded: bool = True
) -> Card:
    """A compiled card; raises CardError saying what is wrong. ``guarded``: with the run-time step
    budget (every custom card; the built-in deck is compiled without it)."""
    if not isinstance(card_id, str) or not _ID.fullmatch(card_id):
        raise CardError(CARD_REFUSALS("refusal.commandments.card.field_id", value=short_repr(card_id)))
    if not isinstance(card_type, str) or card_type not in CARD_TYPES:
        raise CardError(CARD_REFUSALS("refusal.commandments.card.field_type", value=short_repr(card_type)))
    if value == "?":
        number: int | None = None
    elif isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_FIXED:
        number = value
    elif isinstance(value, str) and value in _VALUE_TEXTS:  # as the deck's listing writes it ("2")
        number = _VALUE_TEXTS[value]
    else:
        raise CardError(
            CARD_REFUSALS("refusal.commandments.card.field_value", max=MAX_FIXED, value=short_repr(value))
        )
    for name, text in (("en", en), ("fr", fr)):
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_CARD_TEXT:
            raise CardError(
                CARD_REFUSALS("refusal.commandments.card.field_text", field=repr(name), max=MAX_CARD_TEXT)
            )
    if not isinstance(expr, str):
        raise CardError(CARD_REFUSALS("refusal.commandments.card.field_expr", value=short_repr(expr)))
    domain = "board" if card_type == ARTEFACT else "performance"
    try:
        fn = compile_card_expr(expr, domain, number is None, guarded=guarded)
    except CardError as exc:
        problem = _said(exc)
        raise CardError(
            CARD_REFUSALS("refusal.commandments.card.expr", expr=short_repr(expr, 60), problem=problem)
        ) from None
    return Card(card_id, card_type, number, en.strip(), fr.strip(), expr, fn)


def _builtin() -> tuple[Card, ...]:
    cards: list[Card] = []
    for rows, card_type in ((ARTEFACT_ROWS, ARTEFACT), (ACTION_ROWS, ACTION)):
        for card_id, value, en, fr, expr in rows:
            cards.append(make_card(card_id, card_type, value, en, fr, expr, guarded=False))
    return tuple(cards)


BUILTIN: Final[tuple[Card, ...]] = _builtin()


SlotJudging = tuple[tuple[int, ...], bool, BoardFn | None, bool]
"""How the rules judge a card in a slot of a ritual, its karma ``k`` *packed* for the slot
(``k * 8 + 2**slot`` in a commandment's slot, ``-k * 8 + 1`` in the taboo's, 0 when ``k`` is 0: the
packed values of a move's three slots add up to its total times 8 plus its markers' bits): a table of
the packed values,
whether the table is indexed by the move's performance (else by its colour and areas), and for a card
that reads the board the function that gives its packed value on ``(after, before, colour, from, to)``
(no table then) and whether it reads the board before the move."""

PlanPart = tuple[int, tuple[int, ...] | BoardFn, bool]
"""A card in a slot as the rules' judging plan takes it: its kind (0: judged by its table by
performance, 1: by its table by colour and areas, 2: by its function on the board) times ``3**slot``
(so the three slots' kinds add up to the plan's pattern), that table or function, and whether it reads
the board before the move (see :func:`coven.games.commandments.rules.judging_plan`)."""


@dataclass(frozen=True, slots=True)
class Deck:
    """All the cards of a table (the box plus any custom ones), indexed by position."""

    cards: tuple[Card, ...]
    index: dict[str, int]
    artefact: tuple[int, ...]
    action: tuple[int, ...]
    judging: dict[int, SlotJudging] = field(default_factory=dict, compare=False, repr=False)
    """The rules' cache of how each card is judged in each slot on a move of the family, by the card's
    position times 3 plus the slot (see :func:`coven.games.commandments.rules.packed_slot`)."""
    parts: dict[int, PlanPart] = field(default_factory=dict, compare=False, repr=False)
    """The rules' cache of each card's :data:`PlanPart` in each slot, keyed as :attr:`judging`."""
    verdicts: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    """The rules' cache of each action card's verdicts on the performances of the moves they offer, by
    the card's position (an action card looks at the performance alone): for this deck only, as a
    custom card may share an id."""
    boardless: tuple[tuple[int, ...] | None, ...] = field(default=(), compare=False, repr=False)
    """:func:`boardless_table` of each card (by position; made by :meth:`of`): the rules judge an
    artefact card that never reads the board by its table."""
    on_board: tuple[BoardFn | None, ...] = field(default=(), compare=False, repr=False)
    """:func:`~coven.games.commandments.lang.board_function` of each card's function (by position;
    made by :meth:`of`): the rules judge a built-in artefact card that reads the board by it, without
    a :class:`Ctx` (see :meth:`Card.karma_of`)."""
    karma: tuple[BoardFn | None, ...] = field(default=(), compare=False, repr=False)
    """:func:`~coven.games.commandments.lang.karma_function` of each card (by position; made by
    :meth:`of`): the karma of a built-in board card, fixed or "?", as :meth:`Card.judge` gives it."""

    @classmethod
    def of(cls, cards: Sequence[Card]) -> Deck:
        cards = tuple(cards)
        return cls(
            cards,
            {c.id: i for i, c in enumerate(cards)},
            tuple(i for i, c in enumerate(cards) if c.type == ARTEFACT),
            tuple(i for i, c in enumerate(cards) if c.type == ACTION),
            boardless=tuple(boardless_table(c) for c in cards),
            on_board=tuple(board_function(c.fn) for c in cards),
            karma=tuple(karma_function(c.fn, c.value, COUNT_CAP) for c in cards),
        )


class _BoardReadError(Exception):
    """A card looked at the board while :func:`boardless_table` judged it."""


class _Unseen(Sequence[Sequence[int]]):
    """A board that raises :class:`_BoardReadError` when anything of it is read."""

    __slots__ = ()

    def __getitem__(self, index: object) -> Any:
        raise _BoardReadError

    def __len__(self) -> int:
        raise _BoardReadError

    def __iter__(self) -> Iterator[Sequence[int]]:
        raise _BoardReadError


_UNSEEN: Final = _Unseen()
BOARDLESS_SIZE: Final = 3 * NUM_AREAS * NUM_AREAS
"""The entries of a :func:`boardless_table`: one per colour, starting area and target area."""
BOARDLESS_STEPS: Final = 100
"""A custom card whose judgement takes more steps than this (its counting functions' work, see
:data:`~coven.games.commandments.lang.MAX_STEPS`) gets no table: making one would cost
:data:`BOARDLESS_SIZE` judgements (a few ms at this bound) when the table is created."""


def boardless_table(card: Card) -> tuple[int, ...] | None:
    """An artefact card's karma on every move, ``table[(colour * 12 + from) * 12 + to]``, when judging
    it never reads the board (the areas' contents, before or after the move); None when it does on
    some move, and for an action card.

    A judgement is a function of what it reads of its context: one that reads only the colour and
    the two areas (each move of the table is judged on a board that raises when read) gives the same
    on every board with them. The rules judge such a card by this table instead of by its function."""
    if card.type != ARTEFACT:
        return None
    out: list[int] = []
    for colour in range(3):
        for start in range(NUM_AREAS):
            for to in range(NUM_AREAS):
                ctx = Ctx(colour, start, to, _UNSEEN, _UNSEEN)
                try:
                    out.append(card.judge(ctx))
                except _BoardReadError:
                    return None
                if ctx.steps > BOARDLESS_STEPS:  # a costly custom card: not worth a table
                    return None
    return tuple(out)


def _said(exc: CardError) -> Message | str:
    """What ``exc`` says: its message (always one, as :class:`CardError` is typed), else its text."""
    return exc.reason if exc.reason is not None else str(exc)


def parse_custom_cards(text: str, *, one: bool = False) -> tuple[Card, ...]:
    """Cards from the ``custom_cards`` option (a JSON list); raises InvalidOptionError (never another
    exception) naming the card and saying what is wrong. ``one``: the list holds the one card a person is
    making (the deck page's preview), which a refusal names "the card" rather than "custom card 1"."""
    if not isinstance(text, str):
        raise InvalidOptionError(CARD_REFUSALS("refusal.commandments.cards.not_text", value=short_repr(text)))
    if len(text) > MAX_CUSTOM_TEXT:
        raise InvalidOptionError(
            CARD_REFUSALS("refusal.commandments.cards.too_long", max=MAX_CUSTOM_TEXT, length=len(text))
        )
    if not text.strip():
        return ()
    try:
        raw: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        said = f"custom_cards must be a JSON list of cards: {exc.msg}"
        where = {"line": exc.lineno, "column": exc.colno}
        raise InvalidOptionError(
            CARD_REFUSALS.worded(said, "refusal.commandments.cards.not_json", **where)
        ) from None
    except RecursionError:
        raise InvalidOptionError(CARD_REFUSALS("refusal.commandments.cards.too_deep")) from None
    except ValueError as exc:  # a number past Python's 4300-digit limit
        said = f"custom_cards must be a JSON list of cards: {str(exc)[:80]}"
        raise InvalidOptionError(
            CARD_REFUSALS.worded(said, "refusal.commandments.cards.long_number")
        ) from None
    if not isinstance(raw, list):
        raise InvalidOptionError(CARD_REFUSALS("refusal.commandments.cards.not_list"))
    if len(raw) > MAX_CUSTOM_CARDS:
        raise InvalidOptionError(
            CARD_REFUSALS("refusal.commandments.cards.too_many", max=MAX_CUSTOM_CARDS, count=len(raw))
        )
    known = {c.id for c in BUILTIN}
    cards: list[Card] = []
    named = "refusal.commandments.cards.the_card" if one else "refusal.commandments.cards.card"
    for number, item in enumerate(raw, 1):
        label = CARD_REFUSALS(named, n=number)
        if not isinstance(item, dict):
            raise InvalidOptionError(CARD_REFUSALS("refusal.commandments.cards.not_object", card=label))
        ident = item.get("id")
        if isinstance(ident, str):
            plain = len(ident) <= 20 and ident.isprintable()
            label = CARD_REFUSALS(f"{named}_id", n=number, id=ident if plain else short_repr(ident))
        unknown = set(item) - {"id", "type", "value", "en", "fr", "expr"}
        if unknown:
            names = ", ".join(sorted(unknown))
            names = names if len(names) <= 80 else names[:77] + "..."
            raise InvalidOptionError(
                CARD_REFUSALS("refusal.commandments.cards.unknown_fields", card=label, names=names)
            )
        missing = [k for k in ("id", "type", "value", "en", "expr") if k not in item]
        if missing:
            raise InvalidOptionError(
                CARD_REFUSALS(
                    "refusal.commandments.cards.missing_fields", card=label, names=", ".join(missing)
                )
            )
        try:
            fr: Any = item.get("fr", item["en"])
            card = make_card(item["id"], item["type"], item["value"], item["en"], fr, item["expr"])
        except CardError as exc:
            raise InvalidOptionError(
                CARD_REFUSALS("refusal.commandments.cards.bad_card", card=label, problem=_said(exc))
            ) from None
        if card.id in known:
            raise InvalidOptionError(
                CARD_REFUSALS("refusal.commandments.cards.id_taken", card=label, id=repr(card.id))
            )
        known.add(card.id)
        cards.append(card)
    return tuple(cards)


@lru_cache(maxsize=64)
def deck_for(custom: str) -> Deck:
    """The deck of a table whose ``custom_cards`` option is ``custom``."""
    return Deck.of(BUILTIN + parse_custom_cards(custom))
