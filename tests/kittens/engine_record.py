"""Recorded games that pin what the kittens engine says, so that making it faster changes nothing.

Each recorded game is its deal (hands and deck as the engine holds them), its seed and its moves
as bots played them. Replaying the moves on a fresh table must give, step by step, the same
events (in full and as each seat and a spectator hears them), the same view for every seat and
the same final state: `digest` hashes all of that. The fixture was written by the engine as it
was before the speed work (issue 16); after a deliberate change of what the engine says,
write it again with `python -m tests.kittens.engine_record` and say why in the commit. After a
deliberate change of what a bot chooses, `python -m tests.kittens.engine_record --bots` pins the
bots' new moves beside the recorded ones (`bot_moves`), which stay what the digests replay.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.kittens import GAME, KittensTable
from cardroom.games.kittens.options import Options
from cardroom.games.kittens.state import State
from cardroom.protocol import JSON, Event, Rejected

FIXTURE = Path(__file__).parent / "recorded_games.json.gz"

SETS: tuple[tuple[int, tuple[str, ...], int], ...] = (
    (4, ("random",), 80),
    (2, ("hard",), 40),
    (3, ("random", "easy", "hard"), 30),
    (5, ("normal", "hard", "random", "easy", "hard"), 30),
    (2, ("random", "hard"), 20),
)
"""Player counts, bot levels (one, or one per seat) and how many games of each are recorded."""


def fresh_table(players: int, seed: int, hands: list[list[str]], deck: list[str]) -> KittensTable:
    """A table dealt exactly so, its generator seeded with `seed` (for Shuffle and timeouts)."""
    state = State(players, Options(), random.Random(seed), [list(h) for h in hands], list(deck), [])
    table = KittensTable(state)
    table.deal()
    return table


def _batch(events: list[Event] | Rejected, players: int) -> Any:
    if isinstance(events, Rejected):
        return ["rejected", events.to_json()]
    seats: list[int | None] = [*range(players), None]
    return [[e.full(), [e.for_seat(seat) for seat in seats]] for e in events]


ADDED_SINCE = ("plays", "fives")
"""View fields added after the games were recorded, left out of the digest: they are the legal
moves' card sets (issue 25), proven equal to `legal_moves` by tests/kittens/test_legal.py."""


def _views(table: KittensTable) -> Any:
    views = [table.view(seat) for seat in [*range(table.players), None]]
    return [{k: v for k, v in view.items() if k not in ADDED_SINCE} for view in views]


def digest(game: JSON) -> str:
    """The hash of everything the engine says when `game`'s moves are replayed."""
    players = game["players"]
    table = fresh_table(players, game["seed"], game["hands"], game["deck"])
    h = hashlib.sha256()

    def add(value: Any) -> None:
        h.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())

    for at, player, raw in game["moves"]:
        add(_batch(table.advance(at), players))
        add(_views(table))
        add(_batch(table.apply(player, GAME.parse_action(raw, players), at), players))
        add(_views(table))
    add(_batch(table.advance(game["end"]), players))
    add(_views(table))
    add(table.summary())
    add(GAME.stats(table))
    add(GAME.standings(table) if table.over else None)
    add(repr(table.snapshot()[2:]))  # the options object aside: new options must not matter
    return h.hexdigest()


def levels_per_seat() -> list[tuple[str, ...]]:
    """Each recorded game's bot level per seat, in the order `main` wrote them."""
    out: list[tuple[str, ...]] = []
    for players, levels, count in SETS:
        out += [levels if len(levels) == players else levels * players] * count
    return out


def bot_moves(game: JSON, levels: tuple[str, ...]) -> list[list[Any]]:
    """The moves bots of `levels`, seeded as when `game` was recorded, play on its deal."""
    players, seed = game["players"], game["seed"]
    table = fresh_table(players, seed, game["hands"], game["deck"])
    bots = {s: make_bot("kittens", s, levels[s], seed * 1_000 + s) for s in range(players)}
    run = VirtualDriver(table, bots, GAME.action_json).run()
    return [[m.at, m.player, m.action] for m in run.moves]


def record(players: int, levels: tuple[str, ...], seed: int) -> JSON:
    """One game played by bots on a table dealt from `seed`, with its moves and digest."""
    dealt = GAME.new_table(players, {}, seed)
    hands = [list(h) for h in dealt.s.hands]
    deck = list(dealt.s.deck)
    seats = levels if len(levels) == players else levels * players
    game: JSON = {"players": players, "seed": seed, "hands": hands, "deck": deck}
    table = fresh_table(players, seed, hands, deck)
    bots = {s: make_bot("kittens", s, seats[s], seed * 1_000 + s) for s in range(players)}
    run = VirtualDriver(table, bots, GAME.action_json).run()
    game["moves"] = [[m.at, m.player, m.action] for m in run.moves]
    game["end"] = run.end_ms
    game["digest"] = digest(game)
    return game


def load() -> list[JSON]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        games: list[JSON] = json.load(f)
    return games


def save(games: list[JSON]) -> None:
    data = json.dumps(games, separators=(",", ":")).encode()
    FIXTURE.write_bytes(gzip.compress(data, mtime=0))


def repin_bots() -> None:
    """Keep every game's moves (what the engine digests are of) and pin, as `bot_moves`, the
    moves the bots make now where they differ: after a deliberate change of a bot's choices
    (issue 16: the `random` bot is asked only when it may act, and draws less)."""
    games = load()
    for game, levels in zip(games, levels_per_seat(), strict=True):
        moves = bot_moves(game, levels)
        game.pop("bot_moves", None)
        if moves != game["moves"]:
            game["bot_moves"] = moves
    save(games)
    print(f"{sum('bot_moves' in g for g in games)} of {len(games)} games re-pinned in {FIXTURE}")


def main() -> None:
    if sys.argv[1:] == ["--bots"]:
        repin_bots()
        return
    games = []
    seed = 1
    for players, levels, count in SETS:
        for _ in range(count):
            games.append(record(players, levels, seed))
            seed += 1
    save(games)
    print(f"{len(games)} games written to {FIXTURE}")


if __name__ == "__main__":
    main()
