"""The terminal picture of a Namaste view: each sheet as a diamond, the dice, the legal circles.

Pink circles are shown in angle brackets ``< 7>``, truth circles in braces ``{ 4}``, an empty circle as
``·``; on the viewer's sheet the circles that can take one of the viewer's totals for the current roll
are marked ``+``. Rich markup colours pink (magenta) and truth (cyan) circles.
"""

from __future__ import annotations

from coven.core import Event
from coven.games.namaste.notation import dice_phrase, die_text
from coven.games.namaste.rules import CHOOSE, DECIDE, OVER
from coven.games.namaste.sheet import (
    CELL_NAMES,
    INDEX,
    KARMA_SPACES,
    LINE_NAMES,
    PINK_CELLS,
    ROW_NAMES,
    TRUTH_CELLS,
    legal_cells,
)
from coven.games.namaste.view import NamasteView, options_of, score_of


def _cell(value: int, cell: int, legal: bool) -> str:
    body = f"{value:>2}" if value else (" +" if legal else " ·")
    if cell in PINK_CELLS:
        return f"[magenta]<{body}>[/magenta]"
    if cell in TRUTH_CELLS:
        return f"[cyan]{{{body}}}[/cyan]"
    return f" {body} "


def render_sheet(sheet: tuple[int, ...], legal: frozenset[int] = frozenset()) -> list[str]:
    lines = ["     " + "".join(f"  {c}  " for c in range(1, 8))]
    for r in range(1, 8):
        parts = []
        for c in range(1, 8):
            cell = INDEX.get((r, c))
            parts.append("     " if cell is None else _cell(sheet[cell], cell, cell in legal) + " ")
        lines.append(f"  {ROW_NAMES[r - 1]}  " + "".join(parts).rstrip())
    return lines


def render(view: NamasteView) -> str:
    out: list[str] = []
    totals_by_seat: dict[int, tuple[int, ...]] = {}
    if view.phase == DECIDE:
        dice = " ".join(die_text(f) for f in view.white)
        out.append(
            f"Seat {view.active} rolled: white {dice}  turquoise [cyan]{die_text(view.turquoise)}[/cyan]"
        )
        for s in range(view.players):
            totals_by_seat[s] = options_of(s, view.white, view.turquoise, view.active)
        waiting = ", ".join(str(s) for s in view.to_decide) or "nobody"
        out.append(f"Still to decide: {waiting}")
    elif view.phase == CHOOSE:
        out.append(f"Seat {view.active} chooses how many white dice to roll (roll 1-3).")
    elif view.phase == OVER:
        out.append("The game is over.")
    if view.ending and view.phase != OVER:
        out.append("Last round: someone has filled every circle or every bad-karma space.")
    for s in range(view.players):
        sheet = view.sheets[s]
        legal: frozenset[int] = frozenset()
        note = ""
        if s == view.seat and s in view.to_decide and s in totals_by_seat:
            cells: set[int] = set()
            parts = []
            for v in totals_by_seat[s]:
                here = legal_cells(sheet, v)
                cells.update(here)
                parts.append(f"{v} -> " + (" ".join(CELL_NAMES[c] for c in here) or "nowhere"))
            legal = frozenset(cells)
            note = "Your totals: " + "; ".join(parts)
        score = score_of(sheet, view.karma[s], view.line_points[s])
        tags = []
        if s == view.starter:
            tags.append("I'm first")
        if s == view.seat:
            tags.append("you")
        if s == view.active and view.phase != OVER:
            tags.append("rolling")
        title = f"Seat {s}" + (f" ({', '.join(tags)})" if tags else "") + f"  score {score}"
        out.append("")
        out.append(f"[bold]{title}[/bold]")
        out.extend(render_sheet(sheet, legal))
        karma = " ".join(f"-{k}" for k in view.karma[s]) + " □" * (KARMA_SPACES - len(view.karma[s]))
        out.append(f"  bad karma: {karma.strip()}")
        done = [f"{LINE_NAMES[k]} {p}" for k, p in enumerate(view.line_points[s]) if p]
        if done:
            out.append("  lines: " + ", ".join(done))
        if note:
            out.append("  " + note)
        if s == view.seat and view.my_choice:
            out.append(f"  your choice this roll: {view.my_choice}")
    return "\n".join(out)


# ------------------------------------------------------------------------------------------- events
def _does(seat: object, viewer: int | None, you: str, other: str) -> str:
    """``you roll`` / ``seat 2 rolls``."""
    return f"you {you}" if seat == viewer else f"seat {seat} {other}"


def _seats(value: object) -> str:
    return ", ".join(str(s) for s in value) if isinstance(value, list) and value else "nobody"


def describe_event(event: Event, viewer: int | None) -> str:
    """One event in words for ``viewer`` (plain text): the others' choices on a roll appear only once
    everyone asked has decided (the ``entries`` event), as the events' audiences say."""
    d = event.data
    kind = event.kind
    seat = d.get("seat")
    if kind == "roll":
        white, turquoise = d.get("white"), d.get("turquoise")
        if isinstance(white, list) and isinstance(turquoise, int):
            dice = dice_phrase([int(f) for f in white if isinstance(f, int)], turquoise)
        else:
            dice = str(d.get("dice"))
        return f"{_does(seat, viewer, 'roll', 'rolls')} {dice}; to decide: {_seats(d.get('asked'))}"
    if kind == "decided":
        return f"you chose {d.get('action')} (hidden from the others until everyone has decided)"
    if kind == "waiting":
        return f"{_does(seat, viewer, 'have', 'has')} decided; still to decide: {_seats(d.get('still'))}"
    if kind == "entries":
        entries = d.get("entries")
        if isinstance(entries, dict) and entries:
            made = ", ".join(f"{'you' if str(viewer) == s else 'seat ' + s}: {a}" for s, a in entries.items())
        else:
            made = "none"
        return f"the choices are made: {made}"
    if kind == "line":
        first = " (first)" if d.get("first") else ""
        return (
            f"{_does(seat, viewer, 'complete', 'completes')} {d.get('line')}: {d.get('points')} points{first}"
        )
    if kind == "end_triggered":
        return (
            f"{_does(seat, viewer, 'have', 'has')} filled the sheet or the bad karma: this is the last round"
        )
    if kind == "game_over":
        scores = d.get("scores")
        return "game over; scores " + (", ".join(str(v) for v in scores) if isinstance(scores, list) else "")
    details = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{kind} {details}".strip()
