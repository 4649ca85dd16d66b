"""Explained results: why each seat scored what it scored, in the game's own terms.

:meth:`coven.core.game.Game.explain` builds an :class:`Explanation` from one seat's final view (or the
spectator's) and, optionally, the *moments* that seat saw: ``(step, event)`` pairs, where ``step`` is
the number of actions applied once the event happened (the replay's step number). Points come from the
view alone; moments only tell *when* something happened, so a line can link to the replay at that step.

Every seat's lines add up exactly to the engine's score for that seat (``Game.scores``). Texts may name
seats as ``{s2}``: front ends put the seat's name there (:func:`fill`).

Every text is English and carries a stable message key with its parameters (a :class:`Message`, built by
a game's :class:`Texts`: both in :mod:`coven.core.texts`, and named here too), so that a front end shows
it in its own language: the browser through its catalogues (``src/coven/web/i18n/*.json``), the terminal
through :func:`coven.core.lang.explanation_catalogue`, both by :func:`translate`'s rules; a key a
catalogue lacks shows the English text. A parameter is a number, a text (a seat as ``{s2}``), a nested
:class:`Message` (a colour, a place: translated first), a text in each language (a card's words) or a
tuple of those (joined with ``, ``). A key with ``.one`` and ``.other`` forms in a catalogue (and no
plain form) picks one by its ``n`` parameter and the language's plural rule (French: 0 and 1 are
singular).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from coven.core.events import Event
from coven.core.texts import (
    Message,
    Param,
    Texts,
    params_json,
    plural_form,
    points_text,
    render,
    template,
    translate,
)
from coven.core.types import JSONValue, Seat

__all__ = [
    "CORE",
    "Explanation",
    "ExplanationLine",
    "Message",
    "Moment",
    "Param",
    "SeatExplanation",
    "Texts",
    "default_summary",
    "fill",
    "moments_by_kind",
    "moments_from_steps",
    "params_json",
    "plural",
    "plural_form",
    "points_text",
    "render",
    "seat_explanation",
    "seat_list",
    "seat_ref",
    "template",
    "text_key",
    "translate",
]

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
    """One reason for points: what, how many (may be 0 or negative), and the steps where it happened;
    the English ``label`` with its message ``key`` and ``params`` (``""`` and none: English only)."""

    label: str
    points: float
    steps: tuple[int, ...] = ()
    key: str = ""
    params: Mapping[str, Param] = field(default_factory=dict)

    @classmethod
    def of(cls, label: Message, points: float, steps: Iterable[int] = ()) -> ExplanationLine:
        return cls(str(label), points, tuple(steps), label.key, label.params)

    @property
    def message(self) -> str:
        """The label as a :class:`Message` (plain text when it has no key)."""
        return Message(self.label, self.key, self.params) if self.key else self.label


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
        """The texts in English (``summary``, ``notes``, ``label``) and beside each its message:
        ``summary_key``/``summary_params``, ``note_keys`` (one ``{key, params}`` per note), and a line's
        ``key``/``params``."""
        summary = text_key(self.summary)
        return {
            "game": self.game,
            "viewer": self.viewer,
            "winners": list(self.winners),
            "summary": str(self.summary),
            "summary_key": summary["key"],
            "summary_params": summary["params"],
            "notes": [str(n) for n in self.notes],
            "note_keys": [text_key(n) for n in self.notes],
            "seats": [
                {
                    "seat": s.seat,
                    "score": s.score,
                    "lines": [line_json(ln) for ln in s.lines],
                    "notes": [str(n) for n in s.notes],
                    "note_keys": [text_key(n) for n in s.notes],
                }
                for s in self.seats
            ],
        }


def text_key(text: str) -> dict[str, JSONValue]:
    """A text's ``{key, params}`` (``""`` and ``{}`` for a plain English text)."""
    return text.key_json() if isinstance(text, Message) else {"key": "", "params": {}}


