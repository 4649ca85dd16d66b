"""Worlds consistent with a view: the unseen cards dealt to the hidden places, respecting known voids.

What a seat knows about the others' hands: their sizes, every card already seen (its own hand, every
score pile, the face-up cards of the trick) and the *voids* the play revealed. A player who did not match
the first card while no Lead was set holds neither its colour nor its number; one who did not follow a
Lead holds none of the Lead's colour (or number). Face-down cards (silent variant) tell the same, and the
face-down card itself is such a card. The unseen cards go to the other hands, the hidden face-down cards
and (three players) the card set aside, so that every void holds.

Dealing is exact: every deal of the physical cards (two copies of each kind) that fits what the seat
saw is equally likely, as the shuffle made them (the play itself is not read as a hint). The sampler
counts completions: the hidden places are grouped by the kinds they may not hold, the number of deals
that fill the groups from a given kind on is memoised (the groups' room left is the whole state), and a
draw places the kinds in turn, each way with probability proportional to its completions. Checked
against brute-force enumeration in ``tests/games/test_world_samplers.py`` (the earlier greedy deal with
a matching fallback was off by a total-variation distance of 0.08-0.34 on small endgames).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from coven.core import NotationError
from coven.games.brujas.cards import (
    BIT,
    COLOUR,
    COLOUR_MASK,
    COLOURS,
    KIND,
    KINDS,
    MATCH,
    NAME,
    NUMBER,
    NUMBER_MASK,
    add,
    kinds_of,
    remove,
)
from coven.games.brujas.state import (
    COLOUR_LEAD,
    NO_LEAD,
    NOBODY,
    NUMBER_LEAD,
    OVER,
    PHASE_NAME,
    PLAY,
    TAKE,
    WITCH,
    BrujasState,
    new_state,
    set_witches,
    trick_status,
)
from coven.games.brujas.view import BrujasView


def _kind(name: str) -> int:
    k = KIND.get(name)
    if k is None:
        raise NotationError(f"{name!r} is not a devil card")
    return k


def voids_of(n: int, leader: int, cards: list[int | None], voids: list[int]) -> None:
    """Add to ``voids`` what one trick (``None`` = a hidden face-down card) reveals about each seat."""
    f = cards[0]
    if f is None:  # the first card is never face down
        return
    follow = MATCH[f]
    lead = NO_LEAD
    for i in range(1, len(cards)):
        k = cards[i]
        seat = (leader + i) % n
        if k is None or not BIT[k] & follow:
            voids[seat] |= follow
        elif lead == NO_LEAD and k != f:
            if COLOUR[k] == COLOUR[f]:
                lead, follow = COLOUR_LEAD, COLOUR_MASK[COLOUR[f]]
            else:
                lead, follow = NUMBER_LEAD, NUMBER_MASK[NUMBER[f]]


Step = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""One way to place a kind's unseen copies: (deals of the copies, completions it covers, the groups that
take them, the room left in every group after)."""


