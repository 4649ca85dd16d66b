"""One game as a sequence of single decisions, the shape both research adapters need.

:func:`coven.core.driver.decisions` orders the decisions open in a state (optional actors clockwise from
after the last mover, then the seats the game waits for, lowest first); a :class:`Table` makes that a
plain turn order: the seat to move is the first decision not yet passed at this action number. An
optional actor's pass is a decision of its own; once someone acts, the passes are forgotten and the
order is worked out again, as the :class:`~coven.core.Driver` does. Simultaneous decisions (Namaste's)
become sequential; what each seat chose stays hidden because every seat sees only its view.

A decision may take several indices (see :class:`~coven.rl.encoding.Encoding`): the table keeps the
current decision's prefix until it resolves to an action.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, SupportsIndex

import numpy as np

from coven.core import Event, Move, Record, Seat
from coven.core.driver import decisions
from coven.core.errors import GameOverError, IllegalActionError, InvalidOptionError, short_repr
from coven.core.game import check_seed
from coven.rl.encoding import PASS, Encoding, Mask, Observation

REWARDS = ("win", "score")
"""How a finished game pays: ``win`` gives each winner 1 and everybody else 0 (a shared victory pays
every winner 1; nobody is paid when nobody wins); ``score`` pays each seat its final score."""


def reward_bounds(encoding: Encoding, reward: str) -> tuple[float, float]:
    """The least and most one seat can be paid under ``reward`` (see :data:`REWARDS`)."""
    if reward == "score":
        return float(encoding.bounds.min_score), float(encoding.bounds.max_score)
    return 0.0, 1.0


def check_reward(reward: object) -> None:
    """:class:`InvalidOptionError` unless ``reward`` is one of :data:`REWARDS`."""
    if reward not in REWARDS:
        raise InvalidOptionError(f"reward is one of {', '.join(REWARDS)}, not {short_repr(reward)}")


class Table:
    """A game in progress, driven one index at a time (the state is the engine's, never shown)."""

    def __init__(
        self, encoding: Encoding, seed: SupportsIndex = 0, reward: str = "win", state: Any | None = None
    ) -> None:
        check_reward(reward)
        self.encoding = encoding
        self.game = encoding.game
        self.seed = check_seed(seed)  # a record's seed is an int (a numpy one would not dump)
        self.reward = reward
        self.state = (
            state if state is not None else self.game.new_game(encoding.players, encoding.options, self.seed)
        )
        self.players = encoding.players
        self.last: Seat = self.players - 1
        """The seat that acted last (before any action: the seat before seat 0)."""
        self.passed: set[Seat] = set()
        """Optional actors who let the chance pass since the last action."""
        self.prefix: tuple[int, ...] = ()
        self.moves: list[Move] = []
        """The actions applied, in notation (a record's moves)."""
        self.steps = 0
        """Indices taken so far, passes and parts of decisions included."""

    def __getstate__(self) -> dict[str, Any]:
        """What pickling keeps (OpenSpiel's ``State.serialize`` pickles a Python state's attributes): the
        game by its id, the players and options, and the position in the game's own notation (its
        future chance included), never the engine's objects."""
        kept = {k: v for k, v in self.__dict__.items() if k not in {"encoding", "game", "state"}}
        kept["game_id"] = self.game.spec.id
        kept["options"] = dict(self.encoding.options)
        kept["position"] = self.game.write_position(self.state)
        return kept

    def __setstate__(self, kept: Mapping[str, Any]) -> None:
        from coven.rl.games import encoding_for

        rest = dict(kept)
        game_id, options, position = rest.pop("game_id"), rest.pop("options"), rest.pop("position")
        self.encoding = encoding_for(game_id, rest["players"], options)
        self.game = self.encoding.game
        self.state = self.game.read_position(position)
        self.__dict__.update(rest)

    def clone(self) -> Table:
        other = Table.__new__(Table)
        other.__dict__.update(self.__dict__)
        other.state = self.game.clone(self.state)
        other.passed = set(self.passed)
        other.moves = list(self.moves)
        return other

    # --------------------------------------------------------------------------------------- turns
    def decision(self) -> tuple[Seat, bool] | None:
        """``(seat, required)`` of the decision now open; ``None`` once the game is over."""
        if self.game.is_over(self.state):
            return None
        for seat, required in decisions(self.game, self.state, self.last):
            if seat not in self.passed:
                return seat, required
        raise RuntimeError(f"{self.game.spec.id}: the game is not over but nobody has to act")

    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    def current(self) -> Seat:
        decision = self.decision()
        if decision is None:
            raise RuntimeError("the game is over")
        return decision[0]

    def legal_indices(self) -> list[int]:
        decision = self.decision()
        if decision is None:
            return []
        seat, required = decision
        return self.encoding.legal_indices(self.state, seat, required, self.prefix)

    def mask(self) -> Mask:
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        mask[self.legal_indices()] = 1
        return mask

    def step(self, index: int) -> list[Event]:
        """Take ``index`` for the seat to move; raises :class:`~coven.core.errors.IllegalActionError` if
        it is not legal now (:class:`~coven.core.errors.GameOverError` once the game is over: both are
        ValueErrors too), the game unchanged."""
        decision = self.decision()
        if decision is None:
            raise GameOverError(f"the game is over: no index is legal (index {short_repr(index)} given)")
        seat, required = decision
        legal = self.encoding.legal_indices(self.state, seat, required, self.prefix)
        if isinstance(index, bool) or not isinstance(index, int | np.integer) or index not in legal:
            raise IllegalActionError(
                f"index {short_repr(index)} is not legal for seat {seat} now: choose one of the "
                f"{len(legal)} indices its action mask marks"
            )
        index = int(index)
        self.steps += 1
        prefix = (*self.prefix, index)
        resolved = self.encoding.resolve(self.state, seat, prefix)
        if resolved is None:
            self.prefix = prefix
            return []
        self.prefix = ()
        if resolved is PASS:
            self.passed.add(seat)
            return []
        events = self.game.apply(self.state, seat, resolved)
        self.moves.append(Move(seat, self.game.format_action(resolved)))
        self.last = seat
        self.passed.clear()
        return events

    # --------------------------------------------------------------------------------- information
    def view_json(self, seat: Seat) -> Mapping[str, Any]:
        raw = self.game.view_to_json(self.game.view(self.state, seat))
        if not isinstance(raw, dict):
            raise TypeError(f"{self.game.spec.id}: a view's JSON form is not an object")
        return raw

    def observe(self, seat: Seat) -> Observation:
        """``seat``'s observation: its view, and its own unfinished decision if it is the one to move."""
        decision = self.decision()
        prefix = self.prefix if decision is not None and decision[0] == seat else ()
        return self.encoding.observe(self.view_json(seat), prefix)

    def information(self, seat: Seat) -> str:
        """Everything ``seat`` knows, as text: its view (JSON, keys sorted) and its unfinished decision."""
        decision = self.decision()
        prefix = self.prefix if decision is not None and decision[0] == seat else ()
        text = json.dumps(self.view_json(seat), sort_keys=True, separators=(",", ":"))
        return f"seat {seat} prefix {list(prefix)} view {text}"

    # ------------------------------------------------------------------------------------- outcome
    def returns(self) -> list[float]:
        """What each seat is paid (zeros until the game is over; see :data:`REWARDS`)."""
        if not self.is_over():
            return [0.0] * self.players
        if self.reward == "score":
            return [float(s) for s in self.game.scores(self.state)]
        winners = self.game.winners(self.state)
        return [1.0 if seat in winners else 0.0 for seat in range(self.players)]

    def bounds(self) -> tuple[float, float]:
        """The least and most one seat can be paid."""
        return reward_bounds(self.encoding, self.reward)

    def record(self) -> Record:
        """The game so far as a record (seed and moves in notation): ``coven replay`` reads it."""
        return Record(
            game=self.game.spec.id,
            players=self.players,
            options=dict(self.encoding.options),
            seed=self.seed,
            moves=tuple(self.moves),
        )
