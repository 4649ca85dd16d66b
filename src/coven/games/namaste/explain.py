"""Explained results of Namaste, from a view alone (every sheet is public): each completed line and its
points (the pink circle in full for the first roll that completed it, half rounded up after), the four
truth circles (top and left in full, bottom and right half rounded up), the bad karma taken, and the
tie-break on fewer bad-karma spaces.

Steps come from the moments: the ``line`` event of a completion, the ``entries`` event of the roll that
filled a truth circle or a bad-karma space.
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
from coven.games.namaste.sheet import (
    BOTTOM,
    CELL_NAMES,
    LEFT_TIP,
    LINE_NAMES,
    LINES,
    PINK,
    RIGHT_TIP,
    TOP,
    half_up,
)
from coven.games.namaste.view import NamasteView

TRUTH = ((TOP, "top", True), (LEFT_TIP, "left", True), (BOTTOM, "bottom", False), (RIGHT_TIP, "right", False))


def _entries(moments: Sequence[Moment]) -> dict[int, list[tuple[int, str]]]:
    """Per seat, (step, action) of every entry it made, in order."""
    out: dict[int, list[tuple[int, str]]] = {}
    for step, event in moments:
        if event.kind != "entries":
            continue
        entries = event.data.get("entries")
        if isinstance(entries, dict):
            for seat, action in entries.items():
                if seat.isdigit() and isinstance(action, str):
                    out.setdefault(int(seat), []).append((step, action))
    return out


def _completions(moments: Sequence[Moment]) -> dict[tuple[int, str], tuple[int, bool]]:
    """(seat, line name) -> (step, first) of each completion."""
    out: dict[tuple[int, str], tuple[int, bool]] = {}
    for step, event in moments:
        d = event.data
        seat, line = d.get("seat"), d.get("line")
        if event.kind == "line" and isinstance(seat, int) and isinstance(line, str):
            out[(seat, line)] = (step, bool(d.get("first")))
    return out


def explain(view: NamasteView, moments: Sequence[Moment] = ()) -> Explanation:
    entries = _entries(moments)
    completions = _completions(moments)
    seats: list[SeatExplanation] = []
    for s in range(view.players):
        sheet = view.sheets[s]
        lines: list[ExplanationLine] = []
        notes: list[str] = []
        mine = entries.get(s, [])
        written = {action.rpartition("@")[2]: step for step, action in mine if "@" in action}
        done = 0
        for k, points in enumerate(view.line_points[s]):
            if not points:
                continue
            done += 1
            pink = sheet[PINK[k]]
            step, first = completions.get((s, LINE_NAMES[k]), (0, points == pink))
            how = "first: in full" if first else "after another player: half, rounded up"
            lines.append(
                ExplanationLine(
                    f"{LINE_NAMES[k].capitalize()} complete ({len(LINES[k])} circles), pink circle "
                    f"{CELL_NAMES[PINK[k]]} = {pink}, {how}",
                    float(points),
                    (step,) if step else (),
                )
            )
        notes.append(f"{done} of {len(LINES)} lines completed")
        for cell, where, full in TRUTH:
            value = sheet[cell]
            if not value:
                continue
            points = value if full else half_up(value)
            how = "in full" if full else "half, rounded up"
            step = written.get(CELL_NAMES[cell], 0)
            lines.append(
                ExplanationLine(
                    f"Truth circle {CELL_NAMES[cell]} ({where}) = {value}, {how}",
                    float(points),
                    (step,) if step else (),
                )
            )
        karma_steps = [step for step, action in mine if action == "karma"]
        for i, value in enumerate(view.karma[s]):
            step = karma_steps[i] if i < len(karma_steps) else 0
            lines.append(
                ExplanationLine(
                    f"Bad karma space {i + 1}: the turquoise die's {value}",
                    float(-value),
                    (step,) if step else (),
                )
            )
        seats.append(seat_explanation(s, lines, notes))
    best = max(x.score for x in seats)
    tied = [x.seat for x in seats if x.score == best]
    fewest = min(len(view.karma[s]) for s in tied)
    winners = tuple(s for s in tied if len(view.karma[s]) == fewest)
    tie_note = ""
    if len(tied) > 1:
        counts = ", ".join(f"{seat_ref(s)} {plural(len(view.karma[s]), 'space')}" for s in tied)
        if len(winners) < len(tied):
            tie_note = f"the tie is broken by fewer bad-karma spaces filled ({counts})"
        else:
            tie_note = f"the same number of bad-karma spaces filled ({counts}), so the win is shared"
        for s in tied:
            seats[s] = SeatExplanation(
                s, seats[s].score, seats[s].lines, (*seats[s].notes, "Tie-break: " + tie_note)
            )
    return Explanation("namaste", view.seat, tuple(seats), winners, default_summary(seats, winners, tie_note))
