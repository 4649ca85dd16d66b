"""Rule tests in the game's notation, one per worked example of the rulebook and per rule."""

from __future__ import annotations

import pytest

from coven.core import GameOverError, IllegalActionError, NotYourTurnError
from coven.games.commandments import GAME
from coven.games.commandments.board import ADJACENT, AREA_NAMES, NEIGHBOURS, parse_area
from coven.games.commandments.notation import BUDGET, Judge, Move, Place, beats
from coven.games.commandments.rules import rounds_for

from .helpers import karma_event, play, table

# Example 1: Kara (seat 0) is High Priestess; Jenn (seat 1) is the first novice.
EXAMPLE_1_HAND = ["A01", "A02", "P02", "P03"]
EXAMPLE_1_PLACE = "place wh=R,R,R,R,R bk=T1,T1,H2,H2,H2 br=T1,T1,H3,H3,H3"


def test_example_1a_discard_one_card_unseen_and_set_the_taboo() -> None:
    state = table(4, EXAMPLE_1_HAND)
    events = play(state, 0, "ordain discard=P02 taboo=A01")
    ritual = state.ritual
    ids = [state.deck.cards[c].id for c in ritual.slots]
    assert ids == ["A01", "A02", "P03"]  # taboo "white artefact"; do "starting area", "dance"
    public = [e for e in events if e.audience is None]
    assert public[0].data["slots"] == ["artefact", "artefact", "action"]
    assert all("P02" not in str(e.data) for e in public)  # the discard is seen by her alone
    novice = GAME.view(state, 1).rituals[-1]
    assert [(s.type, s.role, s.card) for s in novice.slots] == [
        ("artefact", "taboo", ""),
        ("artefact", "commandment", ""),
        ("action", "commandment", ""),
    ]
    assert novice.hand == () and novice.discard == ""
    own = GAME.view(state, 0).rituals[-1]
    assert own.discard == "P02" and [s.card for s in own.slots] == ["A01", "A02", "P03"]


def test_example_1b_1c_jenn_earns_three_karma() -> None:
    state = table(4, EXAMPLE_1_HAND)
    play(state, 0, "ordain discard=P02 taboo=A01")
    play(state, 0, EXAMPLE_1_PLACE)
    # Jenn takes a black artefact from a triangle where three remain, stands up, talks to the
    # artefact, smiles at Kara and puts it into the centre.
    result = karma_event(play(state, 1, 'bk1>C +stand +smile "hello little one"'))
    assert result["total"] == 3 and result["verdict"] == "karma"
    assert result["marks"] == [0, 1, 0]  # only "number of artefacts in the starting area"
    assert state.karma == [0, 3, 0, 0]
    assert state.flips == 0


# Example 2: Fred (seat 0) is High Priestess; Gordon (seat 1) moves after three failures in a row.
EXAMPLE_2_HAND = ["A03", "A04", "P01", "P05"]
EXAMPLE_2_PLACE = "place wh=T1,H2,H3,H3,H3 bk=C,C,T1,H1,H2 br=H1,R,R,R,R"


def _example_2() -> object:
    state = table(4, EXAMPLE_2_HAND)
    play(state, 0, "ordain discard=P05 taboo=A04")
    play(state, 0, EXAMPLE_2_PLACE)
    return state


def test_example_2a_three_novices_in_a_row_fail() -> None:
    state = _example_2()
    ids = [state.deck.cards[c].id for c in state.ritual.slots]  # type: ignore[attr-defined]
    assert ids == ["A04", "A03", "P01"]
    for seat, move in ((1, "wh3>H3"), (2, "wh4>H3"), (3, "wh5>H3")):
        result = karma_event(play(state, seat, move))  # type: ignore[arg-type]
        # 3 single-coloured areas, 4 with black, no permission asked: 3 - 4 < 0
        assert result["verdict"] == "bad karma" and result["total"] == -1
        assert "amount" not in result
    assert state.flips == 3  # type: ignore[attr-defined]
    assert state.karma == [0, 0, 0, 0]  # type: ignore[attr-defined]


