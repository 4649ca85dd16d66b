"""Why the engine refuses: the refusals' message keys, their params and their English texts.

A refusal is a :class:`~coven.core.texts.Message`: its English text (what ``str(exc)`` says, unchanged)
and beside it a stable key, ``refusal.<game>.<what>`` (``refusal.core.*`` for the engine's own,
``refusal.option.*`` and ``refusal.players.*`` for a table's options and player count), with params
that mean the same in every language: card ids, numbers, seats (``seat``: a seat number, from 0),
notation, option names, or a nested message (a phase, a colour: translated first). A
:class:`~coven.core.errors.GameError` raised with one carries it as its ``reason``; the server sends it
with the error, and the page says it in the person's language from its catalogues
(``src/coven/web/i18n/*.json``: every key below and every game's :attr:`~coven.core.game.Game.refusals`
has its English text there, the same as here, and its French one; a test checks).

A game lists its own refusals, joined to these, as its :attr:`~coven.core.game.Game.refusals`; its
``illegal_reason`` returns one of their messages (a ``str``, so callers that want the text have it).
"""

from __future__ import annotations

from typing import Final

from coven.core.texts import Message, Texts

PREFIX: Final = "refusal."
"""Every refusal's key begins so (the catalogues keep them apart from the page's own texts)."""

CORE: Final = Texts(
    {
        # Game.check and the turn driver
        "refusal.core.game_over": "the game is over",
        "refusal.core.not_a_seat": "{value} is not a seat",
        "refusal.core.not_your_turn": "seat {seat} may not act now",
        "refusal.core.not_an_action": "{value} is not an action of {game}",
        "refusal.core.not_legal": "{action} is not a legal action now",
        "refusal.core.ill_formed": (
            "{value} is not a well-formed action of {game} (a field of the wrong type, or a move its "
            "notation cannot write)"
        ),
        "refusal.core.must_act": "you must act now",
        "refusal.core.seed": "a seed is a whole number, not {value}",
        # GameSpec: the player count and the options
        "refusal.players.number": "the number of players must be a whole number, not {value}",
        "refusal.players.range": "{game} takes {min} to {max} players, not {value}",
        "refusal.option.not_a_mapping": "options map names to values, not {value}",
        "refusal.option.unknown": "{game} has no option {option} (options: {known})",
        "refusal.option.unknown_none": "{game} has no option {option} (options: none)",
        "refusal.option.text_for_flag": "option {option} takes true or false, not the text {value}",
        "refusal.option.text_for_number": "option {option} takes a whole number, not the text {value}",
        "refusal.option.word": "option {option} takes a word, not {value}",
        "refusal.option.choice": "option {option} is one of {choices}, not {value}",
        "refusal.option.flag": "option {option} takes true or false, not {value}",
        "refusal.option.number": "option {option} takes a whole number, not {value}",
        "refusal.option.number_length": (
            "option {option} takes a whole number of at most {max} characters, not a text of {length}"
        ),
        "refusal.option.digits": (
            "option {option} takes a whole number written with the digits 0-9 "
            "(and a leading '-' if negative), not {value}"
        ),
        "refusal.option.minimum": "option {option} is at least {min}, not {value}",
        "refusal.option.maximum": "option {option} is at most {max}, not {value}",
        "refusal.option.range": "option {option} is a whole number from -10**18 to 10**18, not {value}",
    }
)
"""The engine's own refusals: :meth:`~coven.core.game.Game.check`, the turn driver, the options."""


def keys(message: Message) -> set[str]:
    """The key of ``message`` and of every message nested in its params."""
    found = {message.key}
    for value in message.params.values():
        if isinstance(value, Message):
            found |= keys(value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Message):
                    found |= keys(item)
    return found
