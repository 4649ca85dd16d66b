"""Bot levels: ``beginner`` and ``casual``, gentler players built on a game's ``greedy`` bot.

A level bot asks the game's greedy bot for every decision (so the greedy bot sees every view it would
see on its own and any memory it keeps stays right), then:

- on a required decision, with probability ``slip`` it makes a uniformly random legal choice instead
  (a person's slip: a careless play, a misjudged pick);
- on an optional decision (the seat may act but need not, e.g. an out-of-turn move), it takes the
  greedy bot's action only with probability ``eagerness``, else lets the moment pass; a beginner acts
  on such chances later than greedy does.

Like every bot it receives only its seat's view and legal actions. The rates are each game's (set
where the game registers its levels, measured against three ``greedy`` bots at four players): a
``beginner`` wins clearly less than its fair share, a ``casual`` about its fair share. The third level
is the game's ``best``. Games whose random choice is unsafe (Amulets, whose legal actions include every
possible cast) build their levels themselves.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from functools import partial
from typing import Any

from coven.core.bot import Bot, BotFactory
from coven.core.game import Game
from coven.core.types import Seat

LEVELS = ("beginner", "casual", "best")
"""The named levels every game offers, weakest first (beside ``random`` and ``greedy``)."""


class LevelBot:
    """The game's greedy choice, with random slips at rate ``slip`` and optional moves at ``eagerness``."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seat: Seat,
        seed: int,
        greedy: BotFactory,
        slip: float,
        eagerness: float = 1.0,
    ) -> None:
        if not 0.0 <= slip <= 1.0 or not 0.0 <= eagerness <= 1.0:
            raise ValueError(f"rates must lie in [0, 1]; got slip={slip}, eagerness={eagerness}")
        self.seat = seat
        self.slip = slip
        self.eagerness = eagerness
        self.greedy = greedy(game, seat, seed)
        self.rng = random.Random(seed * 1_000_003 + 17)  # apart from the greedy bot's own

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        choice = self.greedy.act(view, legal, required)
        rng = self.rng
        if not required:
            if choice is None or rng.random() >= self.eagerness:
                return None
            return choice
        if len(legal) > 1 and rng.random() < self.slip:
            return legal[rng.randrange(len(legal))]
        return choice


def level_bot(
    game: Game[Any, Any, Any],
    seat: Seat,
    seed: int,
    greedy: BotFactory,
    slip: float,
    eagerness: float = 1.0,
) -> Bot:
    """A :class:`LevelBot` (typed as a :class:`~coven.core.bot.Bot`)."""
    return LevelBot(game, seat, seed, greedy, slip, eagerness)


def level_factories(greedy: BotFactory, slips: Mapping[str, float]) -> dict[str, BotFactory]:
    """The ``beginner`` and ``casual`` factories of a game whose levels are its ``greedy`` bot with random
    slips at the rates ``slips`` gives them (each game's own, measured where it registers them)."""
    return {level: partial(level_bot, greedy=greedy, slip=slips[level]) for level in ("beginner", "casual")}


__all__ = ["LEVELS", "LevelBot", "level_bot", "level_factories"]
