"""Explained results of Amulets, from a view alone (the spell book is public): who cast, when, with
what success (and which spirit said no), and the questions each wizard asked. The successful caster
scores 1, everyone else 0. Every line of the spell book is one action, so entry ``i`` is step ``i + 1``.
"""

from __future__ import annotations

from collections.abc import Sequence

from coven.core.explain import (
    Explanation,
    ExplanationLine,
    Moment,
    SeatExplanation,
    plural,
    seat_explanation,
    seat_ref,
)
from coven.games.amulets.board import NO, format_placement
from coven.games.amulets.view import AmuletsView


def explain(view: AmuletsView, moments: Sequence[Moment] = ()) -> Explanation:
    n = view.players
    seats: list[SeatExplanation] = []
    for s in range(n):
        lines: list[ExplanationLine] = []
        notes: list[str] = []
        asked = [i + 1 for i, e in enumerate(view.book) if e.kind == "ask" and e.seat == s]
        lines.append(
            ExplanationLine(
                f"Asked {plural(len(asked), 'question')} (the answers are clues, not points)",
                0.0,
                tuple(asked),
            )
        )
        casts = [(i + 1, e) for i, e in enumerate(view.book) if e.kind == "cast" and e.seat == s]
        for step, entry in casts:
            before = sum(1 for e in view.book[: step - 1] if e.kind == "ask")
            where = format_placement(entry.fields)
            if s == view.winner and step == len(view.book) and NO not in entry.answers:
                lines.append(
                    ExplanationLine(
                        f"Cast the freeing spell ({where}) at step {step}, after "
                        f"{plural(before, 'question')} in all: every spirit said yes, the wizard wins",
                        1.0,
                        (step,),
                    )
                )
            else:
                refused = [o for o, ch in enumerate(entry.answers) if ch == NO]
                who = f": {seat_ref(refused[0])}'s spirit said no" if refused else ""
                lines.append(
                    ExplanationLine(
                        f"Cast ({where}) at step {step}, after {plural(before, 'question')} in all, "
                        f"and failed{who}; out of the race from then on",
                        0.0,
                        (step,),
                    )
                )
        if not casts:
            notes.append("never cast the spell")
        seats.append(seat_explanation(s, lines, notes))
    winners = (view.winner,) if view.winner >= 0 else ()
    if winners:
        w = view.winner
        total = sum(1 for e in view.book if e.kind == "ask")
        failed = sum(1 for e in view.book if e.kind == "cast" and e.seat != w)
        summary = (
            f"{seat_ref(w)} wins: the first to cast the freeing spell right, "
            f"after {plural(total, 'question')}"
            + (f" and {plural(failed, 'failed cast')} by others" if failed else "")
            + "."
        )
    elif view.over:
        summary = "Nobody wins: every wizard's cast failed."
    else:
        summary = "The game is not over."
    return Explanation("amulets", view.seat, tuple(seats), winners, summary)
