"""Issue 12, 6: what one client may cost the server is bounded (`cardroom/server/limits.py`).

Each test runs a real server with a limit lowered through its `CARDROOM_<NAME>` setting and
meets it the way a script would; the refusal is an `error` with a stable code, and the
connection (or, for connections, everyone else's) goes on.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import websockets

from cardroom.clients.botclient import NetBot
from cardroom.protocol import JSON
from cardroom.server import closes
from cardroom.server.wire import PROTOCOL_VERSION, messages
from tests.databases import empty_postgres
from tests.server.live import Client, LiveServer, run_server


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _create(client: Client, game: str = "kittens") -> dict[str, Any]:
    await client.send({"type": "create_table", "game": game, "seats": 3})
    while True:
        message = await client.recv()
        if message["type"] in ("table", "error"):
            return message


def test_a_player_has_a_bounded_number_of_open_tables() -> None:
    async def scenario(server: LiveServer) -> None:
        me = await Client.connect(server.ws_url, "Builder")
        first, second = await _create(me), await _create(me)
        assert first["type"] == second["type"] == "table"
        third = await _create(me)
        assert third["type"] == "error" and third["code"] == "too_many_tables"
        assert "2 open tables" in third["message"]
        # Leaving one (it closes, empty) makes room for another.
        await me.send({"type": "leave", "table": first["table"]})
        await me.expect("tables")
        assert (await _create(me))["type"] == "table"
        await me.close()

    with run_server({"CARDROOM_TABLES_PER_PLAYER": "2"}) as server:
        _run(scenario(server))


def test_an_address_has_a_bounded_number_of_open_tables() -> None:
    """34 connections from one address made 9,996 tables in 10 s: new nicknames do not help."""

    async def scenario(server: LiveServer) -> None:
        made = refused = 0
        clients = []
        for i in range(4):
            client = await Client.connect(server.ws_url, f"Script{i}")
            clients.append(client)
            for _try in range(2):
                answer = await _create(client)
                if answer["type"] == "table":
                    made += 1
                else:
                    assert answer["code"] == "too_many_tables"
                    refused += 1
        assert (made, refused) == (5, 3)
        lister = await Client.connect(server.ws_url, "Reader")
        await lister.send({"type": "list_tables"})
        assert (await lister.expect("tables"))["total"] == 5
        for client in [*clients, lister]:
            await client.close()

    with run_server({"CARDROOM_TABLES_PER_ADDRESS": "5"}) as server:
        _run(scenario(server))


def test_the_table_list_comes_in_pages_joinable_tables_first() -> None:
    async def scenario(server: LiveServer) -> None:
        hosts = [await Client.connect(server.ws_url, f"Host{i}") for i in range(3)]
        ids = []
        for host in hosts:
            for _i in range(2):
                ids.append((await _create(host))["table"])
        # One table starts (no free seat left): it lists after every waiting one.
        await hosts[0].send({"type": "start", "table": ids[0]})
        await hosts[0].expect("table", table=ids[0], state="playing")
        newcomer = await Client.connect(server.ws_url, "Newcomer")
        first = await newcomer.expect("tables")
        assert (first["page"], first["pages"], first["total"], len(first["tables"])) == (0, 3, 6, 2)
        seen = [t["id"] for t in first["tables"]]
        for page in (1, 2, 3):
            await newcomer.send({"type": "list_tables", "page": page})
            listing = await newcomer.expect("tables")
            assert listing["page"] == page
            seen += [t["id"] for t in listing["tables"]]
        assert sorted(seen) == sorted(ids), "every table once, the page past the end empty"
        assert seen[-1] == ids[0], "the started table comes after the joinable ones"
        assert seen[0] == ids[-1], "the newest joinable table first"
        await newcomer.send({"type": "list_tables", "page": -1})
        assert (await newcomer.expect("error"))["code"] == "bad_message"
        for client in [*hosts, newcomer]:
            await client.close()

    with run_server({"CARDROOM_TABLE_PAGE": "2"}) as server:
        _run(scenario(server))


def test_list_tables_is_rate_limited_and_the_connection_stays(server: LiveServer) -> None:
    """`list_tables` 20 times a second stalled a game for 2.2 s: now a burst, then one a second."""

    async def scenario() -> None:
        reader = await Client.connect(server.ws_url, "Lister")
        for _i in range(12):
            await reader.send({"type": "list_tables"})
        answers: list[str] = []
        while len(answers) < 12:
            message = await reader.recv()
            if message["type"] == "tables":
                answers.append("tables")
            elif message["type"] == "error":
                assert message["code"] == "rate_limited"
                answers.append("limited")
        assert 5 <= answers.count("tables") <= 7, answers
        await asyncio.sleep(1.1)
        await reader.send({"type": "list_tables"})
        await reader.expect("tables")
        await reader.close()

    _run(scenario())


def test_an_address_has_a_bounded_number_of_connections() -> None:
    async def scenario(server: LiveServer) -> None:
        clients = [await Client.connect(server.ws_url, f"Conn{i}") for i in range(3)]
        async with websockets.connect(server.ws_url) as extra:
            (error,) = messages(await asyncio.wait_for(extra.recv(), 5))
            assert error["code"] == "too_many_connections"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(extra.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == closes.TOO_MANY_CONNECTIONS
        # The others go on; when one leaves, a new connection is welcome.
        await clients[0].send({"type": "ping", "id": 3})
        await clients[0].expect("pong", id=3)
        await clients[2].close()
        for _wait in range(50):
            try:
                clients[2] = await Client.connect(server.ws_url, "Conn2again")
                break
            except (TimeoutError, websockets.ConnectionClosed):
                await asyncio.sleep(0.1)
        assert clients[2].player is not None
        for client in clients:
            await client.close()

    with run_server({"CARDROOM_CONNECTIONS_PER_ADDRESS": "3"}) as server:
        _run(scenario(server))


HELLOS = 1500


def test_a_crowd_of_hellos_on_postgresql_does_not_stall_a_game() -> None:
    """1,500 hellos exhausted the database pool (30 s timeouts; here acknowledgements took 10 s
    before the fix): hellos now ask the database a few at a time, so the game's writes, and its
    acknowledgements, keep their pace; a hello that waited too long is told to try again."""

    async def scenario(server: LiveServer) -> tuple[float, int, list[str], float]:
        me = await Client.connect(server.ws_url, "Player")
        table = (await me.create_table("kittens", 2, bots=1, options={"turn_ms": 600_000}))["table"]
        await me.send({"type": "start", "table": table})
        await me.expect("table", state="playing")

        async def hello(i: int) -> str:
            try:
                async with websockets.connect(server.ws_url, open_timeout=60) as ws:
                    await ws.send(
                        '{"type":"hello","protocol":%d,"name":"Crowd%d"}' % (PROTOCOL_VERSION, i)  # noqa: UP031
                    )
                    first = messages(await asyncio.wait_for(ws.recv(), 60))[0]
                    return str(first.get("code") or first["type"])
            except websockets.exceptions.InvalidStatus as refused:
                # On a busy machine this one client's 1,500 handshakes are not all sent within
                # the server's 10 s for a request (`Limits.request_s`): those are told 408.
                if refused.response.status_code == 408:
                    return "too slow"
                raise

        started = time.monotonic()
        crowd = [asyncio.create_task(hello(i)) for i in range(HELLOS)]
        worst = 0.0
        ref = 0
        view = (await me.expect("events", table=table))["view"]
        while not all(task.done() for task in crowd):
            if view["turn"] == view["seat"]:
                ref += 1
                sent = time.monotonic()
                await me.send({"type": "act", "table": table, "action": {"do": "draw"}, "ref": ref})
                while True:
                    message = await me.recv(30)
                    if message.get("ref") == ref:
                        break
                    if message["type"] == "events":
                        view = message["view"]
                if message["type"] == "ack":
                    worst = max(worst, time.monotonic() - sent)
            message = await me.recv(30)
            if message["type"] == "events":
                view = message["view"]
            if view.get("over") or message.get("state") == "over":
                break
        answers = await asyncio.gather(*crowd)
        crowd_s = time.monotonic() - started
        await me.close()
        return worst, ref, answers, crowd_s

    env = {
        "CARDROOM_DB": empty_postgres(),
        "CARDROOM_CONNECTIONS_PER_ADDRESS": str(HELLOS + 10),
    }
    with run_server(env) as server:
        worst, acted, answers, crowd_s = _run(scenario(server))
    # Each hello has its answer: welcome, or (past its turn's wait) "busy: try again", or a
    # handshake too slow to arrive whole closed with a 408.
    assert set(answers) <= {"welcome", "busy", "too slow"}, set(answers)
    assert answers.count("welcome") > 0
    assert acted >= 1
    print(f"worst acknowledgement {worst:.2f} s while the crowd took {crowd_s:.1f} s")
    # Stalled, the game's write waits behind the whole crowd: its acknowledgement takes about as
    # long as the crowd does. Unstalled it takes a fraction of a second on a quiet machine; on a
    # busy one (other test workers) everything is slower, the crowd too (a CI-like run: 2.1 s
    # for a crowd of 7.1 s): half the crowd's time still tells the two apart.
    assert worst < max(3.0, crowd_s / 2), f"the table answered after {worst:.1f} s"


def test_bots_told_the_server_is_busy_say_hello_again_and_every_one_gets_in() -> None:
    """A crowd of hellos at once, one database question at a time and 10 ms to wait for its
    turn: many are told busy ("send hello again", docs/protocol.md). The bot client (NetBot:
    the bots of bench.load, the soak, the tests) sends it again, and every one is welcome; a
    bot that did not was closed 10 s later ("no hello came in time") and ended a load run."""

    async def scenario(server: LiveServer) -> tuple[int, list[NetBot]]:
        told: list[JSON] = []

        def seen(message: JSON, _raw: str) -> None:
            if message.get("type") == "error" and message.get("code") == "busy":
                told.append(message)

        bots = [
            NetBot(server.ws_url, f"Crowd{i}", "burrito", "easy", seed=i, on_message=seen) for i in range(40)
        ]

        async def enter(bot: NetBot) -> None:
            await bot.connect()
            while not bot.welcomed:
                for message in messages(await asyncio.wait_for(bot.ws.recv(), 30)):
                    await bot.handle(message, "")

        await asyncio.gather(*(enter(bot) for bot in bots))
        for bot in bots:
            await bot.ws.close()
        return len(told), bots

    env = {
        "CARDROOM_HELLO_LOOKUPS": "1",
        "CARDROOM_HELLO_WAIT_S": "0.01",
        "CARDROOM_CONNECTIONS_PER_ADDRESS": "60",
    }
    with run_server(env) as server:
        told, bots = _run(scenario(server))
    assert told > 0, "no hello was told busy: the crowd tested nothing"
    assert all(bot.welcomed for bot in bots)
