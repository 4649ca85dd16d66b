"""Reading the others' plays as ``greedy`` plays (issue 15): worlds weighted by how well they explain them.

The exact sampler (:mod:`coven.games.brujas.worlds`) deals the unseen cards uniformly among the deals
that fit what the seat saw; it reads nothing into *which* card a player chose. ``greedy``'s play is a
function of its own hand, the trick so far, the witch column and the score piles (its rules read nothing
else), and everything but the hand is public. So, for a world (a deal of the other hands), every play an
other seat made can be replayed: its hand at that moment is its hand in the world plus the cards it
played since, its legal cards follow from the trick, and ``greedy``'s choice function (``policy``, given
by the bot: :func:`~coven.games.brujas.bots.greedy_kind`, so that this module sits below the bots and
imports none of them) says what ``greedy`` would have played. A world where a seat would have played
otherwise *mismatches* that play.

:class:`Reading` parses a view once: for every play of another seat (finished tricks and the current
one), a position with the public facts of that moment (the witch column undone move by move from the
current one, the piles rebuilt pick by pick, the trick so far) and the cards the seat played from then
on. :class:`WorldChain` then walks over deals by Metropolis swaps of two cards between two hidden
hands (voids respected; a symmetric proposal, so the walk's law is the uniform deal times
``penalty ** mismatches``), starting from a draw of the exact sampler. A small ``penalty`` all but
conditions on the plays; it is not zero, so a seat that does not play ``greedy`` only weakens the
reading. The seat uses nothing it cannot see: the view, and the public rules of ``greedy``.

Only for the basic game and Devils in Conflict (not ``silent``: a face-down card hides what was played)
and when nothing is set aside (five players: every unseen card is in a hand).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from coven.games.brujas.cards import BIT, COLOUR, COLOURS, LOW, add
from coven.games.brujas.state import PLAY, BrujasState, new_state, set_witches, trick_status
from coven.games.brujas.worlds import Sampler


class Play:
    """One play of another seat, to replay in a world: the position at that moment (public facts only,
    the seat's hand left empty), the kind played, the cards the seat played from then on (its hand then
    = its hand now plus these) and greedy's choice for each set of legal kinds met so far."""

    __slots__ = ("later", "memo", "played", "policy", "position", "seat")

    def __init__(
        self, position: BrujasState, seat: int, played: int, later: tuple[int, ...], policy: Policy
    ) -> None:
        self.policy = policy
        self.position = position
        self.seat = seat
        self.played = played
        self.later = later
        self.memo: dict[int, int] = {}

    def matches(self, hand: int) -> bool:
        """Whether ``greedy``, holding ``hand`` now (a card set), would have made this play."""
        h = hand
        for k in self.later:
            h = add(h, k)
        m = h & self.position.follow or h & LOW
        if not m & (m - 1):
            return m == BIT[self.played]
        choice = self.memo.get(m)
        if choice is None:
            choice = self.memo[m] = self.policy(self.position, self.seat, m)
        return choice == self.played


Policy = Callable[[BrujasState, int, int], int]
"""A choice function read into the plays: ``policy(position, seat, kinds)`` is the kind played among the
card set ``kinds`` (two or more), as :func:`~coven.games.brujas.bots.greedy_kind` answers."""


