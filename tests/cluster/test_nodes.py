"""Nodes of a cluster (issue 15): real `cardroom serve` processes on loopback sharing one Redis
and one PostgreSQL (this session's throwaway servers, tests/services.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
import redis
import redis.asyncio
from sqlalchemy import select

from cardroom.clients.botclient import NetBot
from cardroom.cluster.redis_bus import PREFIX
from cardroom.games import find_game
from cardroom.protocol.record import replay
from cardroom.store import Store
from cardroom.store.schema import games, moves
from tests import services
from tests.databases import empty_postgres
from tests.server.live import Client, LiveServer, run_server
from tests.server.play import Witness, create_and_start, play_then_kill, stored_game
from tests.services import redis_url

SLOW_KITTENS = {
    "nope_window_ms": 400,
    "turn_ms": 5000,
    "defuse_ms": 3000,
    "choose_ms": 2000,
    "bot_think_ms": 300,
    "seat_grace_ms": 0,  # a player who leaves has a stand-in at once: only bots write the log
}


@pytest.fixture
def cluster_env() -> dict[str, str]:
    """What a node needs: the shared PostgreSQL (emptied) and the shared Redis (flushed)."""
    url = redis_url()
    redis.Redis.from_url(url).flushdb()
    return {"CARDROOM_DB": empty_postgres(), "CARDROOM_REDIS": url}


@contextlib.contextmanager
def nodes(env: dict[str, str], n: int, log_level: str = "warning") -> Iterator[list[LiveServer]]:
    """`n` real nodes on `env`; when the test in them fails, each node's log (its end) is
    printed, which pytest shows beside the failure."""
    servers: list[LiveServer] = []
    try:
        with contextlib.ExitStack() as stack:
            servers = [stack.enter_context(run_server(env, log_level=log_level)) for _ in range(n)]
            try:
                yield servers
            except BaseException:
                _tell_tables(servers)
                raise
    except BaseException:
        for i, server in enumerate(servers):
            print(f"--- node {i} ({server.url}): the end of its log ---\n{server.log[-12_000:]}")
        raise


def _tell_tables(servers: list[LiveServer]) -> None:
    """Each node still running logs what its tables wait for (`kill -USR1`), for the failure."""
    for server in servers:
        if server.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(server.process.pid, signal.SIGCONT)
                os.kill(server.process.pid, signal.SIGUSR1)
    time.sleep(0.5)


def wait_for(check: Any, timeout: float, what: str) -> float:
    """Poll `check()` until true; the seconds it took."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < timeout, f"{what}: not within {timeout} s"
        time.sleep(0.05)
    return time.monotonic() - start


def test_one_lobby_across_nodes_tables_and_chat(cluster_env: dict[str, str]) -> None:
    with nodes(cluster_env, 3) as (a, b, c):
        assert sorted(a.health()["cluster"]["nodes"]) == sorted(
            n.health()["cluster"]["node"] for n in (a, b, c)
        )

        async def go() -> None:
            anna = await Client.connect(a.ws_url, "Anna")
            bo = await Client.connect(b.ws_url, "Bo")
            await anna.send({"type": "create_table", "game": "kittens", "seats": 3, "bots": 1, "options": {}})
            table = (await anna.expect("table"))["table"]
            update = await bo.expect("table_update")  # Bo, on another node, sees it appear
            assert update["table"]["id"] == table and update["table"]["game"] == "kittens"
            carla = await Client.connect(c.ws_url, "Carla")  # arrives later, on a third node
            listed = await carla.expect("tables")
            assert [t["id"] for t in listed["tables"]] == [table]
            await carla.send({"type": "chat", "text": "who wants a game?"})
            for someone in (anna, bo, carla):
                line = await someone.expect("chat", text="who wants a game?")
                assert line["from"] == "Carla"
            dora = await Client.connect(a.ws_url, "Dora")  # the chat is kept for who comes later
            kept = await dora.expect("lobby_chat")
            assert [line["text"] for line in kept["chat"]] == ["who wants a game?"]
            # Dora's node tells the others she is here a moment after it greets her.
            await until(lambda: _online_is(b, 4), 5, "node B counts the four players online")
            await anna.send({"type": "leave", "table": table})
            closed = await bo.expect("table_closed")
            assert closed["table"] == table
            for someone in (anna, bo, carla, dora):
                await someone.close()

        asyncio.run(go())


