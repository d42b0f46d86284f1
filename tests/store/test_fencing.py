"""Fencing numbers: once a newer owner of a table has claimed its game, the log refuses the
moves of the owner before it (cardroom/store/fencing.py), and keeps the writer of each move."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from cardroom.protocol.record import Record
from cardroom.store import SeatRecord, Store
from cardroom.store.schema import moves


def _start(store: Store, game_id: str) -> None:
    record = Record("burrito", 3, {}, 11, moves=[])
    store.records.start_game(game_id, "room", record, [SeatRecord(f"P{i}") for i in range(3)])


async def _log(store: Store, game_id: str) -> list[tuple[int, int, int]]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            select(moves.c.seq, moves.c.at, moves.c.fence)
            .where(moves.c.game_id == game_id)
            .order_by(moves.c.seq)
        )
        return [tuple(r) for r in rows.all()]


def test_an_owner_whose_table_was_claimed_by_a_newer_one_cannot_write_to_its_log(with_store: Any) -> None:
    async def go(store: Store) -> tuple[list[tuple[int, int, int]], BaseException | None, bool]:
        _start(store, "g1")
        await store.journal.move("g1", 0, 10, 0, {"do": "draw"}, fence=1)  # the first owner
        await store.records.claim_game("g1", 2)  # a second node takes the table over
        stale = store.journal.move("g1", 1, 20, 1, {"do": "draw"}, fence=1)
        newer = store.journal.move("g1", 1, 25, 2, {"do": "draw"}, fence=2)
        await store.journal.flush()
        older_claim = store.records.claim_game("g1", 1)  # the first owner cannot claim it back
        await store.journal.flush()
        assert newer.exception() is None
        return await _log(store, "g1"), stale.exception(), older_claim.exception() is not None

    log, refused, claim_refused = with_store(go)
    assert refused is not None  # the stale owner's move is not acknowledged...
    assert log == [(0, 10, 1), (1, 25, 2)]  # ...nor in the log; the new owner's move is
    assert claim_refused


def test_the_store_refuses_a_stale_move_even_in_a_batch_with_good_ones(with_store: Any) -> None:
    """Moves queued together commit together; the stale one fails alone, the others go in."""

    async def go(store: Store) -> tuple[list[tuple[int, int, int]], list[bool]]:
        _start(store, "g2")
        _start(store, "g3")
        await store.records.claim_game("g2", 5)
        writes = [
            store.journal.move("g3", 0, 1, 0, {"do": "draw"}, fence=1),
            store.journal.move("g2", 0, 2, 0, {"do": "draw"}, fence=4),  # stale
            store.journal.move("g3", 1, 3, 1, {"do": "draw"}, fence=1),
            store.journal.move("g2", 0, 4, 1, {"do": "draw"}, fence=5),
        ]
        await store.journal.flush()
        return await _log(store, "g2") + await _log(store, "g3"), [w.exception() is None for w in writes]

    log, ok = with_store(go)
    assert ok == [True, False, True, True]
    assert log == [(0, 4, 5), (0, 1, 1), (1, 3, 1)]


def test_one_process_without_a_cluster_writes_fence_zero_and_is_never_refused(with_store: Any) -> None:
    async def go(store: Store) -> list[tuple[int, int, int]]:
        _start(store, "g4")
        await store.journal.move("g4", 0, 1, 0, {"do": "draw"})
        await store.journal.move("g4", 1, 2, 1, {"do": "draw"})
        return await _log(store, "g4")

    assert with_store(go) == [(0, 1, 0), (1, 2, 0)]
