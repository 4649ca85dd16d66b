"""Every knob of the server in one typed object."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from coven.core import Game

BUS_NAMESPACE_ENV = "COVEN_BUS_NAMESPACE"
"""The environment variable naming this deployment's namespace on a shared Redis."""
DEFAULT_BUS_NAMESPACE = "coven"
_NAMESPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")


class GameSource(Protocol):
    """Where games come from (the global registry, or a test's own :class:`coven.core.Registry`)."""

    def get(self, game_id: str) -> Game[Any, Any, Any]: ...

    def ids(self) -> Sequence[str]: ...


def bus_prefix_for(namespace: str) -> str:
    """The prefix of every bus channel/key of the deployment ``namespace`` (``"prod"`` → ``"prod:"``).

    A namespace is 1 to 64 ASCII letters, digits, ``_ . : -`` (starting with a letter or digit); raises
    ValueError otherwise."""
    if not _NAMESPACE.fullmatch(namespace):
        shown = namespace if len(namespace) <= 40 else namespace[:40] + "..."
        raise ValueError(f"bus namespace {shown!r}: use 1 to 64 ASCII letters, digits, '_', '.', ':' or '-'")
    return namespace if namespace.endswith(":") else namespace + ":"


def bus_prefix_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The bus prefix of ``$COVEN_BUS_NAMESPACE`` (default namespace ``coven``: prefix ``coven:``)."""
    env = os.environ if environ is None else environ
    return bus_prefix_for(env.get(BUS_NAMESPACE_ENV) or DEFAULT_BUS_NAMESPACE)


SEED_BITS = 62
"""Deal and bot seeds are whole numbers of this many bits (they fit a signed 64-bit column)."""


def redacted_url(url: str) -> str:
    """``url`` as it may be shown (printed, logged, said in an error): its password hidden."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.rsplit("@", maxsplit=1)[-1]


def secure_seed() -> int:
    """A seed from the operating system's secure source (:mod:`secrets`): nobody can predict it."""
    return secrets.randbits(SEED_BITS)


