"""OpenSpiel Python games for the Coven games (``pip install coven[openspiel]``).

Each built-in game is registered with ``pyspiel`` as ``python_coven_<id>`` (``python_coven_namaste``
..). The game's parameters are ``players`` (default: the fewest), ``rng_seed`` (the deals of a loaded
game come one after another from this seed), ``reward`` (``win`` or ``score``, see
:data:`coven.rl.table.REWARDS`) and every table option of the game under its own name.

- Dynamics: sequential, in the order every Coven front end follows (:class:`coven.rl.table.Table`):
  optional actors (Amulets' casts) get a turn with a ``pass`` action; simultaneous decisions
  (Namaste) are taken one seat after another, each seat seeing only its view.
- Chance: ``SAMPLED_STOCHASTIC``: dice and deals come from the state's own seeded chance source, as
  in the engine; a state and its clone go on identically. The game's own chance is the source of its
  deals (``get_rng_state`` / ``set_rng_state``: the text of that source's position).
- Pickling: a game pickles as its parameters and the position of its deals (a restored game deals
  the next games the original would have), a state as its game and its serialization (the engine's
  position, future chance included: it goes on exactly as the original does), so both cross process
  boundaries (``multiprocessing``) and go into checkpoints. OpenSpiel's own C++ serialization of a
  game (``game.serialize()``, ``pyspiel.serialize_game_and_state``, ``random_sim_test`` with
  ``serialize=True``) cannot reach them: pyspiel 2.0.2 does not forward ``GetRNGState`` to a Python
  game, so for any sampled-stochastic Python game it fails with ``GetRNGState unimplemented``. Pickle
  instead; ``state.serialize()`` and ``game.deserialize_state`` work too (neither uses up a deal).
- Actions: the game's action index (:mod:`coven.rl`): every action of Brujas and Namaste, the legal
  order capped for The 3 Commandments, a decision of six indices for Amulets.
- Information: the information state string is the acting seat's view (its JSON, keys sorted) and
  its unfinished decision; a view carries everything the seat has seen (perfect recall). The
  observation tensor is the game's encoding of that view. ``resample_from_infostate`` draws a world
  from the seat's view (:meth:`coven.core.Game.world_from_view`), so IS-MCTS plans on worlds the seat
  cannot tell from the true one.
- Utility: terminal rewards only; general sum (with ``reward=win``, nobody is paid when nobody wins).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from coven.core import OptionValue
from coven.core.game import AnyGame, check_seed
from coven.games import get_game
from coven.rl.encoding import Encoding
from coven.rl.games import ENCODINGS, encoding_for
from coven.rl.table import REWARDS, Table, check_reward, reward_bounds

PREFIX = "python_coven_"
SEED_BITS = 62


def short_name(game_id: str) -> str:
    return f"{PREFIX}{game_id}"


def game_type(game: AnyGame) -> Any:
    """The declaration OpenSpiel registers for ``game``."""
    parameters: dict[str, OptionValue] = {
        "players": game.spec.min_players,
        "rng_seed": 0,
        "reward": REWARDS[0],
    }
    for option in game.spec.options:
        parameters[option.key] = option.default
    return pyspiel.GameType(
        short_name=short_name(game.spec.id),
        long_name=f"Python Coven {game.spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.spec.max_players,
        min_num_players=game.spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class CovenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One Coven game, its player count and options, as an OpenSpiel game."""

    def __init__(self, game_id: str, params: Mapping[str, Any] | None = None) -> None:
        game = get_game(game_id)
        given = dict(params or {})
        players = int(given.pop("players", game.spec.min_players))
        seed = check_seed(given.pop("rng_seed", 0))
        self.reward = str(given.pop("reward", REWARDS[0]))
        check_reward(self.reward)
        self.coven_game = game
        self.encoding: Encoding = encoding_for(game_id, players, given)
        low, high = reward_bounds(self.encoding, self.reward)
        bounds = self.encoding.bounds
        per_decision = self.encoding.max_steps + players - 1
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=low,
            max_utility=high,
            max_game_length=bounds.max_decisions * per_decision,
        )
        super().__init__(
            game_type(game),
            info,
            {"players": players, "rng_seed": seed, "reward": self.reward, **self.encoding.options},
        )
        self.deals = random.Random(seed)
        self._fresh: tuple[int, tuple[Any, ...]] | None = None
        """The state of the last deal, while it is fresh, and the deals as they were before it (see
        :meth:`give_back_deal`)."""

    def get_rng_state(self) -> str:
        """The position of the game's deals as text (what OpenSpiel's ``GetRNGState`` stands for)."""
        version, internal, gauss = self.deals.getstate()
        return json.dumps([version, list(internal), gauss], separators=(",", ":"))

    def set_rng_state(self, rng_state: str) -> None:
        """Puts the game's deals at ``rng_state`` (from :meth:`get_rng_state`): the next games dealt are
        those that followed it."""
        try:
            version, internal, gauss = json.loads(rng_state)
            self.deals.setstate((version, tuple(internal), gauss))
        except (TypeError, ValueError) as error:
            raise ValueError(f"not the RNG state of a Coven OpenSpiel game: {rng_state[:40]!r}") from error

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel's own pickling of a game (Game::Serialize) asks the C++ game for GetRNGState, which
        # pyspiel does not forward to a Python game: a game pickles as its parameters and its deals
        return restore_game, (self.get_type().short_name, self.get_parameters(), self.get_rng_state())

    def new_initial_state(self) -> CovenSpielState:
        """A new deal, the next from the game's ``rng_seed``."""
        before = self.deals.getstate()
        state = CovenSpielState(self, Table(self.encoding, self.deals.getrandbits(SEED_BITS), self.reward))
        self._fresh = (id(state), before)
        return state

    def give_back_deal(self, state: CovenSpielState) -> None:
        """If ``state`` holds the last deal and is about to be given another's table, the deal goes back
        to the game. OpenSpiel makes a Python state's clone, and a state it deserializes, from a new
        initial state whose table it then replaces: without this, each clone used up one of the game's
        deals, and the games dealt after ``rng_seed`` depended on how often a search had cloned."""
        fresh = self._fresh
        if fresh is not None and fresh[0] == id(state):
            self.deals.setstate(fresh[1])
            self._fresh = None

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CovenObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return CovenObserver(self.encoding, information_state=recall)


