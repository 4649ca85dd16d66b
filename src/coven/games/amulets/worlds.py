"""What a wizard of Amulets does not know, as text. The sampled worlds themselves are drawn by the
exact deduction engine (:mod:`coven.games.amulets.deduction`, through ``AmuletsGame.world_from_view``);
this module names the secrets the way the terminal prints a wizard's own: ``your home is B3``,
``your amulet Red (R)`` and the pair ``R@B3``."""

from __future__ import annotations

from coven.games.amulets.board import pair_name, pair_of
from coven.games.amulets.render import amulet_text, home_text
from coven.games.amulets.rules import AmuletsState


def secrets(state: AmuletsState, seat: int) -> frozenset[str]:
    """Every other wizard's home and amulet (the spell book never names them outright)."""
    out: set[str] = set()
    for other in range(state.players):
        if other == seat:
            continue
        field, amulet = state.fields[other], state.amulets[other]
        out.update((home_text(field), amulet_text(amulet), pair_name(pair_of(field, amulet))))
    return frozenset(out)
