"""What a seat of Namaste does not know. Namaste hides no hand, so its sampled worlds are trivial (they
live beside the view in :mod:`coven.games.namaste.rules`); two things stay hidden all the same: the
other players' choices on the current roll until everyone asked has decided, and the dice not yet
rolled (drawn from the state's seeded generator)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from coven.games.namaste.render import dice_phrase
from coven.games.namaste.rules import OVER, ROLLS, NamasteState, Write

if TYPE_CHECKING:
    from coven.games.namaste.rules import NamasteGame


def secrets(game: NamasteGame, state: NamasteState, seat: int) -> frozenset[str]:
    """As the terminal would print them: each other seat's written choice on the current roll
    (``14@c3``; ``pass`` and ``karma`` are not distinctive) unless it is a choice ``seat`` itself has or
    made, and the next roll for 1, 2 and 3 white dice (``white 3 5  turquoise 2``)."""
    own = {game.format_action(a) for a in game.legal_actions(state, seat)}
    mine = state.pending.get(seat)
    if mine is not None:
        own.add(game.format_action(mine))
    out = {
        text
        for s, action in state.pending.items()
        if s != seat and isinstance(action, Write) and (text := game.format_action(action)) not in own
    }
    for roll in ROLLS if state.phase != OVER else ():
        future = game.clone(state)
        game.apply_unchecked(future, future.active, roll)  # the rules' own draw, on a copy
        out.add(dice_phrase(future.white, future.turquoise))
    return frozenset(out)
