"""How long this server takes to acknowledge an action, and how late its event loop runs,
measured inside it (issue 26).

A load test measures latency from its own clients, whose loop is busy too: at 200 tables its
one process read 8,000 messages a second and ran late by up to 140 ms (p99), which it counted
in every acknowledgement it timed. These figures leave the network and the clients out: an
action from the moment the server handles it to the moment its acknowledgement is queued
(after the disk, on a durable store), and the lateness of the lobby's housekeeping, due every
quarter of a second (a frame that waits behind a busy loop waits about that long). `/healthz`
shows both, and `bench.load` reads them at the start and end of its window.

Counts by bucket, not a list of times: adding one costs a bisection of a fixed table, whatever
the number of actions, and two readings subtract to the window between them.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Sequence

from cardroom.protocol import JSON

BOUNDS_MS: tuple[float, ...] = tuple(round(0.05 * 1.1**i, 4) for i in range(150))
"""Each bucket's upper bound (ms), a tenth above the one before: 0.05 ms to about 80 s; the
last bucket holds anything longer. A percentile is known to a tenth of itself."""


class Histogram:
    """Times in ms, counted by bucket of BOUNDS_MS."""

    def __init__(self) -> None:
        self.counts = [0] * (len(BOUNDS_MS) + 1)

    def add(self, ms: float) -> None:
        self.counts[bisect_left(BOUNDS_MS, ms)] += 1

    def summary(self) -> JSON:
        """The count, p50 and p99 (the upper bound of their buckets), and the counts themselves
        (for a reader that subtracts two readings: `percentile`)."""
        return {
            "count": sum(self.counts),
            "p50": percentile(self.counts, 50),
            "p99": percentile(self.counts, 99),
            "buckets": list(self.counts),
        }


def percentile(counts: Sequence[int], q: float) -> float | None:
    """The upper bound (ms) of the bucket holding the `q`th percentile of `counts` (a
    Histogram's, or the difference of two), None when empty, infinity past the last bound."""
    total = sum(counts)
    if total == 0:
        return None
    rank = q / 100 * total
    seen = 0
    for i, n in enumerate(counts):
        seen += n
        if seen >= rank and n:
            return BOUNDS_MS[i] if i < len(BOUNDS_MS) else float("inf")
    return float("inf")


class Latency:
    """A server's acknowledgements and its loop's lateness (`Lobby.latency`)."""

    def __init__(self) -> None:
        self.ack = Histogram()
        self.loop_lag = Histogram()

    def acknowledged(self, began: float) -> None:
        """An action handled from `began` (`time.perf_counter()`) is acknowledged now."""
        self.ack.add(1000 * (time.perf_counter() - began))

    def late(self, seconds: float) -> None:
        """The housekeeping woke `seconds` after it was due."""
        self.loop_lag.add(1000 * max(0.0, seconds))

    def health(self) -> JSON:
        return {"ack_ms": self.ack.summary(), "loop_lag_ms": self.loop_lag.summary()}
