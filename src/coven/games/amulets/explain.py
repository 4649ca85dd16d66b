"""Explained results of Amulets, from a view alone (the spell book is public): who cast, when, with
what success (and which spirit said no), and the questions each wizard asked. The successful caster
scores 1, everyone else 0. Every line of the spell book is one action, so entry ``i`` is step ``i + 1``.
Every text is a message of :data:`TEXTS` (translated by the front ends, see :mod:`coven.core.explain`).
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
    seat_explanation,
    seat_ref,
)
from coven.games.amulets.board import NO, format_placement
from coven.games.amulets.view import AmuletsView

TEXTS = CORE | Texts(
    {
        "why.amulets.questions.one": "{n} question",
        "why.amulets.questions.other": "{n} questions",
        "why.amulets.failed_casts.one": "{n} failed cast",
        "why.amulets.failed_casts.other": "{n} failed casts",
        "why.amulets.asked": "Asked {questions} (the answers are clues, not points)",
        "why.amulets.freed": (
            "Cast the freeing spell ({where}) at step {step}, after {questions} in all: "
            "every spirit said yes, the wizard wins"
        ),
        "why.amulets.failed": "Cast ({where}) at step {step}, after {questions} in all, and failed; "
        "out of the race from then on",
        "why.amulets.refused": "Cast ({where}) at step {step}, after {questions} in all, and failed: "
        "{who}'s spirit said no; out of the race from then on",
        "why.amulets.never_cast": "never cast the spell",
        "why.amulets.wins": "{who} wins: the first to cast the freeing spell right, after {questions}.",
        "why.amulets.wins_after_failures": (
            "{who} wins: the first to cast the freeing spell right, after {questions} and {failed} by others."
        ),
        "why.amulets.nobody": "Nobody wins: every wizard's cast failed.",
    }
)


def explain(view: AmuletsView, moments: Sequence[Moment] = ()) -> Explanation:
    n = view.players
    seats: list[SeatExplanation] = []
    for s in range(n):
        lines: list[ExplanationLine] = []
        notes: list[str] = []
        asked = [i + 1 for i, e in enumerate(view.book) if e.kind == "ask" and e.seat == s]
        lines.append(
            ExplanationLine.of(
                TEXTS("why.amulets.asked", questions=TEXTS("why.amulets.questions", n=len(asked))), 0.0, asked
            )
        )
        casts = [(i + 1, e) for i, e in enumerate(view.book) if e.kind == "cast" and e.seat == s]
        for step, entry in casts:
            before = TEXTS(
                "why.amulets.questions", n=sum(1 for e in view.book[: step - 1] if e.kind == "ask")
            )
            where = format_placement(entry.fields)
            if s == view.winner and step == len(view.book) and NO not in entry.answers:
                label = TEXTS("why.amulets.freed", where=where, step=step, questions=before)
                lines.append(ExplanationLine.of(label, 1.0, (step,)))
            else:
                refused = [o for o, ch in enumerate(entry.answers) if ch == NO]
                if refused:
                    label = TEXTS(
                        "why.amulets.refused",
                        where=where,
                        step=step,
                        questions=before,
                        who=seat_ref(refused[0]),
                    )
                else:
                    label = TEXTS("why.amulets.failed", where=where, step=step, questions=before)
                lines.append(ExplanationLine.of(label, 0.0, (step,)))
        if not casts:
            notes.append(TEXTS("why.amulets.never_cast"))
        seats.append(seat_explanation(s, lines, notes))
    winners = (view.winner,) if view.winner >= 0 else ()
    if winners:
        w = view.winner
        total = TEXTS("why.amulets.questions", n=sum(1 for e in view.book if e.kind == "ask"))
        failed = sum(1 for e in view.book if e.kind == "cast" and e.seat != w)
        if failed:
            summary = TEXTS(
                "why.amulets.wins_after_failures",
                who=seat_ref(w),
                questions=total,
                failed=TEXTS("why.amulets.failed_casts", n=failed),
            )
        else:
            summary = TEXTS("why.amulets.wins", who=seat_ref(w), questions=total)
    elif view.over:
        summary = TEXTS("why.amulets.nobody")
    else:
        summary = TEXTS("why.not_over")
    return Explanation("amulets", view.seat, tuple(seats), winners, summary)
