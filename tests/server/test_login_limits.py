"""Issue 22: the login limiter must not slow down as it fills (cardroom/server/api.py `Attempts`).

Refused logins with ever new names each added a key; past 10,000 keys every attempt rebuilt the
whole table, and logins fell from 1,814 to 60 a second. These tests count what an attempt
allocates and what the table holds, not time.
"""

from __future__ import annotations

import tracemalloc

from cardroom.server.api import ATTEMPTS_PER_MINUTE, Attempts


def _allocated_by(attempts: Attempts, who: tuple[str, ...]) -> int:
    """The most memory (bytes) one attempt had allocated at once."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        attempts.allow(who)
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def test_an_attempt_costs_the_same_however_many_keys_are_held() -> None:
    attempts = Attempts()
    for i in range(200):
        attempts.allow(("login", "203.0.113.7", f"guess {i}"))
    few = _allocated_by(attempts, ("login", "203.0.113.7", "one more"))
    for i in range(12_000):
        attempts.allow(("login", "203.0.113.7", f"another guess {i}"))
    many = _allocated_by(attempts, ("login", "203.0.113.7", "and one more"))
    # A rebuilt table of 12,000 keys is hundreds of kilobytes; one entry is a few hundred bytes.
    assert many < 4 * max(few, 1024), (few, many)


def test_the_table_of_attempts_is_bounded_and_keeps_the_recent_keys() -> None:
    attempts = Attempts(size=1_000)
    for _ in range(ATTEMPTS_PER_MINUTE):
        assert attempts.allow(("login", "198.51.100.1", "anna"))
    long_name = "x" * 16_000  # a name no account can have is counted all the same
    for _ in range(ATTEMPTS_PER_MINUTE):
        assert attempts.allow(("login", "198.51.100.1", long_name))
    for i in range(5_000):
        attempts.allow(("login", "198.51.100.1", "anna"))  # still refused, still the newest
        attempts.allow(("login", "198.51.100.2", f"name {i}"))
    assert len(attempts) <= 1_000
    assert not attempts.allow(("login", "198.51.100.1", "anna"))
