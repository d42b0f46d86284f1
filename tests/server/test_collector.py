"""The server gives back the memory of its closed tables and connections (issue 12, `make soak`).

With the server's collector thresholds, a table and a connection that lived through a
collection wait in the old generations, which the automatic collector almost never walks; the
lobby's housekeeping collects them once they close (cardroom/server/collector.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref

import pytest

from cardroom.clients.botclient import NetBot
from cardroom.server import collector
from cardroom.server.collector import Collector
from cardroom.server.lobby import Lobby
from tests.server.live import in_process
from tests.server.play import create_and_start, play_to_the_end

pytestmark = pytest.mark.slow

OPTIONS = {"nope_window_ms": 300, "turn_ms": 4000, "defuse_ms": 2000, "choose_ms": 1500, "bot_think_ms": 0}


def test_a_closed_table_and_its_connection_are_freed_by_the_housekeeping() -> None:
    thresholds = gc.get_threshold()
    gc.set_threshold(*collector.THRESHOLDS)
    try:
        lobby = Lobby()
        # Collect at the first housekeeping pass after a close (every five seconds), not a minute on.
        lobby.collector = Collector(every_s=0)
        room_ref, connection_ref = asyncio.run(game_then_close(lobby))
    finally:
        gc.set_threshold(*thresholds)
    assert room_ref() is None, "the closed table's memory is given back"
    assert connection_ref() is None, "the closed connection's memory is given back"


async def game_then_close(lobby: Lobby) -> tuple[weakref.ref[object], weakref.ref[object]]:
    async with in_process(lobby) as port:
        me = NetBot(f"ws://127.0.0.1:{port}/ws", "Player", "kittens", "normal", 5)
        await create_and_start(me, "kittens", seats=2, bots=1, options=OPTIONS)
        assert me.table is not None
        room = lobby.rooms[me.table]
        (player,) = lobby.online()
        assert player.connection is not None
        room_ref: weakref.ref[object] = weakref.ref(room)
        connection_ref: weakref.ref[object] = weakref.ref(player.connection)
        await me.send({"type": "start", "table": me.table})
        # A game lasts through collections: what it holds is in the oldest generation by its end.
        gc.collect()
        await play_to_the_end([me], 150)
        del room, player
        await me.send({"type": "leave", "table": me.table})
        await me.close()
        # The close reaches the lobby, then housekeeping passes (every five seconds) collect.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(60):
                while room_ref() is not None or connection_ref() is not None:
                    await asyncio.sleep(0.1)
        return room_ref, connection_ref


def test_the_collector_runs_after_a_close_has_settled_and_at_most_once_per_period() -> None:
    now = [1000.0]
    keeper = Collector(every_s=60, clock=lambda: now[0])
    now[0] += 120
    assert not keeper.tick(), "nothing closed: nothing to collect"
    keeper.closed()
    assert not keeper.tick(), "a table just closed: its cancelled tasks still hold it"
    assert keeper.tick(), "the next pass collects it"
    keeper.closed()
    keeper.tick()
    now[0] += 30
    assert not keeper.tick(), "a minute has not passed since the last collection"
    now[0] += 30
    assert keeper.tick()
    assert not keeper.tick(), "nothing closed since"
    assert keeper.collections == 2
