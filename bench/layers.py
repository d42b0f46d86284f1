"""Where a simulated Exploding Kittens game spends its time, layer by layer (issue 16).

The games `python -m bench` times (four `random` bots, plain options) are played once and their
moves kept; then, in processor time on one core, best of 3, per game:

- engine: a fresh table, the moves applied at their times and the timers run, nobody told;
- driver: the same through `VirtualDriver`, each seat a stand-in that only plays its recorded
  moves at their times (like the random bot it listens to no events, so it is woken only when
  its seat may act, and it asks for nothing);
- views: the same, the stand-in asking for its seat's whole view before each move (what the
  kittens bots did before they read single fields through their `Sight`);
- whole: the real bots, which decide the same moves.

Each line adds a layer to the one before, so the differences are what the driver, the views and
the bots' own thinking cost:

    python -m bench.layers --games 300
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from bench.__main__ import _pin_to_one_core
from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.kittens import GAME
from cardroom.protocol import JSON, Rejected
from cardroom.protocol.table import ViewFn

Moves = list[tuple[int, int, Any]]


class StandIn:
    """Plays one seat's recorded moves at their times; reads nothing, decides nothing."""

    hears_secrets = False
    listens = False

    def __init__(self, seat: int, moves: Moves, look: bool) -> None:
        self.seat = seat
        self.moves = [m for m in moves if m[1] == seat]
        self.next = 0
        self.look = look

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        pass

    def due(self) -> int | None:
        return self.moves[self.next][0] if self.next < len(self.moves) else None

    def act(self, view: ViewFn, now: int) -> Any:
        if self.look:
            view()
        action = self.moves[self.next][2]
        self.next += 1
        return action

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        pass


def _bots(seed: int) -> dict[int, Any]:
    return {s: make_bot("kittens", s, "random", seed * 1_000 + s, options={}) for s in range(4)}


def record(games: int) -> list[tuple[int, Moves, int]]:
    """The moves of games 1..`games` as the bench plays them (seed i, bots seeded as simulate does)."""
    out = []
    for seed in range(1, games + 1):
        run = VirtualDriver(GAME.new_table(4, {}, seed), _bots(seed), GAME.action_json).run()
        out.append((seed, [(m.at, m.player, GAME.parse_action(m.action, 4)) for m in run.moves], run.end_ms))
    return out


def per_game_us(games: list[tuple[int, Moves, int]], work: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best / len(games) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.layers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print(f"cardroom bench.layers: {_pin_to_one_core()}")
    games = record(args.games)

    def engine() -> None:
        for seed, moves, end in games:
            table = GAME.new_table(4, {}, seed)
            for at, player, action in moves:
                table.advance(at)
                table.apply(player, action, at)
            table.advance(end)

    def driven(look: bool) -> Callable[[], None]:
        def work() -> None:
            for seed, moves, _ in games:
                stand_ins = {s: StandIn(s, moves, look) for s in range(4)}
                VirtualDriver(GAME.new_table(4, {}, seed), stand_ins).run()

        return work

    def whole() -> None:
        for seed, _, _ in games:
            VirtualDriver(GAME.new_table(4, {}, seed), _bots(seed)).run()

    layers = [
        ("engine", engine),
        ("+ driver", driven(False)),
        ("+ views", driven(True)),
        ("+ bots (whole)", whole),
    ]
    before = 0.0
    for name, work in layers:
        us = per_game_us(games, work)
        print(f"{name:16s} {us:7.0f} us a game ({us - before:+.0f}): {1e6 / us:,.0f} games/s")
        before = us
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
