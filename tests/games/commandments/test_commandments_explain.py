"""The explained result of The 3 Commandments on constructed games: what the forfeits of others earn."""

from __future__ import annotations

from coven.core import Event
from coven.core.explain import Explanation, ExplanationLine, moments_from_steps, render
from coven.core.lang import explanation_catalogue
from coven.games.commandments import GAME
from coven.games.commandments.notation import FORFEIT, Action
from coven.games.commandments.rules import CommandmentsState


def _first_ritual(
    players: int, plan: dict[int, list[bool]]
) -> tuple[CommandmentsState, list[tuple[int, list[Event]]]]:
    """A game played until its first ritual ends: each novice in ``plan`` forfeits the moves marked True
    there, in order; every other move earns karma (so that only the forfeits flip destiny cards), and
    the priestess takes her first legal action."""
    state = GAME.new_game(players, {}, seed=4)
    left = {seat: list(moves) for seat, moves in plan.items()}
    steps: list[tuple[int, list[Event]]] = []
    while not state.rituals[0].ended:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        if FORFEIT not in legal:  # the priestess
            action = legal[0]
        elif left.get(seat) and left[seat].pop(0):
            action = FORFEIT
        else:
            action = next(a for a in legal if a != FORFEIT and _earns(state, seat, a))
        steps.append((len(steps) + 1, GAME.apply(state, seat, action)))
    assert not any(left.values()), "the ritual ended before the plan"
    return state, steps


def _earns(state: CommandmentsState, seat: int, action: Action) -> bool:
    events = GAME.apply(GAME.clone(state), seat, action)
    totals = [e.data["total"] for e in events if e.kind == "karma"]
    return any(isinstance(total, int) and total > 0 for total in totals)


def _explained(state: CommandmentsState, steps: list[tuple[int, list[Event]]]) -> Explanation:
    explained = GAME.explain(GAME.view(state, None), moments_from_steps(steps, None))
    assert explained is not None
    return explained


def _forfeit_line(explained: Explanation, seat: int) -> ExplanationLine:
    (line,) = [x for x in explained.seats[seat].lines if x.key == "why.commandments.forfeits"]
    return line


def test_a_novice_who_forfeits_several_times_is_named_once() -> None:
    """Seat 1 forfeits twice in ritual I: the other novice earns 2 karma for each forfeit (4), and the line
    names seat 1 once, not once per forfeit ("{s1} and {s1}")."""
    state, steps = _first_ritual(3, {1: [True, True]})
    line = _forfeit_line(_explained(state, steps), 2)
    assert line.label == "Ritual I: 2 karma for each forfeit of another novice ({s1})"
    assert line.points == 4.0
    forfeit_steps = tuple(n for n, events in steps if any(e.kind == "forfeit" for e in events))
    assert line.steps == forfeit_steps and len(forfeit_steps) == 2  # each forfeit still cited
    french = render(line.key, line.params, explanation_catalogue("fr"), "fr")
    assert french == "Rituel I : 2 de karma pour chaque renoncement d'une autre novice ({s1})"


def test_the_novices_who_forfeited_are_each_named_once_in_their_order() -> None:
    """Four players, ritual I: seat 2 forfeits twice and seat 1 once (seat 2 first); seat 3 earns 2 karma
    for each of the three, and her line names seat 2 then seat 1; each forfeiter's line names the other."""
    state, steps = _first_ritual(4, {1: [False, True], 2: [True, True]})
    explained = _explained(state, steps)
    three = _forfeit_line(explained, 3)
    assert three.label == "Ritual I: 2 karma for each forfeit of another novice ({s2} and {s1})"
    assert three.points == 6.0
    assert _forfeit_line(explained, 1).label.endswith("({s2})")
    assert _forfeit_line(explained, 1).points == 4.0
    assert _forfeit_line(explained, 2).label.endswith("({s1})")
    assert _forfeit_line(explained, 2).points == 2.0
    assert [s.score for s in explained.seats] == [float(k) for k in GAME.scores(state)]
