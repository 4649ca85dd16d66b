"""What the command line runs: ``coven serve`` and ``coven bench server`` (whose machinery is in
:mod:`coven.server.bench`)."""

from __future__ import annotations

import copy
import dataclasses
import logging
from typing import Any, ClassVar

from sqlalchemy.exc import StatementError

from coven.server.settings import Settings, redacted_url, tune_collector

LOOPBACK = "127.0.0.1"


class StartupError(Exception):
    """Why ``coven serve`` cannot start, in one line for the operator (``coven serve`` prints it and exits
    with 1): a database or bus URL it cannot use, a database or Redis it cannot reach, a data folder it
    cannot make, a schema it cannot upgrade. Found before it announces itself or listens."""


def _one_line(exc: BaseException) -> str:
    """An exception's own words on one line: a database driver's error rather than SQLAlchemy's wrapping
    of it (its statement and its link to the docs), whitespace squeezed."""
    from sqlalchemy.exc import DBAPIError

    from coven.server.messages import shorten

    shown: BaseException = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    return shorten(" ".join(str(shown).split()) or type(shown).__name__, 300)


def check_bus(url: str | None) -> None:
    """Raise :class:`StartupError` unless ``url`` names a bus this process can use (in-process, or a Redis
    that answers a ``PING``)."""
    from coven.bus import LocalBus, make_bus

    try:
        bus = make_bus(url)
    except ValueError as exc:
        raise StartupError(f"bus (--bus, COVEN_BUS): {exc}") from None
    if url is None or isinstance(bus, LocalBus):
        return
    import redis
    from redis.exceptions import RedisError

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    except ValueError as exc:
        raise StartupError(f"bus (--bus, COVEN_BUS) {url!r} is not a Redis URL: {_one_line(exc)}") from None
    try:
        client.ping()
    except RedisError as exc:
        raise StartupError(f"cannot reach the bus's Redis at {redacted_url(url)}: {_one_line(exc)}") from None
    finally:
        client.close()


def check_database(url: str) -> None:
    """Raise :class:`StartupError` unless the database ``url`` can be opened and its schema brought to
    this Coven's newest revision (which the server would do at once on start)."""
    from alembic.util import CommandError
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from coven.store import Store

    try:
        dialect = make_url(url).get_backend_name()
    except ArgumentError:
        raise StartupError(
            f"database (--database, COVEN_DATABASE) {url!r} is not a database URL: use "
            "sqlite:///PATH or postgresql+psycopg://USER:PASSWORD@HOST:5432/NAME"
        ) from None
    shown = redacted_url(url)
    try:
        store = Store(url)
    except (ArgumentError, ImportError) as exc:
        raise StartupError(
            f"database {shown}: no driver for {dialect!r} here ({_one_line(exc)}); Coven runs on SQLite "
            "and PostgreSQL (postgresql+psycopg://...)"
        ) from None
    try:
        store.migrate()
    except CommandError as exc:
        raise StartupError(
            f"database {shown}: its schema cannot be upgraded by this version of Coven ({_one_line(exc)}); "
            "was it made by a newer one?"
        ) from None
    except SQLAlchemyError as exc:
        raise StartupError(f"cannot open the database {shown}: {_one_line(exc)}") from None
    finally:
        store.dispose()


def check_startup(settings: Settings) -> Settings:
    """What ``coven serve`` checks before it announces itself: the bus, then the data folder and the
    database (upgraded to the newest schema, as the server would at once). Returns ``settings`` with its
    database URL resolved; raises :class:`StartupError`, having changed nothing it could avoid (a bad bus
    is found before the data folder is made)."""
    check_bus(settings.bus_url)
    try:
        url = settings.resolved_database_url()  # creates the data folder on first start
    except OSError as exc:
        folder = settings.resolved_data_dir()
        raise StartupError(f"cannot make the data folder {folder}: {exc.strerror or exc}") from None
    check_database(url)
    return dataclasses.replace(settings, database_url=url)


