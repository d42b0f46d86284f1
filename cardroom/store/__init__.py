"""The store: accounts, game records with their action logs, ratings, and open tables.

One `Store` per server process. Reads are direct; the writes of a running server go through
one journal, committed in groups and in order (`journal.py`).
"""

from __future__ import annotations

from tempfile import TemporaryDirectory

from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.store.accounts import Account, Accounts
from cardroom.store.db import BadDatabase, create_engine, default_url, is_scratch, migrate, sqlite_file_engine
from cardroom.store.errors import StoreError
from cardroom.store.journal import Journal
from cardroom.store.ratings import Ratings, Standing
from cardroom.store.records import GameRecord, Records, SeatRecord


class Store:
    """Everything kept between two runs of the server."""

    def __init__(self, engine: AsyncEngine, url: str, scratch: TemporaryDirectory[str] | None = None) -> None:
        self.engine = engine
        self.url = url
        self.scratch = scratch
        """For a database that ends with the process: the temporary folder holding its file."""
        self.journal = Journal(engine, sqlite_file_engine(engine.url.render_as_string(hide_password=False)))
        self.accounts = Accounts(engine)
        self.records = Records(engine, self.journal)
        self.ratings = Ratings(engine)

    @classmethod
    async def open(cls, url: str | None = None) -> Store:
        """Connect, bring the schema up to date, start the journal."""
        url = url or default_url()
        scratch = TemporaryDirectory(prefix="cardroom-") if is_scratch(url) else None
        engine = create_engine(f"sqlite:///{scratch.name}/cardroom.sqlite3" if scratch else url)
        await migrate(engine)
        store = cls(engine, url, scratch)
        store.journal.start()
        return store

    @property
    def durable(self) -> bool:
        """Whether what is written outlives this process: then an acknowledgement waits for it."""
        return self.scratch is None

    async def close(self) -> None:
        await self.journal.close()
        await self.engine.dispose()
        if self.scratch is not None:
            self.scratch.cleanup()


__all__ = [
    "Account",
    "BadDatabase",
    "GameRecord",
    "SeatRecord",
    "Standing",
    "Store",
    "StoreError",
]