class Reading:
    """Every play of another seat in ``view``'s game so far, as :class:`Play` records by seat, read as
    plays of ``policy``."""

    def __init__(self, sampler: Sampler, policy: Policy) -> None:
        view = sampler.view
        n = sampler.n
        me = sampler.seat
        self.n = n
        self.seat = me
        options = dict(view.options)
        tricks: list[tuple[int, tuple[int, ...]]] = [(t[0], t[1]) for t in sampler.history]
        moves: list[tuple[int, int, int]] = [(t[0], t[2], t[3]) for t in sampler.history]
        current = [k for k in sampler.trick if k is not None]
        if current:
            tricks.append((view.leader, tuple(current)))
        # The witch column before each trick, undone from the current one.
        witches = [COLOURS.index(c) for c in view.witches]
        if view.phase == "take" and view.winner is not None:
            moves.append((view.leader, view.winner, 1 if view.moved == "down" else 0))
        columns: list[list[int]] = [witches[:] for _ in tricks]  # the current trick's, unless undone below
        for i in range(len(moves) - 1, -1, -1):
            leader, winner, move = moves[i]
            cards = tricks[i][1]
            c = COLOUR[cards[(winner - leader) % n]]
            pos = witches.index(c)
            before = pos + 1 if move == 0 else pos - 1  # up: it came from below
            witches[pos], witches[before] = witches[before], witches[pos]
            columns[i] = witches[:]
        piles = [0] * n
        self.plays: list[list[Play]] = [[] for _ in range(n)]
        played_by: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (trick, kind)
        for t, (leader, cards) in enumerate(tricks):
            for j, k in enumerate(cards):
                played_by[(leader + j) % n].append((t, k))
        for t, (leader, cards) in enumerate(tricks):
            for j, k in enumerate(cards):
                seat = (leader + j) % n
                if seat == me:
                    continue
                s = new_state(n, options)
                set_witches(s, columns[t])
                s.piles = piles[:]
                s.phase = PLAY
                s.leader = leader
                s.turn = seat
                s.trick = list(cards[:j])
                if j:
                    s.first = cards[0]
                    s.lead, s.follow, s.win_index, s.win_val = trick_status(s.trick, s.rank)
                later = tuple(x for u, x in played_by[seat] if u >= t)
                self.plays[seat].append(Play(s, seat, k, later, policy))
            if t < len(sampler.history):
                _, _, winner, _, picks = sampler.history[t]
                for i, k in enumerate(picks):
                    owner = (winner + i) % n
                    piles[owner] = add(piles[owner], k)

    def mismatches(self, seat: int, hand: int) -> int:
        """How many of ``seat``'s plays ``greedy`` holding ``hand`` now would not have made."""
        return sum(not p.matches(hand) for p in self.plays[seat])


def readable(sampler: Sampler) -> bool:
    """Whether :class:`WorldChain` applies to this view: nothing hidden but the hands."""
    view = sampler.view
    return not view.options.get("silent") and not sampler.aside and not sampler.hidden_trick


class WorldChain:
    """A Metropolis walk over the deals of the other hands (see the module docstring): :meth:`world`
    gives a fresh world state after ``spacing`` proposals."""

    def __init__(
        self,
        sampler: Sampler,
        rng: random.Random,
        policy: Policy,
        penalty: float = 0.05,
        burn_in: int = 300,
        spacing: int = 8,
    ) -> None:
        self.rng = rng
        self.reading = Reading(sampler, policy)
        self.penalty = penalty
        self.spacing = spacing
        self.voids = sampler.voids
        self.skeleton = sampler.draw(rng)
        me = sampler.seat
        s = self.skeleton
        self.seats = [i for i in range(s.n) if i != me and s.hands[i]]
        self.hands: dict[int, list[int]] = {}
        for i in self.seats:
            cards: list[int] = []
            h = s.hands[i]
            for k in range(20):
                if h >> k & 1:
                    cards.append(k)
                    if h >> (k + 20) & 1:
                        cards.append(k)
            self.hands[i] = cards
        self.bad = {i: self.reading.mismatches(i, s.hands[i]) for i in self.seats}
        self.proposed = 0
        self.accepted = 0
        self.walk(burn_in)

    @staticmethod
    def _set(cards: list[int]) -> int:
        h = 0
        for k in cards:
            h = add(h, k)
        return h

    def walk(self, proposals: int) -> None:
        seats = self.seats
        if len(seats) < 2:
            return
        rng, hands, voids, bad, reading = self.rng, self.hands, self.voids, self.bad, self.reading
        penalty = self.penalty
        count = len(seats)
        for _ in range(proposals):
            self.proposed += 1
            i = int(rng.random() * count)
            j = int(rng.random() * (count - 1))
            if j >= i:
                j += 1
            a, b = seats[i], seats[j]
            ha, hb = hands[a], hands[b]
            ia = int(rng.random() * len(ha))
            ib = int(rng.random() * len(hb))
            ka, kb = ha[ia], hb[ib]
            if ka == kb or BIT[ka] & voids[b] or BIT[kb] & voids[a]:
                continue
            ha[ia], hb[ib] = kb, ka
            new_a = reading.mismatches(a, self._set(ha))
            new_b = reading.mismatches(b, self._set(hb))
            delta = new_a + new_b - bad[a] - bad[b]
            if delta <= 0 or rng.random() < penalty**delta:
                bad[a], bad[b] = new_a, new_b
                self.accepted += 1
            else:
                ha[ia], hb[ib] = ka, kb

    def world(self) -> BrujasState:
        """A world state: the skeleton's public facts with the walk's current hands."""
        self.walk(self.spacing)
        s = self.skeleton
        c = s.copy()
        for i in self.seats:
            c.hands[i] = self._set(self.hands[i])
        return c
