"""The deck as data: every card against a hand-made position, the language, custom cards, texts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from coven.core import InvalidOptionError
from coven.games.commandments import GAME
from coven.games.commandments.cards import BUILTIN, COUNT_CAP, deck_for, make_card, parse_custom_cards
from coven.games.commandments.lang import CardError, compile_card_expr, parse
from coven.games.commandments.notation import Move, parse_action
from coven.games.commandments.rules import move_context

from .helpers import karma_event, play, table

# The hand-made position (areas of wh1-5, bk1-5, br1-5):
#   C: wh1 bk1 | H1: wh2 wh3 | H2: bk2 | H3: - | H4: br1 br2 bk3 | H5: -
#   T1: wh4 | T2: - | T3: br3 | T4: - | T5: - | R: wh5 bk4 bk5 br4 br5
BOARD = (*(0, 1, 1, 6, 11), *(0, 2, 4, 11, 11), *(4, 4, 8, 11, 11))
# M1: wh4 from T1 into the centre, carried over H1 and out of the circle, standing up and dancing,
# touching the High Priestess with it, saying "May I? White!" (asking permission, naming a colour),
# in 40 seconds (11 beats: over the budget, judged here but never applied).
# After it: C: wh1 bk1 wh4 (3, two colours) and T1 is empty.
M1 = 'wh4>H1>X>C +stand +dance @hp_art "May I? White!" 40s'
# M2: br3 lifted from T3 and put back, silently, without moving, in 3 seconds.
M2 = "br3>T3 3s"

# card id: (karma on M1, karma on M2); worked out by hand from the card texts.
EXPECTED: dict[str, tuple[int, int]] = {
    "A01": (2, 0),  # white moved
    "A02": (0, 1),  # artefacts left in the starting area (T1 empty; T3 holds br3)
    "A03": (3, 4),  # single-coloured areas: H1 H2 T3 | H1 H2 T1 T3
    "A04": (4, 4),  # areas with black: C H2 H4 R
    "A05": (3, 0),  # last artefact removed from T1 | put back
    "A06": (2, 1),  # colours in the target area
    "A07": (0, 2),  # target a triangle
    "A08": (2, 2),  # start a triangle
    "A09": (2, 1),  # white in the centre
    "A10": (5, 5),  # most artefacts in one area (R)
    "A11": (0, 0),  # black moved
    "A12": (0, 2),  # brown moved
    "A13": (3, 0),  # target the centre
    "A14": (0, 0),  # target a hexagon
    "A15": (0, 0),  # target the ring
    "A16": (0, 0),  # start the centre
    "A17": (0, 0),  # start a hexagon
    "A18": (0, 0),  # start the ring
    "A19": (0, 0),  # T1-C not adjacent; an area is not adjacent to itself
    "A20": (2, 0),  # neither the start nor adjacent
    "A21": (0, 4),  # put back
    "A22": (0, 0),  # target empty before
    "A23": (3, 1),  # artefacts in the target
    "A24": (6, 5),  # empty areas: H3 H5 T1 T2 T4 T5 | H3 H5 T2 T4 T5
    "A25": (3, 2),  # artefacts in the centre
    "A26": (5, 5),  # artefacts in the ring
    "A27": (1, 2),  # artefacts in the triangles
    "A28": (6, 6),  # artefacts in the hexagons
    "A29": (0, 1),  # white in the triangles
    "A30": (2, 2),  # black in the hexagons (H2, H4)
    "A31": (2, 2),  # brown in the ring
    "A32": (1, 1),  # areas of three colours (R)
    "A33": (3, 4),  # areas with white: C H1 R | C H1 T1 R
    "A34": (3, 3),  # areas with brown: H4 T3 R
    "A35": (2, 1),  # moved colour in the target
    "A36": (0, 2),  # target single-coloured
    "A37": (0, 0),  # target of three colours
    "A38": (0, 3),  # start left single-coloured (T1 empty | T3 brown only)
    "A39": (2, 0),  # next to one of the same colour
    "A40": (0, 0),  # target had none of that colour
    "A41": (0, 0),  # inside to the ring
    "A42": (0, 0),  # ring to the inside
    "A43": (0, 0),  # away from the centre
    "A44": (2, 0),  # towards the centre (triangle to centre)
    "A45": (2, 3),  # areas with exactly one artefact: H2 T3 | H2 T1 T3
    "A46": (1, 1),  # artefacts in the start before the move
    "A47": (3, 2),  # occupied neighbours of the target: H1 H2 H4 | H4 R (T3 touches H3 H4 R)
    "A48": (2, 2),  # empty hexagons H3 H5
    "A49": (4, 3),  # empty triangles T1 T2 T4 T5 | T2 T4 T5
    "A50": (0, 0),  # centre empty
    "A51": (0, 0),  # every hexagon occupied
    "A52": (2, 0),  # target holds more than start
    "A53": (2, 0),  # target holds a black artefact
    "A54": (0, 2),  # start and target of the same kind
    "A55": (2, 2),  # more white than black: C H1 | H1 T1 (C holds one of each)
    "A56": (8, 8),  # artefacts next to the start: T1 -> H1 H2 R = 2+1+5 | T3 -> H3 H4 R = 0+3+5
    "A57": (0, 2),  # only one of its colour in the target
    "A58": (3, 0),  # target holds exactly three
    "A59": (0, 1),  # brown in the target
    "A60": (1, 1),  # black in the centre
    "A61": (1, 2),  # areas with exactly two: H1 | C H1
    "A62": (0, 0),  # triangle to another triangle
    "A63": (1, 2),  # triangles holding artefacts: T3 | T1 T3
    "P01": (3, 0),  # asks permission
    "P02": (0, 2),  # does not move the upper body
    "P03": (2, 0),  # dances
    "P04": (0, 0),
    "P05": (1, 0),  # stands up
    "P06": (0, 0),
    "P07": (0, 0),
    "P08": (0, 0),
    "P09": (4, 0),  # touches her with the artefact
    "P10": (0, 0),
    "P11": (0, 0),
    "P12": (0, 0),
    "P13": (0, 0),
    "P14": (0, 0),
    "P15": (0, 0),
    "P16": (3, 0),  # touches her (with the artefact counts)
    "P17": (0, 0),
    "P18": (0, 0),
    "P19": (0, 2),  # says nothing
    "P20": (2, 0),  # names a colour ("white")
    "P21": (4, 0),  # leaves the circle
    "P22": (0, 0),  # over the centre (the path is H1, X)
    "P23": (1, 0),  # areas carried over (X is not an area)
    "P24": (2, 0),  # more than 30 seconds
    "P25": (0, 3),  # within 5 seconds
    "P26": (0, 0),  # three gestures or more
    "P27": (0, 0),
    "P28": (0, 0),
    "P29": (0, 0),
    "P30": (0, 0),
    "P31": (0, 0),
    "P32": (0, 0),
    "P33": (0, 0),
    "P34": (2, 0),  # two to four words (may, i, white)
    "P35": (0, 0),
    "P36": (0, 0),
    "P37": (0, 0),
    "P38": (0, 0),  # exactly one gesture
    "P40": (0, 2),  # touches nothing
    "P41": (0, 0),  # exactly one word
    "P43": (0, 0),  # 6 to 15 seconds
    "P44": (0, 0),  # 16 to 30 seconds
    "P45": (0, 0),  # waves
}


def _judge(card_id: str, text: str) -> int:
    deck = deck_for("")
    card = deck.cards[deck.index[card_id]]
    move = parse_action(text)
    assert isinstance(move, Move)
    return card.judge(move_context(BOARD, move))


@pytest.mark.parametrize("card_id", sorted(EXPECTED))
def test_every_card_against_the_hand_made_position(card_id: str) -> None:
    assert (_judge(card_id, M1), _judge(card_id, M2)) == EXPECTED[card_id]


def test_the_table_covers_the_whole_deck() -> None:
    assert sorted(EXPECTED) == sorted(c.id for c in BUILTIN)


def test_the_deck_holds_63_artefact_and_43_action_cards_with_distinct_ids() -> None:
    # the box's 37 printed action cards and 6 of its 7 blank ones (see DECK.md)
    assert sum(c.type == "artefact" for c in BUILTIN) == 63
    assert sum(c.type == "action" for c in BUILTIN) == 43
    assert len({c.id for c in BUILTIN}) == 106
    counting = [c for c in BUILTIN if c.type == "artefact" and c.counting]
    assert 25 <= len(counting) <= 38  # about half the artefact cards are "?" cards
    assert all(1 <= c.value <= 5 for c in BUILTIN if c.value is not None)


def test_every_text_of_cards_md_is_in_the_deck() -> None:
    source = Path("/work/shared/rules/cards.md")
    known = [
        "If you move a white artefact",
        "Number of artefacts in the starting area",
        "Number of areas with artefacts of exactly one colour",
        "Number of areas with at least one black artefact",
        "If you remove the last artefact from its starting area",
        "Number of colours in the target area",
        "If the target area is a triangle",
        "If the starting area is a triangle",
        "Number of white artefacts in the centre",
        "Maximum number of artefacts in one area",
        "If you ask the High Priestess for permission to take your turn",
        "If you do not move the upper part of your body",
        "If you dance",
        "If you act macho",
        "If you stand up",
        "If you sing",
        "If you offend another novice",
        "If you curse",
        "If you touch the High Priestess with the artefact you move",
        "If you call the High Priestess by an animal's name",
    ]
    texts = {c.en for c in BUILTIN}
    assert all(t in texts for t in known)
    if source.exists():  # the list above is taken from the table rows of cards.md
        rows = re.findall(
            r"^\| (If [^|]+?|Number [^|]+?)(?: \(reported loosely\))? \|", source.read_text(), re.M
        )
        assert all(r.strip() in texts for r in rows)
    assert next(c for c in BUILTIN if c.en.startswith("If you ask")).value == 3  # cards.md


def test_every_card_has_a_french_text() -> None:
    for card in BUILTIN:
        assert card.fr and card.fr != card.en, card.id
        assert card.fr.startswith(("Si ", "Nombre ")), card.id


def test_question_mark_cards_counting_zero_are_not_marked() -> None:
    state = table(4, ["A09", "A25", "P03", "P05"])
    play(state, 0, "ordain discard=P05 taboo=P03")  # taboo dance; do: whites in C, artefacts in C
    play(state, 0, "place wh=R,R,R,R,R bk=R,R,R,R,R br=R,R,R,R,R")
    result = karma_event(play(state, 1, "bk1>H1"))
    assert result["marks"] == [0, 0, 0] and result["verdict"] == "no karma"
    result = karma_event(play(state, 2, "bk2>C"))
    assert result["marks"] == [0, 0, 1] and result["total"] == 1


# ----------------------------------------------------------------------------- the language
@pytest.mark.parametrize(
    ("expr", "domain", "counting", "message"),
    [
        ('count("Z")', "board", True, "'Z' is not an area"),
        ('did("dance")', "board", False, "only action cards"),
        ('count("C")', "performance", True, "only artefact cards"),
        ('colour == "pink"', "board", False, "'pink' is not a colour"),
        ('kind(to) == "square"', "board", False, "'square' is not a kind of area"),
        ("colour == 3", "board", False, "expected a colour here, found a number"),
        ("count(from", "board", True, "expected ')'"),
        ("area", "board", True, "only means something inside"),
        ("count(to)", "board", False, "must give a condition"),
        ("to == from", "board", True, "must give a number"),
        ('did("moonwalk")', "performance", False, "'moonwalk' is not a gesture"),
        ("__import__('os')", "board", False, "unknown function"),
        ("count(to) ; 1", "board", True, "unexpected character"),
        ("", "board", True, "empty"),
        ("count(to, to, to)", "board", True, "takes 1 or 2 argument"),
    ],
)
def test_malformed_expressions_are_refused_with_reasons(
    expr: str, domain: str, counting: bool, message: str
) -> None:
    with pytest.raises(CardError, match=re.escape(message)):
        compile_card_expr(expr, domain, counting)


def test_the_language_is_parsed_into_a_tree_never_evaluated_as_python() -> None:
    tree = parse('areas(count(area, "black") > 0) - 1')
    assert tree.op == "-" and tree.args[0].op == "call" and tree.args[0].value == "areas"
    fn = compile_card_expr(
        'sum(kind(area) == "hexagon", count(area)) * 2 + before(count(from))', "board", True
    )
    ctx = move_context(BOARD, Move(3, 0))  # wh4 T1 -> C
    assert fn(ctx) == 6 * 2 + 1


# ------------------------------------------------------------------------------- custom cards
CUSTOM = [
    {"id": "M1", "type": "artefact", "value": 4, "en": "If you move into H3", "expr": 'to == "H3"'},
    {
        "id": "M2",
        "type": "action",
        "value": "?",
        "en": "Number of things you say",
        "fr": "Nombre de choses dites",
        "expr": "words + gestures",
    },
]


def test_custom_cards_join_the_deck() -> None:
    cards = parse_custom_cards(json.dumps(CUSTOM))
    assert [c.id for c in cards] == ["M1", "M2"]
    assert cards[0].fr == cards[0].en  # French defaults to the English text
    state = GAME.new_game(3, {"custom_cards": json.dumps(CUSTOM)}, 5)
    assert len(state.deck.artefact) == 64 and len(state.deck.action) == 44
    assert cards[0].judge(move_context(BOARD, Move(0, 3))) == 4


@pytest.mark.parametrize(
    ("custom", "message"),
    [
        ("not json", "must be a JSON list"),
        ('{"id": "X"}', "must be a JSON list"),
        ("[1]", "custom card 1 must be an object"),
        ('[{"id": "X1", "type": "artefact", "value": 2, "en": "x"}]', "missing field(s) expr"),
        ('[{"id": "X1", "type": "spell", "value": 2, "en": "x", "expr": "out"}]', "type must be"),
        ('[{"id": "X1", "type": "artefact", "value": 12, "en": "x", "expr": "from == to"}]', "value must be"),
        ('[{"id": "A01", "type": "artefact", "value": 2, "en": "x", "expr": "from == to"}]', "already taken"),
        ('[{"id": "X1", "type": "artefact", "value": 2, "en": "x", "expr": "out"}]', "only action cards"),
        ('[{"id": "X1", "type": "action", "value": "?", "en": "x", "expr": "silent"}]', "must give a number"),
        ('[{"id": "X1", "type": "action", "value": 1, "en": "", "expr": "silent"}]', "text 'en'"),
        ('[{"id": "1X", "type": "action", "value": 1, "en": "x", "expr": "silent"}]', "id '1X'"),
        (
            '[{"id": "X1", "type": "action", "value": 1, "en": "x", "expr": "silent", "magic": 1}]',
            "unknown field",
        ),
    ],
)
def test_custom_cards_are_validated_with_clear_errors(custom: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=re.escape(message)):
        GAME.new_game(3, {"custom_cards": custom}, 1)


def test_counts_are_capped() -> None:
    card = make_card("Z1", "action", "?", "x", "x", "seconds")
    ctx = move_context(BOARD, Move(0, 0, seconds=300))
    assert card.judge(ctx) == COUNT_CAP
