"""The 3 Commandments' deck as data, and custom cards judged on a sample board, for the lobby's routes.

``GET /api/games/commandments/deck`` serves the box's cards (:func:`deck_out`) and
``POST /api/games/commandments/cards/preview`` checks one custom card exactly as a table's
``custom_cards`` option is checked (the same parser and the card language's bounds) and judges it on
:data:`SAMPLE_BOARD` for each of :data:`SAMPLE_MOVES` (:func:`preview`). Nothing here is a rule: the
engine's own functions judge.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Final, Literal

from coven.core import GameError, InvalidOptionError
from coven.games.commandments.board import AREA_NAMES, COLOURS, KINDS, PATH_NAMES
from coven.games.commandments.cards import BUILTIN, Card, parse_custom_cards
from coven.games.commandments.lang import (
    BOARD_WORDS,
    GESTURES,
    MAX_COST,
    MAX_TEXT,
    PERFORMANCE_WORDS,
    SAYINGS,
    TOUCHES,
    estimate_cost,
    parse,
)
from coven.games.commandments.notation import Move, budget_problem, format_action, move_problem, parse_action
from coven.games.commandments.rules import move_context
from coven.server import schemas

SAMPLE_BOARD: Final[tuple[int, ...]] = (0, 0, 1, 6, 11, 0, 2, 7, 11, 11, 3, 8, 8, 4, 9)
"""Where the fifteen artefacts stand before each sample move (wh1-wh5, bk1-bk5, br1-br5): some
together in the centre and the ring, some alone in a hexagon or a triangle, two areas left empty."""

_SAMPLE_TEXTS: Final[tuple[str, ...]] = (
    "wh1>C 4s",
    "bk3>H2 +bow 9s",
    'wh2>C>H3 +kneel "May I, oh great one?" 12s',
    'br1>R>X>T1 @hp "thank you, little cat" 22s',
    'bk5>T3 +dance +sing @novice "red" 40s',
    "br4>T5>H5 +stand +clap @artefact 7s",
)


def _sample_moves() -> tuple[Move, ...]:
    moves = []
    for text in _SAMPLE_TEXTS:
        move = parse_action(text)
        assert isinstance(move, Move), text
        problem = move_problem(move) or budget_problem(move)
        assert problem is None, f"{text}: {problem}"
        moves.append(move)
    return tuple(moves)


SAMPLE_MOVES: Final[tuple[Move, ...]] = _sample_moves()
"""A few ordinary moves of different kinds (quiet or showy, quick or slow, within the budget)."""


def card_out(card: Card) -> schemas.DeckCardOut:
    kind: Literal["artefact", "action"] = "artefact" if card.type == "artefact" else "action"
    return schemas.DeckCardOut(
        id=card.id, type=kind, value=card.value_text, en=card.en, fr=card.fr, expr=card.expr
    )


@cache
def deck_out() -> schemas.DeckOut:
    """The box's cards in deck order (artefact cards, then action cards) and the card language's words."""
    language = schemas.CardLanguageOut(
        board_words=sorted(BOARD_WORDS),
        performance_words=sorted(PERFORMANCE_WORDS),
        gestures=list(GESTURES),
        touches=list(TOUCHES),
        sayings=list(SAYINGS),
        areas=list(PATH_NAMES),
        colours=list(COLOURS),
        kinds=list(KINDS),
        max_text=MAX_TEXT,
        max_cost=MAX_COST,
    )
    return schemas.DeckOut(game="commandments", cards=[card_out(c) for c in BUILTIN], language=language)


class CardPreviewError(GameError):
    """The card is refused; the message says why (as table creation would say it, of "the card"), and its
    ``reason`` in words of no language (:mod:`coven.core.refusals`)."""

    code = "invalid_card"


def preview(raw: schemas.CustomCardIn) -> schemas.CardPreviewOut:
    """Check ``raw`` as one card of the ``custom_cards`` option (CardPreviewError saying why otherwise)
    and judge it on the sample board for every sample move."""
    item: dict[str, object] = {
        "id": raw.id,
        "type": raw.type,
        "value": raw.value,
        "en": raw.en,
        "fr": raw.fr if raw.fr is not None and raw.fr.strip() else raw.en,
        "expr": raw.expr,
    }
    try:
        (card,) = parse_custom_cards(json.dumps([item]), one=True)
    except InvalidOptionError as exc:
        raise CardPreviewError(exc.reason or str(exc)) from None
    board = list(SAMPLE_BOARD)
    sample = []
    for move in SAMPLE_MOVES:
        karma = card.judge(move_context(board, move))
        sample.append(
            schemas.SampleJudgementOut(
                move=format_action(move),
                start=AREA_NAMES[board[move.artefact]],
                karma=karma,
                marked=karma > 0,
            )
        )
    return schemas.CardPreviewOut(
        ok=True,
        card=card_out(card),
        cost=estimate_cost(parse(card.expr)),
        max_cost=MAX_COST,
        board=[AREA_NAMES[a] for a in SAMPLE_BOARD],
        sample=sample,
    )
