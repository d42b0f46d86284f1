"""A table's recent event batches, so that a reconnecting client gets what it missed."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from cardroom.protocol import Event


@dataclass(frozen=True, slots=True)
class Batch:
    """Events that happened together, at table version `v`, at play time `at`."""

    v: int
    at: int
    events: tuple[Event, ...]


class History:
    """The last `size` batches. `since(v)` is None when v is too old: resync in full."""

    def __init__(self, size: int = 1000) -> None:
        self._batches: deque[Batch] = deque(maxlen=size)

    def add(self, batch: Batch) -> None:
        self._batches.append(batch)

    def clear(self) -> None:
        self._batches.clear()

    def since(self, v: int, current: int) -> list[Batch] | None:
        if v == current:
            return []
        if v > current or v < 0:
            return None
        if not self._batches or self._batches[0].v > v + 1:
            return None
        return [b for b in self._batches if b.v > v]
