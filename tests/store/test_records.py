"""Game records: a finished game is kept with its options, seed, seats and whole action log,
and replaying the stored log gives the very same table."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy import select

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.protocol.record import Record, replay
from cardroom.store import SeatRecord, Store, StoreError
from cardroom.store.journal import GATHER_MAX_S, GATHER_S
from cardroom.store.schema import moves


def _play(game_name: str, players: int, seed: int) -> tuple[Record, Any]:
    game = find_game(game_name)
    table = game.new_table(players, {}, seed)
    bots = {i: make_bot(game_name, i, "normal", seed + i) for i in range(players)}
    run = VirtualDriver(table, bots, game.action_json).run()
    assert table.over
    return Record(game_name, players, {}, seed, moves=list(run.moves)), table


@pytest.mark.parametrize("game_name", ["burrito", "kittens"])
def test_a_stored_game_replays_to_the_same_table(with_store: Any, game_name: str) -> None:
    record, table = _play(game_name, 4, seed=7)
    seats = [SeatRecord("Anna", player_id="p1")] + [
        SeatRecord(f"Bot {i}", bot_level="normal") for i in range(1, 4)
    ]

    async def go(store: Store) -> Any:
        store.records.start_game("g1", "room1", record, seats)
        for seq, move in enumerate(record.moves):
            store.journal.move("g1", seq, move.at, move.player, move.action)
        store.records.finish_game("g1", table.now, table.winner, [1, 2, 3, 4])
        await store.journal.flush()
        return await store.records.get("g1")

    stored = with_store(go)
    assert stored.state == "over" and stored.winner == table.winner
    assert [s.name for s in stored.seats] == ["Anna", "Bot 1", "Bot 2", "Bot 3"]
    assert [s.place for s in stored.seats] == [1, 2, 3, 4]
    assert stored.record == record
    again = replay(find_game(game_name), stored.record, until=stored.end_at)
    assert again.snapshot() == table.snapshot()


def test_an_unknown_record_id_is_refused(with_store: Any) -> None:
    async def go(store: Store) -> list[str]:
        codes = []
        for wrong in ["nope", "", "x" * 300]:
            with pytest.raises(StoreError) as info:
                await store.records.get(wrong)
            codes.append(info.value.code)
        return codes

    assert with_store(go) == ["no_record"] * 3


def test_the_journal_commits_in_order_and_in_groups(with_store: Any) -> None:
    record, _ = _play("burrito", 3, seed=3)

    async def go(store: Store) -> tuple[int, list[int]]:
        store.records.start_game("g2", "room", record, [SeatRecord(f"P{i}") for i in range(3)])
        futures = [
            store.journal.move("g2", seq, m.at, m.player, m.action) for seq, m in enumerate(record.moves)
        ]
        for f in futures:
            await f
        async with store.engine.connect() as conn:
            seqs = [r.seq for r in (await conn.execute(select(moves.c.seq).order_by(moves.c.seq))).all()]
        return store.journal.commits, seqs

    commits, seqs = with_store(go)
    assert seqs == list(range(len(record.moves)))
    assert commits < len(record.moves) / 10  # queued together, committed together


def test_a_move_the_database_refuses_breaks_only_its_game_and_leaves_no_gap(with_store: Any) -> None:
    """Issue 12: a move refused for good (here a duplicate key) fails; the later moves of its
    game fail too (a log with a gap would replay another game), other games go on."""
    record, _ = _play("burrito", 3, seed=3)

    async def go(store: Store) -> tuple[list[bool], list[tuple[str, int]], set[str]]:
        seats = [SeatRecord(f"P{i}") for i in range(3)]
        store.records.start_game("g3", "room", record, seats)
        store.records.start_game("g6", "room2", record, seats)
        writes = [
            store.journal.move("g3", 0, 0, 0, {"do": "draw"}),
            store.journal.move("g3", 0, 0, 0, {"do": "draw"}),  # the same key again: refused
            store.journal.move("g3", 1, 5, 1, {"do": "draw"}),  # after the refused one: not written
            store.journal.move("g6", 0, 7, 2, {"do": "draw"}),  # another game: written
        ]
        await store.journal.flush()
        failed = [w.exception() is not None for w in writes]
        async with store.engine.connect() as conn:
            rows = (await conn.execute(select(moves.c.game_id, moves.c.seq).order_by(moves.c.game_id))).all()
        return failed, [(r.game_id, r.seq) for r in rows], store.journal.broken

    failed, rows, broken = with_store(go)
    assert failed == [False, True, True, False]
    assert rows == [("g3", 0), ("g6", 0)] and broken == {"g3"}


def test_recent_games_list_the_finished_ones_of_an_account(with_store: Any) -> None:
    record, table = _play("kittens", 2, seed=5)

    async def go(store: Store) -> tuple[list[Any], list[Any]]:
        anna = await store.accounts.register("Anna", "correct horse")
        store.records.start_game(
            "g4", "r", record, [SeatRecord("Anna", "p", anna.id), SeatRecord("Bot", bot_level="normal")]
        )
        store.records.start_game(
            "g5", "r", record, [SeatRecord("Guest", "q"), SeatRecord("Bot", bot_level="normal")]
        )
        store.records.finish_game("g4", table.now, table.winner, [1, 2])
        store.records.finish_game("g5", table.now, table.winner, [2, 1])
        await store.journal.flush()
        return await store.records.recent(anna.id), await store.records.recent()

    mine, everyone = with_store(go)
    assert [g["id"] for g in mine] == ["g4"]
    assert {g["id"] for g in everyone} == {"g4", "g5"}
    assert mine[0]["seats"][0] == {"name": "Anna", "account": True, "bot": None, "place": 1}


def test_a_private_tables_game_is_listed_for_its_accounts_only(with_store: Any) -> None:
    """docs/security.md: a private table's records are for its players."""
    record, table = _play("kittens", 2, seed=6)

    async def go(store: Store) -> dict[str, Any]:
        anna = await store.accounts.register("Anna", "correct horse")
        ben = await store.accounts.register("Ben", "correct horse")
        bot = SeatRecord("Bot", bot_level="normal")
        store.records.start_game("hid", "r", record, [SeatRecord("Anna", "p", anna.id), bot], private=True)
        store.records.start_game("open", "r", record, [SeatRecord("Ben", "q", ben.id), bot])
        for game_id in ("hid", "open"):
            store.records.finish_game(game_id, table.now, table.winner, [1, 2])
        await store.journal.flush()
        hidden = await store.records.get("hid")
        return {
            "anyone": await store.records.recent(),
            "anna": await store.records.recent(viewer=anna.id),
            "ben": await store.records.recent(viewer=ben.id),
            "anna's page, to ben": await store.records.recent(anna.id, viewer=ben.id),
            "seen": (
                hidden.private,
                hidden.visible_to(anna.id),
                hidden.visible_to(ben.id),
                hidden.visible_to(None),
            ),
        }

    found = with_store(go)
    assert [g["id"] for g in found["anyone"]] == ["open"]
    assert {g["id"] for g in found["anna"]} == {"hid", "open"}
    assert [g["id"] for g in found["ben"]] == ["open"]
    assert found["anna's page, to ben"] == []
    assert found["seen"] == (True, True, False, False)


