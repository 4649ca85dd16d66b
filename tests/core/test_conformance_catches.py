"""The conformance suite must fail on games that break their promises (a check that cannot fail is
no check)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from coven.core import Bounds, Event, NotationError, Options, Seat
from coven.core.texts import Texts
from coven.testing.conformance import ConformanceError, check_bad_setup, check_game
from tests.core.toygame import Play, ToyGame, ToyState, ToyView


class LeakyWorlds(ToyGame):
    """Samples worlds that change the seat's own hand."""

    def world_from_view(self, view: ToyView, rng: random.Random) -> ToyState:
        world = super().world_from_view(view, rng)
        if view.seat is not None and world.hands[view.seat]:
            world.hands[view.seat][0] = 0
        return world


class MutatesOnRefusal(ToyGame):
    """Discards a card before refusing an illegal play."""

    def illegal_reason(self, state: ToyState, seat: Seat, action: Play) -> str | None:
        reason = super().illegal_reason(state, seat, action)
        if reason is not None and state.hands[seat]:
            state.hands[seat].pop()
        return reason


UNDECLARED = Texts({"refusal.toy.not_held": "you do not hold a {card}"})


class UndeclaredRefusal(ToyGame):
    """Says why with a key that its refusals (the core's alone) do not list."""

    def illegal_reason(self, state: ToyState, seat: Seat, action: Play) -> str | None:
        reason = super().illegal_reason(state, seat, action)
        return None if reason is None else UNDECLARED("refusal.toy.not_held", card=action.card)


class NeverEnds(ToyGame):
    def bounds(self, players: int, options: Options) -> Bounds:
        return Bounds(max_decisions=2, min_score=0, max_score=27)


class ScoresOutOfBounds(ToyGame):
    def bounds(self, players: int, options: Options) -> Bounds:
        return Bounds(max_decisions=9, min_score=0, max_score=1)


class LegalForEveryone(ToyGame):
    def legal_actions(self, state: ToyState, seat: Seat) -> Sequence[Play]:
        return [Play(c) for c in state.hands[seat]]


class NondeterministicDeal(ToyGame):
    def setup(self, players: int, options: Options, seed: int) -> ToyState:
        return super().setup(players, options, random.randrange(10**9))


class SloppyNotation(ToyGame):
    def format_action(self, action: Play) -> str:
        return f"card {action.card}"


class SecretInPublicEvent(ToyGame):
    """Reports a random card in the play event, so replay events differ (chance outside the state)."""

    def apply_unchecked(self, state: ToyState, seat: Seat, action: Play) -> list[Event]:
        events = super().apply_unchecked(state, seat, action)
        return [*events, Event("noise", {"value": random.random()})]


class ForgetfulPosition(ToyGame):
    """Writes a position without the cards already played."""

    def write_position(self, state: ToyState) -> str:
        parts = super().write_position(state).split(" ")
        parts[3] = "/".join("-" for _ in state.played)
        return " ".join(parts)


class LaxPositionReader(ToyGame):
    """Reads any text, falling back to a fresh deal."""

    def read_position(self, text: str) -> ToyState:
        try:
            return super().read_position(text)
        except NotationError:
            return self.new_game(2, None, 0)


class CarelessAdvance(ToyGame):
    """Its event-free path forgets to pass the turn on."""

    def advance(self, state: ToyState, seat: Seat, action: Play) -> None:
        state.hands[seat].remove(action.card)
        state.played[seat].append(action.card)


class TurnAfterTheEnd(ToyGame):
    """Answers ``first_to_act`` with the turn, even once the game is over."""

    def first_to_act(self, state: ToyState) -> Seat | None:
        return int(state.turn)


class SharedViewsMixedUp(ToyGame):
    """Builds several seats' views at once, but gives every seat the first one's."""

    def views(self, state: ToyState, seats: Iterable[Seat | None]) -> dict[Seat | None, ToyView]:
        wanted = list(seats)
        first = self.view(state, wanted[0])
        return {seat: first for seat in wanted}


class BareViewsThatDeriveWrong(ToyGame):
    """Says its views have a derived part, but its bare views, once derived, are another seat's."""

    def derives_views(self, options: Options) -> bool:
        return True

    def bare_views(self, state: ToyState, seats: Iterable[Seat | None]) -> dict[Seat | None, ToyView]:
        return {seat: self.view(state, None) for seat in seats}


class SharedInName(ToyGame):
    """Declares the cards played one object for every seat's view, but makes each seat its own."""

    shared_view_members = ("played",)


