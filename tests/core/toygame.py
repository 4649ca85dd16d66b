"""A tiny hidden-information game that exercises every part of the core contract.

Each player is dealt ``hand`` cards from 1-9 (unseen by others); in turn each plays one card face up.
When the hands are empty the highest total wins. Used by the core tests and the server tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from coven.core import (
    Bounds,
    Event,
    Game,
    GameSpec,
    NotationError,
    Option,
    Options,
    Seat,
    check_seat,
    public,
)
from coven.core.chance import Chance, fresh


@dataclass(frozen=True, slots=True)
class Play:
    card: int


@dataclass(slots=True)
class ToyState:
    players: int
    options: Options
    hands: list[list[int]]
    played: list[list[int]]
    turn: int
    chance: Chance


@dataclass(frozen=True, slots=True)
class ToyView:
    seat: int | None
    players: int
    options: dict[str, bool | int | str]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    played: tuple[tuple[int, ...], ...]
    turn: int


class ToyGame(Game[ToyState, Play, ToyView]):
    spec = GameSpec(
        id="toy",
        title="Toy",
        summary="Play your cards; highest total wins.",
        min_players=2,
        max_players=3,
        options=(Option("hand", 3, "cards per hand", minimum=1, maximum=3),),
    )
    action_classes = (Play,)
    view_class = ToyView

    def setup(self, players: int, options: Options, seed: int) -> ToyState:
        rng = Chance(seed)
        deck = list(range(1, 10))
        rng.shuffle(deck)
        size = int(options["hand"])
        hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(players)]
        return ToyState(players, options, hands, [[] for _ in range(players)], 0, rng)

    def bounds(self, players: int, options: Options) -> Bounds:
        return Bounds(max_decisions=players * int(options["hand"]), min_score=0, max_score=27)

    def num_players(self, state: ToyState) -> int:
        return state.players

    def options(self, state: ToyState) -> Options:
        return state.options

    def clone(self, state: ToyState) -> ToyState:
        rng = state.chance.copy()
        return ToyState(
            state.players,
            state.options,
            [list(h) for h in state.hands],
            [list(p) for p in state.played],
            state.turn,
            rng,
        )

    def to_act(self, state: ToyState) -> frozenset[Seat]:
        return frozenset() if not any(state.hands) else frozenset({state.turn})

    def legal_actions(self, state: ToyState, seat: Seat) -> Sequence[Play]:
        check_seat(seat, state.players, spectator=False)
        if seat != state.turn or not state.hands[seat]:
            return ()
        return [Play(c) for c in state.hands[seat]]

    def illegal_reason(self, state: ToyState, seat: Seat, action: Play) -> str | None:
        if action.card not in state.hands[seat]:
            return f"you do not hold a {action.card}"
        return None

    def apply_unchecked(self, state: ToyState, seat: Seat, action: Play) -> list[Event]:
        state.hands[seat].remove(action.card)
        state.played[seat].append(action.card)
        state.turn = (seat + 1) % state.players
        return [public("play", seat=seat, card=action.card)]

    def view(self, state: ToyState, seat: Seat | None) -> ToyView:
        check_seat(seat, state.players)
        return ToyView(
            seat=seat,
            players=state.players,
            options=dict(state.options),
            hand=tuple(state.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in state.hands),
            played=tuple(tuple(p) for p in state.played),
            turn=state.turn,
        )

    def world_from_view(self, view: ToyView, rng: random.Random) -> ToyState:
        seen = set(view.hand) | {c for p in view.played for c in p}
        unseen = [c for c in range(1, 10) if c not in seen]
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        for s, size in enumerate(view.hand_sizes):
            if s == view.seat:
                hands.append(list(view.hand))
            else:
                hands.append(sorted(unseen[:size]))
                del unseen[:size]
        return ToyState(
            view.players,
            dict(view.options),
            hands,
            [list(p) for p in view.played],
            view.turn,
            fresh(rng),
        )

    def write_position(self, state: ToyState) -> str:
        """``<hand option> <turn> <hands> <played> <chance>``; card lists per seat split by ``/``."""
        hands = "/".join("".join(map(str, h)) or "-" for h in state.hands)
        played = "/".join("".join(map(str, p)) or "-" for p in state.played)
        return f"{state.options['hand']} {state.turn} {hands} {played} {state.chance.to_text()}"

    def read_position(self, text: str) -> ToyState:
        parts = text.split(" ")
        if len(parts) != 5 or not parts[0].isdecimal() or not parts[1].isdecimal():
            raise NotationError(f"a toy position is '<hand> <turn> <hands> <played> <chance>': {text[:60]!r}")
        hands, played = parts[2].split("/"), parts[3].split("/")
        if len(hands) != len(played) or not 2 <= len(hands) <= 3:
            raise NotationError("a toy position has one hand and one played list per seat, 2 or 3 seats")

        def cards(word: str) -> list[int]:
            if word == "-":
                return []
            if not word.isdecimal() or not word.isascii() or "0" in word:
                raise NotationError(f"cards are digits 1-9, not {word!r}")
            return [int(c) for c in word]

        try:
            chance = Chance.from_text(parts[4])
        except ValueError as exc:
            raise NotationError(str(exc)) from None
        turn = int(parts[1])
        if turn >= len(hands):
            raise NotationError(f"seat {turn} is not at a {len(hands)}-seat table")
        options: Options = {"hand": int(parts[0])}
        hand_lists, played_lists = [cards(h) for h in hands], [cards(p) for p in played]
        return ToyState(len(hands), options, hand_lists, played_lists, turn, chance)

    def scores(self, state: ToyState) -> tuple[float, ...]:
        return tuple(float(sum(p)) for p in state.played)

    def format_action(self, action: Play) -> str:
        return str(action.card)

    def parse_action(self, text: str) -> Play:
        text = text.strip()
        if len(text) != 1 or not text.isdigit() or text == "0":
            raise NotationError(f"a play is a card 1-9, not {text!r}")
        return Play(int(text))


GAME = ToyGame()
