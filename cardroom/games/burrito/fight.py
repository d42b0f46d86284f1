"""The arena of one fight: who fights, who holds which burrito, what is in the air.

A fight is a small mutable record owned by the table; it holds no rules, only the state the
rules in `table.py` read and change, so that a snapshot of it is a plain tuple.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

NO_BEAT = 4  # a countdown's beat index once "Burrito!" has been said
BEATS = ("3", "2", "1", "burrito")


@dataclass(slots=True)
class Flight:
    """One throw. Before `leaves_at` it is behind the thrower's back (small room, two players)."""

    id: int
    thrower: int
    target: int
    thrown_at: int
    leaves_at: int
    lands_at: int
    catch_from: int
    left: bool
    dodged: bool = False

    @property
    def flight_ms(self) -> int:
        """How long it is in the air, from leaving the thrower's hand (or back) to landing."""
        return self.lands_at - self.leaves_at

    def key(self) -> tuple[int, ...]:
        return (
            self.id,
            self.thrower,
            self.target,
            self.thrown_at,
            self.leaves_at,
            self.lands_at,
            self.catch_from,
            self.left,
            self.dodged,
        )


@dataclass(slots=True)
class Fight:
    """A fight in progress.

    `tiebreak` is None for a fight called with cards (its loser takes a bruise), "round_tie" or
    "badge" for the fights that settle a round or the game (no bruise; a hit fighter is out
    and the last one in wins). `fighters` are those still in.
    """

    kind: str
    fighters: list[int]
    caller: int | None
    callers: list[int]
    tiebreak: str | None
    started_at: int
    timeout_at: int
    call_until: int
    holding: list[int]
    free: int
    throws: list[int]
    last_act: list[int]
    flights: list[Flight] = field(default_factory=list)
    beat: int = NO_BEAT
    beat_start: int = 0
    go_at: int | None = None
    hits: list[int] = field(default_factory=list)
    decide_at: int | None = None

    @property
    def decided(self) -> bool:
        """A hit has happened: the fight only waits for hits within the tie window."""
        return bool(self.hits)

    def key(self) -> tuple[Any, ...]:
        return (
            self.kind,
            tuple(self.fighters),
            self.caller,
            tuple(self.callers),
            self.tiebreak,
            self.started_at,
            self.timeout_at,
            self.call_until,
            tuple(self.holding),
            self.free,
            tuple(self.throws),
            tuple(self.last_act),
            tuple(f.key() for f in self.flights),
            self.beat,
            self.beat_start,
            self.go_at,
            tuple(self.hits),
            self.decide_at,
        )


def flight_time(nth: int, flight_ms: int, speedup_pct: int, min_ms: int) -> int:
    """How long a fighter's `nth` throw of a fight flies (0 = first).

    Each further throw takes (100 - speedup_pct) per cent of the previous one's time, rounded
    down at every step, and never less than `min_ms`.
    """
    ms = flight_ms
    for _ in range(nth):
        if ms <= min_ms:
            break
        ms = ms * (100 - speedup_pct) // 100
    return max(ms, min_ms)
