"""Terminal picture of a view (plain text, a little Rich markup)."""

from __future__ import annotations

from coven.games.commandments.game import CommandmentsView


def render(view: CommandmentsView) -> str:
    return repr(view)
