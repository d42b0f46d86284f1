"""How strong the `expert` Exploding Kittens bot is: the long runs behind docs/bots.md.

Heads-up: `cardroom tournament kittens --levels expert,hard --players 2` (both seat orders,
equally often). Four players: one expert against three `hard` bots, the expert in each seat in
turn, blocks of 5 games per seat (block b, expert in seat s: seed 100000 + 1000 b + 100 s).
Win rates come with Wilson 95 % intervals. Searches use the virtual-time playout budget, so
every figure is reproducible.

    python -m bench.expert --two 1000 --four 300 --jobs 2
"""

from __future__ import annotations

import argparse
import json

from cardroom.drive.simulate import simulate
from cardroom.drive.tournament import default_jobs, tournament, wilson
from cardroom.games import find_game

BLOCK = 5


def four_players(games: int) -> tuple[int, int]:
    """Wins of one expert among three hard bots, over `games` (rounded down to whole blocks)."""
    kittens = find_game("kittens")
    wins = played = 0
    for block in range(games // (4 * BLOCK)):
        for seat in range(4):
            levels = ["hard"] * 4
            levels[seat] = "expert"
            totals = simulate(kittens, 4, BLOCK, seed=100_000 + block * 1000 + seat * 100, levels=levels)
            wins += totals.wins[seat]
            played += totals.games
    return wins, played


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.expert", description=__doc__.split("\n\n")[0])
    parser.add_argument("--two", type=int, default=1000, help="heads-up games against hard (0: none)")
    parser.add_argument("--four", type=int, default=300, help="four-player games, one expert (0: none)")
    parser.add_argument("--jobs", type=int, default=None, help="processes for the heads-up tournament")
    args = parser.parse_args()
    out: dict[str, object] = {}
    if args.two:
        result = tournament("kittens", ["expert", "hard"], 2, args.two, 1, args.jobs or default_jobs())
        expert = next(s for s in result.standings if s.level == "expert")
        low, high = wilson(expert.wins, expert.games)
        out["two_players"] = expert.to_json()
        print(
            f"heads-up against hard: {expert.wins} of {expert.games} won, {expert.wins / expert.games:.1%} "
            f"[{low:.1%}, {high:.1%}] (target 60 %)"
        )
    if args.four:
        wins, played = four_players(args.four)
        low, high = wilson(wins, played)
        out["four_players"] = {"wins": wins, "games": played, "win_rate_95": [round(low, 4), round(high, 4)]}
        print(
            f"one expert against three hard: {wins} of {played} won, {wins / played:.1%} "
            f"[{low:.1%}, {high:.1%}] (target 35 %, 25 % is even)"
        )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
