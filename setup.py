"""Build hook: the hottest modules are compiled with mypyc (their typed Python, type-checked by mypy
strict, turned into C extensions); the package works the same without them, only slower.

Compiled, random playouts run about a fifth faster for Namaste, half as fast again for The 3
Commandments and Brujas, and about a tenth faster for Amulets (``coven bench engine``); the server's
table (every seat's frames after every move) costs about a tenth less CPU per move, all told, in
``coven bench server``. Where they
cannot be built (no C compiler, mypyc refusing a construct), the install goes on in pure Python with a
warning; ``COVEN_PURE=1`` at install time skips them on purpose. A compiled module is imported instead
of its source: after editing one of :data:`COMPILED`, build again (``pip install -e .``) or install pure
(``tests/test_layout.py`` fails while a build is older than its source).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "src/coven/core/chance.py",
    "src/coven/games/amulets/deduction.py",
    "src/coven/games/amulets/rules.py",
    "src/coven/games/amulets/view.py",
    "src/coven/games/brujas/rules.py",
    "src/coven/games/brujas/state.py",
    "src/coven/games/brujas/view.py",
    "src/coven/games/commandments/deck.py",
    "src/coven/games/commandments/rules.py",
    "src/coven/games/commandments/view.py",
    "src/coven/games/namaste/rules.py",
    "src/coven/games/namaste/sheet.py",
    "src/coven/games/namaste/view.py",
    "src/coven/server/table.py",
]
"""Typed modules without I/O whose work is done at every move: the engine's rules, the views made after
every move (their dataclasses compiled too, see ``coven.core.native``), and the server's table, which
makes each seat's frames. Not the modules that do I/O or that tests patch (the table service).
tests/test_layout.py checks it, and that no build is older than its source."""


MYPYC_OPTIONS = ["--follow-imports=silent", "--ignore-missing-imports"]
"""mypy's options for the build, beside the project's (pyproject.toml): pip builds in an environment of
the build requirements alone, before it installs the project's dependencies, and the server's table
imports modules that import them (msgspec, SQLAlchemy, Starlette). Those are then Any to mypyc, and only
the compiled modules' own errors stop the build; `mypy` on the installed project checks everything."""


def _warn(what: str, exc: BaseException) -> None:
    print(f"coven: {what} ({type(exc).__name__}: {exc}); the engine stays pure Python", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Build the compiled modules if the machine can; otherwise leave the pure Python in place."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            _warn("the compiled engine could not be built", exc)

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            _warn(f"{ext.name} could not be compiled", exc)


def _extensions() -> list[Any]:
    if os.environ.get("COVEN_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify

        return list(mypycify([*MYPYC_OPTIONS, *COMPILED], opt_level="3"))
    except (Exception, SystemExit) as exc:  # mypyc reports a type error by exiting
        _warn("mypyc could not translate the engine", exc)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
