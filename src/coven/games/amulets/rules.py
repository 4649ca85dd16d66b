"""Amulets (Jörg Hansen, Warpspawn): the rules, actions, views and worlds.

Rulebook 004 with the project's rulings (the Amulets section of rules/README.md stands over it):

- Setup: each wizard secretly draws one field (A1-E5) and one amulet (Red, Yellow, Green, Blue, Black),
  all different; with fewer than five wizards the undrawn amulets belong to nobody, unrevealed.
- Turn: the asker must ask or cast. A question (``ask``) places all five amulets on distinct fields;
  every other wizard answers, eliminated ones included, clockwise from the asker's left, and the
  engine computes each answer from the secret (``*`` > ``o`` > ``+`` > ``-``, the first true one). The
  question is atomic: no cast can come between its answers. All answers are public.
- Casting (``cast``): the rulebook has the caster put "the assumed player amulets on their assumed
  homes and all the assumed non-player amulets at random altar fields", and each spirit checks only
  "his personal amulet stands on his personal field". So a cast is, like a question, a placement of
  all five amulets on distinct fields (the caster chooses where the amulets he thinks nobody holds go,
  which lets him hedge between two candidates that differ in an unowned amulet). The other wizards,
  eliminated ones included, check clockwise from the caster's left; the first "No" stops the check.
  The placement and the answers given are public. All "Yes": the caster wins and the game ends.
- Who may act: the asker is in ``to_act``; every other wizard still in is in ``may_act`` (may cast,
  need not). A wizard whose cast failed never asks or casts again but keeps answering; if the failed
  caster was the asker, the turn passes to the next wizard still in, otherwise play resumes where it
  was interrupted. If every wizard has failed, the game ends and nobody wins.

Choices where rulebook and rulings are silent:

- Seat 0 is the start wizard ("the wizards choose a start wizard"); the arena rotates chairs.
- The start position of the amulets on the altar is cosmetic and not modelled.
- ``question_cap`` (table option, 0 = off): once that many questions have been asked in total, the
  asker must cast. With the cap off the engine still stops questions after ``HARD_QUESTION_LIMIT``
  (60, far beyond any real game) so every game has a finite length.
- ``assistant`` (table option, off by default): when on, :meth:`AmuletsGame.render` adds what the
  deduction engine says is still possible for every other wizard. The view itself always carries the
  whole public record, from which :mod:`coven.games.amulets.deduction` computes the same.
- Scores: 1 for the winner, 0 for everyone else; nobody scores when every wizard failed.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from coven.core import (
    Bounds,
    Event,
    Game,
    GameSpec,
    NotationError,
    Option,
    Options,
    Seat,
    public,
)
from coven.core.chance import copy_rng
from coven.core.codec import through_notation
from coven.core.errors import short_repr
from coven.games.amulets.board import (
    AMULETS,
    FIELDS,
    NO,
    PLACEMENT_COUNT,
    SILENT,
    YES,
    answer,
    format_placement,
    pair_of,
    parse_placement,
    placement_at,
    placement_index,
    placement_problem,
)
from coven.games.amulets.deduction import Knowledge

if TYPE_CHECKING:
    from coven.core import BotFactory, Metrics
    from coven.core.explain import Explanation, Moment

HARD_QUESTION_LIMIT = 60


@dataclass(frozen=True, slots=True)
class Ask:
    """A question: ``fields[amulet]`` is where each of the five amulets is placed."""

    fields: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Cast:
    """A try at the freeing spell: a placement of all five amulets, checked by the spirits."""

    fields: tuple[int, ...]


Action = Ask | Cast


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the spell book (public).

    ``kind`` is ``"ask"`` or ``"cast"``; ``seat`` asked or cast; ``fields`` is the placement;
    ``answers`` has one character per seat: ``* o + -`` for a question (``.`` for the asker), ``y n``
    for a cast's checks (``.`` for the caster and for spirits after the first ``n``).
    """

    kind: str
    seat: int
    fields: tuple[int, ...]
    answers: str

    def as_tuple(self) -> tuple[str, int, tuple[int, ...], str]:
        return (self.kind, self.seat, self.fields, self.answers)


