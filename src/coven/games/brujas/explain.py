"""Explained results of Brujas del Sábado, from a view alone: each seat's witch score (the colour it
collected most of, that witch's place and value, halved in Devils in Conflict when shared) and its
devil scores (2 for every number 1-5 it holds the most of, ties included).

Steps: every finished trick is ``2n + 1`` actions (n cards played, one witch move, n picks), so the
view's past tricks say exactly at which step each card was picked and each witch moved.
Every text is a message of :data:`TEXTS` (translated by the front ends, see :mod:`coven.core.explain`).
"""

from __future__ import annotations

from collections.abc import Sequence

from coven.core.explain import (
    CORE,
    Explanation,
    ExplanationLine,
    Moment,
    Param,
    SeatExplanation,
    Texts,
    default_summary,
    seat_explanation,
    seat_list,
)
from coven.games.brujas.cards import COLOUR, COLOUR_NAMES, COLOURS, KIND, NUMBER, add, kinds_of
from coven.games.brujas.state import DEVIL_POINTS, witch_colours
from coven.games.brujas.view import BrujasView

PLACES = ("top", "second", "third", "bottom")

TEXTS = CORE | Texts(
    {
        "why.brujas.red": "red",
        "why.brujas.blue": "blue",
        "why.brujas.yellow": "yellow",
        "why.brujas.green": "green",
        "why.brujas.witch_red": "the red witch",
        "why.brujas.witch_blue": "the blue witch",
        "why.brujas.witch_yellow": "the yellow witch",
        "why.brujas.witch_green": "the green witch",
        "why.brujas.top": "top",
        "why.brujas.second": "second",
        "why.brujas.third": "third",
        "why.brujas.bottom": "bottom",
        "why.brujas.cards.one": "{n} card",
        "why.brujas.cards.other": "{n} cards",
        "why.brujas.witch": (
            "Witch score: most cards in {colour} ({held}); {witch} stands {place}, beside {value}"
        ),
        "why.brujas.witch.short": "Witch score",
        "why.brujas.colour_tie": "{held} {colour} cards tie with {tied}: the higher witch ({colour}) counts",
        "why.brujas.shared_one": "{who} also scored {witch}, but half of 1 rounded up is 1",
        "why.brujas.conflict": (
            "Devils in Conflict: {who} also scored {witch}, so it counts half (rounded up): {half}"
        ),
        "why.brujas.devil": "Devil score: most {number}s ({cards})",
        "why.brujas.devil_tied": "Devil score: most {number}s ({cards}, tied with {who})",
        "why.brujas.devil.short": "Devil score",
        "why.brujas.devil_tied.short": "Devil score",
        "why.brujas.near_devil": "one {number} short of the devil score for {number}s ({mine} of {top})",
    }
)


def _colour(c: int) -> Param:
    return TEXTS(f"why.brujas.{COLOUR_NAMES[c]}")


def _witch(c: int) -> Param:
    return TEXTS(f"why.brujas.witch_{COLOUR_NAMES[c]}")


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
            held = [sum(1 for k in _kinds(piles[s]) if COLOUR[k] == cc) for cc in range(4)]
            value = view.score_values[rank[c]]
            steps = sorted(
                {st for st, who, k in picks if who == s and COLOUR[k] == c} | _opt(witch_moved.get(c))
            )
            label = TEXTS(
                "why.brujas.witch",
                colour=_colour(c),
                held=held[c],
                witch=_witch(c),
                place=TEXTS(f"why.brujas.{PLACES[rank[c]]}"),
                value=value,
            )
            lines.append(ExplanationLine.of(label, float(value), steps))
            tied = tuple(_colour(cc) for cc in range(4) if cc != c and held[cc] == held[c])
            if tied:
                notes.append(TEXTS("why.brujas.colour_tie", held=held[c], colour=_colour(c), tied=tied))
            if conflict:
                sharing = [o for o in range(n) if o != s and colours[o] == c]
                half = (value + 1) // 2
                who = seat_list(sharing)
                if sharing and half == value:  # the bottom witch's 1: half of it, rounded up, is still 1
                    notes.append(TEXTS("why.brujas.shared_one", who=who, witch=_witch(c)))
                elif sharing:
                    label = TEXTS("why.brujas.conflict", who=who, witch=_witch(c), half=half)
                    lines.append(ExplanationLine.of(label, float(half - value)))
            for num in range(1, 6):
                counts = number_counts[num]
                top = max(counts)
                mine = counts[s]
                if top and mine == top:
                    rivals = [o for o in range(n) if o != s and counts[o] == top]
                    cards = TEXTS("why.brujas.cards", n=mine)
                    if rivals:
                        label = TEXTS("why.brujas.devil_tied", number=num, cards=cards, who=seat_list(rivals))
                    else:
                        label = TEXTS("why.brujas.devil", number=num, cards=cards)
                    steps = sorted(st for st, who, k in picks if who == s and NUMBER[k] == num)
                    lines.append(ExplanationLine.of(label, float(DEVIL_POINTS), steps))
                elif top and mine == top - 1:
                    notes.append(TEXTS("why.brujas.near_devil", number=num, mine=mine, top=top))
        seats.append(seat_explanation(s, lines, notes))
    best = max(x.score for x in seats)
    winners = tuple(x.seat for x in seats if x.score == best)
    return Explanation(
        "brujas", view.seat, tuple(seats), winners, default_summary(seats, winners, texts=TEXTS)
    )


def _kinds(pile: int) -> list[int]:
    return kinds_of(pile)


def _opt(step: int | None) -> set[int]:
    return set() if step is None else {step}
