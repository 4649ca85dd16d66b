"""Namaste (Lach and Rapp; moses. Verlag 2021): the rules engine.

Rulebook: ``003_f6987cddd837ac43.txt``; the project's rulings (``README.md``, Namaste section) stand over
it: the diamond of 25 circles, pink middles of the lines of length 3, 5 and 7, the four truth tips (top
and left in full, bottom and right half rounded up), dice faces 2-6 and 1/7, every player choosing 1 or
7 for each such die separately, simultaneous decisions on one roll, same-roll completions all first,
the end after the round in which someone filled all 25 circles or all 4 bad-karma spaces, ties to
fewer bad-karma spaces filled and then shared.

Turn structure and notation (every decision is a typed action):

- ``roll N`` (:class:`Roll`): the active player takes N = 1-3 white dice and rolls them with the
  turquoise die. The roll itself is chance, drawn from the state's seeded generator.
- After the roll, ``to_act`` holds every seat still to decide, in any order: the active player (who
  must write the sum of all rolled dice or take bad karma) and each other player who can write the
  sum of the white dice somewhere (a player who has no legal circle for any reading of the dice is
  not asked: passing is their only choice).
- ``V@cell`` (:class:`Write`), e.g. ``14@c3``: write V in that circle. The 1 or 7 of each 1/7 die is
  chosen by the value itself: V must be one of the sums the dice allow that player (Magdalena's
  1/7, 2 and turquoise 4 allow her 7 or 13, the others 3 or 9). Cells are named as in
  :mod:`coven.games.namaste.sheet` (rows a-g top to bottom, columns 1-7 left to right).
- ``karma`` (:class:`Karma`): the active player writes the turquoise value (1/7 counts 1) in the next
  empty bad-karma space, as minus points.
- ``pass`` (:class:`Pass`): a fellow player writes nothing, without penalty.

Choices of one roll are hidden from the other seats until everyone asked has decided (a view shows
only who has decided); then all entries are made at once and count as simultaneous for first
completions. A line's points are the number in its pink circle: in full for everyone completing it on
the first roll any player completes it, half rounded up afterwards.

Choices where rulebook and rulings are silent:
- Seat 0 is the starting player (it checks "I'm first"); the seats roll in order 0, 1, 2, ...
- Which white dice are taken does not matter (they are identical), so the choice is their number.
- The bad-karma spaces are filled in order; which one is used does not matter.
- An active player always has an empty bad-karma space (filling the fourth ends the game at the end of
  that round, before their next turn). Should one ever have neither a space nor a legal circle, they
  may pass.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coven.core import (
    Bounds,
    Event,
    Game,
    GameSpec,
    JSONValue,
    NotationError,
    Options,
    Seat,
    private,
    public,
)
from coven.core.chance import copy_rng
from coven.core.codec import through_notation
from coven.core.errors import short_repr
from coven.games.namaste.sheet import (
    CELL_NAMES,
    KARMA_SPACES,
    LINE_NAMES,
    LINES,
    LINES_OF_CELL,
    MAX_VALUE,
    NCELLS,
    PINK,
    bounds_of,
    entry_problem,
    half_up,
    line_complete,
    parse_cell,
    truth_points,
)

if TYPE_CHECKING:
    from coven.core import BotFactory, Metrics
    from coven.core.explain import Explanation, Moment


# ------------------------------------------------------------------------------------------ actions
@dataclass(frozen=True, slots=True)
class Roll:
    """The active player rolls ``white`` (1-3) white dice and the turquoise die."""

    white: int


@dataclass(frozen=True, slots=True)
class Write:
    """Write ``value`` in circle ``cell`` (0-24; notation ``14@c3``)."""

    value: int
    cell: int


@dataclass(frozen=True, slots=True)
class Karma:
    """The active player takes the turquoise value as bad karma."""


@dataclass(frozen=True, slots=True)
class Pass:
    """A fellow player writes nothing."""


Action = Roll | Write | Karma | Pass

ROLLS: tuple[Roll, ...] = (Roll(1), Roll(2), Roll(3))
WRITES: tuple[tuple[Write, ...], ...] = tuple(
    tuple(Write(v, c) for c in range(NCELLS)) for v in range(MAX_VALUE + 1)
)
"""Interned writes: ``WRITES[value][cell]``."""
KARMA = Karma()
PASS = Pass()

_VALUE = re.compile(r"[0-9]{1,4}")
"""A written value: ASCII digits only (``int()`` also reads "١٤"; ``str.isdigit()`` takes "²"), and
few of them (``int()`` refuses thousands)."""

WILD = 1
"""A die showing the 1/7 face is stored as 1."""
FACES = (WILD, 2, 3, 4, 5, 6)


def die_text(face: int) -> str:
    return "1/7" if face == WILD else str(face)


def dice_text(white: Sequence[int], turquoise: int) -> str:
    """``1/7 2 + 4``: the white dice, then the turquoise one."""
    return " ".join(die_text(f) for f in white) + " + " + die_text(turquoise)


def parse_dice(text: str) -> tuple[tuple[int, ...], int]:
    """The inverse of :func:`dice_text`: ``"1/7 2 + 4"`` -> ((1, 2), 4)."""
    white_text, plus, turquoise_text = text.partition("+")
    faces = {"1/7": WILD, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}
    white = white_text.split()
    if not plus or not 1 <= len(white) <= 3 or turquoise_text.strip() not in faces:
        raise NotationError(f"dice are 1-3 white faces, '+', the turquoise face (e.g. '1/7 2 + 4'): {text!r}")
    if any(f not in faces for f in white):
        raise NotationError(f"die faces are 2-6 and 1/7: {text!r}")
    return tuple(faces[f] for f in white), faces[turquoise_text.strip()]


def sums(dice: Sequence[int]) -> tuple[int, ...]:
    """Every total the dice allow, each 1/7 die read as 1 or 7 (ascending)."""
    wild = sum(1 for f in dice if f == WILD)
    base = sum(f for f in dice if f != WILD) + wild
    return tuple(base + 6 * j for j in range(wild + 1))


# ------------------------------------------------------------------------------------------- state
CHOOSE, DECIDE, OVER = "choose", "decide", "over"


@dataclass(slots=True)
class NamasteState:
    players: int
    options: Options
    sheets: list[list[int]]
    """Per seat, 25 circles (0 = empty)."""
    karma: list[list[int]]
    """Per seat, the values in its filled bad-karma spaces."""
    line_points: list[list[int]]
    """Per seat and symbol line, the points written in its symbol space (0 = line not complete)."""
    claimed: list[bool]
    """Per symbol line: somebody completed it on an earlier roll (now worth half)."""
    starter: Seat
    active: Seat
    phase: str
    white: tuple[int, ...]
    turquoise: int
    """The current roll (``()``/0 before the roll)."""
    asked: tuple[Seat, ...]
    """The seats asked to decide on the current roll."""
    pending: dict[Seat, Action]
    """Decisions already taken on the current roll (hidden from others until the roll resolves)."""
    turns: int
    """Rolls completed so far."""
    ending: bool
    """Someone filled all circles or all bad-karma spaces: the game ends with this round."""
    rng: random.Random


@dataclass(frozen=True, slots=True)
class NamasteView:
    seat: int | None
    players: int
    options: dict[str, bool | int | str]
    starter: int
    active: int
    phase: str
    white: tuple[int, ...]
    turquoise: int
    sheets: tuple[tuple[int, ...], ...]
    karma: tuple[tuple[int, ...], ...]
    line_points: tuple[tuple[int, ...], ...]
    claimed: tuple[bool, ...]
    asked: tuple[int, ...]
    to_decide: tuple[int, ...]
    my_choice: str
    """The viewer's own decision on the current roll, in notation ("" if none yet)."""
    turns: int
    ending: bool


