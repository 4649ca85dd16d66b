"""Live tables: the authoritative state of each game, its numbered log, its listeners and its bots.

What a table shows each seat is :mod:`coven.server.table`'s (:class:`~coven.server.table.Table`); this
module owns the tables of a process, and does everything that waits: the store, the bus, the bots.

Per table, actions are applied one at a time under an asyncio lock: check on a clone, commit the step to
the store (in a worker thread), and only then swap the state in, acknowledge and fan out. The database
is the single source of truth: a step number is a primary key, so two processes racing for a step
collide and the loser reloads. After a restart, a table is rebuilt by replaying its log.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
import uuid
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from coven.bots.arena import make_bot
from coven.bus import RESYNC, Bus, make_bus
from coven.core import (
    AnyGame,
    GameError,
    InvalidOptionError,
    NotationError,
    Seat,
    UnknownBotError,
)
from coven.core.driver import decisions
from coven.core.errors import short_repr
from coven.core.texts import Texts
from coven.server.botpool import BotPool
from coven.server.commits import GroupCommit
from coven.server.limits import Counts, SeatLimits
from coven.server.messages import PROTOCOL_VERSION, ErrorCode, ProtocolError, dumps, reason_json, shorten
from coven.server.schemas import HealthOut
from coven.server.settings import GameSource, Settings
from coven.server.table import Ack, Table, Taken
from coven.store import (
    ChatLine,
    ConflictError,
    PendingStep,
    PendingTable,
    Store,
    StoredSeat,
    StoredTable,
    hash_token,
)

log = logging.getLogger("coven.server")


EXPIRE_EVERY = 3600.0
"""Seconds between two looks for tables nobody joined (see :meth:`TableService._expire_unjoined`)."""
_MIN_WAKE = 0.05  # seconds: the shortest sleep of a table's driver between two looks at the table

ActionSource = Callable[[AnyGame], Hashable]
"""Produces the action to apply (parsing happens under the table's lock, against its game)."""


PACES = ("none", "move", "clock")
"""A table's pace: no limit, a limit for each move, or a clock (a bank of time) for each person."""

REFUSALS = Texts(
    {
        "refusal.table.pace": "pace is one of {paces}, not {value}",
        "refusal.table.pace_seconds": "pace_seconds is {min} to {max} for a table with a pace",
        "refusal.table.seats": "give one seat per player: {players} players, {seats} seats",
    }
)
"""Why the server refuses a new table, beside the game's own refusals (:mod:`coven.core.refusals`)."""
STAND_INS = ("greedy", "random")
"""The bot that plays an absent person's seat: the first of these the game has (all have ``random``)."""


def stand_in_bot(game: AnyGame) -> str:
    bots = game.bots()
    return next((name for name in STAND_INS if name in bots), next(iter(bots)))


CHAT_KEPT = 200
"""The lines of a table's chat a hello shows (the last ones)."""


@dataclass(frozen=True, slots=True)
class SeatRequest:
    kind: str
    name: str | None = None
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Invite:
    seat: Seat
    name: str
    token: str


@dataclass(slots=True)
class Routed:
    """A person's move sent to its table's owning process, waiting for the owner's answer."""

    seat: Seat
    action: Hashable
    """The move as read here, its time unstamped: the step that comes back is recognised by it."""
    ack: Ack | None
    answer: asyncio.Future[dict[str, Any]]
    delivered: bool = False
    """The step came back (its update carried the acknowledgement): nothing more to send."""


class TableService:
    """Owns the live tables of this process, the store and the bus."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.games: GameSource = settings.game_source()
        self.store = Store(settings.resolved_database_url())
        self.commits = GroupCommit(
            self.store, interval=settings.commit_interval, process=settings.commit_process
        )
        self.node = settings.node_id or uuid.uuid4().hex[:12]
        self.life = uuid.uuid4().hex[:12]
        """This process's own mark beside its node id on the bus: a notice with our id and another mark
        comes from another process running under the same id (a misconfiguration, said in the log)."""
        self.twin_seen = False
        self.bus: Bus = make_bus(settings.bus_url, settings.bus_prefix, name=f"coven-{self.node}")
        self.tables: dict[str, Table] = {}
        """Tables in this process's memory: those it owns, and replicas of others' that its own
        connections watch (kept up to date by the bus and the store)."""
        self.owned: set[str] = set()
        """Ids of the tables whose lease this process holds: it alone runs their bots."""
        self._loading: dict[str, asyncio.Lock] = {}
        self._routed: dict[str, list[Routed]] = {}
        """Per table, the moves of this process's people sent to the table's owner, not yet answered."""
        self._requests: dict[str, Routed] = {}
        """The same moves by request id (the owner's answer names it)."""
        self._serving: set[asyncio.Task[None]] = set()
        """Moves other processes sent to this one, as the tables' owner, being taken."""
        self._heartbeat: asyncio.Task[None] | None = None
        self.spectators = Counts(settings.spectators_per_table)
        """Per table id, the spectators this process serves now, at most ``spectators_per_table`` each: a
        connection without a seat enters before it is welcomed, and leaves when it closes."""
        self.chat_limits = SeatLimits(settings.chat_limit, settings.chat_burst)
        """Per table in memory, each seat's chat lines (each is a write to the store, kept with the table):
        one bucket for all of the seat's sockets here, forgotten when the table leaves memory."""
        self._seen: dict[str, float] = {}
        """Per table in memory, when it was last opened or watched here (see :meth:`_rest_idle`)."""
        self._expired_at = -float("inf")
        """When (monotonic) the heartbeat last looked for tables nobody joined."""
        self.renewed_at = time.monotonic()
        """When (monotonic) this process last renewed its leases in the store (or started)."""
        processes = settings.bot_processes if settings.games is None else 0  # workers know REGISTRY only
        self.bot_pool = BotPool(processes, settings.bot_threads, settings.bot_budget_seconds)
        self._started = False

    # -------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        self.renewed_at = time.monotonic()
        await asyncio.to_thread(self.store.migrate)
        self.commits.start()  # the writer process starts beside what follows, not on the first move
        await self.bus.start()
        self.bus.subscribe(self._on_bus)
        # tables whose owner is gone, and those still leased to this node id: a process restarted under
        # the same id (a service manager's restart) finds its last life's leases still running, renewed
        # until it died; nobody else may adopt them before they run out, and its heartbeat would renew
        # them for ever without driving them (seen by an operator's pass for issue 12: bot tables stuck
        # for good, every health check ok)
        ours = await asyncio.to_thread(self.store.renew_leases, self.node, self.settings.lease_seconds)
        await self._adopt_orphans(also=ours)
        self._heartbeat = asyncio.create_task(self._beat(), name="coven-heartbeat")
        self._started = True

    async def stop(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        self.bus.unsubscribe(self._on_bus)
        for table in self.tables.values():
            if table.driver is not None:
                table.driver.cancel()
        for table in self.tables.values():
            if table.driver is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.driver
        await self.bus.close()
        await self.bot_pool.close()
        try:  # hand our tables over at once rather than when the leases run out
            await asyncio.to_thread(self.store.release_leases, self.node)
        except Exception:
            log.warning("could not release the leases of %s; they run out on their own", self.node)
        self.owned.clear()
        await asyncio.to_thread(self.commits.close)
        await asyncio.to_thread(self.store.dispose)

    def health(self) -> HealthOut:
        """How this process is (``GET /api/health``): whether it can serve its tables (it renews its leases
        in the store and, where processes share tables, hears the others over the bus), and what it
        holds. See :class:`coven.server.schemas.HealthOut`."""
        since = time.monotonic() - self.renewed_at
        store = "ok" if since <= self.settings.lease_seconds else "unreachable"
        bus = "local" if not self.bus.reaches_others else "ok" if self.bus.listening else "reconnecting"
        turns = self.bot_pool.turns
        return HealthOut(
            ok=store == "ok" and bus != "reconnecting",
            protocol=PROTOCOL_VERSION,
            games=list(self.games.ids()),
            node=self.node,
            store=store,
            bus=bus,
            lease_renewed_s=round(since, 3),
            tables=len(self.tables),
            owned=len(self.owned),
            connections=sum(len(t.listeners) for t in self.tables.values()),
            bots_thinking=turns.slots - turns.free,
            bots_waiting=turns.waiting,
        )

    # ------------------------------------------------------------ ownership
    async def _beat(self) -> None:
        """Renew our leases, adopt orphans, let finished tables go; never dies of a failing database."""
        while True:
            await asyncio.sleep(self.settings.heartbeat_seconds)
            try:
                await self._renew()
                await self._adopt_orphans()
                await self._catch_up_behind()
                self._evict_finished()
                await self._rest_idle()
                await self._expire_unjoined()
            except Exception as exc:  # the database may be away for a moment: try again next beat
                log.warning("heartbeat of %s failed: %s", self.node, exc)

    async def _renew(self) -> None:
        asked = set(self.owned)
        held = await asyncio.to_thread(self.store.renew_leases, self.node, self.settings.lease_seconds)
        self.renewed_at = time.monotonic()
        # Only a table we owned when we asked can have been lost (adopted by another process: we were too
        # slow; or over). A table created here while the store answered is ours whether or not the answer
        # saw it: taking the answer for the whole set dropped it, stopped its bots, and left it stuck with
        # its lease still ours, renewed at every beat after (seen in the two-process test).
        lost = asked - held
        for table_id in lost:
            table = self.tables.get(table_id)
            if table is not None and table.driver is not None:
                table.driver.cancel()
                table.driver = None
        self.owned -= lost

    async def _adopt_orphans(self, also: Iterable[str] = ()) -> None:
        """Take the lease of the tables whose owner's lease ran out, and of the tables watched here that
        rest (their owner let them go while people here watched: see :meth:`_rest_idle`), and of ``also``,
        and drive them."""
        orphans = await asyncio.to_thread(self.store.orphaned_ids)
        orphans.extend(table_id for table_id in also if table_id not in orphans)
        tables = self.tables.values()
        watched = [t.id for t in tables if t.listeners and t.status != "over" and t.id not in self.owned]
        if watched:  # (only where processes share tables: a lone process owns every table it holds)
            orphans.extend(await asyncio.to_thread(self.store.resting_ids, watched))
        lease = self.settings.lease_seconds
        got = await asyncio.to_thread(self.store.acquire_leases, self.node, orphans, lease)
        for table_id in sorted(got):
            self.owned.add(table_id)
            table = self.tables.get(table_id)
            try:
                if table is None:
                    await self.get(table_id)  # loads (replaying the log) and starts the bots
                    continue
                async with table.lock:  # a replica we watched: bring it up to date, then drive it
                    await self._refresh_seats_locked(table)
                    await self._catch_up_locked(table)
                self._start_driver(table)
            except Exception:  # a game no longer installed, a corrupt log: keep serving the rest
                log.exception("could not adopt table %s", table_id)
                self.owned.discard(table_id)

    async def _catch_up_behind(self) -> None:
        """The safety net under the bus: any live table whose log in the store is ahead of ours (a notice
        lost on the way) catches up, so nobody waits on a move this process did not hear of."""
        live = [t.id for t in self.tables.values() if t.status != "over"]
        committed = await asyncio.to_thread(self.store.progress, live)
        for table_id, (number, status) in committed.items():
            table = self.tables.get(table_id)
            if table is None or (number, status) == (table.number, table.status):
                continue
            async with table.lock:
                if table.status == "waiting":
                    await self._refresh_seats_locked(table)
                await self._catch_up_locked(table)
            table.wake.set()

    def _evict_finished(self) -> None:
        """Finished tables that nobody here watches leave memory (the store serves them on demand)."""
        for table in list(self.tables.values()):
            self.let_go_if_finished(table)

    def let_go_if_finished(self, table: Table) -> None:
        """``table`` leaves memory if it is over and nobody here watches it: its last connection closed
        (see :func:`coven.server.ws.table_socket`), or at the next heartbeat. At once, rather than at the
        next beat, finished tables do not pile up between beats (at 30 games a second, 60 of them, about
        150 kB each for The 3 Commandments): the server's memory follows the tables in play."""
        table_id = table.id
        if (
            table.status == "over"
            and not table.listeners
            and not table.lock.locked()
            and self.tables.get(table_id) is table
        ):
            del self.tables[table_id]
            self.owned.discard(table_id)
            self._seen.pop(table_id, None)
            self.chat_limits.forget(table_id)

    async def _expire_unjoined(self) -> None:
        """Once every :data:`EXPIRE_EVERY` seconds, delete the tables nobody joined within
        ``settings.expire_days`` of their making (:meth:`Store.expire_unjoined`), in parts."""
        days = self.settings.expire_days
        now = time.monotonic()
        if days <= 0 or now - self._expired_at < EXPIRE_EVERY:
            return
        self._expired_at = now
        before = datetime.now(UTC) - timedelta(days=days)
        expired = 0  # (none is in any process's memory: a table there is held, with a lease)
        while part := await asyncio.to_thread(self.store.expire_unjoined, before):
            expired += len(part)
        if expired:
            log.info("%d tables nobody joined within %g days were deleted", expired, days)

    async def _rest_idle(self) -> None:
        """Live tables nobody here has watched or opened for ``settings.rest_seconds`` leave memory.

        A replica (another process owns the table) simply goes. A table this process owns goes only while
        its game waits on nobody this process moves for (no bot's turn, no clock running), and it rests:
        its lease is let go in the store (:meth:`Store.rest_tables`, one transaction for all of them), so
        no heartbeat adopts it, and the next process to open it (:meth:`get`), or a process whose people
        watch it (:meth:`_adopt_orphans`), takes its lease and drives it again."""
        after = self.settings.rest_seconds
        if after <= 0:
            return
        now = time.monotonic()
        resting: dict[str, asyncio.Lock] = {}
        for table_id, table in list(self.tables.items()):
            if table.status == "over":
                continue
            if table.listeners:
                self._seen[table_id] = now
                continue
            seen = max(self._seen.setdefault(table_id, now), table.changed_at)
            if now - seen < after or table.lock.locked() or table_id in self._routed:
                continue
            owned = table_id in self.owned
            if owned and not self._waits_on_nobody(table):
                continue
            lock = self._loading.setdefault(table_id, asyncio.Lock())
            if lock.locked():  # (being loaded again by a get that found it gone: not now)
                continue
            # out of memory at once: a get from here on waits on the loading lock (taken here without
            # yielding, since nobody holds it) for the store's answer, then loads the table afresh
            del self.tables[table_id]
            self._seen.pop(table_id, None)
            self.chat_limits.forget(table_id)
            if not owned:
                del self._loading[table_id]
                continue
            self.owned.discard(table_id)
            if table.driver is not None:
                table.driver.cancel()
                table.driver = None
            await lock.acquire()
            resting[table_id] = lock
        if not resting:
            return
        try:
            await asyncio.to_thread(self.store.rest_tables, self.node, list(resting))
        except Exception:  # their leases stay ours, renewed: opening one takes it back
            log.exception("could not let %d tables rest", len(resting))
        finally:
            for table_id, lock in resting.items():
                lock.release()
                if self._loading.get(table_id) is lock:
                    del self._loading[table_id]

    def _waits_on_nobody(self, table: Table) -> bool:
        """Whether ``table``'s game waits on nobody this process moves for: no bot has a decision (now, or
        by choice once people had their look) and no person's clock or time limit runs."""
        if table.status != "playing":
            return table.status == "waiting"
        if self._seconds_to_deadline(table) is not None:
            return False
        if not table.bots:
            return True
        for seat, required in decisions(table.game, table.state, table.last_mover):
            if seat in table.bots and (required or self._bot_may_choose(table, seat)):
                return False
        return True

    # ---------------------------------------------------------------- tables
    async def create(
        self,
        game_id: str,
        players: int,
        options: dict[str, Any],
        seats: list[SeatRequest] | None,
        pace: str = "none",
        pace_seconds: int = 0,
        creator: str | None = None,
    ) -> tuple[Table, list[Invite]]:
        """A new table; its deal's seed comes from ``settings.deal_seeds`` (never from a client).
        ``creator``: who asks for it (see :attr:`Table.creator`)."""
        if pace not in PACES:
            raise InvalidOptionError(
                REFUSALS("refusal.table.pace", paces=", ".join(PACES), value=short_repr(pace))
            )
        if pace != "none" and not 5 <= pace_seconds <= 86_400:
            raise InvalidOptionError(REFUSALS("refusal.table.pace_seconds", min=5, max=86_400))
        game = self.games.get(game_id)  # UnknownGameError
        game.spec.check_players(players)
        resolved = game.spec.resolve_options(options, typed=True)  # JSON's types: no "yes" for a flag
        game.validate_options(players, resolved)
        if seats is None:
            seats = [SeatRequest("human")] + [SeatRequest("bot", bot="random")] * (players - 1)
        if len(seats) != players:
            raise InvalidOptionError(REFUSALS("refusal.table.seats", players=players, seats=len(seats)))
        bots = game.bots()
        stored_seats: list[StoredSeat] = []
        invites: list[Invite] = []
        for i, request in enumerate(seats):
            if request.kind == "bot":
                if request.bot not in bots:
                    known = ", ".join(sorted(bots))
                    raise UnknownBotError(f"{game.spec.title} has no bot {request.bot!r} (bots: {known})")
                name = request.name or f"{request.bot} bot"
                stored_seats.append(StoredSeat(i, "bot", name, request.bot, None, True))
            else:
                token = secrets.token_urlsafe(24)
                name = request.name or f"Player {i + 1}"
                stored_seats.append(StoredSeat(i, "human", name, None, hash_token(token), False))
                invites.append(Invite(i, name, token))
        seed = self.settings.deal_seeds()
        state = game.setup(players, resolved, seed)
        status = "waiting" if invites else "playing"
        stored = StoredTable(
            id=secrets.token_urlsafe(9),
            game=game.spec.id,
            players=players,
            options=resolved,
            seed=seed,
            status=status,
            number=0,
            created_at=datetime.now(UTC),
            seats=tuple(stored_seats),
            pace=pace,
            pace_seconds=pace_seconds if pace != "none" else 0,
        )
        # stored with this process's lease on it, in the next group commit (one sync to disk for both, and
        # for whatever else is being written)
        await self.commits.create(PendingTable(stored, self.node, self.settings.lease_seconds))
        self.owned.add(stored.id)
        table = self._runtime(stored, game, state)
        table.creator = creator
        table.chat = []  # nobody has said anything at a new table
        self.tables[table.id] = table
        self._seen[table.id] = time.monotonic()
        self._start_driver(table)
        return table, invites

    def _runtime(self, stored: StoredTable, game: AnyGame, state: Any) -> Table:
        table = Table(
            id=stored.id,
            game=game,
            players=stored.players,
            options=dict(stored.options),
            seed=stored.seed,
            status=stored.status,
            seats=list(stored.seats),
            created_at=stored.created_at,
            state=state,
            pace=stored.pace,
            pace_seconds=stored.pace_seconds,
        )
        for s in stored.seats:
            if s.kind == "bot" and s.bot is not None and stored.status != "over":
                factory = game.bots().get(s.bot)
                if factory is not None:
                    # a bot's randomness is its own, drawn apart from the deal (replaying the log never
                    # needs it: the log holds every action the bot chose); a finished table has no bots
                    # (it is loaded to be looked at: its record, its replay)
                    seed = self.settings.bot_seeds()
                    table.bots[s.seat] = factory(game, s.seat, seed)
                    table.bot_seeds[s.seat] = seed
        self._sync_stand_ins(table)
        return table

    async def get(self, table_id: str) -> Table | None:
        """The live table, loaded from the store (and replayed) if this process has not got it yet."""
        table = self.tables.get(table_id)
        if table is not None:
            self._seen[table_id] = time.monotonic()
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                table = self.tables.get(table_id)
                return table if table is not None else await self._load(table_id)
        finally:
            if not lock.locked() and self._loading.get(table_id) is lock:
                del self._loading[table_id]

    async def peek(self, table_id: str) -> Table | None:
        """The table as it stands, to be looked at and let go (None: no such table): the one in memory,
        else one read from the store and replayed for the look alone. A table that rests stays so (not
        loaded, no lease taken, no bots driven): the lobby's list of a person's tables asks after every
        one of them at each visit."""
        table = self.tables.get(table_id)
        return table if table is not None else await self._read(table_id)

    async def _read(self, table_id: str) -> Table | None:
        """``table_id`` read from the store and replayed, not kept (None: no such table)."""
        stored = await asyncio.to_thread(self.store.load_table, table_id)
        if stored is None:
            return None
        return await asyncio.to_thread(self._replay, stored)

    async def _load(self, table_id: str) -> Table | None:
        """Load ``table_id`` from the store into memory (None: no such table). A live table whose lease
        nobody holds (it rests, or its owner is gone) becomes this process's, which drives it."""
        table = await self._read(table_id)
        if table is None:
            return None
        if table.status != "over" and table_id not in self.owned:
            lease = self.settings.lease_seconds
            if table_id in await asyncio.to_thread(self.store.acquire_leases, self.node, [table_id], lease):
                self.owned.add(table_id)
        loaded = self.tables.get(table_id)
        if loaded is not None:  # loaded meanwhile (under another lock: one taken while the table rested)
            self._start_driver(loaded)  # (if ours now)
            return loaded
        self.tables[table_id] = table
        self._seen[table_id] = time.monotonic()
        self._start_driver(table)
        return table

    def _replay(self, stored: StoredTable) -> Table:
        game = self.games.get(stored.game)
        state = game.setup(stored.players, dict(stored.options), stored.seed)
        table = self._runtime(stored, game, state)
        for seat, notation in stored.actions:
            table.record(table.replayed(seat, notation))
        if table.pace == "clock":  # each person's clock as their last step left it (a new owner, a restart)
            table.banks.update(stored.banks)
            for s in table.seats:
                if s.stand_in:  # (a bot stands in only for a person whose time ran out)
                    table.banks[s.seat] = 0.0
        return table

    async def list_tables(self, limit: int = 50) -> list[StoredTable]:
        stored = await asyncio.to_thread(self.store.list_tables, limit)
        out = []
        for s in stored:  # prefer the live facts of tables this process holds
            live = self.tables.get(s.id)
            if live is None:
                out.append(s)
                continue
            out.append(
                dataclasses.replace(s, status=live.status, number=live.number, seats=tuple(live.seats))
            )
        return out

    # ----------------------------------------------------------------- seats
    async def claim(self, table: Table, seat: Seat) -> None:
        if table.seats[seat].claimed:
            return
        async with table.lock:
            if table.seats[seat].claimed:
                return
            _, status = await self.commits.claim(table.id, seat)
            old = table.seats[seat]
            table.seats[seat] = StoredSeat(old.seat, old.kind, old.name, old.bot, old.token_hash, True)
            started = table.status == "waiting" and status == "playing"
            if status == "playing" and not all(s.claimed for s in table.seats):
                # started: every person's seat is claimed, some through other processes whose notices
                # have not reached this one (or came while it loaded the table, and went unheard); the
                # seats it showed stayed unclaimed for the whole game (seen by an operator's pass for
                # issue 12: three people joining at once through three processes). The store's seats and
                # status, shown, the table woken if it started
                await self._refresh_seats_locked(table)
                started = False
            else:
                table.status = status
                await self._show_seats(table, started)
        if started:
            table.wake.set()
        await self._publish({"kind": "seats", "table": table.id})

    async def _show_seats(self, table: Table, started: bool) -> None:
        """Show every listener the seats and status just changed (the caller holds the table's lock): one
        ``table`` frame for all, with the pace as it is now (:meth:`Table.table_message`: a bot standing in
        for a person, or stepping aside, changes whose time runs). When the table has just ``started``,
        the first move begins: every listener also needs its legal actions, in a catch-up sync with none
        missed (the views derived first, see :meth:`derive_views`), and the pace counts from then, in the
        ``table`` frame as in the syncs."""
        if started:
            await self.derive_views(table, table.listening_seats())
            table.changed_at = time.monotonic()
        table.forget()
        table.broadcast(table.table_message())
        if started:
            for listener in list(table.listeners):
                message = table.sync_message(listener.seat, table.number, self.settings.legal_cap)
                listener.send_text(dumps(message))

    async def sync_text(self, table: Table, seat: Seat | None, last: int | None) -> str:
        """``seat``'s ``sync`` message since ``last`` (see :meth:`Table.sync_message`) as JSON, its view
        derived first (see :meth:`derive_views`); the caller holds the table's lock."""
        await self.derive_views(table, (seat,))
        return table.sync_text(seat, last, self.settings.legal_cap)

    # --------------------------------------------------------------- actions
    async def submit(
        self,
        table: Table,
        seat: Seat,
        number: int,
        source: ActionSource,
        ack: Ack | None = None,
        animation_ms: int | None = None,
    ) -> None:
        """A person's move, from a connection of this process: taken here if this process owns the table
        (or is the only one), else sent over the bus to the owning process, which takes it as its own
        moves, one at a time. Raises ProtocolError and changes nothing if the move is refused.

        The step comes back as every step does (the owner's notice, then a catch-up from the store), and
        its update carries the acknowledgement. If the owner does not answer within
        ``settings.route_seconds`` (it died; adoption takes a few seconds), the move is committed here:
        the database's conditional update keeps one step from being taken twice."""
        if not (self.bus.reaches_others and table.status == "playing" and table.id not in self.owned):
            await self.act(table, seat, number, source, ack, animation_ms)
            return
        game = table.game
        try:
            action = source(game)  # what cannot be read is refused here, without a trip to the owner
        except GameError as exc:
            raise ProtocolError(exc.code, str(exc), reason=reason_json(exc)) from None
        request = uuid.uuid4().hex
        routed = Routed(seat, game.stamp_time(action, 0.0), ack, asyncio.get_running_loop().create_future())
        self._routed.setdefault(table.id, []).append(routed)
        self._requests[request] = routed
        try:
            message = {
                "kind": "act",
                "table": table.id,
                "seat": seat,
                "number": number,
                "action": game.format_action(action),
                "animation_ms": animation_ms,
                "request": request,
            }
            answer: dict[str, Any] | None = None
            if await self._publish(message):
                with contextlib.suppress(TimeoutError):
                    answer = await asyncio.wait_for(routed.answer, self.settings.route_seconds)
            if not routed.delivered:  # the step may be in the store already: its update brings the ack
                async with table.lock:
                    await self._catch_up_locked(table)
        finally:
            self._requests.pop(request, None)
            self._unroute(table.id, routed)
        if routed.delivered:
            return
        if answer is None:  # the owner is silent: take the move here
            log.warning("the owner of table %s did not answer a move; taking it here", table.id)
            await self.act(table, seat, number, given_action(action), ack, animation_ms)
        elif answer.get("kind") == "refused":
            reason = answer.get("reason")
            said = reason if isinstance(reason, dict) else None
            raise ProtocolError(str(answer.get("code")), str(answer.get("message")), reason=said)
        elif ack is not None:  # taken, but not yet in the store this process reads: the ack alone
            ack.send_alone(answer.get("number"), answer.get("action"))

    def _unroute(self, table_id: str, routed: Routed) -> None:
        pending = self._routed.get(table_id, [])
        if routed in pending:
            pending.remove(routed)
        if not pending:
            self._routed.pop(table_id, None)

    def _routed_ack(self, table: Table, seat: Seat, notation: str) -> Ack | None:
        """If ``seat``'s step ``notation`` is a move this process sent to the owner, mark it delivered and
        return its acknowledgement (to travel inside the update)."""
        waiting = [r for r in self._routed.get(table.id, ()) if r.seat == seat and not r.delivered]
        if not waiting:
            return None
        try:
            taken = table.game.stamp_time(table.game.parse_action(notation), 0.0)
        except GameError:
            return None
        for routed in waiting:
            if taken == routed.action:
                routed.delivered = True
                return routed.ack
        return None

    async def _take_routed(self, table: Table, message: dict[str, Any]) -> None:
        """As the owner: take a move another process sent, and answer it (``acted`` or ``refused``)."""
        seat, number, text = message.get("seat"), message.get("number"), message.get("action")
        animation = message.get("animation_ms")
        answer: dict[str, Any]
        if not (
            isinstance(seat, int)
            and 0 <= seat < table.players
            and isinstance(number, int)
            and isinstance(text, str)
            and (animation is None or isinstance(animation, int))
        ):
            answer = {"kind": "refused", "code": ErrorCode.BAD_MESSAGE, "message": "a malformed routed move"}
        else:
            try:
                step, notation = await self.act(
                    table, seat, number, checked_text_action(text), animation_ms=animation
                )
                answer = {"kind": "acted", "number": step, "action": notation}
            except ProtocolError as exc:
                answer = {"kind": "refused", "code": exc.code, "message": exc.message, "reason": exc.reason}
        reply = {**answer, "table": table.id, "to": message.get("origin"), "request": message.get("request")}
        await self._publish(reply)

    async def act(
        self,
        table: Table,
        seat: Seat,
        number: int,
        source: ActionSource,
        ack: Ack | None = None,
        animation_ms: int | None = None,
    ) -> tuple[int, str]:
        """Check, commit, apply and fan out one action; raises ProtocolError and changes nothing.

        ``animation_ms`` (a person's move, not a bot's): the move's time is measured here, from the
        moment the table last changed for its people to now, less the page's animations, and stamped on
        the action (:meth:`Game.stamp_time`; what the mover typed as a time never counts)."""
        async with table.lock:
            if table.status == "waiting":
                await self._refresh_seats_locked(table)  # another process may have seated the last person
            text = source.text if isinstance(source, TextSource) else None
            taken = table.take(seat, number, source, text, animation_ms)  # ProtocolError: nothing changed
            try:
                await self.commits.append(
                    PendingStep(table.id, taken.step, seat, taken.notation, taken.status, taken.bank)
                )
            except ConflictError:
                await self._catch_up_locked(table)
                raise ProtocolError(ErrorCode.CONFLICT, "another process committed this step first") from None
            except Exception:  # the store's own words (its host, port, database) stay in the log
                log.exception("commit failed on table %s", table.id)
                failed = "the server could not keep the move: it was not played; play it again"
                raise ProtocolError(ErrorCode.INTERNAL, failed) from None
            if table.derives():
                await self._advance_derived(table, taken, ack)
            else:  # (no coroutine on the way: a move of every other table comes through here)
                table.advance(taken, self.settings.legal_cap, ack)
            step, notation = taken.step, taken.notation
        if self._driver_has_work(table):
            table.wake.set()
        await self._publish({"kind": "action", "table": table.id, "number": step})
        return step, notation

    async def _catch_up_locked(self, table: Table) -> None:
        """Apply the steps other processes committed (the caller holds the table's lock)."""
        rows = await asyncio.to_thread(self.store.actions_after, table.id, table.number)
        for number, seat, notation in rows:
            if number != table.number + 1:
                break
            taken = table.replayed(seat, notation)
            ack = self._routed_ack(table, seat, notation)
            if table.derives():
                await self._advance_derived(table, taken, ack)
            else:
                table.advance(taken, self.settings.legal_cap, ack)

    async def _advance_derived(self, table: Table, taken: Taken, ack: Ack | None) -> None:
        """:meth:`Table.advance` at a table that derives part of its views: the step is shown once the
        views are derived (the caller holds the table's lock)."""
        table.record(taken)
        await self.derive_views(table, table.listening_seats())
        table.broadcast_update(self.settings.legal_cap, ack)

    async def derive_views(self, table: Table, seats: Iterable[Seat | None]) -> None:
        """At a table whose game derives part of its views from the view alone (Amulets' deduction
        assistant, :meth:`Game.derives_views`): have those of ``seats``' views at this number that are
        not derived yet worked out by the bot pool's deriver (:meth:`BotPool.derive`; never on the event
        loop, where every other table waits), and keep them for the frames to come. Past its budget or
        failed, a view is shown bare. Nothing at other tables. The caller holds the table's lock."""
        bare = table.underived(seats)
        if not bare:
            return
        number = table.number
        derived = await self.bot_pool.derive(table.game, table.id, bare, share=table.creator)
        table.derived(number, bare if derived is None else derived)

    async def _publish(self, message: dict[str, Any]) -> bool:
        """Tell the other processes; False if the bus failed (they catch up on their next heartbeat, see
        :meth:`_catch_up_behind`). A bus that reaches no other process would only bring the notice back
        here, where a notice of our own is ignored: it is not sent at all (a queue put, a task's wake and
        a copy of the message saved on every move)."""
        if not self.bus.reaches_others:
            return True
        try:
            await self.bus.publish({**message, "origin": self.node, "life": self.life})
        except Exception as exc:
            log.warning("bus publish of a %s notice failed: %s", message.get("kind"), exc)
            return False
        return True

    async def _on_bus(self, message: dict[str, Any]) -> None:
        if message == RESYNC:
            await self._resync_all()
            return
        if message.get("origin") == self.node:
            if message.get("life", self.life) != self.life and not self.twin_seen:
                self.twin_seen = True  # (said once: every notice of the other one would say it again)
                log.error(
                    "another process runs as node id %r: a node id names one process (their tables' leases "
                    "and moves get mixed up); give each process its own COVEN_NODE_ID, see docs/deploy.md",
                    self.node,
                )
            return
        kind = message.get("kind")
        if kind in {"acted", "refused"}:  # an owner's answer to a move sent from here
            routed = self._requests.get(str(message.get("request")))
            if message.get("to") == self.node and routed is not None and not routed.answer.done():
                routed.answer.set_result(message)
            return
        table = self.tables.get(str(message.get("table")))
        if table is None:
            return
        if kind == "act":  # a move sent to this table's owner: taken aside, so the bus keeps flowing
            if table.id in self.owned:
                task = asyncio.create_task(self._take_routed(table, message), name=f"routed-{table.id}")
                self._serving.add(task)
                task.add_done_callback(self._serving.discard)
            return
        if kind == "chat":  # said through another process: shown here as it was
            line = message.get("line")
            table.chat_said += 1
            table.chat = None  # read again (in the store's order) when next asked
            if isinstance(line, dict):
                table.broadcast(dumps({"type": "chat", "line": line}))
            return
        async with table.lock:
            if kind == "action":
                await self._catch_up_locked(table)
            elif kind == "seats":
                await self._refresh_seats_locked(table)
        table.wake.set()

    async def _resync_all(self) -> None:
        """After the bus reconnected (notices may be lost): every live table catches up from the store,
        its seats and status first, then its steps by action number, so no client silently stops
        receiving moves."""
        for table in list(self.tables.values()):
            table.chat_said += 1  # a line may have been said unheard
            table.chat = None
            if table.status == "over":
                continue
            async with table.lock:
                await self._refresh_seats_locked(table)
                await self._catch_up_locked(table)
            table.wake.set()

    async def _refresh_seats_locked(self, table: Table) -> None:
        """Take the seats and status from the store (the caller holds the table's lock)."""
        stored = await asyncio.to_thread(self.store.load_table, table.id, False)
        if stored is None or (tuple(table.seats), table.status) == (stored.seats, stored.status):
            return
        started = table.status == "waiting" and stored.status == "playing"
        table.seats = list(stored.seats)
        self._sync_stand_ins(table)
        table.status = stored.status
        await self._show_seats(table, started)
        if started:
            table.wake.set()

    # ------------------------------------------------------------------ bots
    def _start_driver(self, table: Table) -> None:
        """Run the table's bots and keep its pace here, if this process owns the table."""
        if not (table.bots or table.pace != "none" or any(s.kind == "human" for s in table.seats)):
            return
        if table.status != "over" and table.driver is None and table.id in self.owned:
            table.driver = asyncio.create_task(self._drive(table), name=f"bots-{table.id}")
            table.wake.set()

    def _driver_has_work(self, table: Table) -> bool:
        """Whether a step just taken gives the table's driver something to do: bots to play, a pace to
        keep, a game's own time limit for the next decision, or an end to see. A table of people with
        none of these (most) does not wake it on every move: it would only find that out. (A driver
        waiting for an earlier deadline wakes then, finds nobody late, and waits again.)"""
        return bool(
            table.bots
            or table.pace != "none"
            or table.status != "playing"
            or self._seconds_to_deadline(table) is not None
        )

    def _next_bot_turn(self, table: Table) -> tuple[Seat, bool] | None:
        """The first decision a bot of this table has, in the core driver's order (optional actors
        clockwise from after the last mover, then the seats the game waits for); people act when they
        like. A bot that let its chance pass at this action number is not asked again until it changes."""
        if not table.bots:  # people only: they act when they like
            return None
        looking = self._look_left(table) > 0  # people still read the last move: no bot acts by choice
        for seat, required in decisions(table.game, table.state, table.last_mover):
            if seat in table.bots and (required or (not looking and self._bot_may_choose(table, seat))):
                return seat, required
        return None

    @staticmethod
    def _bot_may_choose(table: Table, seat: Seat) -> bool:
        """``seat`` is a bot that has not let its optional chance pass at this action number."""
        return seat in table.bots and table.declined.get(seat) != table.number

    def _look_left(self, table: Table) -> float:
        """Seconds before a bot may act by choice (an Amulets cast): people at the table get a fair look
        at each move first (presentation only: the rules let anyone cast at any time)."""
        if not any(s.kind == "human" and not s.stand_in for s in table.seats):
            return 0.0
        return table.changed_at + self.settings.bot_look_seconds - time.monotonic()

    # ----------------------------------------------------------- pace
    def _seconds_to_deadline(self, table: Table) -> float | None:
        """Until the first person the game waits for runs out of time (None: nobody can)."""
        if table.status != "playing":
            return None
        to_act, _ = table.turn()
        limits = [
            table.allowance(seat)
            for seat in to_act
            if table.seats[seat].kind == "human" and not table.seats[seat].stand_in
        ]
        known = [limit for limit in limits if limit is not None]
        if not known:
            return None
        return table.changed_at + min(known) - time.monotonic()

    async def _enforce_pace(self, table: Table) -> None:
        """Everyone whose time is up: the rules' own answer if they have one (a Commandments novice
        forfeits), else a bot stands in for them until they come back."""
        if table.status != "playing":
            return
        now = time.monotonic()
        to_act, _ = table.turn()
        number = table.number
        for seat in to_act:
            limit = table.allowance(seat)
            if limit is None or table.seats[seat].kind != "human" or table.seats[seat].stand_in:
                continue
            if now < table.changed_at + limit:
                continue
            if table.pace == "clock":
                table.banks[seat] = 0.0
            action = table.game.timeout_action(table.state, seat)
            if action is not None:
                try:
                    await self.act(table, seat, number, given_action(action))
                    return
                except ProtocolError as exc:
                    if exc.code in {ErrorCode.STALE, ErrorCode.CONFLICT}:
                        return  # the table moved on meanwhile: the next wake looks again
                    log.warning("timeout action of seat %s on table %s: %s", seat, table.id, exc.message)
            await self.stand_in(table, seat, True)

    async def stand_in(self, table: Table, seat: Seat, on: bool) -> None:
        """Let a bot play a person's seat (``on``), or give the seat back to its person."""
        async with table.lock:
            if table.seats[seat].stand_in == on or table.seats[seat].kind != "human":
                return
            await asyncio.to_thread(self.store.set_stand_in, table.id, seat, on)
            table.seats[seat] = dataclasses.replace(table.seats[seat], stand_in=on)
            self._sync_stand_ins(table)
            if not on:
                table.give_grace(seat)
            await self._show_seats(table, False)
        table.wake.set()
        await self._publish({"kind": "seats", "table": table.id})

    def _sync_stand_ins(self, table: Table) -> None:
        """The bots standing in for people, as the seats say."""
        for s in table.seats:
            if s.kind != "human":
                continue
            if s.stand_in and s.seat not in table.bots and table.status != "over":
                seed = self.settings.bot_seeds()
                table.bots[s.seat] = make_bot(table.game, stand_in_bot(table.game), s.seat, seed)
                table.bot_seeds[s.seat] = seed
            elif not s.stand_in and s.seat in table.bots:
                del table.bots[s.seat]

    # ------------------------------------------------------------------ chat
    async def say(self, table: Table, seat: Seat, text: str, ack: Ack | None = None) -> None:
        """Keep what ``seat`` said and show it to everyone at the table (in every process); the sender
        (``ack``) gets its ``chat`` with its ``id``: the line is kept, and this is its acknowledgement.
        Raises ProtocolError (``conflict``, ``internal``) when it could not be kept: nothing was said."""
        try:
            line = await asyncio.to_thread(self.store.add_chat, table.id, seat, table.number, text)
        except ConflictError:
            raise ProtocolError(ErrorCode.CONFLICT, "too many lines at once: say it again") from None
        except Exception as exc:  # the store's words stay in the log: a client learns only that it failed
            why = shorten(f"{type(exc).__name__}: {exc}")
            log.error("table %s: a chat line was not kept: %s", table.id, why)
            failed = "the server could not keep the line: say it again"
            raise ProtocolError(ErrorCode.INTERNAL, failed) from None
        table.chat_said += 1
        if table.chat is not None:
            table.chat = [*table.chat[-(CHAT_KEPT - 1) :], line]
        said = line.to_json()
        plain = dumps({"type": "chat", "line": said})
        for listener in list(table.listeners):
            if ack is None or listener is not ack.listener:
                listener.send_text(plain)
        if ack is not None:
            ack.listener.send_text(dumps({"type": "chat", "id": ack.id, "line": said}))
        await self._publish({"kind": "chat", "table": table.id, "line": said})

    async def chat_log(self, table: Table) -> list[ChatLine]:
        """The last lines said at the table, oldest first: read from the store once, then kept up to date
        by what is said here and what the bus tells (every hello shows them, and most tables have none)."""
        kept = table.chat
        if kept is None:
            said = table.chat_said
            read = await asyncio.to_thread(self.store.chat, table.id, CHAT_KEPT)
            if table.chat_said != said:  # a line was said during the read: it may be missing
                return read
            kept = table.chat = read
        return list(kept)

    async def returned(self, table: Table, seat: Seat) -> None:
        """The person of ``seat`` is back (said hello, or acted): their seat is theirs again."""
        if table.seats[seat].stand_in:
            await self.stand_in(table, seat, False)

    async def _drive(self, table: Table) -> None:
        """Play the table's bot seats (and bots standing in for absent people) until the game is over,
        and keep its pace; thinking happens in worker processes."""
        while table.status != "over":
            wait = self._seconds_to_deadline(table)
            if table.status == "playing" and any(self._bot_may_choose(table, s) for s in table.turn()[1]):
                look = max(0.0, self._look_left(table))  # a bot may act by choice once people had a look
                wait = look if wait is None else min(wait, look)
            # Always yield to the loop, and never poll faster than _MIN_WAKE: a deadline that passed
            # without anything to do (the table moved on meanwhile) must not spin this task.
            # (asyncio.timeout, not wait_for: no task of its own for each wait, and a table of people whose
            # game limits its decisions wakes this on every move)
            if table.wake.is_set():
                await asyncio.sleep(0)  # (a set event's wait would not yield)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(None if wait is None else max(wait, _MIN_WAKE)):
                    await table.wake.wait()
            table.wake.clear()
            try:
                await self._enforce_pace(table)
            except Exception:  # a store away for a moment: the next wake tries again
                log.exception("keeping the pace of table %s failed", table.id)
            while table.status == "playing":
                turn = self._next_bot_turn(table)
                if turn is None:
                    break
                seat, required = turn
                number = table.number
                # the bare view (Game.bare_views): what a bot could derive from it, it derives itself
                view = table.game.bare_views(table.state, (seat,))[seat]
                # as the game gives it: possibly a lazy sequence over a huge space (never listed here)
                legal = table.game.legal_actions(table.state, seat)
                started = time.monotonic()
                name = table.seats[seat].bot or stand_in_bot(table.game)
                where = (table.game.spec.id, table.id, seat, name, table.bot_seeds[seat])
                try:
                    choice = await self.bot_pool.decide(
                        table.bots[seat], where, view, legal, required, share=table.creator
                    )
                except Exception:
                    log.exception("bot of seat %s on table %s failed", seat, table.id)
                    choice = legal[0] if required and legal else None
                if choice is None:
                    if required:
                        choice = legal[0] if legal else None
                    if choice is None:
                        table.declined[seat] = number
                        continue
                pause = self.settings.bot_pause - (time.monotonic() - started)
                if pause > 0:
                    await asyncio.sleep(pause)
                if table.number != number or seat not in table.bots:
                    continue  # the table moved on (or the person came back) while the bot thought
                action = choice
                try:
                    await self.act(table, seat, number, given_action(action))
                except ProtocolError as exc:
                    if exc.code in {ErrorCode.STALE, ErrorCode.CONFLICT}:
                        continue
                    log.warning("bot of seat %s on table %s: %s", seat, table.id, exc.message)
                    if exc.code == ErrorCode.ILLEGAL_ACTION and required and legal and choice != legal[0]:
                        fallback = legal[0]
                        with contextlib.suppress(ProtocolError):
                            await self.act(table, seat, number, given_action(fallback))
                        continue
                    table.declined[seat] = number
                    if required:
                        await asyncio.sleep(1.0)  # do not spin on a broken bot


def given_action(action: Hashable) -> ActionSource:
    def source(_game: AnyGame) -> Hashable:
        return action

    return source


def parse_action_text(text: str) -> ActionSource:
    def source(game: AnyGame) -> Hashable:
        action: Hashable = game.parse_action(text)
        return action

    return source


class TextSource:
    """An action sent in its notation: read and checked (:func:`checked_action`) when called. A table
    may find it among the actions it listed instead (:meth:`Table.listed_action`)."""

    __slots__ = ("_read", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._read = checked_action(parse_action_text(text), text)

    def __call__(self, game: AnyGame) -> Hashable:
        return self._read(game)


def checked_text_action(text: str) -> TextSource:
    """The action written as ``text``, checked (see :func:`checked_action`)."""
    return TextSource(text)


def parse_action_json(raw: dict[str, Any]) -> ActionSource:
    def source(game: AnyGame) -> Hashable:
        action: Hashable = game.action_from_json(raw)
        return action

    return source


def checked_action(parse: Callable[[AnyGame], Hashable], notation: str | None = None) -> ActionSource:
    """``parse`` made total: it yields an action of the game that survives the game's notation round trip
    (the log stores notation, and replays parse it back), or raises a GameError (``bad_notation`` for
    anything a game's parser did not foresee: it never escapes as another exception).

    ``notation``: the text ``parse`` reads, if it reads one. An action that the game writes back as that
    very text has passed the round trip already (a parser is a function of its text), so it is not read a
    second time: the usual move, sent in its own notation, costs one reading, not two."""

    def source(game: AnyGame) -> Hashable:
        try:
            action = parse(game)
            hash(action)
            written = game.format_action(action)
            if written != notation and game.parse_action(written) != action:
                raise NotationError("this action has no notation in this game")
            return action
        except GameError:
            raise
        except Exception as exc:
            raise NotationError(f"cannot read this action ({type(exc).__name__})") from None

    return source


__all__ = [
    "ActionSource",
    "Invite",
    "NotationError",
    "SeatRequest",
    "TableService",
    "TextSource",
    "checked_action",
    "checked_text_action",
    "parse_action_json",
    "parse_action_text",
]
