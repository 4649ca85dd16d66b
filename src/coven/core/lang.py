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
import re
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
    "cannot save the record to {path}: {why}": "impossible d'enregistrer la partie dans {path} : {why}",
    "it is a folder": "c'est un dossier",
    "there is no folder {folder}": "il n'y a pas de dossier {folder}",
    "not allowed to write there": "l'écriture n'y est pas permise",
    "the input ended before the game did": "l'entrée s'est terminée avant la partie",
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


_ARTICLE: Final = re.compile(r"(?<![^\W\d_])(de|à|De|À) (Les?) ")
_ELIDED: Final = re.compile(r"(?<![^\W\d_])(de|De|que|Que) (?=[aeiouàâäéèêëîïôöùûüAEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜ])")


def french_joins(text: str) -> str:
    """French text with "de", "à" and "que" joined to the name a field put in after them, as the language
    joins them (the browser's ``contracted`` does the same): contracted with the name's article ("des 3
    Commandements", not "de Les 3 Commandements"; "du", "au", "aux" likewise; "de La" stays), elided
    before a vowel ("l'esprit d'Ana", not "de Ana"). The catalogues' own texts never need it (a test
    checks), so only what the fields brought changes; a name beginning with "h" is left as it is."""

    def contract(m: re.Match[str]) -> str:
        word, article = m.group(1), m.group(2)
        plural = article == "Les"
        joined = ("des" if plural else "du") if word.lower() == "de" else ("aux" if plural else "au")
        return f"{joined.capitalize() if word[0].isupper() else joined} "

    return _ELIDED.sub(lambda m: f"{m.group(1)[:-1]}'", _ARTICLE.sub(contract, text))


def pick_lang(choice: str | None) -> str:
    """``fr``, ``fr_FR.UTF-8``, ``FR`` → ``fr``; anything else (or nothing) → ``en``."""
    code = (choice or "").strip().lower()[:2]
    return code if code in LANGS else "en"


def known_lang(choice: str) -> str | None:
    """The language ``choice`` names, if it names one of :data:`LANGS` (``fr``, ``FR``, a locale such as
    ``fr_FR.UTF-8`` or ``fr-CA``); None for anything else (``de``, ``frog``): a choice a person typed is
    checked with this, where :func:`pick_lang` reads anything, English by default."""
    code = choice.strip().lower()
    head = code[:2]
    if head in LANGS and (len(code) == 2 or code[2] in "_-."):
        return head
    return None


def translations(lang: str | None) -> DictTranslations:
    return DictTranslations(CATALOGUES[pick_lang(lang)])


