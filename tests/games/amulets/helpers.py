"""Build Amulets positions from notation: secrets like ``"R@C3 Y@A1 G@E5"`` (one per seat)."""

from __future__ import annotations

from coven.core import Event
from coven.games.amulets import GAME, AmuletsState


def table(secrets: str, book: str = "-", **options: object) -> AmuletsState:
    """A game whose seats hold ``secrets`` (amulet code @ field per seat, seat 0 first), written as a
    position (see :mod:`coven.games.amulets.notation`) with the spell book ``book`` already played."""
    written = " ".join(f"{key}={value}" for key, value in options.items()) or "-"
    return GAME.read_position(f"{secrets} | {written} | {book} | 0:0")


def play(state: AmuletsState, seat: int, text: str) -> list[Event]:
    """Apply an action given in notation through the checked path."""
    return list(GAME.apply(state, seat, GAME.parse_action(text)))


def answers(state: AmuletsState) -> str:
    """The answers of the last spell-book entry."""
    return state.book[-1].answers
