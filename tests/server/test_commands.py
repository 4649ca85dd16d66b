"""`coven serve` (its default database, what it checks before it starts); `coven bench server` is tested in
test_bench.py."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coven.cli import app
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
    monkeypatch.setattr(commands, "check_database", lambda url: None)  # no such server here
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    commands.serve(host="127.0.0.1", port=8123, database="postgresql+psycopg://me:hunter2@127.0.0.1/coven")
    assert calls[0]["port"] == 8123
    out = capsys.readouterr().out
    assert "hunter2" not in out and "***" in out


def _closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def never_served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[object]:
    """uvicorn replaced (the apps it would have been given), and the data folder in ``tmp_path``."""
    import uvicorn

    apps: list[object] = []
    monkeypatch.setattr(settings, "default_data_dir", lambda: tmp_path / "coven-data")
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: apps.append(app))
    return apps


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"database": "notaurl"}, "'notaurl' is not a database URL: use sqlite:///PATH or postgresql"),
        ({"database": "mysql://me@127.0.0.1/coven"}, "no driver for 'mysql' here"),
        ({"database": "nosuchdb://x"}, "no driver for 'nosuchdb' here"),
        ({"database": "postgresql+psycopg://postgres@127.0.0.1:{port}/coven"}, "cannot open the database"),
        ({"database": "sqlite:///{tmp}/no-folder/coven.sqlite3"}, "unable to open database file"),
        ({"bus": "http://127.0.0.1/"}, "unknown bus URL 'http://127.0.0.1/'"),
        ({"bus": "redis://127.0.0.1:{port}/7"}, "cannot reach the bus's Redis at redis://127.0.0.1:"),
    ],
)
def test_serve_refuses_what_it_cannot_use_in_one_line_before_announcing_anything(
    options: dict[str, str],
    said: str,
    never_served: list[object],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    port = _closed_port()
    given = {key: value.format(port=port, tmp=tmp_path) for key, value in options.items()}
    with pytest.raises(commands.StartupError) as refused:
        commands.serve(port=_closed_port(), **given)
    message = str(refused.value)
    assert said in message and "\n" not in message, message
    assert never_served == []
    assert capsys.readouterr().out == ""  # not "Coven is serving on ..." first
    # a bad bus, or a database of one's own, leaves the data folder alone
    assert not (tmp_path / "coven-data").exists()


def test_serve_refuses_a_database_of_a_schema_it_does_not_know_and_leaves_it_alone(
    never_served: list[object], tmp_path: Path
) -> None:
    path = tmp_path / "newer.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
        db.execute("INSERT INTO alembic_version VALUES ('0999')")
    with pytest.raises(commands.StartupError, match=r"'0999'.*made by a newer one"):
        commands.serve(port=_closed_port(), database=f"sqlite:///{path}")
    assert never_served == []
    with sqlite3.connect(path) as db:  # nothing made or changed in it
        assert db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall() == [
            ("alembic_version",)
        ]
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [("0999",)]


def test_serve_upgrades_an_older_schema_before_announcing_itself(
    never_served: list[object], tmp_path: Path
) -> None:
    from alembic import command
    from alembic.config import Config

    from coven.store import Store
    from coven.store.store import MIGRATIONS

    url = f"sqlite:///{tmp_path / 'older.sqlite3'}"
    store = Store(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
    commands.serve(port=_closed_port(), database=url)
    assert len(never_served) == 1
    assert store.revision() == Store(url).revision() and store.revision() not in {None, "0004"}
    store.dispose()


def test_serve_says_where_it_cannot_make_its_data_folder(
    monkeypatch: pytest.MonkeyPatch, never_served: list[object], tmp_path: Path
) -> None:
    (tmp_path / "a-file").write_text("")
    monkeypatch.setattr(settings, "default_data_dir", lambda: tmp_path / "a-file" / "coven")
    with pytest.raises(
        commands.StartupError, match=r"cannot make the data folder .*a-file/coven: Not a directory"
    ):
        commands.serve(port=_closed_port())
    assert never_served == []


def test_coven_serve_prints_the_refusal_on_one_line_and_exits_with_1(
    never_served: list[object], tmp_path: Path
) -> None:
    database = f"sqlite:///{tmp_path / 'a folder that is not there' / ('x' * 80)}.sqlite3"
    result = CliRunner().invoke(app, ["serve", "--port", str(_closed_port()), "--database", database])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: cannot open the database sqlite:///")
    assert result.stderr.count("\n") == 1  # one line, however long (no wrapping at 80 columns)
    assert "Traceback" not in result.output and "serving" not in result.output
    assert never_served == []
