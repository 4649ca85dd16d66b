"""Build Amulets positions from notation: secrets like ``"R@C3 Y@A1 G@E5"`` (one per seat)."""

from __future__ import annotations

from coven.core import Event
from coven.games.amulets import GAME, AmuletsState
from coven.games.amulets.board import AMULET_CODES, parse_field


def table(secrets: str, **options: object) -> AmuletsState:
    """A fresh game whose seats hold ``secrets`` (amulet code + field per seat, seat 0 first)."""
    tokens = secrets.split()
    state = GAME.new_game(len(tokens), options, 0)
    for seat, token in enumerate(tokens):
        code, _, where = token.partition("@")
        state.amulets[seat] = AMULET_CODES.index(code)
        state.fields[seat] = parse_field(where)
    return state


def play(state: AmuletsState, seat: int, text: str) -> list[Event]:
    """Apply an action given in notation through the checked path."""
    return list(GAME.apply(state, seat, GAME.parse_action(text)))


def answers(state: AmuletsState) -> str:
    """The answers of the last spell-book entry."""
    return state.book[-1].answers
