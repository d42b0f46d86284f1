"""Fencing numbers: once a newer owner of a table has claimed it, the store refuses the writes
of the owner before it (cardroom/store/fencing.py): moves, the table's row, its game's end."""

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
    """Two nodes, each with its own store on the one database: the old owner and the new."""

    async def go(old: Store) -> tuple[list[tuple[int, int, int]], BaseException | None, bool]:
        new = await Store.open(old.url)
        try:
            _start(old, "g1")
            await old.journal.move("g1", 0, 10, 0, {"do": "draw"}, fence=1)
            await new.records.claim_table("room", "g1", 2)  # the new owner takes the table over
            stale = old.journal.move("g1", 1, 20, 1, {"do": "draw"}, fence=1)
            await old.journal.flush()
            await new.journal.move("g1", 1, 25, 2, {"do": "draw"}, fence=2)
            older_claim = old.records.claim_table("room", "g1", 1)  # nor can it claim the table back
            await old.journal.flush()
            return await _log(old, "g1"), stale.exception(), older_claim.exception() is not None
        finally:
            await new.close()

    log, refused, claim_refused = with_store(go)
    assert refused is not None  # the stale owner's move is not acknowledged...
    assert log == [(0, 10, 1), (1, 25, 2)]  # ...nor in the log; the new owner's move is
    assert claim_refused


def test_the_store_refuses_a_stale_move_even_in_a_batch_with_good_ones(with_store: Any) -> None:
    """Moves queued together commit together; the stale one fails alone, the others go in."""

    async def go(old: Store) -> tuple[list[tuple[int, int, int]], list[bool]]:
        new = await Store.open(old.url)
        try:
            _start(old, "g2")
            _start(old, "g3")
            await old.journal.flush()
            await new.records.claim_table("room", "g2", 5)
            writes = [
                old.journal.move("g3", 0, 1, 0, {"do": "draw"}, fence=1),
                old.journal.move("g2", 0, 2, 0, {"do": "draw"}, fence=4),  # stale
                old.journal.move("g3", 1, 3, 1, {"do": "draw"}, fence=1),
            ]
            await old.journal.flush()
            await new.journal.move("g2", 0, 4, 1, {"do": "draw"}, fence=5)
            return await _log(old, "g2") + await _log(old, "g3"), [w.exception() is None for w in writes]
        finally:
            await new.close()

    log, ok = with_store(go)
    assert ok == [True, False, True]
    assert log == [(0, 4, 5), (0, 1, 1), (1, 3, 1)]


def test_a_batch_of_several_games_raises_each_games_number_and_fences_out_each_older_owner(
    with_store: Any,
) -> None:
    """A busy node commits moves of many games at once, their numbers checked in one statement:
    each game takes its own writer's number, so an older owner of either is refused after."""

    async def go(old: Store) -> tuple[list[tuple[int, int, int]], list[bool]]:
        new = await Store.open(old.url)
        try:
            for game_id in ("g4", "g5"):
                _start(old, game_id)
            await old.journal.flush()
            batch = [  # the new owner of both tables, which took g4 as 7 and g5 as 3
                new.journal.move("g4", 0, 1, 0, {"do": "draw"}, fence=7),
                new.journal.move("g5", 0, 2, 0, {"do": "draw"}, fence=3),
                new.journal.move("g4", 1, 3, 1, {"do": "draw"}, fence=7),
            ]
            await new.journal.flush()
            late = [  # an owner of either before: g4 at 6, g5 at 2
                old.journal.move("g4", 2, 4, 2, {"do": "draw"}, fence=6),
                old.journal.move("g5", 1, 5, 1, {"do": "draw"}, fence=2),
            ]
            await old.journal.flush()
            written = await _log(old, "g4") + await _log(old, "g5")
            return written, [w.exception() is None for w in batch + late]
        finally:
            await new.close()

    log, ok = with_store(go)
    assert ok == [True, True, True, False, False]
    assert log == [(0, 1, 7), (1, 3, 7), (0, 2, 3)]


def test_one_process_without_a_cluster_writes_fence_zero_and_is_never_refused(with_store: Any) -> None:
    async def go(store: Store) -> list[tuple[int, int, int]]:
        _start(store, "g4")
        await store.journal.move("g4", 0, 1, 0, {"do": "draw"})
        await store.journal.move("g4", 1, 2, 1, {"do": "draw"})
        return await _log(store, "g4")

    assert with_store(go) == [(0, 1, 0), (1, 2, 0)]


def _room(room_id: str, fence: int, state: str = "waiting") -> dict[str, Any]:
    return {
        "id": room_id,
        "game": "burrito",
        "options": {},
        "seats": [{"name": "Anna", "player": "p1", "level": None}],
        "host": "p1",
        "private": False,
        "code": None,
        "bot_level": "normal",
        "state": state,
        "game_id": None,
        "games_played": 0,
        "fence": fence,
    }


def test_a_stale_owner_can_neither_rewrite_nor_close_the_table_nor_end_its_game(with_store: Any) -> None:
    async def go(store: Store) -> tuple[list[Any], str]:
        store.records.save_room(_room("r1", 1))
        _start(store, "g5")
        await store.records.claim_table("r1", "g5", 2)  # another node took the table over
        store.records.save_room(_room("r1", 2, state="playing"))
        store.records.save_room(_room("r1", 1, state="over"))
        store.records.drop_room("r1", 1)
        store.records.abandon_game("g5", 100, 1)
        await store.journal.flush()
        rows = await store.records.open_rooms()
        record = await store.records.get("g5")
        return [(r.id, r.state, r.fence) for r in rows], record.state

    rooms, game_state = with_store(go)
    assert rooms == [("r1", "playing", 2)]  # the new owner's row, neither rewritten nor dropped
    assert game_state == "playing"  # not abandoned by the old owner


def test_one_process_writes_its_table_with_fence_zero_unchecked(with_store: Any) -> None:
    async def go(store: Store) -> list[Any]:
        store.records.save_room(_room("r2", 0))
        store.records.save_room(_room("r2", 0, state="playing"))
        store.records.save_room(_room("r3", 0))
        store.records.drop_room("r3")
        await store.journal.flush()
        return [(r.id, r.state) for r in await store.records.open_rooms()]

    assert with_store(go) == [("r2", "playing")]
