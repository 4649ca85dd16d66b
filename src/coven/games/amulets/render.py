"""The terminal picture of an Amulets view: the altar, the spell book and (if on) the assistant.

The spell book follows the rulebook's layout: one row per question or cast, the five amulets' fields,
then one column per wizard beginning with the viewer and proceeding clockwise.
"""

from __future__ import annotations

from coven.core import Event
from coven.games.amulets.board import (
    AMULET_CODES,
    AMULET_NAMES,
    AMULETS,
    LETTERS,
    amulet_text,
    field_name,
    home_text,
)
from coven.games.amulets.view import AmuletsView, assistant_of

_ASSISTANT_LIST = 8
"""Show a wizard's possible fields for an amulet one by one up to this many."""


def _altar(view: AmuletsView) -> list[str]:
    last = view.book[-1] if view.book else None
    on: dict[int, str] = {}
    if last is not None:
        for a, f in enumerate(last.fields):
            on[f] = AMULET_CODES[a]
    title = "The altar"
    if last is not None:
        title += f" ({'question' if last.kind == 'ask' else 'cast'} of wizard {last.seat})"
    lines = [f"[bold]{title}[/bold]", "     " + "   ".join(LETTERS)]
    for number in range(5):
        cells = []
        for letter in range(5):
            f = letter * 5 + number
            mark = on.get(f, ".")
            if f == view.field:
                mark = f"[reverse]{mark}[/reverse]"
            cells.append(mark)
        lines.append(f"  {number + 1}  " + "   ".join(cells))
    if view.seat is not None:
        lines.append(
            f"You are wizard {view.seat}: {home_text(view.field)} (shown reversed), "
            f"{amulet_text(view.amulet)}."
        )
    return lines


def _spell_book(view: AmuletsView) -> list[str]:
    n = view.players
    start = view.seat if view.seat is not None else 0
    seats = [(start + i) % n for i in range(n)]
    head = (
        " #  who  what  "
        + " ".join(f"{c:>2}" for c in AMULET_CODES)
        + " ||"
        + "".join(f" w{s}" for s in seats)
    )
    lines = ["[bold]The spell book[/bold]", head, "-" * len(head)]
    for i, e in enumerate(view.book, 1):
        what = "ask " if e.kind == "ask" else "cast"
        placed = " ".join(field_name(f) for f in e.fields)
        answers = "".join(f"  {e.answers[s]}" for s in seats)
        lines.append(f"{i:>2}  w{e.seat:<3} {what}  {placed} ||{answers}")
    if not view.book:
        lines.append("   (no question asked yet)")
    return lines


def _status(view: AmuletsView) -> list[str]:
    failed = [s for s in range(view.players) if view.out[s]]
    lines = []
    if view.over:
        lines.append(
            f"[bold]Wizard {view.winner} cast the freeing spell and wins.[/bold]"
            if view.winner >= 0
            else "[bold]Every wizard failed: no winner, only misery.[/bold]"
        )
    else:
        lines.append(f"Wizard {view.turn} asks the spirits (question {view.questions + 1}).")
    if failed:
        lines.append("Failed casters (still answering): " + ", ".join(f"w{s}" for s in failed))
    return lines


def _assistant(view: AmuletsView) -> list[str]:
    found = view.assistant or assistant_of(view)
    total = found.worlds
    lines = [f"[bold]Deduction assistant[/bold]: {total} joint assignment(s) remain"]
    for wizard in found.wizards:
        lines.append(f"  wizard {wizard.seat}: {len(wizard.possible)} possible (field, amulet) pair(s)")
        for a in range(AMULETS):
            pairs = [p for p in wizard.possible if p.amulet == a]
            if not pairs:
                continue
            fields = sorted(p.field for p in pairs)
            weight = sum(p.worlds for p in pairs)
            share = f"{100 * weight / total:.0f}%" if total else "-"
            where = (
                " ".join(field_name(f) for f in fields)
                if len(fields) <= _ASSISTANT_LIST
                else f"{len(fields)} fields"
            )
            lines.append(f"    {AMULET_NAMES[a]:<6} {share:>4}: {where}")
    return lines


def render_view(view: AmuletsView) -> str:
    parts = [_altar(view), _spell_book(view), _status(view)]
    if view.options.get("assistant"):
        parts.append(_assistant(view))
    return "\n\n".join("\n".join(p) for p in parts)


# ------------------------------------------------------------------------------------------- events
def _who(seat: object, viewer: int | None) -> str:
    return "you" if seat == viewer else f"wizard {seat}"


def _does(seat: object, viewer: int | None, you: str, other: str) -> str:
    """``you ask`` / ``wizard 2 asks``."""
    return f"you {you}" if seat == viewer else f"wizard {seat} {other}"


def _answers(value: object, viewer: int | None) -> str:
    if not isinstance(value, list):
        return ""
    parts = []
    for item in value:
        if isinstance(item, list) and len(item) == 2:
            parts.append(f"{_who(item[0], viewer)} {item[1]}")
    return ", ".join(parts)


def describe_event(event: Event, viewer: int | None) -> str:
    """One event in words for ``viewer`` (plain text); every event of Amulets is public."""
    d = event.data
    kind = event.kind
    seat = d.get("seat")
    if kind == "question":
        answers = _answers(d.get("answers"), viewer)
        return f"{_does(seat, viewer, 'ask', 'asks')} {d.get('placement')}: {answers}"
    if kind == "cast":
        result = "the spell works" if d.get("success") else "the spell fails"
        checks = _answers(d.get("checks"), viewer)
        return f"{_does(seat, viewer, 'cast', 'casts')} {d.get('placement')}: {checks} ({result})"
    if kind == "turn":
        return f"{_does(seat, viewer, 'ask', 'asks')} next"
    if kind == "win":
        return f"{_does(seat, viewer, 'win', 'wins')}"
    if kind == "all_failed":
        return "every wizard failed: nobody wins"
    details = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{kind} {details}".strip()
