"""The migrations build exactly the schema the code uses, on both databases."""

from __future__ import annotations

import asyncio

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from cardroom.store import Store
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

    assert asyncio.run(go()) == ["0003"]


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
