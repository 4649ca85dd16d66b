"""The generic search (:mod:`coven.bots.search`): legal, reproducible, from the view alone, and strong
enough to beat random play clearly on a small hidden-information game."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import pytest

from coven.bots.arena import make_bot, play_game
from coven.bots.search import PASS, SearchBot, SearchPlan, bots_policy
from coven.core import Bounds, Event, Game, GameSpec, NotationError, Options, Seat, public
from coven.core.bot import Bot, RandomBot
from coven.core.chance import Chance, fresh
from coven.games import get_game
from tests.bots.test_arena import Interrupting
from tests.core.toygame import GAME as TOY

AnyGame = Game[Any, Any, Any]


# ------------------------------------------------------------------------------ a small trick game
HAND = 6
DECK = 2 * HAND + 1


@dataclass(frozen=True, slots=True)
class Card:
    value: int


@dataclass(slots=True)
class TrickState:
    hands: list[list[int]]
    trick: list[int]
    """The cards on the table, the leader's first."""
    leader: Seat
    points: list[int]
    played: list[int]
    chance: Chance


@dataclass(frozen=True, slots=True)
class TrickView:
    seat: Seat | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[int, ...]
    leader: Seat
    points: tuple[int, ...]
    gone: tuple[int, ...]
    """Every card played so far."""


