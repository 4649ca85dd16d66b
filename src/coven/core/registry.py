"""A registry mapping game ids to games."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

from coven.core.errors import UnknownGameError
from coven.core.game import AnyGame, Game


class Registry:
    """Games by id. Entries may be given as ``"module:attribute"`` and are imported on first use."""

    def __init__(self) -> None:
        self._games: dict[str, AnyGame] = {}
        self._lazy: dict[str, str] = {}

    def register(self, game: AnyGame) -> None:
        game_id = game.spec.id
        if game_id in self._games and self._games[game_id] is not game:
            raise ValueError(f"a game is already registered as {game_id!r}")
        self._games[game_id] = game
        self._lazy.pop(game_id, None)

    def unregister(self, game_id: str) -> None:
        self._games.pop(game_id, None)
        self._lazy.pop(game_id, None)

    def register_lazy(self, game_id: str, target: str) -> None:
        if game_id not in self._games:
            self._lazy[game_id] = target

    def ids(self) -> list[str]:
        return sorted({*self._games, *self._lazy})

    def get(self, game_id: str) -> AnyGame:
        game = self._games.get(game_id)
        if game is not None:
            return game
        target = self._lazy.get(game_id)
        if target is None:
            raise UnknownGameError(f"unknown game {game_id!r}; known: {', '.join(self.ids())}")
        module_name, _, attribute = target.partition(":")
        loaded = getattr(importlib.import_module(module_name), attribute or "GAME")
        if not isinstance(loaded, Game):
            raise TypeError(f"{target} is not a Game")
        self.register(loaded)
        return loaded

    def __iter__(self) -> Iterator[AnyGame]:
        return (self.get(game_id) for game_id in self.ids())