@pytest.mark.parametrize("nodes", [1, 2, 3])
def test_a_busy_journal_gathers_moves_that_come_one_at_a_time(with_store: Any, nodes: int) -> None:
    """At a busy server moves come a loop turn apart, not in groups: the journal still commits
    at most every GATHER_S (cardroom/store/journal.py), each commit taking all that came since,
    in order; its cost is the commit's, not the rows' (issue 26). A node of a cluster holds a
    share of the tables: with `nodes` live nodes it commits at most every `nodes` times that
    (at most GATHER_MAX_S), so that the cluster commits about as often as one node would."""
    record, _ = _play("burrito", 3, seed=3)
    spacing = min(GATHER_MAX_S, GATHER_S * nodes)

    async def go(store: Store) -> tuple[int, float, list[int]]:
        store.journal.share(nodes)
        store.records.start_game("g3", "room", record, [SeatRecord(f"P{i}") for i in range(3)])
        await store.journal.flush()
        before, began = store.journal.commits, time.monotonic()
        futures = []
        for seq, m in enumerate(record.moves):
            futures.append(store.journal.move("g3", seq, m.at, m.player, m.action))
            await asyncio.sleep(0.001)  # the next action comes a turn later
        for f in futures:
            await f
        took = time.monotonic() - began
        async with store.engine.connect() as conn:
            seqs = [r.seq for r in (await conn.execute(select(moves.c.seq).order_by(moves.c.seq))).all()]
        return store.journal.commits - before, took, seqs

    commits, took, seqs = with_store(go)
    assert seqs == list(range(len(record.moves)))
    assert len(record.moves) > 50
    assert commits <= took / spacing + 2, (commits, len(record.moves), took)
