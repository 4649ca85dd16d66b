"""JSON forms of typed values (actions, views) via pydantic, built once per type."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import is_dataclass
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

from coven.core.errors import NotationError
from coven.core.types import JSONValue

T = TypeVar("T")


class Codec(Generic[T]):
    """Round-trips one type (usually a frozen dataclass) through JSON values."""

    def __init__(self, tp: type[T]) -> None:
        self._type = tp
        self._adapter: TypeAdapter[T] = TypeAdapter(tp)

    def to_json(self, value: T) -> JSONValue:
        result: JSONValue = self._adapter.dump_python(value, mode="json")
        return result

    def from_json(self, raw: object) -> T:
        try:
            return self._adapter.validate_python(raw, strict=False)
        except ValidationError as exc:
            name = getattr(self._type, "__name__", str(self._type))
            raise NotationError(f"not a valid {name}: {exc.errors()[0]['msg']}") from None


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
            raise NotationError(f"{value!r} is not one of {', '.join(self._codecs)}")
        body = self._codecs[name].to_json(value)
        assert isinstance(body, dict)
        return {"type": name, **body}

    def from_json(self, raw: Any) -> T:
        if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
            raise NotationError(f'expected an object with a "type" field, got {raw!r}')
        codec = self._codecs.get(raw["type"])
        if codec is None:
            raise NotationError(f"unknown type {raw['type']!r}; known: {', '.join(self._codecs)}")
        return codec.from_json({k: v for k, v in raw.items() if k != "type"})
