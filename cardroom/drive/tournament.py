"""Bot levels against each other over many games: balanced seatings, ratings, win rates.

Every pair of levels meets in every seating that gives each of them the same share of seats
and of seat positions (the rotations of an even split; with an odd number of players both
uneven splits), and the games are dealt round-robin over those seatings, so no level is
favoured by where it sits. Game `i` uses seed `seed + i` whatever the number of processes, so
a tournament is reproducible from its seed. Each game counts as one match between its two
levels, ranked by the best place each got at that table, and the levels' OpenSkill ratings
(Plackett-Luce, the model the server rates players with) are updated in game order.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from openskill.models import PlackettLuce

from cardroom.bots import check_level, make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.protocol import JSON, InvalidSetup

Progress = Callable[[int, int], None]
Z95 = 1.959964  # two-sided 95 %


def seatings(levels: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The seatings of a tournament: for each pair of levels, every rotation of an even split."""
    found: list[tuple[str, ...]] = []
    for a, b in combinations(levels, 2):
        for first, second in ((a, b), (b, a)):
            base = [first] * math.ceil(players / 2) + [second] * (players // 2)
            for turn in range(players):
                seating = tuple(base[turn:] + base[:turn])
                if seating not in found:
                    found.append(seating)
    return found


@dataclass(frozen=True, slots=True)
class Game:
    """One finished game: the level in each seat and each seat's place (1 is the winner)."""

    index: int
    seating: tuple[str, ...]
    places: tuple[int, ...]
    finished: bool


def play_one(game_name: str, seating: tuple[str, ...], seed: int, index: int) -> Game:
    """One whole game in virtual time between bots seated as `seating`."""
    from cardroom.games import find_game

    game = find_game(game_name)
    table = game.new_table(len(seating), {}, seed)
    bots = {s: make_bot(game_name, s, level, seed * 1_000 + s) for s, level in enumerate(seating)}
    VirtualDriver(table, bots).run()
    finished = table.winner is not None
    places = tuple(game.standings(table)) if finished else tuple([len(seating)] * len(seating))
    return Game(index, seating, places, finished)


def _play_chunk(args: tuple[str, list[tuple[int, tuple[str, ...], int]]]) -> list[Game]:
    game_name, jobs = args
    return [play_one(game_name, seating, seed, index) for index, seating, seed in jobs]


@dataclass(slots=True)
class Standing:
    """A level's figures over the tournament."""

    level: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    seat_games: list[int] = field(default_factory=list)
    seat_wins: list[int] = field(default_factory=list)

    @property
    def ordinal(self) -> float:
        """The conservative rating the leaderboard sorts by (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> JSON:
        low, high = wilson(self.wins, self.games)
        return {
            "level": self.level,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "mu_95": [round(self.mu - Z95 * self.sigma, 3), round(self.mu + Z95 * self.sigma, 3)],
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "win_rate_95": [round(low, 4), round(high, 4)],
            "seat_win_rates": [
                round(w / g, 4) if g else None for w, g in zip(self.seat_wins, self.seat_games, strict=True)
            ],
        }


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The Wilson score interval (95 %) of a win rate: sound near 0 and 1, unlike mean +- 2 SE."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(slots=True)
class Result:
    """A whole tournament: its settings, every game, and the standings by rating."""

    game: str
    players: int
    levels: list[str]
    seed: int
    games: list[Game]
    standings: list[Standing]
    seconds: float = 0.0

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "players": self.players,
            "levels": self.levels,
            "seed": self.seed,
            "games": len(self.games),
            "unfinished": sum(1 for g in self.games if not g.finished),
            "seatings": [list(s) for s in seatings(self.levels, self.players)],
            "standings": [s.to_json() for s in self.standings],
            "seconds": round(self.seconds, 3),
        }


def rate(levels: Sequence[str], players: int, games: Sequence[Game]) -> list[Standing]:
    """Ratings and win rates from the games, in game order; best conservative rating first."""
    model = PlackettLuce()
    ratings = {level: model.rating(name=level) for level in levels}
    table = {
        level: Standing(level, 0.0, 0.0, seat_games=[0] * players, seat_wins=[0] * players)
        for level in levels
    }
    for game in sorted(games, key=lambda g: g.index):
        if not game.finished:
            continue
        present = sorted(set(game.seating), key=levels.index)
        best = {
            level: min(p for s, p in enumerate(game.places) if game.seating[s] == level) for level in present
        }
        new = model.rate(
            [[ratings[level]] for level in present], ranks=[float(best[level]) for level in present]
        )
        for level, (rating,) in zip(present, new, strict=True):
            ratings[level] = rating
        winner = game.places.index(1)
        for seat, level in enumerate(game.seating):
            table[level].seat_games[seat] += 1
            if seat == winner:
                table[level].seat_wins[seat] += 1
        for level in present:
            table[level].games += 1
            table[level].wins += game.seating[winner] == level
    for level, rating in ratings.items():
        table[level].mu, table[level].sigma = float(rating.mu), float(rating.sigma)
    return sorted(table.values(), key=lambda s: -s.ordinal)


def tournament(
    game_name: str,
    levels: Sequence[str],
    players: int,
    games: int,
    seed: int = 1,
    jobs: int = 1,
    progress: Progress | None = None,
) -> Result:
    """Play the tournament on `jobs` processes; the result does not depend on `jobs`."""
    import time

    from cardroom.games import find_game

    game = find_game(game_name)
    if not game.min_players <= players <= game.max_players:
        raise InvalidSetup(f"{game.name} is played by {game.min_players} to {game.max_players} players")
    levels = list(dict.fromkeys(levels))
    if len(levels) < 2:
        raise InvalidSetup("a tournament needs at least two different levels")
    for level in levels:
        check_level(game.name, level)
    if games < 1:
        raise InvalidSetup("play at least one game")
    plan = seatings(levels, players)
    schedule = [(i, plan[i % len(plan)], seed + i) for i in range(games)]
    jobs = max(1, min(jobs, games))
    started = time.perf_counter()
    played: list[Game] = []
    if jobs == 1:
        for index, seating, game_seed in schedule:
            played.append(play_one(game.name, seating, game_seed, index))
            if progress:
                progress(len(played), games)
    else:
        size = max(1, min(50, games // (jobs * 4) or 1))
        chunks = [(game.name, schedule[i : i + size]) for i in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for chunk in pool.map(_play_chunk, chunks):
                played.extend(chunk)
                if progress:
                    progress(len(played), games)
    seconds = time.perf_counter() - started
    return Result(game.name, players, levels, seed, played, rate(levels, players, played), seconds)


def default_jobs() -> int:
    """Every core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def summary_lines(result: Result) -> list[str]:
    """The terminal table: rating with its 95 % interval, wins and win rate, per-seat win rates."""
    head = f"{'level':<8} {'rating (95 %)':>20} {'games':>6} {'wins':>6} {'win rate (95 %)':>22}  by seat"
    lines = [head, "-" * len(head)]
    for s in result.standings:
        data: Any = s.to_json()
        rating = f"{s.mu:6.2f} [{data['mu_95'][0]:.1f}, {data['mu_95'][1]:.1f}]"
        rate_text = f"{100 * data['win_rate']:5.1f} % [{100 * data['win_rate_95'][0]:.1f}, {100 * data['win_rate_95'][1]:.1f}]"
        seats = " ".join("  -  " if r is None else f"{100 * r:4.0f}%" for r in data["seat_win_rates"])
        lines.append(f"{s.level:<8} {rating:>20} {s.games:>6} {s.wins:>6} {rate_text:>22}  {seats}")
    return lines
