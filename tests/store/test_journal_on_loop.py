"""On a SQLite file the journal commits on the event loop (issue 26, cardroom/store/journal.py).
A commit there must never wait for the file's write lock: another connection of the server
(an account's transaction) holds it between two of its awaits, and can only let it go once
the loop runs again."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import insert

from cardroom.protocol.record import Record
from cardroom.store import SeatRecord, Store
from cardroom.store.schema import moves


def test_a_move_written_while_another_transaction_holds_the_lock_goes_in_without_stalling(
    tmp_path: Path,
) -> None:
    async def go() -> int:
        store = await Store.open(f"sqlite:///{tmp_path / 'lock.sqlite3'}")
        try:
            store.records.start_game("g1", "room", Record("burrito", 3, {}, 11), [SeatRecord("A")] * 3)
            await store.journal.move("g1", 0, 10, 0, {"do": "draw"})  # the journal's connection is open
            async with store.engine.begin() as conn:  # another connection takes the write lock
                await conn.execute(
                    insert(moves).values(game_id="g1", seq=99, at=0, player=0, action={}, fence=0)
                )
                written = store.journal.move("g1", 1, 20, 1, {"do": "draw"})
                while store.journal.pending:  # until the journal has taken the move
                    await asyncio.sleep(0)
                await asyncio.sleep(0)  # the loop turns on while the move waits for the lock
            await asyncio.wait_for(written, 30)
            return store.journal.failures
        finally:
            await store.close()

    failures = asyncio.run(go())
    assert failures == 0, "the store was never judged failing (the tables would have paused)"
