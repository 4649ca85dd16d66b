"""Explained results of Brujas del Sábado, from a view alone: each seat's witch score (the colour it
collected most of, that witch's place and value, halved in Devils in Conflict when shared) and its
devil scores (2 for every number 1-5 it holds the most of, ties included).

Steps: every finished trick is ``2n + 1`` actions (n cards played, one witch move, n picks), so the
view's past tricks say exactly at which step each card was picked and each witch moved.
"""

from __future__ import annotations

from collections.abc import Sequence

from coven.core.explain import (
    Explanation,
    ExplanationLine,
    Moment,
    SeatExplanation,
    default_summary,
    plural,
    seat_explanation,
    seat_ref,
)
from coven.games.brujas.cards import COLOUR, COLOUR_NAMES, COLOURS, KIND, NUMBER, add, kinds_of
from coven.games.brujas.state import DEVIL_POINTS, witch_colours
from coven.games.brujas.view import BrujasView

PLACES = ("top", "second", "third", "bottom")
NUMBER_WORDS = ("", "1s", "2s", "3s", "4s", "5s")


def pick_steps(view: BrujasView) -> list[tuple[int, int, int]]:
    """(step, seat, kind) of every card picked in a finished trick."""
    n = view.players
    out: list[tuple[int, int, int]] = []
    for t, trick in enumerate(view.past):
        base = t * (2 * n + 1) + n + 1
        for j, name in enumerate(trick.picks):
            out.append((base + j + 1, (trick.winner + j) % n, KIND[name]))
    return out


def last_witch_moves(view: BrujasView) -> dict[int, int]:
    """For each colour, the step of the last witch move that changed its witch's place."""
    n = view.players
    order = [COLOURS.index(c) for c in view.witches]
    last: dict[int, int] = {}
    for t in range(len(view.past) - 1, -1, -1):
        trick = view.past[t]
        moved = COLOUR[KIND[trick.cards[(trick.winner - trick.leader) % n]]]
        pos = order.index(moved)
        before = pos + 1 if trick.witch == "up" else pos - 1
        if not 0 <= before < len(order):
            continue
        other = order[before]
        order[pos], order[before] = other, moved
        step = t * (2 * n + 1) + n + 1
        for c in (moved, other):
            last.setdefault(c, step)
    return last


def explain(view: BrujasView, moments: Sequence[Moment] = ()) -> Explanation:
    n = view.players
    piles = [0] * n
    for s, pile in enumerate(view.piles):
        for name in pile:
            piles[s] = add(piles[s], KIND[name])
    rank = [view.witches.index(c) for c in COLOURS]
    conflict = bool(view.options.get("conflict", False))
    picks = pick_steps(view)
    witch_moved = last_witch_moves(view)
    colours = witch_colours(piles, rank)
    seats: list[SeatExplanation] = []
    any_cards = any(piles)
    number_counts = [[sum(1 for k in _kinds(p) if NUMBER[k] == num) for p in piles] for num in range(6)]
    for s in range(n):
        lines: list[ExplanationLine] = []
        notes: list[str] = []
        if any_cards:
            c = colours[s]
            colour = COLOUR_NAMES[c]
            held = [sum(1 for k in _kinds(piles[s]) if COLOUR[k] == cc) for cc in range(4)]
            value = view.score_values[rank[c]]
            steps = sorted(
                {st for st, who, k in picks if who == s and COLOUR[k] == c} | _opt(witch_moved.get(c))
            )
            lines.append(
                ExplanationLine(
                    f"Witch score: most cards in {colour} ({held[c]}); the {colour} witch stands "
                    f"{PLACES[rank[c]]}, beside {value}",
                    float(value),
                    tuple(steps),
                )
            )
            tied = [COLOUR_NAMES[cc] for cc in range(4) if cc != c and held[cc] == held[c]]
            if tied:
                notes.append(
                    f"{held[c]} {colour} cards tie with {', '.join(tied)}: the higher witch ({colour}) counts"
                )
            if conflict:
                sharing = [o for o in range(n) if o != s and colours[o] == c]
                half = (value + 1) // 2
                who = ", ".join(seat_ref(o) for o in sharing)
                if sharing and half == value:  # the bottom witch's 1: half of it, rounded up, is still 1
                    notes.append(f"{who} also scored the {colour} witch, but half of 1 rounded up is 1")
                elif sharing:
                    lines.append(
                        ExplanationLine(
                            f"Devils in Conflict: {who} also scored the {colour} witch, so it counts half "
                            f"(rounded up): {half}",
                            float(half - value),
                        )
                    )
            for num in range(1, 6):
                counts = number_counts[num]
                top = max(counts)
                mine = counts[s]
                if top and mine == top:
                    rivals = [o for o in range(n) if o != s and counts[o] == top]
                    tie = f", tied with {', '.join(seat_ref(o) for o in rivals)}" if rivals else ""
                    steps = sorted(st for st, who, k in picks if who == s and NUMBER[k] == num)
                    lines.append(
                        ExplanationLine(
                            f"Devil score: most {NUMBER_WORDS[num]} ({plural(mine, 'card')}{tie})",
                            float(DEVIL_POINTS),
                            tuple(steps),
                        )
                    )
                elif top and mine == top - 1:
                    notes.append(
                        f"one {num} short of the devil score for {NUMBER_WORDS[num]} ({mine} of {top})"
                    )
        seats.append(seat_explanation(s, lines, notes))
    best = max(x.score for x in seats)
    winners = tuple(x.seat for x in seats if x.score == best)
    return Explanation("brujas", view.seat, tuple(seats), winners, default_summary(seats, winners))


def _kinds(pile: int) -> list[int]:
    return kinds_of(pile)


def _opt(step: int | None) -> set[int]:
    return set() if step is None else {step}
