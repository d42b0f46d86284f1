"""The migrations build exactly the schema the code uses, on both databases."""

from __future__ import annotations

import asyncio

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from cardroom.protocol.record import Record
from cardroom.store import SeatRecord, Store, StoreError
from cardroom.store.db import alembic_config, create_engine, is_sqlite
from cardroom.store.schema import metadata


def test_migrations_build_the_schema_of_the_code(db_url: str) -> None:
    async def go() -> list[object]:
        store = await Store.open(db_url)
        try:
            async with store.engine.connect() as conn:
                return await conn.run_sync(
                    lambda sync: compare_metadata(MigrationContext.configure(sync), metadata)
                )
        finally:
            await store.close()

    assert asyncio.run(go()) == []


def test_opening_twice_migrates_once_and_keeps_the_data(db_url: str) -> None:
    async def go() -> list[str]:
        store = await Store.open(db_url)
        await store.accounts.register("Anna", "correct horse")
        await store.close()
        again = await Store.open(db_url)
        try:
            async with again.engine.connect() as conn:
                versions = [
                    r[0] for r in (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
                ]
            assert await again.accounts.exists("anna")
            return versions
        finally:
            await again.close()

    assert asyncio.run(go()) == ["0006"]


def test_a_database_of_the_first_schema_keeps_its_games_when_seeds_grow_to_256_bits(db_url: str) -> None:
    """0003 turns games.seed into text; on SQLite that rebuilds the table, which must not take
    the seats and moves referring to it along (foreign keys cascade), nor leave them off."""
    big = (1 << 256) - 12345

    async def go() -> tuple[int, int, list[str], int, int | None]:
        engine = create_engine(db_url)
        async with engine.begin() as conn:
            await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), "0001"))
            await conn.execute(
                text(
                    "INSERT INTO games (id, room_id, game, players, options, seed, state, started_ms)"
                    " VALUES ('g1', 'r1', 'kittens', 2, '{}', 987654321987, 'over', 1)"
                )
            )
            await conn.execute(
                text("INSERT INTO game_seats (game_id, seat, name) VALUES ('g1', 0, 'Anna'), ('g1', 1, 'Bo')")
            )
            await conn.execute(
                text("INSERT INTO moves (game_id, seq, at, player, action) VALUES ('g1', 0, 5, 0, '{}')")
            )
        await engine.dispose()
        store = await Store.open(db_url)
        try:
            old = await store.records.get("g1")
            store.records.start_game(
                "g2", "r2", Record("kittens", 2, {}, big), [SeatRecord("A"), SeatRecord("B")]
            )
            await store.journal.flush()
            new = await store.records.get("g2")
            keys = None
            if is_sqlite(store.engine):
                async with store.engine.connect() as conn:
                    keys = (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one()
            return old.record.seed, len(old.record.moves), [s.name for s in old.seats], new.record.seed, keys
        finally:
            await store.close()

    seed, moves, names, new_seed, keys = asyncio.run(go())
    assert (seed, moves, names) == (987654321987, 1, ["Anna", "Bo"])
    assert new_seed == big
    assert keys in (None, 1)  # SQLite: foreign keys are on again after the migration


def test_accounts_made_before_the_name_keys_own_their_look_alikes(db_url: str) -> None:
    """0005 (issue 22, look-alike names): the accounts of an older database get the keys of
    their names, so a look-alike of one is refused; of two older accounts whose names look
    alike, both keep their names and logins."""

    async def go() -> tuple[bool, str, list[str]]:
        engine = create_engine(db_url)
        async with engine.begin() as conn:
            await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), "0004"))
            for name in ("Anna", "\u0410nna"):  # the second with a Cyrillic A, made before the rule
                await conn.execute(
                    text(
                        "INSERT INTO accounts (name, name_key, password_hash, profile, created_ms)"
                        " VALUES (:name, :key, 'x', '{}', 1)"
                    ),
                    {"name": name, "key": name.casefold()},
                )
        await engine.dispose()
        store = await Store.open(db_url)
        try:
            reserved = await store.accounts.exists("\u0391nna")  # a Greek Alpha
            try:
                await store.accounts.register("\u0391NNA", "correct horse")
                refused = "registered"
            except StoreError as exc:
                refused = exc.code
            found = [a.name for a in [await store.accounts.find(n) for n in ("Anna", "\u0410nna")] if a]
            return reserved, refused, found
        finally:
            await store.close()

    assert asyncio.run(go()) == (True, "name_taken", ["Anna", "\u0410nna"])


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: object) -> None:
    async def go() -> tuple[str, int]:
        store = await Store.open(f"sqlite:///{tmp_path}/x.sqlite3")
        try:
            async with store.engine.connect() as conn:
                mode = (await conn.execute(text("PRAGMA journal_mode"))).scalar_one()
                timeout = (await conn.execute(text("PRAGMA busy_timeout"))).scalar_one()
            return mode, timeout
        finally:
            await store.close()

    mode, timeout = asyncio.run(go())
    assert mode == "wal"
    assert timeout >= 1000