def line_json(line: ExplanationLine) -> dict[str, JSONValue]:
    return {
        "label": line.label,
        "points": line.points,
        "steps": list(line.steps),
        "key": line.key,
        "params": params_json(line.params),
    }


def seat_explanation(
    seat: int, lines: Iterable[ExplanationLine], notes: Iterable[str] = ()
) -> SeatExplanation:
    """A seat's explanation, its score the sum of its lines."""
    kept = tuple(lines)
    return SeatExplanation(seat, float(sum(ln.points for ln in kept)), kept, tuple(notes))


def plural(n: float, word: str, words: str | None = None) -> str:
    return f"{points_text(n)} {word if n == 1 else (words or word + 's')}"


CORE = Texts(
    {
        "why.points.one": "{n} point",
        "why.points.other": "{n} points",
        "why.and": "{first} and {last}",
        "why.nobody": "Nobody wins.",
        "why.not_over": "The game is not over.",
        "why.wins": "{who} wins with {points}{gap}{top}.",
        "why.share": "{who} share the win with {points}{gap}{top}.",
        "why.ahead": ", {points} ahead of {second}",
        "why.level": ", level with {second}: {tie}",
        "why.most_from": "; most of it from {parts}",
        "why.part": "{what} +{points}",
    }
)
"""The texts every game's explanation may use."""


def seat_list(seats: Sequence[int]) -> Param:
    """``{s0}``, ``{s0} and {s2}``, ``{s0}, {s1} and {s2}``."""
    refs = [seat_ref(s) for s in seats]
    if len(refs) < 2:
        return "".join(refs)
    return CORE("why.and", first=", ".join(refs[:-1]), last=refs[-1])


def _short(line: ExplanationLine, texts: Texts | None) -> Param:
    """A line's name in a summary: its ``<key>.short`` text, else the English label up to a ``:`` or ``,``."""
    key = f"{line.key}.short"
    if texts is not None and key in texts.templates:
        return texts(key, **line.params)
    return line.label.split(":")[0].split(",")[0]


def default_summary(
    seats: Sequence[SeatExplanation],
    winners: Sequence[int],
    tie_note: str = "",
    texts: Texts | None = None,
) -> Message:
    """``{s1} wins with 12 points, 3 points ahead of {s0}; most of it from Witch score +5, ...``. A line's
    name comes from ``texts``' ``<line key>.short`` when there is one."""
    if not winners:
        return CORE("why.nobody")
    best = seats[winners[0]].score
    others = [s for s in seats if s.seat not in winners]
    gap: Param = ""
    if others:
        second = max(others, key=lambda s: s.score)
        behind = best - second.score
        if behind > 0:
            gap = CORE("why.ahead", points=CORE("why.points", n=behind), second=seat_ref(second.seat))
        elif tie_note:
            gap = CORE("why.level", second=seat_ref(second.seat), tie=tie_note)
    top = sorted(
        (ln for ln in seats[winners[0]].lines if ln.points > 0), key=lambda ln: ln.points, reverse=True
    )[:2]
    most: Param = ""
    if top:
        parts = tuple(CORE("why.part", what=_short(ln, texts), points=ln.points) for ln in top)
        most = CORE("why.most_from", parts=parts)
    return CORE(
        "why.share" if len(winners) > 1 else "why.wins",
        who=seat_list(winners),
        points=CORE("why.points", n=best),
        gap=gap,
        top=most,
    )


def moments_by_kind(moments: Iterable[Moment]) -> Mapping[str, list[Moment]]:
    out: dict[str, list[Moment]] = {}
    for step, event in moments:
        out.setdefault(event.kind, []).append((step, event))
    return out


def moments_from_steps(steps: Iterable[tuple[int, Iterable[Event]]], seat: Seat | None) -> list[Moment]:
    """The moments ``seat`` saw, from numbered steps and all their events."""
    return [(number, e) for number, events in steps for e in events if e.visible_to(seat)]
