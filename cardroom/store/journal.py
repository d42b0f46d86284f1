"""The journal: every write of a running server, in order, committed in groups.

A table must not wait for the disk between two actions, and an action must not be
acknowledged before it is on disk. So writes queue here; one task commits whatever has queued
in one transaction (a group commit) and then resolves each write's future. Under load, one
commit carries many actions, and commits are at least `GATHER_S` apart; when idle, each goes
at once. Runs of move rows share one `executemany`.

On a SQLite file the journal keeps one plain connection open. With `synchronous=NORMAL` (the
default) a commit only appends to the WAL in the operating system's cache, so it is made on the
event loop itself: handing each batch to a thread and back cost the server twice the commit's
own processor time (a thread woken, a pool checkout, the loop woken through its self-pipe:
about 300 against 100 µs a one-move commit, measured when this changed, issue 26). What waits
for the disk stays off the loop: the checkpoints that copy the WAL into the database (and sync
it) run in the journal's thread at most once a `CHECKPOINT_S`, and with `synchronous=FULL`,
where every commit waits for the disk, the commits run there too. Other databases commit
through the async engine.

Nothing is skipped: the log of a game must never have a gap, or a restart would replay another
game. When the database cannot take a batch (a full disk, a lost connection, a lock) the
journal keeps it, says it is `failing` to its watchers (the tables pause), and tries the same
batch again, then everything queued behind it, until it goes in. A write the database refuses
for good (a value it cannot hold, a broken constraint: retrying cannot help; `errors.py`
tells the two apart by SQLSTATE class or exception kind, whatever the driver) fails alone:
the log says once what was refused and why, the rest of its batch goes in, and no table
pauses. A move failing so marks its game `broken`, and every later move of that game fails
too, so that its log stops at its last whole move, the action gets a `not_saved` refusal and
its table closes (`cardroom/server/room/journal.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.store import fencing
from cardroom.store.db import BUSY_TIMEOUT_MS
from cardroom.store.errors import reason, refused_for_good

GATHER_S = 0.010
"""A busy journal commits at most this often: what comes meanwhile goes in the next commit. A
commit's cost is mostly its own (a transaction, a statement, a fsync or a round trip), not its
rows': at 200 tables, committing every loop turn, the journal was a fifth of a PostgreSQL
node's processor time, and spacing the commits took 19 % off a SQLite server's (issue 26). Acknowledgements wait for it, so it adds up to this much to them, only when busy:
a commit after a quiet spell goes at once."""
GATHER_MAX_S = 0.025
"""The longest spacing `Journal.share` gives a node of a cluster (acknowledgements wait for it)."""
log = logging.getLogger("cardroom.store")

Op = Callable[[Connection], Any]
Watcher = Callable[[bool], None]

RETRY_FIRST_S = 0.1
RETRY_MAX_S = 2.0
"""Waits between two tries of a batch the database could not take: doubling up to this."""
CHECKPOINT_S = 1.0
"""How often the WAL of a SQLite file committed on the loop is copied into the database (in the
journal's thread; the loop's connection never checkpoints: that would wait for the disk)."""
CLOSE_WHILE_FAILING_S = 5.0
"""How long closing waits for a failing store before it leaves the unwritten writes (unanswered)."""


def _for_good(exc: BaseException) -> bool:
    """What the database answers the same however often it is asked (errors.py); anything else
    may pass later. A stale owner's write (store/fencing.py) is one: a newer owner's number
    never goes away."""
    return isinstance(exc, fencing.StaleOwner) or refused_for_good(exc)


class _Busy(Exception):
    """The SQLite file's write lock is another connection's just now."""


def _busy(exc: BaseException) -> bool:
    """Whether SQLite said the database is locked (SQLITE_BUSY or SQLITE_LOCKED)."""
    code = getattr(getattr(exc, "orig", exc), "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class BrokenLog(RuntimeError):
    """A game's move could not be written, so its log cannot be made whole."""


@dataclass(slots=True)
class _Write:
    op: Op | None  # None: a move row (`row`), batched with its neighbours
    row: dict[str, Any] | None
    done: asyncio.Future[None]
    what: str
    """What the write is, for the log when the store refuses it."""


