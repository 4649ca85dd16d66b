"""Worlds consistent with a view: the unseen cards dealt to the hidden places, respecting known voids.

What a seat knows about the others' hands: their sizes, every card already seen (its own hand, every
score pile, the face-up cards of the trick) and the *voids* the play revealed. A player who did not match
the first card while no Lead was set holds neither its colour nor its number; one who did not follow a
Lead holds none of the Lead's colour (or number). Face-down cards (silent variant) tell the same, and the
face-down card itself is such a card. The unseen cards go to the other hands, the hidden face-down cards
and (three players) the card set aside, so that every void holds.

Dealing: the cards are shuffled and the most constrained seat takes the first cards it may hold, then
the next; if that fails a few times, a randomised bipartite matching (always succeeds, since the true
deal is one solution) finds a deal.
"""

from __future__ import annotations

import random

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
from coven.games.brujas.game import (
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
    BrujasView,
    new_state,
    set_witches,
    trick_status,
)


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
                [_kind(c) for c in p.cards],
                p.winner,
                0 if p.witch == "up" else 1,
                [_kind(c) for c in p.picks],
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
        # Hidden places: (seat whose voids apply or -1, how many cards).
        need = [0] * n
        for s in range(n):
            if s != view.seat:
                need[s] = view.hand_sizes[s]
        self.hidden_trick = [(i, (view.leader + i) % n) for i, k in enumerate(self.trick) if k is None]
        for _, owner in self.hidden_trick:
            need[owner] += 1
        groups = [(s, need[s], voids[s]) for s in range(n) if need[s]]
        groups.sort(key=lambda g: -(g[2].bit_count()))
        self.aside = n * {3: 13, 4: 10, 5: 8}[n] < 40
        if self.aside:
            groups.append((-1, 1, 0))
        surplus = len(self.unseen) - sum(g[1] for g in groups)
        if surplus < 0:
            raise NotationError("the view's hand sizes do not fit the unseen cards")
        if surplus:  # only in hand-made positions that leave cards out of the game
            groups.append((-2, surplus, 0))
        self.groups = groups

    # ------------------------------------------------------------------------------------------------
    def deal(self, rng: random.Random) -> dict[int, list[int]]:
        """Cards for each hidden place (seat, or -1 for the set-aside card)."""
        cards = self.unseen[:]
        for _ in range(12):
            rng.shuffle(cards)
            left = cards
            out: dict[int, list[int]] = {}
            ok = True
            for seat, need, forbidden in self.groups:
                if not forbidden:
                    out[seat] = left[:need]
                    left = left[need:]
                    continue
                mine: list[int] = []
                rest: list[int] = []
                for k in left:
                    if len(mine) < need and not BIT[k] & forbidden:
                        mine.append(k)
                    else:
                        rest.append(k)
                if len(mine) < need:
                    ok = False
                    break
                out[seat] = mine
                left = rest
            if ok:
                return out
        return self._match(rng)

    def _match(self, rng: random.Random) -> dict[int, list[int]]:
        slots: list[tuple[int, int]] = [
            (seat, forbidden) for seat, need, forbidden in self.groups for _ in range(need)
        ]
        cards = self.unseen[:]
        rng.shuffle(cards)
        owner: list[int] = [-1] * len(slots)  # slot -> card index

        def try_card(ci: int, seen: set[int]) -> bool:
            order = list(range(len(slots)))
            rng.shuffle(order)
            for si in order:
                if si in seen or BIT[cards[ci]] & slots[si][1]:
                    continue
                seen.add(si)
                if owner[si] < 0 or try_card(owner[si], seen):
                    owner[si] = ci
                    return True
            return False

        for ci in range(len(cards)):
            if not try_card(ci, set()):
                raise NotationError("no deal of the unseen cards fits what this view reveals")
        out: dict[int, list[int]] = {seat: [] for seat, _, _ in self.groups}
        for si, ci in enumerate(owner):
            out[slots[si][0]].append(cards[ci])
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
