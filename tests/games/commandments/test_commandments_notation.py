"""Notation, views, sampled worlds and the terminal picture."""

from __future__ import annotations

import random

import pytest

from coven.core import NotationError
from coven.games.commandments import GAME
from coven.games.commandments.inference import consistent
from coven.games.commandments.notation import (
    BUDGET,
    MOVE_FAMILY,
    PERFORMANCES,
    Action,
    Forfeit,
    Judge,
    Move,
    Ordain,
    Place,
    beats,
)

from .helpers import play, table


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("bk3>C 10s", Move(7, 0)),
        (
            'wh1>R>X>H2 +stand +dance @hp "may I, oh great one?" 12s',
            Move(0, 2, (11, 12), ("stand", "dance"), ("hp",), "may I, oh great one?", 12),
        ),
        ("forfeit", Forfeit()),
        ("ordain discard=P05 taboo=A01", Ordain("P05", "A01")),
        (
            "place wh=C,C,H1,T2,R bk=R,R,R,R,R br=T1,T2,T3,T4,T5",
            Place((0, 0, 1, 7, 11) + (11,) * 5 + (6, 7, 8, 9, 10)),
        ),
        ("judge yes,no", Judge((1, 0))),
        ("judge -", Judge(())),
    ],
)
def test_notation_round_trips(text: str, action: Action) -> None:
    assert GAME.parse_action(text) == action
    assert GAME.format_action(action) == text
    assert GAME.action_from_json(GAME.action_to_json(action)) == action


def test_typing_is_forgiving_about_case_order_and_default_time() -> None:
    assert GAME.parse_action('BK3>c "hi there" +Bow') == Move(7, 0, gestures=("bow",), words="hi there")
    assert GAME.parse_action("judge Y, n,1 ,0") == Judge((1, 0, 1, 0))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("bk3", "a move is ARTEFACT>AREA"),
        ("zz1>C", "not an artefact"),
        ("bk3>Q", "not an area"),
        ("bk3>X", "must end its move in an area"),
        ("bk3>C +moonwalk", "not a gesture"),
        ("bk3>C +dance +dance", "given twice"),
        ("bk3>C ~", "unexpected '~'"),
        ('bk3>C "a" "b"', "once"),
        ('bk3>C "open', "unclosed"),
        ("bk3>C 5000s", "0 to 3600 seconds"),
        ("ordain discard=P05", "ordain takes"),
        ("place wh=C,C bk=R,R,R,R,R br=R,R,R,R,R", "five areas"),
        ("judge maybe", "judge takes yes or no"),
        ("judge 2", "judge takes yes or no"),
        ("bk3>C !permission", "free text now"),
    ],
)
def test_bad_notation_is_refused_with_reasons(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        GAME.parse_action(text)


def test_the_representative_family_is_legal_everywhere_and_interned() -> None:
    state = table(4, ["A01", "A02", "P02", "P03"])
    play(state, 0, "ordain discard=P02 taboo=A01")
    play(state, 0, "place wh=R,R,R,R,R bk=T1,T1,H2,H2,H2 br=T1,T1,H3,H3,H3")
    legal = GAME.legal_actions(state, 1)
    assert len(legal) == 15 * 12 * len(PERFORMANCES) + 1
    assert legal[0] == Forfeit()  # first, so a front end showing only a few still offers it
    assert legal[1:] == MOVE_FAMILY
    assert all(beats(m) <= BUDGET for m in MOVE_FAMILY)
    assert GAME.legal_actions(state, 2) == ()
    # a performance outside the family is legal too
    assert GAME.illegal_reason(state, 1, GAME.parse_action('bk1>H1>C>X>R +sing +hum "la la" 99s')) is None


def test_views_hide_the_cards_and_worlds_redraw_them_consistently() -> None:
    state = table(4, ["A01", "A02", "P02", "P03"])
    play(state, 0, "ordain discard=P02 taboo=A01")
    play(state, 0, "place wh=R,R,R,R,R bk=T1,T1,H2,H2,H2 br=T1,T1,H3,H3,H3")
    play(state, 1, "bk1>C +stand")
    play(state, 2, "wh1>C +dance")
    view = GAME.view(state, 3)
    assert all(s.card == "" for s in view.rituals[-1].slots)
    assert GAME.view(state, None).rituals[-1].hand == ()
    seen = set()
    deck = state.deck
    for k in range(12):
        world = GAME.world_from_view(view, random.Random(k))
        assert GAME.view(world, 3) == view
        slots = [deck.cards[c] for c in world.rituals[-1].slots]
        assert [c.type for c in slots] == ["artefact", "artefact", "action"]
        rv = view.rituals[-1]
        assert consistent(world.rituals[-1].slots, deck, rv, False)  # the markers and totals hold
        seen.add(tuple(c.id for c in slots))
    assert len(seen) > 1
    # the priestess's own world keeps her cards
    own = GAME.view(state, 0)
    world = GAME.world_from_view(own, random.Random(1))
    assert [deck.cards[c].id for c in world.rituals[-1].slots] == ["A01", "A02", "P03"]


def test_render_draws_the_circle_slots_pad_and_destiny_cards() -> None:
    state = table(4, ["A01", "A02", "P02", "P03"])
    play(state, 0, "ordain discard=P02 taboo=A01")
    play(state, 0, "place wh=R,R,R,R,R bk=T1,T1,H2,H2,H2 br=T1,T1,H3,H3,H3")
    play(state, 1, 'bk1>C +stand +smile "hello little one"')
    novice = GAME.render(GAME.view(state, 2))
    assert "centre     C  : bk1" in novice
    assert "triangle T1 : bk2 br1 br2" in novice
    assert "taboo       red / artefact  ?" in novice
    assert "<- marked on the last move" in novice
    assert "Destiny cards: oooo" in novice
    assert "Karma pad" in novice and "3 karma" in novice
    assert "+gesture:" in novice  # seat 2 moves next: the notation reminder is shown
    priestess = GAME.render(GAME.view(state, 0))
    assert "A01 (2) If you move a white artefact" in priestess
    assert "Discarded unseen: P02" in priestess


def test_views_carry_the_texts_of_the_cards_the_seat_knows_and_no_others() -> None:
    from coven.games.commandments import GAME as G

    state = G.new_game(4, None, 3)
    priestess = min(G.to_act(state))
    mine = G.view(state, priestess)
    assert [c.id for c in mine.cards] == list(mine.rituals[-1].hand)
    assert all(c.en and c.fr and c.type in {"artefact", "action"} for c in mine.cards)
    for seat in (*(s for s in range(4) if s != priestess), None):
        assert G.view(state, seat).cards == ()
    assert G.view_from_json(G.view_to_json(mine)) == mine
