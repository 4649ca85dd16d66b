"""Explained results: for every game, over seeds and player counts, played to the end by bots, every
seat's lines add up to the engine's score, from every seat's final view and the spectator's, and the
steps they cite are moments that seat saw."""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from coven.core import Driver, Event, Game, Seat
from coven.core.explain import Explanation, Moment, fill
from coven.games import REGISTRY

AnyGame = Game[Any, Any, Any]

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "brujas": [{}, {"conflict": True}, {"conflict": True, "silent": True}],
    "namaste": [{}],
    "commandments": [{}, {"reveal": "never", "expert": True}, {"judge": "priestess"}],
    "amulets": [{}, {"question_cap": 6}],
}
BOTS = {"brujas": "random", "namaste": "random", "commandments": "random", "amulets": "greedy"}


class Moments:
    """The observer of one seat: the events it saw, numbered by the step that made them."""

    def __init__(self, driver_moves: list[tuple[Seat, Hashable]]) -> None:
        self.moves = driver_moves
        self.seen: list[Moment] = []

    def observe(self, view: Any, events: Sequence[Event], action: Hashable | None) -> None:
        self.seen.extend((len(self.moves), e) for e in events)


def play(
    game: AnyGame, players: int, options: dict[str, Any], seed: int
) -> tuple[Driver, dict[Seat | None, Moments]]:
    state = game.new_game(players, options, seed)
    factory = game.bots()[BOTS[game.spec.id]]
    actors = {s: factory(game, s, seed * 10 + s) for s in range(players)}
    driver = Driver(game, state, actors)
    watchers: dict[Seat | None, Moments] = {w: Moments(driver.moves) for w in [None, *range(players)]}
    driver.observers = dict(watchers)
    driver.run()
    return driver, watchers


def cases() -> list[tuple[str, int, int, dict[str, Any]]]:
    out = []
    for game_id, variants in OPTIONS.items():
        game: AnyGame = REGISTRY.get(game_id)
        for players in game.spec.player_counts:
            for seed in range(3):
                out.append((game_id, players, seed, variants[seed % len(variants)]))
    return out


def _points(ex: Explanation) -> list[list[float]]:
    return [[ln.points for ln in s.lines] for s in ex.seats]


@pytest.mark.parametrize(("game_id", "players", "seed", "options"), cases())
def test_lines_add_up_to_the_scores(game_id: str, players: int, seed: int, options: dict[str, Any]) -> None:
    game: AnyGame = REGISTRY.get(game_id)
    driver, watchers = play(game, players, options, seed)
    state = driver.state
    scores = list(game.scores(state))
    winners = sorted(game.winners(state))
    steps = len(driver.moves)
    for viewer, seen in watchers.items():
        view = game.view(state, viewer)
        # the view alone, through its JSON form: nothing but what the seat may know goes in
        view = game.view_from_json(json.loads(json.dumps(game.view_to_json(view))))
        ex = game.explain(view, seen.seen)
        assert ex is not None
        assert ex.viewer == viewer and ex.game == game_id
        assert [s.seat for s in ex.seats] == list(range(players))
        assert [sum(ln.points for ln in s.lines) for s in ex.seats] == scores
        assert [s.score for s in ex.seats] == scores
        assert sorted(ex.winners) == winners
        assert ex.summary
        json.dumps(ex.to_json())
        # moments say when, never how much
        assert _points(game.explain(view)) == _points(ex)  # type: ignore[arg-type]
        saw = {step for step, _ in seen.seen}
        for s in ex.seats:
            for line in s.lines:
                assert all(1 <= st <= steps and st in saw for st in line.steps), (line, steps)
                assert fill(line.label, lambda k: f"<{k}>").count("{s") == 0


@pytest.mark.parametrize("game_id", sorted(OPTIONS))
def test_cited_steps_are_the_seats_own_moments(game_id: str) -> None:
    """Each line that earned points cites steps whose events concern that seat (or its ritual)."""
    game: AnyGame = REGISTRY.get(game_id)
    players = game.spec.min_players
    driver, watchers = play(game, players, OPTIONS[game_id][0], 1)
    events_at: dict[int, list[Event]] = {}
    for step, event in watchers[None].seen:
        events_at.setdefault(step, []).append(event)
    ex = game.explain(game.view(driver.state, None), watchers[None].seen)
    assert ex is not None
    cited = 0
    for s in ex.seats:
        for line in s.lines:
            if line.points <= 0:
                continue
            for step in line.steps:
                cited += 1
                kinds = {e.kind for e in events_at[step]}
                seats = {e.data.get("seat") for e in events_at[step]} | {
                    e.data.get("priestess") for e in events_at[step]
                }
                entries = [e.data.get("entries") for e in events_at[step] if e.kind == "entries"]
                by_seat = any(isinstance(x, dict) and str(s.seat) in x for x in entries)
                assert s.seat in seats or by_seat or "disempowered" in kinds or "witch" in kinds, (
                    line,
                    events_at[step],
                )
    assert cited > 0


def test_brujas_witch_and_devil_lines_on_a_known_game() -> None:
    game: AnyGame = REGISTRY.get("brujas")
    driver, _ = play(game, 4, {"conflict": True}, 4)
    ex = game.explain(game.view(driver.state, 0))
    assert ex is not None
    for s in ex.seats:
        witch = [ln for ln in s.lines if ln.label.startswith("Witch score")]
        assert len(witch) == 1 and witch[0].points in {8, 5, 3, 1}
        devils = [ln for ln in s.lines if ln.label.startswith("Devil score")]
        assert all(ln.points == 2 for ln in devils)
        halved = [ln for ln in s.lines if ln.label.startswith("Devils in Conflict")]
        assert all(ln.points < 0 for ln in halved)


def test_amulets_winner_cast_is_the_point() -> None:
    game: AnyGame = REGISTRY.get("amulets")
    won_games = 0
    for seed in range(6):
        driver, _ = play(game, 3, {}, seed)
        ex = game.explain(game.view(driver.state, None))
        assert ex is not None
        for s in ex.seats:
            won = [ln for ln in s.lines if ln.points == 1]
            assert len(won) == (1 if s.seat in ex.winners else 0)
            if won:
                assert won[0].steps == (len(driver.moves),)
                won_games += 1
    assert won_games > 0
