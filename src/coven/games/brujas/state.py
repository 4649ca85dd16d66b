"""Brujas del Sábado: the state as small integers, and the facts every other module reads from it.

Rulebook and rulings: see :mod:`coven.games.brujas.rules`, which sets up and changes this state. This
module sits below the rules, the view and the notation (each of which reads the state), so that none of
them imports another in a circle: the phases, the Leads, the trick's running winner
(:func:`trick_status`), the scoring (witch score, devil score) and :func:`new_state`.
"""

from __future__ import annotations

from collections.abc import Sequence

from coven.core import GameSpec, Option, Options
from coven.games.brujas.cards import (
    BIT,
    COLOUR,
    COLOUR40,
    COLOUR_MASK,
    LOW,
    MATCH,
    NUMBER,
    NUMBER40,
    NUMBER_MASK,
)

SCORE_VALUES = {"basic": (5, 3, 2, 1), "conflict": (8, 5, 3, 1)}
"""Score cards top to bottom; the middle values are not in our text (rulings), so they live here."""
DEVIL_POINTS = 2
HAND_SIZE = {3: 13, 4: 10, 5: 8}

# Phases
PLAY, WITCH, TAKE, OVER = 0, 1, 2, 3
PHASE_NAME = ("play", "witch", "take", "over")
# Leads
NO_LEAD, COLOUR_LEAD, NUMBER_LEAD = 0, 1, 2
LEAD_NAME = ("", "colour", "number")
NOBODY = 5
"""``turn`` once the game is over (indexes the empty set in :data:`SOLO`)."""


NEXT = tuple(tuple((s + 1) % n if n else 0 for s in range(5)) for n in range(6))
"""``NEXT[n][seat]``: the seat to the left (clockwise) at a table of ``n``."""

SPEC = GameSpec(
    id="brujas",
    title="Brujas del Sábado",
    summary="A 2-way trick-taking game: the second card decides whether colour or number leads.",
    min_players=3,
    max_players=5,
    options=(
        Option(
            "conflict",
            False,
            "Devils in Conflict: score cards 8/5/3/1; a witch colour shared with another player "
            "scores half (rounded up)",
        ),
        Option(
            "silent",
            False,
            "Witches refrain from speaking: a card played because you could not follow goes face "
            "down until collecting",
        ),
    ),
    hidden_information=True,
    rules_file="rules.md",
)
"""The game as data: id, players, the two variants (read by the rules, the notation and the registry)."""


# ----------------------------------------------------------------------------------------------- state
class BrujasState:
    """The whole game; cards are kinds (ints) and card sets are 40-bit ints (see ``cards``)."""

    __slots__ = (
        "aside",
        "conflict",
        "down",
        "first",
        "follow",
        "hands",
        "history",
        "lead",
        "leader",
        "moved",
        "n",
        "nxt",
        "options",
        "phase",
        "picks",
        "piles",
        "pool",
        "rank",
        "silent",
        "trick",
        "turn",
        "values",
        "win_index",
        "win_val",
        "winner",
        "witches",
    )

    n: int
    nxt: tuple[int, ...]
    """The seat to the left of each seat (clockwise)."""
    options: Options
    conflict: bool
    silent: bool
    values: tuple[int, ...]
    hands: list[int]
    piles: list[int]
    witches: list[int]
    """Colours top to bottom."""
    rank: list[int]
    """Position of each colour's witch (0 = top, strongest)."""
    leader: int
    turn: int
    phase: int
    trick: list[int]
    """Kinds played into the current trick, in order (from the leader clockwise)."""
    down: int
    """Bit i: the i-th card of the trick lies face down (silent variant, until revealed)."""
    first: int
    lead: int
    follow: int
    """Kinds that follow now: matching the first card (no Lead yet) or following the Lead."""
    winner: int
    win_index: int
    """Index in the trick of the card winning so far / the winning card."""
    win_val: int
    """Strength of that card under the Lead: its number (colour Lead) or minus its witch's position."""
    pool: int
    """Cards of the finished trick not yet picked (a card set)."""
    picks: list[int]
    history: list[tuple[int, tuple[int, ...], int, int, tuple[int, ...]]]
    """Finished tricks: (leader, cards, winner, witch move 0 up / 1 down, picks from the winner on)."""
    aside: int
    """The card set aside with three players, or -1."""
    moved: int
    """The witch move of the current trick: 0 up, 1 down (meaningful in the take phase)."""

    def copy(self) -> BrujasState:
        """An independent copy: the lists copied, everything else (ints, tuples, the options) shared."""
        c = BrujasState()
        c.n = self.n
        c.nxt = self.nxt
        c.options = self.options
        c.conflict = self.conflict
        c.silent = self.silent
        c.values = self.values
        c.hands = self.hands[:]
        c.piles = self.piles[:]
        c.witches = self.witches[:]
        c.rank = self.rank[:]
        c.leader = self.leader
        c.turn = self.turn
        c.phase = self.phase
        c.trick = self.trick[:]
        c.down = self.down
        c.first = self.first
        c.lead = self.lead
        c.follow = self.follow
        c.winner = self.winner
        c.win_index = self.win_index
        c.win_val = self.win_val
        c.pool = self.pool
        c.picks = self.picks[:]
        c.history = self.history[:]
        c.aside = self.aside
        c.moved = self.moved
        return c


