"""The exact deduction engine behind the spell book.

Every entry of the public record constrains one wizard's secret pair (field, amulet) on its own: an
answer ``* o + -`` to a question keeps the pairs that give that answer, a cast's ``y`` keeps the pairs
the cast's placement satisfies and an ``n`` removes them. What ties the wizards together is only that
all fields and all amulets are different. So a seat's knowledge is one *domain* (set of pairs) per
other wizard, and a joint assignment (a *world*) picks one pair per wizard with all fields and all
amulets distinct. The amulets nobody holds are the ones no wizard picked, so counting worlds counts
"which amulets belong to nobody" too.

Counting is exact and cheap: for each injective choice of amulets (at most 5! = 120), the number of
ways to pick distinct fields from the wizards' field sets is a sum over set partitions (inclusion-
exclusion on which wizards share a field; 52 terms for five wizards). The same sums give each
wizard's exact per-pair counts (the marginals) and an exactly uniform sampler.

The prior is uniform over deals and the record is treated as evidence about secrets only (what a wizard
chose to ask is not read as a hint about their own secret), so the posterior is uniform over the
worlds consistent with the record; that is what :meth:`Knowledge.sample` draws from.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from coven.games.amulets.board import (
    ALL_PAIRS,
    AMULET_PAIRS,
    AMULETS,
    ANSWERS,
    FIELD_PAIRS,
    FIELDS,
    FULL_FIELDS,
    NO,
    YES,
    answer_masks,
    bits,
    cast_pairs,
)


@cache
def _partitions(n: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Set partitions of ``range(n)`` as (Möbius coefficient, blocks as bitmasks)."""
    parts: list[list[int]] = [[]]
    for i in range(n):
        grown: list[list[int]] = []
        for p in parts:
            for b in range(len(p)):
                grown.append([*p[:b], p[b] | 1 << i, *p[b + 1 :]])
            grown.append([*p, 1 << i])
        parts = grown
    out = []
    for p in parts:
        coef = 1
        for block in p:
            size = block.bit_count()
            for j in range(1, size):
                coef *= -j
        out.append((coef, tuple(p)))
    return tuple(out)


for _n in range(6):
    _partitions(_n)


def distinct_count(masks: Sequence[int]) -> int:
    """How many tuples ``(f_0, f_1, ...)`` with ``f_i`` in ``masks[i]`` have all values distinct."""
    k = len(masks)
    if k == 0:
        return 1
    if k == 1:
        return masks[0].bit_count()
    if k == 2:
        a, b = masks
        return a.bit_count() * b.bit_count() - (a & b).bit_count()
    inter = [0] * (1 << k)
    inter[0] = -1
    sizes = [0] * (1 << k)
    for sub in range(1, 1 << k):
        low = sub & -sub
        m = inter[sub ^ low] & masks[low.bit_length() - 1]
        inter[sub] = m
        sizes[sub] = m.bit_count()
    total = 0
    for coef, blocks in _partitions(k):
        prod = coef
        for block in blocks:
            prod *= sizes[block]
            if not prod:
                break
        total += prod
    return total


BookLine = tuple[str, int, tuple[int, ...], str]
"""A spell-book entry as ``(kind, seat, placement, answers)``."""


def public_domains(players: int, book: Iterable[BookLine]) -> list[int]:
    """Each seat's possible pairs as everyone (a spectator) knows them from the public record.

    ``book`` entries are ``(kind, seat, placement, answers)`` with ``kind`` ``"ask"`` or ``"cast"`` and
    ``answers`` one character per seat (``* o + -`` for questions, ``y n .`` for casts).
    """
    domains = [ALL_PAIRS] * players
    masks_of: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
    for kind, _seat, placement, answers in book:
        if kind == "ask":
            masks = masks_of.get(placement)
            if masks is None:
                masks = masks_of[placement] = answer_masks(placement)
            for s, ch in enumerate(answers):
                if ch in ANSWERS:
                    domains[s] &= masks[ANSWERS.index(ch)]
        else:
            satisfied = cast_pairs(placement)
            for s, ch in enumerate(answers):
                if ch == YES:
                    domains[s] &= satisfied
                elif ch == NO:
                    domains[s] &= ~satisfied
    return domains