@dataclass(slots=True)
class AmuletsState:
    players: int
    options: Options
    fields: list[int]
    """Each wizard's secret field."""
    amulets: list[int]
    """Each wizard's secret amulet."""
    turn: int
    """The asker: the wizard whose turn it is."""
    out: list[bool]
    """Wizards whose cast failed."""
    winner: int
    """The successful caster, or -1."""
    over: bool
    book: list[Entry]
    questions: int
    rng: random.Random


@dataclass(frozen=True, slots=True)
class Possibility:
    """A (field, amulet) pair still possible for a wizard, and in how many joint worlds."""

    field: int
    amulet: int
    worlds: int


@dataclass(frozen=True, slots=True)
class WizardKnowledge:
    seat: int
    possible: tuple[Possibility, ...]


@dataclass(frozen=True, slots=True)
class Assistant:
    """What the deduction engine concludes from a view (the table option ``assistant``)."""

    worlds: int
    """Joint assignments of every unknown secret still consistent with the spell book."""
    wizards: tuple[WizardKnowledge, ...]


@dataclass(frozen=True, slots=True)
class AmuletsView:
    seat: int | None
    players: int
    options: dict[str, bool | int | str]
    field: int
    """This wizard's secret field (-1 for a spectator)."""
    amulet: int
    """This wizard's secret amulet (-1 for a spectator)."""
    turn: int
    out: tuple[bool, ...]
    winner: int
    over: bool
    book: tuple[Entry, ...]
    questions: int
    assistant: Assistant | None = None
    """The deduction engine's conclusions, when the table enables the assistant (derived, public)."""


def question_limit(options: Mapping[str, object]) -> int:
    cap = options.get("question_cap", 0)
    return int(cap) if isinstance(cap, int) and cap > 0 else HARD_QUESTION_LIMIT


class Moves(Sequence[Action]):
    """The legal actions of a seat, lazily: every placement as a question and/or as a cast.

    Indexing decodes a placement (no list of 6.4 million actions is ever built); membership is a
    structural check.
    """

    __slots__ = ("_ask", "_cast")

    def __init__(self, ask: bool, cast: bool) -> None:
        self._ask = ask
        self._cast = cast

    def __len__(self) -> int:
        return PLACEMENT_COUNT * (int(self._ask) + int(self._cast))

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        if self._ask and index < PLACEMENT_COUNT:
            return Ask(placement_at(index))
        return Cast(placement_at(index % PLACEMENT_COUNT))

    def __contains__(self, action: object) -> bool:
        if isinstance(action, Ask):
            return self._ask and placement_problem(action.fields) is None
        if isinstance(action, Cast):
            return self._cast and placement_problem(action.fields) is None
        return False

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        if value not in self or not isinstance(value, Ask | Cast):
            raise ValueError(value)
        i = placement_index(value.fields)
        return i if isinstance(value, Ask) or not self._ask else PLACEMENT_COUNT + i

    def __repr__(self) -> str:
        kinds = [k for k, on in (("ask", self._ask), ("cast", self._cast)) if on]
        return f"Moves({'+'.join(kinds)}: {len(self)})"


ASK_OR_CAST = Moves(ask=True, cast=True)
CAST_ONLY = Moves(ask=False, cast=True)


