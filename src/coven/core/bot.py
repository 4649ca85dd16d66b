"""The bot interface: a bot sees its seat's view and the legal actions, never the state."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from coven.core.types import Seat

if TYPE_CHECKING:
    from coven.core.game import Game


class Bot(Protocol):
    """A player. ``act`` returns an action from ``legal``.

    Where a game's action space is open-ended (Commandments' performances, Amulets' placements),
    ``legal`` enumerates a representative family and a bot may also return any other action that the
    game's ``illegal_reason`` accepts; callers apply bot actions through the checked path.

    ``required`` is False when the seat may act but need not (Amulets' casts out of turn); the bot
    then returns ``None`` to let the moment pass.
    """

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None: ...


class BotFactory(Protocol):
    def __call__(self, game: Game[Any, Any, Any], seat: Seat, seed: int) -> Bot: ...


class RandomBot:
    """Uniformly random among the legal actions; never acts when it need not."""

    def __init__(self, game: Game[Any, Any, Any], seat: Seat, seed: int) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        if not required or not legal:
            return None
        return legal[self.rng.randrange(len(legal))]
