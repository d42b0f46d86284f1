"""Games the bots really played, kept in a real SQLite store the way the server keeps them:
a finished Throw Throw Burrito and Exploding Kittens game, one still being played and one
abandoned."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.protocol import Event
from cardroom.protocol.record import Record
from cardroom.store import SeatRecord, Store

NAMES = ["Anna", "Bruno", "Chiara", "Dario"]


@dataclass(frozen=True)
class Played:
    """A game as it ended: its record, its last table, how long it ran, and every batch of
    events the table said while it was played (the truth a replay is compared with)."""

    id: str
    record: Record
    table: Any
    end_at: int
    batches: list[tuple[int, list[Event]]]


def play(game_name: str, players: int, seed: int, game_id: str, limit_ms: int | None = None) -> Played:
    game = find_game(game_name)
    table = game.new_table(players, {}, seed)
    bots = {i: make_bot(game_name, i, "normal", seed * 10 + i) for i in range(players)}
    batches: list[tuple[int, list[Event]]] = []
    driver = VirtualDriver(table, bots, game.action_json, lambda at, events: batches.append((at, events)))
    run = driver.run(limit_ms) if limit_ms is not None else driver.run()
    assert table.over == (limit_ms is None)
    record = Record(game_name, players, {}, seed, moves=list(run.moves))
    return Played(game_id, record, table, table.now, batches)


def places(table: Any) -> list[int]:
    winner = table.winner
    others = iter(range(2, table.players + 1))
    return [1 if seat == winner else next(others) for seat in range(table.players)]


@dataclass(frozen=True)
class Stored:
    url: str
    path: Path
    burrito: Played
    kittens: Played
    playing: Played
    abandoned: Played


async def _store(url: str, games: list[tuple[Played, str]]) -> None:
    store = await Store.open(url)
    try:
        for played, state in games:
            n = played.record.players
            seats = [SeatRecord(NAMES[0], player_id="p-anna")] + [
                SeatRecord(NAMES[i], bot_level="normal") for i in range(1, n)
            ]
            store.records.start_game(played.id, "room1", played.record, seats)
            for seq, move in enumerate(played.record.moves):
                store.journal.move(played.id, seq, move.at, move.player, move.action)
            if state == "over":
                store.records.finish_game(played.id, played.end_at, played.table.winner, places(played.table))
            elif state == "abandoned":
                store.records.abandon_game(played.id, played.end_at)
        await store.journal.flush()
    finally:
        await store.close()


LIVE_SEED = 0x9F3B_6C21_D4E8_0A57_1B92_E6F4_3C08_7D15_A2C9_5E31_F870_4B6D_19A3_C5E7_2F84_60DB
"""256 bits, as `cardroom.server.room` draws: records, replays and exports keep it whole."""


@pytest.fixture(scope="session")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Stored:
    """One database for every replay test (the replays only read it)."""
    path = tmp_path_factory.mktemp("replay") / "x.sqlite3"
    url = f"sqlite:///{path}"
    burrito = play("burrito", 4, 11, "b1")
    kittens = play("kittens", 3, LIVE_SEED, "k1")  # a seed as big as a live table's
    playing = play("burrito", 3, 2, "live1", limit_ms=20_000)
    abandoned = play("kittens", 2, 3, "gone1", limit_ms=5_000)
    asyncio.run(
        _store(url, [(burrito, "over"), (kittens, "over"), (playing, "playing"), (abandoned, "abandoned")])
    )
    return Stored(url, path, burrito, kittens, playing, abandoned)