class AmuletsGame(Game[AmuletsState, Action, AmuletsView]):
    spec = GameSpec(
        id="amulets",
        title="Amulets",
        summary="Place the five amulets, read the spirits' answers, and cast the freeing spell first.",
        min_players=3,
        max_players=5,
        options=(
            Option(
                "question_cap",
                0,
                "questions asked in total before the askers must cast (0 = no cap)",
                minimum=0,
                maximum=HARD_QUESTION_LIMIT,
            ),
            Option("assistant", False, "show what the deduction engine says is still possible"),
        ),
        hidden_information=True,
        optional_actors=True,
        simultaneous=False,
        rules_file="rules.md",
    )
    action_classes = (Ask, Cast)
    view_class = AmuletsView

    # ------------------------------------------------------------------ setup
    def setup(self, players: int, options: Options, seed: int) -> AmuletsState:
        rng = random.Random(seed)
        fields = rng.sample(range(FIELDS), players)
        amulets = rng.sample(range(AMULETS), players)
        return AmuletsState(
            players, dict(options), fields, amulets, 0, [False] * players, -1, False, [], 0, rng
        )

    def bounds(self, players: int, options: Options) -> Bounds:
        return Bounds(max_decisions=question_limit(options) + players, min_score=0.0, max_score=1.0)

    def num_players(self, state: AmuletsState) -> int:
        return state.players

    def options(self, state: AmuletsState) -> Options:
        return state.options

    def clone(self, state: AmuletsState) -> AmuletsState:
        rng = copy_rng(state.rng)
        return AmuletsState(
            state.players,
            state.options,
            list(state.fields),
            list(state.amulets),
            state.turn,
            list(state.out),
            state.winner,
            state.over,
            list(state.book),
            state.questions,
            rng,
        )

    # ------------------------------------------------------------------ turns
    def to_act(self, state: AmuletsState) -> frozenset[Seat]:
        return frozenset() if state.over else frozenset((state.turn,))

    def may_act(self, state: AmuletsState) -> frozenset[Seat]:
        if state.over:
            return frozenset()
        return frozenset(s for s in range(state.players) if s != state.turn and not state.out[s])

    def can_ask(self, state: AmuletsState) -> bool:
        return state.questions < question_limit(state.options)

    def legal_actions(self, state: AmuletsState, seat: Seat) -> Sequence[Action]:
        if state.over or not 0 <= seat < state.players or state.out[seat]:
            return ()
        if seat == state.turn:
            return ASK_OR_CAST if self.can_ask(state) else CAST_ONLY
        return CAST_ONLY

    def illegal_reason(self, state: AmuletsState, seat: Seat, action: Action) -> str | None:
        if state.out[seat]:
            return "a wizard whose cast failed may no longer ask or cast"
        problem = placement_problem(action.fields)
        if problem is not None:
            return problem
        if isinstance(action, Ask):
            if seat != state.turn:
                return f"only the asker (seat {state.turn}) may ask now; you may cast"
            if not self.can_ask(state):
                return f"the question cap ({question_limit(state.options)}) is reached: cast"
        return None

    def apply_unchecked(self, state: AmuletsState, seat: Seat, action: Action) -> list[Event]:
        n = state.players
        order = [(seat + i) % n for i in range(1, n)]
        chars = [SILENT] * n
        text = format_placement(action.fields)
        if isinstance(action, Ask):
            for s in order:
                chars[s] = answer(action.fields, state.fields[s], state.amulets[s])
            state.book.append(Entry("ask", seat, action.fields, "".join(chars)))
            state.questions += 1
            events = [
                public(
                    "question",
                    seat=seat,
                    placement=text,
                    answers=[[s, chars[s]] for s in order],
                )
            ]
            self._pass_turn(state, seat)
            events.append(public("turn", seat=state.turn))
            return events
        success = True
        for s in order:
            yes = action.fields[state.amulets[s]] == state.fields[s]
            chars[s] = YES if yes else NO
            if not yes:
                success = False
                break
        state.book.append(Entry("cast", seat, action.fields, "".join(chars)))
        checks: list[list[int | str]] = [[s, chars[s]] for s in order if chars[s] != SILENT]
        events = [public("cast", seat=seat, placement=text, checks=checks, success=success)]  # type: ignore[arg-type]
        if success:
            state.winner = seat
            state.over = True
            events.append(public("win", seat=seat))
            return events
        state.out[seat] = True
        if all(state.out):
            state.over = True
            events.append(public("all_failed"))
            return events
        if seat == state.turn:
            self._pass_turn(state, seat)
            events.append(public("turn", seat=state.turn))
        return events

    @staticmethod
    def _pass_turn(state: AmuletsState, seat: Seat) -> None:
        n = state.players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if not state.out[s]:
                state.turn = s
                return

    # ------------------------------------------------------------ information
    def view(self, state: AmuletsState, seat: Seat | None) -> AmuletsView:
        mine = seat is not None and 0 <= seat < state.players
        view = AmuletsView(
            seat=seat,
            players=state.players,
            options=dict(state.options),
            field=state.fields[seat] if mine and seat is not None else -1,
            amulet=state.amulets[seat] if mine and seat is not None else -1,
            turn=state.turn,
            out=tuple(state.out),
            winner=state.winner,
            over=state.over,
            book=tuple(state.book),
            questions=state.questions,
        )
        if state.options.get("assistant"):
            view = dataclasses.replace(view, assistant=assistant_of(view))
        return view

    def world_from_view(self, view: AmuletsView, rng: random.Random) -> AmuletsState:
        knowledge = knowledge_of(view)
        world = knowledge.sample(rng)
        fields = [0] * view.players
        amulets = [0] * view.players
        if view.seat is not None:
            fields[view.seat] = view.field
            amulets[view.seat] = view.amulet
        for s, pair in zip(knowledge.seats, world, strict=True):
            fields[s] = pair % FIELDS
            amulets[s] = pair // FIELDS
        return AmuletsState(
            view.players,
            dict(view.options),
            fields,
            amulets,
            view.turn,
            list(view.out),
            view.winner,
            view.over,
            list(view.book),
            view.questions,
            random.Random(rng.getrandbits(64)),
        )

    # ---------------------------------------------------------------- outcome
    def scores(self, state: AmuletsState) -> tuple[float, ...]:
        return tuple(1.0 if s == state.winner else 0.0 for s in range(state.players))

    def winners(self, state: AmuletsState) -> frozenset[Seat]:
        return frozenset((state.winner,)) if state.winner >= 0 else frozenset()

    # --------------------------------------------------------------- notation
    def format_action(self, action: Action) -> str:
        kind = "ask" if isinstance(action, Ask) else "cast"
        return f"{kind} {format_placement(action.fields)}"

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise NotationError(f"an action is text, not {short_repr(text)}")
        head, _, rest = text.strip().partition(" ")
        kind = head.lower()
        if kind not in ("ask", "cast"):
            raise NotationError(
                f"an action is 'ask <placement>' or 'cast <placement>', not {short_repr(text)}"
            )
        fields = parse_placement(rest)
        return Ask(fields) if kind == "ask" else Cast(fields)

    def action_from_json(self, raw: object) -> Action:
        """The action a JSON value describes, held to the notation (a field 99 is no field)."""
        return through_notation(super().action_from_json(raw), self.format_action, self.parse_action)

    # ----------------------------------------------------------- presentation
    def render(self, view: AmuletsView) -> str:
        from coven.games.amulets.render import render_view

        return render_view(view)

    def explain(self, view: AmuletsView, moments: Sequence[Moment] = ()) -> Explanation:
        from coven.games.amulets.explain import explain

        return explain(view, moments)

    def describe_event(self, event: Event, seat: Seat | None = None) -> str:
        from coven.games.amulets.render import describe_event

        return describe_event(event, seat)

    def hidden_facts(self, state: AmuletsState, seat: Seat) -> frozenset[str]:
        from coven.games.amulets.worlds import secrets

        return secrets(state, seat)

    # ------------------------------------------------------------------- bots
    def bots(self) -> Mapping[str, BotFactory]:
        from coven.games.amulets.bots import BOTS

        return BOTS

    def new_metrics(self) -> Metrics:
        from coven.games.amulets.metrics import AmuletsMetrics

        return AmuletsMetrics()


def knowledge_of(view: AmuletsView) -> Knowledge:
    """The deduction engine's knowledge for the seat of ``view`` (or a spectator)."""
    pair = pair_of(view.field, view.amulet) if view.seat is not None else 0
    return Knowledge.build(view.players, (e.as_tuple() for e in view.book), view.seat, pair)


def assistant_of(view: AmuletsView) -> Assistant:
    """The deduction assistant's conclusions for the seat of ``view``, from the view alone."""
    knowledge = knowledge_of(view)
    return Assistant(
        worlds=knowledge.count(),
        wizards=tuple(
            WizardKnowledge(
                seat,
                tuple(Possibility(p % FIELDS, p // FIELDS, n) for p, n in sorted(tally.items())),
            )
            for seat, tally in zip(knowledge.seats, knowledge.marginals(), strict=True)
        ),
    )