class Journal:
    """Ordered, grouped writes: `write(op)` and `move(row)` return futures resolved on commit."""

    def __init__(self, engine: AsyncEngine, file_engine: Engine | None = None) -> None:
        self.engine = engine
        self.file_engine = file_engine
        self.thread = ThreadPoolExecutor(1, "journal") if file_engine is not None else None
        self.conn: Connection | None = None
        """The open connection to the SQLite file the commits go through (made on first use)."""
        self.on_loop = False
        """Whether commits are made on the event loop (the file's `synchronous` is below FULL)."""
        self.checkpoint: asyncio.Future[None] | None = None
        self.checkpointed = 0.0
        """When (loop time) the last checkpoint was started."""
        self.pending: list[_Write] = []
        self.wake = asyncio.Event()
        self.idle = asyncio.Event()
        self.idle.set()
        self.task: asyncio.Task[None] | None = None
        self.gather = GATHER_S
        """The least time between two commits while busy (`share`)."""
        self.commits = 0
        self.failures = 0
        self.failing = False
        """Whether the newest try to commit failed (the writes wait, in order, for the next)."""
        self.watchers: set[Watcher] = set()
        """Told `failing` when it changes (each table watches while it plays)."""
        self.broken: set[str] = set()
        """Games a move of which the database refused for good: their later moves fail too."""

    def share(self, nodes: int) -> None:
        """This node is one of `nodes` live nodes sharing the tables: its commits are spaced
        `nodes` times GATHER_S (at most GATHER_MAX_S), so that the cluster commits about as often
        as one node would. Each node holds a share of the actions, and at the same spacing
        each commit carried that share: with two nodes each node's journal cost per action came
        to over twice one node's, and two nodes used 1.25 times one node's processor time per
        action; spaced, 1.17 times (docs/deploy.md, "Players at their table's node")."""
        self.gather = min(GATHER_MAX_S, GATHER_S * max(1, nodes))

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run())

    def write(self, op: Op, what: str = "a write") -> asyncio.Future[None]:
        """Queue `op`; `what` names it in the log should the store refuse it."""
        return self._queue(_Write(op, None, asyncio.get_running_loop().create_future(), what))

    def move(
        self, game_id: str, seq: int, at: int, player: int, action: Any, fence: int = 0
    ) -> asyncio.Future[None]:
        """A move row; `fence`, the writer's fencing number in a cluster, is checked (fencing.py)."""
        row = {"game_id": game_id, "seq": seq, "at": at, "player": player, "action": action, "fence": fence}
        what = f"move {seq} of game {game_id}"
        return self._queue(_Write(None, row, asyncio.get_running_loop().create_future(), what))

    def _queue(self, item: _Write) -> asyncio.Future[None]:
        self.pending.append(item)
        self.idle.clear()
        self.wake.set()
        return item.done

    async def flush(self) -> None:
        """Wait until everything written so far is committed."""
        await self.idle.wait()

    async def close(self) -> None:
        """Write what is queued; while the store is failing, give up after a while (what is left
        was never acknowledged, and the logs stay without gaps: a restart goes on from them)."""
        loop = asyncio.get_running_loop()
        give_up: float | None = None
        while not self.idle.is_set():
            if self.failing:
                give_up = give_up or loop.time() + CLOSE_WHILE_FAILING_S
                if loop.time() >= give_up:
                    log.warning("closing with %d writes the store could not take", len(self.pending))
                    break
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.1):
                    await self.idle.wait()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        if self.thread is not None:
            self.thread.shutdown(wait=True)
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None
        if self.file_engine is not None:
            self.file_engine.dispose()

    async def _run(self) -> None:
        committed = 0.0
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.pending:
                if (wait := committed + self.gather - time.monotonic()) > 0:
                    await asyncio.sleep(wait)
                committed = time.monotonic()
                batch, self.pending = self.pending, []
                await self._commit(batch)
            self.idle.set()

    async def _transaction(self, batch: list[_Write]) -> None:
        if self.thread is None:
            async with self.engine.begin() as conn:
                await conn.run_sync(_apply, batch)
            return
        loop = asyncio.get_running_loop()
        if self.conn is None:  # in the thread: opening a file may wait for the disk
            await loop.run_in_executor(self.thread, self._open)
        if not self.on_loop:
            await loop.run_in_executor(self.thread, self._on_file, batch, True)
            return
        try:
            self._on_file(batch, False)
        except _Busy:
            # Another connection holds the write lock (an account's transaction, between two of
            # its awaits): waiting for it here would stop the loop it needs to finish. The
            # thread waits instead.
            await loop.run_in_executor(self.thread, self._on_file, batch, True)
            return
        if self.checkpoint is None and loop.time() - self.checkpointed >= CHECKPOINT_S:
            self.checkpointed = loop.time()
            self.checkpoint = loop.run_in_executor(self.thread, self._checkpoint)
            self.checkpoint.add_done_callback(self._checkpoint_done)

    def _open(self) -> None:
        """The journal's connection to the SQLite file; commits go on the loop below FULL."""
        assert self.file_engine is not None
        conn = self.file_engine.connect()
        self.on_loop = int(conn.exec_driver_sql("PRAGMA synchronous").scalar_one()) < 2
        if self.on_loop:  # its commits never checkpoint (`_checkpoint` does, in the thread), nor wait
            conn.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
            conn.exec_driver_sql("PRAGMA busy_timeout=0")
        conn.commit()
        self.conn = conn

    def _on_file(self, batch: list[_Write], wait: bool) -> None:
        """Commit `batch` on the journal's connection; on the loop (`wait` False), a lock held
        by another connection raises `_Busy` at once and leaves the connection as it was."""
        conn = self.conn
        assert conn is not None
        raw: Any = conn.connection.driver_connection
        try:
            if wait and self.on_loop:
                raw.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            try:
                with conn.begin():
                    _apply(conn, batch)
            finally:
                if wait and self.on_loop:
                    raw.execute("PRAGMA busy_timeout=0")
        except Exception as exc:
            if not wait and _busy(exc):
                raise _Busy from exc
            # A connection a failure left in doubt is not used again: the next try opens one.
            with contextlib.suppress(Exception):
                conn.close()
            self.conn = None
            raise

    def _checkpoint(self) -> None:
        """Copy the WAL into the database, as far as no reader needs it (never blocking one)."""
        assert self.file_engine is not None
        with self.file_engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def _checkpoint_done(self, done: asyncio.Future[None]) -> None:
        self.checkpoint = None
        if not done.cancelled() and done.exception() is not None:
            log.warning("a checkpoint of the SQLite file failed (%s); the next one goes on", done.exception())

    def _set_failing(self, failing: bool) -> None:
        if failing != self.failing:
            self.failing = failing
            for watcher in list(self.watchers):
                watcher(failing)

    def _fail(self, item: _Write, why: str) -> None:
        if item.row is not None:
            self.broken.add(item.row["game_id"])
        if not item.done.done():
            item.done.set_exception(BrokenLog(why))
            item.done.exception()  # logged here once: asyncio need not log it again if nobody awaits it

    async def _commit(self, batch: list[_Write]) -> None:
        """Commit `batch` whole, trying again while the database cannot take it."""
        wait = RETRY_FIRST_S
        while True:
            batch = [item for item in batch if not self._after_a_gap(item)]
            if not batch:
                return
            try:
                await self._transaction(batch)
            except Exception as exc:
                self.failures += 1
                if _for_good(exc):
                    if len(batch) == 1:
                        log.error(
                            "the store refused %s for good (%s): it is not written",
                            batch[0].what,
                            reason(exc),
                        )
                        self._fail(batch[0], "the store refused a write")
                        return
                    for item in batch:  # find the one refused; the others still go in, in order
                        await self._commit([item])
                    return
                if not self.failing:
                    log.exception("the store cannot write: the tables wait, and the journal tries again")
                self._set_failing(True)
                await asyncio.sleep(wait)
                wait = min(wait * 2, RETRY_MAX_S)
                continue
            self.commits += 1
            for item in batch:
                if not item.done.done():
                    item.done.set_result(None)
            if self.failing:
                log.warning("the store writes again: the tables go on")
                self._set_failing(False)
            return

    def _after_a_gap(self, item: _Write) -> bool:
        """A move of a broken game is not written (its log would have a gap): it fails."""
        if item.row is not None and item.row["game_id"] in self.broken:
            self._fail(item, "an earlier move of this game could not be written")
            return True
        return False


