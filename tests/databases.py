"""The two databases tests run against: a SQLite file, and a real PostgreSQL.

PostgreSQL is this session's throwaway server (tests/services.py), or the one
`CARDROOM_TEST_POSTGRES` names. It is not optional: when it cannot be had the tests fail and
say what to install or set.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from cardroom.store.db import create_engine
from cardroom.store.schema import metadata
from tests.services import ServiceError, postgres_url


async def _wipe(url: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(metadata.drop_all)
            await conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    except OSError as exc:
        pytest.fail(
            f"PostgreSQL is not reachable at {url} ({exc}). Unset CARDROOM_TEST_POSTGRES to let "
            "the tests start their own, or point it at a server you can use.",
            pytrace=False,
        )
    finally:
        await engine.dispose()


def empty_postgres() -> str:
    """The test PostgreSQL database, emptied (tables and migration history dropped)."""
    try:
        url = postgres_url()
    except ServiceError as exc:
        pytest.fail(str(exc), pytrace=False)
    asyncio.run(_wipe(url))
    return url
