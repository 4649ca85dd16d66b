"""Helpers for the rule tests: a table whose first High Priestess holds chosen cards."""

from __future__ import annotations

from coven.core import Event
from coven.games.commandments import GAME
from coven.games.commandments.cards import ARTEFACT
from coven.games.commandments.rules import CommandmentsState


def table(players: int, hand: list[str], options: dict[str, object] | None = None) -> CommandmentsState:
    """A new game whose first priestess (seat 0) holds ``hand`` (two artefact cards, two action)."""
    state = GAME.new_game(players, options or {}, seed=1)
    deck = state.deck
    ritual = state.ritual
    red, green = list(state.red), list(state.green)
    for c in ritual.hand:
        (red if deck.cards[c].type == ARTEFACT else green).append(c)
    wanted = [deck.index[c] for c in hand]
    for c in wanted:
        (red if deck.cards[c].type == ARTEFACT else green).remove(c)
    state.red, state.green = tuple(red), tuple(green)
    ritual.hand = wanted
    return state


def play(state: CommandmentsState, seat: int, text: str) -> list[Event]:
    return GAME.apply(state, seat, GAME.parse_action(text))


def karma_event(events: list[Event]) -> dict[str, object]:
    found = [e for e in events if e.kind == "karma"]
    assert len(found) == 1, events
    return dict(found[0].data)