def new_state(n: int, options: Options) -> BrujasState:
    s = BrujasState()
    s.n = n
    s.nxt = NEXT[n]
    s.options = options
    s.conflict = bool(options.get("conflict", False))
    s.silent = bool(options.get("silent", False))
    s.values = SCORE_VALUES["conflict" if s.conflict else "basic"]
    s.hands = [0] * n
    s.piles = [0] * n
    s.witches = [0, 1, 2, 3]
    s.rank = [0, 1, 2, 3]
    s.leader = 0
    s.turn = 0
    s.phase = PLAY
    s.trick = []
    s.down = 0
    s.first = -1
    s.lead = NO_LEAD
    s.follow = LOW
    s.winner = -1
    s.win_index = -1
    s.win_val = 0
    s.pool = 0
    s.picks = []
    s.history = []
    s.aside = -1
    s.moved = 0
    return s


def set_witches(s: BrujasState, witches: Sequence[int]) -> None:
    s.witches = list(witches)
    s.rank = [0] * 4
    for pos, c in enumerate(witches):
        s.rank[c] = pos


def trick_winner(trick: Sequence[int], lead: int, rank: Sequence[int]) -> int:
    """Index in ``trick`` of the winning card (exceptions 1-3: later identical cards win)."""
    f = trick[0]
    best = 0
    if lead == NO_LEAD:
        for i in range(1, len(trick)):
            if trick[i] == f:
                best = i
    elif lead == COLOUR_LEAD:
        c = COLOUR[f]
        top = NUMBER[f]
        for i in range(1, len(trick)):
            k = trick[i]
            if COLOUR[k] == c and NUMBER[k] >= top:
                top = NUMBER[k]
                best = i
    else:
        num = NUMBER[f]
        top = rank[COLOUR[f]]
        for i in range(1, len(trick)):
            k = trick[i]
            if NUMBER[k] == num and rank[COLOUR[k]] <= top:
                top = rank[COLOUR[k]]
                best = i
    return best


def trick_status(trick: Sequence[int], rank: Sequence[int]) -> tuple[int, int, int, int]:
    """(Lead, follow mask, index of the card winning so far, its strength) after ``trick`` (non-empty).

    The same bookkeeping as :meth:`BrujasGame.apply_unchecked` does card by card.
    """
    f = trick[0]
    lead, follow, best, val = NO_LEAD, MATCH[f], 0, 0
    for i in range(1, len(trick)):
        k = trick[i]
        if not BIT[k] & follow:
            continue
        if lead == NO_LEAD:
            if k == f:
                best = i
                continue
            if COLOUR[k] == COLOUR[f]:
                lead, follow = COLOUR_LEAD, COLOUR_MASK[COLOUR[f]]
                val = NUMBER[f]
            else:
                lead, follow = NUMBER_LEAD, NUMBER_MASK[NUMBER[f]]
                val = -rank[COLOUR[f]]
        v = NUMBER[k] if lead == COLOUR_LEAD else -rank[COLOUR[k]]
        if v >= val:  # equal strength means an identical card: the later one wins
            best, val = i, v
    return lead, follow, best, val


def witch_colours(piles: Sequence[int], rank: Sequence[int]) -> list[int]:
    """Each seat's witch colour: the colour it collected most of, ties to the higher witch."""
    out: list[int] = []
    r0, r1, r2, r3 = rank
    m0, m1, m2, m3 = COLOUR40
    for pile in piles:  # the four colours in turn, unrolled: this runs at the end of every playout
        best, most, higher = 0, (pile & m0).bit_count(), r0
        cnt = (pile & m1).bit_count()
        if cnt > most or (cnt == most and r1 < higher):
            best, most, higher = 1, cnt, r1
        cnt = (pile & m2).bit_count()
        if cnt > most or (cnt == most and r2 < higher):
            best, most, higher = 2, cnt, r2
        cnt = (pile & m3).bit_count()
        if cnt > most or (cnt == most and r3 < higher):
            best = 3
        out.append(best)
    return out


def witch_scores(
    piles: Sequence[int], rank: Sequence[int], values: Sequence[int], conflict: bool
) -> list[int]:
    """Each seat's witch score: the value beside its witch; in Devils in Conflict, halved (rounded up)
    when another seat scores the same witch."""
    colours = witch_colours(piles, rank)
    if conflict:
        return [(values[rank[c]] + 1) // 2 if colours.count(c) > 1 else values[rank[c]] for c in colours]
    return [values[rank[c]] for c in colours]


def devil_scores(piles: Sequence[int]) -> list[int]:
    out = [0] * len(piles)
    for num in range(1, 6):
        mask = NUMBER40[num]
        counts = [(p & mask).bit_count() for p in piles]
        top = max(counts)
        if top:
            for seat, cnt in enumerate(counts):
                if cnt == top:
                    out[seat] += DEVIL_POINTS
    return out


def pile_scores(
    piles: Sequence[int], rank: Sequence[int], values: Sequence[int], conflict: bool
) -> list[int]:
    """What each seat's pile scores: its witch score plus its devil score."""
    if not any(piles):
        return [0] * len(piles)
    w = witch_scores(piles, rank, values, conflict)
    d = devil_scores(piles)
    return [a + b for a, b in zip(w, d, strict=True)]


def score_list(s: BrujasState) -> list[int]:
    return pile_scores(s.piles, s.rank, s.values, s.conflict)