def _apply(conn: Connection, batch: list[_Write]) -> None:
    rows: list[dict[str, Any]] = []
    for item in batch:
        if item.op is None:
            assert item.row is not None
            rows.append(item.row)
            continue
        if rows:
            _insert_moves(conn, rows)
            rows = []
        item.op(conn)
    if rows:
        _insert_moves(conn, rows)


_MOVES = "INSERT INTO moves (game_id, seq, at, player, action, fence) VALUES ({})"
_MOVES_SQL = {
    "qmark": _MOVES.format(", ".join("?" * 6)),  # SQLite
    "numeric_dollar": _MOVES.format(", ".join(f"${i}" for i in range(1, 7))),  # asyncpg
}
"""Move rows handed to the driver as they are, in its own placeholders: SQLAlchemy's statement
building and type processing per row took the journal's thread more of the processor than
SQLite's own writing (py-spy over `python -m bench.load`), and on PostgreSQL a tenth of a
node's processor (`--nodes 2`, issue 26); that time is the server's too."""


def _insert_moves(conn: Connection, rows: list[dict[str, Any]]) -> None:
    fencing.check_moves(conn, rows)
    # The action as SQLAlchemy's JSON type writes it (json.dumps): the same text.
    values = [
        (r["game_id"], r["seq"], r["at"], r["player"], json.dumps(r["action"]), r["fence"]) for r in rows
    ]
    conn.exec_driver_sql(_MOVES_SQL[conn.dialect.paramstyle], values)
