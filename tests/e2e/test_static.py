"""The browser client as files: every module it imports exists, and the server serves them as modules.

No browser needed (so these run even where Chromium is missing)."""

from __future__ import annotations

import re
import shutil
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "coven" / "web"
IMPORT = re.compile(
    r"""(?:import|export)\s[^"']*?from\s+["'](\.{1,2}/[^"']+)["']|import\(\s*["'](\.{1,2}/[^"']+)["']\s*\)"""
)
MODULES = sorted(WEB.rglob("*.js"))


def test_every_game_has_a_board() -> None:
    for game in ("namaste", "brujas", "amulets", "commandments"):
        assert (WEB / "games" / f"{game}.js").is_file()
    assert (WEB / "games" / "generic.js").is_file()


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(WEB)))
def test_imports_resolve(module: Path) -> None:
    for static, dynamic in IMPORT.findall(module.read_text(encoding="utf-8")):
        target = (module.parent / (static or dynamic)).resolve()
        assert target.is_file(), f"{module.name} imports missing {static or dynamic}"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(WEB)))
def test_modules_parse(module: Path) -> None:
    """Each file is valid ES module syntax (node parses it without running it)."""
    result = subprocess.run(
        ["node", "--input-type=module", "--check"],
        input=module.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def _get(url: str) -> tuple[int, str, str]:
    with urllib.request.urlopen(url, timeout=10) as res:
        return res.status, res.headers.get("Content-Type", ""), res.read().decode()


def test_server_serves_the_client(server: Any) -> None:
    status, _, text = _get(server.base + "/")
    assert status == 200 and '<script type="module" src="/app.js">' in text
    status, _, text = _get(server.base + "/t/some-table")
    assert status == 200 and "/app.js" in text
    for module in MODULES:
        status, kind, _ = _get(server.base + "/" + module.relative_to(WEB).as_posix())
        assert status == 200 and "javascript" in kind
    assert "text/css" in _get(server.base + "/style.css")[1]
