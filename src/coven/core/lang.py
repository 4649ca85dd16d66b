"""The terminal's language: ``coven play --lang fr`` (or ``COVEN_LANG=fr``) prints its prompts and fixed
lines in French.

Standard :mod:`gettext` with the English text as the message id, so English needs no catalogue and any
text missing from a catalogue shows in English. The catalogues are plain Python dicts (below), read through
a :class:`gettext.NullTranslations` subclass: no compiled ``.mo`` files to build or ship. A text with
fields is a :meth:`str.format` template, translated first and filled after (``tr("seat {n}").format(n=2)``).
The browser's catalogues are separate (``src/coven/web/i18n/*.json``).
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from typing import Final

LANGS: Final = ("en", "fr")

FRENCH: Final[Mapping[str, str]] = {
    "Type a move in notation, '?' for the legal moves, 'help' for this text, 'quit' to leave.": (
        "Tapez un coup en notation, « ? » pour les coups permis, « help » pour ce texte, "
        "« quit » pour partir."
    ),
    "your move": "votre coup",
    "you may act (Enter to pass)": "vous pouvez agir (Entrée pour passer)",
    "legal:": "permis :",
    "  … and {n} more": "  … et {n} de plus",
    "[bold green]you[/] play [bold]{action}[/]": "[bold green]vous[/] jouez [bold]{action}[/]",
    "you": "vous",
    "seat {n}": "place {n}",
    "wins": "gagne",
    "Why these scores": "Pourquoi ces scores",
    "step {steps}": "étape {steps}",
    "steps {steps}": "étapes {steps}",
    "{title} — {count} players, you are seat {seat}{told}.": (
        "{title} — {count} joueurs, vous êtes à la place {seat}{told}."
    ),
    ", seed {seed}": ", graine {seed}",
    "the deal's seed was {seed}": "la graine de la donne était {seed}",
    "record saved to {path}": "partie enregistrée dans {path}",
    "--seat is 0 to {last}": "--seat va de 0 à {last}",
    "give one bot for each of the {n} other seats, or one for all": (
        "donnez un bot pour chacune des {n} autres places, ou un seul pour toutes"
    ),
}

CATALOGUES: Final[Mapping[str, Mapping[str, str]]] = {"en": {}, "fr": FRENCH}


class DictTranslations(gettext.NullTranslations):
    """gettext's interface over a dict catalogue (English text → translation)."""

    def __init__(self, catalogue: Mapping[str, str]) -> None:
        super().__init__()
        self._texts = dict(catalogue)

    def gettext(self, message: str) -> str:
        return self._texts.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)


def pick_lang(choice: str | None) -> str:
    """``fr``, ``fr_FR.UTF-8``, ``FR`` → ``fr``; anything else (or nothing) → ``en``."""
    code = (choice or "").strip().lower()[:2]
    return code if code in LANGS else "en"


def translations(lang: str | None) -> DictTranslations:
    return DictTranslations(CATALOGUES[pick_lang(lang)])
