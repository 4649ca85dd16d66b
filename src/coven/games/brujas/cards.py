"""Devil cards as small integers, the tables built from them once at import, and their notation.

A card *kind* is ``colour * 5 + (number - 1)``: colours 0-3 are red, blue, yellow, green (``R B Y G``),
numbers 1-5, so kinds run 0..19 and the deck holds two copies of each (rulings: 4 x 5 x 2 = 40 cards).
Identical copies are indistinguishable, so a *set of cards* (a hand, a score pile, the cards left in a
trick) is one 40-bit integer: bit ``k`` says "at least one copy of kind k", bit ``k + 20`` says "both
copies". The kinds present are ``cards & LOW``; a colour's count is ``(cards & COLOUR40[c]).bit_count()``.
"""

from __future__ import annotations

from typing import Final

from coven.core import NotationError
from coven.core.errors import short_repr
from coven.core.texts import Texts

COLOURS = "RBYG"
COLOUR_NAMES = ("red", "blue", "yellow", "green")
KINDS = 20
COPIES = 2
LOW = (1 << KINDS) - 1

COLOUR = tuple(k // 5 for k in range(KINDS))
NUMBER = tuple(k % 5 + 1 for k in range(KINDS))
NAME = tuple(f"{COLOURS[COLOUR[k]]}{NUMBER[k]}" for k in range(KINDS))
KIND = {name: k for k, name in enumerate(NAME)}
BIT = tuple(1 << k for k in range(KINDS))
BIT2 = tuple(1 << (k + KINDS) for k in range(KINDS))

COLOUR_MASK = tuple(sum(BIT[k] for k in range(KINDS) if COLOUR[k] == c) for c in range(4))
NUMBER_MASK = (0, *(sum(BIT[k] for k in range(KINDS) if NUMBER[k] == n) for n in range(1, 6)))
COLOUR40 = tuple(m | (m << KINDS) for m in COLOUR_MASK)
NUMBER40 = tuple(m | (m << KINDS) for m in NUMBER_MASK)
MATCH = tuple(COLOUR_MASK[COLOUR[k]] | NUMBER_MASK[NUMBER[k]] for k in range(KINDS))
"""Kinds matching card ``k`` in colour or number (``k`` itself included): what the deciding player must
play if able."""
FULL_DECK = (1 << (2 * KINDS)) - 1


def add(cards: int, k: int) -> int:
    """``cards`` with one more copy of kind ``k`` (at most two)."""
    return cards | BIT2[k] if cards & BIT[k] else cards | BIT[k]


def remove(cards: int, k: int) -> int:
    """``cards`` with one copy of kind ``k`` fewer (it must hold one)."""
    return cards ^ BIT2[k] if cards & BIT2[k] else cards ^ BIT[k]


def count(cards: int, k: int) -> int:
    return (cards >> k & 1) + (cards >> (k + KINDS) & 1)


def kinds_of(cards: int) -> list[int]:
    """Every card of the set, copies repeated, in kind order (red 1 .. green 5)."""
    out: list[int] = []
    for k in range(KINDS):
        if cards >> k & 1:
            out.append(k)
            if cards >> (k + KINDS) & 1:
                out.append(k)
    return out


def from_kinds(kinds: list[int] | tuple[int, ...]) -> int:
    cards = 0
    for k in kinds:
        if cards & BIT2[k]:
            raise NotationError(f"more than two copies of {NAME[k]}")
        cards = add(cards, k)
    return cards


def size(cards: int) -> int:
    return cards.bit_count()


NOTATION_REFUSALS: Final = Texts(
    {
        "refusal.brujas.notation.card": (
            "a card is a colour R, B, Y or G and a number 1-5 (e.g. R3), not {text}"
        ),
        "refusal.brujas.notation.unknown": (
            "an action is a card to play (R3), a pick (xR3) or a witch move (up, down), not {text}"
        ),
    }
)
"""Why a move's notation cannot be read (``text``: what was typed, quoted), in the person's language
(:mod:`coven.core.refusals`). A position's own texts (a researcher's tool) stay English."""


def parse_card(text: str) -> int:
    """``"R3"`` -> its kind; NotationError for anything else."""
    k = KIND.get(text.strip().upper())
    if k is None:
        raise NotationError(NOTATION_REFUSALS("refusal.brujas.notation.card", text=short_repr(text)))
    return k


def parse_cards(text: str) -> list[int]:
    """``"R3G4B1"`` or ``"R3 G4 B1"`` or ``"-"`` (none) -> kinds in order."""
    text = text.replace(" ", "").replace(",", "")
    if text in ("", "-"):
        return []
    if len(text) % 2:
        raise NotationError(f"cards are written two characters each (R3G4), not {short_repr(text)}")
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


def cards_text(cards: int) -> str:
    return "".join(NAME[k] for k in kinds_of(cards)) or "-"
