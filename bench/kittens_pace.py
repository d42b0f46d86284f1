"""The pace of Exploding Kittens at a live table (issue 21): how much of a game is spent in Nope
windows, before (every window its full 3 s, the old rule) and after (windows close once every
seat that may answer has passed; the shorter explosion without a Defuse).

Games of four `normal` bots with the table's think times (`bot_think_ms`), driven in virtual
time by the same driver, bots and timers as the server (`VirtualDriver`), on the same seeds
for both sets of options. Target: at most 10 % of game time in Nope windows.

    python -m bench.kittens_pace [--games 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass
from typing import Any

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.kittens import GAME
from cardroom.protocol import Event

BEFORE: dict[str, Any] = {"nope_early_close": False, "explode_ms": 10_000}
"""Today's defaults before issue 21: full windows; a kitten without a Defuse took defuse_ms."""
AFTER: dict[str, Any] = {}
"""The new defaults."""
TARGET = 0.10


@dataclass(slots=True)
class Pace:
    """What a set of games spent: play time in all, in Nope windows, and each game's length."""

    total_ms: int = 0
    window_ms: int = 0
    windows: int = 0
    lengths: list[int] | None = None

    @property
    def share(self) -> float:
        return self.window_ms / self.total_ms if self.total_ms else 0.0


def pace(options: dict[str, Any], games: int, seed: int, level: str = "normal") -> Pace:
    """`games` games of four `level` bots at a table of `options`, seeds `seed` onwards."""
    out = Pace(lengths=[])
    for game in range(seed, seed + games):
        table = GAME.new_table(4, options, game)
        bots = {s: make_bot("kittens", s, level, game * 10 + s, options=options) for s in range(4)}
        opened: list[int] = []

        def heard(now: int, events: list[Event], opened: list[int] = opened) -> None:
            for e in events:
                if e.kind == "played":
                    opened.append(now)
                elif e.kind == "window_closed" and opened:
                    out.window_ms += int(e.data.get("at", now)) - opened.pop()
                    out.windows += 1

        VirtualDriver(table, bots, listener=heard).run()
        out.total_ms += table.now
        assert out.lengths is not None
        out.lengths.append(table.now)
    return out


def report(games: int, seed: int) -> list[str]:
    """Lines saying the share of game time in Nope windows and the median game, before and after."""
    lines = []
    for name, options in (
        ("before (full windows, 10 s to explode)", BEFORE),
        ("after (new defaults)", AFTER),
    ):
        p = pace(options, games, seed)
        assert p.lengths is not None
        median = statistics.median(p.lengths) / 60_000
        lines.append(
            f"{name}: {p.share:.1%} of game time in {p.windows} Nope windows "
            f"({p.window_ms / max(1, p.windows) / 1000:.2f} s each), median game {median:.2f} min "
            f"over {games} games of four"
        )
    lines.append(f"target: at most {TARGET:.0%} of game time in Nope windows")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.kittens_pace", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=20, help="games of four per set of options")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args()
    for line in report(args.games, args.seed):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
