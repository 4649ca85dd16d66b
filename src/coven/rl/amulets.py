"""Amulets for learning: the observation and a factored action index.

Actions: a question or a cast places all five amulets on distinct fields (6,375,600 placements each),
too many to index one by one, so one decision takes up to six indices (a factored encoding that still
reaches every action of the game):

- first ``ASK`` (25), ``CAST`` (26) or ``PASS`` (27; only for a wizard who may cast out of turn and
  need not);
- then, after ask or cast, a field ``0 .. 24`` (``A1`` = 0, ``A2`` = 1, .. ``E5`` = 24) for each amulet
  in the spell book's order Red, Yellow, Green, Blue, Black, among the fields still free.

The sixth index applies the question or the cast. The decision so far is part of the observation.

Observation (from the seat's view): the seat, its own field and amulet, the asker, who is out, the
winner, whether the game is over, the questions asked (scaled by the bound of decisions), every line
of the spell book (kind, who, the placement, each wizard's answer ``* o + -`` or check ``y n``), and
the unfinished decision (ask or cast, the fields chosen so far).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from coven.core import Seat
from coven.rl.encoding import (
    PASS,
    Encoding,
    JSONDict,
    Observation,
    Resolved,
    Vector,
    as_dict,
    as_int,
    as_list,
    as_str,
    field,
)

FIELDS = 25
AMULETS = 5
AMULET_CODES = "RYGBK"
ASK, CAST, PASS_INDEX = FIELDS, FIELDS + 1, FIELDS + 2
KINDS = ("ask", "cast")
ANSWERS = "*o+-yn"
"""A wizard's answer to a question, or check of a cast (``.``: none, all slots zero)."""
PROBE = (0, 1, 2, 3, 4)


def field_name(index: int) -> str:
    return f"{'ABCDE'[index // 5]}{index % 5 + 1}"


def placement_text(fields: tuple[int, ...]) -> str:
    return " ".join(f"{code}{field_name(f)}" for code, f in zip(AMULET_CODES, fields, strict=True))


class AmuletsEncoding(Encoding):
    game_id = "amulets"

    @property
    def num_actions(self) -> int:
        return FIELDS + 3

    @property
    def max_steps(self) -> int:
        return 1 + AMULETS

    def _action(self, kind: int, fields: tuple[int, ...]) -> Hashable:
        action: Hashable = self.game.parse_action(f"{KINDS[kind - ASK]} {placement_text(fields)}")
        return action

    def legal_indices(self, state: Any, seat: Seat, required: bool, prefix: tuple[int, ...]) -> list[int]:
        if prefix:
            used = set(prefix[1:])
            return [f for f in range(FIELDS) if f not in used]
        legal = self.game.legal_actions(state, seat)
        indices = [kind for kind in (ASK, CAST) if self._action(kind, PROBE) in legal]
        if not required:
            indices.append(PASS_INDEX)
        return indices

    def resolve(self, state: Any, seat: Seat, prefix: tuple[int, ...]) -> Resolved:
        if prefix == (PASS_INDEX,):
            return PASS
        if len(prefix) < 1 + AMULETS:
            return None
        return self._action(prefix[0], prefix[1:])

    def describe(self, state: Any, seat: Seat, prefix: tuple[int, ...], index: int) -> str:
        if index in (ASK, CAST):
            return KINDS[index - ASK]
        if index == PASS_INDEX:
            return "pass"
        return f"{AMULET_CODES[len(prefix) - 1]}{field_name(index)}"

    def observe(self, view: JSONDict, prefix: tuple[int, ...]) -> Observation:
        players = self.players
        v = Vector()
        v.one_hot(as_int(field(view, "seat")), players)
        v.one_hot(as_int(field(view, "field")), FIELDS)
        v.one_hot(as_int(field(view, "amulet")), AMULETS)
        v.one_hot(as_int(field(view, "turn")), players)
        v.flags([x is True for x in as_list(field(view, "out"))], players)
        v.one_hot(as_int(field(view, "winner")), players)
        v.flags([field(view, "over") is True], 1)
        limit = self.bounds.max_decisions
        v.number(as_int(field(view, "questions"), 0), limit)
        book = as_list(field(view, "book"))
        for line in range(limit):
            entry = as_dict(book[line]) if line < len(book) else {}
            kind = as_str(entry.get("kind"))
            v.flags([bool(entry)], 1)
            v.one_hot(KINDS.index(kind) if kind in KINDS else -1, len(KINDS))
            v.one_hot(as_int(entry.get("seat")), players)
            fields = as_list(entry.get("fields", []))
            for amulet in range(AMULETS):
                v.one_hot(as_int(fields[amulet]) if amulet < len(fields) else -1, FIELDS)
            answers = as_str(entry.get("answers"))
            for seat in range(players):
                v.one_hot(ANSWERS.find(answers[seat]) if seat < len(answers) else -1, len(ANSWERS))
        v.one_hot(prefix[0] - ASK if prefix else -1, len(KINDS))
        for amulet in range(AMULETS):
            v.one_hot(prefix[1 + amulet] if len(prefix) > 1 + amulet else -1, FIELDS)
        return v.array()
