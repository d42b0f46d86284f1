"""Every store test runs twice: on SQLite (a file in a temporary folder) and on a real PostgreSQL.

PostgreSQL comes from `CARDROOM_TEST_POSTGRES` (default: the role and database `.ci/run`
creates). It is not optional: when it cannot be reached the tests fail and say how to start it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import text

from cardroom.store import Store
from cardroom.store.db import create_engine
from cardroom.store.schema import metadata

T = TypeVar("T")
POSTGRES = os.environ.get(
    "CARDROOM_TEST_POSTGRES", "postgresql://cardroom:cardroom@127.0.0.1:5432/cardroom_test"
)


async def _wipe_postgres(url: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(metadata.drop_all)
            await conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    except OSError as exc:
        pytest.fail(
            f"PostgreSQL is not reachable at {url} ({exc}). Start it the way .ci/run does "
            "(service postgresql start, then the role and database it creates), "
            "or point CARDROOM_TEST_POSTGRES at one you can use.",
            pytrace=False,
        )
    finally:
        await engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
    else:
        asyncio.run(_wipe_postgres(POSTGRES))
        yield POSTGRES


Scenario = Callable[[Store], Awaitable[T]]


@pytest.fixture
def with_store(db_url: str) -> Callable[[Scenario[Any]], Any]:
    """Run `scenario(store)` on a freshly migrated store, closed afterwards."""

    def run(scenario: Scenario[T]) -> T:
        async def go() -> T:
            store = await Store.open(db_url)
            try:
                return await scenario(store)
            finally:
                await store.close()

        return asyncio.run(go())

    return run
