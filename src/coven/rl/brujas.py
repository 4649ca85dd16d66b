"""Brujas del Sábado for learning: the observation and the action index.

Actions (42): playing each of the 20 kinds of card (``R1`` .. ``G5``, colours in hand order red, blue,
yellow, green), taking each kind from the trick (``xR1`` ..), and moving the witch ``up`` or ``down``:
every action of the game has its own index. No seat acts out of turn, so there is no pass.

Observation (from the seat's view): the seat, its hand (count of each kind), every hand's size, the
witch column (each position's colour) and its score values, every face-up pile (counts of each kind),
leader and seat to act, the trick (each card's kind, face down or unknown), the lead (colour or
number), the phase, the trick's winner, the witch move, the cards taken from the trick, the number of
past tricks and the scores so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from coven.rl.encoding import (
    JSONDict,
    NotationIndex,
    Observation,
    Vector,
    as_float,
    as_int,
    as_list,
    as_str,
    field,
)

COLOURS = "RBYG"
KINDS = tuple(f"{colour}{value}" for colour in COLOURS for value in range(1, 6))
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
PHASES = ("play", "witch", "take", "over")
LEADS = ("", "colour", "number")
MOVES = ("", "up", "down")
MAX_PLAYERS = 5
HAND = 13
"""The most cards a hand holds (three players)."""
COPIES = 2
"""Copies of each kind in the deck: a hand or pile count is scaled by it."""


def counts(cards: Sequence[object]) -> list[float]:
    out = [0.0] * len(KINDS)
    for card in cards:
        index = KIND_INDEX.get(str(card))
        if index is not None:
            out[index] += 1.0 / COPIES
    return out


class BrujasEncoding(NotationIndex):
    game_id = "brujas"

    def texts(self) -> Sequence[str]:
        return (*KINDS, *(f"x{kind}" for kind in KINDS), "up", "down")

    def observe(self, view: JSONDict, prefix: tuple[int, ...]) -> Observation:
        players = self.players
        v = Vector()
        v.one_hot(as_int(field(view, "seat")), players)
        v.values.extend(counts(as_list(field(view, "hand"))))
        v.scaled([as_float(n) for n in as_list(field(view, "hand_sizes"))], players, HAND)
        for colour in as_list(field(view, "witches"))[: len(COLOURS)]:
            v.one_hot(COLOURS.find(as_str(colour)), len(COLOURS))
        v.scaled([as_float(n) for n in as_list(field(view, "score_values"))], len(COLOURS), 10.0)
        piles = as_list(field(view, "piles"))
        for seat in range(players):
            v.values.extend(counts(as_list(piles[seat]) if seat < len(piles) else []))
        v.one_hot(as_int(field(view, "leader")), players)
        v.one_hot(as_int(field(view, "to_act")), players)
        trick = as_list(field(view, "trick"))
        face_down = as_list(field(view, "face_down"))
        for position in range(MAX_PLAYERS):
            card = as_str(trick[position]) if position < len(trick) else ""
            v.one_hot(KIND_INDEX.get(card, -1), len(KINDS))
            v.flags([card == "?", position < len(face_down) and face_down[position] is True], 2)
        v.one_hot(LEADS.index(as_str(field(view, "lead"))) if field(view, "lead") in LEADS else -1, 3)
        phase = as_str(field(view, "phase"))
        v.one_hot(PHASES.index(phase) if phase in PHASES else -1, len(PHASES))
        v.one_hot(as_int(field(view, "winner")), players)
        moved = as_str(field(view, "moved"))
        v.one_hot(MOVES.index(moved) if moved in MOVES else -1, len(MOVES))
        v.values.extend(counts(as_list(field(view, "taken"))))
        v.number(len(as_list(field(view, "past"))), HAND)
        v.scaled([as_float(s) for s in as_list(field(view, "scores"))], players, self.bounds.max_score or 1)
        return v.array()