def test_a_node_without_redis_is_the_whole_server_on_its_own(tmp_path: Any) -> None:
    """No --redis: one process on SQLite as before; no cluster in its health, no Redis needed."""
    with run_server({"CARDROOM_DATA": str(tmp_path)}) as one, run_server() as other:
        assert "cluster" not in one.health()

        async def go() -> list[Any]:
            anna = await Client.connect(one.ws_url, "Anna")
            await anna.send({"type": "create_table", "game": "burrito", "seats": 3, "bots": 1, "options": {}})
            await anna.expect("table")
            bo = await Client.connect(other.ws_url, "Bo")
            tables = (await bo.expect("tables"))["tables"]
            await anna.close()
            await bo.close()
            return list(tables)

        assert asyncio.run(go()) == []  # two plain servers share nothing
    assert (tmp_path / "cardroom.sqlite3").exists()


async def _log(db: str, game_id: str) -> list[tuple[int, int]]:
    store = await Store.open(db)
    try:
        async with store.engine.connect() as conn:
            rows = await conn.execute(
                select(moves.c.seq, moves.c.fence).where(moves.c.game_id == game_id).order_by(moves.c.seq)
            )
            return [(r.seq, r.fence) for r in rows.all()]
    finally:
        await store.close()


async def _game_of(server: LiveServer, db: str) -> tuple[str, str]:
    """Start a kittens table of three seats (two bots) on `server`; its player then leaves the
    game to a stand-in bot, so that only the node's own bots write the log. Table and game ids."""
    anna = NetBot(server.ws_url, "Anna", "kittens", "normal", seed=1)
    await create_and_start(anna, "kittens", seats=3, bots=2, options=SLOW_KITTENS)
    await anna.send({"type": "start", "table": anna.table})
    try:
        assert anna.table is not None
        game_id = await game_at(db, anna.table)
    finally:
        await anna.close()
    return anna.table, game_id


async def game_at(db: str, table: str) -> str:
    """The id of the game started at `table`, once its row is in the store: the start's events
    come before the journal has written it (a test that read it at once read none, under load,
    and then waited for moves of a game "None")."""
    store = await Store.open(db)
    try:
        async with asyncio.timeout(10):
            while True:
                async with store.engine.connect() as conn:
                    found = await conn.execute(select(games.c.id).where(games.c.room_id == table))
                    game_id = found.scalar()
                if game_id:
                    return str(game_id)
                await asyncio.sleep(0.05)
    finally:
        await store.close()


def test_a_paused_owner_loses_its_table_to_another_node_and_cannot_write_to_its_log(
    cluster_env: dict[str, str],
) -> None:
    """A node paused past its lease: another node takes the table over from the log; the old
    one, back, cannot add to the log (fencing), lets the table go and tells who watched it there."""
    db = cluster_env["CARDROOM_DB"]
    with nodes(cluster_env, 2) as (a, b):

        async def go() -> tuple[str, float, dict[str, Any]]:
            table, game_id = await _game_of(a, db)
            eve = await Client.connect(a.ws_url, "Eve")
            await eve.send({"type": "spectate", "table": table})
            await eve.expect("table", table=table)
            await until(lambda: _moves_by(db, game_id, 1), 20, "the first node's bots play")
            os.kill(a.process.pid, signal.SIGSTOP)  # a long pause: its lease runs out
            try:
                took = await until(lambda: _health_is(b, "tables", 1), 20, "another node takes the table")
                await until(lambda: _moves_by(db, game_id, 2), 20, "the new owner plays")
            finally:
                os.kill(a.process.pid, signal.SIGCONT)  # back, still believing it owns the table
            closed = await eve.expect("table_closed", table=table)
            await until(lambda: _health_is(a, "tables", 0), 10, "the old owner lets the table go")
            await eve.close()
            await asyncio.sleep(1)  # the new owner plays on
            return game_id, took, closed

        game_id, took, closed = asyncio.run(go())
        log = asyncio.run(_log(db, game_id))
        record = asyncio.run(stored_game(db, game_id)).record
    print(f"takeover after the pause began: {took:.1f} s")
    assert took <= 8  # the lease (4 s) and one look for orphans (1 s), with room for a busy machine
    assert closed  # Eve, watching at the old node, is sent back to the lobby
    assert [seq for seq, _ in log] == list(range(len(log)))  # one log, no gap, no fork
    fences = [f for _, f in log]
    assert fences == sorted(fences) and fences[0] == 1 and fences[-1] == 2
    replay(find_game("kittens"), record)  # and it replays: both owners' moves are one game
    assert "lease" in a.log or "refused" in a.log


