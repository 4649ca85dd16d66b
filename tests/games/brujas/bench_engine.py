"""Engine speed: random 4-player playouts through the public fast path (not a test; run it by hand).

    .venv/bin/python -m tests.games.brujas.bench_engine [seconds] [players] [option=value ...]

The loop is the one ``coven bench engine`` uses: ``to_act`` -> lowest seat -> ``legal_actions`` ->
``rng.randrange`` choice -> ``apply_unchecked``; a new game (``new_game``) after each finished one.
"""

from __future__ import annotations

import random
import sys
import time

from coven.games.brujas import GAME


def bench(seconds: float = 5.0, players: int = 4, options: dict[str, object] | None = None) -> tuple[int, float]:
    game = GAME
    rng = random.Random(1)
    to_act = game.to_act
    legal_actions = game.legal_actions
    apply_unchecked = game.apply_unchecked
    decisions = 0
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_game(players, options, games)
        games += 1
        while True:
            seats = to_act(state)
            if not seats:
                break
            seat = min(seats)
            legal = legal_actions(state, seat)
            apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
            decisions += 1
    elapsed = time.perf_counter() - start
    return decisions, elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    options = dict(arg.split("=", 1) for arg in sys.argv[3:])
    decisions, elapsed = bench(seconds, players, options)
    print(f"{decisions} decisions in {elapsed:.2f} s: {decisions / elapsed:,.0f} decisions/s ({players} players)")


if __name__ == "__main__":
    main()