class Sampler:
    """Everything fixed by a view, parsed once; :meth:`draw` deals the hidden cards anew each time."""

    def __init__(self, view: BrujasView) -> None:
        n = view.players
        self.view = view
        self.n = n
        self.seat = view.seat
        counts = [2] * KINDS
        self.hand = 0
        for name in view.hand:
            k = _kind(name)
            self.hand = add(self.hand, k)
            counts[k] -= 1
        self.piles = []
        for pile in view.piles:
            cards = 0
            for name in pile:
                k = _kind(name)
                cards = add(cards, k)
                counts[k] -= 1
            self.piles.append(cards)
        self.trick: list[int | None] = []
        for name in view.trick:
            if name == "?":
                self.trick.append(None)
            else:
                k = _kind(name)
                self.trick.append(k)
                counts[k] -= 1
        self.picks = [_kind(name) for name in view.taken]
        for k in self.picks:  # picked cards are both in the trick and in a pile
            counts[k] += 1
        self.history = [
            (
                p.leader,
                tuple(_kind(c) for c in p.cards),
                p.winner,
                0 if p.witch == "up" else 1,
                tuple(_kind(c) for c in p.picks),
            )
            for p in view.past
        ]
        voids = [0] * n
        for past in self.history:
            voids_of(n, past[0], list(past[1]), voids)
        if self.trick:
            voids_of(n, view.leader, self.trick, voids)
        self.voids = voids
        self.unseen = [k for k in range(KINDS) for _ in range(counts[k])]
        if any(c < 0 for c in counts):
            raise NotationError("the view shows more than two copies of a card")
        # Hidden places: (seat whose voids apply, or -1 for the card set aside, -2 for cards out of the
        # game in hand-made positions; how many cards; the kinds it cannot hold).
        need = [0] * n
        for s in range(n):
            if s != view.seat:
                need[s] = view.hand_sizes[s]
        self.hidden_trick = [(i, (view.leader + i) % n) for i, k in enumerate(self.trick) if k is None]
        for _, owner in self.hidden_trick:
            need[owner] += 1  # a face-down card obeys its owner's voids (they include this trick's)
        places = [(s, need[s], voids[s]) for s in range(n) if need[s]]
        self.aside = n * {3: 13, 4: 10, 5: 8}[n] < 40
        if self.aside:
            places.append((-1, 1, 0))
        surplus = len(self.unseen) - sum(p[1] for p in places)
        if surplus < 0:
            raise NotationError("the view's hand sizes do not fit the unseen cards")
        if surplus:  # only in hand-made positions that leave cards out of the game
            places.append((-2, surplus, 0))
        self.places = places
        # Places that forbid the same kinds form one group: the counting deals to groups, and a group's
        # cards are then shared out among its places uniformly (a random order, cut in turn).
        masks: list[int] = []
        sizes: list[int] = []
        members: list[list[tuple[int, int]]] = []
        unseen_kinds = sum(BIT[k] for k in range(KINDS) if counts[k])
        for seat, size, voided in places:
            forbidden = voided & unseen_kinds  # only unseen kinds matter
            if forbidden in masks:
                g = masks.index(forbidden)
                sizes[g] += size
            else:
                g = len(masks)
                masks.append(forbidden)
                sizes.append(size)
                members.append([])
            members[g].append((seat, size))
        self.members = members
        self.sizes = tuple(sizes)
        self.kinds = [
            (k, counts[k], tuple(g for g, m in enumerate(masks) if not BIT[k] & m))
            for k in range(KINDS)
            if counts[k]
        ]
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[int, list[Step]]] = {}
        self.total = self.ways(0, self.sizes)
        if not self.total:
            raise NotationError("no deal of the unseen cards fits what this view reveals")

    # ------------------------------------------------------------------------------------------------
    def moves(self, i: int, caps: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """The ways to place the copies of the ``i``-th unseen kind into groups with room left:
        (deals of the physical copies, groups taking them, the room left after)."""
        _, copies, allowed = self.kinds[i]
        out: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        for j, g in enumerate(allowed):
            room = caps[g]
            if not room:
                continue
            if copies == 1:
                out.append((1, (g,), (*caps[:g], room - 1, *caps[g + 1 :])))
                continue
            if room >= 2:
                out.append((1, (g, g), (*caps[:g], room - 2, *caps[g + 1 :])))
            for h in allowed[j + 1 :]:
                if caps[h]:
                    left = list(caps)
                    left[g] -= 1
                    left[h] -= 1
                    out.append((2, (g, h), tuple(left)))  # two copies apart: two deals
        return out

    def ways(self, i: int, caps: tuple[int, ...]) -> int:
        """How many deals of the physical unseen cards of kinds ``i``.. fill ``caps`` exactly (voids
        respected). The room left always equals the cards left, so the end is reached full."""
        return self.table(i, caps)[0]

    def table(self, i: int, caps: tuple[int, ...]) -> tuple[int, list[Step]]:
        """``ways(i, caps)`` and, for each way to place kind ``i``, its deals of the copies, its share of
        the completions (that weight times the completions after it), the groups and the room left."""
        key = (i, caps)
        known = self.memo.get(key)
        if known is not None:
            return known
        total = 0
        steps: list[Step] = []
        if i == len(self.kinds):
            total = 1
        else:
            for weight, groups, left in self.moves(i, caps):
                span = weight * self.table(i + 1, left)[0]
                if span:
                    steps.append((weight, span, groups, left))
                    total += span
        self.memo[key] = (total, steps)
        return total, steps

    def deal(self, rng: random.Random) -> dict[int, list[int]]:
        """Cards for each hidden place (seat, -1 for the set-aside card, -2 for cards out of play),
        in random order, drawn exactly uniformly among the deals of the physical cards that fit.

        One random integer below the number of deals picks a deal; the kinds are placed in turn, each
        way of placing a kind taking the share of that integer's range its completions make up."""
        cards: list[list[int]]
        if len(self.sizes) == 1:  # nobody's voids touch the unseen cards: a plain shuffle
            cards = [self.unseen[:]]
        else:
            cards = [[] for _ in self.sizes]
            memo = self.memo
            pick = rng.randrange(self.total)
            caps = self.sizes
            for i, (k, _, _) in enumerate(self.kinds):
                for weight, span, groups, left in memo[i, caps][1]:
                    if pick < span:
                        pick %= span // weight  # the rest of the integer is uniform below the next count
                        for g in groups:
                            cards[g].append(k)
                        caps = left
                        break
                    pick -= span
        out: dict[int, list[int]] = {}
        for g, group in enumerate(cards):
            rng.shuffle(group)
            cut = 0
            for seat, size in self.members[g]:
                out[seat] = group[cut : cut + size]
                cut += size
        return out

    def draw(self, rng: random.Random) -> BrujasState:
        v = self.view
        n = self.n
        dealt = self.deal(rng)
        s = new_state(n, dict(v.options))
        set_witches(s, [COLOURS.index(c) for c in v.witches])
        trick = list(self.trick)
        for i, owner in self.hidden_trick:
            trick[i] = dealt[owner].pop()
        hands = [0] * n
        for seat in range(n):
            if seat == self.seat:
                hands[seat] = self.hand
            else:
                h = 0
                for k in dealt.get(seat, ()):
                    h = add(h, k)
                hands[seat] = h
        s.hands = hands
        s.piles = self.piles[:]
        s.aside = dealt[-1][0] if self.aside else -1
        s.leader = v.leader
        s.history = list(self.history)
        phase = PHASE_NAME.index(v.phase)
        s.phase = phase
        full: list[int] = [k for k in trick if k is not None]
        s.trick = full
        if full:
            s.first = full[0]
            s.lead, s.follow, s.win_index, s.win_val = trick_status(full, s.rank)
        if phase in (WITCH, TAKE) and v.winner is not None:
            s.winner = v.winner
            s.win_index = (v.winner - v.leader) % n
        if phase == TAKE:
            pool = 0
            for k in full:
                pool = add(pool, k)
            for k in self.picks:
                pool = remove(pool, k)
            s.pool = pool
            s.picks = self.picks[:]
            s.moved = 1 if v.moved == "down" else 0
        else:
            for i, face_down in enumerate(v.face_down):
                if face_down:
                    s.down |= 1 << i
        s.turn = NOBODY if phase == OVER or v.to_act is None else v.to_act
        return s


def world_from_view(view: BrujasView, rng: random.Random) -> BrujasState:
    """A world consistent with ``view``: the unseen cards dealt anew (the game's sampler, in ``Parts``)."""
    return Sampler(view).draw(rng)


def world_sampler(view: BrujasView) -> Callable[[random.Random], BrujasState]:
    """Draws of worlds consistent with ``view``, the view parsed and its deals counted once
    (``Parts.world_sampler``: a search's worlds, each of them :func:`world_from_view`'s)."""
    return Sampler(view).draw


def secrets(state: BrujasState, seat: int) -> frozenset[str]:
    """What ``seat`` does not know, as card names: the cards in the other hands, the face-down cards
    of the trick that are not its own (silent variant, until turned up) and the card set aside (three
    players). A name the seat also sees (its hand, a score pile, a face-up card of the trick: two
    copies of each card exist) is left out, since printing it tells nothing."""
    s = state
    hidden: set[int] = set()
    seen: set[int] = set(kinds_of(s.hands[seat]))
    for other, hand in enumerate(s.hands):
        if other != seat:
            hidden.update(kinds_of(hand))
    for pile in s.piles:
        seen.update(kinds_of(pile))
    face_down_phase = s.phase in (PLAY, WITCH)
    for i, k in enumerate(s.trick):
        if face_down_phase and s.down >> i & 1 and (s.leader + i) % s.n != seat:
            hidden.add(k)
        else:
            seen.add(k)
    if s.aside >= 0:
        hidden.add(s.aside)
    return frozenset(NAME[k] for k in hidden - seen)
