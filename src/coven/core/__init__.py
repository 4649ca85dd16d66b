"""The engine core: the game protocol, seats, typed errors, chance, views, events and records."""

from coven.core.bot import Bot, BotFactory, RandomBot
from coven.core.chance import copy_rng
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
from coven.core.game import Game
from coven.core.metrics import Metrics, NoMetrics
from coven.core.record import Move, Record, Step, replay, replay_steps
from coven.core.registry import Registry
from coven.core.spec import Bounds, GameSpec, Option
from coven.core.types import JSONValue, Options, OptionValue, Seat

__all__ = [
    "Bot",
    "BotFactory",
    "Bounds",
    "CovenError",
    "Event",
    "Game",
    "GameError",
    "GameOverError",
    "GameSpec",
    "IllegalActionError",
    "InvalidOptionError",
    "JSONValue",
    "Metrics",
    "Move",
    "NoMetrics",
    "NotYourTurnError",
    "NotationError",
    "Option",
    "OptionValue",
    "Options",
    "RandomBot",
    "Record",
    "Registry",
    "Seat",
    "Step",
    "UnknownBotError",
    "UnknownGameError",
    "copy_rng",
    "filter_events",
    "private",
    "public",
    "replay",
    "replay_steps",
]
