"""The random generator of every table and bot: a keyed hash stream, so outputs reveal no state.

Python's own `random.Random` (Mersenne Twister) is fast but not a secret keeper: a few hundred
of its outputs give its whole state, and a small seed can simply be searched for from one's
own hand. `KeyedRandom` is a `random.Random` whose bits come from SHAKE-256 of a key and a
block counter, the key being a BLAKE2b hash of the seed: seeing any number of its outputs
(the cards one is dealt, where a Shuffle put them, a bot's choices) tells nothing about the
seed or the outputs still to come, unless one can guess the seed itself. A live table's seed
is 256 bits from the operating system (`cardroom.server.room`); the short seeds of scenario
files and `--seed` go through the same generator, for reproducible play.

Same seed, same outputs: the generator is deterministic, so a record (options, seed, moves)
replays exactly. Every method of `random.Random` (shuffle, randrange, choice, random...) draws
from `getrandbits` or `random`, both defined here.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

_BLOCK = 1024
"""Bytes of stream made per hash call: many draws share one call."""

_PERSON = b"cardroom.rng"
_TWO_TO_MINUS_53 = 2.0**-53


class KeyedRandom(random.Random):
    """A deterministic generator of `random.Random`'s interface, keyed by an integer seed."""

    _key: bytes
    _next: int
    _pos: int
    _buf: bytes

    def __init__(self, seed: int) -> None:
        super().__init__(seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        if isinstance(a, bool) or not isinstance(a, int):
            raise TypeError(f"a seed is a whole number, not {a!r}")
        self._key = hashlib.blake2b(b"%d" % a, digest_size=32, person=_PERSON).digest()
        self._next = 0
        self._pos = 0
        self._buf = b""
        self.gauss_next = None

    def _block(self, number: int) -> bytes:
        return hashlib.shake_256(self._key + number.to_bytes(8, "little")).digest(_BLOCK)

    def _bytes(self, n: int) -> bytes:
        pos = self._pos
        end = pos + n
        if end <= len(self._buf):
            self._pos = end
            return self._buf[pos:end]
        parts = [self._buf[pos:]]
        need = n - len(parts[0])
        while True:
            self._buf = self._block(self._next)
            self._next += 1
            if need <= _BLOCK:
                parts.append(self._buf[:need])
                self._pos = need
                return b"".join(parts)
            parts.append(self._buf)
            need -= _BLOCK

    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        n = (k + 7) >> 3
        return int.from_bytes(self._bytes(n), "little") >> ((n << 3) - k)

    def random(self) -> float:
        return self.getrandbits(53) * _TWO_TO_MINUS_53

    def getstate(self) -> tuple[Any, ...]:
        """The key, the next block's number, and the position in the current block."""
        return (self._key, self._next, self._pos)

    def setstate(self, state: Any, /) -> None:
        key, following, pos = state
        self._key, self._next, self._pos = key, following, pos
        self._buf = self._block(following - 1) if following > 0 else b""
        self.gauss_next = None
