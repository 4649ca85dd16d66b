"""The store: a thin, synchronous layer over SQLAlchemy 2 for tables, seats and action logs."""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from operator import itemgetter
from pathlib import Path
from typing import Any, Final, TypeVar

from sqlalchemy import (
    DateTime,
    Engine,
    Float,
    Integer,
    String,
    Text,
    bindparam,
    case,
    cast,
    create_engine,
    delete,
    event,
    func,
    insert,
    literal_column,
    null,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError, OperationalError
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from coven.store.models import ActionRow, ChatRow, SeatRow, TableRow

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK: Final = 0x636F76656E  # "coven"
"""The PostgreSQL advisory lock a schema upgrade holds for its transaction (:meth:`Store.migrate`)."""
_MIGRATION_LOCK = select(func.pg_advisory_xact_lock(MIGRATION_LOCK))


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One thing a seated player said at the table."""

    id: int
    seat: int
    number: int
    text: str

    def to_json(self) -> dict[str, int | str]:
        return {"id": self.id, "seat": self.seat, "number": self.number, "text": self.text}


@dataclass(frozen=True, slots=True)
class PendingStep:
    """One step waiting for a group commit."""

    table_id: str
    number: int
    seat: int
    action: str
    status: str
    bank: float | None = None
    """The mover's clock after the step (seconds), at a table with a clock (see ``ActionRow.bank``)."""

    def __reduce__(self) -> tuple[type[PendingStep], tuple[str, int, int, str, str, float | None]]:
        # pickled as its constructor's arguments, for the store's writer process: a tenth of the time
        # the default way for a frozen dataclass with slots takes (1.8 us a step, measured for issue 12)
        return PendingStep, (self.table_id, self.number, self.seat, self.action, self.status, self.bank)


@dataclass(frozen=True, slots=True)
class PendingClaim:
    """A person taking their seat, waiting for a group commit (see :meth:`Store.claim_seat`)."""

    table_id: str
    seat: int


@dataclass(frozen=True, slots=True)
class PendingTable:
    """A new table waiting for a group commit (see :meth:`Store.create_table`)."""

    table: StoredTable
    owner: str | None = None
    lease_seconds: float = 0.0


PendingWrite = PendingStep | PendingClaim | PendingTable
"""What a group commit writes: steps, claims and new tables, of many tables at once."""
WriteOutcome = bool | tuple[bool, str] | None | Exception
"""What became of a write (:meth:`Store.write_batch`): a step whether it committed, a claim
:meth:`Store.claim_seat`'s answer, a new table None, or the error that refused it."""


class ConflictError(Exception):
    """Another writer committed that step (or changed the table) first; reload and retry."""


_ENDS = bindparam("s") == literal_column("'over'")
_ADVANCE = (
    update(TableRow)
    .where(TableRow.id == bindparam("t"), TableRow.number == bindparam("prev"))
    .values(
        number=bindparam("n"),
        status=bindparam("s"),
        updated_at=bindparam("at"),
        owner=case((_ENDS, null()), else_=TableRow.owner),
        lease_until=case((_ENDS, null()), else_=TableRow.lease_until),
    )
)
"""Move a table on by one step, if it is where the step expects it (a conditional update). The step that
ends the game also ends its owner's lease: a finished table is nobody's (any process loads it to show
it), so the heartbeat's queries, which find a process's tables by owner, never meet the finished ones,
however many there are (with the lease kept, a process renewed a lease on every table it had ever
finished: 47 ms a beat, the store's write lock held, after 200,000 games, measured for issue 12)."""
_GO_ON = (
    update(TableRow)
    .where(
        TableRow.id == bindparam("t"),
        TableRow.number == bindparam("prev"),
        TableRow.status == bindparam("s"),
    )
    .values(number=bindparam("n"), updated_at=bindparam("at"))
)
""":data:`_ADVANCE` for a step after which the game goes on, as nearly every step does (the group commit's
fast path): it writes only the columns a step changes, where the table is at the step's status already.
Naming the status, the owner and the lease in ``SET``, :data:`_ADVANCE` rewrites their index entries for
every step (4 us of the 25 us a step costs in a batch of ten on SQLite here; measured for issue 12). A
table whose row is at another status fails the fast path, which then does it with :data:`_ADVANCE`."""

_MOVED = (
    func.unnest(
        cast(bindparam("t"), ARRAY(String)),
        cast(bindparam("prev"), ARRAY(Integer)),
        cast(bindparam("n"), ARRAY(Integer)),
    )
    .table_valued("t", "prev", "n")
    .render_derived(name="step")
)
_GO_ON_ALL = (
    update(TableRow)
    .where(TableRow.id == _MOVED.c.t, TableRow.number == _MOVED.c.prev, TableRow.status == bindparam("s"))
    .values(number=_MOVED.c.n, updated_at=bindparam("at"))
)
""":data:`_GO_ON` for a whole batch in one statement, its tables, numbers and next numbers as three arrays
(PostgreSQL). A table named twice moves on once: the row count tells, and the batch goes the slow way."""
_LOGGED = (
    func.unnest(
        cast(bindparam("t"), ARRAY(String)),
        cast(bindparam("n"), ARRAY(Integer)),
        cast(bindparam("seat"), ARRAY(Integer)),
        cast(bindparam("a"), ARRAY(Text)),
        cast(bindparam("bank"), ARRAY(Float)),
    )
    .table_valued("t", "n", "seat", "a", "bank")
    .render_derived(name="step")
)
_LOG_ALL = insert(ActionRow).from_select(
    ["table_id", "number", "seat", "action", "created_at", "bank"],
    select(
        _LOGGED.c.t,
        _LOGGED.c.n,
        _LOGGED.c.seat,
        _LOGGED.c.a,
        cast(bindparam("at"), DateTime(timezone=True)),
        _LOGGED.c.bank,
    ),
)
""":data:`_LOG` for a whole batch in one statement (PostgreSQL). With ``executemany`` psycopg sends a
statement per row (pipelined), building and adapting each row's in Python; arrays are adapted whole. With
both statements so, a batch of 20 steps cost this process 32 us of CPU a step instead of 45-64, and the
database's 41-45 instead of 46-67 (measured for issue 12 with :meth:`Store.write_batch` alone; the bench's
noise on PostgreSQL, 25 % between runs, hides it)."""

PROGRESS_CHUNK: Final = 1000
"""Tables named in one query's ``IN`` list (:meth:`Store.progress`, :meth:`Store.rest_tables`,
:meth:`Store.resting_ids`): SQLite binds at most 32,766 values a statement, PostgreSQL 65,535."""


def _chunks(table_ids: Sequence[str]) -> Iterator[list[str]]:
    """``table_ids`` in lists of at most :data:`PROGRESS_CHUNK`, one per query."""
    ids = list(table_ids)
    for start in range(0, len(ids), PROGRESS_CHUNK):
        yield ids[start : start + PROGRESS_CHUNK]


LIVE: Final = ("waiting", "playing")
"""The statuses of a table not over, written out so that the status's index finds them (``!= 'over'``
reads every table ever played)."""
_T = TypeVar("_T")

_CLAIM_LOCK = select(TableRow.status).where(TableRow.id == bindparam("t")).with_for_update()
"""A claim's first statement: the table's row, locked until the claim commits (its status read)."""
_CLAIM_SEAT = (
    update(SeatRow)
    .where(SeatRow.table_id == bindparam("t"), SeatRow.seat == bindparam("place"), SeatRow.claimed.is_(False))
    .values(claimed=bindparam("yes"))
)
_CLAIM_START = (
    update(TableRow)
    .where(
        TableRow.id == bindparam("t"),
        TableRow.status == bindparam("waiting"),
        ~select(SeatRow.seat)
        .where(
            SeatRow.table_id == bindparam("t"), SeatRow.kind == bindparam("human"), SeatRow.claimed.is_(False)
        )
        .exists(),
    )
    .values(status=bindparam("playing"), updated_at=bindparam("at"))
)
"""The last person's claim starts the table: one conditional update (no seat of a person left open)."""
_CLAIM = (_CLAIM_LOCK, _CLAIM_SEAT, _CLAIM_START)
_NEW_TABLE = insert(TableRow).values(
    {
        name: bindparam(name)
        for name in (
            *("id", "game", "players", "options", "seed", "status", "number", "created_at", "updated_at"),
            *("pace", "pace_seconds", "owner", "lease_until"),
        )
    }
)
_NEW_SEATS = insert(SeatRow).values(
    {
        name: bindparam(name)
        for name in ("table_id", "seat", "kind", "name", "bot", "token_hash", "claimed", "stand_in")
    }
)
_CHAT = (
    select(ChatRow.id, ChatRow.seat, ChatRow.number, ChatRow.text)
    .where(ChatRow.table_id == bindparam("t"))
    .order_by(ChatRow.id.desc())
)
"""The lines said at a table, newest first (read when a person joins: every hello; the reader stops at
the lines it wants)."""
_LOG = insert(ActionRow).values(
    table_id=bindparam("table_id"),
    number=bindparam("number"),
    seat=bindparam("seat"),
    action=bindparam("action"),
    created_at=bindparam("created_at"),
    bank=bindparam("bank"),
)


def _released(status: str) -> dict[str, None]:
    """What else a step with ``status`` changes in its table's row: the step that ends the game ends its
    owner's lease (see :data:`_ADVANCE`)."""
    return {"owner": None, "lease_until": None} if status == "over" else {}


def _columns(rows: list[dict[str, Any]], shared: dict[str, Any], **names: str) -> dict[str, Any]:
    """Rows as the parameters of a statement over arrays: each of ``names`` (parameter=member) the list of
    that member of every row, beside the parameters all rows ``shared``."""
    return {**shared, **{param: [row[member] for row in rows] for param, member in names.items()}}


def _log_row(step: PendingStep, now: datetime) -> dict[str, Any]:
    return {
        "table_id": step.table_id,
        "number": step.number,
        "seat": step.seat,
        "action": step.action,
        "created_at": now,
        "bank": step.bank,
    }


class _DriverStatement:
    """A statement compiled once by SQLAlchemy for the engine's dialect, to run on the driver's own
    cursor: its SQL in the driver's parameter style, and each row's parameters converted as SQLAlchemy
    would (an SQLite datetime becomes the text SQLAlchemy reads back)."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        self.sql = str(compiled)
        self.names: list[str] | None = list(compiled.positiontup or ()) if compiled.positional else None
        self.convert: dict[str, Any] = {}
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                self.convert[name] = process
        names = self.names
        # a row's positional parameters in the statement's order, picked in C
        self._pick: Callable[[dict[str, Any]], tuple[Any, ...]] | None = None
        if names is not None:
            self._pick = (lambda row: (row[names[0]],)) if len(names) == 1 else itemgetter(*names)

    def rows(self, params: Sequence[dict[str, Any]]) -> list[Any]:
        """The driver's parameters of each row. A value object that needs converting is converted once
        per call (a batch's rows share their timestamp: it was converted for each row, a tenth of a batch's
        CPU). By identity, not equality: equal values may convert differently (two aware datetimes of one
        instant in different zones), and ``params`` keeps every value alive, so no id is reused."""
        convert = self.convert
        if convert:
            done: dict[tuple[str, int], Any] = {}
            converted = []
            for given in params:
                row = dict(given)
                for name, process in convert.items():
                    if name in row:
                        value = row[name]
                        key = (name, id(value))
                        if key not in done:
                            done[key] = process(value)
                        row[name] = done[key]
                converted.append(row)
            params = converted
        pick = self._pick
        return list(params) if pick is None else [pick(row) for row in params]


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not be reached or dropped the connection (its server down,
    not accepting connections, restarting; SQLite's file locked): not a bug of the caller, and it passes."""
    if isinstance(exc, OperationalError | DisconnectionError):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def hash_token(token: str) -> str:
    """The stored form of a seat's secret token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def default_database_url(data_dir: Path) -> str:
    """The embedded default: an SQLite file in ``data_dir`` (created if missing)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'coven.sqlite3').as_posix()}"


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    kind: str
    name: str
    bot: str | None = None
    token_hash: str | None = None
    claimed: bool = False
    stand_in: bool = False
    """A bot plays this person's seat until they come back (their time ran out)."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    game: str
    players: int
    options: dict[str, bool | int | str]
    seed: int
    status: str
    number: int
    created_at: datetime
    seats: tuple[StoredSeat, ...] = ()
    actions: tuple[tuple[int, str], ...] = field(default=())
    """``(seat, notation)`` of steps 1..number, in order (only when loaded with the log)."""
    pace: str = "none"
    """``none``, ``move`` (a limit per move) or ``clock`` (a bank of time per player)."""
    pace_seconds: int = 0
    banks: tuple[tuple[int, float], ...] = ()
    """With a clock: ``(seat, seconds)``, the time each person had left after their last step (the last
    ``ActionRow.bank`` of their seat; only when loaded with the log)."""


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _normalize_url(url: str) -> str:
    # `postgresql://` means psycopg 3 here (the driver Coven ships), not psycopg2.
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


PG_CONNECT_TIMEOUT = 10
"""Seconds PostgreSQL is given to accept a connection (libpq's ``connect_timeout``), unless the database
URL says otherwise (``?connect_timeout=N``)."""


class Store:
    """Tables, seats and logs in one SQL database. Every method is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = _normalize_url(url)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if not self.shared:
                kwargs["poolclass"] = StaticPool
        elif self.url.startswith("postgresql") and "connect_timeout" not in make_url(self.url).query:
            # libpq waits for a connection as long as the system does (minutes, for a host that drops
            # packets): the start check, and each reconnection after a drop, give up after this instead
            kwargs["connect_args"] = {"connect_timeout": PG_CONNECT_TIMEOUT}
        if self.shared:
            # The connection given back last is the one handed out next (a stack, not a queue): the group
            # commit writes with the same connection batch after batch, and on SQLite a connection's page
            # cache is good only until another connection writes. Taken in turn, the pool's connections
            # each found the others' writes and read again every page a batch touched (20 reads of the file
            # a commit, against 1, and about 8 % less CPU in the commit thread, in coven bench server;
            # measured for issue 12).
            kwargs["pool_use_lifo"] = True
        # No liveness query before each use (``pool_pre_ping``): it would cost a round trip per commit. A
        # connection the database dropped fails its statement, is thrown away by the pool, and the group
        # commit tries once more on a fresh one (:mod:`coven.server.commits`); other work retries on its
        # own next beat or request.
        self.engine: Engine = create_engine(self.url, **kwargs)
        self._advance = _DriverStatement(_ADVANCE, self.engine.dialect)
        self._go_on = _DriverStatement(_GO_ON, self.engine.dialect)
        self._log = _DriverStatement(_LOG, self.engine.dialect)
        self._all: tuple[_DriverStatement, _DriverStatement] | None = None
        """PostgreSQL: a batch's steps in two statements, whatever its size (see :data:`_GO_ON_ALL`)."""
        if self.engine.dialect.name == "postgresql":
            self._all = (
                _DriverStatement(_GO_ON_ALL, self.engine.dialect),
                _DriverStatement(_LOG_ALL, self.engine.dialect),
            )
        self._claim = tuple(_DriverStatement(st, self.engine.dialect) for st in _CLAIM)
        self._new_table = _DriverStatement(_NEW_TABLE, self.engine.dialect)
        self._new_seats = _DriverStatement(_NEW_SEATS, self.engine.dialect)
        self._chat = _DriverStatement(_CHAT, self.engine.dialect)
        self._write_lock: threading.Lock | contextlib.nullcontext[None] = contextlib.nullcontext()
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
            # SQLite has one writer at a time; writers that collide wait in its busy handler by sleeping
            # (up to 100 ms a round). Queueing them here instead keeps every commit prompt.
            self._write_lock = threading.Lock()

    @property
    def shared(self) -> bool:
        """Whether another process can open this store (a file or a database server; not an SQLite
        database in this process's memory)."""
        return not (
            self.url.startswith("sqlite")
            and (":memory:" in self.url or self.url in {"sqlite://", "sqlite:///"})
        )

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic, programmatically).

        On PostgreSQL the upgrade holds an advisory lock (:data:`MIGRATION_LOCK`) for its transaction, so
        that processes starting together on one database upgrade it one after another, each reading the
        revision the one before it left: without it, all read an empty database, all created the tables,
        and all but one failed to start (a duplicate key in PostgreSQL's catalogue)."""
        from alembic import command  # here: a third of the import of this module, for one call a run
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(_MIGRATION_LOCK)
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def revision(self) -> str | None:
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def dispose(self) -> None:
        self.engine.dispose()

    # ---------------------------------------------------------------- writes
    def create_table(self, table: StoredTable, owner: str | None = None, lease_seconds: float = 0.0) -> None:
        """Store a new table; with ``owner``, that process holds its lease for ``lease_seconds`` from the
        start (in the same transaction: what :meth:`acquire_leases` would give it, one commit less)."""
        row, seats = self._new_table_rows(PendingTable(table, owner, lease_seconds))
        with self._write_lock:
            if self._on_driver(lambda cursor: self._create_on(cursor, row, seats)) is not None:
                return
            with self.engine.begin() as conn:  # the same statements through SQLAlchemy, which raises
                conn.execute(_NEW_TABLE, row)
                if seats:
                    conn.execute(_NEW_SEATS, seats)

    @staticmethod
    def _new_table_rows(new: PendingTable) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The rows of a new table and of its seats."""
        table = new.table
        now = _now()
        # a table stored without an owner is an orphan from the start (adopted by the next heartbeat); a
        # lease of NULL means resting (see Store.rest_tables)
        until = now + timedelta(seconds=new.lease_seconds) if new.owner is not None else now
        row = {
            "id": table.id,
            "game": table.game,
            "players": table.players,
            "options": dict(table.options),
            "seed": table.seed,
            "status": table.status,
            "number": 0,
            "created_at": table.created_at,
            "updated_at": now,
            "pace": table.pace,
            "pace_seconds": table.pace_seconds,
            "owner": new.owner,
            "lease_until": until,
        }
        seats = [
            {
                "table_id": table.id,
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "token_hash": s.token_hash,
                "claimed": s.claimed,
                "stand_in": False,
            }
            for s in table.seats
        ]
        return row, seats

    def _create_on(self, cursor: Any, row: dict[str, Any], seats: list[dict[str, Any]]) -> bool:
        """:meth:`create_table`'s statements on the driver's cursor (see :meth:`_on_driver`)."""
        cursor.execute(self._new_table.sql, self._new_table.rows([row])[0])
        if seats:
            cursor.executemany(self._new_seats.sql, self._new_seats.rows(seats))
        return True

    def _on_driver(self, work: Callable[[Any], _T], keep: Callable[[_T], bool] | None = None) -> _T | None:
        """``work(cursor)`` on the driver's own cursor, committed (SQLAlchemy's layers cost more CPU than
        the statements of a small transaction: a claim took about 1.1 ms of CPU through them on SQLite,
        0.2 ms here, measured for issue 12), or rolled back if ``keep`` says its result is not to be kept;
        None, with nothing written, on any error of the driver (a connection the database dropped is thrown
        away): the caller then does the same through SQLAlchemy, which raises as any statement does."""
        dialect = self.engine.dialect
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            try:
                result = work(cursor)
                if keep is None or keep(result):
                    raw.commit()
                else:
                    raw.rollback()
                return result
            except dialect.loaded_dbapi.Error as exc:
                if dialect.is_disconnect(exc, raw.dbapi_connection, cursor):
                    raw.invalidate(exc)
                else:
                    with contextlib.suppress(dialect.loaded_dbapi.Error):
                        raw.rollback()
                return None
            finally:
                with contextlib.suppress(dialect.loaded_dbapi.Error):
                    cursor.close()
        finally:
            raw.close()

    def append_action(
        self, table_id: str, number: int, seat: int, action: str, status: str, bank: float | None = None
    ) -> None:
        """Commit step ``number`` (the table must be at ``number - 1``); raises ConflictError otherwise.
        ``bank``: the mover's clock after it (see ``ActionRow.bank``)."""
        now = _now()
        try:
            with self._write_lock, self.engine.begin() as conn:
                result = conn.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.number == number - 1)
                    .values(number=number, status=status, updated_at=now, **_released(status))
                )
                if result.rowcount != 1:
                    raise ConflictError(f"table {table_id} is not at step {number - 1}")
                conn.execute(
                    insert(ActionRow).values(
                        table_id=table_id, number=number, seat=seat, action=action, created_at=now, bank=bank
                    )
                )
        except IntegrityError as exc:
            raise ConflictError(f"step {number} of table {table_id} exists already") from exc

    def append_actions(self, steps: Sequence[PendingStep]) -> list[bool]:
        """Commit many tables' steps in one transaction (group commit: one sync to disk for all).

        Each step commits only if its table is at ``number - 1`` (a conditional update, as in
        :meth:`append_action`); the result says, step by step, whether it did (False: another writer got
        that step first, nothing of it was written). Steps of one table must come in order.

        The usual case, every step in place, is two statements for the whole batch, compiled once by
        SQLAlchemy and run on the driver's own connection (:meth:`_append_fast`; a commit is the server's
        most frequent write, and SQLAlchemy's layers cost more CPU than the statements). A batch with a
        conflict in it, or any failure there, is rolled back and done again through SQLAlchemy, step by
        step, which raises as any other statement does."""
        if not steps:
            return []
        now = _now()
        advances = [
            {"t": step.table_id, "prev": step.number - 1, "n": step.number, "s": step.status, "at": now}
            for step in steps
        ]
        with self._write_lock:
            if self._append_fast(advances, [_log_row(step, now) for step in steps]):
                return [True] * len(steps)
            done: list[bool] = []
            with self.engine.begin() as conn:
                for params in advances:
                    done.append(conn.execute(_ADVANCE, params).rowcount == 1)
                rows = [_log_row(step, now) for step, ok in zip(steps, done, strict=True) if ok]
                if rows:
                    conn.execute(_LOG, rows)
        return done

    def _append_fast(self, advances: list[dict[str, Any]], logs: list[dict[str, Any]]) -> bool:
        """Both statements of a batch on the driver's cursor, committed if every table was where its
        step expected it; False (nothing written) otherwise, or on any error of the driver (a connection
        the database dropped is thrown away: the caller's slow path takes a fresh one)."""

        return self._on_driver(lambda cursor: self._steps_on(cursor, advances, logs), keep=bool) is True

    def _steps_on(self, cursor: Any, advances: list[dict[str, Any]], logs: list[dict[str, Any]]) -> bool:
        """A batch's steps on the driver's cursor: whether every table was where its step expected it
        (else the caller rolls back: nothing of it is kept)."""
        going_on = [a for a in advances if a["s"] == "playing"]
        ending = [a for a in advances if a["s"] != "playing"]  # (a table's last step: after its others)
        if going_on:
            if self._all is not None:  # one statement for them all
                moved, shared = self._all[0], {"s": "playing", "at": going_on[0]["at"]}
                cursor.execute(
                    moved.sql, moved.rows([_columns(going_on, shared, t="t", prev="prev", n="n")])[0]
                )
            else:
                cursor.executemany(self._go_on.sql, self._go_on.rows(going_on))
            if cursor.rowcount != len(going_on):
                return False
        if ending:
            cursor.executemany(self._advance.sql, self._advance.rows(ending))
            if cursor.rowcount != len(ending):
                return False
        if self._all is not None:
            logged, shared = self._all[1], {"at": logs[0]["created_at"]}
            columns = _columns(logs, shared, t="table_id", n="number", seat="seat", a="action", bank="bank")
            cursor.execute(logged.sql, logged.rows([columns])[0])
        else:
            cursor.executemany(self._log.sql, self._log.rows(logs))
        return True

    def claim_seat(self, table_id: str, seat: int) -> tuple[bool, str]:
        """Mark a seat claimed; start the table when every human seat is. Returns (changed, status).

        The table's row is locked first (``SELECT ... FOR UPDATE``; SQLite serialises writers anyway), so
        claims of one table by several processes at once run one after the other: the last claim always
        sees every earlier one and starts the table, exactly once. (Without the lock, two transactions
        claiming the last two seats each see the other's seat still open, and neither starts it.)
        """
        params = self._claim_params(PendingClaim(table_id, seat))
        with self._write_lock:
            fast = self._on_driver(lambda cursor: self._claim_on(cursor, params))
            if fast is not None:
                return fast
            with self.engine.begin() as conn:  # the same statements through SQLAlchemy, which raises
                locked = conn.execute(_CLAIM_LOCK, params).first()
                if locked is None:
                    return False, "unknown"
                status = str(locked[0])  # nobody changes it before this transaction ends: the row is locked
                changed = conn.execute(_CLAIM_SEAT, params).rowcount == 1
                if status == "waiting" and conn.execute(_CLAIM_START, {**params, "at": _now()}).rowcount == 1:
                    status = "playing"
        return changed, status

    @staticmethod
    def _claim_params(claim: PendingClaim) -> dict[str, Any]:
        return {
            "t": claim.table_id,
            "place": claim.seat,
            "yes": True,
            "waiting": "waiting",
            "human": "human",
            "playing": "playing",
        }

    def _claim_on(self, cursor: Any, params: dict[str, Any]) -> tuple[bool, str]:
        """:meth:`claim_seat`'s statements on the driver's cursor (see :meth:`_on_driver`)."""
        lock, claim, start = self._claim
        cursor.execute(lock.sql, lock.rows([params])[0])
        locked = cursor.fetchone()
        if locked is None:
            return False, "unknown"
        status = str(locked[0])
        cursor.execute(claim.sql, claim.rows([params])[0])
        changed = cursor.rowcount == 1
        if status == "waiting":
            cursor.execute(start.sql, start.rows([{**params, "at": _now()}])[0])
            if cursor.rowcount == 1:
                status = "playing"
        return changed, status

    def write_batch(self, writes: Sequence[PendingWrite]) -> list[WriteOutcome]:
        """New tables, claims and steps of many tables in one transaction (group commit: one sync to disk
        for all); what became of each write, in order (see :data:`WriteOutcome`).

        A batch of steps alone is :meth:`append_actions`. With tables or claims in it, the usual case
        (every step in place) runs on the driver's cursor: the new tables, then the claims, then the
        steps. Otherwise (a step taken by another writer, any error of the driver) nothing of it is
        kept and each part is done on its own, as its own method does it: the steps (which raise
        together if the store fails, before anything else is written, so the batch may be tried again),
        then each table and each claim in its own transaction, an error refusing that write alone."""
        at = [i for i, w in enumerate(writes) if isinstance(w, PendingStep)]  # where each step is
        steps = [w for w in writes if isinstance(w, PendingStep)]
        if len(steps) == len(writes):
            return list(self.append_actions(steps))
        tables = [
            (i, w, *self._new_table_rows(w)) for i, w in enumerate(writes) if isinstance(w, PendingTable)
        ]
        claims = [(i, w, self._claim_params(w)) for i, w in enumerate(writes) if isinstance(w, PendingClaim)]
        now = _now()
        advances = [
            {"t": step.table_id, "prev": step.number - 1, "n": step.number, "s": step.status, "at": now}
            for step in steps
        ]

        def work(cursor: Any) -> list[WriteOutcome] | None:
            done: list[WriteOutcome] = [True] * len(writes)  # (the steps': True if this commits)
            for i, _, row, seats in tables:
                self._create_on(cursor, row, seats)
                done[i] = None
            for i, _, params in claims:
                done[i] = self._claim_on(cursor, params)
            if steps and not self._steps_on(cursor, advances, [_log_row(step, now) for step in steps]):
                return None
            return done

        with self._write_lock:
            fast = self._on_driver(work, keep=lambda done: done is not None)
        if fast is not None:
            return fast
        alone: list[WriteOutcome] = [None] * len(writes)
        if steps:
            for i, committed in zip(at, self.append_actions(steps), strict=True):
                alone[i] = committed
        for i, new, _, _ in tables:
            try:
                self.create_table(new.table, new.owner, new.lease_seconds)
            except Exception as exc:
                alone[i] = exc
        for i, claim, _ in claims:
            try:
                alone[i] = self.claim_seat(claim.table_id, claim.seat)
            except Exception as exc:
                alone[i] = exc
        return alone

    def set_stand_in(self, table_id: str, seat: int, stand_in: bool) -> bool:
        """Let a bot stand in for a person's seat, or give the seat back; True if it changed."""
        with self._write_lock, self.engine.begin() as conn:
            changed = conn.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.stand_in.is_(not stand_in),
                )
                .values(stand_in=stand_in)
            ).rowcount
        return bool(changed == 1)

    def add_chat(self, table_id: str, seat: int, number: int, text: str) -> ChatLine:
        """Keep what ``seat`` said at action ``number``; returns it with its id (1, 2, ... per table)."""
        now = _now()
        for _ in range(5):  # another process may take the same id at the same moment: take the next
            try:
                with self._write_lock, self.engine.begin() as conn:
                    last = conn.execute(
                        select(func.max(ChatRow.id)).where(ChatRow.table_id == table_id)
                    ).scalar_one()
                    line = ChatLine(int(last or 0) + 1, seat, number, text)
                    conn.execute(
                        insert(ChatRow).values(
                            table_id=table_id, id=line.id, seat=seat, number=number, text=text, created_at=now
                        )
                    )
                return line
            except IntegrityError:
                continue
        raise ConflictError(f"table {table_id}'s chat is too busy")

    def chat(self, table_id: str, limit: int = 200) -> list[ChatLine]:
        """The last ``limit`` lines said at the table, oldest first (read on the driver's cursor, see
        :meth:`_on_driver`)."""
        params = {"t": table_id}

        def read(cursor: Any) -> list[Any]:
            cursor.execute(self._chat.sql, self._chat.rows([params])[0])
            return list(cursor.fetchmany(limit)) if limit > 0 else []

        rows = self._on_driver(read)
        if rows is None:
            with self.engine.connect() as conn:
                rows = list(conn.execute(_CHAT.limit(limit), params).all())
        return [ChatLine(int(i), int(s), int(n), str(t)) for i, s, n, t in reversed(rows)]

    # ----------------------------------------------------------------- reads
    def load_table(self, table_id: str, with_log: bool = True) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(TableRow).where(TableRow.id == table_id)).first()
            if row is None:
                return None
            seats = conn.execute(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            ).all()
            actions: Sequence[Any] = ()
            if with_log:
                actions = conn.execute(
                    select(ActionRow.seat, ActionRow.action, ActionRow.bank)
                    .where(ActionRow.table_id == table_id)
                    .order_by(ActionRow.number)
                ).all()
        return _stored(row, seats, actions)

    def actions_after(self, table_id: str, number: int) -> list[tuple[int, int, str]]:
        """``(number, seat, notation)`` of the steps after ``number``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ActionRow.number, ActionRow.seat, ActionRow.action)
                .where(ActionRow.table_id == table_id, ActionRow.number > number)
                .order_by(ActionRow.number)
            ).all()
        return [(int(n), int(s), str(a)) for n, s, a in rows]

    def list_tables(self, limit: int = 50) -> list[StoredTable]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(TableRow).order_by(TableRow.created_at.desc(), TableRow.id).limit(limit)
            ).all()
            ids = [r.id for r in rows]
            seats = conn.execute(
                select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
            ).all()
        by_table: dict[str, list[Any]] = {}
        for s in seats:
            by_table.setdefault(s.table_id, []).append(s)
        return [_stored(r, by_table.get(r.id, []), ()) for r in rows]

    # ---------------------------------------------------------------- leases
    def acquire_leases(self, node: str, table_ids: Sequence[str], seconds: float) -> set[str]:
        """Take the lease of each unfinished table in ``table_ids`` that nobody holds, ``node`` holds
        already, or whose lease has run out; returns the ids ``node`` holds now (for ``seconds``).

        One conditional update: two processes adopting the same orphan at once cannot both get it."""
        if not table_ids:
            return set()
        now = _now()
        until = now + timedelta(seconds=seconds)
        free = or_(TableRow.owner.is_(None), TableRow.owner == node, TableRow.lease_until < now)
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(
                update(TableRow)
                .where(TableRow.id.in_(list(table_ids)), TableRow.status.in_(LIVE), free)
                .values(owner=node, lease_until=until)
            )
            rows = conn.execute(
                select(TableRow.id).where(TableRow.id.in_(list(table_ids)), TableRow.owner == node)
            ).all()
        return {str(r[0]) for r in rows}

    def renew_leases(self, node: str, seconds: float) -> set[str]:
        """The heartbeat: extend every lease ``node`` still holds; returns the ids of those tables (a
        table another process adopted meanwhile is no longer among them)."""
        until = _now() + timedelta(seconds=seconds)
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(
                update(TableRow)
                .where(TableRow.owner == node, TableRow.status.in_(LIVE))
                .values(lease_until=until)
            )
            rows = conn.execute(
                select(TableRow.id).where(TableRow.owner == node, TableRow.status.in_(LIVE))
            ).all()
        return {str(r[0]) for r in rows}

    def release_leases(self, node: str) -> None:
        """A clean shutdown: let others adopt ``node``'s tables at once (their leases end now; a finished or
        resting table holds none)."""
        ended = _now() - timedelta(seconds=1)
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(
                update(TableRow)
                .where(TableRow.owner == node, TableRow.status.in_(LIVE))
                .values(owner=None, lease_until=ended)
            )

    def rest_tables(self, node: str, table_ids: Sequence[str]) -> set[str]:
        """``node`` lets go of its live tables ``table_ids``, which wait on nobody a server moves for: each
        rests (no owner, no lease: ``lease_until`` NULL), so no heartbeat adopts it, and whichever process
        next loads it to show it takes its lease (:meth:`acquire_leases`). Returns those that rest now (not
        one ``node`` does not hold, nor one that is over). One transaction, in parts of
        :data:`PROGRESS_CHUNK`."""
        rested: set[str] = set()
        if not table_ids:
            return rested
        with self._write_lock, self.engine.begin() as conn:
            for chunk in _chunks(table_ids):
                mine = (TableRow.id.in_(chunk), TableRow.owner == node, TableRow.status.in_(LIVE))
                resting = update(TableRow).where(*mine).values(owner=None, lease_until=None)
                rested.update(str(r[0]) for r in conn.execute(resting.returning(TableRow.id)).all())
        return rested

    def orphaned_ids(self, limit: int = 200) -> list[str]:
        """Unfinished tables whose owner's lease has run out (a resting table has none: it is not an
        orphan), read from the lease's index."""
        now = _now()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(TableRow.id)
                .where(TableRow.lease_until < now, TableRow.status.in_(LIVE))
                .order_by(TableRow.lease_until)
                .limit(limit)
            ).all()
        return [str(r[0]) for r in rows]

    def progress(self, table_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """Each table's committed step number and status (is a process behind?): one query per
        :data:`PROGRESS_CHUNK` tables (SQLite binds at most 32,766 values a statement, PostgreSQL 65,535:
        one ``IN`` list of every live table failed past that, and the heartbeat with it)."""
        rows: list[Any] = []
        with self.engine.connect() as conn:
            for chunk in _chunks(table_ids):  # a database binds only so many values
                query = select(TableRow.id, TableRow.number, TableRow.status).where(TableRow.id.in_(chunk))
                rows.extend(conn.execute(query).all())
        return {str(i): (int(n), str(st)) for i, n, st in rows}

    def resting_ids(self, table_ids: Sequence[str]) -> set[str]:
        """Which of ``table_ids`` rest (live, no owner, no lease: see :meth:`rest_tables`), asked in parts
        as :meth:`progress` is."""
        found: set[str] = set()
        with self.engine.connect() as conn:
            for chunk in _chunks(table_ids):
                query = select(TableRow.id).where(
                    TableRow.id.in_(chunk),
                    TableRow.status.in_(LIVE),
                    TableRow.lease_until.is_(None),
                )
                found.update(str(r[0]) for r in conn.execute(query).all())
        return found

    def expire_unjoined(self, created_before: datetime, limit: int = PROGRESS_CHUNK) -> list[str]:
        """Delete the tables made before ``created_before`` that nobody ever joined (still waiting, no
        person's seat claimed) and that no process holds (no lease, or one run out), with their seats:
        their ids, at most ``limit`` a call (one short transaction). A table someone has sat down at is
        never expired: they can always get back to their seat.

        The conditions are checked by the ``DELETE`` itself: a claim committed meanwhile keeps its table."""
        now = _now()
        claimed = (
            select(SeatRow.seat)
            .where(SeatRow.table_id == TableRow.id, SeatRow.kind == "human", SeatRow.claimed.is_(True))
            .exists()
        )
        unjoined = (
            TableRow.status == "waiting",
            TableRow.created_at < created_before,
            or_(TableRow.lease_until.is_(None), TableRow.lease_until < now),
            ~claimed,
        )
        with self._write_lock, self.engine.begin() as conn:
            found = [str(r[0]) for r in conn.execute(select(TableRow.id).where(*unjoined).limit(limit)).all()]
            if not found:
                return []
            going = delete(TableRow).where(TableRow.id.in_(found), *unjoined).returning(TableRow.id)
            return sorted(str(r[0]) for r in conn.execute(going).all())  # (seats go too: ON DELETE CASCADE)

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(TableRow.id).where(TableRow.status.in_(LIVE)).order_by(TableRow.created_at)
            ).all()
        return [str(r[0]) for r in rows]


def _stored(t: Any, seats: Sequence[Any], actions: Sequence[Any]) -> StoredTable:
    return StoredTable(
        id=t.id,
        game=t.game,
        players=t.players,
        options=dict(t.options),
        seed=int(t.seed),
        status=t.status,
        number=int(t.number),
        created_at=_aware(t.created_at),
        seats=tuple(
            StoredSeat(s.seat, s.kind, s.name, s.bot, s.token_hash, bool(s.claimed), bool(s.stand_in))
            for s in seats
        ),
        actions=tuple((int(s), str(a)) for s, a, _ in actions),
        pace=str(t.pace),
        pace_seconds=int(t.pace_seconds),
        banks=tuple({int(s): float(b) for s, _, b in actions if b is not None}.items()),
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    # WAL + FULL: the server acknowledges a move only once it is committed, so a commit must survive
    # a power loss too (NORMAL would only survive a crash of the process). FULL syncs the WAL on each
    # commit; WAL still spares readers and the main database file those syncs.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()
