"""The search worker: one process that runs the searching bots' thinking for every table of a
server (or of a terminal game), so that the event loop never waits for a search (issue 22).

Fair shares: the worker never runs one search to its end while others wait. It runs searches a
slice at a time (a job's `step`: for the expert, every move it still weighs played out on one
more sampled table, a few milliseconds), the tables taking turns, and each table's searches
taking turns within it. With searches running at T tables, each table gets 1/T of the core
whatever budget the others asked for: a table cannot starve another.

In time: each search is handed the wall time it has (`wall_s`); once that has passed the
worker answers with the best it found so far (the job's `answer`), so an answer comes before
the decision's timer, however busy the worker is. The bot plays its own fallback if the answer
is not there all the same (cardroom/bots/kittens_expert.py).

Ending with its server: the worker ends when the process that started it does, however that
one ends. Its pipe to the server reads as closed once the server is gone (SIGKILL included: the
kernel closes a dead process's files), and it checks its parent's pid between slices and at
least every `WATCH_S` while idle. A server that stops cleanly also stops it (`stop`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
import weakref
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Protocol

WATCH_S = 0.5
"""How often an idle worker checks that its server is still there."""
STOP_S = 2.0
"""How long `stop` waits for the worker to end before it is killed."""


class Job(Protocol):
    """A search run a slice at a time."""

    def step(self) -> bool:
        """Run one slice; False once the job wants no more (its answer is ready)."""
        ...

    def answer(self) -> Any:
        """The best answer found so far."""
        ...


@dataclass(slots=True)
class _Running:
    ident: int
    job: Job
    give_up: float
    """time.monotonic() after which the job answers with what it has."""


class Ticket:
    """A search handed to the worker: its answer, once there. A ticket dropped unread (its bot
    gone with its table) drops its search: the worker stops it, and its answer is not kept."""

    __slots__ = ("__weakref__", "_ident", "_worker")

    def __init__(self, worker: SearchWorker, ident: int) -> None:
        self._worker = worker
        self._ident = ident
        # Only noted here: a finalizer may run in the middle of a send, the drop is sent later.
        weakref.finalize(self, worker._abandoned.append, ident)

    def done(self) -> bool:
        """Whether the answer (or the news that none will come) is there."""
        return self._worker._done(self._ident)

    def result(self, fallback: Any) -> Any:
        """The answer; `fallback` when the search failed (the worker died or the job raised)."""
        return self._worker._take(self._ident, fallback)

    def cancel(self) -> None:
        """The answer is no longer wanted: the worker drops the search."""
        self._worker._drop(self._ident)


_FAILED = object()


class SearchWorker:
    """The server's end of the worker process: hands jobs over, collects their answers. Used
    from one thread (the server's event loop, the terminal game's loop)."""

    def __init__(self) -> None:
        self._conn: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._next = 0
        self._waiting: set[int] = set()
        self._answers: dict[int, Any] = {}
        self._abandoned: list[int] = []
        """Searches whose tickets were dropped unread, to drop at the next exchange."""

    def start(self) -> None:
        """Start the worker process now (not at the first decision), unless it runs."""
        if self._process is not None and self._process.is_alive():
            return
        self._lost()
        context = multiprocessing.get_context("spawn")  # not forked from a server that runs threads
        mine, theirs = context.Pipe()
        process = context.Process(
            target=_serve, args=(theirs, os.getpid()), name="cardroom-search", daemon=True
        )
        process.start()
        theirs.close()  # the worker's end lives in the worker only: its closing is news
        self._conn, self._process = mine, process

    def submit(self, table: Hashable, wall_s: float, make: Callable[[Any], Job], arg: Any) -> Ticket:
        """Run `make(arg)` in the worker, sharing it fairly with the other tables' searches,
        answering within `wall_s` seconds."""
        self.start()
        self._forget_abandoned()
        self._next += 1
        ident = self._next
        self._waiting.add(ident)
        self._send(("search", ident, table, wall_s, make, arg))
        return Ticket(self, ident)

    def stop(self) -> None:
        """End the worker (the server stops); a later search starts a new one."""
        process, conn = self._process, self._conn
        if process is None or conn is None:
            return
        with contextlib.suppress(OSError):
            conn.send(("stop",))
        process.join(STOP_S)
        if process.is_alive():
            process.kill()
            process.join()
        self._lost()

    @property
    def pid(self) -> int | None:
        """The worker's process id, while it runs."""
        return self._process.pid if self._process is not None and self._process.is_alive() else None

    # -- the tickets' side ----------------------------------------------------------------------

    def _send(self, message: tuple[Any, ...]) -> None:
        conn = self._conn
        if conn is None:
            return
        try:
            conn.send(message)
        except OSError:  # the worker died: its searches will not answer
            self._lost()

    def _forget_abandoned(self) -> None:
        while self._abandoned:
            self._drop(self._abandoned.pop())

    def _collect(self) -> None:
        self._forget_abandoned()
        conn = self._conn
        if conn is None:
            return
        try:
            while conn.poll():
                ident, ok, answer = conn.recv()
                if ident in self._waiting:
                    self._answers[ident] = answer if ok else _FAILED
        except (EOFError, OSError):
            self._lost()

    def _lost(self) -> None:
        """The worker is gone: every search still waiting fails (its bot falls back)."""
        for ident in self._waiting:
            self._answers.setdefault(ident, _FAILED)
        if self._conn is not None:
            self._conn.close()
        self._conn = None
        if self._process is not None and not self._process.is_alive():
            self._process.join()
        self._process = None

    def _done(self, ident: int) -> bool:
        if ident not in self._answers:
            self._collect()
        return ident in self._answers

    def _take(self, ident: int, fallback: Any) -> Any:
        self._waiting.discard(ident)
        answer = self._answers.pop(ident, _FAILED)
        return fallback if answer is _FAILED else answer

    def _drop(self, ident: int) -> None:
        if ident in self._waiting:
            self._waiting.discard(ident)
            self._answers.pop(ident, None)
            self._send(("drop", ident))


