"""Explained results of Namaste, from a view alone (every sheet is public): each completed line and its
points (the pink circle in full for the first roll that completed it, half rounded up after), the four
truth circles (top and left in full, bottom and right half rounded up), the bad karma taken, and the
tie-break on fewer bad-karma spaces.

Steps come from the moments: the ``line`` event of a completion, the ``entries`` event of the roll that
filled a truth circle or a bad-karma space. Every text is a message of :data:`TEXTS` (translated by the
front ends, see :mod:`coven.core.explain`).
"""

from __future__ import annotations

from collections.abc import Sequence

from coven.core.explain import (
    CORE,
    Explanation,
    ExplanationLine,
    Moment,
    SeatExplanation,
    Texts,
    default_summary,
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

TEXTS = CORE | Texts(
    {
        "why.namaste.row": "Row {name} complete ({circles} circles), pink circle {cell} = {pink}, {how}",
        "why.namaste.row.short": "Row {name} complete ({circles} circles)",
        "why.namaste.column": (
            "Column {name} complete ({circles} circles), pink circle {cell} = {pink}, {how}"
        ),
        "why.namaste.column.short": "Column {name} complete ({circles} circles)",
        "why.namaste.first": "first: in full",
        "why.namaste.later": "after another player: half, rounded up",
        "why.namaste.truth": "Truth circle {cell} ({where}) = {value}, {how}",
        "why.namaste.truth.short": "Truth circle {cell} ({where}) = {value}",
        "why.namaste.top": "top",
        "why.namaste.left": "left",
        "why.namaste.bottom": "bottom",
        "why.namaste.right": "right",
        "why.namaste.in_full": "in full",
        "why.namaste.half": "half, rounded up",
        "why.namaste.karma": "Bad karma space {i}: the turquoise die's {value}",
        "why.namaste.lines_done": "{done} of {total} lines completed",
        "why.namaste.spaces.one": "{n} space",
        "why.namaste.spaces.other": "{n} spaces",
        "why.namaste.seat_spaces": "{who} {spaces}",
        "why.namaste.tie_broken": "the tie is broken by fewer bad-karma spaces filled ({counts})",
        "why.namaste.tie_shared": (
            "the same number of bad-karma spaces filled ({counts}), so the win is shared"
        ),
        "why.namaste.tie_break": "Tie-break: {tie}",
    }
)


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
            kind, name = LINE_NAMES[k].split()
            label = TEXTS(
                f"why.namaste.{kind}",
                name=name,
                circles=len(LINES[k]),
                cell=CELL_NAMES[PINK[k]],
                pink=pink,
                how=TEXTS("why.namaste.first" if first else "why.namaste.later"),
            )
            lines.append(ExplanationLine.of(label, float(points), (step,) if step else ()))
        notes.append(TEXTS("why.namaste.lines_done", done=done, total=len(LINES)))
        for cell, where, full in TRUTH:
            value = sheet[cell]
            if not value:
                continue
            points = value if full else half_up(value)
            step = written.get(CELL_NAMES[cell], 0)
            label = TEXTS(
                "why.namaste.truth",
                cell=CELL_NAMES[cell],
                where=TEXTS(f"why.namaste.{where}"),
                value=value,
                how=TEXTS("why.namaste.in_full" if full else "why.namaste.half"),
            )
            lines.append(ExplanationLine.of(label, float(points), (step,) if step else ()))
        karma_steps = [step for step, action in mine if action == "karma"]
        for i, value in enumerate(view.karma[s]):
            step = karma_steps[i] if i < len(karma_steps) else 0
            label = TEXTS("why.namaste.karma", i=i + 1, value=value)
            lines.append(ExplanationLine.of(label, float(-value), (step,) if step else ()))
        seats.append(seat_explanation(s, lines, notes))
    best = max(x.score for x in seats)
    tied = [x.seat for x in seats if x.score == best]
    fewest = min(len(view.karma[s]) for s in tied)
    winners = tuple(s for s in tied if len(view.karma[s]) == fewest)
    tie_note: str = ""
    if len(tied) > 1:
        counts = tuple(
            TEXTS(
                "why.namaste.seat_spaces",
                who=seat_ref(s),
                spaces=TEXTS("why.namaste.spaces", n=len(view.karma[s])),
            )
            for s in tied
        )
        tie_note = TEXTS(
            "why.namaste.tie_broken" if len(winners) < len(tied) else "why.namaste.tie_shared", counts=counts
        )
        for s in tied:
            note = TEXTS("why.namaste.tie_break", tie=tie_note)
            seats[s] = SeatExplanation(s, seats[s].score, seats[s].lines, (*seats[s].notes, note))
    summary = default_summary(seats, winners, tie_note, texts=TEXTS)
    return Explanation("namaste", view.seat, tuple(seats), winners, summary)
