"""The `memory` store (nothing kept after the process: tests, the load run's baseline) behaves as
the file store does while it lives: reads during the journal's commits lose no write."""

from __future__ import annotations

import asyncio

from cardroom.protocol.record import Record
from cardroom.store import SeatRecord, Store


def test_reads_between_the_journals_commits_lose_no_write() -> None:
    async def go() -> tuple[int, int, bool]:
        store = await Store.open("memory")
        try:
            record = Record("kittens", 2, {}, 1)
            store.records.start_game("g", "r", record, [SeatRecord("A"), SeatRecord("B")])
            for seq in range(300):
                store.journal.move("g", seq, seq, seq % 2, {"do": "draw"})
                if seq % 10 == 0:
                    await store.records.recent()  # a reader, as the API is, while commits go on
                    await asyncio.sleep(0)
            store.records.finish_game("g", 300, 0, [1, 2])
            await store.journal.flush()
            got = await store.records.get("g")
            listed = await store.records.recent()
            return len(got.record.moves), store.journal.failures, [g["id"] for g in listed] == ["g"]
        finally:
            await store.close()

    moves, failures, listed = asyncio.run(go())
    assert (moves, failures, listed) == (300, 0, True)
    assert not asyncio.run(_durable())


async def _durable() -> bool:
    store = await Store.open("memory")
    try:
        return store.durable
    finally:
        await store.close()
