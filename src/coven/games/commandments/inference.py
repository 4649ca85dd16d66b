"""Exact inference about a High Priestess's three cards, from one seat's view.

One module, used by both the bots (:mod:`coven.games.commandments.bots`) and world sampling
(:mod:`coven.games.commandments.worlds`). A *hypothesis* is a choice of the three slot cards (taboo,
commandment, commandment): distinct cards the seat has not seen, of the slots' visible types. It is
*consistent* when judging the ritual's moves with these cards gives back everything the seat saw:

- every marker (unless the expert variant hides them): a card judged by the engine is marked exactly
  when it gives karma; an action card judged by a human High Priestess gives its karma when she said
  yes (a "?" card she says yes to must count something, else it would not be marked) and nothing when
  she said no;
- every announced total (the karma when positive, "no karma", "bad karma"): exact when the engine
  judges; with a human judge in the expert variant, where her yes and no are hidden, a total only has
  to be reachable by some yes or no to each of her action cards.

The posterior is uniform over the consistent hypotheses (the prior over unseen cards is uniform, and
every hypothesis leaves the same number of ways to draw the cards nobody saw), and it is computed
exactly by enumeration, grouped: cards whose values on every judged move are the same cannot be told
apart, so the enumeration runs over classes of such cards, each hypothesis class weighted by how many
distinct card triples it holds. Nothing is sampled or cut off: :attr:`Posterior.total` is the exact
number of consistent hypotheses.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from coven.games.commandments.cards import ACTION, ARTEFACT, Deck
from coven.games.commandments.lang import Ctx
from coven.games.commandments.notation import MoveLog
from coven.games.commandments.rules import announce, move_context
from coven.games.commandments.view import CommandmentsView, RitualView

Values = tuple[tuple[int, ...], ...]
"""Per judged move, the karma values a card may have given (one, or two with a hidden human yes/no)."""


def judged_moves(placement: Sequence[int], moves: Sequence[MoveLog]) -> list[tuple[MoveLog, Ctx]]:
    """The judged moves of a ritual, each with the context it was judged in (forfeits skipped)."""
    board = list(placement)
    out: list[tuple[MoveLog, Ctx]] = []
    for log in moves:
        if log.move is None:
            continue
        out.append((log, move_context(board, log.move)))
        board[log.move.artefact] = log.move.to
    return out


def seen_cards(view: CommandmentsView, deck: Deck) -> set[int]:
    """Every card this seat has seen (its own hands and discards, revealed slots)."""
    seen: set[int] = set()
    for rv in view.rituals:
        seen.update(deck.index[c] for c in rv.hand)
        if rv.discard:
            seen.add(deck.index[rv.discard])
        seen.update(deck.index[s.card] for s in rv.slots if s.card)
    return seen


@dataclass(frozen=True, slots=True)
class HypothesisClass:
    """Cards for each slot that the observations cannot tell apart, and how many distinct triples
    (taboo, commandment, commandment) they make."""

    slots: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    weight: int


class Posterior:
    """The exact posterior over one ritual's three slot cards, uniform over the consistent
    hypotheses (see the module's documentation)."""

    def __init__(self, types: Sequence[str], classes: list[HypothesisClass]) -> None:
        self.types = list(types)
        self.classes = classes
        self.total = sum(c.weight for c in classes)
        """The number of consistent hypotheses (distinct card triples)."""
        self._cards: list[frozenset[int]] | None = None
        """Per class, every card it holds (worked out when a draw first excludes cards)."""
        self.marginals: list[dict[int, float]] = [{}, {}, {}]
        """Per slot, the probability of each card."""
        for cls in classes:
            share = cls.weight / self.total
            for slot in range(3):
                cards = cls.slots[slot]
                for card in cards:
                    m = self.marginals[slot]
                    m[card] = m.get(card, 0.0) + share / len(cards)

    def sample(
        self, rng: random.Random, exclude: frozenset[int] = frozenset()
    ) -> tuple[int, int, int] | None:
        """A hypothesis drawn from the posterior (none of ``exclude``), or None if there is none."""
        classes = self.classes
        weights = [c.weight for c in classes]
        if exclude:
            if self._cards is None:
                self._cards = [frozenset(c.slots[0] + c.slots[1] + c.slots[2]) for c in classes]
            classes = list(classes)
            for k, cards in enumerate(self._cards):
                if cards.isdisjoint(exclude):
                    continue  # the class as it is, and its weight
                slots = classes[k].slots
                cls = classes[k] = HypothesisClass(
                    (
                        tuple(x for x in slots[0] if x not in exclude),
                        tuple(x for x in slots[1] if x not in exclude),
                        tuple(x for x in slots[2] if x not in exclude),
                    ),
                    0,
                )
                weights[k] = _triples(*cls.slots)
        if not any(weights):
            return None
        cls = rng.choices(classes, weights=weights)[0]
        while True:  # distinct cards, uniform within the class (the class holds at least one triple)
            trial = (rng.choice(cls.slots[0]), rng.choice(cls.slots[1]), rng.choice(cls.slots[2]))
            if len(set(trial)) == 3:
                return trial

    def hypotheses(self, rng: random.Random, limit: int) -> list[tuple[int, int, int]]:
        """Every consistent hypothesis when there are at most ``limit``, else ``limit`` drawn from
        the posterior."""
        if self.total <= limit:
            out = []
            for cls in self.classes:
                for h in product(*cls.slots):
                    if len(set(h)) == 3:
                        out.append((h[0], h[1], h[2]))
            return out
        drawn = [self.sample(rng) for _ in range(limit)]
        return [h for h in drawn if h is not None]


def _triples(a: Sequence[int], b: Sequence[int], c: Sequence[int]) -> int:
    """How many triples of distinct cards one from each of a, b, c (each class either equal to
    another or disjoint from it)."""
    sa, sb, sc = set(a), set(b), set(c)
    n = len(sa) * len(sb) * len(sc)
    n -= len(sa & sb) * len(sc) + len(sa & sc) * len(sb) + len(sb & sc) * len(sa)
    n += 2 * len(sa & sb & sc)
    return n


def ritual_posterior(
    view: CommandmentsView,
    deck: Deck,
    ritual: int = -1,
    exclude: frozenset[int] = frozenset(),
    cache: dict[tuple[int, int, int], int] | None = None,
) -> Posterior:
    """The exact posterior over the slot cards of ``view.rituals[ritual]`` for the seat of ``view``
    (cards in ``exclude`` are known to be elsewhere). A slot the seat knows has that one card."""
    rv = view.rituals[ritual]
    number = ritual % len(view.rituals)
    types = [s.type for s in rv.slots]
    unseen = seen_cards(view, deck)
    human = view.options["judge"] == "priestess"
    judged = judged_moves(rv.placement, rv.moves)
    memo = cache if cache is not None else {}

    def value(card: int, index: int, ctx: Ctx) -> int:
        key = (number, index, card)
        v = memo.get(key)
        if v is None:
            v = deck.cards[card].judge(ctx)
            memo[key] = v
        return v

    # per slot: the cards that fit every marker, grouped by their values on the judged moves
    per_slot: list[dict[Values, list[int]]] = []
    for slot, sv in enumerate(rv.slots):
        if sv.card:
            pool = [deck.index[sv.card]]
        else:
            pool = [c for c in (deck.artefact if sv.type == ARTEFACT else deck.action) if c not in unseen]
        pool = [c for c in pool if c not in exclude]
        groups: dict[Values, list[int]] = {}
        for card in pool:
            by_hand = human and deck.cards[card].type == ACTION
            fixed = deck.cards[card].value
            vals: list[tuple[int, ...]] = []
            fits = True
            for index, (log, ctx) in enumerate(judged):
                # her yes gives a fixed card its value, a "?" card what the engine counts
                v = fixed if by_hand and fixed is not None else value(card, index, ctx)
                if not log.marks:  # expert: markers hidden
                    vals.append((0, v) if by_hand and v > 0 else (v,) if not by_hand else (0,))
                    continue
                mark = log.marks[slot]
                if by_hand:
                    if mark and v <= 0:
                        fits = False  # her yes to a card that gives nothing would leave it unmarked
                        break
                    vals.append((v if mark else 0,))
                elif (v > 0) != bool(mark):
                    fits = False
                    break
                else:
                    vals.append((v,))
            if fits:
                groups.setdefault(tuple(vals), []).append(card)
        per_slot.append(groups)

    totals = [log.total for log, _ in judged]
    classes: list[HypothesisClass] = []
    if all(len(v) == 1 for groups in per_slot for vals in groups for v in vals):
        _join_exact(per_slot, totals, classes)
    else:
        _join_any(per_slot, totals, classes)
    return Posterior(types, classes)


Groups = list[dict[Values, list[int]]]
"""Per slot, the candidate cards grouped by their values on the judged moves."""


def _join_exact(
    per_slot: list[dict[Values, list[int]]], totals: list[int], out: list[HypothesisClass]
) -> None:
    """Class triples whose values reproduce every total, each value single: the taboo's values are
    fixed by the commandments' wherever a total is not "bad karma"."""
    positive = [i for i, t in enumerate(totals) if t >= 0]
    bad = [i for i, t in enumerate(totals) if t < 0]
    taboo_by_key: dict[tuple[int, ...], list[tuple[Values, list[int]]]] = {}
    for vals, cards in per_slot[0].items():
        taboo_by_key.setdefault(tuple(vals[i][0] for i in positive), []).append((vals, cards))
    for (v1, c1), (v2, c2) in product(per_slot[1].items(), per_slot[2].items()):
        sums = [v1[i][0] + v2[i][0] for i in range(len(totals))]
        key = tuple(sums[i] - totals[i] if totals[i] > 0 else sums[i] for i in positive)
        for v0, c0 in taboo_by_key.get(key, ()):
            if any(sums[i] - v0[i][0] >= 0 for i in bad):
                continue
            weight = _triples(c0, c1, c2)
            if weight:
                out.append(HypothesisClass((tuple(c0), tuple(c1), tuple(c2)), weight))


def _join_any(per_slot: Groups, totals: list[int], out: list[HypothesisClass]) -> None:
    """Class triples for which some choice among each move's possible values reproduces its total
    (a human judge's hidden yes or no), in the order of ``product`` over the three slots' groups.

    Per commandment pair and move only the sums the pair may give matter, and the taboo classes give
    few values per move: which taboo classes fit a move is worked out once for each set of sums there
    (a bit per taboo class), and a pair keeps those that fit every move."""
    taboos = list(per_slot[0].items())
    firsts = list(per_slot[1].items())
    seconds = list(per_slot[2].items())
    moves = range(len(totals))
    by_values: list[dict[tuple[int, ...], int]] = [{} for _ in moves]
    """Per move, the taboo classes (bits) by the values they may have given there."""
    for k, (v0, _) in enumerate(taboos):
        for i in moves:
            by_values[i][v0[i]] = by_values[i].get(v0[i], 0) | 1 << k
    fitting: dict[tuple[int, frozenset[int]], int] = {}
    every = (1 << len(taboos)) - 1
    found: list[tuple[int, int, int]] = []
    for (k1, (v1, _)), (k2, (v2, _)) in product(enumerate(firsts), enumerate(seconds)):
        mask = every
        for i in moves:
            sums = frozenset(b + c for b in v1[i] for c in v2[i])
            fit = fitting.get((i, sums))
            if fit is None:
                fit = 0
                t = totals[i]
                for values, bits in by_values[i].items():
                    if any(announce(b - a) == t for a in values for b in sums):
                        fit |= bits
                fitting[(i, sums)] = fit
            mask &= fit
            if not mask:
                break
        k0 = 0
        while mask:
            if mask & 1:
                found.append((k0, k1, k2))
            mask >>= 1
            k0 += 1
    found.sort()
    for k0, k1, k2 in found:
        c0, c1, c2 = taboos[k0][1], firsts[k1][1], seconds[k2][1]
        weight = _triples(c0, c1, c2)
        if weight:
            out.append(HypothesisClass((tuple(c0), tuple(c1), tuple(c2)), weight))


def consistent(cards: Sequence[int], deck: Deck, rv: RitualView, human: bool) -> bool:
    """Whether these slot cards reproduce every marker and total this ritual's view shows (the same
    test as the posterior's, for one hypothesis)."""
    for log, ctx in judged_moves(rv.placement, rv.moves):
        options: list[tuple[int, ...]] = []
        for slot, card in enumerate(cards):
            by_hand = human and deck.cards[card].type == ACTION
            fixed = deck.cards[card].value
            v = fixed if by_hand and fixed is not None else deck.cards[card].judge(ctx)
            if log.marks:
                mark = log.marks[slot]
                if by_hand:
                    if mark and v <= 0:
                        return False
                    options.append((v if mark else 0,))
                elif (v > 0) != bool(mark):
                    return False
                else:
                    options.append((v,))
            else:
                options.append((0, v) if by_hand and v > 0 else (0,) if by_hand else (v,))
        if not any(announce(b + c - a) == log.total for a, b, c in product(*options)):
            return False
    return True


__all__ = [
    "HypothesisClass",
    "Posterior",
    "consistent",
    "judged_moves",
    "ritual_posterior",
    "seen_cards",
]