def test_a_table_another_node_never_heard_of_is_taken_over_as_soon_as_its_owner_dies(
    cluster_env: dict[str, str],
) -> None:
    """A node takes a dead node's tables at once from what its lobby lists; a table it never
    heard of (a message missed: here its entry is gone from the directory before the node
    starts) is found in the store when the owner is seen dead, not half a minute later at the
    scan of every open table (a takeover seen 20 s late in a clean run, cc36d)."""
    db = cluster_env["CARDROOM_DB"]
    with nodes(cluster_env, 1) as (a,):
        table, game_id = asyncio.run(_game_of(a, db))
        directory = redis.Redis.from_url(cluster_env["CARDROOM_REDIS"])

        async def unheard_then_paused(b: LiveServer) -> bool:
            """The owner paused, if `b` does not list the table (else False, the owner going on:
            it told the others of the table again, as any change of its seats does)."""
            client = await Client.connect(b.ws_url, "Vic")
            try:
                os.kill(a.process.pid, signal.SIGSTOP)  # it tells nobody anything from now
                await client.send({"type": "list_tables"})
                listed = [t["id"] for t in (await client.expect("tables"))["tables"]]
            finally:
                await client.close()
            if table in listed:
                os.kill(a.process.pid, signal.SIGCONT)
            return table not in listed

        async def taken(b: LiveServer) -> float:
            try:
                took = await until(lambda: _health_is(b, "tables", 1), 20, "another node takes the table")
                await until(lambda: _moves_by(db, game_id, 2), 20, "the new owner plays")
            finally:
                os.kill(a.process.pid, signal.SIGCONT)
            return took

        for _attempt in range(3):
            directory.hdel(f"{PREFIX}tables", table)
            with nodes(cluster_env, 1) as (b,):
                if asyncio.run(unheard_then_paused(b)):
                    took = asyncio.run(taken(b))
                    break
        else:
            raise AssertionError("the first node told the second of its table three times over")
        assert "tables in the store not listed here are tried" in b.log  # (its log, once stopped)
    print(f"takeover after the pause began: {took:.1f} s")
    assert took <= 8  # the node seen dead 3 s after its last beat, and its lease long run out


def test_a_table_is_let_go_only_once_its_row_is_gone_and_no_other_node_reopens_it(
    cluster_env: dict[str, str],
) -> None:
    """A node told that a table closed looks whether its row is still in the store (a draining
    node lets its tables go so), and takes over a row it finds. So the closing node tells the
    others, and frees the lease, only once the row is gone. Before, a node that read the row
    first took the closed table over and wrote it back, and the nodes reopened it in turn (a
    load run's next part found its players' names taken). Here every table's close, as the
    other nodes hear it on the bus, finds its row gone, and no node holds a table afterwards."""
    db = cluster_env["CARDROOM_DB"]
    many = {"CARDROOM_TABLES_PER_ADDRESS": "100", "CARDROOM_CONNECTIONS_PER_ADDRESS": "100"}
    with nodes({**cluster_env, **many}, 2) as (a, b):

        async def go() -> list[str]:
            hosts = [await Client.connect(a.ws_url, f"Host{i}") for i in range(40)]
            tables = []
            for host in hosts:
                await host.send({"type": "create_table", "game": "kittens", "seats": 3, "bots": 0})
                tables.append((await host.expect("table"))["table"])
            await until(lambda: _listed(b, len(tables)), 20, "the other node lists the tables")
            bus = redis.asyncio.Redis.from_url(cluster_env["CARDROOM_REDIS"])
            heard = bus.pubsub()
            await heard.subscribe(f"{PREFIX}lobby")
            store = await Store.open(db)
            still_there = []
            try:
                await asyncio.gather(
                    *(h.send({"type": "leave", "table": t}) for h, t in zip(hosts, tables, strict=True))
                )
                closed: set[str] = set()
                async with asyncio.timeout(20):
                    while closed != set(tables):
                        raw = await heard.get_message(ignore_subscribe_messages=True, timeout=1)
                        message = json.loads(raw["data"])["message"] if raw else {}
                        if message.get("type") == "table_closed" and message["table"] in tables:
                            closed.add(message["table"])
                            still_there += [r.id for r in await store.records.rooms_by_id([message["table"]])]
            finally:
                await store.close()
                await heard.aclose()
                await bus.aclose()
            await asyncio.sleep(2)  # the other node has looked at each (every half second)
            for host in hosts:
                await host.close()
            return still_there

        still_there = asyncio.run(go())
        held = {"first node": a.health()["tables"], "second node": b.health()["tables"]}
    assert still_there == [], f"{len(still_there)} of 40 closes told before the row was gone"
    assert held == {"first node": 0, "second node": 0}
    assert asyncio.run(_open_rooms(db)) == []


