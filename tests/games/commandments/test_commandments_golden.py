"""Golden playthroughs: fixed seeds and bots; the stored records replay to the same moves and scores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from coven.bots.arena import play_game
from coven.core import Move, Record, replay
from coven.games.commandments import GAME
from coven.games.commandments.notation import Action

GOLDEN = Path(__file__).parent / "golden"

# file (holding the record and the final scores), bots by seat, seed, options
CASES: list[tuple[str, tuple[str, ...], int, dict[str, Any]]] = [
    ("best_greedy_random_3p_seed11.json", ("best", "greedy", "random"), 11, {}),
    ("greedy_random_4p_expert_seed5.json", ("greedy", "random", "greedy", "greedy"), 5, {"expert": True}),
    ("greedy_random_4p_expert_seed3.json", ("greedy", "random", "greedy", "greedy"), 3, {"expert": True}),
]
"""Seed 3 was added when the deal moved to counter-based chance (the same seed deals other cards): the
seed-5 game no longer met "bad karma", seed 3 meets it and a disempowered High Priestess."""


def _play(bots: tuple[str, ...], seed: int, options: dict[str, Any]) -> Record:
    factories = GAME.bots()
    players = [factories[name](GAME, seat, 1000 + seat) for seat, name in enumerate(bots)]
    result = play_game(GAME, players, len(bots), options, seed)
    return Record(
        game="commandments",
        players=len(bots),
        options=dict(GAME.spec.resolve_options(options)),
        seed=seed,
        seats=bots,
        moves=tuple(Move(seat, GAME.format_action(cast(Action, a))) for seat, a in result.moves),
    )


def _load(name: str) -> tuple[Record, list[float]]:
    raw = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    return Record.from_json(raw["record"]), raw["scores"]


@pytest.mark.parametrize(("name", "bots", "seed", "options"), CASES, ids=[c[0] for c in CASES])
def test_golden_record_replays_to_the_stored_scores(
    name: str, bots: tuple[str, ...], seed: int, options: dict[str, Any]
) -> None:
    record, scores = _load(name)
    state = replay(GAME, record)
    assert GAME.is_over(state)
    assert list(GAME.scores(state)) == scores
    assert max(scores) > 0
    assert len(state.rituals) == record.players


def test_the_golden_games_meet_every_verdict_and_a_disempowerment() -> None:
    met: set[str] = set()
    for name, *_ in CASES:
        record, _ = _load(name)
        state = GAME.new_game(record.players, record.options, record.seed)
        for move in record.moves:
            for event in GAME.apply(state, move.seat, GAME.parse_action(move.action)):
                met.add(f"karma:{event.data['verdict']}" if event.kind == "karma" else event.kind)
    assert {"karma:karma", "karma:no karma", "karma:bad karma", "disempowered", "ritual_end"} <= met


@pytest.mark.parametrize(("name", "bots", "seed", "options"), CASES, ids=[c[0] for c in CASES])
def test_bots_are_deterministic_and_replay_the_golden_game(
    name: str, bots: tuple[str, ...], seed: int, options: dict[str, Any]
) -> None:
    record, _ = _load(name)
    fresh = _play(bots, seed, options)
    assert [(m.seat, m.action) for m in fresh.moves] == [(m.seat, m.action) for m in record.moves]


if __name__ == "__main__":  # regenerate: python -m tests.games.commandments.test_commandments_golden
    for file, bots, seed, options in CASES:
        rec = _play(bots, seed, options)
        final = list(GAME.scores(replay(GAME, rec)))
        (GOLDEN / file).write_text(
            json.dumps({"record": rec.to_json(), "scores": final}) + "\n", encoding="utf-8"
        )
        print(file, final, len(rec.moves))