# -- the worker process ------------------------------------------------------------------------


def _serve(conn: Connection, parent: int) -> None:
    """The worker's loop: take in requests, run one slice of the next table's next search,
    answer finished ones; end with the server."""
    # Ctrl+C in a terminal reaches the whole process group: the server decides, and stops us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tables: dict[Hashable, deque[_Running]] = {}
    turns: deque[Hashable] = deque()
    where: dict[int, Hashable] = {}
    while os.getppid() == parent:
        try:
            ready = conn.poll(0 if turns else WATCH_S)
            while ready:
                message = conn.recv()
                if message[0] == "stop":
                    return
                if message[0] == "drop":
                    table = where.pop(message[1], None)
                    if table is not None:
                        _forget(tables, turns, table, message[1])
                else:
                    _, ident, table, wall_s, make, arg = message
                    running = _Running(ident, make(arg), time.monotonic() + wall_s)
                    if table not in tables:
                        tables[table] = deque()
                        turns.append(table)
                    tables[table].append(running)
                    where[ident] = table
                ready = conn.poll(0)
        except (EOFError, OSError):  # the server is gone
            return
        if not turns:
            continue
        table = turns[0]
        turns.rotate(-1)
        queue = tables[table]
        running = queue[0]
        queue.rotate(-1)
        ok, answer = True, None
        try:
            more = running.job.step() and time.monotonic() < running.give_up
            if not more:
                answer = running.job.answer()
        except Exception:  # a search that fails must not end the others: its bot falls back
            more = ok = False
        if more:
            continue
        where.pop(running.ident, None)
        _forget(tables, turns, table, running.ident)
        try:
            conn.send((running.ident, ok, answer))
        except OSError:
            return


def _forget(
    tables: dict[Hashable, deque[_Running]], turns: deque[Hashable], table: Hashable, ident: int
) -> None:
    queue = tables[table]
    for running in list(queue):
        if running.ident == ident:
            queue.remove(running)
    if not queue:
        del tables[table]
        turns.remove(table)
