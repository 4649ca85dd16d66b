"""`coven bench server`: a short run per game on SQLite (figures present and sane; never timed)."""

from __future__ import annotations

import asyncio
import gc
import json
import math
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coven.cli import app
from coven.games import game_ids
from coven.server import bench, echo
from coven.server.settings import Settings

GAMES = [g for g in ("brujas", "amulets", "namaste", "commandments") if g in game_ids()]
POSITIVE = (
    "moves",
    "moves_per_s",
    "ack_p50_ms",
    "ack_p99_ms",
    "server_cpu_us_per_move",
    "echo_messages",
    "echo_cpu_us_per_message",
    "cpu_ratio",
    "fanout_messages",
    "fanout_cpu_us_per_message",
    "fanout_ratio",
    "table_cpu_us_per_move",
    "memory_rss_mb",
    "frames_per_move",
    "setup_tables",
    "setup_server_cpu_ms_per_table",
)
PRESENT = (
    *POSITIVE,
    "game",
    "database",
    "commit",
    "tables",
    "games",
    "memory_growth_mb",
    "ack_p99_ms_without_bots",
    "ack_p99_ms_with_bots",
    "bot_p99_ratio",
    "commit_share",
    "commit_cpu_us_per_move",
    # the first version's names
    "games_finished",
    "moves_per_second",
    "ack_ms_p50",
    "ack_ms_p99",
    "errors",
)


def _positive(result: dict[str, object], key: str) -> None:
    value = result[key]
    assert isinstance(value, int | float) and math.isfinite(value) and value > 0, (key, value)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_bench_server_reports_its_figures(game: str) -> None:
    bots = 1 if game == "namaste" else 0  # its best bot is quick: games end within the run
    # 2 s phases: a measured window of about 1.6 s, long enough that a busy machine still shows moves
    writer = game == "amulets"  # one of the games with the server's store writer process, as it may run
    result = bench.bench_server(game=game, tables=2, bot_tables=bots, seconds=2.0, commit_process=writer)
    gc.collect()  # a client socket the bench left open is found here, in its own test (warnings are errors)
    assert set(PRESENT) <= set(result)
    assert result["game"] == game and result["tables"] == 2
    assert result["database"] == "sqlite (temporary file)"
    assert result["commit"] == ("process" if writer else "thread")
    assert result["commit_interval"] == Settings().commit_interval
    for key in POSITIVE:
        _positive(result, key)
    assert result["ack_p50_ms"] <= result["ack_p99_ms"]
    # the fan-out's message came back on every connection of its table, as an update goes to every seat
    assert result["fanout_frames_per_message"] == result["players_per_table"]
    assert isinstance(result["memory_growth_mb"], float) and math.isfinite(result["memory_growth_mb"])
    assert result["unexpected_errors"] == 0, result["errors"]  # stale/conflict are part of normal play
    # the set-ups of the people's tables, priced by the set-up phase, are a part of the people's CPU
    assert isinstance(result["tables_started"], int) and result["tables_started"] >= 0
    assert isinstance(result["setup_share"], float) and result["setup_share"] >= 0
    beyond = result["server_cpu_us_per_move_beyond_setup"]
    assert isinstance(beyond, float) and beyond <= result["server_cpu_us_per_move"]
    if result["tables_started"]:
        assert result["setup_share"] > 0 and beyond < result["server_cpu_us_per_move"]
    # the commit thread's part of the server's CPU (a few ticks of the clock in so short a run: maybe 0)
    share = result["commit_share"]
    assert isinstance(share, float) and 0 <= share < 1, share
    parts = result["cpu_ratio_parts"]
    assert parts is not None and tuple(parts) == bench.RATIO_PARTS and min(parts.values()) >= 0
    if parts["rest"] > 0:  # (else the parts that overlap add up to more than the whole)
        assert abs(sum(parts.values()) - result["cpu_ratio"]) < 0.05
    # the ratio round by round: its quartiles hold the middle half of the rounds (here about four)
    rounds = result["cpu_ratio_rounds"]
    assert isinstance(rounds, int) and rounds >= 1
    if rounds >= 2:
        assert 0 < result["cpu_ratio_q1"] <= result["cpu_ratio_q3"]
    json.dumps(result, allow_nan=False)
    if bots:
        for key in ("ack_p99_ms_with_bots", "bot_p99_ratio", "moves_per_s_with_bots"):
            _positive(result, key)


