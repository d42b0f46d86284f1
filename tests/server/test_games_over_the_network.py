"""Issue 4: real websocket clients play whole games on the real server, against bots."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
import websockets

from cardroom.clients.botclient import NetBot
from cardroom.server.wire import PROTOCOL_VERSION, messages
from tests.server.live import LiveServer, run_server
from tests.server.play import FAST_BURRITO, FAST_KITTENS, create_and_start, play_to_the_end

pytestmark = pytest.mark.slow

RATE = 4.0
"""The games here play four times faster (`CARDROOM_CLOCK_RATE`), their players keeping the
same clock: whole games over the network, not their pace, are what is tested."""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server({"CARDROOM_CLOCK_RATE": str(RATE)}) as live:
        yield live


@pytest.mark.parametrize(
    ("game", "options", "limit"),
    [("kittens", FAST_KITTENS, 120), ("burrito", FAST_BURRITO, 150)],
)
def test_a_network_player_plays_a_whole_game_against_bots(
    server: LiveServer, game: str, options: dict[str, int], limit: int
) -> None:
    async def scenario() -> NetBot:
        me = NetBot(
            server.ws_url, f"Ada {game}", game, "hard" if game == "burrito" else "normal", seed=1, rate=RATE
        )
        await create_and_start(me, game, seats=3, bots=2, options=options)
        await me.send({"type": "start", "table": me.table})
        await play_to_the_end([me], limit)
        await me.close()
        return me

    me = asyncio.run(scenario())
    assert me.over
    assert me.winner is not None
    assert me.seat == 0


def test_random_players_over_the_network_and_at_the_table_finish_a_game(server: LiveServer) -> None:
    """Issue 16: the `random` bot reads no events. At the table the server wakes it only when
    its seat may act; over the network it hears every batch like a person's client. Three of
    the first and one of the second play a four-player game to its end."""

    async def scenario() -> NetBot:
        me = NetBot(server.ws_url, "Rae", "kittens", "random", seed=3, rate=RATE)
        await create_and_start(me, "kittens", seats=4, bots=3, options=FAST_KITTENS, level="random")
        await me.send({"type": "start", "table": me.table})
        await play_to_the_end([me], 180)
        await me.close()
        return me

    me = asyncio.run(scenario())
    assert me.over
    assert me.winner is not None


def test_a_reconnect_in_the_middle_of_a_game_resumes_it(server: LiveServer) -> None:
    """A player whose connection drops comes back with their token and gets what they missed."""

    async def scenario() -> tuple[list[dict[str, object]], int, NetBot]:
        me = NetBot(server.ws_url, "Bea", "kittens", "normal", seed=2, rate=RATE)
        # No grace period: a bot stands in at once, and the table goes on without us.
        await create_and_start(me, "kittens", seats=3, bots=2, options={**FAST_KITTENS, "seat_grace_ms": 0})
        await me.send({"type": "start", "table": me.table})
        reader = asyncio.create_task(me.reader())
        actor = asyncio.create_task(me.actor())
        while me.last_v < 5:
            await asyncio.sleep(0.05)
        reader.cancel()
        actor.cancel()
        await asyncio.gather(reader, actor, return_exceptions=True)
        seen_before = me.last_v
        await me.ws.close()
        await asyncio.sleep(1.5)  # the table goes on without us: a bot stands in

        ws = await websockets.connect(server.ws_url)
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": me.token}))
        got: list[dict[str, object]] = []
        while not got or got[-1]["type"] != "table":
            got.extend(messages(await asyncio.wait_for(ws.recv(), 10)))
        assert got[0]["type"] == "welcome"
        assert got[-1]["you"] == 0, "the seat is still ours"
        await ws.send(json.dumps({"type": "resume", "table": me.table, "since": seen_before}))
        while got[-1]["type"] != "resumed":
            got.extend(messages(await asyncio.wait_for(ws.recv(), 10)))
        me.ws = ws
        me.bot = None
        # What came back is the player's too (on a busy machine the game can end among the
        # missed batches), taken as the page takes it: each version once, in order.
        batches = {int(str(m["v"])): m for m in got if m["type"] == "events"}
        for message in [m for m in got if m["type"] != "events"] + [batches[v] for v in sorted(batches)]:
            await me.handle(message, "")
        await play_to_the_end([me], 120)
        await ws.close()
        return got, seen_before, me

    got, seen_before, me = asyncio.run(scenario())
    missed = [m for m in got if m["type"] == "events"]
    assert missed, "the batches played while away were sent"
    versions = [int(str(m["v"])) for m in missed]
    assert min(versions) > seen_before, "nothing already seen is sent again"
    # A batch played between the welcome back and the `resume` comes live, before the answer:
    # the answer, in order, repeats it, so a client taking versions in order loses nothing.
    answer = versions[versions.index(min(versions)) :]
    assert answer == sorted(set(answer)), "the missed batches come once each, in order"
    assert set(versions) <= set(answer)
    assert me.over and me.winner is not None
