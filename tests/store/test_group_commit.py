"""Group commit: steps of many tables arriving together share one transaction; a conflict in the batch
refuses only its own step."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from coven.server.commits import GroupCommit
from coven.store import ConflictError, PendingStep, Store, StoredSeat, StoredTable


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    s = Store(database_url)
    s.migrate()
    yield s
    s.dispose()


def _table(table_id: str) -> StoredTable:
    seats = (StoredSeat(0, "bot", "b", "random", None, True), StoredSeat(1, "bot", "b", "random", None, True))
    return StoredTable(table_id, "toy", 2, {}, 1, "playing", 0, datetime.now(UTC), seats)


def test_a_batch_commits_each_step_that_is_next_and_only_those(store: Store) -> None:
    for i in range(3):
        store.create_table(_table(f"g{i}"))
    steps = [
        PendingStep("g0", 1, 0, "a", "playing"),
        PendingStep("g1", 2, 0, "b", "playing"),  # g1 is at 0: not its next step
        PendingStep("g2", 1, 1, "c", "over"),
        PendingStep("g0", 2, 1, "d", "playing"),  # g0's next, after the first in this batch
    ]
    assert store.append_actions(steps) == [True, False, True, True]
    assert store.actions_after("g0", 0) == [(1, 0, "a"), (2, 1, "d")]
    assert store.actions_after("g1", 0) == []
    assert store.progress(["g0", "g1", "g2"]) == {
        "g0": (2, "playing"),
        "g1": (0, "playing"),
        "g2": (1, "over"),
    }


def test_steps_arriving_together_share_a_transaction(store: Store) -> None:
    tables = [f"t{i}" for i in range(40)]
    for table_id in tables:
        store.create_table(_table(table_id))
    commits = GroupCommit(store)

    async def play() -> list[BaseException | None]:
        steps = [PendingStep(t, 1, 0, "x", "playing") for t in tables]
        steps.append(PendingStep("t0", 5, 0, "late", "playing"))  # not t0's next: refused alone
        return await asyncio.gather(*(commits.append(s) for s in steps), return_exceptions=True)

    outcomes = asyncio.run(play())
    assert outcomes[:-1] == [None] * len(tables)
    assert isinstance(outcomes[-1], ConflictError)
    assert commits.batches <= 2, f"{len(tables)} steps took {commits.batches} transactions"
    assert all(store.actions_after(t, 0) == [(1, 0, "x")] for t in tables)
