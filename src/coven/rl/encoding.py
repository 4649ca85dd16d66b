"""Fixed-size numbers for learning: what one seat's view holds, and a finite index for its decisions.

Every game gets an :class:`Encoding` (one module per game beside this one). An encoding reads nothing
but the acting seat's view (through :meth:`Game.view_to_json`, so it depends on the view's public form,
not on the game package's internals) and that seat's own legal actions, so an agent trained on it
cannot learn from another seat's secrets.

Actions are indices ``0 .. num_actions - 1``. Most games index every action by its notation
(:class:`NotationIndex`); a game whose actions are too many to index builds one decision out of several
indices: the indices chosen so far for the current decision are its *prefix* (Amulets picks ask or
cast, then a field for each amulet in turn). :meth:`Encoding.resolve` turns a complete prefix into the
game's action (or :data:`PASS` for an optional actor who lets the chance go).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from coven.core import JSONValue, Seat
from coven.core.game import AnyGame

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
JSONDict = Mapping[str, JSONValue]


class _Pass:
    """An optional actor lets its chance pass (Amulets: a wizard who does not cast now)."""

    def __repr__(self) -> str:
        return "PASS"


PASS: Final = _Pass()
Resolved = Hashable | _Pass | None
"""What a prefix means: the game's action, :data:`PASS`, or ``None`` while the decision is incomplete."""


# ----------------------------------------------------------------------------------------- helpers
class Vector:
    """Builds an observation: numbers appended in a fixed order."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def one_hot(self, index: int, size: int) -> None:
        """``size`` slots, slot ``index`` set (none if ``index`` is out of range, e.g. -1 for unknown)."""
        slots = [0.0] * size
        if 0 <= index < size:
            slots[index] = 1.0
        self.values.extend(slots)

    def flags(self, values: Sequence[bool], size: int) -> None:
        """``size`` slots: the truth of each value, zero-padded."""
        self.values.extend(1.0 if v else 0.0 for v in values[:size])
        self.values.extend([0.0] * (size - min(len(values), size)))

    def scaled(self, values: Sequence[float], size: int, scale: float) -> None:
        """``size`` slots: each value divided by ``scale``, zero-padded."""
        self.values.extend(float(v) / scale for v in values[:size])
        self.values.extend([0.0] * (size - min(len(values), size)))

    def number(self, value: float, scale: float = 1.0) -> None:
        self.values.append(float(value) / scale)

    def array(self) -> Observation:
        return np.asarray(self.values, dtype=np.float32)


def field(view: JSONDict, key: str) -> JSONValue:
    """``view[key]``, or a clear error naming the key the encoding expects."""
    if key not in view:
        raise KeyError(f"the view has no {key!r}: the encoding expects it")
    return view[key]


def as_int(value: JSONValue, default: int = -1) -> int:
    """A whole number (``default`` for anything else, e.g. ``None`` for "nobody")."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return int(value)
    return default


def as_float(value: JSONValue) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def as_list(value: JSONValue) -> list[JSONValue]:
    return value if isinstance(value, list) else []


def as_dict(value: JSONValue) -> dict[str, JSONValue]:
    return value if isinstance(value, dict) else {}


def as_str(value: JSONValue) -> str:
    return value if isinstance(value, str) else ""


# ---------------------------------------------------------------------------------------- encodings
class Encoding(ABC):
    """A game's observation tensor and action index for one player count and set of options."""

    game_id: str = ""

    def __init__(self, game: AnyGame, players: int, options: Mapping[str, object] | None = None) -> None:
        game.spec.check_players(players)  # (before the bounds, which are known for the player range only)
        self.game = game
        self.players = players
        self.options = game.spec.resolve_options(options)
        self.bounds = game.bounds(players, self.options)
        initial = game.new_game(players, self.options, seed=0)
        self.observation_size = len(self.observe(as_dict(game.view_to_json(game.view(initial, 0))), ()))
        """The length of every observation (of the initial view; the same for every view)."""

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """The size of the action index (pass included, where the game has optional actors)."""

    @property
    def max_steps(self) -> int:
        """Most indices one decision takes (1 unless a decision is built over several indices)."""
        return 1

    @abstractmethod
    def observe(self, view: JSONDict, prefix: tuple[int, ...]) -> Observation:
        """The view (in its JSON form) and the current decision's prefix as numbers."""

    @abstractmethod
    def legal_indices(self, state: Any, seat: Seat, required: bool, prefix: tuple[int, ...]) -> list[int]:
        """The indices ``seat`` may choose next, ascending (from its legal actions only)."""

    @abstractmethod
    def resolve(self, state: Any, seat: Seat, prefix: tuple[int, ...]) -> Resolved:
        """The action a prefix of legal indices stands for; ``None`` while more indices are needed."""

    def describe(self, state: Any, seat: Seat, prefix: tuple[int, ...], index: int) -> str:
        """An index in words (the action's notation where it is one)."""
        resolved = self.resolve(state, seat, (*prefix, index))
        if resolved is PASS:
            return "pass"
        if resolved is None:
            return f"#{index}"
        return self.game.format_action(resolved)


class NotationIndex(Encoding):
    """Every action of the game indexed by its notation: ``texts[i]`` is index ``i``; the last index is
    the pass of an optional actor when the game has optional actors."""

    @abstractmethod
    def texts(self) -> Sequence[str]:
        """Every action's notation, in index order (the same for every state)."""

    def __init__(self, game: AnyGame, players: int, options: Mapping[str, object] | None = None) -> None:
        self._texts = tuple(self.texts())
        self._index = {text: i for i, text in enumerate(self._texts)}
        self._actions: list[Hashable | None] = [None] * len(self._texts)
        self._game = game
        self.pass_index = len(self._texts) if game.spec.optional_actors else None
        super().__init__(game, players, options)

    @property
    def num_actions(self) -> int:
        return len(self._texts) + (1 if self.pass_index is not None else 0)

    def index_of(self, action: Hashable) -> int:
        text = self._game.format_action(action)
        index = self._index.get(text)
        if index is None:
            raise ValueError(f"{self._game.spec.id}: the action {text!r} has no index")
        return index

    def legal_indices(self, state: Any, seat: Seat, required: bool, prefix: tuple[int, ...]) -> list[int]:
        indices = sorted({self.index_of(a) for a in self.game.legal_actions(state, seat)})
        if not required and self.pass_index is not None:
            indices.append(self.pass_index)
        return indices

    def resolve(self, state: Any, seat: Seat, prefix: tuple[int, ...]) -> Resolved:
        (index,) = prefix
        if index == self.pass_index:
            return PASS
        action = self._actions[index]
        if action is None:
            action = self._actions[index] = self.game.parse_action(self._texts[index])
        return action


class LegalOrder(Encoding):
    """Index ``i`` is the ``i``-th action of :meth:`Game.legal_actions` (its order is a function of what
    the seat knows), capped at :attr:`cap`: actions beyond the cap are never offered. For games whose
    actions are open-ended (free words, performances)."""

    cap: int = 1024

    @property
    def num_actions(self) -> int:
        return self.cap

    def legal_indices(self, state: Any, seat: Seat, required: bool, prefix: tuple[int, ...]) -> list[int]:
        return list(range(min(len(self.game.legal_actions(state, seat)), self.cap)))

    def resolve(self, state: Any, seat: Seat, prefix: tuple[int, ...]) -> Resolved:
        (index,) = prefix
        action: Hashable = self.game.legal_actions(state, seat)[index]
        return action
