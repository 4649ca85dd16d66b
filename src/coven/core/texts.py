"""Texts that carry a stable message key beside their English words, for every front end's language.

A :class:`Message` is an English text (it *is* that ``str``) with a stable ``key`` and the ``params`` a
catalogue's template for that key is filled from: the browser fills its catalogues
(``src/coven/web/i18n/*.json``), the terminal its own (:mod:`coven.core.lang`), both by
:func:`translate`'s rules; a key a catalogue lacks shows the English text. A :class:`Texts` holds a
module's English templates and makes its messages. Explained results (:mod:`coven.core.explain`) and the
rules' refusals (:mod:`coven.core.refusals`) are made of them.

A parameter is a number, a text, a nested :class:`Message` (a colour, a place: translated first), a text in
each language (a card's words) or a tuple of those (joined with ``, ``). A key with ``.one`` and
``.other`` forms in a catalogue (and no plain form) picks one by its ``n`` parameter and the language's
plural rule (French: 0 and 1 are singular).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeAlias

from coven.core.lang import french_joins
from coven.core.types import JSONValue

Param: TypeAlias = "str | int | float | Message | Mapping[str, str] | tuple[Param, ...]"
"""A message's parameter: a number, a text, a nested message (translated first), a text given in each
language (``{"en": ..., "fr": ...}``: a card's own words; English when the language is missing) or a tuple
of them."""

_FIELD = re.compile(r"\{(\w+)\}")
_NO_PARAMS: Mapping[str, Param] = MappingProxyType({})


class Message(str):
    """A text of the engine (an explanation's line, a refusal): the English text itself (it *is* that
    ``str``), with the stable ``key`` and the ``params`` a catalogue's template for that key is filled
    from."""

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

    def worded(self, text: str, key: str, /, **params: Param) -> Message:
        """A message of ``key`` whose English text is ``text`` rather than its template's: for an English
        detail no parameter can carry (a library's own words). A catalogue says the template, filled from
        ``params``."""
        if key not in self.templates:
            raise KeyError(f"no English text for {key!r}")
        return Message(text, key, params)

    def __or__(self, other: Texts) -> Texts:
        return Texts({**self.templates, **other.templates})


def points_text(points: float) -> str:
    """``3``, ``-2``, ``0.5``: a number of points without a needless ``.0``."""
    return f"{points:g}"
