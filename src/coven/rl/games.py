"""The encoding of each built-in game, by id."""

from __future__ import annotations

from collections.abc import Mapping

from coven.games import get_game
from coven.rl.amulets import AmuletsEncoding
from coven.rl.brujas import BrujasEncoding
from coven.rl.commandments import CommandmentsEncoding
from coven.rl.encoding import Encoding
from coven.rl.namaste import NamasteEncoding

ENCODINGS: dict[str, type[Encoding]] = {
    cls.game_id: cls for cls in (AmuletsEncoding, BrujasEncoding, CommandmentsEncoding, NamasteEncoding)
}


def encoding_for(
    game_id: str, players: int | None = None, options: Mapping[str, object] | None = None
) -> Encoding:
    """The encoding of ``game_id`` for ``players`` (default: the fewest) and ``options``."""
    game = get_game(game_id)
    cls = ENCODINGS.get(game_id)
    if cls is None:
        raise KeyError(f"no encoding for the game {game_id!r}; known: {', '.join(sorted(ENCODINGS))}")
    return cls(game, game.spec.min_players if players is None else players, options)
