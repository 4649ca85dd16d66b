"""What the command line runs: ``coven serve`` and ``coven bench server``."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import json
import logging
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from coven.server.settings import Settings

LOOPBACK = "127.0.0.1"


def _redacted(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.rsplit("@", maxsplit=1)[-1]


class OneLineLogs(logging.Filter):
    """Every log record on one line, without a traceback (an exception shows as its type and message):
    what a client sends can never fill the server's log with tracebacks (uvicorn, for one, logs a text
    frame that is not UTF-8 with its traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info is None and record.stack_info is None and "\n" not in text:
            return True
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            text = f"{text} ({type(exc).__name__}: {exc})"
        text = " ".join(text.split())
        record.msg = text if len(text) <= 500 else text[:497] + "..."
        record.args = None
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


def log_config(log_level: str) -> dict[str, Any]:
    """uvicorn's logging configuration, with Coven's loggers (and any other library's warnings, through the
    root logger) on its handler, and every record one line."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
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
) -> None:
    """Serve Coven under uvicorn. No database: an SQLite file in the per-user data folder.

    ``bus_namespace``: this deployment's namespace on a shared Redis (default ``$COVEN_BUS_NAMESPACE``,
    else ``coven``)."""
    import uvicorn

    from coven.server.app import create_app
    from coven.server.settings import bus_prefix_for

    settings = Settings(database_url=database, bus_url=bus)
    if bus_namespace is not None:
        settings = dataclasses.replace(settings, bus_prefix=bus_prefix_for(bus_namespace))
    if bot_pause is not None:
        settings = dataclasses.replace(settings, bot_pause=bot_pause)
    url = settings.resolved_database_url()  # creates the data folder on first start
    settings = dataclasses.replace(settings, database_url=url)
    shown = "localhost" if host in {"127.0.0.1", "::1", "localhost"} else host
    print(f"Coven is serving on http://{shown}:{port}/  (open it in a browser)", flush=True)
    print(f"database: {_redacted(url)}", flush=True)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        # the transport refuses what the protocol would refuse (close 1009), before buffering it
        ws_max_size=settings.max_frame_bytes,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        ws_per_message_deflate=False,  # small JSON messages: compression costs more CPU than it saves
        log_level=log_level,
        log_config=log_config(log_level),
    )


# --------------------------------------------------------------------------- bench
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOOPBACK, 0))
        port: int = s.getsockname()[1]
        return port


def _http(method: str, url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read().decode("utf-8"))


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def _player(
    base: str,
    table_id: str,
    token: str,
    seed: int,
    latencies: list[float],
    errors: Counter[str],
    deadline: float,
) -> tuple[int, bool]:
    """One simulated person: plays a random legal action whenever the game waits for it.

    Returns how many of its actions were acknowledged, and whether it saw the game end."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    moves = 0
    finished = False
    pending: dict[int, float] = {}
    next_id = 0
    acted_at = -1
    async with connect(f"{base}/ws/tables/{table_id}", max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(raw)
            kind = message["type"]
            if kind == "ack":
                sent = pending.pop(int(message["id"]), None)
                if sent is not None:
                    latencies.append((time.perf_counter() - sent) * 1000.0)
                    moves += 1
                continue
            if kind == "error":
                errors[message["code"]] += 1
                if isinstance(message.get("id"), int):
                    pending.pop(message["id"], None)
                acted_at = -1  # try again on the next view
                continue
            if kind not in {"sync", "update"}:
                continue
            if message["status"] == "over":
                finished = True
                break
            legal = message.get("legal")
            if not legal or not legal["required"] or acted_at == message["number"] or pending:
                continue
            action = rng.choice(legal["actions"])["notation"]
            next_id += 1
            pending[next_id] = time.perf_counter()
            acted_at = message["number"]
            await ws.send(
                json.dumps({"type": "act", "number": message["number"], "action": action, "id": next_id})
            )
    return moves, finished


async def _table_group(
    base_http: str,
    base_ws: str,
    game: str,
    count: int,
    group: int,
    seed: int,
    deadline: float,
    sink: dict[str, Any],
) -> None:
    """The people of one table: play a game, and while there is time, sit down at a new table."""
    round_ = 0
    while time.monotonic() < deadline:
        body = {
            "game": game,
            "players": count,
            "seats": [{"kind": "human"}] * count,
        }  # the server deals; ``seed`` drives only the simulated people's choices
        created = await asyncio.to_thread(_http, "POST", f"{base_http}/api/tables", body)
        table_id = created["table"]["id"]
        players = [
            _player(
                base_ws,
                table_id,
                i["token"],
                seed + group * 100 + i["seat"] + round_,
                sink["latencies"],
                sink["errors"],
                deadline,
            )
            for i in created["invites"]
        ]
        results = await asyncio.gather(*players)  # (never `sink[...] += await ...`: that loses updates)
        sink["moves"] += sum(moves for moves, _ in results)
        if all(finished for _, finished in results):
            sink["games"] += 1
        round_ += 1


async def _bench_clients(
    base_http: str, base_ws: str, game: str, count: int, tables: int, seconds: float, seed: int
) -> dict[str, Any]:
    sink: dict[str, Any] = {"latencies": [], "errors": Counter(), "moves": 0, "games": 0}
    deadline = time.monotonic() + seconds
    started = time.perf_counter()
    await asyncio.gather(
        *(_table_group(base_http, base_ws, game, count, g, seed, deadline, sink) for g in range(tables))
    )
    sink["seconds"] = time.perf_counter() - started
    return sink


def bench_server(
    players: int = 64,
    seconds: float = 10.0,
    game: str = "brujas",
    per_table: int | None = None,
    database: str | None = None,
    seed: int = 1,
) -> dict[str, Any]:
    """Simulated people over real websockets on loopback against a server started on a free port.

    ``players`` people sit at tables of ``game`` (``per_table`` each, default the game's minimum; every
    seat a simulated person) and play random legal actions as fast as acknowledgements come; when a
    game ends its people sit down at a new table, until ``seconds`` have passed. Returns moves per second
    and the 50th/99th percentile time from sending an action to its ``ack`` (sent only after the step is
    committed to the database). The server runs in a child process; everything is on 127.0.0.1.
    """
    from coven.games import get_game

    spec = get_game(game).spec
    count = per_table or spec.min_players
    tables = max(1, players // count)
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="coven-bench-") as tmp:
        url = database or f"sqlite:///{(Path(tmp) / 'bench.sqlite3').as_posix()}"
        child = subprocess.Popen(
            [sys.executable, "-m", "coven.server.commands", "--bench-child", str(port), url],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base_http = f"http://{LOOPBACK}:{port}"
            for _ in range(400):
                try:
                    _http("GET", f"{base_http}/api/health")
                    break
                except (urllib.error.URLError, ConnectionError, OSError):
                    if child.poll() is not None:
                        raise RuntimeError("the bench server did not start") from None
                    time.sleep(0.05)
            result = asyncio.run(
                _bench_clients(base_http, f"ws://{LOOPBACK}:{port}", game, count, tables, seconds, seed)
            )
        finally:
            child.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(timeout=10)
            if child.poll() is None:
                child.kill()
                child.wait()
    latencies: list[float] = result["latencies"]
    return {
        "game": game,
        "players": tables * count,
        "tables": tables,
        "games_finished": result["games"],
        "moves": result["moves"],
        "seconds": round(result["seconds"], 3),
        "moves_per_second": round(result["moves"] / result["seconds"], 1) if result["seconds"] else 0.0,
        "ack_ms_p50": round(_percentile(latencies, 0.50), 2),
        "ack_ms_p99": round(_percentile(latencies, 0.99), 2),
        "ack_ms_mean": round(statistics.fmean(latencies), 2) if latencies else 0.0,
        "errors": dict(result["errors"]),
        "database": _redacted(database) if database else "sqlite (temporary file)",
    }


def _bench_child(port: int, url: str) -> None:
    import uvicorn

    from coven.server.app import create_app

    settings = Settings(database_url=url, bot_pause=0, rate_limit=1000, rate_burst=1000, ping_interval=0)
    uvicorn.run(
        create_app(settings),
        host=LOOPBACK,
        port=port,
        log_level="warning",
        ws_max_size=4 * 16_384,
        ws_per_message_deflate=False,
    )


if __name__ == "__main__":  # the bench's server process
    if len(sys.argv) == 4 and sys.argv[1] == "--bench-child":
        _bench_child(int(sys.argv[2]), sys.argv[3])
