"""Worlds of Namaste: what a seat does not know, and full states consistent with what it does.

Namaste hides no hand, so its sampled worlds are trivial: the view holds every sheet, bad-karma space
and the dice on the table. Two things stay hidden all the same: the other players' choices on the
current roll until everyone asked has decided (a sampled world draws each of them among that seat's
legal choices), and the dice not yet rolled (a sampled world gets a fresh chance source, drawn from the
sampler's generator, never the true one).
"""

from __future__ import annotations

import random

from coven.core import Seat
from coven.core.chance import fresh
from coven.games.namaste.notation import ROLLS, Action, Write, dice_phrase, format_action, parse_action
from coven.games.namaste.rules import DECIDE, OVER, RULES, NamasteState, assemble
from coven.games.namaste.view import NamasteView


def world_from_view(view: NamasteView, rng: random.Random) -> NamasteState:
    """A full state the viewer cannot tell from the true one: the table as the view shows it, the other
    seats' undisclosed choices drawn uniformly among their legal ones, and a fresh future."""
    state = assemble(
        view.players,
        dict(view.options),
        view.sheets,
        view.karma,
        view.line_points,
        view.claimed,
        starter=view.starter,
        active=view.active,
        phase=view.phase,
        dice=(view.white, view.turquoise) if view.phase == DECIDE else None,
        turns=view.turns,
        ending=view.ending,
        chance=fresh(rng),
    )
    if view.phase == DECIDE:
        # Seats that decided already: the viewer's own choice is known, the others' are drawn.
        for s in view.asked:
            if s in view.to_decide:
                continue
            action: Action
            if s == view.seat and view.my_choice:
                action = parse_action(view.my_choice)
            else:
                legal = RULES.legal_actions(state, s)
                action = legal[rng.randrange(len(legal))]
            state.pending[s] = action
            state.waiting &= ~(1 << s)
    return state


def secrets(state: NamasteState, seat: Seat) -> frozenset[str]:
    """As the terminal would print them: each other seat's written choice on the current roll
    (``14@c3``; ``pass`` and ``karma`` are not distinctive) unless it is a choice ``seat`` itself has or
    made, and the next roll for 1, 2 and 3 white dice (``white 3 5  turquoise 2``)."""
    own = {format_action(a) for a in RULES.legal_actions(state, seat)}
    mine = state.pending.get(seat)
    if mine is not None:
        own.add(format_action(mine))
    out = {
        text
        for s, action in state.pending.items()
        if s != seat and isinstance(action, Write) and (text := format_action(action)) not in own
    }
    for roll in ROLLS if state.phase != OVER else ():
        future = RULES.clone(state)
        future.pending = {}
        RULES.apply_unchecked(future, future.active, roll)  # the rules' own draw, on a copy
        out.add(dice_phrase(future.white, future.turquoise))
    return frozenset(out)