def test_example_2b_2c_gordon_earns_four_and_the_destiny_cards_reset() -> None:
    state = _example_2()
    for seat, move in ((1, "wh3>H3"), (2, "wh4>H3"), (3, "wh5>H3")):
        play(state, seat, move)  # type: ignore[arg-type]
    assert GAME.view(state, 1).flips == 3  # type: ignore[arg-type]
    # "May I?" - then a black artefact from a triangle into the centre, where two black ones lie.
    result = karma_event(play(state, 1, 'bk3>C "May I?"'))  # type: ignore[arg-type]
    assert result["marks"] == [1, 1, 1]  # all three cards marked
    assert result["total"] == 4  # 3 (permission) + 4 (single-coloured areas) - 3 (areas with black)
    assert state.karma == [0, 4, 0, 0]  # type: ignore[attr-defined]
    assert state.flips == 0  # type: ignore[attr-defined]


def test_fourth_flip_disempowers_the_high_priestess() -> None:
    state = table(4, ["A21", "A13", "P03", "P05"])
    play(state, 0, "ordain discard=A13 taboo=P05")  # taboo: stand up; do: put back, dance
    play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    play(state, 1, "wh1>R +dance")  # 2 karma
    assert state.karma == [0, 2, 0, 0]
    for seat, move in ((2, "wh2>R"), (3, "wh3>R"), (1, "wh4>R +stand")):
        verdict = karma_event(play(state, seat, move))["verdict"]
        assert verdict in ("no karma", "bad karma")
    assert state.flips == 3
    events = play(state, 2, "bk1>C")
    kinds = [e.kind for e in events]
    assert "disempowered" in kinds and "revealed" in kinds
    assert state.karma == [0, 22, 20, 20]  # every novice +20, the priestess nothing
    past = state.rituals[0]
    assert past.disempowered and past.ended and past.gains[0] == 0
    assert state.ritual.priestess == 1 and GAME.to_act(state) == frozenset({1})
    assert [s.card for s in GAME.view(state, 3).rituals[0].slots] == ["P05", "A21", "P03"]


def test_a_regular_end_gives_the_priestess_the_best_novices_karma() -> None:
    state = table(3, ["A21", "A13", "P03", "P05"])
    play(state, 0, "ordain discard=A13 taboo=P05")
    play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    assert rounds_for(3) == 4
    moves = ["wh1>C", "wh2>R +dance", "wh1>C +dance", "wh3>H1", "wh1>C", "wh4>H1", "br1>T1", "bk1>R"]
    for turn, move in enumerate(moves):
        play(state, 1 + turn % 2, move)
    # seat 1 put back four times (4 each) and danced once (2): 18; seat 2 danced once (2) and put
    # bk1 back on R (4): 6; the priestess gets the best novice's 18
    assert state.rituals[0].gains == [18, 18, 6]
    assert state.karma == [18, 18, 6]
    assert state.rituals[0].ended and not state.rituals[0].disempowered
    assert state.ritual.priestess == 1


def test_a_forfeit_gives_every_other_novice_two_karma_and_flips_a_destiny_card() -> None:
    # revised ruling: the forfeiting novice received no karma, so one destiny card flips
    state = table(4, ["A21", "A13", "P03", "P05"])
    play(state, 0, "ordain discard=A13 taboo=P05")
    play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    play(state, 1, "wh1>R")
    assert state.flips == 1
    board = list(state.board)
    events = play(state, 2, "forfeit")
    assert [e.kind for e in events] == ["forfeit"]
    assert events[0].data["flips"] == 2
    assert state.karma == [0, 2, 0, 2]  # not the priestess, not the mover
    assert state.flips == 2 and state.board == board
    assert GAME.to_act(state) == frozenset({3})
    log = GAME.view(state, 1).rituals[-1].moves[-1]
    assert log.move is None and log.seat == 2 and log.flips == 2


