"""Every knob of the server in one typed object."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from coven.core import Game


class GameSource(Protocol):
    """Where games come from (the global registry, or a test's own :class:`coven.core.Registry`)."""

    def get(self, game_id: str) -> Game[Any, Any, Any]: ...

    def ids(self) -> Sequence[str]: ...


def default_data_dir() -> Path:
    import platformdirs

    return platformdirs.user_data_path("coven", appauthor=False)


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str | None = None
    """SQLAlchemy URL; ``None``: an SQLite file in :attr:`data_dir` (created on first start)."""
    bus_url: str | None = None
    """``None``/``memory://``: in-process fan-out; ``redis://host:port/db`` for several processes."""
    bus_prefix: str = "coven:"
    """Prefix of the bus channel (tests use a unique one)."""
    data_dir: Path | None = None
    """``None``: the per-user data folder (platformdirs)."""
    bot_pause: float = 0.6
    """Seconds a bot's move takes at least, so people can follow (0 in tests)."""
    bot_threads: int = 4
    """Worker threads for bots' thinking (apart from the store's, so a slow search never delays a
    commit). Threads share the GIL: the event loop stays responsive, but several heavy searches at once
    share the CPU."""
    max_frame_bytes: int = 16_384
    """Largest client frame the protocol accepts; ``too_large`` beyond, transport close at 4x."""
    rate_limit: float = 20.0
    """Client messages per second per connection (token bucket) ..."""
    rate_burst: int = 40
    """... with this burst."""
    rate_strikes: int = 20
    """Consecutive rate-limited messages before the connection is closed (4029)."""
    legal_cap: int = 300
    """At most this many legal actions are listed with a view (``truncated`` beyond)."""
    ping_interval: float = 20.0
    """Seconds between the server's keep-alive ``ping`` messages (0: none)."""
    hello_timeout: float = 10.0
    send_queue: int = 1000
    """Messages queued for a client that does not read before it is closed (4013)."""
    games: GameSource | None = None
    """``None``: :data:`coven.games.REGISTRY`."""
    web_dir: Path | None = field(default=None)
    """Static client; ``None``: ``coven/web`` beside this package (served if it exists)."""
    node_id: str | None = None
    """This process's name on the bus (random if ``None``)."""

    def resolved_data_dir(self) -> Path:
        return self.data_dir if self.data_dir is not None else default_data_dir()

    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        from coven.store import default_database_url

        return default_database_url(self.resolved_data_dir())

    def game_source(self) -> GameSource:
        if self.games is not None:
            return self.games
        from coven.games import REGISTRY

        return REGISTRY

    def resolved_web_dir(self) -> Path:
        if self.web_dir is not None:
            return self.web_dir
        return Path(__file__).resolve().parent.parent / "web"