class OneLineLogs(logging.Filter):
    """Every log record on one line, without a traceback (an exception shows as its type and message):
    what a client sends can never fill the server's log with tracebacks (uvicorn, for one, logs a text
    frame that is not UTF-8 with its traceback)."""

    TRACEBACK = "Traceback (most recent call last):"

    CLIENT_FAULTS: ClassVar[dict[str, str]] = {
        "Invalid UTF-8 sequence received from client.": (
            "a client sent a text frame that is not UTF-8: its connection is closed (1007)"
        ),
    }
    """What uvicorn logs as an ERROR, with a traceback, when a client breaks the protocol: the client's
    fault, not the server's, so said on one INFO line (any client can send it, as often as it connects)."""

    def filter(self, record: logging.LogRecord) -> bool:
        fault = self.CLIENT_FAULTS.get(record.msg) if isinstance(record.msg, str) else None
        if fault is not None and record.name.startswith("uvicorn"):
            record.msg, record.args = fault, None
            record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
            record.exc_info = record.exc_text = record.stack_info = None
            return logging.getLogger(record.name).isEnabledFor(logging.INFO)
        text = record.getMessage()
        if record.exc_info is None and record.stack_info is None and "\n" not in text:
            return True
        if self.TRACEBACK in text:  # a traceback as text (uvicorn's "lifespan.startup.failed" message)
            text = self._exception_of(text)
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, StatementError) and exc.orig is not None:
            # the driver's own words, without the statement and its parameters that SQLAlchemy adds to
            # them (every statement a dropped connection failed filled a line with its SQL)
            text = f"{text} ({type(exc).__name__}: {type(exc.orig).__name__}: {exc.orig})"
        elif exc is not None:
            text = f"{text} ({type(exc).__name__}: {exc})"
        text = " ".join(text.split())
        record.msg = text if len(text) <= 500 else text[:497] + "..."
        record.args = None
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True

    @classmethod
    def _exception_of(cls, text: str) -> str:
        """A traceback given as text, as what came before it and its last exception's own lines (the
        frames left out): the first 500 characters of a traceback are frames, and never said what
        failed."""
        before, _, rest = text.partition(cls.TRACEBACK)
        last = rest.rsplit(cls.TRACEBACK, maxsplit=1)[-1]  # a chained one: the exception raised last
        lines = last.splitlines()
        start = next((i for i, line in enumerate(lines) if line and not line[0].isspace()), len(lines))
        said = " ".join(line.strip() for line in lines[start:] if line.strip())
        before = before.strip()
        return f"{before} ({said})" if before and said else before or said


LOG_TIME = "%Y-%m-%d %H:%M:%S%z"
"""When a log line was written (an operator lines up the logs of several processes by it)."""


def log_config(log_level: str) -> dict[str, Any]:
    """uvicorn's logging configuration, with Coven's loggers (and any other library's warnings, through the
    root logger) on its handler, every record one line, beginning with its time."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    for formatter in config["formatters"].values():  # when, to the second, in the machine's time
        formatter["fmt"] = "%(asctime)s " + formatter["fmt"]
        formatter["datefmt"] = LOG_TIME
    config["filters"] = {"one_line": {"()": OneLineLogs}}
    for handler in config["handlers"].values():
        handler["filters"] = ["one_line"]
    config["loggers"]["coven"] = {"handlers": ["default"], "level": log_level.upper(), "propagate": False}
    config["root"] = {"handlers": ["default"], "level": "WARNING"}
    return config


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    bus: str | None = None,
    bot_pause: float | None = None,
    log_level: str = "info",
    bus_namespace: str | None = None,
    forwarded_allow_ips: str | None = None,
    **tuning: Any,
) -> None:
    """Serve Coven under uvicorn. No database: an SQLite file in the per-user data folder.

    ``bus_namespace``: this deployment's namespace on a shared Redis (default ``$COVEN_BUS_NAMESPACE``,
    else ``coven``); ``tuning``: other :class:`Settings` fields (``node_id``, ``bot_processes``, ...);
    ``forwarded_allow_ips``: the reverse proxies whose ``X-Forwarded-*`` headers are trusted. Raises
    :class:`StartupError` before announcing anything when the bus or the database cannot be used
    (:func:`check_startup`)."""
    import uvicorn

    from coven.server.app import create_app
    from coven.server.framing import protocols
    from coven.server.settings import bus_prefix_for

    settings = Settings(database_url=database, bus_url=bus, **tuning)
    if bus_namespace is not None:
        settings = dataclasses.replace(settings, bus_prefix=bus_prefix_for(bus_namespace))
    if bot_pause is not None:
        settings = dataclasses.replace(settings, bot_pause=bot_pause)
    settings = check_startup(settings)
    url = settings.resolved_database_url()
    shown = "localhost" if host in {"127.0.0.1", "::1", "localhost"} else host
    print(f"Coven is serving on http://{shown}:{port}/  (open it in a browser)", flush=True)
    print(f"database: {redacted_url(url)}", flush=True)
    tune_collector()
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        # HTTP: no cycle left behind at each websocket's upgrade, slow and endless requests let go;
        # websockets: a game's frames in and out without the library's per-frame objects
        **protocols(),
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
        # the transport refuses what the protocol would refuse (close 1009), before buffering it
        ws_max_size=settings.max_frame_bytes,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        ws_per_message_deflate=False,  # small JSON messages: compression costs more CPU than it saves
        log_level=log_level,
        log_config=log_config(log_level),
    )
