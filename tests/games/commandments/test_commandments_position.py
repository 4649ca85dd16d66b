"""Positions (write_position / read_position): round trips in every variant, hand-written positions
that fix the future (the next High Priestess's cards), and bad texts refused with reasons."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from coven.core import NotationError
from coven.games.commandments import GAME
from coven.games.commandments.board import AREA_INDEX
from coven.testing.conformance import check_game

from .helpers import karma_event, play

PLACEMENT = "C,C,C,C,C,R,R,R,R,R,H1,H2,H3,H4,H5"
"""wh1-wh5 in the centre, bk1-bk5 on the ring, br1-br5 on the hexagons."""


def _position(
    hand: str,
    slots: str,
    moves: str,
    gains: str,
    *,
    top_red: tuple[str, ...] = (),
    top_green: tuple[str, ...] = (),
    judge: str = "engine",
    pending: str = "-",
) -> str:
    """A hand-written position of a 3-player game in seat 0's ritual, her cards and moves as given; the
    piles hold every other card of the box in id order, ``top_*`` last (drawn first)."""
    deck = GAME.new_game(3, {}, 0).deck
    held = set(hand.split(","))
    red = [deck.cards[c].id for c in deck.artefact if deck.cards[c].id not in held | set(top_red)]
    green = [deck.cards[c].id for c in deck.action if deck.cards[c].id not in held | set(top_green)]
    discard = next(c for c in hand.split(",") if c not in slots.split(","))
    return (
        f"commandments players=3 expert=0 judge={judge} reveal=ritual_end cards=- chance=2a:0 "
        f"red={','.join([*red, *reversed(top_red)])} green={','.join([*green, *reversed(top_green)])} "
        f"r=0/{hand}/{discard}/{slots}/{PLACEMENT}/{gains}/-/{moves} pending={pending}"
    )


THREE_FORFEITS = "1:-:-:0:1:forfeit;2:-:-:0:2:forfeit;1:-:-:0:3:forfeit"
"""Seat 1, seat 2, seat 1 forfeit: three negative destiny cards; seat 1 has 2 karma, seat 2 has 4."""


def test_a_hand_written_position_fixes_the_next_high_priestess_cards() -> None:
    text = _position(
        "A01,A02,P01,P02",
        "A01,A02,P01",
        THREE_FORFEITS,
        "0,2,4",
        top_red=("A30", "A31"),
        top_green=("P40", "P41"),
    )
    state = GAME.read_position(text)
    assert GAME.write_position(state) == text
    assert GAME.to_act(state) == {2}
    assert state.flips == 3
    assert list(GAME.scores(state)) == [0, 2, 4]
    events = play(state, 2, "forfeit")  # the fourth negative destiny card
    kinds = [e.kind for e in events]
    assert kinds == ["forfeit", "disempowered", "revealed", "ritual", "hand"]
    hand = events[-1]
    assert hand.audience == {1}
    assert hand.data["cards"] == ["A30", "A31", "P40", "P41"]
    assert list(GAME.scores(state)) == [0, 2 + 2 + 20, 4 + 20]
    assert GAME.to_act(state) == {1}


def test_the_piles_in_a_position_are_the_whole_future() -> None:
    """Two positions that differ only in the order of the piles deal differently, whatever the chance."""
    first = _position("A01,A02,P01,P02", "A01,A02,P01", THREE_FORFEITS, "0,2,4", top_red=("A30", "A31"))
    second = _position("A01,A02,P01,P02", "A01,A02,P01", THREE_FORFEITS, "0,2,4", top_red=("A31", "A30"))
    hands = []
    for text in (first, second):
        state = GAME.read_position(text)
        hands.append(play(state, 2, "forfeit")[-1].data["cards"])
    assert hands[0][:2] == ["A30", "A31"]
    assert hands[1][:2] == ["A31", "A30"]
    assert hands[0][2:] == hands[1][2:] == ["P45", "P44"]  # the top of the green pile: its last ids


def test_a_move_waiting_for_her_judgement_reads_back_with_its_start() -> None:
    text = _position(
        "A01,A02,P01,P02",
        "A01,A02,P01",
        "-",
        "0,0,0",
        judge="priestess",
        pending="bk1>H1%208s",
    )
    state = GAME.read_position(text)
    assert GAME.write_position(state) == text
    view = GAME.view(state, 1)
    assert view.phase == "judge"
    assert view.to_move == 0
    assert view.pending_start == AREA_INDEX["R"]  # bk1 (artefact 5) was placed on the ring
    assert view.board[5] == AREA_INDEX["H1"]
    assert [GAME.format_action(a) for a in GAME.legal_actions(state, 0)] == ["judge yes", "judge no"]
    events = play(state, 0, "judge no")
    assert karma_event(events)["seat"] == 1


@pytest.mark.parametrize(
    "options",
    [
        {"judge": "priestess"},
        {"expert": True, "reveal": "never"},
        {
            "custom_cards": json.dumps(
                [
                    {
                        "id": "Heavy",
                        "type": "artefact",
                        "value": 3,
                        "en": "Always: / a; b, c=d",
                        "fr": "Toujours, même ici",
                        "expr": "sum(count(area)) > 0",
                    }
                ]
            )
        },
    ],
    ids=["judge", "expert-never", "custom"],
)
def test_positions_round_trip_and_play_on_in_every_variant(options: dict[str, Any]) -> None:
    """The conformance checks of positions (and all the others), with the options the suite leaves out."""
    report = check_game(GAME, 4, 2, options, max_checked_steps=8)
    assert report.checked_steps > 0


def _bad(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


GOOD = _position("A01,A02,P01,P02", "A01,A02,P01", THREE_FORFEITS, "0,2,4")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "starts with 'commandments'"),
        ("commandments players=3", "a position has"),
        (_bad(GOOD, "players=3", "players=9"), "3 to 7 players"),
        (_bad(GOOD, "judge=engine", "judge=jury"), "judge is one of"),
        (_bad(GOOD, "chance=2a:0", "chance=zz"), "key:counter"),
        (_bad(GOOD, "red=", "red=A01,"), "every card of the deck is once"),
        (_bad(GOOD, "red=", "red=P03,"), "is not an artefact card"),
        (_bad(GOOD, "red=", "red=Z99,"), "no card of this deck"),
        (_bad(GOOD, "r=0/", "r=1/"), "High Priestess is seat 0"),
        (_bad(GOOD, "2:-:-:0:2:forfeit", "1:-:-:0:2:forfeit"), "is not seat 1's to make"),
        (_bad(GOOD, "/A01,A02,P01/", "/A01,A02,P03/"), "her four cards"),
        (_bad(GOOD, PLACEMENT, "C,C,C"), "15 area names"),
        (_bad(GOOD, "/0,2,4/", "/0,2/"), "one karma gain"),
        (_bad(GOOD, "pending=-", "pending=bk1>C"), "waits for judgement only"),
        (_bad(GOOD, "pending=-", "pending=forfeit"), "not a novice's move"),
        (GOOD.replace(" pending=-", " r=1/A03,A04,P03,P04/-/-/-/0,0,0/-/- pending=-"), "is not ended"),
        (GOOD + " ### nonsense", "pending=MOVE or pending=-"),
    ],
)
def test_bad_positions_are_refused_with_reasons(text: str, message: str) -> None:
    assert GAME.read_position(GOOD) is not None
    with pytest.raises(NotationError, match=message):
        GAME.read_position(text)


def test_mangled_positions_are_refused_or_play_on() -> None:
    """Whatever a text holds, read_position raises NotationError or gives a state the rules can play."""
    rng = random.Random(5)
    texts = []
    for seed, options in enumerate(({}, {"judge": "priestess"}, {"expert": True, "reveal": "never"})):
        state = GAME.new_game(3 + seed, options, seed)
        while GAME.to_act(state):
            texts.append(GAME.write_position(state))
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    signs = "0123456789aAPCHRTX,;:/=-% >+@\x00"
    refused = 0
    for _ in range(600):
        text = rng.choice(texts)
        at = rng.randrange(len(text))
        text = rng.choice(
            (text[:at] + rng.choice(signs) + text[at + 1 :], text[:at], text[:at] + text[at + 3 : at + 9])
        )
        try:
            state = GAME.read_position(text)
        except NotationError:
            refused += 1
            continue
        GAME.write_position(state)
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    assert refused > 300
