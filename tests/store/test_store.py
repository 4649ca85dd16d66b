"""The store on SQLite and PostgreSQL: migrations, tables, seats, the action log and its conflicts."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError

from coven.server.messages import visible_text
from coven.store import ConflictError, PendingStep, PendingTable, Store, StoredSeat, StoredTable, hash_token
from coven.store.migrations.versions import v0007_clean_names as clean_names


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    s = Store(database_url)
    s.migrate()
    yield s
    s.dispose()


def _table(table_id: str = "t1", status: str = "waiting") -> StoredTable:
    return StoredTable(
        id=table_id,
        game="toy",
        players=2,
        options={"hand": 3, "fast": True, "mode": "x"},
        seed=2**61 + 5,
        status=status,
        number=0,
        created_at=datetime.now(UTC),
        seats=(
            StoredSeat(0, "human", "Ana", None, hash_token("secret-a"), False),
            StoredSeat(1, "bot", "greedy bot", "greedy", None, True),
        ),
    )


def test_migrations_reach_head_and_are_idempotent(store: Store) -> None:
    assert store.revision() == "0008"
    store.migrate()
    assert store.revision() == "0008"


def test_the_steps_are_written_on_the_connection_given_back_last(store: Store) -> None:
    """The pool hands out the connection given back last: the group commit, writing batch after batch from
    one thread, keeps to one connection (on SQLite, the one whose page cache is still good: another
    connection's write makes a connection read every page again), even when other work has opened more
    connections meanwhile. Taken in turn, as a queue gives them, two connections alternate."""
    store.create_table(_table("t1", status="playing"))
    opened = [store.engine.raw_connection() for _ in range(2)]  # (a heartbeat's read beside a commit)
    for connection in opened:
        connection.close()
    used: list[int] = []
    event.listen(store.engine, "checkout", lambda dbapi, _record, _proxy: used.append(id(dbapi)))
    for number in range(1, 5):
        assert store.append_actions([PendingStep("t1", number, 0, f"a{number}", "playing")]) == [True]
    assert len(used) == 4 and len(set(used)) == 1, used


def test_a_table_round_trips(store: Store) -> None:
    store.create_table(_table())
    loaded = store.load_table("t1")
    assert loaded is not None
    assert loaded.game == "toy"
    assert loaded.options == {"hand": 3, "fast": True, "mode": "x"}
    assert loaded.seed == 2**61 + 5
    assert loaded.seats[0] == StoredSeat(0, "human", "Ana", None, hash_token("secret-a"), False)
    assert loaded.seats[1].bot == "greedy"
    assert loaded.created_at.tzinfo is not None
    assert store.load_table("nope") is None


def test_the_log_appends_in_order_and_refuses_a_taken_step(store: Store) -> None:
    store.create_table(_table(status="playing"))
    store.append_action("t1", 1, 0, "3", "playing")
    store.append_action("t1", 2, 1, "7", "over")
    with pytest.raises(ConflictError):
        store.append_action("t1", 2, 0, "5", "playing")  # step 2 is taken
    with pytest.raises(ConflictError):
        store.append_action("t1", 5, 0, "5", "playing")  # the table is not at step 4
    loaded = store.load_table("t1")
    assert loaded is not None
    assert loaded.actions == ((0, "3"), (1, "7"))
    assert loaded.number == 2
    assert loaded.status == "over"
    assert store.actions_after("t1", 1) == [(2, 1, "7")]


def test_claiming_every_human_seat_starts_the_table(store: Store) -> None:
    store.create_table(_table())
    assert store.unfinished_ids() == ["t1"]
    assert store.claim_seat("t1", 0) == (True, "playing")
    assert store.claim_seat("t1", 0) == (False, "playing")
    loaded = store.load_table("t1")
    assert loaded is not None and loaded.seats[0].claimed


def test_listing_and_unfinished(store: Store) -> None:
    store.create_table(_table("a", "over"))
    store.create_table(_table("b", "playing"))
    assert store.unfinished_ids() == ["b"]
    assert {t.id for t in store.list_tables()} == {"a", "b"}
    assert all(len(t.seats) == 2 for t in store.list_tables())


def test_tokens_are_stored_only_as_hashes(store: Store) -> None:
    store.create_table(_table())
    with store.engine.connect() as conn:
        dump = repr(conn.execute(text("SELECT * FROM coven_seats")).all())
    assert "secret-a" not in dump
    assert hash_token("secret-a") in dump


def _people(table_id: str, count: int) -> StoredTable:
    return StoredTable(
        id=table_id,
        game="toy",
        players=count,
        options={},
        seed=1,
        status="waiting",
        number=0,
        created_at=datetime.now(UTC),
        seats=tuple(StoredSeat(i, "human", f"P{i}", None, hash_token(f"t{i}"), False) for i in range(count)),
    )


def test_the_last_two_seats_claimed_at_once_from_two_processes_start_the_table_once(
    database_url: str,
) -> None:
    """Two stores (as two server processes would hold) claim the last two seats at the same moment,
    many times over: every table starts, and exactly one of the two claims sees it start."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    stores = [Store(database_url), Store(database_url)]
    stores[0].migrate()
    try:
        for round_ in range(25):
            table_id = f"race{round_}"
            stores[0].create_table(_people(table_id, 3))
            stores[0].claim_seat(table_id, 0)
            barrier = threading.Barrier(2)

            def claim(
                k: int, table_id: str = table_id, barrier: threading.Barrier = barrier
            ) -> tuple[bool, str]:
                barrier.wait()
                return stores[k].claim_seat(table_id, k + 1)

            with ThreadPoolExecutor(2) as pool:
                results = list(pool.map(claim, range(2)))
            assert all(changed for changed, _ in results)
            loaded = stores[1].load_table(table_id, with_log=False)
            assert loaded is not None and loaded.status == "playing", f"round {round_}: stuck {results}"
            assert sorted(status for _, status in results) in (["playing", "playing"], ["playing", "waiting"])
    finally:
        for s in stores:
            s.dispose()


def _statements_through_sqlalchemy(store: Store) -> list[str]:
    seen: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
    return seen


def test_the_usual_claim_runs_on_the_driver(store: Store) -> None:
    store.create_table(_people("d", 2))
    through_sqlalchemy = _statements_through_sqlalchemy(store)
    assert store.claim_seat("d", 0) == (True, "waiting")
    assert store.claim_seat("d", 0) == (False, "waiting")  # claimed already: nothing changes
    assert store.claim_seat("d", 1) == (True, "playing")  # the last person's claim starts the table
    assert store.claim_seat("d", 1) == (False, "playing")
    assert store.claim_seat("nowhere", 0) == (False, "unknown")
    assert through_sqlalchemy == [], "claims go straight to the driver"
    loaded = store.load_table("d", False)
    assert loaded is not None and loaded.status == "playing" and all(s.claimed for s in loaded.seats)


def test_a_claim_falls_back_to_sqlalchemy_when_the_driver_fails(store: Store) -> None:
    store.create_table(_people("f", 2))
    through_sqlalchemy = _statements_through_sqlalchemy(store)
    store._claim[1].sql = "UPDATE no_such_table SET x = 1"  # the driver fails after the lock
    assert store.claim_seat("f", 0) == (True, "waiting")
    assert store.claim_seat("f", 1) == (True, "playing")
    assert through_sqlalchemy, "the claims went through SQLAlchemy"
    loaded = store.load_table("f", False)
    assert loaded is not None and loaded.status == "playing" and all(s.claimed for s in loaded.seats)


def test_a_table_is_created_on_the_driver_as_sqlalchemy_would_create_it(store: Store) -> None:
    through_sqlalchemy = _statements_through_sqlalchemy(store)
    fast = StoredTable(
        "fast", "toy", 3, {"a": True, "b": 2, "c": "x"}, 2**62, "waiting", 0, datetime.now(UTC),
        (
            StoredSeat(0, "human", "Ann", None, hash_token("t"), False),
            StoredSeat(1, "bot", "b", "random", None, True),
            StoredSeat(2, "human", "Bo", None, hash_token("u"), False),
        ),
        pace="clock", pace_seconds=60,
    )  # fmt: skip
    store.create_table(fast, "node", 30)
    assert through_sqlalchemy == [], "a new table goes straight to the driver"
    store._new_seats.sql = "INSERT INTO no_such_table VALUES (1)"  # the driver fails after the table's row
    store.create_table(dataclasses.replace(fast, id="slow"), "node", 30)
    assert through_sqlalchemy, "this one went through SQLAlchemy"
    loaded = {t: store.load_table(t) for t in ("fast", "slow")}
    assert all(table is not None for table in loaded.values())
    assert dataclasses.replace(loaded["slow"], id="fast") == loaded["fast"]  # type: ignore[type-var]
    assert loaded["fast"] is not None and loaded["fast"].options == fast.options
    assert loaded["fast"].seats == fast.seats and loaded["fast"].seed == 2**62
    assert store.acquire_leases("other", ["fast", "slow"], 30) == set()  # both leased to "node"
    with pytest.raises(IntegrityError):  # an id taken: refused, through SQLAlchemy, as before
        store.create_table(fast)


def test_the_chat_is_read_on_the_driver_oldest_first(store: Store) -> None:
    store.create_table(_people("c", 2))
    said = [store.add_chat("c", i % 2, i, f"line {i} é") for i in range(5)]
    through_sqlalchemy = _statements_through_sqlalchemy(store)
    assert store.chat("c") == said and store.chat("c", 2) == said[-2:] and store.chat("nowhere") == []
    assert through_sqlalchemy == []
    store._chat.sql = "SELECT no_such_column FROM no_such_table"  # the driver fails: SQLAlchemy reads
    assert store.chat("c") == said and store.chat("c", 2) == said[-2:]
    assert through_sqlalchemy


def test_claiming_a_seat_of_an_unknown_table_changes_nothing(store: Store) -> None:
    assert store.claim_seat("nowhere", 0) == (False, "unknown")


def test_a_lease_has_one_holder_until_it_runs_out(store: Store) -> None:
    import time

    store.create_table(_people("l1", 2))
    store.create_table(_people("l2", 2))
    assert store.acquire_leases("a", ["l1", "l2"], 30) == {"l1", "l2"}
    assert store.acquire_leases("b", ["l1", "l2"], 30) == set()  # a holds them
    assert store.orphaned_ids() == []
    assert store.renew_leases("a", 30) == {"l1", "l2"}
    assert store.acquire_leases("a", ["l1"], 0.05) == {"l1"}  # a lets l1's lease shorten ...
    time.sleep(0.1)
    assert store.orphaned_ids() == ["l1"]  # ... and it runs out: l1 is an orphan
    assert store.acquire_leases("b", ["l1"], 30) == {"l1"}
    assert store.renew_leases("a", 30) == {"l2"}  # a learns that it lost l1
    store.release_leases("a")
    assert store.orphaned_ids() == ["l2"]


def test_a_table_created_with_an_owner_is_leased_to_it_from_the_start(store: Store) -> None:
    store.create_table(_people("o1", 2), "a", 30)
    store.create_table(_people("o2", 2), "a", 0)  # a lease that runs out at once
    store.create_table(_people("o3", 2))  # no owner: an orphan at once
    assert store.acquire_leases("b", ["o1"], 30) == set()  # a holds it
    assert sorted(store.orphaned_ids()) == ["o2", "o3"]
    assert store.renew_leases("a", 30) == {"o1", "o2"}  # nobody adopted o2 meanwhile: still a's
    assert store.orphaned_ids() == ["o3"]


def test_finished_tables_have_no_lease(store: Store) -> None:
    store.create_table(_people("f1", 2))
    store.acquire_leases("a", ["f1"], 30)
    store.append_action("f1", 1, 0, "x", "over")
    assert store.renew_leases("a", 30) == set()
    assert store.acquire_leases("b", ["f1"], 30) == set()
    assert store.orphaned_ids() == []


def _owned_rows(store: Store, node: str) -> set[str]:
    """Every table whose row names ``node`` its owner, whatever its status (what the owner's index holds
    for ``node``, and what the heartbeat's queries by owner read)."""
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT id FROM coven_tables WHERE owner = :n"), {"n": node}).all()
    return {str(r[0]) for r in rows}


def test_the_step_that_ends_a_game_ends_its_lease_on_every_path(store: Store) -> None:
    """However a table's last step is committed (alone, in a group commit, in a group that falls back to
    one statement at a time after a conflict, with new tables riding along), its row names no owner any
    more: the heartbeat, which reads a process's tables by owner, never reads the finished ones, however
    many games the process has finished. Steps that do not end the game keep the lease."""
    ids = ["e1", "e2", "e3", "e4", "e5"]
    for table_id in ids:
        store.create_table(_people(table_id, 2), "a", 30)
    store.append_action("e1", 1, 0, "x", "over")  # alone
    ended, going = PendingStep("e2", 1, 0, "x", "over"), PendingStep("e3", 1, 0, "x", "playing")
    assert store.append_actions([ended, going]) == [True, True]  # a group commit
    store.append_action("e4", 1, 0, "x", "playing")
    # a conflict in the batch (e4 is at step 1): the slow path, step by step
    taken, ended = PendingStep("e4", 1, 0, "y", "over"), PendingStep("e5", 1, 0, "x", "over")
    assert store.append_actions([taken, ended]) == [False, True]
    assert _owned_rows(store, "a") == {"e3", "e4"}
    assert store.renew_leases("a", 30) == {"e3", "e4"}
    new = PendingTable(_people("e6", 2), "a", 30)
    store.write_batch([new, PendingStep("e3", 2, 1, "x", "over")])
    assert _owned_rows(store, "a") == {"e4", "e6"}
    loaded = store.load_table("e3")
    assert loaded is not None and loaded.status == "over" and loaded.number == 2
    store.release_leases("a")
    assert _owned_rows(store, "a") == set()


def _without_banks(conn: Any) -> None:
    """The actions' table as it was before revision 0008 (no clock kept with the steps)."""
    conn.execute(text("ALTER TABLE coven_actions DROP COLUMN bank"))


def test_the_migration_keeps_the_clocks_with_the_steps_from_then_on(database_url: str) -> None:
    """A database from before revision 0008 has no clock with its steps: the upgrade adds the column, the
    steps it had read back with no clock (each person's time as a full clock gives it, as before), and the
    steps after it keep theirs."""
    old = Store(database_url)
    try:
        old.migrate()
        old.create_table(dataclasses.replace(_people("k1", 2), pace="clock", pace_seconds=60))
        old.append_action("k1", 1, 0, "x", "playing")
        with old.engine.begin() as conn:  # as an older Coven left it
            _without_banks(conn)
            conn.execute(text("UPDATE alembic_version SET version_num = '0007'"))
        old.migrate()
        assert old.revision() == "0008"
        loaded = old.load_table("k1")
        assert loaded is not None and loaded.actions == ((0, "x"),) and loaded.banks == ()
        old.append_action("k1", 2, 1, "y", "playing", bank=41.5)
        assert old.append_actions([PendingStep("k1", 3, 0, "z", "playing", 12.25)]) == [True]
        assert old.append_actions([PendingStep("k1", 4, 1, "w", "playing")]) == [True]  # a bot's: none
        loaded = old.load_table("k1")
        assert loaded is not None and dict(loaded.banks) == {1: 41.5, 0: 12.25}
    finally:
        old.dispose()


def test_the_migration_lets_go_of_leases_on_finished_tables(database_url: str) -> None:
    """A database from before revision 0005 may hold leases on tables that are over: the upgrade lets
    them go and keeps the live tables' leases (and adds the lobby's index)."""
    old = Store(database_url)
    try:
        old.migrate()
        old.create_table(_people("m1", 2), "a", 30)
        old.create_table(_people("m2", 2), "a", 30)
        with old.engine.begin() as conn:  # as an older Coven left them: over, still leased
            conn.execute(text("UPDATE coven_tables SET status = 'over' WHERE id = 'm1'"))
            conn.execute(text("DROP INDEX ix_coven_tables_recent"))  # not there before 0005
            conn.execute(text("DROP INDEX ix_coven_tables_live_lease"))  # nor before 0006
            _without_banks(conn)
            conn.execute(text("UPDATE alembic_version SET version_num = '0004'"))
        assert _owned_rows(old, "a") == {"m1", "m2"}
        old.migrate()
        assert old.revision() == "0008"
        assert _owned_rows(old, "a") == {"m2"}
    finally:
        old.dispose()


def test_a_live_table_rests_only_by_its_holder_and_no_heartbeat_adopts_it(store: Store) -> None:
    """A process lets go of a live table that waits on nobody it moves for: the table rests (no owner, no
    lease). It is no orphan (no heartbeat loads it); the first process to open it again takes its lease."""
    store.create_table(_people("r1", 2), "a", 30)
    store.create_table(_people("r2", 2), "a", 30)
    assert store.rest_tables("b", ["r1"]) == set()  # only its holder lets it rest
    assert store.rest_tables("a", ["r1", "nowhere"]) == {"r1"}
    assert store.rest_tables("a", ["r1"]) == set()  # (once)
    assert store.rest_tables("a", []) == set()
    assert store.renew_leases("a", 30) == {"r2"} and _owned_rows(store, "a") == {"r2"}
    assert store.orphaned_ids() == []
    store.release_leases("a")  # a clean shutdown: r2 is an orphan at once, r1 still rests
    assert store.orphaned_ids() == ["r2"]
    assert store.acquire_leases("b", ["r1"], 30) == {"r1"}  # opened again: b's now
    assert store.orphaned_ids() == ["r2"]
    store.append_action("r2", 1, 0, "x", "over")
    store.create_table(_people("r3", 2), "a", 30)
    store.append_action("r3", 1, 0, "x", "over")
    assert store.rest_tables("a", ["r3"]) == set()  # a finished table is nobody's: nothing to let go


def test_the_migration_keeps_tables_without_a_lease_orphans(database_url: str) -> None:
    """Before revision 0006 a live table with no lease at all (a clean shutdown let it go) was an orphan,
    adopted by the next heartbeat; from 0006 no lease means resting. The upgrade gives such tables a lease
    that has run out, so they are still adopted (their bots played), and adds the lease's index."""
    old = Store(database_url)
    try:
        old.migrate()
        old.create_table(_people("n1", 2), "a", 30)
        old.create_table(_people("n2", 2), "a", 30)
        old.create_table(_people("n3", 2), "a", 30)
        old.append_action("n3", 1, 0, "x", "over")
        with old.engine.begin() as conn:  # as an older Coven's clean shutdown left n1
            conn.execute(text("UPDATE coven_tables SET owner = NULL, lease_until = NULL WHERE id = 'n1'"))
            conn.execute(text("DROP INDEX ix_coven_tables_live_lease"))
            _without_banks(conn)
            conn.execute(text("UPDATE alembic_version SET version_num = '0005'"))
        assert old.orphaned_ids() == []  # read as this revision reads it: n1 would rest for ever
        old.migrate()
        assert old.revision() == "0008"
        assert old.orphaned_ids() == ["n1"]
        assert _owned_rows(old, "a") == {"n2"}
    finally:
        old.dispose()


def test_the_migration_cleans_the_seat_names_older_versions_stored(database_url: str) -> None:
    """Names stored before names were cleaned on the way in are cleaned as a new one is (revision 0007); one
    with nothing visible left takes the server's name for a seat nobody named; only the names that change
    are written, and every other field of the seat stays as it was."""
    old = Store(database_url)
    try:
        old.migrate()
        given = [
            StoredSeat(
                0, "human", "\u202eevil\u0007\u001b", None, hash_token("a"), True
            ),  # (PostgreSQL keeps no NUL)
            StoredSeat(1, "bot", "\u200b\u3164", "greedy", None, True),
            StoredSeat(2, "human", " \n\u2800\u202c", None, hash_token("c"), False),
            StoredSeat(3, "human", "Ana 👍🏽", None, hash_token("d"), False),
            StoredSeat(4, "human", "Zoé\u2028\u2066Ana\u2069  Lou", None, hash_token("e"), True),
            StoredSeat(5, "bot", "Old   Nick", "random", None, True),
        ]
        old.create_table(dataclasses.replace(_people("o1", 6), seats=tuple(given)))
        old.create_table(_people("o2", 2))  # clean names: nothing to write
        with old.engine.begin() as conn:  # as an older Coven left it
            _without_banks(conn)
            conn.execute(text("UPDATE alembic_version SET version_num = '0006'"))
        written: list[Any] = []

        def seen(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
            if statement.lstrip().upper().startswith("UPDATE COVEN_SEATS"):
                written.extend(parameters if many else [parameters])

        event.listen(old.engine, "before_cursor_execute", seen)
        old.migrate()
        event.remove(old.engine, "before_cursor_execute", seen)
        assert old.revision() == "0008"
        loaded = old.load_table("o1")
        assert loaded is not None
        names = ["evil", "greedy bot", "Player 3", "Ana 👍🏽", "Zoé Ana Lou", "Old Nick"]
        assert [s.name for s in loaded.seats] == names
        assert list(loaded.seats) == [
            dataclasses.replace(s, name=n) for s, n in zip(given, names, strict=True)
        ]
        assert len(written) == 5  # the five names that changed, no other row
        other = old.load_table("o2")
        assert other is not None and [s.name for s in other.seats] == ["P0", "P1"]
        old.migrate()  # once at the head, nothing more
        assert old.revision() == "0008"
    finally:
        old.dispose()


@settings(max_examples=500, deadline=None, database=None)
@given(st.text() | st.text(st.sampled_from("a \u200b\u202e\u3164\u2800\u0301\n\x00é\u2028\ufeff")))
def test_the_migrations_cleaning_is_the_servers(name: str) -> None:
    """Revision 0007 keeps its own copy of the rule (a revision does the same work whenever it runs): it
    cleans a name as the server cleans a new one."""
    assert clean_names.visible_name(name) == visible_text(name)


def test_the_heartbeats_and_the_lobbys_queries_read_an_index_on_sqlite(tmp_path: Path) -> None:
    """On SQLite, the queries a heartbeat runs (renew, orphans), the live tables' list and the lobby's
    newest tables find their rows through an index (the owner's, the status's for the live statuses, the
    newest first), never by reading and sorting every table ever played (``status != 'over'`` did: 15 ms a
    beat after 200,000 games, measured for issue 12)."""
    store = Store(f"sqlite:///{tmp_path / 'plan.sqlite3'}")
    try:
        store.migrate()
        statements: list[tuple[str, Any]] = []

        def seen(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
            words = statement.split()
            read = words[0] == "SELECT" and "FROM coven_tables" in statement
            if read or words[:2] == ["UPDATE", "coven_tables"]:
                statements.append((statement, parameters))

        event.listen(store.engine, "before_cursor_execute", seen)
        store.renew_leases("a", 30)
        store.orphaned_ids()
        store.unfinished_ids()
        store.list_tables(50)
        event.remove(store.engine, "before_cursor_execute", seen)
        assert len(statements) == 5
        with store.engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            for statement, parameters in statements:
                steps = [row[3] for row in raw.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)]
                for step in steps:
                    if step.startswith("SCAN coven_tables"):  # only the newest first, read in order
                        assert step.endswith("USING INDEX ix_coven_tables_recent"), (statement, steps)
                assert any("USING INDEX" in step for step in steps), (statement, steps)
                if "lease_until <" in statement:  # orphans: through the lease's index, never the resting
                    assert any("ix_coven_tables_live_lease" in step for step in steps), (statement, steps)
                if "DESC" in statement:  # the lobby's newest: not sorted (the live tables' few may be)
                    assert not any("TEMP B-TREE" in step for step in steps), (statement, steps)
    finally:
        store.dispose()


def test_progress_answers_for_more_tables_than_a_statement_can_bind(store: Store) -> None:
    """The heartbeat asks for every live table a process holds: more than a database binds in one
    statement (SQLite 32,766 values, PostgreSQL 65,535) is asked in parts, not refused."""
    store.create_table(_people("p1", 2))
    store.append_action("p1", 1, 0, "x", "playing")
    store.create_table(_people("p2", 2))
    asked = [f"none{i}" for i in range(70_000)]
    asked[1_234], asked[-1] = "p1", "p2"  # in different parts
    assert store.progress(asked) == {"p1": (1, "playing"), "p2": (0, "waiting")}
    assert store.progress([]) == {}


def test_tables_nobody_joined_expire_with_their_seats_and_no_other(store: Store) -> None:
    """Only a table still waiting, made before the cut, with no person's seat claimed and no live lease is
    deleted (its seats with it); a table someone sat down at, one a process holds, one made after the cut,
    and every table that started are kept. At most ``limit`` go a call."""
    from datetime import timedelta

    def made(table_id: str, days_ago: float, status: str = "waiting") -> StoredTable:
        at = datetime.now(UTC) - timedelta(days=days_ago)
        return dataclasses.replace(_people(table_id, 2), created_at=at, status=status)

    store.create_table(made("resting", 40))  # nobody came, and no process holds it
    store.create_table(made("resting-2", 35))
    store.create_table(made("resting-3", 31))
    store.create_table(made("joined", 40))
    store.claim_seat("joined", 1)  # one person sat down and waits for the other
    store.create_table(made("held", 40), "a", 30)  # in a process's memory, leased
    store.create_table(made("lapsed", 40), "a", 30)
    store.release_leases("a")  # its process ended: the lease has run out ...
    store.acquire_leases("a", ["held"], 30)  # (... "held"'s is taken again at once)
    store.create_table(made("recent", 5))
    store.create_table(made("started", 40, status="playing"))
    store.create_table(made("finished", 40, status="playing"))
    store.append_action("finished", 1, 0, "x", "over")

    cut = datetime.now(UTC) - timedelta(days=30)
    everything = {"resting", "resting-2", "resting-3", "lapsed"}
    first = store.expire_unjoined(cut, limit=3)
    assert len(first) == 3 and set(first) < everything
    rest = store.expire_unjoined(cut)
    assert len(rest) == 1 and set(first) | set(rest) == everything
    assert store.expire_unjoined(cut) == []
    for gone in everything:
        assert store.load_table(gone) is None
    for kept in ("joined", "held", "recent", "started", "finished"):
        assert store.load_table(kept) is not None, kept
    with store.engine.connect() as conn:  # their seats went with them
        seats = conn.execute(text("SELECT DISTINCT table_id FROM coven_seats")).all()
    assert {str(r[0]) for r in seats} == {"joined", "held", "recent", "started", "finished"}


def test_a_batch_of_steps_moves_each_table_on_whatever_its_row_says(store: Store) -> None:
    """The group commit's fast path writes a step that goes on with a narrower statement, where the row is
    at the step's status already; a table's last step (over), in the same batch as its earlier ones, comes
    after them; and a row at another status (here still waiting) still takes its step, by the slow path."""
    store.create_table(_people("g1", 2), "a", 30)
    store.create_table(_people("g2", 2), "a", 30)
    store.claim_seat("g1", 0)
    store.claim_seat("g1", 1)  # g1 playing; g2 still waiting in its row
    steps = [
        PendingStep("g1", 1, 0, "x", "playing"),
        PendingStep("g2", 1, 0, "y", "playing"),
        PendingStep("g1", 2, 1, "z", "over"),
    ]
    assert store.append_actions(steps) == [True, True, True]
    g1, g2 = store.load_table("g1"), store.load_table("g2")
    assert g1 is not None and g2 is not None
    assert (g1.number, g1.status, g1.actions) == (2, "over", ((0, "x"), (1, "z")))
    assert (g2.number, g2.status, g2.actions) == (1, "playing", ((0, "y"),))
    assert _owned_rows(store, "a") == {"g2"}  # the finished table is nobody's
    assert store.append_actions([PendingStep("g2", 2, 1, "w", "playing")]) == [True]
    assert store.append_actions([PendingStep("g2", 2, 1, "w", "playing")]) == [False]  # taken


@pytest.fixture
def postgres_url() -> Iterator[str]:
    from tests.store.backends import postgres_schema_url

    yield from postgres_schema_url()


@pytest.mark.postgres
def test_processes_starting_together_upgrade_the_schema_one_after_another(postgres_url: str) -> None:
    """docs/deploy.md starts its processes together on a new database: a second process's upgrade, begun
    while the first's is between its first table and its commit, waits for it and then finds the schema
    at the head (it created the same tables again and failed to start). A process, not a thread: Alembic
    keeps its running migration in module globals."""
    import subprocess
    import sys
    import threading
    import uuid

    name = f"coven-second-{uuid.uuid4().hex[:8]}"
    first, watcher = Store(postgres_url), Store(postgres_url)
    started: list[subprocess.Popen[str]] = []
    script = "import sys; from coven.store import Store; Store(sys.argv[1]).migrate()"

    def second_waits() -> bool:
        with watcher.engine.connect() as conn:
            query = text("SELECT wait_event_type FROM pg_stat_activity WHERE application_name = :name")
            return conn.execute(query, {"name": name}).scalar() == "Lock"

    def hold_the_first(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        if started or not statement.lstrip().upper().startswith("CREATE TABLE"):
            return
        url = f"{postgres_url}&application_name={name}"
        started.append(
            subprocess.Popen([sys.executable, "-c", script, url], stderr=subprocess.PIPE, text=True)
        )
        for _ in range(6000):  # until the second waits behind the first's transaction
            if second_waits() or started[0].poll() is not None:
                return
            threading.Event().wait(0.01)

    event.listen(first.engine, "after_cursor_execute", hold_the_first)
    try:
        first.migrate()
        assert started, "the first upgrade made no table"
        _, errors = started[0].communicate(timeout=120)
        assert started[0].returncode == 0, [line for line in errors.splitlines() if "Error" in line][-1:]
        assert first.revision() is not None
    finally:
        for process in started:
            process.kill()
        first.dispose()
        watcher.dispose()


@pytest.mark.postgres
def test_postgresql_connections_give_up_after_a_timeout_unless_the_url_says(postgres_url: str) -> None:
    """libpq waits for a connection as long as the system does: a database host that drops packets held
    ``coven serve``'s start check (and every reconnection) for minutes. Each connection now gives up after
    :data:`PG_CONNECT_TIMEOUT` seconds, or what the URL's own ``connect_timeout`` says."""
    from coven.store.store import PG_CONNECT_TIMEOUT

    def timeout_of(url: str) -> str:
        store = Store(url)
        try:
            with store.engine.connect() as connection:
                raw = connection.connection.dbapi_connection
                assert raw is not None
                return str(raw.info.get_parameters()["connect_timeout"])
        finally:
            store.dispose()

    assert timeout_of(postgres_url) == str(PG_CONNECT_TIMEOUT)
    assert timeout_of(f"{postgres_url}&connect_timeout=3") == "3"
