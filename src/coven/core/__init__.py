"""The engine core: the game protocol, seats, typed errors, chance, views, events and records."""

from coven.core.bot import Bot, BotFactory, RandomBot
from coven.core.chance import copy_rng
from coven.core.driver import (
    Actor,
    BotError,
    Driver,
    InputEnded,
    Observer,
    Quit,
    RecordedLog,
    TerminalSeat,
    offer_order,
    play_terminal,
)
from coven.core.errors import (
    CovenError,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    NotationError,
    NotYourTurnError,
    UnknownBotError,
    UnknownGameError,
)
from coven.core.events import Event, filter_events, private, public
from coven.core.game import (
    AnyGame,
    FixedActions,
    Game,
    Parts,
    check_seat,
    check_seed,
    checked_seats,
    is_fixed,
)
from coven.core.metrics import Metrics, NoMetrics
from coven.core.record import Move, Record, Step, replay, replay_steps
from coven.core.registry import Registry
from coven.core.spec import Bounds, GameSpec, Option
from coven.core.types import JSONValue, Options, OptionValue, Seat

__all__ = [
    "Actor",
    "AnyGame",
    "Bot",
    "BotError",
    "BotFactory",
    "Bounds",
    "CovenError",
    "Driver",
    "Event",
    "FixedActions",
    "Game",
    "GameError",
    "GameOverError",
    "GameSpec",
    "IllegalActionError",
    "InputEnded",
    "InvalidOptionError",
    "JSONValue",
    "Metrics",
    "Move",
    "NoMetrics",
    "NotYourTurnError",
    "NotationError",
    "Observer",
    "Option",
    "OptionValue",
    "Options",
    "Parts",
    "Quit",
    "RandomBot",
    "Record",
    "RecordedLog",
    "Registry",
    "Seat",
    "Step",
    "TerminalSeat",
    "UnknownBotError",
    "UnknownGameError",
    "check_seat",
    "check_seed",
    "checked_seats",
    "copy_rng",
    "filter_events",
    "is_fixed",
    "offer_order",
    "play_terminal",
    "private",
    "public",
    "replay",
    "replay_steps",
]
