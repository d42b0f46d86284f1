"""Every store test runs twice: on SQLite (a file in a temporary folder) and on a real
PostgreSQL (tests/databases.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from cardroom.store import Store
from tests.databases import empty_postgres

T = TypeVar("T")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
    else:
        yield empty_postgres()


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
