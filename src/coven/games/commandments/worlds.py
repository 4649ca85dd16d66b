"""Sampled worlds for The 3 Commandments, drawn with the exact inference of :mod:`inference`.

A world is rebuilt from one seat's view alone: the cards this seat has seen stay; every unseen card
(other priestesses' hands and discards, unrevealed slots, the order of both piles) is drawn from the
cards not yet seen. The slots of a ritual the seat does not know are drawn from the exact posterior
(:func:`~coven.games.commandments.inference.ritual_posterior`), the same one the bots use, so every
sampled world reproduces every marker and every announced total the seat saw. The current ritual is
drawn first; with ``reveal=never`` earlier unrevealed rituals are then drawn in turn, each from its
exact posterior without the cards already drawn (a consistent world; the joint posterior of several
hidden rituals is not enumerated).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from coven.core.chance import fresh
from coven.games.commandments.cards import ACTION, ARTEFACT, Deck, deck_for
from coven.games.commandments.inference import (
    Posterior,
    consistent,
    judged_moves,
    ritual_posterior,
    seen_cards,
)
from coven.games.commandments.notation import JUDGE, PHASE_NAMES
from coven.games.commandments.rules import CommandmentsState, Ritual
from coven.games.commandments.view import CommandmentsView, RitualView

_ATTEMPTS = 50

move_contexts = judged_moves
"""The judged moves of a ritual with their contexts (kept under its older name)."""


class Sampler:
    """Everything a view fixes, worked out once: the cards this seat has seen, its hidden rituals and
    their exact posteriors (a function of the view alone, and the costly part: with ``reveal=never``
    every earlier ritual stays hidden, and a human judge in the expert variant leaves many totals to
    reach); :meth:`draw` draws the hidden cards anew each time."""

    def __init__(self, view: CommandmentsView) -> None:
        self.view = view
        deck = self.deck = deck_for(str(view.options["custom_cards"]))
        self.known = seen_cards(view, deck)
        hidden = [
            i
            for i, rv in enumerate(view.rituals)
            if not rv.hand and rv.slots and any(not s.card for s in rv.slots)
        ]
        hidden.sort(reverse=True)  # the current ritual first: it is the most constrained
        self.hidden = hidden
        self.posteriors: dict[int, Posterior] = {i: ritual_posterior(view, deck, i) for i in hidden}

    def draw(self, rng: random.Random) -> CommandmentsState:
        """A full state consistent with the view: unseen cards drawn as the module says, and a fresh
        chance source (a sampled world's future is not the true one)."""
        view, deck, hidden, posteriors = self.view, self.deck, self.hidden, self.posteriors
        drawn: dict[int, tuple[int, int, int]] = {}
        for _ in range(_ATTEMPTS):
            drawn = {}
            used: set[int] = set()
            for i in hidden:
                h = posteriors[i].sample(rng, frozenset(used))
                if h is None:
                    break
                drawn[i] = h
                used.update(h)
            if len(drawn) == len(hidden):
                break
        else:  # pragma: no cover - a world always exists (the true one); only very bad luck gets here
            raise RuntimeError("no world consistent with this view was drawn")
        taken = set(self.known)
        for h in drawn.values():
            taken.update(h)
        pools = {
            ARTEFACT: [c for c in deck.artefact if c not in taken],
            ACTION: [c for c in deck.action if c not in taken],
        }
        rng.shuffle(pools[ARTEFACT])
        rng.shuffle(pools[ACTION])
        rituals = [_ritual(deck, rv, pools, drawn.get(i)) for i, rv in enumerate(view.rituals)]
        phase = PHASE_NAMES.index(view.phase)
        state = CommandmentsState(
            view.players,
            dict(view.options),
            deck,
            fresh(rng),
            tuple(pools[ARTEFACT]),
            tuple(pools[ACTION]),
            rituals,
            phase,
            list(view.board),
            view.flips,
            list(view.karma),
            len(view.rituals[-1].moves) if view.rituals else 0,
            view.pending,
            view.pending_start,
        )
        assert phase != JUDGE or view.pending is not None
        return state


def build_world(view: CommandmentsView, rng: random.Random) -> CommandmentsState:
    """A full state consistent with ``view`` (the game's sampler, in ``Parts``): see :class:`Sampler`,
    which draws many worlds from one view."""
    return Sampler(view).draw(rng)


def world_sampler(view: CommandmentsView) -> Callable[[random.Random], CommandmentsState]:
    """Draws of worlds consistent with ``view``, its posteriors worked out once (``Parts.world_sampler``:
    a search's worlds, each of them :func:`build_world`'s)."""
    return Sampler(view).draw


def _ritual(
    deck: Deck, rv: RitualView, pools: dict[str, list[int]], slots_drawn: tuple[int, ...] | None
) -> Ritual:
    moves = list(rv.moves)
    placement, gains = rv.placement, list(rv.gains)
    if rv.hand:
        hand = [deck.index[c] for c in rv.hand]
        discard = deck.index[rv.discard] if rv.discard else -1
        slots = [deck.index[s.card] for s in rv.slots]
        return Ritual(rv.priestess, hand, discard, slots, placement, moves, gains, rv.disempowered, rv.ended)
    if not rv.slots:
        hand = [pools[ARTEFACT].pop(), pools[ARTEFACT].pop(), pools[ACTION].pop(), pools[ACTION].pop()]
        return Ritual(rv.priestess, hand, -1, [], placement, moves, gains, rv.disempowered, rv.ended)
    slots = list(slots_drawn) if slots_drawn is not None else [deck.index[s.card] for s in rv.slots]
    types = [deck.cards[c].type for c in slots]
    missing = ARTEFACT if types.count(ARTEFACT) < 2 else ACTION
    discard = pools[missing].pop()
    ordered: list[int] = []
    for kind in (ARTEFACT, ACTION):
        ordered += [c for c in slots[1:] if deck.cards[c].type == kind]
        ordered += [c for c in (slots[0], discard) if deck.cards[c].type == kind]
    return Ritual(rv.priestess, ordered, discard, slots, placement, moves, gains, rv.disempowered, rv.ended)


__all__ = ["Sampler", "build_world", "consistent", "move_contexts", "secrets"]


def secrets(state: CommandmentsState, seat: int) -> frozenset[str]:
    """What ``seat`` does not know of the cards drawn so far, as text: the id, the English and the
    French words of every card in a High Priestess's hand that is not ``seat``'s own and was not
    revealed to all (her discard never is; her taboo and commandments only at the end of her ritual,
    unless the table says ``reveal=never``). The order of the piles is left out: no card of them is
    in play yet."""
    cards = state.deck.cards
    shown = state.options["reveal"] != "never"
    out: set[str] = set()
    for ritual in state.rituals:
        if ritual.priestess == seat:
            continue
        for c in ritual.hand:
            if ritual.ended and shown and c in ritual.slots:
                continue
            card = cards[c]
            out.update((card.id, card.en, card.fr))
    return frozenset(out)