def options_of(seat: Seat, state_white: Sequence[int], turquoise: int, active: Seat) -> tuple[int, ...]:
    """The totals ``seat`` may write for this roll."""
    if seat == active:
        return sums((*state_white, turquoise))
    return sums(state_white)


def score_of(sheet: Sequence[int], karma: Sequence[int], line_points: Sequence[int]) -> int:
    return sum(line_points) + truth_points(list(sheet)) - sum(karma)


# -------------------------------------------------------------------------------------------- game
class NamasteGame(Game[NamasteState, Action, NamasteView]):
    spec = GameSpec(
        id="namaste",
        title="Namaste",
        summary="Roll and write: fill the diamond in ascending order, complete lines first, mind your karma.",
        min_players=2,
        max_players=4,
        options=(),
        hidden_information=False,
        optional_actors=False,
        simultaneous=True,
        rules_file="rules.md",
    )
    action_classes = (Roll, Write, Karma, Pass)
    view_class = NamasteView

    # ------------------------------------------------------------------------------------ setup
    def setup(self, players: int, options: Options, seed: int) -> NamasteState:
        return NamasteState(
            players=players,
            options=dict(options),
            sheets=[[0] * NCELLS for _ in range(players)],
            karma=[[] for _ in range(players)],
            line_points=[[0] * len(LINES) for _ in range(players)],
            claimed=[False] * len(LINES),
            starter=0,
            active=0,
            phase=CHOOSE,
            white=(),
            turquoise=0,
            asked=(),
            pending={},
            turns=0,
            ending=False,
            rng=random.Random(seed),
        )

    def bounds(self, players: int, options: Options) -> Bounds:
        # Each active turn fills a circle or a bad-karma space, so by a player's 28th turn one of the
        # end conditions holds: at most 28 rounds of (1 roll + up to `players` decisions) per seat.
        # Scores: at worst four bad-karma spaces of 6; at best (loosely) every pink and truth circle 28.
        return Bounds(
            max_decisions=28 * players * (1 + players),
            min_score=-6 * KARMA_SPACES,
            max_score=float(len(LINES) * MAX_VALUE + 2 * MAX_VALUE + 2 * half_up(MAX_VALUE)),
        )

    def num_players(self, state: NamasteState) -> int:
        return state.players

    def options(self, state: NamasteState) -> Options:
        return state.options

    def clone(self, state: NamasteState) -> NamasteState:
        rng = copy_rng(state.rng)
        return NamasteState(
            state.players,
            state.options,
            [list(s) for s in state.sheets],
            [list(k) for k in state.karma],
            [list(p) for p in state.line_points],
            list(state.claimed),
            state.starter,
            state.active,
            state.phase,
            state.white,
            state.turquoise,
            state.asked,
            dict(state.pending),
            state.turns,
            state.ending,
            rng,
        )

    def position(
        self,
        sheets: Sequence[str],
        karma: Sequence[Sequence[int]] = (),
        claimed: Sequence[str] = (),
        active: Seat = 0,
        dice: str = "",
        seed: int = 0,
    ) -> NamasteState:
        """A state from notation, for tests and puzzles: one sheet per seat (see
        :func:`coven.games.namaste.sheet.parse_sheet`), bad karma per seat, the names of lines already
        completed by somebody before the lines complete in
        ``sheets`` (``"row b"``, ``"column 4"``), the active seat and, if given, the current
        roll (``"1/7 2 + 4"``; the seats to decide are then asked as after a real roll)."""
        from coven.games.namaste.sheet import parse_sheet

        state = self.new_game(len(sheets), {}, seed)
        state.sheets = [list(parse_sheet(text)) for text in sheets]
        state.karma = [list(k) for k in karma] or [[] for _ in sheets]
        for name in claimed:
            if name not in LINE_NAMES:
                raise NotationError(f"no line {name!r}; lines are {', '.join(LINE_NAMES)}")
            state.claimed[LINE_NAMES.index(name)] = True
        done = set()
        for s, sheet in enumerate(state.sheets):
            for k in range(len(LINES)):
                if line_complete(sheet, k):
                    pink = sheet[PINK[k]]
                    state.line_points[s][k] = half_up(pink) if state.claimed[k] else pink
                    done.add(k)
        for k in done:
            state.claimed[k] = True
        state.active = active
        if dice:
            white, turquoise = parse_dice(dice)
            state.white, state.turquoise, state.phase = white, turquoise, DECIDE
            state.asked = tuple(s for s in range(len(sheets)) if s == active or self._can_write(state, s))
        return state

    # ------------------------------------------------------------------------------------ turns
    def to_act(self, state: NamasteState) -> frozenset[Seat]:
        if state.phase == CHOOSE:
            return frozenset((state.active,))
        if state.phase == DECIDE:
            return frozenset(s for s in state.asked if s not in state.pending)
        return frozenset()

    def is_over(self, state: NamasteState) -> bool:
        return state.phase == OVER

    def totals(self, state: NamasteState, seat: Seat) -> tuple[int, ...]:
        """The sums ``seat`` may write on the current roll."""
        return options_of(seat, state.white, state.turquoise, state.active)

    def legal_actions(self, state: NamasteState, seat: Seat) -> Sequence[Action]:
        if state.phase == CHOOSE:
            return ROLLS if seat == state.active else ()
        if state.phase != DECIDE or seat not in state.asked or seat in state.pending:
            return ()
        sheet = state.sheets[seat]
        out: list[Action] = []
        values = self.totals(state, seat)
        for cell in range(NCELLS):
            if not sheet[cell]:
                lo, hi = bounds_of(sheet, cell)
                for v in values:
                    if lo < v < hi:
                        out.append(WRITES[v][cell])
        if seat != state.active:
            out.append(PASS)
        elif len(state.karma[seat]) < KARMA_SPACES:
            out.append(KARMA)
        elif not out:
            out.append(PASS)
        return out

    def illegal_reason(self, state: NamasteState, seat: Seat, action: Action) -> str | None:
        if state.phase == CHOOSE:
            if not isinstance(action, Roll):
                return f"{self.format_action(action)}: first choose how many white dice to roll (roll 1-3)"
            if not 1 <= action.white <= 3:
                return f"roll 1, 2 or 3 white dice, not {action.white}"
            return None
        if isinstance(action, Roll):
            return "the dice are already rolled: write a value, take bad karma or pass"
        if isinstance(action, Write):
            values = self.totals(state, seat)
            if action.value not in values:
                who = "you (all rolled dice)" if seat == state.active else "you (white dice only)"
                allowed = " or ".join(str(v) for v in values)
                return f"the dice give {allowed} for {who}, not {action.value}"
            if not 0 <= action.cell < NCELLS:
                return f"no circle {action.cell}"
            return entry_problem(state.sheets[seat], action.value, action.cell)
        if isinstance(action, Karma):
            if seat != state.active:
                return "only the player who rolled takes bad karma; you may pass"
            if len(state.karma[seat]) >= KARMA_SPACES:
                return "all four bad-karma spaces are filled"
            return None
        if seat == state.active and len(state.karma[seat]) < KARMA_SPACES:
            return "the player who rolled must write the sum or take bad karma"
        if seat == state.active and self._can_write(state, seat):
            return "the player who rolled must write the sum when a bad-karma space is not free"
        return None

    def apply_unchecked(self, state: NamasteState, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Roll):
            return self._roll(state, action.white)
        state.pending[seat] = action
        events = [private("decided", (seat,), seat=seat, action=self.format_action(action))]
        if all(s in state.pending for s in state.asked):
            events.extend(self._resolve(state))
        else:
            events.append(
                public("waiting", seat=seat, still=[s for s in state.asked if s not in state.pending])
            )
        return events

    def _roll(self, state: NamasteState, white: int) -> list[Event]:
        rng = state.rng
        state.white = tuple(FACES[rng.randrange(6)] for _ in range(white))
        state.turquoise = FACES[rng.randrange(6)]
        state.phase = DECIDE
        state.pending = {}
        asked = []
        for s in range(state.players):
            if s == state.active or self._can_write(state, s):
                asked.append(s)
        state.asked = tuple(asked)
        return [
            public(
                "roll",
                seat=state.active,
                dice=dice_text(state.white, state.turquoise),
                white=list(state.white),
                turquoise=state.turquoise,
                asked=list(state.asked),
            )
        ]

    def _can_write(self, state: NamasteState, seat: Seat) -> bool:
        sheet = state.sheets[seat]
        values = self.totals(state, seat)
        for cell in range(NCELLS):
            if not sheet[cell]:
                lo, hi = bounds_of(sheet, cell)
                for v in values:
                    if lo < v < hi:
                        return True
        return False

    def _resolve(self, state: NamasteState) -> list[Event]:
        """All decisions of the roll are in: make the entries at once and score completions."""
        events: list[Event] = []
        entries: dict[str, JSONValue] = {}
        completed: list[tuple[Seat, int]] = []
        for s in state.asked:
            action = state.pending[s]
            entries[str(s)] = self.format_action(action)
            if isinstance(action, Write):
                sheet = state.sheets[s]
                sheet[action.cell] = action.value
                for line in LINES_OF_CELL[action.cell]:
                    if line_complete(sheet, line):
                        completed.append((s, line))
            elif isinstance(action, Karma):
                state.karma[s].append(1 if state.turquoise == WILD else state.turquoise)
        events.append(public("entries", dice=dice_text(state.white, state.turquoise), entries=entries))
        newly = set()
        for s, line in completed:
            pink = state.sheets[s][PINK[line]]
            points = half_up(pink) if state.claimed[line] else pink
            state.line_points[s][line] = points
            newly.add(line)
            events.append(
                public("line", seat=s, line=LINE_NAMES[line], points=points, first=not state.claimed[line])
            )
        for line in newly:
            state.claimed[line] = True
        state.pending = {}
        state.asked = ()
        state.white = ()
        state.turquoise = 0
        state.turns += 1
        if not state.ending:
            for s in range(state.players):
                if all(state.sheets[s]) or len(state.karma[s]) >= KARMA_SPACES:
                    state.ending = True
                    events.append(public("end_triggered", seat=s))
                    break
        state.active = (state.active + 1) % state.players
        if state.ending and state.active == state.starter:
            state.phase = OVER
            events.append(public("game_over", scores=[int(x) for x in self.scores(state)]))
        else:
            state.phase = CHOOSE
        return events

    # ------------------------------------------------------------------------------ information
    def view(self, state: NamasteState, seat: Seat | None) -> NamasteView:
        mine = state.pending.get(seat) if seat is not None else None
        return NamasteView(
            seat=seat,
            players=state.players,
            options=dict(state.options),
            starter=state.starter,
            active=state.active,
            phase=state.phase,
            white=state.white,
            turquoise=state.turquoise,
            sheets=tuple(tuple(s) for s in state.sheets),
            karma=tuple(tuple(k) for k in state.karma),
            line_points=tuple(tuple(p) for p in state.line_points),
            claimed=tuple(state.claimed),
            asked=state.asked,
            to_decide=tuple(s for s in state.asked if s not in state.pending),
            my_choice=self.format_action(mine) if mine is not None else "",
            turns=state.turns,
            ending=state.ending,
        )

    def world_from_view(self, view: NamasteView, rng: random.Random) -> NamasteState:
        state = NamasteState(
            players=view.players,
            options=dict(view.options),
            sheets=[list(s) for s in view.sheets],
            karma=[list(k) for k in view.karma],
            line_points=[list(p) for p in view.line_points],
            claimed=list(view.claimed),
            starter=view.starter,
            active=view.active,
            phase=view.phase,
            white=tuple(view.white),
            turquoise=view.turquoise,
            asked=tuple(view.asked),
            pending={},
            turns=view.turns,
            ending=view.ending,
            rng=random.Random(rng.getrandbits(64)),
        )
        if view.phase == DECIDE:
            # Seats that decided already: the viewer's own choice is known, the others' are drawn.
            for s in view.asked:
                if s in view.to_decide:
                    continue
                if s == view.seat and view.my_choice:
                    state.pending[s] = self.parse_action(view.my_choice)
                else:
                    legal = self.legal_actions(state, s)
                    state.pending[s] = legal[rng.randrange(len(legal))]
        return state

    # ---------------------------------------------------------------------------------- outcome
    def scores(self, state: NamasteState) -> tuple[float, ...]:
        return tuple(
            float(score_of(state.sheets[s], state.karma[s], state.line_points[s]))
            for s in range(state.players)
        )

    def winners(self, state: NamasteState) -> frozenset[Seat]:
        scores = self.scores(state)
        best = max(scores)
        tied = [s for s in range(state.players) if scores[s] == best]
        fewest = min(len(state.karma[s]) for s in tied)
        return frozenset(s for s in tied if len(state.karma[s]) == fewest)

    # --------------------------------------------------------------------------------- notation
    def format_action(self, action: Action) -> str:
        if isinstance(action, Roll):
            return f"roll {action.white}"
        if isinstance(action, Write):
            name = CELL_NAMES[action.cell] if 0 <= action.cell < NCELLS else f"#{action.cell}"
            return f"{action.value}@{name}"
        if isinstance(action, Karma):
            return "karma"
        return "pass"

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise NotationError(f"an action is text, not {short_repr(text)}")
        t = " ".join(text.strip().lower().split())
        if t == "karma":
            return KARMA
        if t == "pass":
            return PASS
        if t.startswith("roll "):
            n = t[5:].strip()
            if n in {"1", "2", "3"}:
                return ROLLS[int(n) - 1]
            raise NotationError(f"roll 1, 2 or 3 white dice, not {short_repr(n)}")
        value, at, cell = t.replace(" ", "").partition("@")
        if at and _VALUE.fullmatch(value):
            v = int(value)
            if not 1 <= v <= MAX_VALUE:
                raise NotationError(f"a value is 1-{MAX_VALUE}, not {v}")
            return WRITES[v][parse_cell(cell)]
        if at and value:
            raise NotationError(
                f"a value is 1-{MAX_VALUE}, written in the digits 0-9, not {short_repr(value)}"
            )
        raise NotationError(
            f"not a Namaste action: {short_repr(text)} (try 'roll 2', '14@c3', 'karma', 'pass')"
        )

    def action_from_json(self, raw: object) -> Action:
        """The action a JSON value describes, held to the notation (a Write of 99 is no action)."""
        return through_notation(super().action_from_json(raw), self.format_action, self.parse_action)

    # ----------------------------------------------------------------------------- presentation
    def render(self, view: NamasteView) -> str:
        from coven.games.namaste.render import render

        return render(view)

    def explain(self, view: NamasteView, moments: Sequence[Moment] = ()) -> Explanation:
        from coven.games.namaste.explain import explain

        return explain(view, moments)

    def describe_event(self, event: Event, seat: Seat | None = None) -> str:
        from coven.games.namaste.render import describe_event

        return describe_event(event, seat)

    def hidden_facts(self, state: NamasteState, seat: Seat) -> frozenset[str]:
        from coven.games.namaste.worlds import secrets

        return secrets(self, state, seat)

    def bots(self) -> Mapping[str, BotFactory]:
        from coven.games.namaste.bots import BOTS

        return BOTS

    def new_metrics(self) -> Metrics:
        from coven.games.namaste.metrics import NamasteMetrics

        return NamasteMetrics()
