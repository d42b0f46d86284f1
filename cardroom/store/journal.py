"""The journal: every write of a running server, in order, committed in groups.

A table must not wait for the disk between two actions, and an action must not be
acknowledged before it is on disk. So writes queue here; one task commits whatever has queued
in one transaction (a group commit) and then resolves each write's future. Under load, one
commit carries many actions; when idle, each goes at once. Runs of move rows share one
`executemany`.

On a SQLite file the commits run in a thread of their own on a plain connection: one hand-off
per batch instead of one per statement through the event loop, which under load is what the
acknowledgements would otherwise wait for. Other databases commit through the async engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.store import fencing
from cardroom.store.schema import moves

log = logging.getLogger("cardroom.store")

Op = Callable[[Connection], Any]


@dataclass(slots=True)
class _Write:
    op: Op | None  # None: a move row (`row`), batched with its neighbours
    row: dict[str, Any] | None
    done: asyncio.Future[None]


class Journal:
    """Ordered, grouped writes: `write(op)` and `move(row)` return futures resolved on commit."""

    def __init__(self, engine: AsyncEngine, file_engine: Engine | None = None) -> None:
        self.engine = engine
        self.file_engine = file_engine
        self.thread = ThreadPoolExecutor(1, "journal") if file_engine is not None else None
        self.pending: list[_Write] = []
        self.wake = asyncio.Event()
        self.idle = asyncio.Event()
        self.idle.set()
        self.task: asyncio.Task[None] | None = None
        self.commits = 0
        self.failures = 0

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run())

    def write(self, op: Op) -> asyncio.Future[None]:
        return self._queue(_Write(op, None, asyncio.get_running_loop().create_future()))

    def move(
        self, game_id: str, seq: int, at: int, player: int, action: Any, fence: int = 0
    ) -> asyncio.Future[None]:
        """A move row; `fence`, the writer's fencing number in a cluster, is checked (fencing.py)."""
        row = {"game_id": game_id, "seq": seq, "at": at, "player": player, "action": action, "fence": fence}
        return self._queue(_Write(None, row, asyncio.get_running_loop().create_future()))

    def _queue(self, item: _Write) -> asyncio.Future[None]:
        self.pending.append(item)
        self.idle.clear()
        self.wake.set()
        return item.done

    async def flush(self) -> None:
        """Wait until everything written so far is committed."""
        await self.idle.wait()

    async def close(self) -> None:
        await self.flush()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        if self.thread is not None:
            self.thread.shutdown(wait=True)
        if self.file_engine is not None:
            self.file_engine.dispose()

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.pending:
                batch, self.pending = self.pending, []
                await self._commit(batch)
            self.idle.set()

    async def _transaction(self, batch: list[_Write]) -> None:
        if self.thread is not None:
            await asyncio.get_running_loop().run_in_executor(self.thread, self._in_thread, batch)
            return
        async with self.engine.begin() as conn:
            await conn.run_sync(_apply, batch)

    def _in_thread(self, batch: list[_Write]) -> None:
        assert self.file_engine is not None
        with self.file_engine.begin() as conn:
            _apply(conn, batch)

    async def _commit(self, batch: list[_Write]) -> None:
        try:
            await self._transaction(batch)
            self.commits += 1
            for item in batch:
                if not item.done.done():
                    item.done.set_result(None)
        except Exception:
            if len(batch) == 1:
                self.failures += 1
                log.exception("a write to the store failed")
                if not batch[0].done.done():
                    batch[0].done.set_exception(RuntimeError("the store refused a write"))
                return
            for item in batch:  # find the one that fails; the others still go in, in order
                await self._commit([item])


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


def _insert_moves(conn: Connection, rows: list[dict[str, Any]]) -> None:
    fencing.check_moves(conn, rows)
    conn.execute(insert(moves), rows)
