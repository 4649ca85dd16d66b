"""Worlds of Amulets: full states consistent with what a wizard knows, and what it does not know as text.

A wizard knows its own secret and the public spell book; the exact deduction engine
(:mod:`coven.games.amulets.deduction`) draws the other wizards' secrets uniformly from the worlds the
book still allows (rulebook 004 deals uniformly, and a question says nothing about its asker's secret).
The world gets a fresh chance source (:func:`coven.core.chance.fresh`): whatever the true deal's source
would draw next is not the sampler's to know (Amulets draws nothing after the deal anyway).

:func:`secrets` names the hidden parts the way the terminal prints a wizard's own: ``your home is B3``,
``your amulet Red (R)`` and the pair ``R@B3``.
"""

from __future__ import annotations

import random

from coven.core.chance import fresh
from coven.games.amulets.board import FIELDS, amulet_text, home_text, pair_name, pair_of
from coven.games.amulets.rules import AmuletsState, question_limit
from coven.games.amulets.view import AmuletsView, knowledge_of


def world_from_view(view: AmuletsView, rng: random.Random) -> AmuletsState:
    """A full state consistent with ``view``: the other wizards' secrets drawn exactly uniformly from
    the worlds the spell book allows."""
    knowledge = knowledge_of(view)
    world = knowledge.sample(rng)
    fields = [0] * view.players
    amulets = [0] * view.players
    if view.seat is not None:
        fields[view.seat] = view.field
        amulets[view.seat] = view.amulet
    for s, pair in zip(knowledge.seats, world, strict=True):
        fields[s] = pair % FIELDS
        amulets[s] = pair // FIELDS
    options = dict(view.options)
    return AmuletsState(
        view.players,
        options,
        tuple(fields),
        tuple(amulets),
        view.turn,
        list(view.out),
        view.winner,
        view.over,
        [entry.as_tuple() for entry in view.book],
        view.questions,
        fresh(rng),
        question_limit(options),
    )


def secrets(state: AmuletsState, seat: int) -> frozenset[str]:
    """Every other wizard's home and amulet (the spell book never names them outright)."""
    out: set[str] = set()
    for other in range(state.players):
        if other == seat:
            continue
        field, amulet = state.fields[other], state.amulets[other]
        out.update((home_text(field), amulet_text(amulet), pair_name(pair_of(field, amulet))))
    return frozenset(out)
