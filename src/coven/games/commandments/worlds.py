"""Sampled worlds and replayed judgements for The 3 Commandments.

A world is rebuilt from one seat's view alone: the cards this seat has seen stay; every unseen card
(other priestesses' hands and discards, unrevealed slots, the order of both piles) is drawn from the
cards not yet seen. Slots of the current ritual are drawn, within a bounded number of tries, so that
they reproduce the markers and totals already announced (a sample that fits what the seat knows).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from coven.games.commandments.board import COLOUR_OF
from coven.games.commandments.cards import ACTION, ARTEFACT, Card, Deck, deck_for
from coven.games.commandments.game import (
    JUDGE,
    PHASE_NAMES,
    CommandmentsState,
    CommandmentsView,
    MoveLog,
    Ritual,
    RitualView,
    announce,
    karma_total,
)
from coven.games.commandments.lang import Ctx

if TYPE_CHECKING:
    from coven.games.commandments.game import CommandmentsGame

_TRIES = 40
_ENUMERATE = 4000


def move_contexts(placement: Sequence[int], moves: Sequence[MoveLog]) -> list[tuple[MoveLog, Ctx]]:
    """The judged moves of a ritual, each with the context it was judged in (forfeits skipped)."""
    from coven.games.commandments.game import move_context

    board = list(placement)
    out: list[tuple[MoveLog, Ctx]] = []
    for log in moves:
        if log.move is None:
            continue
        out.append((log, move_context(board, log.move)))
        board[log.move.artefact] = log.move.to
    return out


def fits(cards: Sequence[Card], judged: Sequence[tuple[MoveLog, Ctx]], engine_actions: bool) -> bool:
    """Whether slot cards ``cards`` reproduce every announced marker and total of ``judged``.

    With a human judge (``engine_actions`` False) action cards are not checked against markers and
    totals only bind when every slot is an artefact card.
    """
    exact = engine_actions or all(c.type == ARTEFACT for c in cards)
    for log, ctx in judged:
        values = [c.judge(ctx) for c in cards]
        if log.marks:
            for card, value, mark in zip(cards, values, log.marks, strict=True):
                if (engine_actions or card.type == ARTEFACT) and (value > 0) != bool(mark):
                    return False
        if exact and announce(karma_total(values)) != log.total:
            return False
    return True


def build_world(game: CommandmentsGame, view: CommandmentsView, rng: random.Random) -> CommandmentsState:
    deck = deck_for(str(view.options["custom_cards"]))
    known: set[int] = set()
    for rv in view.rituals:
        known.update(deck.index[c] for c in rv.hand)
        if rv.discard:
            known.add(deck.index[rv.discard])
        known.update(deck.index[s.card] for s in rv.slots if s.card)
    pools = {
        ARTEFACT: [c for c in deck.artefact if c not in known],
        ACTION: [c for c in deck.action if c not in known],
    }
    rng.shuffle(pools[ARTEFACT])
    rng.shuffle(pools[ACTION])
    engine_actions = view.options["judge"] != "priestess"
    rituals: list[Ritual] = []
    for number, rv in enumerate(view.rituals):
        current = number == len(view.rituals) - 1
        ritual = _ritual(deck, rv, pools, rng, engine_actions if current else None)
        rituals.append(ritual)
    phase = PHASE_NAMES.index(view.phase)
    red = pools[ARTEFACT]
    green = pools[ACTION]
    state = CommandmentsState(
        view.players,
        dict(view.options),
        deck,
        random.Random(rng.getrandbits(64)),
        red,
        green,
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


def _ritual(
    deck: Deck,
    rv: RitualView,
    pools: dict[str, list[int]],
    rng: random.Random,
    engine_actions: bool | None,
) -> Ritual:
    moves = list(rv.moves)
    common = {
        "placement": rv.placement,
        "moves": moves,
        "gains": list(rv.gains),
        "disempowered": rv.disempowered,
        "ended": rv.ended,
    }
    if rv.hand:
        hand = [deck.index[c] for c in rv.hand]
        discard = deck.index[rv.discard] if rv.discard else -1
        slots = [deck.index[s.card] for s in rv.slots]
        return Ritual(rv.priestess, hand, discard, slots, **common)  # type: ignore[arg-type]
    if not rv.slots:
        hand = [pools[ARTEFACT].pop(), pools[ARTEFACT].pop(), pools[ACTION].pop(), pools[ACTION].pop()]
        return Ritual(rv.priestess, hand, -1, [], **common)  # type: ignore[arg-type]
    unknown = [i for i, s in enumerate(rv.slots) if not s.card]
    slots = [deck.index[s.card] if s.card else -1 for s in rv.slots]
    if unknown:
        judged = move_contexts(rv.placement, moves) if engine_actions is not None else []
        chosen = _draw_slots(deck, rv, slots, unknown, pools, rng, judged, bool(engine_actions))
        for i, c in zip(unknown, chosen, strict=True):
            slots[i] = c
            pools[deck.cards[c].type].remove(c)
    types = [deck.cards[c].type for c in slots]
    missing = ARTEFACT if types.count(ARTEFACT) < 2 else ACTION
    discard = pools[missing].pop()
    commandments = slots[1:]
    taboo = slots[0]
    ordered: list[int] = []
    for kind in (ARTEFACT, ACTION):
        ordered += [c for c in commandments if deck.cards[c].type == kind]
        ordered += [c for c in (taboo, discard) if deck.cards[c].type == kind]
    return Ritual(rv.priestess, ordered, discard, slots, **common)  # type: ignore[arg-type]


def _draw_slots(
    deck: Deck,
    rv: RitualView,
    slots: list[int],
    unknown: list[int],
    pools: dict[str, list[int]],
    rng: random.Random,
    judged: list[tuple[MoveLog, Ctx]],
    engine_actions: bool,
) -> list[int]:
    """Cards for the unknown slots: per slot those matching every marker, then jointly (enumerated
    when few, else by bounded tries) those reproducing every announced total."""
    cards = deck.cards
    if not judged:
        chosen: list[int] = []
        for i in unknown:
            pool = [c for c in pools[rv.slots[i].type] if c not in chosen]
            chosen.append(pool[rng.randrange(len(pool))])
        return chosen
    values: dict[int, tuple[int, ...]] = {}

    def vals(card: int) -> tuple[int, ...]:
        v = values.get(card)
        if v is None:
            v = tuple(cards[card].judge(ctx) for _, ctx in judged)
            values[card] = v
        return v

    candidates: dict[int, list[int]] = {}
    for i in unknown:
        pool = pools[rv.slots[i].type]
        if engine_actions or rv.slots[i].type == ARTEFACT:
            marks = [log.marks[i] if log.marks else -1 for log, _ in judged]
            kept = [
                c
                for c in pool
                if all(m < 0 or (v > 0) == bool(m) for v, m in zip(vals(c), marks, strict=True))
            ]
        else:
            kept = []
        candidates[i] = kept or list(pool)
    exact = engine_actions or all(s.type == ARTEFACT for s in rv.slots)
    totals = [log.total for log, _ in judged]

    def agrees(trial: list[int]) -> bool:
        if not exact:
            return True
        columns = [vals(c) for c in trial]
        for m, total in enumerate(totals):
            t = columns[1][m] + columns[2][m] - columns[0][m]
            if (t if t > 0 else (0 if t == 0 else -1)) != total:
                return False
        return True

    size = 1
    for i in unknown:
        size *= len(candidates[i])
    if size <= _ENUMERATE:
        combos: list[list[int]] = [[]]
        for i in unknown:
            combos = [[*c, x] for c in combos for x in candidates[i] if x not in c]
        good = []
        for combo in combos:
            trial = list(slots)
            for i, c in zip(unknown, combo, strict=True):
                trial[i] = c
            if agrees(trial):
                good.append(combo)
        if good:
            return good[rng.randrange(len(good))]
    chosen = []
    for _ in range(_TRIES):
        chosen = []
        for i in unknown:
            pool = [c for c in candidates[i] if c not in chosen] or [
                c for c in pools[rv.slots[i].type] if c not in chosen
            ]
            chosen.append(pool[rng.randrange(len(pool))])
        trial = list(slots)
        for i, c in zip(unknown, chosen, strict=True):
            trial[i] = c
        if agrees(trial):
            break
    return chosen


__all__ = ["COLOUR_OF", "build_world", "fits", "move_contexts"]


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