async def _listed(server: LiveServer, count: int) -> bool:
    return bool(server.health()["cluster"]["tables"] == count)


async def _open_rooms(db: str) -> list[str]:
    store = await Store.open(db)
    try:
        return [row.id for row in await store.records.open_rooms()]
    finally:
        await store.close()


async def _moves_by(db: str, game_id: str, fence: int) -> bool:
    return any(f >= fence for _, f in await _log(db, game_id))


async def until(check: Callable[[], Awaitable[bool]], timeout: float, what: str) -> float:
    """Await `check()` until true; the seconds it took."""
    start = time.monotonic()
    while not await check():
        assert time.monotonic() - start < timeout, f"{what}: not within {timeout} s"
        await asyncio.sleep(0.05)
    return time.monotonic() - start


async def holds(servers: list[LiveServer], timeout: float) -> LiveServer:
    """Wait until one of `servers` holds the table (TimeoutError if none does): that node."""
    async with asyncio.timeout(timeout):
        while True:
            owning = [s for s in servers if s.health()["tables"] == 1]
            if owning:
                return owning[0]
            await asyncio.sleep(0.05)


async def _online_is(server: LiveServer, count: int) -> bool:
    return bool(server.health()["cluster"]["players_online"] == count)


async def _health_is(server: LiveServer, key: str, value: Any) -> bool:
    return bool(server.health()[key] == value)


def test_a_killed_nodes_table_goes_on_at_another_node_with_every_acknowledged_action(
    cluster_env: dict[str, str],
) -> None:
    """kill -9 of the node owning a table mid-game: another node takes it over from the log,
    the player comes back through that node with the token of their first connection and has
    their seat again, and every action acknowledged before the kill is in the log."""
    db = cluster_env["CARDROOM_DB"]
    with nodes(cluster_env, 2) as (a, b):

        async def before() -> Witness:
            me = Witness(a.ws_url, "Anna", "kittens", "normal", seed=3)
            await play_then_kill(me, SLOW_KITTENS, acks=2, pid=a.process.pid)
            with contextlib.suppress(Exception):
                await me.close()
            return me

        anna = asyncio.run(before())
        a.process.wait()
        took = wait_for(lambda: b.health()["tables"] == 1, 20, "the other node takes the table over")

        async def back() -> dict[str, Any]:
            client = await Client.connect(b.ws_url, token=anna.token)
            snapshot = await client.expect("table", table=anna.table)
            await client.close()
            return snapshot

        snapshot = asyncio.run(back())
        game_id = anna.acked[0][0]

        record = asyncio.run(stored_game(db, game_id)).record
    print(f"takeover after kill -9: {took:.1f} s")
    assert snapshot["you"] == anna.seat and snapshot["state"] in ("playing", "over")
    for _game, seq, action in anna.acked:
        assert record.moves[seq].player == anna.seat and record.moves[seq].action == action
    replay(find_game("kittens"), record)


def test_redis_restarting_mid_game_stops_no_table_and_the_lobby_is_rebuilt() -> None:
    """Redis stopped (its data gone) and started again mid-game: the table plays on at its node
    all along, no other node takes it, and the lobby every node shows is whole again."""
    first = services.start_redis()  # a Redis of this test's own, to stop and start
    db = empty_postgres()
    env = {"CARDROOM_DB": db, "CARDROOM_REDIS": first.url}
    again: services.Service | None = None
    try:
        with nodes(env, 2) as (a, b):
            _table, game_id = asyncio.run(_game_of(a, db))
            wait_for(lambda: len(asyncio.run(_log(db, game_id))) >= 3, 20, "the bots play")
            first.stop()
            time.sleep(2)
            during = len(asyncio.run(_log(db, game_id)))
            wait_for(lambda: len(asyncio.run(_log(db, game_id))) > during + 2, 20, "play without Redis")
            assert a.health()["cluster"]["unreachable"]
            again = services.start_redis(first.port)
            wait_for(lambda: b.health()["cluster"].get("tables") == 1, 15, "the lobby rebuilt")
            wait_for(lambda: len(asyncio.run(_log(db, game_id))) > during + 6, 20, "play on after Redis")
            assert (a.health()["tables"], b.health()["tables"]) == (1, 0)  # never moved

            async def listed() -> list[Any]:
                bo = await Client.connect(b.ws_url, "Bo")
                tables = (await bo.expect("tables"))["tables"]
                await bo.close()
                return list(tables)

            assert len(asyncio.run(listed())) == 1
            log = asyncio.run(_log(db, game_id))
    finally:
        first.stop()
        if again is not None:
            again.stop()
    assert [seq for seq, _ in log] == list(range(len(log)))
    fences = [f for _, f in log]
    assert fences == sorted(fences) and fences[0] >= 1


