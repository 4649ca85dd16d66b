"""The 3 Commandments for learning: the observation and the action index.

Actions: a novice's performance is open-ended (words, gestures, touches, time), so the index is the
legal order: index ``i`` is the ``i``-th action of ``legal_actions()`` (ordainings, the family of
placements, the family of moves with their performances, the forfeit, a priestess's verdicts), capped
at :data:`CAP`. The order is a function of what the acting seat knows, so an index means the same to
the seat in the same information state; actions past the cap are never offered (the tests check that
random games never reach it).

Observation (from the seat's view): the seat, the phase, the seat to move, where each of the 15
artefacts stands (13 areas: the 12 of the Holy Circle and outside), the flips of destiny cards,
everyone's karma, and the current ritual: the High Priestess (and whether it is this seat), her hand
as far as the seat sees it (each card's type and value), the chosen discard, each commandment slot
(type, role, whether its card is known and its value), the last moves of the ritual (mover,
artefact, target, marks, total and flips), the gains, whether she is disempowered, whether the ritual
ended, the number of rituals so far and whether a move waits for her verdict.
"""

from __future__ import annotations

from coven.rl.encoding import (
    JSONDict,
    LegalOrder,
    Observation,
    Vector,
    as_dict,
    as_float,
    as_int,
    as_list,
    as_str,
    field,
)

CAP = 4096
PHASES = ("ordain", "place", "move", "judge", "over")
ARTEFACTS = 15
AREAS = 13
"""The 12 areas of the Holy Circle and outside (12)."""
TYPES = ("artefact", "action")
ROLES = ("taboo", "commandment")
VALUES = 11
"""Card values 0-9 and ``?``."""
HAND = 6
SLOTS = 4
MARKS = 4
LAST_MOVES = 8
MAX_PLAYERS = 7
MAX_RITUALS = 28


def value_slot(text: str) -> int:
    """A card's value as a slot: 0-9, ``?`` is 10, unknown is -1."""
    if text == "?":
        return 10
    return min(int(text), 9) if text.isdigit() else -1


class CommandmentsEncoding(LegalOrder):
    game_id = "commandments"
    cap = CAP

    def observe(self, view: JSONDict, prefix: tuple[int, ...]) -> Observation:
        players = self.players
        karma_scale = float(self.bounds.max_score) or 1.0
        cards = {as_str(as_dict(c).get("id")): as_dict(c) for c in as_list(view.get("cards", []))}
        v = Vector()
        seat = as_int(field(view, "seat"))
        v.one_hot(seat, players)
        phase = as_str(field(view, "phase"))
        v.one_hot(PHASES.index(phase) if phase in PHASES else -1, len(PHASES))
        v.one_hot(as_int(field(view, "to_move")), players)
        board = as_list(field(view, "board"))
        for artefact in range(ARTEFACTS):
            v.one_hot(as_int(board[artefact]) if artefact < len(board) else -1, AREAS)
        v.number(as_int(field(view, "flips"), 0), 10.0)
        v.scaled([as_float(k) for k in as_list(field(view, "karma"))], players, karma_scale)
        rituals = as_list(field(view, "rituals"))
        v.number(len(rituals), MAX_RITUALS)
        ritual = as_dict(rituals[-1]) if rituals else {}
        priestess = as_int(ritual.get("priestess"))
        v.one_hot(priestess, players)
        v.flags([priestess == seat and seat >= 0], 1)
        hand = as_list(ritual.get("hand", []))
        for position in range(HAND):
            card = cards.get(as_str(hand[position]), {}) if position < len(hand) else {}
            kind = as_str(card.get("type"))
            v.flags([position < len(hand)], 1)
            v.one_hot(TYPES.index(kind) if kind in TYPES else -1, len(TYPES))
            v.one_hot(value_slot(as_str(card.get("value"))), VALUES)
        discard = cards.get(as_str(ritual.get("discard")), {})
        v.flags([bool(as_str(ritual.get("discard")))], 1)
        v.one_hot(value_slot(as_str(discard.get("value"))), VALUES)
        slots = as_list(ritual.get("slots", []))
        for position in range(SLOTS):
            slot = as_dict(slots[position]) if position < len(slots) else {}
            kind, role = as_str(slot.get("type")), as_str(slot.get("role"))
            card = cards.get(as_str(slot.get("card")), {})
            v.one_hot(TYPES.index(kind) if kind in TYPES else -1, len(TYPES))
            v.one_hot(ROLES.index(role) if role in ROLES else -1, len(ROLES))
            v.flags([bool(as_str(slot.get("card")))], 1)
            v.one_hot(value_slot(as_str(card.get("value"))), VALUES)
        moves = as_list(ritual.get("moves", []))
        v.number(len(moves), 16.0)
        recent = moves[-LAST_MOVES:]
        for position in range(LAST_MOVES):
            log = as_dict(recent[position]) if position < len(recent) else {}
            move = as_dict(log.get("move"))
            v.flags([bool(log), bool(log) and not move], 2)
            v.one_hot(as_int(log.get("seat")), players)
            v.one_hot(as_int(move.get("artefact")), ARTEFACTS)
            v.one_hot(as_int(move.get("to")), AREAS)
            v.scaled([as_float(m) for m in as_list(log.get("marks", []))], MARKS, 1.0)
            v.number(as_int(log.get("total"), 0), 20.0)
            v.number(as_int(log.get("flips"), 0), 10.0)
        v.scaled([as_float(g) for g in as_list(ritual.get("gains", []))], players, karma_scale)
        v.flags([ritual.get("disempowered") is True, ritual.get("ended") is True], 2)
        pending = as_dict(field(view, "pending"))
        v.flags([bool(pending)], 1)
        v.one_hot(as_int(pending.get("artefact")), ARTEFACTS)
        v.one_hot(as_int(pending.get("to")), AREAS)
        return v.array()
