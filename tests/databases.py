"""The two databases tests run against: a SQLite file, and a real PostgreSQL.

PostgreSQL comes from `CARDROOM_TEST_POSTGRES` (default: the role and database `.ci/run`
creates). It is not optional: when it cannot be reached the tests fail and say how to start it.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from sqlalchemy import text

from cardroom.store.db import create_engine
from cardroom.store.schema import metadata

POSTGRES = os.environ.get(
    "CARDROOM_TEST_POSTGRES", "postgresql://cardroom:cardroom@127.0.0.1:5432/cardroom_test"
)


async def _wipe(url: str) -> None:
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


def empty_postgres() -> str:
    """The test PostgreSQL database, emptied (tables and migration history dropped)."""
    asyncio.run(_wipe(POSTGRES))
    return POSTGRES
