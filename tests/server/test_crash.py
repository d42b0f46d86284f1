"""Issue 5, crash safety: an action the server acknowledged survives the server being killed
(SIGKILL), and on restart with the same database every table goes on where it was and its
players come back to their seats."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import websockets

from cardroom.games import find_game
from cardroom.protocol.record import replay
from cardroom.server.wire import PROTOCOL_VERSION, messages
from cardroom.store import GameRecord
from tests.databases import empty_postgres
from tests.server.live import run_server
from tests.server.play import (
    FAST_BURRITO,
    FAST_KITTENS,
    Witness,
    create_and_start,
    finished_game,
    play_to_the_end,
    play_until,
    stored_game,
)

TABLES = [("kittens", 3, FAST_KITTENS), ("kittens", 2, FAST_KITTENS), ("burrito", 3, FAST_BURRITO)]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_acknowledged_actions_survive_a_kill_and_tables_resume(tmp_path: Path, database: str) -> None:
    if database == "sqlite":
        db = f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
        env = {"CARDROOM_DATA": str(tmp_path)}
    else:
        db = empty_postgres()
        env = {"CARDROOM_DB": db}

    with run_server(env) as server:

        async def before() -> list[Witness]:
            players = []
            for i, (game, seats, options) in enumerate(TABLES):
                me = Witness(server.ws_url, f"P{i}", game, "normal", seed=i)
                await create_and_start(me, game, seats=seats, bots=seats - 1, options=options)
                await me.send({"type": "start", "table": me.table})
                players.append(me)
            await play_until(players, acks=4, limit_s=60)
            os.kill(server.process.pid, signal.SIGKILL)  # in the middle of every game
            await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
            return players

        players = asyncio.run(before())
        server.process.wait()

    # Every acknowledged action is in the log, at the place the acknowledgement named.
    for me in players:
        assert me.acked, f"{me.name} got no acknowledgement before the kill"
        game_id = me.acked[0][0]
        stored = asyncio.run(stored_game(db, game_id))
        assert stored.state == "playing"
        logged = {i: (m.player, m.action) for i, m in enumerate(stored.record.moves)}
        for acked_game, seq, action in me.acked:
            assert acked_game == game_id
            assert logged.get(seq) == (me.seat, action), (me.name, seq)

    # The same database, a new server: every table is there, playing, and each player comes back.
    with run_server(env) as server:
        assert server.health()["tables"] == len(TABLES)

        async def after() -> list[tuple[Witness, dict[str, Any]]]:
            back = []
            for old in players:
                me = Witness(server.ws_url, old.name, old.game.name, "normal", seed=old.seed + 10)
                me.table = old.table
                me.ws = await websockets.connect(server.ws_url, max_size=None)
                await me.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": old.token})
                snapshot: dict[str, Any] = {}
                while not snapshot:
                    for message in messages(await asyncio.wait_for(me.ws.recv(), 10)):
                        await me.handle(message, "")
                        if message.get("type") == "table" and message.get("table") == old.table:
                            snapshot = message
                back.append((me, snapshot))
            await play_until([me for me, _ in back], acks=3, limit_s=60)
            for me, _ in back:
                await me.close()
            return back

        back = asyncio.run(after())

    for (me, snapshot), old in zip(back, players, strict=True):
        assert snapshot["state"] in ("playing", "over") and snapshot["you"] == old.seat
        assert me.acked or me.over, f"{me.name} could not play on after the restart"
        if me.acked:
            game_id = me.acked[0][0]
            assert game_id == old.acked[0][0]  # the same game, not a new one
            assert min(seq for _, seq, _ in me.acked) > max(seq for _, seq, _ in old.acked)
        stored = asyncio.run(stored_game(db, old.acked[0][0]))
        for _, seq, action in old.acked:  # nothing acknowledged was lost or rewritten by the restart
            assert stored.record.moves[seq].action == action
        replay(find_game(stored.record.game), stored.record)  # the log still replays


def test_a_game_its_log_ends_is_over_after_a_kill_that_came_before_its_end_was_written(
    tmp_path: Path,
) -> None:
    """A game's end is written after its last moves, in a transaction of its own: a kill in
    between leaves a log that ends the game and a record still in play. The restart replays the
    log, its timers run out as they did, and it writes what the kill cut: the game over at the
    same moment, its winner and each seat's place."""
    db = f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
    env = {"CARDROOM_DATA": str(tmp_path), "CARDROOM_CLOCK_RATE": "4"}
    with run_server(env) as server:

        async def play() -> tuple[Witness, GameRecord]:
            me = Witness(server.ws_url, "Anna", "kittens", "normal", seed=3, rate=4)
            await create_and_start(me, "kittens", seats=2, bots=1, options=FAST_KITTENS)
            await me.send({"type": "start", "table": me.table})
            await play_to_the_end([me], limit_s=90)
            # The end written (the last moves with it, before it in the journal's order); then
            # the store is put back as a kill just before that transaction leaves it.
            ended = await finished_game(db, me.acked[0][0])
            assert ended.state == "over"
            os.kill(server.process.pid, signal.SIGKILL)
            await me.close()
            return me, ended

        me, ended = asyncio.run(play())
        server.process.wait()
    game_id = ended.id
    with sqlite3.connect(tmp_path / "cardroom.sqlite3") as conn:
        conn.execute(
            "UPDATE games SET state = 'playing', finished_ms = NULL, end_at = NULL, winner = NULL WHERE id = ?",
            (game_id,),
        )
        conn.execute("UPDATE game_seats SET place = NULL WHERE game_id = ?", (game_id,))
        conn.execute("UPDATE rooms SET state = 'playing' WHERE id = ?", (me.table,))
    cut = asyncio.run(stored_game(db, game_id))
    game = find_game("kittens")
    # The log ends the game, its last moves with the timers that ran out after them.
    table = replay(game, cut.record, until=ended.end_at)
    assert cut.state == "playing" and cut.end_at is None and table.over

    with run_server(env):
        again = asyncio.run(finished_game(db, game_id))
    assert again.state == "over" and again.end_at == ended.end_at
    assert again.winner == table.winner is not None
    assert [s.place for s in again.seats] == game.standings(table)
