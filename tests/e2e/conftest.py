"""End-to-end fixtures: the real server (uvicorn, its own SQLite file) and Debian's headless Chromium."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVE = Path(__file__).with_name("serve.py")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A ``coven`` server process on a free loopback port; stop and start it again on the same database."""

    def __init__(self, tmp: Path, env: dict[str, str] | None = None) -> None:
        self.env = env or {}
        """Environment of the server process beyond this one's (``COVEN_CREATE_LIMIT``, ...)."""
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.data_dir = tmp
        self.database = f"sqlite:///{tmp / 'coven.db'}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tmp / "server.log"

    def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1", **self.env)
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, str(SERVE), str(self.port), self.database, str(self.data_dir)],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-3000:]}")
            try:
                self.get("/api/health")
                return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError(f"the server did not come up: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=8)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as res:
            return json.loads(res.read().decode())

    def post(self, path: str, body: Any) -> Any:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read().decode())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server (and database) per test module: tables do not interfere, and start-up is paid once."""
    srv = Server(tmp_path_factory.mktemp("server"))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def solo_server(tmp_path: Path) -> Iterator[Server]:
    """A server of its own, for a test whose game may keep the server busy."""
    srv = Server(tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """Package scope: Playwright's sync API keeps an event loop on the main thread while it is open, so
    it must be closed before the tests of other packages (which call ``asyncio.run``) start."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("Chromium is required in CI: apt-get install -y chromium")
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def watch_errors(ctx: Any) -> list[str]:
    """Uncaught script errors of every page of a browser context (a test ends by asserting none)."""
    errors: list[str] = []
    ctx.on("page", lambda page: page.on("pageerror", lambda exc: errors.append(str(exc))))
    return errors


@contextmanager
def watched_context(browser: Any, **options: Any) -> Iterator[Any]:
    """A browser context (``options``: Playwright's) with a 15 s default timeout, closed at the end, which
    then fails the test if any of its pages raised a script error."""
    ctx = browser.new_context(**options)
    ctx.set_default_timeout(15_000)
    errors = watch_errors(ctx)
    try:
        yield ctx
    finally:
        ctx.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    with watched_context(browser, viewport={"width": 1280, "height": 900}) as ctx:
        yield ctx


@pytest.fixture
def fr(browser: Any) -> Iterator[Any]:
    """A French browser context on a desktop screen (:func:`tests.e2e.test_i18n.french`)."""
    from tests.e2e.test_i18n import french  # (here, not at the top: that module imports this one)

    with french(browser, "desktop") as ctx:
        yield ctx
