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
replays exactly. Every method of `random.Random` (shuffle, randrange, choice, sample, gauss...)
draws through `random`, `_randbelow` or `getrandbits`, all three defined here.
"""

from __future__ import annotations

import hashlib
import random
import struct
from typing import Any

_WORDS = 128
"""64-bit words of stream made per hash call (1 KiB): many draws share one call."""
_UNPACK = struct.Struct(f"<{_WORDS}Q").unpack
_PERSON = b"cardroom.rng"
_TWO_TO_MINUS_53 = 2.0**-53
_TWO_TO_64 = 1 << 64
_SMALL = 1 << 32
"""Up to this, a 64-bit draw modulo n is nearly never drawn again; above, the bitwise way."""
_LIMITS = [_TWO_TO_64 - _TWO_TO_64 % n if n else 0 for n in range(257)]
"""For a whole number below n (n up to 256: decks, hands, seats), the draws at or above
`_LIMITS[n]` are drawn again: computed once rather than at every draw."""


class KeyedRandom(random.Random):
    """A deterministic generator of `random.Random`'s interface, keyed by an integer seed.

    The stream is a sequence of 64-bit words: `random` takes one (its top 53 bits), a whole
    number below n one (drawn again in the rare uneven last stretch, so that every result is
    exactly as likely), `getrandbits(k)` one per 64 bits.
    """

    _key: bytes
    _next: int
    _words: list[int]

    def __init__(self, seed: int) -> None:
        super().__init__(seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        if isinstance(a, bool) or not isinstance(a, int):
            raise TypeError(f"a seed is a whole number, not {a!r}")
        self._key = hashlib.blake2b(b"%d" % a, digest_size=32, person=_PERSON).digest()
        self._next = 0
        self._words = []
        self.gauss_next = None

    def _block(self, number: int) -> list[int]:
        """Block `number` of the stream, last word first (draws pop from the end)."""
        data = hashlib.shake_256(self._key + number.to_bytes(8, "little")).digest(_WORDS * 8)
        words = list(_UNPACK(data))
        words.reverse()
        return words

    def _refill(self) -> list[int]:
        self._words = words = self._block(self._next)
        self._next += 1
        return words

    def random(self) -> float:
        words = self._words or self._refill()
        return (words.pop() >> 11) * _TWO_TO_MINUS_53

    def _randbelow(self, n: int) -> int:
        """A whole number in [0, n): what shuffle, choice, sample and randrange draw."""
        if n > _SMALL:
            k = n.bit_length()
            r = self.getrandbits(k)
            while r >= n:
                r = self.getrandbits(k)
            return r
        limit = _LIMITS[n] if n <= 256 else _TWO_TO_64 - _TWO_TO_64 % n
        while True:
            words = self._words or self._refill()
            x = words.pop()
            if x < limit:
                return x % n

    # -- the methods tables and bots call most, drawing exactly as `random.Random`'s own do
    # (the same calls to `_randbelow`, in the same order), without its layers of calls: a game
    # shuffles and draws hundreds of times (issue 16). Anything unusual goes to the original.

    def shuffle(self, x: Any) -> None:
        """`random.Random.shuffle`: from the end, each place swapped with one at or before it."""
        size = len(x)
        if size > _SMALL:
            super().shuffle(x)
            return
        words = self._words
        for i in range(size - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n <= 256 else _TWO_TO_64 - _TWO_TO_64 % n
            while True:
                if not words:
                    words = self._refill()
                r = words.pop()
                if r < limit:
                    break
            j = r % n
            x[i], x[j] = x[j], x[i]

    def choice(self, seq: Any) -> Any:
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def randrange(self, start: Any, stop: Any = None, step: Any = 1) -> int:
        if stop is None and step == 1 and type(start) is int and start > 0:
            return self._randbelow(start)
        return super().randrange(start, stop, step)

    def randint(self, a: int, b: int) -> int:
        if type(a) is int and type(b) is int and b >= a:
            return a + self._randbelow(b - a + 1)
        return super().randint(a, b)

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        """`random.Random.sample` for a list or tuple of at most 21 and k at most 5 (the small
        pool it then draws from: each pick moves the last unpicked item into its place)."""
        n = len(population)
        if counts is not None or not isinstance(population, list | tuple) or n > 21 or not 0 <= k <= 5:
            return super().sample(population, k, counts=counts)
        randbelow = self._randbelow
        pool = list(population)
        result = [None] * k
        for i in range(k):
            j = randbelow(n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
        return result

    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        count = max(1, (k + 63) >> 6)
        x = 0
        for i in range(count):
            words = self._words or self._refill()
            x |= words.pop() << (64 * i)
        return x >> ((count << 6) - k)

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles: a generator made from any seed, then given this one's state."""
        return (type(self), (0,), self.getstate())

    def getstate(self) -> tuple[Any, ...]:
        """The key, the next block's number, and how many words of the current one are left."""
        return (self._key, self._next, len(self._words))

    def setstate(self, state: Any, /) -> None:
        key, following, left = state
        self._key, self._next = key, following
        self._words = self._block(following - 1)[:left] if following > 0 else []
        self.gauss_next = None
