"""Explained results: why each seat scored what it scored, in the game's own terms.

:meth:`coven.core.game.Game.explain` builds an :class:`Explanation` from one seat's final view (or the
spectator's) and, optionally, the *moments* that seat saw: ``(step, event)`` pairs, where ``step`` is
the number of actions applied once the event happened (the replay's step number). Points come from the
view alone; moments only tell *when* something happened, so a line can link to the replay at that step.

Every seat's lines add up exactly to the engine's score for that seat (``Game.scores``). Texts may name
seats as ``{s2}``: front ends put the seat's name there (:func:`fill`).

Every text is English and carries a stable message key with its parameters (a :class:`Message`, built
by a game's :class:`Texts`), so that a front end shows it in its own language: the browser through its
catalogues (``src/coven/web/i18n/*.json``), the terminal through
:func:`coven.core.lang.explanation_catalogue`, both by :func:`translate`'s rules; a key a catalogue
lacks shows the English text. A parameter is a number, a text (a seat as ``{s2}``), a nested
:class:`Message` (a colour, a place: translated first), a text in each language (a card's words)
or a tuple of those (joined with ``, ``). A key with ``.one`` and ``.other`` forms in a catalogue (and
no plain form) picks one by its ``n`` parameter and the language's plural rule (French: 0 and 1 are
singular).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias

from coven.core.events import Event
from coven.core.lang import french_joins
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


Param: TypeAlias = "str | int | float | Message | Mapping[str, str] | tuple[Param, ...]"
"""A message's parameter: a number, a text, a nested message (translated first), a text given in each
language (``{"en": ..., "fr": ...}``: a card's own words; English when the language is missing) or a tuple
of them."""

_FIELD = re.compile(r"\{(\w+)\}")
_NO_PARAMS: Mapping[str, Param] = MappingProxyType({})


class Message(str):
    """An explanation's text: the English text itself (it *is* that ``str``), with the stable ``key`` and
    the ``params`` a catalogue's template for that key is filled from."""

    key: str
    params: Mapping[str, Param]

    def __new__(cls, text: str, key: str, params: Mapping[str, Param] = _NO_PARAMS) -> Message:
        made = super().__new__(cls, text)
        made.key = key
        made.params = MappingProxyType(dict(params))
        return made

    def __reduce__(self) -> tuple[type[Message], tuple[str, str, dict[str, Param]]]:
        return (Message, (str(self), self.key, dict(self.params)))

    def key_json(self) -> dict[str, JSONValue]:
        """``{"key": ..., "params": {...}}``: a nested message as the same kind of object."""
        return {"key": self.key, "params": params_json(self.params)}


def params_json(params: Mapping[str, Param]) -> dict[str, JSONValue]:
    return {name: _param_json(value) for name, value in params.items()}


def _param_json(value: Param) -> JSONValue:
    if isinstance(value, Message):
        return value.key_json()
    if isinstance(value, tuple):
        return [_param_json(v) for v in value]
    if isinstance(value, Mapping):
        return dict(value)
    return value


def plural_form(n: float, lang: str) -> str:
    """``one`` or ``other``: English says 1 question, 0 questions; French 0 question, 1 question."""
    return "one" if (abs(n) < 2 if lang == "fr" else n == 1) else "other"


def template(key: str, params: Mapping[str, Param], catalogue: Mapping[str, str], lang: str) -> str | None:
    """The catalogue's template for ``key`` (or its plural form for ``params["n"]``), ``None`` if none."""
    if key in catalogue:
        return catalogue[key]
    n = params.get("n")
    if isinstance(n, int | float) and not isinstance(n, bool):
        return catalogue.get(f"{key}.{plural_form(n, lang)}")
    return None


def render(key: str, params: Mapping[str, Param], catalogue: Mapping[str, str], lang: str) -> str | None:
    """``key``'s template filled from ``params`` (nested messages translated the same way); ``None`` when
    the catalogue does not know the key or a nested one (no sentence half in one language, half in
    another). An unknown ``{field}`` stays as it is (a seat's ``{s2}``)."""
    text = template(key, params, catalogue, lang)
    if text is None:
        return None
    values: dict[str, str] = {}
    for name, param in params.items():
        shown = _value(param, catalogue, lang)
        if shown is None:
            return None
        values[name] = shown
    filled = _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), text)
    return french_joins(filled) if lang == "fr" else filled


def _value(v: Param, catalogue: Mapping[str, str], lang: str) -> str | None:
    if isinstance(v, Message):
        return render(v.key, v.params, catalogue, lang)
    if isinstance(v, tuple):
        parts = [_value(x, catalogue, lang) for x in v]
        return None if None in parts else ", ".join(p for p in parts if p is not None)
    if isinstance(v, Mapping):
        return v.get(lang, v.get("en", ""))
    if isinstance(v, float):
        return points_text(v)
    return str(v)


def _plain(v: Param) -> Param:
    if isinstance(v, Message):
        return str(v)
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    return v


def translate(text: str, catalogue: Mapping[str, str], lang: str) -> str:
    """``text`` in the catalogue's language when it is a :class:`Message` whose keys the catalogue knows,
    else ``text`` as it is (English)."""
    if not isinstance(text, Message):
        return text
    out = render(text.key, text.params, catalogue, lang)
    return str(text) if out is None else out


class Texts:
    """A game's English templates, key → text with ``{fields}``; calling it makes a :class:`Message`.
    The browser's ``en.json`` holds the same templates (a test checks it), ``fr.json`` and the terminal's
    French catalogue their translations."""

    def __init__(self, templates: Mapping[str, str]) -> None:
        self.templates: Mapping[str, str] = MappingProxyType(dict(templates))

    def __call__(self, key: str, /, **params: Param) -> Message:
        # nested messages are English already: their text as it is
        text = render(key, {k: _plain(v) for k, v in params.items()}, self.templates, "en")
        if text is None:
            raise KeyError(f"no English text for {key!r}")
        return Message(text, key, params)

    def __or__(self, other: Texts) -> Texts:
        return Texts({**self.templates, **other.templates})


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


def points_text(points: float) -> str:
    """``3``, ``-2``, ``0.5``: a number of points without a needless ``.0``."""
    return f"{points:g}"


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
