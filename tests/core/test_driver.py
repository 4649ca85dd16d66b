"""The one turn driver: order of decisions, bots that decline or misbehave, people who mistype, and
what each seat is told."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from coven.bots.arena import play_game
from coven.core import (
    BotError,
    Bounds,
    Driver,
    Event,
    Move,
    Options,
    Quit,
    RandomBot,
    RecordedLog,
    Seat,
    offer_order,
    play_terminal,
    private,
    public,
)
from tests.core.toygame import GAME, Play, ToyGame, ToyState, ToyView


class Knocking(ToyGame):
    """Every seat that is not to play may knock (a ``Play(0)``) once per game."""

    def bounds(self, players: int, options: Options) -> Bounds:
        plays = players * int(options["hand"])
        return Bounds(max_decisions=plays + players, min_score=0, max_score=27)

    def may_act(self, state: ToyState) -> frozenset[Seat]:
        if not any(state.hands):
            return frozenset()
        return frozenset(s for s in range(state.players) if s != state.turn and 0 not in state.played[s])

    def legal_actions(self, state: ToyState, seat: Seat) -> Sequence[Play]:
        if seat in self.may_act(state):
            return [Play(0)]
        return super().legal_actions(state, seat)

    def illegal_reason(self, state: ToyState, seat: Seat, action: Play) -> str | None:
        if seat in self.may_act(state):
            return None if action == Play(0) else "only a knock now"
        return super().illegal_reason(state, seat, action)

    def parse_action(self, text: str) -> Play:
        return Play(0) if text.strip() == "0" else super().parse_action(text)

    def apply_unchecked(self, state: ToyState, seat: Seat, action: Play) -> list[Event]:
        if seat != state.turn:
            state.played[seat].append(0)
            return [public("knock", seat=seat)]
        return super().apply_unchecked(state, seat, action)


class Secretive(ToyGame):
    """The toy game, where each play also tells the player (only) what is left in its hand."""

    def apply_unchecked(self, state: ToyState, seat: Seat, action: Play) -> list[Event]:
        events = super().apply_unchecked(state, seat, action)
        return [*events, private("left", [seat], seat=seat, cards=list(state.hands[seat]))]


class Logger:
    """Passes on every optional chance, plays its lowest card when it must; logs what it was asked."""

    def __init__(self, seat: Seat, log: list[tuple[Seat, bool]], knock_after: int = -1) -> None:
        self.seat = seat
        self.log = log
        self.knock_after = knock_after

    def act(self, view: ToyView, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        self.log.append((self.seat, required))
        if not required:
            return Play(0) if 0 <= self.knock_after <= sum(map(len, view.played)) else None
        return min(legal, key=lambda a: a.card)  # type: ignore[attr-defined]


class Watcher:
    def __init__(self) -> None:
        self.seen: list[tuple[Any, list[Event], Hashable | None]] = []

    def observe(self, view: Any, events: Sequence[Event], action: Hashable | None) -> None:
        self.seen.append((view, list(events), action))


def test_offer_order_is_clockwise_from_after_the_last_mover() -> None:
    assert offer_order({0, 1, 3}, last=1, players=4) == [3, 0, 1]
    assert offer_order({0, 1, 2, 3}, last=3, players=4) == [0, 1, 2, 3]
    assert offer_order({2}, last=2, players=3) == [2]
    assert offer_order(set(), last=0, players=3) == []


def test_optional_actors_are_offered_clockwise_before_every_required_decision() -> None:
    game = Knocking()
    state = game.new_game(3, {"hand": 2}, 5)
    log: list[tuple[Seat, bool]] = []
    driver = Driver(game, state, {s: Logger(s, log) for s in range(3)})
    driver.run()
    # Nobody knocks: before each of the 6 plays, the two seats not to play are offered the chance,
    # clockwise from the seat after the last mover (before any move: from seat 0).
    expected: list[tuple[Seat, bool]] = []
    last = 2
    for turn in [0, 1, 2, 0, 1, 2]:
        offered = offer_order({0, 1, 2} - {turn}, last, 3)
        expected += [(s, False) for s in offered] + [(turn, True)]
        last = turn
    assert log == expected
    assert [seat for seat, _ in driver.moves] == [0, 1, 2, 0, 1, 2]


def test_an_optional_actor_that_acts_ends_the_round_of_offers() -> None:
    game = Knocking()
    state = game.new_game(3, {"hand": 1}, 5)
    card = state.hands[0][0]
    log: list[tuple[Seat, bool]] = []
    actors = {0: Logger(0, log), 1: Logger(1, log, knock_after=0), 2: Logger(2, log, knock_after=0)}
    driver = Driver(game, state, actors)
    driver.run()
    # Seat 0 is to play and the last mover is (before any move) seat 2: seat 1 is offered first and
    # knocks, which ends the round; the offers start again after seat 1: seat 2 knocks; then nobody is
    # left to offer and seat 0 plays.
    assert log[:3] == [(1, False), (2, False), (0, True)]
    assert driver.moves[:3] == [(1, Play(0)), (2, Play(0)), (0, Play(card))]


def test_the_arena_orders_decisions_as_the_driver_does() -> None:
    game = Knocking()
    for seed in range(5):
        log_a: list[tuple[Seat, bool]] = []
        log_b: list[tuple[Seat, bool]] = []
        arena = play_game(game, [Logger(s, log_a, knock_after=s) for s in range(3)], 3, None, seed)
        driver = Driver(
            game, game.new_game(3, None, seed), {s: Logger(s, log_b, knock_after=s) for s in range(3)}
        )
        driver.run()
        assert log_a == log_b
        assert arena.moves == driver.moves


def test_a_bot_that_declines_lets_the_required_seat_act() -> None:
    game = Knocking()
    state = game.new_game(2, {"hand": 1}, 3)
    driver = Driver(game, state, {0: RandomBot(game, 0, 1), 1: RandomBot(game, 1, 1)})
    driver.run()  # RandomBot never takes an optional chance
    assert [seat for seat, _ in driver.moves] == [0, 1]
    assert all(action != Play(0) for _, action in driver.moves)


class Refuser:
    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        return None


class Cheater:
    def act(self, view: ToyView, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        return Play(next(c for c in range(1, 10) if c not in view.hand))


def test_a_bot_that_passes_on_a_required_decision_or_cheats_is_an_error_and_changes_nothing() -> None:
    state = GAME.new_game(2, None, 4)
    before = [GAME.view(state, s) for s in range(2)]
    with pytest.raises(BotError, match="passed on a required decision"):
        Driver(GAME, state, {0: Refuser(), 1: Refuser()}).run()
    with pytest.raises(BotError, match="the bot at seat 0 chose"):
        Driver(GAME, state, {0: Cheater(), 1: Cheater()}).run()
    assert [GAME.view(state, s) for s in range(2)] == before


def test_observers_get_their_seat_view_their_events_and_only_their_own_actions() -> None:
    game = Secretive()
    state = game.new_game(3, None, 8)
    watchers = {0: Watcher(), 1: Watcher(), None: Watcher()}
    driver = Driver(game, state, {s: RandomBot(game, s, s) for s in range(3)}, watchers)
    driver.run()
    assert len(driver.moves) == 9
    for seat, watcher in watchers.items():
        assert len(watcher.seen) == 9
        for (mover, action), (view, events, told) in zip(driver.moves, watcher.seen, strict=True):
            assert view.seat == seat
            assert all(e.visible_to(seat) for e in events)
            assert [e.kind for e in events] == (["play", "left"] if mover == seat else ["play"])
            assert told == (action if mover == seat else None)
    assert watchers[0].seen[-1][0] == game.view(state, 0)
    assert len(driver.events) == 18  # the driver keeps everything; observers get their share


def test_a_recorded_log_plays_back_a_game_made_by_the_driver() -> None:
    game = Knocking()
    log: list[tuple[Seat, bool]] = []
    first = Driver(game, game.new_game(3, None, 2), {s: Logger(s, log, knock_after=2 * s) for s in range(3)})
    first.run()
    recorded = RecordedLog(game, first.record_moves())
    second = Driver(game, game.new_game(3, None, 2), {s: recorded.actor(s) for s in range(3)})
    second.run()
    assert second.moves == first.moves
    shifted = RecordedLog(game, first.record_moves()[1:])
    with pytest.raises(BotError):  # a log that does not fit the game is refused, not played on
        Driver(game, game.new_game(3, None, 2), {s: shifted.actor(s) for s in range(3)}).run()
    other_first = RecordedLog(GAME, [Move(1, "5")])
    with pytest.raises(BotError, match="the log has no move of seat 0 here"):
        Driver(GAME, GAME.new_game(2, None, 2), {s: other_first.actor(s) for s in range(2)}).run()


def test_a_person_who_types_an_illegal_move_is_told_and_nothing_changes() -> None:
    state = GAME.new_game(2, None, 11)
    hand = list(state.hands[0])
    missing = next(c for c in range(1, 10) if c not in hand and c not in state.hands[1])
    start_views = [GAME.view(state, s) for s in range(2)]
    lines = iter([str(missing), "0", "?", "help", *(str(c) for c in hand)])
    printed: list[str] = []
    views_when_asked: list[list[ToyView]] = []

    def read(prompt: str) -> str:
        views_when_asked.append([GAME.view(state, s) for s in range(2)])
        return next(lines)

    driver = play_terminal(GAME, state, 0, {1: RandomBot(GAME, 1, 5)}, read, printed.append)
    text = "\n".join(printed)
    assert f"you do not hold a {missing}" in text
    assert "a play is a card 1-9" in text
    assert "legal:" in text and "'quit' to leave" in text
    # the refused moves changed nothing: the game was where it started until the first legal move
    assert views_when_asked[:5] == [start_views] * 5
    assert [seat for seat, _ in driver.moves] == [0, 1] * len(hand)
    assert [a for s, a in driver.moves if s == 0] == [Play(c) for c in hand]
    assert GAME.is_over(state)


def test_the_terminal_shows_a_person_its_own_moves_and_the_others_as_events() -> None:
    game = Secretive()
    state = game.new_game(2, None, 11)
    hand = list(state.hands[0])
    other = list(state.hands[1])
    lines = iter(str(c) for c in hand)
    printed: list[str] = []
    play_terminal(game, state, 0, {1: RandomBot(game, 1, 5)}, lambda _: next(lines), printed.append)
    text = "\n".join(printed)
    assert f"[/] play [bold]{hand[0]}[/]" in text  # "you play 1"
    assert "left seat=1" not in text  # seat 1's private event is not shown to seat 0
    assert "left seat=0 cards=" in text  # its own is
    for card in other:
        assert f"play seat=1 card={card}" in text  # the other seat's moves, as their events say
    assert "seat 1 plays" not in text
    assert printed[-2].startswith("you: ") and printed[-1].startswith("seat 1: ")


def test_quit_and_end_of_input_leave_the_game() -> None:
    state = GAME.new_game(2, None, 1)
    with pytest.raises(Quit):
        play_terminal(GAME, state, 0, {1: RandomBot(GAME, 1, 1)}, lambda _: "quit", lambda _: None)

    def eof(prompt: str) -> str:
        raise EOFError

    with pytest.raises(EOFError):
        play_terminal(GAME, state, 0, {1: RandomBot(GAME, 1, 1)}, eof, lambda _: None)


def test_the_terminal_explains_the_scores_from_the_persons_view() -> None:
    from coven.games import REGISTRY

    game = REGISTRY.get("brujas")
    state = game.new_game(3, {"conflict": True}, 5)
    bots = {s: RandomBot(game, s, s) for s in (1, 2)}
    me = RandomBot(game, 0, 9)
    printed: list[str] = []

    def read(_prompt: str) -> str:
        view = game.view(state, 0)
        action = me.act(view, game.legal_actions(state, 0), True)
        assert action is not None
        return game.format_action(action)

    play_terminal(game, state, 0, bots, read, printed.append, names={1: "Bo", 2: "Cy"})
    text = "\n".join(printed)
    explained = game.explain(game.view(state, 0))
    assert explained is not None
    assert "Why these scores" in text
    for seat, score in enumerate(game.scores(state)):
        who = "you" if seat == 0 else f"seat {seat} ({['', 'Bo', 'Cy'][seat]})"
        assert f"[bold]{who}[/]: {score:g}" in text
        assert sum(line.points for line in explained.seats[seat].lines) == score
    assert "Witch score" in text and "{s" not in text
