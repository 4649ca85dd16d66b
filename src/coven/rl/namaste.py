"""Namaste for learning: the observation and the action index.

Actions (705): ``roll 1`` .. ``roll 3``, ``karma``, ``pass``, then writing each value 1-28 (four dice
of at most 7) in each of the 25 circles (``V@cell``, cells named by row ``a``-``g`` and column ``1``-``7``
within the diamond ``|row - 4| + |column - 4| <= 3``): every action of the game has its own index.
Namaste's decisions on one roll are simultaneous; here they come one seat after another (lowest seat
first), and a seat's choice stays hidden because each observation comes from that seat's view, which
shows only who has decided.

Observation (from the seat's view): the seat, the active player and the starter, the phase, the
rolled dice (white dice and the turquoise one, each face one-hot, 1/7 as its own face), every sheet
(each circle's value, and whether it is filled), every bad-karma row, every player's line points,
which lines are claimed, which seats were asked and are still to decide, whether this seat decided
(and what, as the value and circle it wrote), the number of turns and whether the last round is on.
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

ROWS = "abcdefg"
CELLS = tuple(f"{ROWS[r - 1]}{c}" for r in range(1, 8) for c in range(1, 8) if abs(r - 4) + abs(c - 4) <= 3)
"""The 25 circles in reading order, as the sheet numbers them."""
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
MAX_VALUE = 28
KARMA_SPACES = 4
LINES = 10
WHITE_DICE = 3
FACES = 7
"""Die faces 2-6 and the 1/7 face (shown as face 1; the game writes it as 0 or 1: both map to slot 0)."""
PHASES = ("choose", "decide", "over")
MAX_TURNS = 64


def face_slot(face: int) -> int:
    return 0 if face in (0, 1, 7) else face - 1


class NamasteEncoding(NotationIndex):
    game_id = "namaste"

    def texts(self) -> Sequence[str]:
        writes = (f"{value}@{cell}" for value in range(1, MAX_VALUE + 1) for cell in CELLS)
        return ("roll 1", "roll 2", "roll 3", "karma", "pass", *writes)

    def observe(self, view: JSONDict, prefix: tuple[int, ...]) -> Observation:
        players = self.players
        v = Vector()
        v.one_hot(as_int(field(view, "seat")), players)
        v.one_hot(as_int(field(view, "active")), players)
        v.one_hot(as_int(field(view, "starter")), players)
        phase = as_str(field(view, "phase"))
        v.one_hot(PHASES.index(phase) if phase in PHASES else -1, len(PHASES))
        white = as_list(field(view, "white"))
        for die in range(WHITE_DICE):
            v.one_hot(face_slot(as_int(white[die])) if die < len(white) else -1, FACES)
        turquoise = as_int(field(view, "turquoise"))
        v.one_hot(face_slot(turquoise) if as_list(field(view, "white")) else -1, FACES)
        sheets = as_list(field(view, "sheets"))
        for seat in range(players):
            sheet = [as_float(x) for x in as_list(sheets[seat])] if seat < len(sheets) else []
            v.scaled(sheet, len(CELLS), MAX_VALUE)
            v.flags([x > 0 for x in sheet], len(CELLS))
        karma = as_list(field(view, "karma"))
        for seat in range(players):
            row = [as_float(x) for x in as_list(karma[seat])] if seat < len(karma) else []
            v.scaled(row, KARMA_SPACES, FACES)
        points = as_list(field(view, "line_points"))
        for seat in range(players):
            row = [as_float(x) for x in as_list(points[seat])] if seat < len(points) else []
            v.scaled(row, LINES, 7.0)
        v.flags([x is True for x in as_list(field(view, "claimed"))], LINES)
        asked = {as_int(s) for s in as_list(field(view, "asked"))}
        to_decide = {as_int(s) for s in as_list(field(view, "to_decide"))}
        v.flags([seat in asked for seat in range(players)], players)
        v.flags([seat in to_decide for seat in range(players)], players)
        choice = as_str(field(view, "my_choice"))
        value, _, cell = choice.partition("@")
        v.flags([choice != "", choice == "karma", choice == "pass"], 3)
        v.number(int(value) if cell and value.isdigit() else 0, MAX_VALUE)
        v.one_hot(CELL_INDEX.get(cell, -1), len(CELLS))
        v.number(as_int(field(view, "turns"), 0), MAX_TURNS)
        v.flags([field(view, "ending") is True], 1)
        return v.array()
