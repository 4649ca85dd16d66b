"""`coven serve` (its default database); `coven bench server` is tested in test_bench.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from coven.server import commands, settings


def test_serve_without_arguments_uses_a_database_in_the_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(settings, "default_data_dir", lambda: tmp_path / "coven-data")
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    commands.serve()
    assert (tmp_path / "coven-data").is_dir()  # created on first start
    assert calls[0]["host"] == "127.0.0.1" and calls[0]["port"] == 8000
    assert calls[0]["app"].state.settings.database_url.endswith("coven-data/coven.sqlite3")
    out = capsys.readouterr().out
    assert "http://localhost:8000/" in out


def test_serve_with_a_database_url(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    commands.serve(host="127.0.0.1", port=8123, database="postgresql+psycopg://me:hunter2@127.0.0.1/coven")
    assert calls[0]["port"] == 8123
    out = capsys.readouterr().out
    assert "hunter2" not in out and "***" in out