def test_the_fourth_flip_by_forfeit_disempowers_the_priestess() -> None:
    state = table(4, ["A21", "A13", "P03", "P05"])
    play(state, 0, "ordain discard=A13 taboo=P05")
    play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    for seat in (1, 2, 3):
        play(state, seat, "forfeit")
    assert state.flips == 3 and not state.rituals[0].disempowered
    events = play(state, 1, "forfeit")
    assert [e.kind for e in events][:3] == ["forfeit", "disempowered", "revealed"]
    ritual = state.rituals[0]
    assert ritual.ended and ritual.disempowered
    # 2 for each other novice's forfeit (seat 1 forfeited twice), then 20 each for disempowering
    assert ritual.gains == [0, 2 + 2 + 20, 2 + 2 + 2 + 20, 2 + 2 + 2 + 20]
    assert state.ritual.priestess == 1 and state.flips == 0


def test_novices_move_clockwise_from_the_priestess_left_for_the_rounds_of_the_player_count() -> None:
    assert [rounds_for(n) for n in range(3, 8)] == [4, 3, 3, 2, 2]
    state = table(5, ["A21", "A13", "P03", "P05"])
    play(state, 0, "ordain discard=A13 taboo=P05")
    play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    order = []
    while state.ritual.priestess == 0:
        (seat,) = GAME.to_act(state)
        order.append(seat)
        play(state, seat, "wh1>C")  # put back: 4 karma every time
    assert order == [1, 2, 3, 4] * 3
    assert state.karma == [12, 12, 12, 12, 12]


def test_cards_are_revealed_at_the_end_or_never() -> None:
    for reveal, shown in (("ritual_end", ["P05", "A21", "P03"]), ("never", ["", "", ""])):
        state = table(3, ["A21", "A13", "P03", "P05"], {"reveal": reveal})
        play(state, 0, "ordain discard=A13 taboo=P05")
        play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
        for turn in range(8):
            play(state, 1 + turn % 2, "wh1>C")
        assert [s.card for s in GAME.view(state, 1).rituals[0].slots] == shown
        assert [s.card for s in GAME.view(state, 0).rituals[0].slots] == ["P05", "A21", "P03"]
        assert GAME.view(state, 0).rituals[0].discard == "A13"
        assert GAME.view(state, 1).rituals[0].discard == ""


def test_expert_variant_hides_the_markers_but_announces_the_total() -> None:
    state = table(4, EXAMPLE_1_HAND, {"expert": True})
    play(state, 0, "ordain discard=P02 taboo=A01")
    play(state, 0, EXAMPLE_1_PLACE)
    result = karma_event(play(state, 1, "bk1>C +stand"))
    assert result["total"] == 3 and "marks" not in result
    assert GAME.view(state, 2).rituals[-1].moves[-1].marks == ()
    assert GAME.view(state, 0).rituals[-1].moves[-1].marks == (0, 1, 0)


def test_a_human_priestess_judges_the_action_cards_yes_or_no_each() -> None:
    state = table(4, EXAMPLE_1_HAND, {"judge": "priestess"})
    play(state, 0, "ordain discard=P02 taboo=A01")
    play(state, 0, EXAMPLE_1_PLACE)
    events = play(state, 1, "bk1>C +stand")
    assert [e.kind for e in events] == ["move"]
    assert GAME.to_act(state) == frozenset({0})
    assert GAME.legal_actions(state, 0) == [GAME.parse_action("judge yes"), GAME.parse_action("judge no")]
    with pytest.raises(IllegalActionError, match="yes or no for each of your 1 action card"):
        play(state, 0, "judge yes,yes")
    with pytest.raises(IllegalActionError, match="judged yes"):
        GAME.apply(state, 0, Judge((2,)))
    # she says the novice danced: the artefact cards are still judged by the engine
    result = karma_event(play(state, 0, "judge yes"))
    assert result["total"] == 3 + 2 and result["marks"] == [0, 1, 1]
    assert GAME.to_act(state) == frozenset({2})


def test_the_judging_choices_stay_few_with_two_action_cards_and_a_counting_one() -> None:
    state = table(4, ["A01", "A02", "P23", "P03"], {"judge": "priestess"})
    play(state, 0, "ordain discard=A02 taboo=A01")  # taboo: white; do: areas carried over, dance
    play(state, 0, EXAMPLE_1_PLACE)
    play(state, 1, "bk1>H1>H2>C +dance")
    assert len(GAME.legal_actions(state, 0)) == 4  # yes/no for each of her two action cards
    # yes to the "?" card counts what the engine counts (2 areas carried over), yes to the dance
    result = karma_event(play(state, 0, "judge yes,yes"))
    assert result["total"] == 2 + 2 and result["marks"] == [0, 1, 1]
    play(state, 2, "bk2>C +dance")
    result = karma_event(play(state, 0, "judge yes,no"))  # nothing carried over: yes counts 0
    assert result["verdict"] == "no karma" and result["marks"] == [0, 0, 0]