RUN: dict[str, float] = {
    "cpu_ratio": 10.0,
    "fanout_ratio": 2.0,
    "setup_share": 0.1,
    "commit_share": 0.25,
    "table_cpu_us_per_move": 30.0,
    "echo_cpu_us_per_message": 20.0,
}
"""A run's figures that :func:`bench.ratio_parts` reads."""


def test_the_ratio_is_shown_in_its_parts() -> None:
    run = RUN
    # the table's own work is its CPU a move in echo messages (30 / 20); the rest is what none of them is
    assert bench.ratio_parts(run) == {
        "transport": 2.0,
        "setup": 1.0,
        "commit": 2.5,
        "table": 1.5,
        "rest": 3.0,
    }
    # parts that overlap beyond the whole leave nothing for the table and the rest, never less; the
    # transport's floor is never more than the whole
    assert bench.ratio_parts({**run, "fanout_ratio": 12.0}) == {
        "transport": 10.0,
        "setup": 1.0,
        "commit": 2.5,
        "table": 0.0,
        "rest": 0.0,
    }
    # the table's part is at most what the others leave
    assert bench.ratio_parts({**run, "table_cpu_us_per_move": 200.0}) == {
        "transport": 2.0,
        "setup": 1.0,
        "commit": 2.5,
        "table": 4.5,
        "rest": 0.0,
    }
    for missing in (*run, "echo_cpu_us_per_message"):
        assert bench.ratio_parts({**run, missing: None}) is None
    assert bench.ratio_parts({**run, "commit_share": True}) is None
    assert bench.ratio_parts({**run, "echo_cpu_us_per_message": 0.0}) is None


def test_a_table_alone_prices_a_moves_own_work() -> None:
    """Phase 5 plays whole games at a table in this process (every seat listening) and gives its CPU a
    move: the rules, the views, the legal lists and the frames, as the server makes them."""
    for game, players in (("namaste", 2), ("commandments", 3)):
        spent = bench.table_cpu_per_move(game, players, 0.2, seed=1)
        assert isinstance(spent, float) and 0 < spent < 100_000, (game, spent)


def test_the_ratio_round_by_round_pairs_each_peoples_slice_with_the_echos_after_it() -> None:
    people = [(0.30, 1000), (0.20, 0), (0.33, 1100), (0.25, 1000), (0.0, 10)]
    echo = [(0.03, 1000), (0.03, 1000), (0.03, 1000), (0.025, 1000)]
    # each round's CPU per move over its own echo's CPU per message; a round with nothing answered (or no
    # CPU read) is left out, and a people's slice with no echo after it too
    assert bench.ratio_rounds(people, echo) == pytest.approx([10.0, 10.0, 10.0])
    assert bench.ratio_rounds(people, []) == []
    assert bench.quartiles([10.0, 12.0, 9.0, 30.0, 11.0]) == (10.0, 12.0)  # an outlier round moves neither
    assert bench.quartiles([10.0]) is None and bench.quartiles([]) is None


