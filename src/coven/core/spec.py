"""A game declared as data: identity, player range, options and bounds."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from coven.core.errors import InvalidOptionError, short_repr
from coven.core.refusals import CORE
from coven.core.types import Options, OptionValue

INT_TEXT_LIMIT = 20
"""The longest text an integer option is read from (a sign and 19 digits); longer is never a count."""
INT_LIMIT = 10**18
"""The largest magnitude of any integer option (the bound of one that declares none)."""
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
"""ASCII digits only: ``int()`` would also read "١٤" and "１２", and ``str.isdigit()`` takes "²"."""


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: a flag, a bounded integer or a choice among words.

    ``parse`` accepts the typed value or its text form (``"true"``, ``"3"``) so the command line, the
    HTTP API and Python share one validation; ``typed`` (the HTTP API, whose JSON carries types) accepts
    the typed value only.
    """

    key: str
    default: OptionValue
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        if self.choices and not isinstance(self.default, str):
            raise TypeError(f"option {self.key}: choices need a text default")
        if self.choices and self.default not in self.choices:
            raise TypeError(f"option {self.key}: default {self.default!r} not among choices")

    @property
    def kind(self) -> str:
        """``"bool"``, ``"int"`` or ``"choice"``/``"str"``: what the value is."""
        if isinstance(self.default, bool):
            return "bool"
        if isinstance(self.default, int):
            return "int"
        return "choice" if self.choices else "str"

    def parse(self, value: object, *, typed: bool = False) -> OptionValue:
        """The validated value, or :class:`InvalidOptionError` saying what is wrong. ``typed``: a flag's
        value must be a bool and a count's an int, not their text forms (``"yes"``, ``"5"``)."""
        kind = self.kind
        if typed and kind in ("bool", "int") and isinstance(value, str):
            key = "refusal.option.text_for_flag" if kind == "bool" else "refusal.option.text_for_number"
            raise InvalidOptionError(CORE(key, option=self.key, value=short_repr(value)))
        if kind == "bool":
            return self._parse_bool(value)
        if kind == "int":
            return self._parse_int(value)
        if not isinstance(value, str):
            raise InvalidOptionError(CORE("refusal.option.word", option=self.key, value=short_repr(value)))
        if self.choices and value not in self.choices:
            allowed = ", ".join(self.choices)
            raise InvalidOptionError(
                CORE("refusal.option.choice", option=self.key, choices=allowed, value=short_repr(value))
            )
        return str(value)

    def _parse_bool(self, value: object) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"true", "yes", "on", "1"}:
            return True
        if isinstance(value, str) and value.lower() in {"false", "no", "off", "0"}:
            return False
        raise InvalidOptionError(CORE("refusal.option.flag", option=self.key, value=short_repr(value)))

    def _parse_int(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise InvalidOptionError(CORE("refusal.option.number", option=self.key, value=short_repr(value)))
        if isinstance(value, str):
            text = value.strip()
            if len(text) > INT_TEXT_LIMIT:
                raise InvalidOptionError(
                    CORE(
                        "refusal.option.number_length", option=self.key, max=INT_TEXT_LIMIT, length=len(text)
                    )
                )
            if _WHOLE_NUMBER.fullmatch(text) is None:
                raise InvalidOptionError(
                    CORE("refusal.option.digits", option=self.key, value=short_repr(value))
                )
            number = int(text)
        else:
            number = int(value)  # an int subclass (IntEnum) becomes a plain int
        if self.minimum is not None and number < self.minimum:
            raise InvalidOptionError(
                CORE("refusal.option.minimum", option=self.key, min=self.minimum, value=short_repr(number))
            )
        if self.maximum is not None and number > self.maximum:
            raise InvalidOptionError(
                CORE("refusal.option.maximum", option=self.key, max=self.maximum, value=short_repr(number))
            )
        if abs(number) > INT_LIMIT:
            raise InvalidOptionError(CORE("refusal.option.range", option=self.key, value=short_repr(number)))
        return number


@dataclass(frozen=True, slots=True)
class Bounds:
    """What a game promises about any play: the most decisions and the score range."""

    max_decisions: int
    min_score: float
    max_score: float


@dataclass(frozen=True, slots=True)
class GameSpec:
    """The declaration of a game: everything about it that is not a rule."""

    id: str
    title: str
    summary: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    hidden_information: bool = True
    """Whether seats hold secrets from each other (the conformance suite checks worlds vary)."""
    optional_actors: bool = False
    """Whether seats may act without having to (``Game.may_act``)."""
    simultaneous: bool = False
    """Whether several seats may be asked to decide at once."""
    rules_file: str = ""
    option_index: Mapping[str, Option] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "option_index", {o.key: o for o in self.options})

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def check_players(self, players: object) -> None:
        """Raise :class:`InvalidOptionError` unless ``players`` is a whole number in the player range."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptionError(CORE("refusal.players.number", value=short_repr(players)))
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptionError(
                CORE(
                    "refusal.players.range",
                    game=self.title,
                    min=self.min_players,
                    max=self.max_players,
                    value=short_repr(players),
                )
            )

    def resolve_options(self, given: Mapping[str, object] | None = None, *, typed: bool = False) -> Options:
        """Defaults overlaid with ``given``, each validated; unknown keys are refused. ``typed``: each
        value of its option's own type, not a text form (see :meth:`Option.parse`)."""
        if given is not None and not isinstance(given, Mapping):
            raise InvalidOptionError(CORE("refusal.option.not_a_mapping", value=short_repr(given)))
        resolved: Options = {o.key: o.default for o in self.options}
        for key, value in (given or {}).items():
            option = self.option_index.get(key) if isinstance(key, str) else None
            if option is None:
                known = ", ".join(sorted(self.option_index))
                said = dict(game=self.title, option=short_repr(key))
                raise InvalidOptionError(
                    CORE("refusal.option.unknown", **said, known=known)
                    if known
                    else CORE("refusal.option.unknown_none", **said)
                )
            resolved[key] = option.parse(value, typed=typed)
        return resolved
