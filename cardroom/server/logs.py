"""The server's log never says the same thing thousands of times a second (issue 22).

Out of file descriptors, asyncio logged every refused `accept`, traceback and all, up to 2,048
times per try, every second: 225 MB of "Too many open files". `Repeats` lets the first few
records of a kind through in each window and counts the rest; the next record of that kind
let through says how many were left out, and `flush` (when the server stops) says it of every
kind still owed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

from cardroom.server.buckets import Recent

BURST = 5
"""Records of one kind let through in each window."""
WINDOW_S = 10.0
KINDS = 512
"""Kinds of records remembered (the least recently seen is forgotten past it)."""


class Count:
    """One kind of record in the current window."""

    __slots__ = ("left_out", "let_through", "since", "text")

    def __init__(self, since: float, text: str) -> None:
        self.since = since
        self.let_through = 0
        self.left_out = 0
        self.text = text


class Repeats(logging.Filter):
    """A filter for the handlers: a kind of record (its logger, level, first line as written,
    and exception type) gets `burst` records through every `window_s`; the others are counted.
    Lines that differ (an access log's, each naming its client) are kinds of their own."""

    def __init__(
        self,
        burst: int = BURST,
        window_s: float = WINDOW_S,
        kinds: int = KINDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.burst = burst
        self.window_s = window_s
        self.clock = clock
        self.counts: Recent[Count] = Recent(kinds, lambda: Count(clock(), ""))
        self.left_out = 0
        """Records left out of the log since the start."""

    def filter(self, record: logging.LogRecord) -> bool:
        verdict = getattr(record, "cardroom_repeats", None)  # seen at another handler already
        if verdict is not None:
            return bool(verdict)
        text = record.getMessage().split("\n", 1)[0][:200]  # as written: access lines differ
        error = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        count = self.counts[(record.name, str(record.levelno), text, error)]
        count.text = text
        now = self.clock()
        if now - count.since >= self.window_s:
            count.since, count.let_through = now, 0
        passes = count.let_through < self.burst
        if passes:
            count.let_through += 1
            if count.left_out:
                record.msg = f"{record.msg}\n({self._owed(count)})"
                count.left_out = 0
        else:
            count.left_out += 1
            self.left_out += 1
        record.cardroom_repeats = passes
        return passes

    def _owed(self, count: Count) -> str:
        return f"{count.left_out} more like this were left out of the log"

    def flush(self, log: logging.Logger) -> None:
        """Say, for each kind with records left out since its last one let through, how many."""
        for count in list(self.counts.table.values()):
            if count.left_out:
                log.warning("%s: %s", count.text, self._owed(count))
                count.left_out = 0


def quiet(loggers: Iterable[str] = ("", "uvicorn", "uvicorn.access")) -> Repeats:
    """Put one `Repeats` on every handler of these loggers (the root's and uvicorn's, which do not
    pass their records on); it is returned, to `flush` when the server stops."""
    repeats = Repeats()
    for name in loggers:
        for handler in logging.getLogger(name).handlers:
            handler.addFilter(repeats)
    return repeats