def test_the_benchs_table_shows_where_a_moves_cpu_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    from coven import cli

    run = {**RUN, "moves": 5}
    spread = {"cpu_ratio_rounds": 8, "cpu_ratio_q1": 9.6, "cpu_ratio_q3": 10.7}
    result = {**run, **spread, "cpu_ratio_parts": bench.ratio_parts(run)}
    monkeypatch.setattr(bench, "bench_server", lambda **_: result)
    # wide enough for the table on one line a row: the CLI's console was made at import, and under
    # pytest-xdist COLUMNS=80 was set then (which a console keeps), so the environment alone is not enough
    monkeypatch.setattr(cli.console, "_width", 200)
    outcome = CliRunner().invoke(app, ["bench", "server", "--game", "brujas"], env={"COLUMNS": "200"})
    assert outcome.exit_code == 0, outcome.output
    assert "a move's server CPU: 10.0 echo messages (cpu_ratio), in parts" in outcome.output
    for label, value in (("fanout_ratio", "2.00"), ("setup_share", "1.00"), ("commit_share", "2.50")):
        line = next(row for row in outcome.output.splitlines() if f"({label})" in row)
        assert value in line and "█" in line
    table = next(row for row in outcome.output.splitlines() if "(table_cpu_us_per_move)" in row)
    assert "1.50" in table and table.count("█") == 6  # 1.5 of 10 on a bar of 40
    rest = next(row for row in outcome.output.splitlines() if "the rest" in row)
    assert "3.00" in rest and rest.count("█") == 12
    assert "half of the 8 rounds between 9.6 and 10.7 (the run's own noise)" in outcome.output


def test_bench_server_refuses_what_it_cannot_run() -> None:
    runner = CliRunner()
    outcome = runner.invoke(app, ["bench", "server", "--game", "brujas", "--per-table", "9", "--json"])
    assert outcome.exit_code != 0
    with pytest.raises(ValueError, match="positive"):
        bench.bench_server(seconds=0)
    for interval in (-0.001, 0.5, math.nan):
        with pytest.raises(ValueError, match="commit_interval"):
            bench.bench_server(commit_interval=interval)


def test_process_usage_reads_this_process() -> None:
    import os

    usage = bench.process_usage(os.getpid())
    if usage is None:
        pytest.skip("no /proc here")
    assert usage.cpu > 0 and usage.rss > 0


def test_the_commit_threads_cpu_is_told_apart_by_its_name() -> None:
    import os
    import threading
    import time

    from coven.server import commits

    if bench.process_usage(os.getpid()) is None:
        pytest.skip("no /proc here")
    burned, leave = threading.Event(), threading.Event()

    def work() -> None:  # a thread named as the group commit names its own, busy for 0.3 s of CPU
        commits.name_os_thread(commits.THREAD_NAME)
        started = time.thread_time()
        while time.thread_time() - started < 0.3:
            pass
        burned.set()
        leave.wait()

    before = bench.process_usage(os.getpid())
    thread = threading.Thread(target=work)
    thread.start()
    try:
        assert burned.wait(30)
        after = bench.process_usage(os.getpid())
        assert before is not None and after is not None and after.commit_cpu is not None
        spent = bench._committing(before, after)
        tick = 1 / bench._TICKS  # both are counted in clock ticks, the process's and the thread's apart
        assert spent is not None and 0.25 <= spent <= after.cpu - before.cpu + tick
    finally:
        leave.set()
        thread.join()
    # a thread that starts between two readings counts from nothing; one that ended (its successor has
    # used less than it had) or is missing cannot be told
    assert bench._committing(bench.Usage(1.0, 1), bench.Usage(2.0, 1, 0.5)) == 0.5
    assert bench._committing(bench.Usage(1.0, 1, 0.5), bench.Usage(2.0, 1, 0.2)) is None
    assert bench._committing(bench.Usage(1.0, 1, 0.5), bench.Usage(2.0, 1)) is None
    assert bench._committing(None, bench.Usage(2.0, 1, 0.5)) is None


_BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\n"
_NAMED = "open('/proc/self/comm', 'w').write('coven-commit')\n"
_PARENT = f"""
import subprocess, sys, time
burn = {_BURN!r}
ended = subprocess.Popen([sys.executable, "-c", burn])
ended.wait()  # its CPU is now the parent's cutime
named = {_NAMED!r}  # as the store's writer names itself
said = "print('burned', flush=True)\\n"  # (on the parent's output, which it shares)
alive = subprocess.Popen([sys.executable, "-c", named + burn + said + "time.sleep(60)"])
print("ready", flush=True)
time.sleep(60)
"""


