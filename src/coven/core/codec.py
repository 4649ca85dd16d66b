"""JSON forms of typed values (actions, views) via pydantic, built once per type.

Decoding is total: any value (nested lists, numbers of any size, wrong types) gives the typed value or
a :class:`NotationError`. Before pydantic sees it, a value is checked to be JSON of a sane shape (at
most :data:`MAX_DEPTH` levels, whole numbers of at most :data:`MAX_INT_BITS` bits), so nothing deep or
huge travels further; :func:`through_notation` then holds an action to its game's text notation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import is_dataclass
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

from coven.core.errors import NotationError, short_repr
from coven.core.types import JSONValue

T = TypeVar("T")

MAX_DEPTH = 32
"""The deepest nesting of lists and objects a decoded value may have (views need fewer than ten)."""
MAX_INT_BITS = 63
"""Whole numbers in a decoded value fit a signed 64-bit integer (seeds, counts, seats all do)."""


def check_json(raw: object) -> None:
    """Raise :class:`NotationError` unless ``raw`` is a JSON value of bounded depth and numbers.

    Iterative, so a list nested a million deep is refused without a RecursionError.
    """
    stack: list[tuple[object, int]] = [(raw, 0)]
    while stack:
        value, depth = stack.pop()
        if value is None or isinstance(value, bool | str | float):
            continue
        if isinstance(value, int):
            if value.bit_length() > MAX_INT_BITS:
                raise NotationError(f"a number is at most {MAX_INT_BITS} bits, not {short_repr(value)}")
            continue
        if depth >= MAX_DEPTH:
            raise NotationError(f"a value nests at most {MAX_DEPTH} lists or objects deep")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise NotationError(f"object keys are text, not {short_repr(key)}")
                stack.append((item, depth + 1))
        elif isinstance(value, list | tuple):
            stack.extend((item, depth + 1) for item in value)
        else:
            raise NotationError(f"{short_repr(value)} is not a JSON value")


def through_notation(action: T, format_action: Callable[[T], str], parse_action: Callable[[str], T]) -> T:
    """``action`` as its game's notation reads it back, or :class:`NotationError`.

    A decoded action must be one the text notation can write and read back unchanged (the record of a
    game stores notation, and a replay parses it), so a value the notation cannot express (a card
    ``"zz"``, a field 99) is refused as bad notation, whatever its JSON looked like. The value returned
    is the parser's (equal to ``action``; often the interned instance).
    """
    try:
        text = format_action(action)
    except (LookupError, TypeError, ValueError, OverflowError):  # includes a NotationError
        raise NotationError(f"{short_repr(action)} has no notation") from None
    again = parse_action(text)
    if again != action:
        raise NotationError(f"{short_repr(action)} has no notation ({short_repr(text)} reads otherwise)")
    return again


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Codec(Generic[T]):
    """Round-trips one type (usually a frozen dataclass) through JSON values."""

    def __init__(self, tp: type[T]) -> None:
        self._type = tp
        self._adapter: TypeAdapter[T] = TypeAdapter(tp)

    @property
    def name(self) -> str:
        return getattr(self._type, "__name__", str(self._type))

    def to_json(self, value: T) -> JSONValue:
        result: JSONValue = self._adapter.dump_python(value, mode="json")
        return result

    def from_json(self, raw: object) -> T:
        check_json(raw)
        try:
            return self._adapter.validate_python(raw, strict=False)
        except ValidationError as exc:
            errors = exc.errors(include_url=False, include_context=False, include_input=False)
            first = errors[0] if errors else None
            where = ".".join(str(part) for part in first["loc"]) if first else ""
            what = first["msg"] if first else "invalid"
            at = f" at {_clip(where)}" if where else ""
            raise NotationError(f"not a valid {self.name}{at}: {what}") from None
        except (TypeError, ValueError, RecursionError) as exc:  # a constructor that raises on its own
            raise NotationError(f"not a valid {self.name}: {_clip(str(exc))}") from None


class TaggedCodec(Generic[T]):
    """Round-trips a closed family of dataclasses as ``{"type": ClassName, ...fields}``."""

    def __init__(self, classes: Iterable[type[T]]) -> None:
        self._codecs: dict[str, Codec[T]] = {}
        self._names: dict[type[T], str] = {}
        for cls in classes:
            if not is_dataclass(cls):
                raise TypeError(f"{cls!r} is not a dataclass")
            self._codecs[cls.__name__] = Codec(cls)
            self._names[cls] = cls.__name__

    @property
    def classes(self) -> tuple[type[T], ...]:
        return tuple(self._names)

    def to_json(self, value: T) -> dict[str, JSONValue]:
        name = self._names.get(type(value))
        if name is None:
            raise NotationError(f"{short_repr(value)} is not one of {', '.join(self._codecs)}")
        body = self._codecs[name].to_json(value)
        assert isinstance(body, dict)
        return {"type": name, **body}

    def from_json(self, raw: Any) -> T:
        if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
            raise NotationError(f'expected an object with a "type" field, got {short_repr(raw)}')
        codec = self._codecs.get(raw["type"])
        if codec is None:
            raise NotationError(f"unknown type {short_repr(raw['type'])}; known: {', '.join(self._codecs)}")
        return codec.from_json({k: v for k, v in raw.items() if k != "type"})
