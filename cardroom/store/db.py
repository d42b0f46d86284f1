"""Opening a database: its URL, its engine settings, and its migrations.

`--db` takes `sqlite:///PATH`, `postgresql://USER:PASSWORD@HOST/NAME` (or any SQLAlchemy async
URL). The default is a SQLite file under the data folder (`CARDROOM_DATA`, else `./data`).
SQLite runs in WAL mode with `synchronous=NORMAL` by default: a commit is in the operating
system's hands when it returns, so it survives the server process being killed, but a power
cut or a kernel crash may lose the last commits (never corrupt the file). `FULL`
(`cardroom serve --sqlite-sync full`, or `CARDROOM_SQLITE_SYNC=full`) syncs the WAL to the
disk at each commit, as PostgreSQL's default settings do: a commit then survives a power cut
too, for a few milliseconds more per group commit (docs/deploy.md). A busy timeout lets a
second process wait its turn.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine as sa_create_engine
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from cardroom.protocol import CardroomError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 5_000
SYNC_MODES = ("normal", "full")
"""SQLite's `synchronous` settings a host may choose (`CARDROOM_SQLITE_SYNC`)."""


class BadDatabase(CardroomError):
    """A database URL we cannot use."""


def data_folder() -> Path:
    return Path(os.environ.get("CARDROOM_DATA", "data"))


def default_url() -> str:
    return f"sqlite:///{data_folder() / 'cardroom.sqlite3'}"


def sqlite_synchronous() -> str:
    """The `synchronous` pragma of SQLite connections: `CARDROOM_SQLITE_SYNC`, else normal."""
    mode = os.environ.get("CARDROOM_SQLITE_SYNC", "").strip().lower() or "normal"
    if mode not in SYNC_MODES:
        raise BadDatabase(f"CARDROOM_SQLITE_SYNC is {mode!r}: use one of {', '.join(SYNC_MODES)}")
    return mode.upper()


def is_scratch(url: str) -> bool:
    """Whether `url` asks for a database that ends with the process: `memory`, or SQLite's own
    in-memory URLs. Those are served by a SQLite file in a temporary folder (`Store.open`): an
    in-memory SQLite database lives in one connection, and the journal's commits and the
    readers sharing one connection would roll back each other's transactions."""
    if url == "memory":
        return True
    try:
        parsed = make_url(url)
    except ArgumentError:
        return False
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


def async_url(url: str) -> str:
    """The SQLAlchemy async form of `url`: the driver this project installs for each database."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise BadDatabase(f"not a database URL: {url!r}") from exc
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        parsed = parsed.set(drivername="sqlite+aiosqlite")
        if parsed.database in (None, "", ":memory:"):
            raise BadDatabase("an in-memory SQLite database is asked for as memory (see Store.open)")
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    elif backend in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    else:
        raise BadDatabase(f"unsupported database {backend!r}: use sqlite:///PATH or postgresql://...")
    return parsed.render_as_string(hide_password=False)


def is_sqlite(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite"


def create_engine(url: str) -> AsyncEngine:
    """An engine for `url`, with SQLite's WAL, busy timeout and foreign keys switched on."""
    engine = create_async_engine(async_url(url))
    if is_sqlite(engine):
        sqlite_synchronous()  # a wrong setting is refused here, not at the first connection
        event.listen(engine.sync_engine, "connect", _pragmas)
    return engine


def _pragmas(dbapi_connection: Any, record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={sqlite_synchronous()}")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def sqlite_file_engine(url: str) -> Engine | None:
    """A plain (synchronous) engine on the same SQLite file, for the journal's own thread;
    None for any other database."""
    full = async_url(url)
    if not full.startswith("sqlite+aiosqlite:///"):
        return None
    engine = sa_create_engine(full.replace("sqlite+aiosqlite://", "sqlite://", 1))
    event.listen(engine, "connect", _pragmas)
    return engine


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema up to the newest migration (nothing to do when it is there already)."""
    logging.getLogger("alembic").setLevel(logging.WARNING)  # its chatter is not news to a host
    sqlite = is_sqlite(engine)
    async with engine.connect() as conn:
        if sqlite:
            # SQLite changes a column by building the table anew and dropping the old one; with
            # foreign keys on, that drop would delete every row referring to it (seats, moves).
            # The pragma only takes effect outside a transaction: before the migration's first.
            await conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        try:
            await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
            await conn.commit()
        finally:
            if sqlite:
                await conn.rollback()
                await conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                await conn.commit()