class Tricks(Game[TrickState, Card, TrickView]):
    """Two players, six cards each from 1-13 (one card unseen by both); the leader plays, then the
    other; the higher card takes both cards' values as points and leads next. Most points wins. A
    player who plays well wins tricks cheaply and gives little away; a random one does not."""

    spec = GameSpec(id="tricks", title="Tricks", summary="high card takes", min_players=2, max_players=2)
    action_classes = (Card,)
    view_class = TrickView

    def setup(self, players: int, options: Options, seed: int) -> TrickState:
        chance = Chance(seed)
        deck = list(range(1, DECK + 1))
        chance.shuffle(deck)
        return TrickState([sorted(deck[0:HAND]), sorted(deck[HAND : 2 * HAND])], [], 0, [0, 0], [], chance)

    def bounds(self, players: int, options: Options) -> Bounds:
        return Bounds(max_decisions=2 * HAND, min_score=0, max_score=DECK * (DECK + 1) // 2)

    def num_players(self, state: TrickState) -> int:
        return 2

    def options(self, state: TrickState) -> Options:
        return {}

    def clone(self, state: TrickState) -> TrickState:
        hands = [list(h) for h in state.hands]
        return TrickState(
            hands,
            list(state.trick),
            state.leader,
            list(state.points),
            list(state.played),
            state.chance.copy(),
        )

    def to_act(self, state: TrickState) -> frozenset[Seat]:
        if not state.hands[0] and not state.hands[1]:
            return frozenset()
        return frozenset({(state.leader + len(state.trick)) % 2})

    def legal_actions(self, state: TrickState, seat: Seat) -> Sequence[Card]:
        if seat not in self.to_act(state):
            return ()
        return [Card(v) for v in state.hands[seat]]

    def apply_unchecked(self, state: TrickState, seat: Seat, action: Card) -> list[Event]:
        state.hands[seat].remove(action.value)
        state.trick.append(action.value)
        state.played.append(action.value)
        if len(state.trick) == 2:
            lead, follow = state.trick
            winner = state.leader if lead > follow else 1 - state.leader
            state.points[winner] += lead + follow
            state.leader = winner
            state.trick = []
        return [public("card", seat=seat, card=action.value)]

    def view(self, state: TrickState, seat: Seat | None) -> TrickView:
        return TrickView(
            seat,
            tuple(state.hands[seat]) if seat is not None else (),
            (len(state.hands[0]), len(state.hands[1])),
            tuple(state.trick),
            state.leader,
            tuple(state.points),
            tuple(state.played),
        )

    def world_from_view(self, view: TrickView, rng: random.Random) -> TrickState:
        assert view.seat is not None
        known = set(view.hand) | set(view.gone)
        unseen = [v for v in range(1, DECK + 1) if v not in known]
        rng.shuffle(unseen)
        other = 1 - view.seat
        hands: list[list[int]] = [[], []]
        hands[view.seat] = list(view.hand)
        hands[other] = sorted(unseen[: view.hand_sizes[other]])
        return TrickState(
            hands, list(view.trick), view.leader, list(view.points), list(view.gone), fresh(rng)
        )

    def write_position(self, state: TrickState) -> str:
        """``<leader> <hands> <trick> <played> <points> <chance>``; card lists split by ``.``, seats by
        ``/``, ``-`` for none."""

        def cards(values: Sequence[int]) -> str:
            return ".".join(map(str, values)) or "-"

        hands = "/".join(cards(h) for h in state.hands)
        points = "/".join(map(str, state.points))
        trick, played, chance = cards(state.trick), cards(state.played), state.chance.to_text()
        return f"{state.leader} {hands} {trick} {played} {points} {chance}"

    def read_position(self, text: str) -> TrickState:
        parts = text.split(" ")
        if len(parts) != 6 or parts[0] not in ("0", "1"):
            raise NotationError(
                f"a tricks position is '<leader> <hands> <trick> <played> <points> <chance>': {text[:60]!r}"
            )

        def cards(word: str) -> list[int]:
            if word == "-":
                return []
            values = word.split(".")
            if not all(v.isdecimal() and v.isascii() and 1 <= int(v) <= DECK for v in values):
                raise NotationError(f"cards are numbers 1-{DECK} split by '.', not {word!r}")
            return [int(v) for v in values]

        hands, points = parts[1].split("/"), parts[4].split("/")
        if len(hands) != 2 or len(points) != 2 or not all(p.isdecimal() and p.isascii() for p in points):
            raise NotationError("a tricks position has two hands and two scores")
        try:
            chance = Chance.from_text(parts[5])
        except ValueError as exc:
            raise NotationError(str(exc)) from None
        return TrickState(
            [cards(h) for h in hands],
            cards(parts[2]),
            int(parts[0]),
            [int(p) for p in points],
            cards(parts[3]),
            chance,
        )

    def scores(self, state: TrickState) -> tuple[float, ...]:
        return (float(state.points[0]), float(state.points[1]))

    def format_action(self, action: Card) -> str:
        return str(action.value)

    def parse_action(self, text: str) -> Card:
        if not text.isdecimal() or not 1 <= int(text) <= DECK:
            raise NotationError(f"a card is 1-{DECK}, not {text!r}")
        return Card(int(text))


TRICKS = Tricks()


def duel(game: AnyGame, first: Bot, second: Bot, seed: int) -> tuple[float, ...]:
    return play_game(game, [first, second], 2, None, seed).scores


def test_tricks_positions_read_back() -> None:
    state = TRICKS.new_game(2, None, 4)
    TRICKS.apply(state, 0, TRICKS.legal_actions(state, 0)[0])
    text = TRICKS.write_position(state)
    assert TRICKS.write_position(TRICKS.read_position(text)) == text
    for bad in ("", "?", text + " ### nonsense", text[:-3] + "\x00"):
        with pytest.raises(NotationError):
            TRICKS.read_position(bad)


def test_tricks_world_sampler_keeps_the_view() -> None:
    state = TRICKS.new_game(2, None, 4)
    TRICKS.apply(state, 0, TRICKS.legal_actions(state, 0)[0])
    view = TRICKS.view(state, 1)
    worlds = [TRICKS.world_from_view(view, random.Random(k)) for k in range(20)]
    assert all(TRICKS.view(w, 1) == view for w in worlds)
    assert len({tuple(w.hands[0]) for w in worlds}) > 1


def small(iterations: int = 40, **changes: Any) -> SearchPlan:
    return SearchPlan(iterations=iterations, **changes)


def test_search_beats_random_clearly_at_tricks() -> None:
    # 20 deals, each played from both chairs. Random against random wins about 20 of 40; a search that
    # chose at random could not reach 30 (the chance of that is about one in a thousand).
    wins = 0.0
    for seed in range(20):
        for chair in (0, 1):
            search = SearchBot(TRICKS, chair, seed, small(100))
            rival = RandomBot(TRICKS, 1 - chair, seed)
            bots: list[Bot] = [search, rival] if chair == 0 else [rival, search]
            result = play_game(TRICKS, bots, 2, None, seed)
            wins += 1.0 / len(result.winners) if chair in result.winners else 0.0
    assert wins >= 30


def test_search_takes_a_trick_cheaply_when_following() -> None:
    # Seat 1 follows a 7 holding 2, 8 and 13: the 8 takes 15 points and keeps the 13 for later.
    state = TrickState([[1, 3, 7], [2, 8, 13]], [], 0, [0, 0], [4, 5, 6, 9, 10, 11], Chance(1))
    TRICKS.apply(state, 0, Card(7))
    bot = SearchBot(TRICKS, 1, 3, small(400))
    assert bot.act(TRICKS.view(state, 1), TRICKS.legal_actions(state, 1), True) == Card(8)


class Spy:
    """A game that passes every call on to ``game`` and remembers every state object it was handed and
    every view the worlds were drawn from."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.states: set[int] = set()
        self.views: list[Any] = []

    def world_from_view(self, view: Any, rng: random.Random) -> Any:
        self.views.append(view)
        return self.game.world_from_view(view, rng)

    def world_sampler(self, view: Any) -> Callable[[random.Random], Any]:
        draw = self.game.world_sampler(view)

        def spied(rng: random.Random) -> Any:
            self.views.append(view)
            return draw(rng)

        return spied

    def __getattr__(self, name: str) -> Any:
        inner = getattr(self.game, name)
        if not callable(inner):
            return inner

        def spied(*args: Any, **kwargs: Any) -> Any:
            for arg in args:
                if not isinstance(arg, bool | int | float | str | random.Random | type(None)):
                    self.states.add(id(arg))
            return inner(*args, **kwargs)

        return spied


@pytest.mark.parametrize("game", [TRICKS, TOY], ids=["tricks", "toy"])
def test_search_only_ever_receives_the_view(game: AnyGame) -> None:
    state = game.new_game(2, None, 5)
    game.apply(state, 0, game.legal_actions(state, 0)[0])
    before = game.write_position(state)
    view = game.view(state, 1)
    spy = Spy(game)
    bot = SearchBot(cast(AnyGame, spy), 1, 2, small(60))
    action = bot.act(view, game.legal_actions(state, 1), True)
    assert action in game.legal_actions(state, 1)
    assert spy.views and all(v is view for v in spy.views)  # every world drawn from the view it was given
    assert spy.states  # the rules were asked about the sampled worlds
    assert id(state) not in spy.states  # the true state never reached the game's rules through the bot
    assert game.write_position(state) == before
    # Another deal the seat cannot tell apart: the same bot (same seed) decides the same.
    other = game.world_from_view(view, random.Random(8))
    assert game.view(other, 1) == view
    again = SearchBot(game, 1, 2, small(60)).act(game.view(other, 1), game.legal_actions(other, 1), True)
    assert again == action


def test_search_is_deterministic_for_a_seed() -> None:
    def moves(bot_seed: int) -> list[tuple[Seat, Hashable]]:
        bots: list[Bot] = [
            SearchBot(TRICKS, 0, bot_seed, small()),
            SearchBot(TRICKS, 1, bot_seed + 1, small()),
        ]
        return play_game(TRICKS, bots, 2, None, 11).moves

    first = moves(3)
    assert moves(3) == first
    assert any(moves(s) != first for s in (4, 5, 6))  # the seed matters


def test_an_optional_actor_may_let_the_moment_pass() -> None:
    # Interrupting toy: a seat holding the 1 may knock out of turn once. The pass is searched like a move.
    game = Interrupting()
    for seed in range(12):
        state = game.new_game(3, None, seed)
        for seat in sorted(game.may_act(state)):
            bot = SearchBot(game, seat, seed, small(30))
            action = bot.act(game.view(state, seat), game.legal_actions(state, seat), False)
            assert action in (PASS, *game.legal_actions(state, seat))
            assert set(bot.root_visits) == {PASS, *game.legal_actions(state, seat)}
            return
    pytest.fail("no deal gave a seat the 1")


def test_games_with_optional_actors_play_to_the_end() -> None:
    game = Interrupting()
    for seed in range(4):
        bots: list[Bot] = [SearchBot(game, s, seed, small(20)) for s in range(3)]
        result = play_game(game, bots, 3, None, seed)  # through the driver: illegal answers raise
        assert game.is_over(result.state)


def test_candidates_opponents_and_depth_are_honoured() -> None:
    asked: list[tuple[Any, int, bool]] = []

    def lowest_two(
        view: Any, legal: Sequence[Hashable], required: bool, rng: random.Random
    ) -> list[Hashable | None]:
        asked.append((view, len(legal), required))
        return sorted(legal, key=lambda a: cast(Card, a).value)[:2]

    def cut(state: Any) -> list[float]:
        return [p / 91 for p in state.points]

    plan = small(50, candidates=lowest_two, opponents_in_tree=False, playout_depth=2, evaluate=cut)
    state = TRICKS.new_game(2, None, 2)
    bot = SearchBot(TRICKS, 0, 1, plan)
    action = bot.act(TRICKS.view(state, 0), TRICKS.legal_actions(state, 0), True)
    assert action in sorted(TRICKS.legal_actions(state, 0), key=lambda a: a.value)[:2]
    assert set(bot.root_visits) <= {action, *TRICKS.legal_actions(state, 0)} and len(bot.root_visits) == 2
    assert asked[0][0] == TRICKS.view(state, 0)
    # Deeper down, candidates come from the acting seat's own view of the world: only seat 0's here.
    assert all(v.seat == 0 for v, _, _ in asked)


def test_step_budget_is_counted_not_timed() -> None:
    plan = small(500, steps=300, min_iterations=10)
    state = TRICKS.new_game(2, None, 7)
    bot = SearchBot(TRICKS, 0, 1, plan)
    bot.act(TRICKS.view(state, 0), TRICKS.legal_actions(state, 0), True)
    assert 10 <= bot.iterations_done < 500  # about 300 / 12 actions a playout
    other = SearchBot(TRICKS, 0, 1, plan)
    other.act(TRICKS.view(state, 0), TRICKS.legal_actions(state, 0), True)
    assert other.iterations_done == bot.iterations_done


@pytest.mark.parametrize(("game_id", "players"), [("brujas", 3), ("namaste", 2), ("commandments", 3)])
def test_search_plays_legal_moves_in_the_real_games(game_id: str, players: int) -> None:
    """The plain plan (all legal actions, random playouts) on the real games, through the driver's
    checked path; the games' own plans are tested with their bots."""
    game = get_game(game_id)
    depth = 6 if game_id == "namaste" else None
    bots: list[Bot] = [SearchBot(game, 0, 4, small(4, playout_depth=depth))]
    bots += [make_bot(game, "random", s, s) for s in range(1, players)]
    result = play_game(game, bots, players, None, 3)
    assert game.is_over(result.state)
    assert any(seat == 0 for seat, _ in result.moves)


def test_a_flat_search_with_bot_playouts() -> None:
    # max_depth=1: only the root's choices are nodes; the playouts ask a bot per seat on its own view.
    seen: list[Seat | None] = []

    class Watching(RandomBot):
        def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
            seen.append(view.seat)
            return super().act(view, legal, required)

    plan = small(30, max_depth=1, policy=bots_policy(TRICKS, Watching, 5))
    state = TRICKS.new_game(2, None, 9)
    bot = SearchBot(TRICKS, 0, 1, plan)
    action = bot.act(TRICKS.view(state, 0), TRICKS.legal_actions(state, 0), True)
    assert action in TRICKS.legal_actions(state, 0)
    assert sum(bot.root_visits.values()) == 30
    assert set(seen) == {0, 1}  # both seats played on in the worlds, each from its own view
    again = SearchBot(TRICKS, 0, 1, small(30, max_depth=1, policy=bots_policy(TRICKS, Watching, 5)))
    assert again.act(TRICKS.view(state, 0), TRICKS.legal_actions(state, 0), True) == action
