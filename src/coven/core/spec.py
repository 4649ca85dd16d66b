"""A game declared as data: identity, player range, options and bounds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from coven.core.errors import InvalidOptionError
from coven.core.types import Options, OptionValue


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: a flag, a bounded integer or a choice among words.

    ``parse`` accepts the typed value or its text form (``"true"``, ``"3"``) so the command line, the
    HTTP API and Python share one validation.
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

    def parse(self, value: object) -> OptionValue:
        """The validated value, or :class:`InvalidOptionError` saying what is wrong."""
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in {"true", "yes", "on", "1"}:
                return True
            if isinstance(value, str) and value.lower() in {"false", "no", "off", "0"}:
                return False
            raise InvalidOptionError(f"option {self.key} takes true or false, not {value!r}")
        if kind == "int":
            number: int
            if isinstance(value, bool):
                raise InvalidOptionError(f"option {self.key} takes a whole number, not {value!r}")
            if isinstance(value, int):
                number = value
            elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
                number = int(value.strip())
            else:
                raise InvalidOptionError(f"option {self.key} takes a whole number, not {value!r}")
            if self.minimum is not None and number < self.minimum:
                raise InvalidOptionError(f"option {self.key} is at least {self.minimum}, not {number}")
            if self.maximum is not None and number > self.maximum:
                raise InvalidOptionError(f"option {self.key} is at most {self.maximum}, not {number}")
            return number
        if not isinstance(value, str):
            raise InvalidOptionError(f"option {self.key} takes a word, not {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(self.choices)
            raise InvalidOptionError(f"option {self.key} is one of {allowed}, not {value!r}")
        return value


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

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptionError(f"the number of players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptionError(
                f"{self.title} takes {self.min_players} to {self.max_players} players, not {players}"
            )

    def resolve_options(self, given: Mapping[str, object] | None = None) -> Options:
        """Defaults overlaid with ``given``, each validated; unknown keys are refused."""
        resolved: Options = {o.key: o.default for o in self.options}
        for key, value in (given or {}).items():
            option = self.option_index.get(key)
            if option is None:
                known = ", ".join(sorted(self.option_index)) or "none"
                raise InvalidOptionError(f"{self.title} has no option {key!r} (options: {known})")
            resolved[key] = option.parse(value)
        return resolved
