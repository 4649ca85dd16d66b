"""Bot strength and decision CPU time (not a test; run it by hand).

    .venv/bin/python -m tests.games.brujas.bench_bots GAMES [bots=best,greedy,greedy,greedy] [seed]

Plays GAMES games with the chairs rotated (as ``coven simulate`` does) and prints each bot's wins (shared
wins split) and the CPU time of its decisions (``time.process_time``: what one core spends, whatever
else the machine is doing), p50 / p95 / max in ms.
"""

from __future__ import annotations

import json
import random
import sys
import time

from coven.games.brujas import GAME


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    names = (sys.argv[2] if len(sys.argv) > 2 else "best,greedy,greedy,greedy").split(",")
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    players = len(names)
    wins = [0.0] * players
    times: list[list[float]] = [[] for _ in range(players)]
    for index in range(games):
        shift = index % players
        bot_of_seat = [(s + shift) % players for s in range(players)]
        deal = random.Random(f"{seed}/{index // players}").getrandbits(62)
        bots = [GAME.bots()[names[bot_of_seat[s]]](GAME, s, deal + s) for s in range(players)]
        state = GAME.new_game(players, None, deal)
        while GAME.to_act(state):
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            started = time.process_time()
            action = bots[seat].act(view, legal, True)
            times[bot_of_seat[seat]].append(time.process_time() - started)
            GAME.apply(state, seat, action)
        winners = GAME.winners(state)
        for s in winners:
            wins[bot_of_seat[s]] += 1 / len(winners)
        print(f"game {index + 1}: wins so far {[round(w, 2) for w in wins]}", file=sys.stderr, flush=True)

    def pct(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0

    print(
        json.dumps(
            {
                "games": games,
                "bots": names,
                "wins": [round(w, 3) for w in wins],
                "cpu_ms_p50": [round(pct(t, 0.5), 1) for t in times],
                "cpu_ms_p95": [round(pct(t, 0.95), 1) for t in times],
                "cpu_ms_max": [round(max(t, default=0) * 1000, 1) for t in times],
            }
        )
    )


if __name__ == "__main__":
    main()
