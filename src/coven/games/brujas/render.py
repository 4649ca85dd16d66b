"""Terminal picture of a view."""

from __future__ import annotations

from coven.games.brujas.game import BrujasView


def render(view: BrujasView) -> str:
    return repr(view)