@dataclass(slots=True)
class Knowledge:
    """What can be deduced about ``seats`` (the wizards whose secrets are unknown).

    ``domains[i]`` is the set of pairs still possible for ``seats[i]`` on its own; the joint
    constraint (all fields, all amulets distinct) is applied by the counting methods.
    """

    seats: tuple[int, ...]
    domains: tuple[int, ...]
    _assignments: list[tuple[tuple[int, ...], tuple[int, ...], int]] | None = field(default=None, repr=False)
    _lists: list[list[int]] | None = field(default=None, repr=False)

    @classmethod
    def build(
        cls,
        players: int,
        book: Iterable[tuple[str, int, tuple[int, ...], str]],
        viewer: int | None,
        pair: int,
    ) -> Knowledge:
        """The knowledge of ``viewer`` holding ``pair`` (``viewer=None``: a spectator, pair ignored)."""
        return cls.from_public(public_domains(players, book), viewer, pair)

    @classmethod
    def from_public(cls, domains: Sequence[int], viewer: int | None, pair: int) -> Knowledge:
        if viewer is None:
            return cls(tuple(range(len(domains))), tuple(domains))
        exclude = ~(FIELD_PAIRS[pair % FIELDS] | AMULET_PAIRS[pair // FIELDS])
        seats = tuple(s for s in range(len(domains)) if s != viewer)
        return cls(seats, tuple(domains[s] & exclude for s in seats))

    # ---------------------------------------------------------------- counting
    def assignments(self) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        """Per injective choice of amulets: (amulets, field masks, number of worlds), count > 0."""
        if self._assignments is not None:
            return self._assignments
        per_seat = [[(a, (d >> (a * FIELDS)) & FULL_FIELDS) for a in range(AMULETS)] for d in self.domains]
        per_seat = [[(a, m) for a, m in options if m] for options in per_seat]
        out: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        k = len(per_seat)
        chosen_a: list[int] = []
        chosen_m: list[int] = []

        def walk(i: int, used: int) -> None:
            if i == k:
                n = distinct_count(chosen_m)
                if n:
                    out.append((tuple(chosen_a), tuple(chosen_m), n))
                return
            for a, m in per_seat[i]:
                if not used >> a & 1:
                    chosen_a.append(a)
                    chosen_m.append(m)
                    walk(i + 1, used | 1 << a)
                    chosen_a.pop()
                    chosen_m.pop()

        walk(0, 0)
        self._assignments = out
        return out

    def count(self) -> int:
        """How many joint assignments (worlds) remain."""
        return sum(n for _, _, n in self.assignments())

    def marginals(self) -> list[dict[int, int]]:
        """For each unknown seat, every still-possible pair with the number of worlds holding it."""
        out: list[dict[int, int]] = [{} for _ in self.seats]
        for amulets, masks, _ in self.assignments():
            for i, m in enumerate(masks):
                base = amulets[i] * FIELDS
                rest = masks[:i] + masks[i + 1 :]
                tally = out[i]
                # The worlds with seat i on field f are the others' distinct fields without f: a count
                # that depends on f only through which of the others' sets hold f (its signature), as
                # every term of the inclusion-exclusion does. Wide sets share a few signatures among
                # many fields: one count each, not one per field.
                counted: dict[int, int] = {}
                for f in bits(m):
                    signature = 0
                    for j, r in enumerate(rest):
                        if r >> f & 1:
                            signature |= 1 << j
                    n = counted.get(signature, -1)
                    if n < 0:
                        clear = ~(1 << f)
                        n = counted[signature] = distinct_count([r & clear for r in rest])
                    if n:
                        tally[base + f] = tally.get(base + f, 0) + n
        return out

    def possible(self) -> list[int]:
        """For each unknown seat, the mask of pairs that occur in at least one world."""
        return [sum(1 << p for p in tally) for tally in self.marginals()]

    # ---------------------------------------------------------------- worlds
    def worlds(self, limit: int) -> list[tuple[int, ...]] | None:
        """Every world (one pair per unknown seat), or None if there are more than ``limit``."""
        if self.count() > limit:
            return None
        out: list[tuple[int, ...]] = []
        chosen: list[int] = []

        def walk(i: int, used: int, lists: list[list[int]], bases: list[int]) -> None:
            if i == len(lists):
                out.append(tuple(chosen))
                return
            base = bases[i]
            for f in lists[i]:
                if not used >> f & 1:
                    chosen.append(base + f)
                    walk(i + 1, used | 1 << f, lists, bases)
                    chosen.pop()

        for amulets, masks, _ in self.assignments():
            walk(0, 0, [bits(m) for m in masks], [a * FIELDS for a in amulets])
        return out

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One world drawn uniformly among those remaining (raises ValueError if none)."""
        if self._lists is None:
            self._lists = [bits(d) for d in self.domains]
        lists = self._lists
        if all(lists):
            for _ in range(48):  # rejection: exact and fast while the domains are wide
                used_f = used_a = 0
                world = []
                for options in lists:
                    p = options[rng.randrange(len(options))]
                    fb, ab = 1 << (p % FIELDS), 1 << (p // FIELDS)
                    if used_f & fb or used_a & ab:
                        break
                    used_f |= fb
                    used_a |= ab
                    world.append(p)
                else:
                    return tuple(world)
        return self.sample_exact(rng)

    def sample_exact(self, rng: random.Random) -> tuple[int, ...]:
        """Uniform sampling by the counts: amulets by their weight, then fields one by one."""
        assignments = self.assignments()
        total = sum(n for _, _, n in assignments)
        if not total:
            raise ValueError("no world is consistent with this record")
        pick = rng.randrange(total)
        amulets, masks = assignments[-1][0], assignments[-1][1]
        for amulets_i, masks_i, n in assignments:
            if pick < n:
                amulets, masks = amulets_i, masks_i
                break
            pick -= n
        out = []
        used = 0
        k = len(masks)
        for i in range(k):
            options = bits(masks[i] & ~used)
            weights = []
            for f in options:
                clear = ~(used | 1 << f)
                weights.append(distinct_count([masks[j] & clear for j in range(i + 1, k)]))
            (f,) = rng.choices(options, weights)
            used |= 1 << f
            out.append(amulets[i] * FIELDS + f)
        return tuple(out)
