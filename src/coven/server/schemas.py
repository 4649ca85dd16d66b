"""The lobby's HTTP models: inputs and outputs kept apart, so no internal field can leak out."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
)
from pydantic_core import PydanticCustomError

from coven.server.messages import visible_text


def _visible_name(name: str) -> str:
    cleaned = visible_text(name)
    if not cleaned:
        raise PydanticCustomError(
            "invisible_name",
            "a name needs a visible character (a letter, a digit or a sign): control characters, line "
            "breaks and invisible formatting characters are left out of names",
        )
    return cleaned


Name = Annotated[str, StringConstraints(max_length=64, strip_whitespace=True), AfterValidator(_visible_name)]
"""A seat's name: cleaned as a chat line is (see :func:`visible_text`), refused if nothing visible is left."""


def _option_value(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    try:
        return handler(value)
    except ValidationError:
        raise PydanticCustomError(
            "option_value", "an option's value is true or false, a whole number or a text"
        ) from None


OptionValueIn = Annotated[bool | int | str, WrapValidator(_option_value)]
"""An option's value as JSON carries it; whether it is of its option's type is the game's to say
(``GameSpec.resolve_options(typed=True)``: 422 ``invalid_option`` naming the option)."""


# ------------------------------------------------------------------ inputs
class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    """Strict: JSON's own types only (a whole number is not ``"3"``, ``3.0`` or ``true``; a text not a
    number): anything else is 422 ``bad_request`` naming the field."""


class HumanSeatIn(_In):
    kind: Literal["human"]
    name: Name | None = None


class BotSeatIn(_In):
    kind: Literal["bot"]
    bot: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    name: Name | None = None


SeatIn = Annotated[HumanSeatIn | BotSeatIn, Field(discriminator="kind")]


class CreateTableIn(_In):
    game: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    players: int
    options: dict[str, OptionValueIn] = Field(default_factory=dict)
    seats: list[SeatIn] | None = Field(default=None, max_length=16)
    """One per player in seat order; default: seat 0 a person, the others the random bot."""
    pace: Literal["none", "move", "clock"] = "none"
    """No limit; ``move``: ``pace_seconds`` for each move; ``clock``: ``pace_seconds`` for all of a
    person's moves. A person out of time is replaced by a bot until they come back (in The 3
    Commandments a novice out of time forfeits the move, as the rulebook says)."""
    pace_seconds: Annotated[int, Field(ge=5, le=86_400)] | None = None
    """Default: 120 for ``move``, 600 for ``clock``; none without a pace (refused: it would be dropped)."""

    @field_validator("pace_seconds")
    @classmethod
    def _paced(cls, seconds: int | None, info: ValidationInfo) -> int | None:
        if seconds is not None and info.data.get("pace", "none") == "none":
            raise PydanticCustomError(
                "pace_seconds_without_pace",
                "seconds need a pace to count them: 'move' (for each move) or 'clock' (for all of a "
                "person's moves); without one, leave out pace_seconds",
            )
        return seconds

    # No seed: the server draws every deal from the operating system (a request naming one is refused).


# ----------------------------------------------------------------- outputs
class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OptionOut(_Out):
    key: str
    kind: Literal["bool", "int", "choice", "str"]
    default: bool | int | str
    description: str
    choices: list[str]
    minimum: int | None
    maximum: int | None


class GameOut(_Out):
    id: str
    title: str
    summary: str
    min_players: int
    max_players: int
    hidden_information: bool
    optional_actors: bool
    simultaneous: bool
    has_rules: bool
    options: list[OptionOut]
    bots: list[str]


class SeatOut(_Out):
    seat: int
    kind: Literal["human", "bot"]
    name: str
    bot: str | None
    claimed: bool
    stand_in: bool
    """A bot plays this person's seat (their time ran out) until they come back."""


class ResultOut(_Out):
    scores: list[float]
    winners: list[int]


class TableOut(_Out):
    id: str
    game: str
    players: int
    options: dict[str, bool | int | str]
    status: Literal["waiting", "playing", "over"]
    number: int
    created_at: str
    spectator_url: str
    seats: list[SeatOut]
    result: ResultOut | None
    pace: Literal["none", "move", "clock"]
    pace_seconds: int
    to_act: list[int]
    """The seats the game waits for (empty unless playing): whose turn it is, for the lobby."""
    reveals: bool
    """Whether the finished game is shown in full (record, revealed replay); false for a table that
    keeps its secrets for ever (The 3 Commandments with ``reveal=never``)."""


class InviteOut(_Out):
    seat: int
    name: str
    token: str
    url: str


class TableCreatedOut(_Out):
    table: TableOut
    spectator_url: str
    invites: list[InviteOut]


class ReplayStepOut(_Out):
    number: int
    actor: int | None
    action: str | None
    events: list[dict[str, Any]]
    view: Any
    scores: list[float]
    """Every seat's score after the step (served after the end only, so nothing is secret)."""


class ChatLineOut(_Out):
    id: int
    seat: int
    number: int
    """The table's action number when it was said."""
    text: str


class ReplayOut(_Out):
    table: str
    game: str
    seat: int | None
    reveal: bool
    result: ResultOut
    steps: list[ReplayStepOut]
    chat: list[ChatLineOut]
    """What the players said at the table, with the step it was said at."""


class MessageKeyOut(_Out):
    key: str
    """The text's stable message key (``""``: English only); see :mod:`coven.core.texts`."""
    params: dict[str, Any]
    """The key's parameters: numbers, texts, nested ``{key, params}``, ``{en, fr}`` texts, lists."""


class ExplanationLineOut(_Out):
    label: str
    """What earned (or cost) the points, in English; ``{s2}`` stands for seat 2's name."""
    points: float
    steps: list[int]
    """The replay steps where it happened (step k: after the k-th action)."""
    key: str = ""
    """The label's message key, for a client's own catalogue."""
    params: dict[str, Any] = {}


class SeatExplanationOut(_Out):
    seat: int
    score: float
    """The sum of the lines: the seat's final score."""
    lines: list[ExplanationLineOut]
    notes: list[str]
    note_keys: list[MessageKeyOut] = []
    """One per note: its message key and parameters."""


class ExplanationOut(_Out):
    table: str
    game: str
    seat: int | None
    """Whose final view the explanation is built from (``null``: a spectator's)."""
    summary: str
    """Why the winner won, in one sentence (English)."""
    summary_key: str = ""
    summary_params: dict[str, Any] = {}
    notes: list[str]
    note_keys: list[MessageKeyOut] = []
    """One per note: its message key and parameters."""
    winners: list[int]
    scores: list[float]
    """The engine's final scores (each seat's lines add up to its score)."""
    seats: list[SeatExplanationOut]


class HealthOut(_Out):
    """How a server process is (``GET /api/health``)."""

    ok: bool
    """It can serve its tables: its store answered within a lease (``store``), and the bus, if processes
    share tables, is subscribed (``bus``). A proxy should send people elsewhere when not (503)."""
    protocol: int
    games: list[str]
    node: str
    store: str
    """``ok``, or ``unreachable``: its leases were not renewed within ``lease_seconds`` (other processes
    adopt its tables meanwhile)."""
    bus: str
    """``ok``, ``reconnecting`` (after a drop, it subscribes again with backoff), or ``local`` (one
    process: no bus between processes)."""
    lease_renewed_s: float
    """Seconds since it last renewed its leases (a heartbeat's first step)."""
    tables: int
    """Tables in its memory (those it owns, and replicas its people watch)."""
    owned: int
    connections: int
    bots_thinking: int
    bots_waiting: int
    """Bots' decisions waiting for a worker (see :class:`coven.server.botpool.FairTurns`)."""


class ErrorBody(_Out):
    code: str
    message: str
    reason: MessageKeyOut | None = None
    """Why the rules refused, in words of no language (see :mod:`coven.core.refusals`): a stable key and
    its params, which a page says in its own language; absent when the server says why in English only."""


class ErrorOut(_Out):
    error: ErrorBody


# ------------------------------------------------- The 3 Commandments: the deck and custom cards
class DeckCardOut(_Out):
    id: str
    type: Literal["artefact", "action"]
    value: str
    """The karma, 1-9, or ``?`` for a card that counts (one karma per unit, at most 20 a move)."""
    en: str
    fr: str
    expr: str
    """The condition (or count) in the cards' expression language."""


class CardLanguageOut(_Out):
    board_words: list[str]
    performance_words: list[str]
    gestures: list[str]
    touches: list[str]
    sayings: list[str]
    areas: list[str]
    colours: list[str]
    kinds: list[str]
    max_text: int
    max_cost: int


class DeckOut(_Out):
    game: str
    cards: list[DeckCardOut]
    language: CardLanguageOut


class CustomCardIn(_In):
    """A custom card as in the ``custom_cards`` option; the bounds themselves are the card language's,
    so that its refusals explain themselves (these limits only keep the request small)."""

    id: Annotated[str, StringConstraints(max_length=64)] = "MY1"
    type: Annotated[str, StringConstraints(max_length=32)]
    value: bool | StrictInt | float | Annotated[str, StringConstraints(max_length=8)] | None
    """1-9 or ``"?"``; anything else is refused by the card's own check, which says why."""
    en: Annotated[str, StringConstraints(max_length=1000)]
    fr: Annotated[str, StringConstraints(max_length=1000)] | None = None
    expr: Annotated[str, StringConstraints(max_length=2000)]


class CardPreviewIn(_In):
    card: CustomCardIn


class SampleJudgementOut(_Out):
    move: str
    """The sample move in the game's notation (with its seconds)."""
    start: str
    """The area the artefact left."""
    karma: int
    """What the card gives on this move (0: not marked)."""
    marked: bool


class CardPreviewOut(_Out):
    ok: bool
    card: DeckCardOut
    cost: int
    """The card's static cost (at most ``max_cost``)."""
    max_cost: int
    board: list[str]
    """The sample board before every sample move: the area of each artefact wh1..wh5, bk1..bk5, br1..br5."""
    sample: list[SampleJudgementOut]
