"""The store: accounts, game records with their action logs, ratings, and open tables.

One `Store` per server process. Reads are direct; the writes of a running server go through
one journal, committed in groups and in order (`journal.py`).
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.store.accounts import Account, Accounts
from cardroom.store.db import BadDatabase, create_engine, default_url, migrate, sqlite_file_engine
from cardroom.store.errors import StoreError
from cardroom.store.journal import Journal
from cardroom.store.ratings import Ratings, Standing
from cardroom.store.records import GameRecord, Records, SeatRecord


class Store:
    """Everything kept between two runs of the server."""

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        self.journal = Journal(engine, sqlite_file_engine(url))
        self.accounts = Accounts(engine)
        self.records = Records(engine, self.journal)
        self.ratings = Ratings(engine, self.journal)

    @classmethod
    async def open(cls, url: str | None = None) -> Store:
        """Connect, bring the schema up to date, start the journal."""
        url = url or default_url()
        engine = create_engine(url)
        await migrate(engine)
        store = cls(engine, url)
        store.journal.start()
        return store

    @property
    def durable(self) -> bool:
        """Whether what is written outlives this process (not for an in-memory database)."""
        return self.url != "memory" and ":memory:" not in self.url

    async def close(self) -> None:
        await self.journal.close()
        await self.engine.dispose()


__all__ = [
    "Account",
    "BadDatabase",
    "GameRecord",
    "SeatRecord",
    "Standing",
    "Store",
    "StoreError",
]
