"""A table's owner paused past its lease (issue 22): when it wakes up, it must neither show the
game it still holds to anyone nor end and rate it. Real `cardroom serve` nodes on this
session's Redis and PostgreSQL; the owner is paused with SIGSTOP for 15 s."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from typing import Any

import redis
from sqlalchemy import select

from cardroom.cluster.redis_bus import PREFIX
from cardroom.store import Store
from cardroom.store.schema import rating_history
from tests.cluster.test_nodes import (
    SLOW_KITTENS,
    _game_of,
    _health_is,
    _log,
    cluster_env,
    game_at,
    nodes,
    until,
)
from tests.server.live import Client
from tests.server.play import finished_game
from tests.server.test_api import call

__all__ = ["cluster_env"]  # the fixture, shared with test_nodes

PAUSE_S = 15


async def _ratings_of(db: str, game_id: str) -> list[tuple[str, int]]:
    store = await Store.open(db)
    try:
        async with store.engine.connect() as conn:
            rows = await conn.execute(
                select(rating_history.c.subject, rating_history.c.at_ms).where(
                    rating_history.c.game_id == game_id
                )
            )
            return [(r.subject, r.at_ms) for r in rows.all()]
    finally:
        await store.close()


def _versions_and_ends(inbox: list[dict[str, Any]], table: str) -> tuple[list[int], int]:
    """The versions of the table's messages as they came, and how many game ends were among them."""
    versions = [m["v"] for m in inbox if m.get("table") == table and m.get("type") in ("table", "events")]
    ends = sum(
        1
        for m in inbox
        if m.get("type") == "events" and m.get("table") == table
        for event in m["events"]
        if event.get("event") == "game_over"
    )
    return versions, ends


def test_a_paused_owner_wakes_up_to_show_and_rate_nothing_of_the_game_another_node_took_over(
    cluster_env: dict[str, str],
) -> None:
    """Node A owns a kittens table of bots (its player left it to a stand-in); Eve, connected
    to node B, watches it through the relay. A is paused 15 s: B takes the table over from the
    log, Eve watches it there, and it ends. When A wakes up, still holding the game in memory
    with 15 s of play to catch up on, Eve hears nothing more of it from A: one end of the game,
    every version after B's resync newer than the one before. The game is rated once, as its
    record says it is over: each rated bot level has played one game."""
    db = cluster_env["CARDROOM_DB"]
    env = {**cluster_env, "CARDROOM_CLOCK_RATE": "4"}  # the whole game within the pause
    shared = redis.Redis.from_url(cluster_env["CARDROOM_REDIS"], decode_responses=True)
    with nodes(env, 2) as (a, b):
        node_b = b.health()["cluster"]["node"]

        async def leased_to_b(table: str) -> bool:
            return str(shared.get(f"{PREFIX}lease:{table}") or "").startswith(f"{node_b}:")

        async def go() -> tuple[str, str, list[dict[str, Any]], float]:
            table, game_id = await _game_of(a, db)
            eve = await Client.connect(b.ws_url, "Eve")
            await eve.send({"type": "spectate", "table": table})
            await eve.expect("table", table=table)
            await until(lambda: _moves(db, game_id, 3), 20, "node A's bots play")
            os.kill(a.process.pid, signal.SIGSTOP)
            paused = time.monotonic()
            try:
                took = await until(lambda: leased_to_b(table), PAUSE_S - 1, "node B takes the lease")
                await asyncio.sleep(max(0.0, paused + PAUSE_S - time.monotonic()))
            finally:
                os.kill(a.process.pid, signal.SIGCONT)  # awake, still believing it owns the table
            # (node B resumes the game once its log is fenced: a transaction node A had open
            # when it was paused holds that back until A is awake again)
            await until(lambda: _health_is(b, "tables", 1), 20, "node B plays the table")
            await until(lambda: _health_is(a, "tables", 0), 10, "node A lets the table go")
            with contextlib.suppress(TimeoutError):
                while True:  # everything Eve is sent from now on
                    await eve.recv(timeout=3)
            await eve.close()
            return table, game_id, eve.inbox, took

        table, game_id, inbox, took = asyncio.run(go())
        record = asyncio.run(finished_game(db, game_id, within=60))
        rated = asyncio.run(_ratings_of(db, game_id))
        _, board = call(b, "GET", "/api/leaderboard/kittens")
    print(f"node B took the lease {took:.1f} s into the pause")
    versions, ends = _versions_and_ends(inbox, table)
    assert rated and len({subject for subject, _ in rated}) == len(rated)  # each rated once...
    assert record.finished_ms is not None and all(
        at >= record.finished_ms for _, at in rated
    )  # ...as it ended
    assert [p["played"] for p in board["players"]] == [1] * len(board["players"])
    resync = next(i for i in range(1, len(versions)) if versions[i] < versions[i - 1])  # B's, from 1
    assert versions[resync:] == sorted(versions[resync:])  # nothing from A after it
    assert record.state == "over" and ends == 1  # one game, one end, as its record has it


async def _moves(db: str, game_id: str, at_least: int) -> bool:
    return len(await _log(db, game_id)) >= at_least


async def _answer(client: Client, ref: int, timeout: float = 20) -> dict[str, Any]:
    """The server's answer to the action numbered `ref` (an ack, a refusal or an error)."""
    async with asyncio.timeout(timeout):
        while True:
            message = await client.recv(timeout)
            if message.get("ref") == ref:
                return message


def test_a_lone_node_paused_past_its_lease_goes_on_with_its_table_and_answers_what_came_meanwhile(
    cluster_env: dict[str, str],
) -> None:
    """One node of a cluster paused past its lease, with no other node to take its table: awake,
    it asks Redis before its table does anything, finds the lease free, takes it again (a newer
    fencing number) and the game goes on; an action its player sent during the pause is
    answered, not lost."""
    db = cluster_env["CARDROOM_DB"]
    with nodes(cluster_env, 1, log_level="info") as (a,):

        async def go() -> tuple[dict[str, Any], int, list[tuple[int, int]]]:
            anna = await Client.connect(a.ws_url, "Anna")
            await anna.send(
                {"type": "create_table", "game": "kittens", "seats": 3, "bots": 2, "options": SLOW_KITTENS}
            )
            table = (await anna.expect("table"))["table"]
            await anna.send({"type": "start", "table": table})
            await anna.expect("events", table=table)
            game_id = await game_at(db, table)
            os.kill(a.process.pid, signal.SIGSTOP)
            try:
                before = len(await _log(db, game_id))
                await asyncio.sleep(4)  # past the lease (2.5 s)
                await anna.send({"type": "act", "table": table, "action": {"do": "draw"}, "ref": 1})
            finally:
                os.kill(a.process.pid, signal.SIGCONT)
            answered = await _answer(anna, 1)
            # Three more moves: a few seconds on a quiet machine; a full test run can slow the
            # node's catching up on its clock (load 16: over 20 s once).
            await until(lambda: _moves(db, game_id, before + 3), 45, "the game goes on")
            await anna.close()
            return answered, before, await _log(db, game_id)

        answered, before, log = asyncio.run(go())
        assert a.health()["tables"] == 1
    assert answered["type"] in ("ack", "rejected")  # answered once the node knew the table was its own
    assert [seq for seq, _ in log] == list(range(len(log))) and len(log) >= before + 3  # one log, on