class ReusedNotATuple(ToyGame):
    """Declares the whose-turn number a tuple of reused items."""

    reused_view_items = ("turn",)


class Pile(tuple[int, ...]):
    """A pile of cards that says it may change (it cannot be hashed)."""

    __hash__ = None  # type: ignore[assignment]


class ReusedItemsThatChange(ToyGame):
    """Declares the cards played reused items, but gives piles that say they may change."""

    reused_view_items = ("played",)

    def view(self, state: ToyState, seat: Seat | None) -> ToyView:
        return dataclasses.replace(super().view(state, seat), played=tuple(Pile(p) for p in state.played))


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (LeakyWorlds(), "changes that seat's view"),
        (MutatesOnRefusal(), "changed the state"),
        (UndeclaredRefusal(), "not among the game's refusals"),
        (NeverEnds(), "still running"),
        (ScoresOutOfBounds(), "outside"),
        (LegalForEveryone(), "not to act but has legal actions"),
        (NondeterministicDeal(), "replay differs"),
        (SloppyNotation(), "round-trip"),
        (SecretInPublicEvent(), "replay differs in the events|goes on with other events"),
        (ForgetfulPosition(), "reads back to different views"),
        (LaxPositionReader(), "accepted the malformed"),
        (CarelessAdvance(), "advance \\(without events\\) reached another position"),
        (TurnAfterTheEnd(), "first_to_act is not the lowest seat"),
        (SharedViewsMixedUp(), "views of several seats at once differ"),
        (BareViewsThatDeriveWrong(), "bare views, once derived, differ"),
        (SharedInName(), "'played' is declared shared but is not one object"),
        (ReusedNotATuple(), "'turn' is declared reused but is not a tuple"),
        (ReusedItemsThatChange(), "'played' \\(declared reused\\) can change"),
    ],
    ids=lambda x: type(x).__name__ if not isinstance(x, str) else "",
)
def test_broken_games_are_caught(broken: ToyGame, message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_game(broken, 2, 1)


class ViewsOfAnyNumber(ToyGame):
    """Gives a view for any number: seat -1 reads the last seat's hand (Python's negative index)."""

    def view(self, state: ToyState, seat: Seat | None) -> ToyView:
        hand = tuple(state.hands[seat]) if seat is not None else ()
        return dataclasses.replace(super().view(state, None), seat=seat, hand=hand)


class NumbersAsPlayers(ToyGame):
    """Takes a count that is no whole number and fails on it later, untyped."""

    def new_game(self, players: int, options: Mapping[str, object] | None = None, seed: int = 0) -> ToyState:
        if isinstance(players, int):
            self.spec.check_players(players)
        return self.setup(players, self.spec.resolve_options(options), seed)


@pytest.mark.parametrize(
    ("broken", "message"),
    [(ViewsOfAnyNumber(), "view of seat -1 answered"), (NumbersAsPlayers(), "'3' players raised TypeError")],
    ids=lambda x: type(x).__name__ if not isinstance(x, str) else "",
)
def test_bad_seats_and_counts_are_caught(broken: ToyGame, message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_bad_setup(broken)


def test_the_honest_toy_passes() -> None:
    check_bad_setup(ToyGame())
    report = check_game(ToyGame(), 3, 1)
    assert report.decisions == 9
    assert report.hidden_varied
    assert report.illegal_tried > 0


def test_a_reused_item_met_again_changed_is_caught() -> None:
    """An item of a reused member met again, the very object, must write as it did when first met (the
    server keeps that JSON): one met before with other JSON is refused; met again unchanged, or met for
    the first time, it passes."""
    from coven.testing.conformance import check_reused_items

    class Reused(ToyGame):
        reused_view_items = ("played",)

    game = Reused()
    state = game.setup(2, game.spec.resolve_options({"hand": 3}), 4)
    game.apply(state, 0, game.legal_actions(state, 0)[0])
    views = list(game.views(state, [0, 1, None]).values())
    pile = views[0].played[0]
    assert len(pile) == 1
    met: dict[int, tuple[object, Any]] = {}
    check_reused_items(game, views, met, "here")
    assert met[id(pile)] == (pile, list(pile))
    check_reused_items(game, views, met, "again")  # unchanged: fine
    met[id(pile)] = (pile, [*pile, 9])  # as if it had been written with another card
    with pytest.raises(ConformanceError, match="'played' \\(declared reused\\) changed"):
        check_reused_items(game, views, met, "there")
