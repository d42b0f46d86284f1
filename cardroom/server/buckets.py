"""Limits per key (addresses, names) in tables of fixed size: what many keys may do.

A limit kept per key must not grow with the keys a client invents: every refused login with a
new name, every guest from a new address adds one. Here each key is hashed to a short digest
(a 16 KiB name costs what a short one does), an update touches that key's entry only, and past
`size` keys the least recently used one is dropped (`Recent`): the memory is bounded, and an
update costs the same with ten keys held as with the table full. A dropped key starts afresh,
so `size` must be well above the keys active within one window (a key is dropped only after
`size` other keys were used since it).
"""

from __future__ import annotations

import hashlib
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

SIZE = 20_000
"""Keys a table holds by default: a few megabytes at most."""

T = TypeVar("T")


def digest(*parts: str) -> bytes:
    """The key of `parts`: 16 bytes, whatever their length."""
    return hashlib.blake2b("\x00".join(parts).encode(errors="surrogatepass"), digest_size=16).digest()


class Recent(Generic[T]):
    """What is kept per key, for the `size` keys used most recently."""

    def __init__(self, size: int, make: Callable[[], T]) -> None:
        self.size = size
        self.make = make
        self.table: OrderedDict[bytes, T] = OrderedDict()
        """Key digest -> its entry, least recently used first."""

    def __len__(self) -> int:
        return len(self.table)

    def __getitem__(self, key: tuple[str, ...]) -> T:
        """`key`'s entry, made new (the oldest dropped if the table is full) or moved last."""
        name = digest(*key)
        entry = self.table.pop(name, None)
        if entry is None:
            entry = self.make()
            if len(self.table) >= self.size:
                self.table.popitem(last=False)
        self.table[name] = entry
        return entry


class Buckets:
    """A token bucket per key: `rate` tokens a second, holding up to `burst`."""

    def __init__(
        self, rate: float, burst: float, size: int = SIZE, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.recent: Recent[list[float]] = Recent(size, lambda: [burst, clock()])
        """Per key: [tokens, when they were counted]."""

    def __len__(self) -> int:
        return len(self.recent)

    def allow(self, *key: str) -> bool:
        """Take a token from `key`'s bucket: False (nothing taken) when it is empty."""
        bucket = self.recent[key]
        now = self.clock()
        bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
        bucket[1] = now
        if bucket[0] < 1:
            return False
        bucket[0] -= 1
        return True


class Windows:
    """`limit` attempts per key in any `window_s`: exactly "20 a minute", where a bucket would
    give one back every 3 s. Each key keeps the times of its last `limit` attempts at most."""

    def __init__(
        self, limit: int, window_s: float, size: int = SIZE, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window_s = window_s
        self.clock = clock
        self.recent: Recent[array[float]] = Recent(size, lambda: array("d"))

    def __len__(self) -> int:
        return len(self.recent)

    def allow(self, *key: str) -> bool:
        """Count an attempt of `key`: False (not counted) when it made `limit` in the window."""
        times = self.recent[key]
        now = self.clock()
        expired = 0
        while expired < len(times) and now - times[expired] >= self.window_s:
            expired += 1
        del times[:expired]
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True
