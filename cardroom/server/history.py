"""A table's recent event batches, so that a reconnecting client gets what it missed."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import msgspec

from cardroom.protocol import Event

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(tuple[Event, ...])


class Batch(msgspec.Struct, frozen=True, gc=False):
    """Events that happened together, at table version `v`, at play time `at`.

    The events are kept packed (msgpack bytes) and unpacked when read: a thousand batches per
    table then hold no objects for the garbage collector to scan, and its pauses stay short.
    """

    v: int
    at: int
    packed: bytes

    @classmethod
    def of(cls, v: int, at: int, events: Iterable[Event]) -> Batch:
        return cls(v, at, _encoder.encode(tuple(events)))

    @property
    def events(self) -> tuple[Event, ...]:
        return _decoder.decode(self.packed)


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
