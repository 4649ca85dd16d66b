"""Golden playthroughs: fixed seeds and bots; the stored records replay to the same moves and scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coven.bots.arena import play_game
from coven.core import Move, Record, replay
from coven.games.amulets import GAME

GOLDEN = Path(__file__).parent / "golden"

# file (holding the record, the final scores and the winners), bots by seat, seed
CASES = [
    ("best_greedy_random_best_4p_seed42.json", ("best", "greedy", "random", "best"), 42),
    ("greedy_random_best_3p_seed7.json", ("greedy", "random", "best"), 7),
]


def _play(bots: tuple[str, ...], seed: int) -> Record:
    factories = GAME.bots()
    players = [factories[name](GAME, seat, 1000 + seat) for seat, name in enumerate(bots)]
    result = play_game(GAME, players, len(bots), {}, seed)
    return Record(
        game="amulets",
        players=len(bots),
        options=dict(GAME.options(result.state)),
        seed=seed,
        seats=bots,
        moves=tuple(Move(seat, GAME.format_action(a)) for seat, a in result.moves),  # type: ignore[arg-type]
    )


def _load(name: str) -> tuple[Record, list[float], list[int]]:
    raw = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    return Record.from_json(raw["record"]), raw["scores"], raw["winners"]


@pytest.mark.parametrize(("name", "bots", "seed"), CASES, ids=[c[0] for c in CASES])
def test_golden_record_replays_to_the_stored_scores(name: str, bots: tuple[str, ...], seed: int) -> None:
    record, scores, winners = _load(name)
    state = replay(GAME, record)
    assert GAME.is_over(state)
    assert list(GAME.scores(state)) == scores
    assert sorted(GAME.winners(state)) == winners
    # the game ended on a successful cast, checked by every other wizard
    last = state.book[-1]
    assert last.kind == "cast" and last.seat in winners and last.answers.count("y") == len(bots) - 1


@pytest.mark.parametrize(("name", "bots", "seed"), CASES, ids=[c[0] for c in CASES])
def test_bots_are_deterministic_and_replay_the_golden_game(
    name: str, bots: tuple[str, ...], seed: int
) -> None:
    record, _, _ = _load(name)
    fresh = _play(bots, seed)
    assert [(m.seat, m.action) for m in fresh.moves] == [(m.seat, m.action) for m in record.moves]


if __name__ == "__main__":  # regenerate: python -m tests.games.amulets.test_amulets_golden
    for file, bots, seed in CASES:
        rec = _play(bots, seed)
        state = replay(GAME, rec)
        final = list(GAME.scores(state))
        (GOLDEN / file).write_text(
            json.dumps({"record": rec.to_json(), "scores": final, "winners": sorted(GAME.winners(state))})
            + "\n",
            encoding="utf-8",
        )
        print(file, final, len(rec.moves))