def default_bot_processes() -> int:
    """Bots' worker processes by default: one fewer than the processor cores this process may run on, at
    least one. A core is left to the people: on a machine whose every core is busy, a searching bot slows
    the server however low its priority (measured on a 2-core machine, ``coven bench server --bot-tables
    4``: with two workers the people's ack p99 grew 2.0-2.7 times, with one 1.1-1.3 times)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 2
    return max(1, cores - 1)


def default_data_dir() -> Path:
    import platformdirs

    return platformdirs.user_data_path("coven", appauthor=False)


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str | None = None
    """SQLAlchemy URL; ``None``: an SQLite file in :attr:`data_dir` (created on first start)."""
    bus_url: str | None = None
    """``None``/``memory://``: in-process fan-out; ``redis://host:port/db`` for several processes."""
    bus_prefix: str = field(default_factory=bus_prefix_from_env)
    """Prefix of every bus channel/key: the deployment's namespace, so that several deployments can share
    one Redis (``$COVEN_BUS_NAMESPACE`` or ``coven serve --bus-namespace``; default ``coven:``; tests use
    a unique one)."""
    data_dir: Path | None = None
    """``None``: the per-user data folder (platformdirs)."""
    bot_pause: float = 0.6
    """Seconds a bot's move takes at least, so people can follow (0 in tests)."""
    bot_look_seconds: float = 8.0
    """How long bots wait after each move before acting by choice (an Amulets cast), so that people have
    a fair look at the answers first (0 in tests). Bots' required moves only wait ``bot_pause``."""
    bot_processes: int = field(default_factory=default_bot_processes)
    """Worker processes for bots' thinking, outside the server's interpreter lock, so searching bots
    never slow people's moves (games from the global registry only; 0: think in threads instead). By
    default one fewer than the machine's cores (:func:`default_bot_processes`)."""
    bot_threads: int = 4
    """Threads for bots' thinking when it happens in this process (``bot_processes`` 0, or a test's own
    registry of games). Threads share the GIL with the event loop."""
    bot_budget_seconds: float = 30.0
    """The longest a bot may think over one decision, counted from when its worker starts on it (not
    while it waits behind other tables' decisions); past it (or when its worker dies) the table's first
    legal action is played for it, so no table waits on a lost bot."""
    max_frame_bytes: int = 16_384
    """Largest client frame (UTF-8 bytes) the protocol accepts; a larger one is answered ``too_large``
    and the connection closed with 1009. ``coven serve`` gives uvicorn the same limit (``ws_max_size``),
    which closes with 1009 before the frame reaches the application."""
    max_body_bytes: int = 262_144
    """Largest HTTP request body (413 beyond). Room for the largest valid table: 60 custom Commandments
    cards with 200-character texts and 400-character expressions take at most ~127 KB of UTF-8 JSON
    (~200 KB when a client escapes accented texts to ASCII, as Python's ``json.dumps`` does)."""
    rate_limit: float = 20.0
    """Client messages per second per connection (token bucket) ..."""
    rate_burst: int = 40
    """... with this burst."""
    rate_strikes: int = 20
    """Consecutive rate-limited messages before the connection is closed (4029)."""
    chat_limit: float = 1.0
    """Chat lines a seat may say a second, all its sockets on this process together (a token bucket,
    within each socket's ``rate_limit``) ...; past it the line is refused with ``rate_limited``. Each line
    is a write to the store, kept with the table: at the message rate, one client's sockets wrote
    thousands a second, and every table's moves waited on the store behind them; with a bucket per
    socket, one seat opening 30 sockets said 30 bursts at once."""
    chat_burst: int = 5
    """... with this many at once."""
    http_limit: float = 50.0
    """API requests (``/api/...``) and socket upgrades one client address may make a second (a token
    bucket; an IPv6 address counts by its /64) ...; past it, 429 ``rate_limited`` with ``Retry-After`` (a
    socket: refused before its upgrade), before anything else is done; 0: no limit. Some cost the server a
    millisecond or more (a replay, a custom card judged, a table with 60 custom cards), on the loop every
    table shares: without a limit one client asking in a loop slowed every table. The page's own files are
    not counted (a class behind one address loads them all at once)."""
    http_burst: int = 200
    """... with this many at once (a class behind one address opening the lobby together)."""
    sockets_per_client: int = 100
    """Live connections (websockets) one client address may hold open at once (an IPv6 address counts by
    its /64); past it a new one is closed at once (4030 ``TOO_MANY_SOCKETS``); 0: no limit. Each holds a
    file descriptor and memory: without a limit one client opening sockets in a loop exhausted them."""
    spectators_per_table: int = 200
    """People watching one table (connections without a seat) that this process serves at once; past it a
    new spectator is told why and closed (4031 ``TOO_MANY_SPECTATORS``), while the table's players always
    get to their seats; 0: no limit. Every move goes to every watcher (a frame each, about 10 us of the loop
    that every table shares): without a limit a crowd at one table, or one client's sockets there, slowed
    the moves of every other table. Each process counts its own."""
    create_limit: float = 10.0
    """Tables one client address may create per minute (a token bucket: :class:`coven.server.limits.
    ClientLimits`; an IPv6 address counts by its /64) ...; 0: no limit. Every table lives in memory until
    it is over or left idle, so without a limit one client creating tables in a loop grows the server
    without bound; past it, ``POST /api/tables`` answers 429 ``rate_limited`` with ``Retry-After``."""
    create_burst: int = 30
    """... with this many at once (a class or a club setting up its tables together)."""
    legal_cap: int = 60
    """Up to this many legal actions, a seat the game waits for gets them all listed; with more (a huge
    space), only the first ``OPTIONAL_LISTED`` (8) are, ``truncated``, with ``count`` saying how many there
    are, and the seat may type any action (``free_form``). Every choice the boards offer as buttons fits
    (Commandments' ordains: 12; forfeit is listed first, then placements the page suggests)."""
    ping_interval: float = 20.0
    """Seconds between the server's keep-alive ``ping`` messages (0: none)."""
    hello_timeout: float = 10.0
    commit_process: bool = False
    """Whether the group commit's transactions run in a child process, the store's writer, outside the
    server's interpreter lock, rather than on the commit thread (see :mod:`coven.server.commits`: under
    heavy load it keeps the lock's hand-overs off the event loop, and costs more CPU a batch; a store in
    this process's memory is always written here)."""
    commit_interval: float = 0.002
    """The least time between two group commits' transactions (seconds): under load, the steps of many
    tables that arrive within it share one sync to disk, which costs more CPU than the rest of a commit;
    a step that finds the store idle for that long is committed at once (see
    :class:`coven.server.commits.GroupCommit`). 0: every transaction starts as soon as the last one ends."""
    send_queue: int = 1000
    """Messages queued for a client that does not read before it is closed (4013) ..."""
    send_queue_chars: int = 1_048_576
    """... or characters of them (JSON text; a frame several connections are sent counted for each): a
    client that asked for the longest frames and never read them held 33 KB a frame, a gigabyte over its
    sockets (found by an attacker's pass)."""
    sync_chars_per_token: int = 2048
    """A ``sync`` answer costs its connection one more message of ``rate_limit`` for every this many
    characters it holds: a request of 30 bytes that brings back 33 KB is asked for at most about once a
    second, where a catch-up of a step or two costs as any message."""
    games: GameSource | None = None
    """``None``: :data:`coven.games.REGISTRY`."""
    web_dir: Path | None = field(default=None)
    """Static client; ``None``: ``coven/web`` beside this package (served if it exists)."""
    node_id: str | None = None
    """This process's name on the bus (random if ``None``)."""
    lease_seconds: float = 6.0
    """How long a process owns a live table (runs its bots) without renewing: when a process dies, another
    adopts its tables, bots included, within about this long plus one heartbeat."""
    route_seconds: float = 2.0
    """How long a process waits for a live table's owner to answer a move it sent it over the bus; if the
    owner is silent (it died and nobody has adopted its tables yet), the move is committed where it
    arrived instead (the database's conditional update keeps that safe)."""
    heartbeat_seconds: float = 2.0
    """How often a process renews its leases, adopts orphaned tables and lets finished tables that
    nobody watches leave its memory (they load from the store on demand)."""
    rest_seconds: float = 600.0
    """A live table that nobody here has watched (or opened) for this long leaves this process's memory
    (0: never). If this process owns it, it does so only while its game waits on nobody a server moves for
    (no bot's turn, no clock running: the people left, or never came), and it lets go of its lease: the
    table rests, no heartbeat adopts it, and whichever process next opens it loads it and takes its lease.
    Without this, every table created and left unfinished stayed in memory (and was loaded again by every
    restart) for ever."""
    expire_days: float = 30.0
    """A table nobody has joined (still waiting, no person's seat claimed) this many days after it was made
    is deleted, and its links say there is no such table (0: never). Tables were made and never joined for
    ever, and each stayed in the store for ever: the heartbeat looks for them once an hour."""
    deal_seeds: Callable[[], int] = secure_seed
    """Where each table's deal seed comes from: the operating system's secure source. Never from a
    client (a request that names a seed is refused); only the operator can replace it (tests do, to
    make deals reproducible)."""
    bot_seeds: Callable[[], int] = secure_seed
    """Where each bot's own randomness comes from, drawn apart from the deal, so a bot's choices say
    nothing about the hidden cards and the deal says nothing about the bots' choices."""

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


def tune_collector() -> None:
    """The garbage collector as a server wants it. Everything imported so far lives as long as the
    process: keep it out of the collector's scans, and collect the young generation less often, so pauses
    do not grow with the code or the tables."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