def test_a_servers_cpu_counts_its_child_processes(tmp_path: Path) -> None:
    # a server's bot workers and store writer are its children: their CPU is the server's, whether they
    # still run or have ended (and been waited for); the writer's is the group commit's too
    import os
    import signal
    import subprocess
    import time

    if bench.process_usage(os.getpid()) is None:
        pytest.skip("no /proc here")
    parent = subprocess.Popen(
        [sys.executable, "-c", _PARENT], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
        # the living child has burned its 0.3 s (the CPU of both children's start-up alone could reach the
        # sum waited for below before it had: its thread then counted 0.24 s, in a CI run)
        assert parent.stdout.readline().strip() == "burned"
        deadline = time.monotonic() + 20.0
        while True:
            own, group = bench.process_usage(parent.pid), bench.process_usage(parent.pid, group=True)
            assert own is not None and group is not None
            if group.cpu >= own.cpu + 0.55 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert group.cpu >= own.cpu + 0.55  # both children's 0.3 s (ticks of 10 ms: a little less)
        assert own.cpu < 0.3  # the parent itself only started them
        assert group.rss == own.rss  # the memory stays the server's own
        assert own.commit_cpu is None  # the parent has no commit thread; its child writer burned 0.3 s
        assert group.commit_cpu is not None and 0.25 <= group.commit_cpu <= group.cpu - own.cpu
    finally:
        os.killpg(parent.pid, signal.SIGKILL)
        parent.wait()
        assert parent.stdout is not None
        parent.stdout.close()


def test_the_people_measure_with_no_collection_of_their_own() -> None:
    # a pause of the bench's own collector would look like a stall of the server in every ack at once
    import weakref

    class Node:
        me: object = None

    assert gc.isenabled()
    with bench._quiet_collector():
        assert not gc.isenabled() and gc.get_freeze_count() > 0
        node = Node()
        node.me = node  # a cycle: only a collection frees it
        gone = weakref.ref(node)
        del node
        assert gone() is not None  # nothing collects it while the people measure...
        bench.collect_garbage()
        assert gone() is None  # ...until between slices
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_gate_holds_its_clients_and_knows_when_their_answers_are_in() -> None:
    async def scenario() -> list[str]:
        seen: list[str] = []
        gate = bench.Gate()
        await gate.passed()  # open from the start
        gate.close()

        async def client() -> None:
            await gate.passed()
            gate.busy += 1
            seen.append("sent")
            await asyncio.sleep(0.05)
            gate.busy -= 1
            seen.append("answered")

        task = asyncio.ensure_future(client())
        await asyncio.sleep(0.02)
        seen.append("still closed")
        gate.open()
        await asyncio.sleep(0.01)
        gate.close()
        assert gate.busy == 1
        assert await gate.drained(5.0)
        seen.append("drained")
        await task
        gate.busy += 1  # an answer that never comes: the wait gives up
        assert not await gate.drained(0.05)
        return seen

    assert asyncio.run(scenario()) == ["still closed", "sent", "answered", "drained"]


@pytest.mark.slow
def test_bench_server_can_run_until_games_have_ended() -> None:
    # memory growth over finished games is only a figure over enough of them: --games N waits for N
    result = bench.bench_server(game="brujas", tables=2, games=2, seconds=1.0)
    assert result["games"] >= 2
    assert isinstance(result["memory_growth_mb_per_1000_games"], float)
    assert result["unexpected_errors"] == 0, result["errors"]
    with pytest.raises(ValueError, match="games"):
        bench.bench_server(games=-1)


def test_steady_memory_growth_is_taken_over_the_second_half_of_the_games() -> None:
    mb = 2**20
    # a warm-up that fills once (10 MB by game 500), then flat: no growth in the steady state
    filled = bench.Window(1.0, None, 0.0, 100 * mb, 110 * mb, rss_half=110 * mb, games_half=500)
    assert bench._steady_growth(filled, 1000) == 0.0
    # a leak of 4 kB a game shows in the second half as in the first
    leak = bench.Window(
        1.0, None, 0.0, 100 * mb, 100 * mb + 4_000_000, rss_half=100 * mb + 2_000_000, games_half=500
    )
    assert bench._steady_growth(leak, 1000) == round(2_000_000 / mb * 1000 / 500, 1) == 3.8
    # no sample at half way (the games ended together): the whole window, not nothing
    whole = bench.Window(1.0, None, 0.0, 100 * mb, 103 * mb)
    assert bench._steady_growth(whole, 2) == 1500.0
    assert bench._steady_growth(whole, 0) is None


def test_servers_started_side_by_side_each_bind_their_own_port(tmp_path: Path) -> None:
    # Each child picks its port and says which: the parent never hands out a port that another
    # process (the other child, a client's connection) could take before the child binds it.
    logs = [open(tmp_path / f"{name}.log", "w+b") for name in ("a", "b")]  # noqa: SIM115
    children = [
        bench.Child([sys.executable, "-P", echo.__file__], tmp_path / f"{name}.port", log)
        for name, log in zip(("a", "b"), logs, strict=True)
    ]
    try:
        answers = [child.wait_ready() for child in children]
        assert answers == [{"ok": True, "echo": True}] * 2
        ports = [child.port for child in children]
        assert ports[0] != ports[1] and all(port > 0 for port in ports)
        assert [int((tmp_path / f"{name}.port").read_text()) for name in ("a", "b")] == ports
    finally:
        for child in children:
            child.stop()
        for log in logs:
            log.close()


def test_a_server_that_cannot_start_is_reported_with_its_log(tmp_path: Path) -> None:
    with open(tmp_path / "x.log", "w+b") as log:
        child = bench.Child(
            [sys.executable, "-c", "import sys; sys.exit('no socket for you')"], tmp_path / "x.port", log
        )
        with pytest.raises(RuntimeError, match="no socket for you"):
            child.wait_ready()
        child.stop()


def test_a_table_that_never_starts_stops_the_set_up_phase_with_a_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a server that takes the table but never starts its game: the phase says so instead of waiting
    class Server:
        base_http, base_ws = "http://127.0.0.1:1", "ws://127.0.0.1:1"

        def usage(self) -> None:
            return None

    async def never_started(_url: str, _token: str) -> None:
        await asyncio.sleep(3600)

    created = {"table": {"id": "t"}, "invites": [{"token": "a"}, {"token": "b"}]}
    monkeypatch.setattr(bench, "_http", lambda *_args: created)
    monkeypatch.setattr(bench, "_seated", never_started)
    monkeypatch.setattr(bench, "SETUP_TIMEOUT", 0.05)
    with pytest.raises(RuntimeError, match=r"not set up within 0\.05 s"):
        asyncio.run(bench._setup_phase(Server(), "brujas", 2, 1, 5.0))  # type: ignore[arg-type]


def test_the_echo_app_fans_a_frame_out_to_its_group_only() -> None:
    from tests.server.conftest import TestClient

    with TestClient(echo.create_echo_app()) as client:
        with (
            client.websocket_connect("/ws/echo/fan/a") as first,
            client.websocket_connect("/ws/echo/fan/a") as second,
            client.websocket_connect("/ws/echo/fan/b") as other,
        ):
            first.send_text("one")
            assert (first.receive_text(), second.receive_text()) == ("one", "one")
            other.send_text("two")  # its group is itself alone: nothing of "one" reached it
            assert other.receive_text() == "two"
            second.send_text("three")
            assert (first.receive_text(), second.receive_text()) == ("three", "three")
        assert echo._groups == {}  # a group goes with its last connection
        with client.websocket_connect("/ws/echo") as alone:
            alone.send_text("four")
            assert alone.receive_text() == "four"