EXPLANATIONS_FR: Final[Mapping[str, str]] = {
    # coven.core.explain: every game's summary
    "why.points.one": "{n} point",
    "why.points.other": "{n} points",
    "why.and": "{first} et {last}",
    "why.nobody": "Personne ne gagne.",
    "why.not_over": "La partie n'est pas finie.",
    "why.wins": "{who} : victoire avec {points}{gap}{top}.",
    "why.share": "{who} : victoire partagée avec {points}{gap}{top}.",
    "why.ahead": ", {points} devant {second}",
    "why.level": ", à égalité avec {second} : {tie}",
    "why.most_from": " ; l'essentiel grâce à {parts}",
    "why.part": "{what} +{points}",
    # Amulets
    "why.amulets.questions.one": "{n} question",
    "why.amulets.questions.other": "{n} questions",
    "why.amulets.failed_casts.one": "{n} sortilège raté",
    "why.amulets.failed_casts.other": "{n} sortilèges ratés",
    "why.amulets.asked": "Questions posées : {questions} (les réponses sont des indices, pas des points)",
    "why.amulets.freed": (
        "A lancé le sortilège de libération ({where}) à l'étape {step}, après {questions} en tout : "
        "chaque esprit a dit oui, le sorcier gagne"
    ),
    "why.amulets.failed": (
        "A lancé le sortilège ({where}) à l'étape {step}, après {questions} en tout, et a échoué ; "
        "hors course dès lors"
    ),
    "why.amulets.refused": (
        "A lancé le sortilège ({where}) à l'étape {step}, après {questions} en tout, et a échoué : "
        "l'esprit de {who} a dit non ; hors course dès lors"
    ),
    "why.amulets.never_cast": "n'a jamais lancé le sortilège",
    "why.amulets.wins": (
        "{who} : victoire, premier à lancer correctement le sortilège de libération, après {questions}."
    ),
    "why.amulets.wins_after_failures": (
        "{who} : victoire, premier à lancer correctement le sortilège de libération, après {questions} "
        "et {failed} par les autres."
    ),
    "why.amulets.nobody": "Personne ne gagne : le sortilège de chaque sorcier a échoué.",
    # Brujas del Sábado
    "why.brujas.red": "rouge",
    "why.brujas.blue": "bleu",
    "why.brujas.yellow": "jaune",
    "why.brujas.green": "vert",
    "why.brujas.witch_red": "la sorcière rouge",
    "why.brujas.witch_blue": "la sorcière bleue",
    "why.brujas.witch_yellow": "la sorcière jaune",
    "why.brujas.witch_green": "la sorcière verte",
    "why.brujas.top": "en haut",
    "why.brujas.second": "deuxième",
    "why.brujas.third": "troisième",
    "why.brujas.bottom": "en bas",
    "why.brujas.cards.one": "{n} carte",
    "why.brujas.cards.other": "{n} cartes",
    "why.brujas.witch": (
        "Score de sorcière : le plus de cartes en {colour} ({held}) ; {witch} est {place}, à côté du {value}"
    ),
    "why.brujas.witch.short": "Score de sorcière",
    "why.brujas.colour_tie": (
        "{held} cartes en {colour} à égalité avec {tied} : la sorcière la plus haute ({colour}) compte"
    ),
    "why.brujas.shared_one": (
        "{witch} compte aussi pour {who}, mais la moitié de 1, arrondie au-dessus, fait 1"
    ),
    "why.brujas.conflict": (
        "Diables en conflit : {witch} compte aussi pour {who}, elle ne vaut donc que la moitié "
        "(arrondie au-dessus) : {half}"
    ),
    "why.brujas.devil": "Score de diable : le plus de {number} ({cards})",
    "why.brujas.devil_tied": "Score de diable : le plus de {number} ({cards}, à égalité avec {who})",
    "why.brujas.devil.short": "Score de diable",
    "why.brujas.devil_tied.short": "Score de diable",
    "why.brujas.near_devil": "à un {number} du score de diable des {number} ({mine} sur {top})",
    # The 3 Commandments
    "why.commandments.ritual": "Rituel {number}",
    "why.commandments.cards": "{ritual} (Grande Prêtresse : {priestess}) : {cards}",
    "why.commandments.secret": (
        "{ritual} (Grande Prêtresse : {priestess}) : ses cartes ne sont jamais révélées"
    ),
    "why.commandments.taboo": "tabou",
    "why.commandments.commandment": "commandement",
    "why.commandments.slot": "{role} {card}",
    "why.commandments.slot_words": "{role} {card} « {words} » ({value})",
    "why.commandments.then": "{first} ; {next}",
    "why.commandments.moves.one": "{n} coup",
    "why.commandments.moves.other": "{n} coups",
    "why.commandments.times.one": "{n} fois",
    "why.commandments.times.other": "{n} fois",
    "why.commandments.earned": "{ritual} : {moves}, dont {k} avec du karma ({how})",
    "why.commandments.earned.short": "{ritual}",
    "why.commandments.none_earned": "{ritual} : {moves}, aucun avec du karma",
    "why.commandments.forfeits": (
        "{ritual} : {bonus} de karma pour chaque renoncement d'une autre novice ({who})"
    ),
    "why.commandments.forfeits.short": "{ritual}",
    "why.commandments.forfeited": "{ritual} : a renoncé {times} (sans karma)",
    "why.commandments.disempowered": (
        "{ritual} : destitution de la Grande Prêtresse ({priestess}) : {bonus} de karma pour chaque novice"
    ),
    "why.commandments.disempowered.short": "{ritual}",
    "why.commandments.priestess_disempowered": (
        "{ritual} en Grande Prêtresse : destituée (quatre cartes du destin retournées), rien"
    ),
    "why.commandments.priestess": (
        "{ritual} en Grande Prêtresse : le karma de la meilleure novice de son rituel ({who})"
    ),
    "why.commandments.priestess.short": "{ritual} en Grande Prêtresse",
    # Namaste
    "why.namaste.row": ("Ligne {name} complète ({circles} cercles), cercle rose {cell} = {pink}, {how}"),
    "why.namaste.row.short": "Ligne {name} complète ({circles} cercles)",
    "why.namaste.column": "Colonne {name} complète ({circles} cercles), cercle rose {cell} = {pink}, {how}",
    "why.namaste.column.short": "Colonne {name} complète ({circles} cercles)",
    "why.namaste.first": "en premier : en entier",
    "why.namaste.later": "après un autre joueur : la moitié, arrondie au-dessus",
    "why.namaste.truth": "Cercle de vérité {cell} ({where}) = {value}, {how}",
    "why.namaste.truth.short": "Cercle de vérité {cell} ({where}) = {value}",
    "why.namaste.top": "haut",
    "why.namaste.left": "gauche",
    "why.namaste.bottom": "bas",
    "why.namaste.right": "droite",
    "why.namaste.in_full": "en entier",
    "why.namaste.half": "la moitié, arrondie au-dessus",
    "why.namaste.karma": "Case de mauvais karma {i} : le {value} du dé turquoise",
    "why.namaste.lines_done": "lignes complétées : {done} sur {total}",
    "why.namaste.spaces.one": "{n} case",
    "why.namaste.spaces.other": "{n} cases",
    "why.namaste.seat_spaces": "{who} {spaces}",
    "why.namaste.tie_broken": (
        "l'égalité est départagée par le moins de cases de mauvais karma remplies ({counts})"
    ),
    "why.namaste.tie_shared": (
        "autant de cases de mauvais karma remplies ({counts}) : la victoire est partagée"
    ),
    "why.namaste.tie_break": "Départage : {tie}",
}
"""The explanations' texts in French, by message key (:mod:`coven.core.explain`); the same texts as the
browser's ``fr.json`` (a test checks it)."""

EXPLANATION_CATALOGUES: Final[Mapping[str, Mapping[str, str]]] = {"en": {}, "fr": EXPLANATIONS_FR}


def explanation_catalogue(lang: str | None) -> Mapping[str, str]:
    """The explanations' templates in ``lang`` by message key (English: none, the texts are English)."""
    return EXPLANATION_CATALOGUES[pick_lang(lang)]