def test_lobby_lines_said_while_redis_is_away_reach_every_node_once_it_is_back() -> None:
    """Redis stopped and started again (its data gone): what Anna says in the lobby at node A
    and Bo at node B meanwhile reaches the other once Redis is back, each line once, and a
    player arriving afterwards finds both in the lobby's recent chat."""
    first = services.start_redis()  # a Redis of this test's own, to stop and start
    env = {"CARDROOM_DB": empty_postgres(), "CARDROOM_REDIS": first.url}
    again: services.Service | None = None
    try:
        with nodes(env, 2) as (a, b):

            async def go() -> tuple[Client, Client, list[str]]:
                nonlocal again
                anna = await Client.connect(a.ws_url, "Anna")
                bo = await Client.connect(b.ws_url, "Bo")
                await anna.send({"type": "chat", "text": "hello from A"})
                await bo.expect("chat", text="hello from A")
                first.stop()
                wait_for(lambda: "unreachable" in a.health()["cluster"], 10, "node A sees Redis away")
                wait_for(lambda: "unreachable" in b.health()["cluster"], 10, "node B sees Redis away")
                await anna.send({"type": "chat", "text": "said at A without Redis"})
                await bo.send({"type": "chat", "text": "said at B without Redis"})
                await anna.expect("chat", text="said at A without Redis")  # her own node has it
                again = services.start_redis(first.port)
                await bo.expect("chat", timeout=30, text="said at A without Redis")
                await anna.expect("chat", timeout=30, text="said at B without Redis")
                with contextlib.suppress(TimeoutError):  # anything heard twice arrives meanwhile
                    while True:
                        await anna.recv(timeout=3)
                with contextlib.suppress(TimeoutError):
                    while True:
                        await bo.recv(timeout=1)
                carla = await Client.connect(a.ws_url, "Carla")
                kept = [line["text"] for line in (await carla.expect("lobby_chat"))["chat"]]
                for someone in (anna, bo, carla):
                    await someone.close()
                return anna, bo, kept

            anna, bo, kept = asyncio.run(go())
    finally:
        first.stop()
        if again is not None:
            again.stop()
    for someone in (anna, bo):
        heard = [m["text"] for m in someone.inbox if m["type"] == "chat"]
        assert sorted(heard) == ["hello from A", "said at A without Redis", "said at B without Redis"]
    assert kept[-2:] in (
        ["said at A without Redis", "said at B without Redis"],
        ["said at B without Redis", "said at A without Redis"],
    )


def test_a_node_stopped_with_sigterm_lets_another_node_take_its_table_at_once(
    cluster_env: dict[str, str],
) -> None:
    """SIGTERM: the node's last moves are committed, then its leases are given up, so another
    node takes its tables over without waiting for them to run out."""
    db = cluster_env["CARDROOM_DB"]
    with nodes(cluster_env, 2) as (a, b):
        _table, game_id = asyncio.run(_game_of(a, db))
        wait_for(lambda: len(asyncio.run(_log(db, game_id))) >= 3, 20, "the bots play")
        a.process.terminate()
        a.process.wait(10)
        took = wait_for(lambda: b.health()["tables"] == 1, 10, "the other node takes the table")
        before = len(asyncio.run(_log(db, game_id)))
        wait_for(lambda: len(asyncio.run(_log(db, game_id))) > before, 20, "the game goes on")
        log = asyncio.run(_log(db, game_id))
    print(f"takeover after SIGTERM: {took:.1f} s")
    assert took < 3  # not the lease's 4 s: it was given up
    assert [seq for seq, _ in log] == list(range(len(log)))
    assert [f for _, f in log] == sorted(f for _, f in log)
