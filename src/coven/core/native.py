"""Frozen dataclasses compiled by mypyc (the games' views): what the compiled class lacks beside the
interpreted one, put back.

A view is made for every seat after every move (the server, the bots' searches), so its module is
compiled (``setup.py``) and its dataclasses become native classes, built by a written-out ``__init__``
(``object.__setattr__`` per field, as the generated one of a frozen dataclass does, but compiled to
direct slot stores). Marked :func:`mypyc_attr` ``(allow_interpreted_subclasses=True)``, such a class's
``__new__`` makes a bare instance and calling the class from interpreted code runs that ``__init__``, as
for any class. Three things of the interpreted dataclass mypyc does not keep; :func:`native_dataclasses`
puts them back, so pydantic (a game's view codec), msgspec (the server's ``dumps``) and pickle (the bot
workers) see the same class either way:

- the fields' types: mypyc gives a field the bare class of its annotation (``tuple``, or ``type`` for a
  union); the codec needs the annotation itself, which is read back from the module's source (as the
  text ``from __future__ import annotations`` keeps);
- ``__slots__`` (the field names): pydantic fills a slotted dataclass's fields one by one, not a
  ``__dict__``;
- ``__getstate__`` / ``__setstate__`` of a frozen slotted dataclass (mypyc's own would set each field
  through the frozen ``__setattr__``, which refuses).

Interpreted (``COVEN_PURE=1``, or no C compiler), the classes are the plain dataclasses and nothing is
changed.
"""

from __future__ import annotations

import ast
import importlib.resources
from dataclasses import fields
from functools import cache
from typing import TYPE_CHECKING, Any

__all__ = ["mypyc_attr", "native_dataclasses", "source_annotations"]

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:
        """mypyc reads this decorator when it compiles; interpreted, it leaves the class as it is."""
        return lambda cls: cls


@cache
def source_annotations(module: str) -> dict[str, dict[str, str]]:
    """The annotations of every top-level class of ``module`` (of a package), as the text of its source
    (what ``from __future__ import annotations`` keeps), by class name and field name in order."""
    package, _, name = module.rpartition(".")
    source = (importlib.resources.files(package) / f"{name}.py").read_text(encoding="utf-8")
    return {
        node.name: {
            item.target.id: ast.unparse(item.annotation)
            for item in node.body
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
        }
        for node in ast.parse(source).body
        if isinstance(node, ast.ClassDef)
    }


def _getstate(self: Any) -> list[object]:
    return [getattr(self, f.name) for f in fields(self)]


def _setstate(self: Any, state: list[object]) -> None:
    for f, value in zip(fields(self), state, strict=False):
        object.__setattr__(self, f.name, value)


def native_dataclasses(*classes: type) -> None:
    """Give each of ``classes`` (frozen slotted dataclasses of one compiled module) what mypyc leaves
    out (see the module's note); an interpreted dataclass has it all already and is left alone."""
    for cls in classes:
        if "__slots__" in vars(cls):
            continue  # interpreted
        names = [f.name for f in fields(cls)]
        written = source_annotations(cls.__module__)[cls.__name__]
        if list(written) != names:
            raise TypeError(f"{cls.__qualname__}: fields {names} but the source annotates {list(written)}")
        for f in fields(cls):
            f.type = written[f.name]
        cls.__annotations__ = dict(written)
        type.__setattr__(cls, "__slots__", tuple(names))
        type.__setattr__(cls, "__getstate__", _getstate)
        type.__setattr__(cls, "__setstate__", _setstate)