class CovenSpielState(pyspiel.State):  # type: ignore[misc]
    """A Coven game in progress (the engine's state, behind a :class:`~coven.rl.table.Table`)."""

    table: Table

    def __init__(self, game: CovenSpielGame, table: Table) -> None:
        super().__init__(game)
        self.__dict__["table"] = table  # (not through __setattr__: a state's own table)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "table":  # another table replaces this one's (OpenSpiel's clone, its deserialization)
            game = self.get_game()
            if isinstance(game, CovenSpielGame):
                game.give_back_deal(self)
        super().__setattr__(name, value)

    def current_player(self) -> int:
        if self.table.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.table.current()

    def _legal_actions(self, player: int) -> list[int]:
        if self.table.is_over() or self.table.current() != player:
            return []
        return self.table.legal_indices()

    def _apply_action(self, action: int) -> None:
        self.table.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if self.table.is_over() or self.table.current() != player:
            return f"#{action}"
        return self.table.encoding.describe(self.table.state, player, self.table.prefix, int(action))

    def is_terminal(self) -> bool:
        return self.table.is_over()

    def returns(self) -> list[float]:
        return self.table.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CovenSpielState:
        """A state ``player_id`` cannot tell from this one: a world drawn from its view alone (hidden
        parts and future chance), the public order of turns kept. Another seat's unfinished decision
        (the indices it has taken so far, an Amulets cast's first fields) is hidden from ``player_id``:
        in its world that seat has not begun its decision."""
        table = self.table
        rng = random.Random(int(float(probability_sampler()) * (1 << 53)))
        view = table.game.view(table.state, player_id)
        world = table.clone()
        world.state = table.game.world_from_view(view, rng)
        world.moves = []
        decision = table.decision()
        if decision is not None and decision[0] != player_id:
            world.prefix = ()
        return CovenSpielState(self.get_game(), world)

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel's own pickling of a state serializes its game first (GetRNGState, see the game's);
        # the state's serialization keeps the table (the engine's position, future chance included)
        return restore_state, (self.get_game(), self.serialize())

    def __deepcopy__(self, memo: dict[int, Any]) -> CovenSpielState:
        return CovenSpielState(self.get_game(), self.table.clone())

    def __str__(self) -> str:
        table = self.table
        lines = [f"{table.game.spec.id} seed {table.seed}"]
        lines.extend(f"{move.seat}: {move.action}" for move in table.moves)
        if table.prefix:
            lines.append(f"unfinished decision {list(table.prefix)}")
        return "\n".join(lines)


class CovenObserver:
    """OpenSpiel's observer interface: the information state string (perfect recall) or the
    observation string and tensor of one seat, from that seat's view only."""

    def __init__(self, encoding: Encoding, information_state: bool) -> None:
        self.information_state = information_state
        size = 0 if information_state else encoding.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CovenSpielState, player: int) -> None:
        if not self.information_state:
            self.tensor[:] = state.table.observe(player)

    def string_from(self, state: CovenSpielState, player: int) -> str:
        return state.table.information(player)


def restore_game(name: str, params: Mapping[str, Any], rng_state: str) -> CovenSpielGame:
    """The game a pickle holds: loaded from its parameters, its deals put where the original's were."""
    register()
    game: CovenSpielGame = pyspiel.load_game(name, dict(params))
    game.set_rng_state(rng_state)
    return game


def restore_state(game: CovenSpielGame, serialized: str) -> CovenSpielState:
    """The state a pickle holds, in ``game`` (OpenSpiel deserializes a Python state into a new initial
    state, whose deal goes back to the game: see :meth:`CovenSpielGame.give_back_deal`)."""
    state: CovenSpielState = game.deserialize_state(serialized)
    return state


def game_class(game_id: str) -> type[CovenSpielGame]:
    """The OpenSpiel game class of ``game_id``: a class, not a closure, because ``pyspiel`` keeps its
    factories until after the interpreter has shut down (a Python function kept so aborts the exit)."""

    def init(self: CovenSpielGame, params: Mapping[str, Any] | None = None) -> None:
        CovenSpielGame.__init__(self, game_id, params)

    name = "".join(part.title() for part in game_id.split("_"))
    return type(f"Coven{name}SpielGame", (CovenSpielGame,), {"__init__": init})


_CLASSES: dict[str, type[CovenSpielGame]] = {}


def register() -> list[str]:
    """Register every built-in game with ``pyspiel`` (once); returns their short names."""
    registered = {t.short_name for t in pyspiel.registered_games()}
    names = []
    for game_id in sorted(ENCODINGS):
        name = short_name(game_id)
        if name not in registered:
            cls = _CLASSES[game_id] = game_class(game_id)
            pyspiel.register_game(game_type(get_game(game_id)), cls)
        names.append(name)
    return names


def load(game_id: str, **params: Any) -> Any:
    """``pyspiel.load_game`` of ``game_id`` with ``params`` (the games are registered first); a game that
    Coven does not have is an :class:`UnknownGameError` (pyspiel's own error lists all its games)."""
    get_game(game_id)  # UnknownGameError
    register()
    return pyspiel.load_game(short_name(game_id), params)
