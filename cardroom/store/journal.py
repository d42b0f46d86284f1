"""The journal: every write of a running server, in order, committed in groups.

A table must not wait for the disk between two actions, and an action must not be
acknowledged before it is on disk. So writes queue here; one task commits whatever has queued
in one transaction (a group commit) and then resolves each write's future. Under load, one
commit carries many actions; when idle, each goes at once. Runs of move rows share one
`executemany`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardroom.store.schema import moves

log = logging.getLogger("cardroom.store")

Op = Callable[[AsyncConnection], Awaitable[Any]]


@dataclass(slots=True)
class _Write:
    op: Op | None  # None: a move row (`row`), batched with its neighbours
    row: dict[str, Any] | None
    done: asyncio.Future[None]


class Journal:
    """Ordered, grouped writes: `write(op)` and `move(row)` return futures resolved on commit."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
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

    def move(self, game_id: str, seq: int, at: int, player: int, action: Any) -> asyncio.Future[None]:
        row = {"game_id": game_id, "seq": seq, "at": at, "player": player, "action": action}
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

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.pending:
                batch, self.pending = self.pending, []
                await self._commit(batch)
            self.idle.set()

    async def _commit(self, batch: list[_Write]) -> None:
        try:
            async with self.engine.begin() as conn:
                await _apply(conn, batch)
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


async def _apply(conn: AsyncConnection, batch: list[_Write]) -> None:
    rows: list[dict[str, Any]] = []
    for item in batch:
        if item.op is None:
            assert item.row is not None
            rows.append(item.row)
            continue
        if rows:
            await conn.execute(insert(moves), rows)
            rows = []
        await item.op(conn)
    if rows:
        await conn.execute(insert(moves), rows)
