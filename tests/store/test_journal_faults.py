"""Issue 12: when the database cannot take a write, the journal keeps it and tries again; no
write is skipped, they go in in their order, and its watchers (the tables) hear that it is
failing and then that it writes again. The fault is real on both databases: on SQLite another
connection holds the write lock past the busy timeout; on PostgreSQL the store's connections
are terminated by the server."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

from sqlalchemy import select, text

from cardroom.protocol.record import Record
from cardroom.store import SeatRecord, Store
from cardroom.store.db import create_engine
from cardroom.store.schema import moves


async def _cut_connections(url: str) -> None:
    admin = create_engine(url)
    try:
        async with admin.begin() as conn:
            await conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
    finally:
        await admin.dispose()


def test_writes_the_database_cannot_take_wait_and_go_in_in_order(db_url: str) -> None:
    async def go() -> tuple[list[bool], list[int], list[bool]]:
        store = await Store.open(db_url)
        heard: list[bool] = []
        store.journal.watchers.add(heard.append)
        lock: Any = None
        try:
            store.records.start_game(
                "g", "r", Record("kittens", 2, {}, 5), [SeatRecord("A"), SeatRecord("B")]
            )
            await store.journal.flush()
            if db_url.startswith("sqlite"):
                lock = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
                lock.execute("BEGIN EXCLUSIVE")
            else:
                await _cut_connections(db_url)
            writes = [store.journal.move("g", seq, seq * 10, seq % 2, {"do": "draw"}) for seq in range(5)]
            async with asyncio.timeout(30):
                while not store.journal.failing:
                    await asyncio.sleep(0.05)
            if lock is not None:
                assert not any(w.done() for w in writes), "nothing is acknowledged while it fails"
                lock.rollback()
            async with asyncio.timeout(30):
                await asyncio.gather(*writes)
            async with store.engine.connect() as conn:
                seqs = [r.seq for r in (await conn.execute(select(moves.c.seq).order_by(moves.c.seq))).all()]
            return heard, seqs, [w.exception() is None for w in writes]
        finally:
            if lock is not None:
                lock.close()
            await store.close()

    heard, seqs, ok = asyncio.run(go())
    assert heard == [True, False]
    assert seqs == [0, 1, 2, 3, 4] and all(ok)