def test_example_3a_3b_the_priestess_decides_what_is_macho() -> None:
    # Gordon (seat 0 here) has "if you act macho" among his commandments. Jenn only stands up: he
    # does not count that as macho. Kara stamps her feet, stretches out her arm with a white artefact
    # from the centre and says "Hey sweetie, all alone today!": macho, to him.
    state = table(4, ["A16", "A13", "P04", "P05"], {"judge": "priestess"})
    play(state, 0, "ordain discard=P05 taboo=A13")  # taboo: into the centre; do: from the centre, macho
    play(state, 0, "place wh=C,C,R,R,R bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    play(state, 1, "wh3>H1 +stand")
    assert karma_event(play(state, 0, "judge no"))["verdict"] == "no karma"
    # Online a performance costs beats: all of hers (3 gestures, 5 words) is 11, one past the budget
    with pytest.raises(IllegalActionError, match="takes 11 beats, more than the 10"):
        play(state, 2, 'wh1>H2 +stand +stamp +stretch "Hey sweetie, all alone today!"')
    play(state, 2, 'wh1>H2 +stamp +stretch "Hey sweetie, all alone today!"')  # she stays seated: 9
    result = karma_event(play(state, 0, "judge yes"))
    assert result["total"] == 3 + 3 and result["marks"] == [0, 1, 1]


def test_illegal_actions_say_why_and_change_nothing() -> None:
    state = table(4, EXAMPLE_1_HAND)
    with pytest.raises(IllegalActionError, match="do not hold 'A05'"):
        play(state, 0, "ordain discard=A05 taboo=A01")
    with pytest.raises(IllegalActionError, match="cannot also be the taboo"):
        play(state, 0, "ordain discard=A01 taboo=A01")
    with pytest.raises(IllegalActionError, match="not a novice's move now"):
        play(state, 0, "wh1>C")
    with pytest.raises(NotYourTurnError):
        play(state, 1, "ordain discard=P02 taboo=A01")
    play(state, 0, "ordain discard=P02 taboo=A01")
    with pytest.raises(IllegalActionError, match="place all 15"):
        GAME.apply(state, 0, Place((0,) * 14))
    play(state, 0, EXAMPLE_1_PLACE)
    with pytest.raises(IllegalActionError, match="not a gesture"):
        GAME.apply(state, 1, Move(5, 0, gestures=("moonwalk",)))
    with pytest.raises(IllegalActionError, match="twice in a row"):
        GAME.apply(state, 1, Move(5, 0, path=(11, 11)))
    with pytest.raises(IllegalActionError, match="end its move in an area"):
        GAME.apply(state, 1, Move(5, 12))
    assert state.karma == [0, 0, 0, 0] and state.ritual.moves == []


def test_the_game_ends_after_every_player_was_priestess_once_and_ties_share() -> None:
    state = table(3, ["A21", "A13", "P03", "P05"])
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        if state.phase == 0:
            GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        elif state.phase == 1:
            play(state, seat, "place wh=C,C,C,C,C bk=C,C,C,C,C br=C,C,C,C,C")
        else:
            play(state, seat, "forfeit")
    # every move forfeited: each forfeit flips a destiny card, so the fourth (each novice's second)
    # disempowers the priestess: a novice gets 2 for each of the other's 2 forfeits and 20, twice as a
    # novice; a disempowered priestess gets nothing
    assert [r.priestess for r in state.rituals] == [0, 1, 2]
    assert all(r.disempowered and len(r.moves) == 4 for r in state.rituals)
    assert state.karma == [48, 48, 48]
    assert GAME.winners(state) == frozenset({0, 1, 2})
    with pytest.raises(GameOverError):
        play(state, 0, "forfeit")


def test_the_holy_circle_adjacency_is_the_rulings() -> None:
    def adj(a: str, b: str) -> bool:
        x, y = parse_area(a), parse_area(b)
        assert x is not None and y is not None
        return ADJACENT[x][y]

    assert [AREA_NAMES[a] for a in NEIGHBOURS[0]] == ["H1", "H2", "H3", "H4", "H5"]
    assert adj("H1", "H2") and adj("H5", "H1") and not adj("H1", "H3")
    assert adj("T1", "H1") and adj("T1", "H2") and adj("T5", "H5") and adj("T5", "H1")
    assert not adj("T1", "C") and not adj("T1", "T2") and not adj("T1", "H3")
    assert all(adj("R", n) for n in ("H1", "H3", "T2", "T5")) and not adj("R", "C")
    assert all(ADJACENT[a][b] == ADJACENT[b][a] for a in range(12) for b in range(12))
    assert sum(map(len, NEIGHBOURS)) == 2 * (5 + 5 + 10 + 10)


def test_a_performance_costs_beats_and_a_move_past_the_budget_is_refused() -> None:
    state = table(4, EXAMPLE_1_HAND)
    play(state, 0, "ordain discard=P02 taboo=A01")
    play(state, 0, EXAMPLE_1_PLACE)
    cases = {
        "bk1>C": 0,
        'bk1>C "May I?"': 2,  # a word is a beat
        'bk1>C "puis-je"': 2,  # words as the lexicon cuts them
        "bk1>C +stand +smile": 4,  # a gesture is two
        "bk1>C @hp": 2,  # a touch is two
        "bk1>H1>X>C": 2,  # an area carried over (or out of the circle) is one
        'bk1>H1>C +dance @hp_art "oh great one"': 8,
    }
    for text, cost in cases.items():
        move = GAME.parse_action(text)
        assert isinstance(move, Move) and beats(move) == cost, text
        assert GAME.illegal_reason(state, 1, move) is None
    stuffed = 'bk1>C +stand +dance +sing @hp "may I please"'  # 6 + 2 + 3
    assert GAME.illegal_reason(state, 1, GAME.parse_action(stuffed)) is not None
    assert GAME.illegal_reason(state, 1, GAME.parse_action('bk1>C +stand +dance +sing @hp "hi"')) is None
    board = list(state.board)
    with pytest.raises(IllegalActionError, match=r"takes 11 beats, more than the 10 a move allows"):
        play(state, 1, stuffed)
    with pytest.raises(IllegalActionError, match="5 gesture"):
        play(state, 1, 'bk1>C +stand +dance +sing +bow +clap "la"')
    assert state.board == board and state.ritual.moves == [] and GAME.to_act(state) == frozenset({1})
    assert BUDGET == 10


def test_the_front_end_stamps_the_measured_seconds_over_what_was_typed() -> None:
    state = table(4, ["A21", "A13", "P25", "P05"])
    play(state, 0, "ordain discard=A13 taboo=P05")  # taboo: stand up; do: put back, move within 5 s
    play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    typed = GAME.parse_action("wh1>C 99s")  # the novice claims 99 seconds
    stamped = GAME.stamp_time(typed, 4.6)  # the server measured 4.6 s
    assert isinstance(stamped, Move) and stamped.seconds == 5 and stamped.artefact == 0
    result = karma_event(GAME.apply(state, 1, stamped))
    assert result["total"] == 4 + 3  # put back, and quick by the measured time
    assert GAME.view(state, 2).rituals[-1].moves[-1].move == stamped  # the log holds what was measured
    slow = GAME.stamp_time(GAME.parse_action("wh2>C 1s"), 8.2)
    assert karma_event(GAME.apply(state, 2, slow))["total"] == 4  # 8 s: not quick, whatever was typed
    assert [GAME.stamp_time(typed, s).seconds for s in (0.4, 0.5, -3.0, float("nan"), 1e9)] == [  # type: ignore[union-attr]
        0,
        1,
        0,
        0,
        3600,
    ]
    assert GAME.stamp_time(GAME.parse_action("forfeit"), 3.0) == GAME.parse_action("forfeit")
