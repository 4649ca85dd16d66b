"""What a novice's free words say: a small bilingual (English and French) lexicon.

The words a novice says stay free text; the cards about words (asking permission, naming a colour,
calling the High Priestess by an animal's name, ...) are judged on the words actually typed. A text
is normalised (Unicode NFKD, accents dropped, case folded) and cut into *tokens*, the runs of letters
and digits: ``"Puis-je, ô Grande Prêtresse ?"`` gives ``puis je o grande pretresse``. An entry of the
lexicon is one token or a few (``may i``), and it is found when its tokens occur next to each other in
the text, so matching is case- and accent-insensitive and on word boundaries (``cat`` is not found in
``concatenate``, ``chat`` is found in ``Chat !``).

:data:`LEXICON` maps each kind of thing said (the words of ``said("...")`` in the card language) to
its entries, English and French together. No token belongs to the entries of two kinds (a test checks
it), so one word never says two things at once, and a text saying k kinds holds at least as many
tokens as their shortest entries together: the deck's balance relies on that (see ``DECK.md``).

The tokens of a text are also what a performance's words cost (:func:`tokens`): ``"may-I"`` is two
words, like ``"may I"``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

_ENTRIES: Final[dict[str, tuple[str, ...]]] = {
    "permission": (
        # English
        "may i",
        "can i",
        "could i",
        "permission",
        "allowed",
        "allow me",
        "please",
        # French
        "puis je",
        "je peux",
        "est ce que je",
        "autorisation",
        "permettez",
        "permets",
        "s il vous plait",
        "s il te plait",
        "svp",
    ),
    "thanks": (
        "thanks",
        "thank",
        "grateful",
        "cheers",
        "merci",
        "remercie",
        "reconnaissant",
        "reconnaissante",
    ),
    "colour": (
        "white",
        "black",
        "brown",
        "red",
        "blue",
        "green",
        "yellow",
        "pink",
        "purple",
        "grey",
        "gray",
        "golden",
        "blanc",
        "blanche",
        "noir",
        "noire",
        "marron",
        "brun",
        "brune",
        "rouge",
        "bleu",
        "bleue",
        "vert",
        "verte",
        "jaune",
        "rose",
        "violet",
        "violette",
        "gris",
        "grise",
        "orange",
        "dore",
        "doree",
    ),
    "animal": (
        "cat",
        "kitten",
        "dog",
        "puppy",
        "cow",
        "pig",
        "goat",
        "sheep",
        "donkey",
        "mouse",
        "rat",
        "snake",
        "hen",
        "chicken",
        "duck",
        "goose",
        "owl",
        "frog",
        "toad",
        "monkey",
        "bear",
        "wolf",
        "fox",
        "horse",
        "rabbit",
        "bunny",
        "lion",
        "tiger",
        "bird",
        "chat",
        "chatte",
        "chaton",
        "chien",
        "chienne",
        "vache",
        "cochon",
        "chevre",
        "mouton",
        "brebis",
        "ane",
        "souris",
        "serpent",
        "poule",
        "canard",
        "oie",
        "hibou",
        "grenouille",
        "crapaud",
        "singe",
        "ours",
        "loup",
        "renard",
        "cheval",
        "lapin",
        "tigre",
        "oiseau",
        "dinde",
    ),
    "offend": (
        "idiot",
        "stupid",
        "fool",
        "moron",
        "loser",
        "clown",
        "dummy",
        "twit",
        "jerk",
        "ugly",
        "imbecile",
        "cretin",
        "abruti",
        "nul",
        "nulle",
        "bete",
        "andouille",
        "nigaud",
        "stupide",
        "debile",
        "moche",
    ),
    "curse": (
        "damn",
        "dammit",
        "hell",
        "blast",
        "crap",
        "heck",
        "bloody",
        "darn",
        "zut",
        "merde",
        "mince",
        "flute",
        "bon sang",
        "sacrebleu",
        "diantre",
        "punaise",
        "sapristi",
    ),
    "compliment": (
        "beautiful",
        "lovely",
        "wise",
        "wonderful",
        "great",
        "gorgeous",
        "radiant",
        "divine",
        "marvellous",
        "magnificent",
        "belle",
        "beau",
        "magnifique",
        "sage",
        "merveilleuse",
        "merveilleux",
        "sublime",
        "radieuse",
        "superbe",
    ),
    "artefact": (
        "artefact",
        "artifact",
        "little one",
        "precious",
        "stone",
        "mon petit",
        "ma petite",
        "caillou",
        "precieux",
        "tresor",
    ),
}

_TOKEN: Final = re.compile(r"[^\W_]+")


def normalise(text: str) -> str:
    """``text`` without accents, case folded (``"Prêtresse"`` -> ``"pretresse"``)."""
    if text.isascii():  # (what most words are: nothing to decompose, and case folding is lowering)
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[str, ...]:
    """The words of ``text`` (runs of letters and digits, normalised): what the lexicon matches and
    what a performance's words cost."""
    return tuple(_TOKEN.findall(normalise(text)))


LEXICON: Final[dict[str, tuple[tuple[str, ...], ...]]] = {
    kind: tuple(tokens(entry) for entry in entries) for kind, entries in _ENTRIES.items()
}
"""Each kind of thing said, with its entries as token sequences."""

KINDS_SAID: Final[tuple[str, ...]] = tuple(LEXICON)
"""The kinds of thing said, in the order of :data:`LEXICON` (the words of ``said("...")``)."""

_FIRST: Final[dict[str, list[tuple[str, tuple[str, ...]]]]] = {}
for _kind, _entries in LEXICON.items():
    for _entry in _entries:
        _FIRST.setdefault(_entry[0], []).append((_kind, _entry))


@lru_cache(maxsize=4096)
def said_in(text: str) -> frozenset[str]:
    """The kinds of thing said in ``text`` (English or French, any case or accents)."""
    words = tokens(text)
    found: set[str] = set()
    for i, word in enumerate(words):
        for kind, entry in _FIRST.get(word, ()):
            if words[i : i + len(entry)] == entry:
                found.add(kind)
    return frozenset(found)


@lru_cache(maxsize=4096)
def analyse(text: str) -> tuple[frozenset[str], int, str]:
    """What a performance's words give the cards: the kinds said, the number of words, and the text
    normalised (for ``mentions``)."""
    return said_in(text), len(tokens(text)), " ".join(tokens(text))


def shortest(kind: str) -> tuple[str, ...]:
    """The shortest entry of a kind (the fewest words that say it)."""
    return min(LEXICON[kind], key=lambda e: (len(e), e))


__all__ = ["KINDS_SAID", "LEXICON", "analyse", "normalise", "said_in", "shortest", "tokens"]
