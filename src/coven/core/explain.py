"""Explained results: why each seat scored what it scored, in the game's own terms.

:meth:`coven.core.game.Game.explain` builds an :class:`Explanation` from one seat's final view (or the
spectator's) and, optionally, the *moments* that seat saw: ``(step, event)`` pairs, where ``step`` is
the number of actions applied once the event happened (the replay's step number). Points come from the
view alone; moments only tell *when* something happened, so a line can link to the replay at that step.

Every seat's lines add up exactly to the engine's score for that seat (``Game.scores``). Texts may name
seats as ``{s2}``: front ends put the seat's name there (:func:`fill`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from coven.core.events import Event
from coven.core.types import JSONValue, Seat

Moment = tuple[int, Event]
"""An event the viewer saw and the step (actions applied so far) at which it happened."""

_SEAT_REF = re.compile(r"\{s([0-9]{1,2})\}")


def seat_ref(seat: int) -> str:
    """The placeholder for ``seat``'s name in an explanation's texts."""
    return f"{{s{seat}}}"


def fill(text: str, name: Callable[[int], str]) -> str:
    """``text`` with every ``{sN}`` replaced by ``name(N)``."""
    return _SEAT_REF.sub(lambda m: name(int(m.group(1))), text)


@dataclass(frozen=True, slots=True)
class ExplanationLine:
    """One reason for points: what, how many (may be 0 or negative), and the steps where it happened."""

    label: str
    points: float
    steps: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatExplanation:
    seat: int
    score: float
    """The sum of :attr:`lines` (the engine's score for the seat)."""
    lines: tuple[ExplanationLine, ...]
    notes: tuple[str, ...] = ()
    """Remarks that earn no points (a tie-break, a near miss)."""


@dataclass(frozen=True, slots=True)
class Explanation:
    game: str
    viewer: int | None
    """The seat whose view this was built from (``None``: a spectator)."""
    seats: tuple[SeatExplanation, ...]
    winners: tuple[int, ...]
    summary: str
    """A short sentence on why the winner won (or why nobody did)."""
    notes: tuple[str, ...] = ()
    """Facts of the whole table that explain the scores (e.g. the cards a ritual revealed)."""

    def to_json(self) -> dict[str, JSONValue]:
        return {
            "game": self.game,
            "viewer": self.viewer,
            "winners": list(self.winners),
            "summary": self.summary,
            "notes": list(self.notes),
            "seats": [
                {
                    "seat": s.seat,
                    "score": s.score,
                    "lines": [
                        {"label": ln.label, "points": ln.points, "steps": list(ln.steps)} for ln in s.lines
                    ],
                    "notes": list(s.notes),
                }
                for s in self.seats
            ],
        }


def seat_explanation(
    seat: int, lines: Iterable[ExplanationLine], notes: Iterable[str] = ()
) -> SeatExplanation:
    """A seat's explanation, its score the sum of its lines."""
    kept = tuple(lines)
    return SeatExplanation(seat, float(sum(ln.points for ln in kept)), kept, tuple(notes))


def points_text(points: float) -> str:
    """``3``, ``-2``, ``0.5``: a number of points without a needless ``.0``."""
    return f"{points:g}"


def plural(n: float, word: str, words: str | None = None) -> str:
    return f"{points_text(n)} {word if n == 1 else (words or word + 's')}"


def default_summary(seats: Sequence[SeatExplanation], winners: Sequence[int], tie_note: str = "") -> str:
    """``{s1} wins with 12 points, 3 points ahead of {s0}; most of it from Witch score +5, ...``."""
    if not winners:
        return "Nobody wins."
    best = seats[winners[0]].score
    others = [s for s in seats if s.seat not in winners]
    names = " and ".join(seat_ref(w) for w in winners)
    if len(winners) > 1:
        head = f"{names} share the win with {plural(best, 'point')}"
    else:
        head = f"{names} wins with {plural(best, 'point')}"
    if others:
        second = max(others, key=lambda s: s.score)
        gap = best - second.score
        if gap > 0:
            head += f", {plural(gap, 'point')} ahead of {seat_ref(second.seat)}"
        elif tie_note:
            head += f", level with {seat_ref(second.seat)}: {tie_note}"
    top = sorted(
        (ln for ln in seats[winners[0]].lines if ln.points > 0), key=lambda ln: ln.points, reverse=True
    )[:2]
    if top:
        parts = (f"{ln.label.split(':')[0].split(',')[0]} +{points_text(ln.points)}" for ln in top)
        head += "; most of it from " + ", ".join(parts)
    return head + "."


def moments_by_kind(moments: Iterable[Moment]) -> Mapping[str, list[Moment]]:
    out: dict[str, list[Moment]] = {}
    for step, event in moments:
        out.setdefault(event.kind, []).append((step, event))
    return out


def moments_from_steps(steps: Iterable[tuple[int, Iterable[Event]]], seat: Seat | None) -> list[Moment]:
    """The moments ``seat`` saw, from numbered steps and all their events."""
    return [(number, e) for number, events in steps for e in events if e.visible_to(seat)]
