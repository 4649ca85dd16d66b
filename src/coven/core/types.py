"""Small names for the domain, shared by every game."""

from __future__ import annotations

from typing import TypeAlias

Seat: TypeAlias = int
"""A seat at the table, ``0 .. players - 1``; seat 0 is the first player."""

JSONValue: TypeAlias = "bool | int | float | str | list[JSONValue] | dict[str, JSONValue] | None"
"""A value that ``json.dumps`` accepts and ``json.loads`` gives back unchanged."""

OptionValue: TypeAlias = bool | int | str
Options: TypeAlias = dict[str, OptionValue]
