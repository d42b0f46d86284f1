"""Bots play whole games in virtual time, as fast as the engine can, and we count what happened."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.bots import check_level, make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.protocol import JSON, GameDef, InvalidSetup

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class Totals:
    """Statistics over many games."""

    game: str
    players: int
    levels: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    unfinished: int = 0
    actions: int = 0
    refused: int = 0
    play_ms: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        games_per_s = self.games / self.seconds if self.seconds else 0.0
        return {
            "game": self.game,
            "players": self.players,
            "levels": self.levels,
            "games": self.games,
            "wins": self.wins,
            "unfinished": self.unfinished,
            "actions": self.actions,
            "actions_per_game": round(self.actions / self.games, 2) if self.games else 0,
            "refused": self.refused,
            "mean_play_seconds": round(self.play_ms / self.games / 1000, 1) if self.games else 0,
            "seconds": round(self.seconds, 4),
            "games_per_s": round(games_per_s, 2),
            "actions_per_s": round(self.actions / self.seconds, 1) if self.seconds else 0.0,
            **self.extra,
        }


def merge_stats(into: dict[str, Any], new: Mapping[str, Any]) -> None:
    """Add a game's stats to the running totals: numbers add, lists add per index, dicts recurse."""
    for key, value in new.items():
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int | float):
            into[key] = into.get(key, 0) + value
        elif isinstance(value, list) and all(isinstance(v, int | float) for v in value):
            old = into.setdefault(key, [0] * len(value))
            for i, v in enumerate(value):
                old[i] += v
        elif isinstance(value, dict):
            merge_stats(into.setdefault(key, {}), value)


def simulate(
    game: GameDef[Any],
    players: int,
    games: int,
    seed: int,
    levels: Sequence[str],
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> Totals:
    """Play `games` whole games between bots; game i uses seed `seed + i`."""
    if not game.min_players <= players <= game.max_players:
        raise InvalidSetup(f"{game.name} is played by {game.min_players} to {game.max_players} players")
    if len(levels) == 1:
        levels = list(levels) * players
    if len(levels) != players:
        raise InvalidSetup(f"give one bot level, or one per seat ({players})")
    for level in levels:
        check_level(game.name, level)
    if games < 1:
        raise InvalidSetup("play at least one game")
    totals = Totals(game.name, players, list(levels), wins=[0] * players)
    opts = dict(options or {})
    sums: dict[str, Any] = {}
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        table = game.new_table(players, opts, game_seed)
        bots = {
            s: make_bot(game.name, s, levels[s], game_seed * 1_000 + s, options=opts) for s in range(players)
        }
        run = VirtualDriver(table, bots).run()
        totals.games += 1
        totals.actions += run.actions
        totals.refused += run.refused
        totals.play_ms += run.end_ms
        if table.winner is None:
            totals.unfinished += 1
        else:
            totals.wins[table.winner] += 1
        merge_stats(sums, game.stats(table))
        if progress is not None:
            progress(i + 1, games)
    totals.seconds = time.perf_counter() - started
    totals.extra = _means(sums, totals.games)
    return totals


def _means(sums: dict[str, Any], games: int) -> dict[str, Any]:
    """Per-game stats: counts stay totals, except keys starting with `mean_`, which are averaged."""
    out: dict[str, Any] = {}
    for key, value in sums.items():
        if key.startswith("mean_") and games:
            if isinstance(value, list):
                out[key] = [round(v / games, 3) for v in value]
            elif isinstance(value, int | float):
                out[key] = round(value / games, 3)
        else:
            out[key] = value
    return out
