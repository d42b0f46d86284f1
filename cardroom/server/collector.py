"""When the server collects its garbage: the collector's thresholds, and a full collection on a
slow timer once tables or connections have closed.

A full collection stalls every table for as long as it walks the heap, so the automatic
collector is tuned to run rarely (`THRESHOLDS`): the youngest generation once 50,000 objects
more were made than freed, the older ones almost never. But a finished table and a closed
connection are reference cycles (a room and its driver, bots and timers; a websocket, its
task, its protocol and transport), and many have lived through a young collection by the time
they close: left to the automatic collector they wait in the old generations for hours, and the
memory they hold is not used again meanwhile. The soak run (`make soak`) measured the server's
resident memory 17 % up after half an hour of games with the automatic collector alone.

So the lobby's housekeeping calls `Collector.tick` (every few seconds, between the tables'
work), and once something closed it collects every generation, at most once per `every_s`: it
took 4 to 11 ms in the soak's server of eight tables on a busy machine, and grows with the
number of objects the live tables and connections hold. What a collection frees goes back to the
allocator for the next tables; `malloc_trim` then hands glibc's free pages back to the system.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger("cardroom.server")

THRESHOLDS = (50_000, 50, 1_000)
"""`gc.set_threshold` for the server: young collections of a few tens of thousands of objects,
old ones left to `Collector`."""
COLLECT_EVERY_S = 60.0
"""At most one full collection a minute, and only after a table or connection closed."""


def tune() -> None:
    """The server's collector settings, once at start: `THRESHOLDS`, and everything made while
    starting (modules, catalogs, rules) set aside for good, so no collection walks it again."""
    gc.set_threshold(*THRESHOLDS)
    gc.freeze()


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None under another C library (musl, macOS): nothing to trim."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


class Collector:
    """Full collections off the tables' path: `closed()` when a table or connection goes,
    `tick()` from the housekeeping.

    A close is collected from the tick after the one that first saw it: a closed table's tasks
    are cancelled, not yet finished, and until they finish they still hold it."""

    def __init__(self, every_s: float = COLLECT_EVERY_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.every_s = every_s
        self.clock = clock
        self.fresh = False
        """Something closed since the last tick."""
        self.settled = False
        """Something closed before the last tick, not collected since."""
        self.last = clock()
        self.collections = 0
        self.trim = _malloc_trim()

    def closed(self) -> None:
        self.fresh = True

    def tick(self) -> bool:
        """Collect if something closed before the last tick and the last collection is `every_s`
        old; whether it did."""
        collected = self.settled and self.clock() - self.last >= self.every_s
        if collected:
            self.collect()
        self.settled = self.settled or self.fresh
        self.fresh = False
        return collected

    def collect(self) -> int:
        """Collect every generation now, give glibc's free pages back; the objects freed."""
        started = time.perf_counter()
        freed = gc.collect()
        if self.trim is not None:
            self.trim(0)
        self.settled = False
        self.last = self.clock()
        self.collections += 1
        log.debug("collected %d objects in %.1f ms", freed, 1000 * (time.perf_counter() - started))
        return freed
