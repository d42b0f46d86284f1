"""Table options: the durations of rules/DIGITAL.md, all tunable per table.

Two options are about time to react (docs/rules/kittens.md#time-to-react): `timing: "relaxed"`
doubles every reaction window of the table (Nope, defuse, choose), and `extra_time` lists the
seats whose own reaction windows are doubled. `bot_think_ms` is no rule: the engine only
carries it, for the bots the table seats to pace themselves (docs/rules/kittens.md#bots), and
`seat_grace_ms` for the server, which holds an absent person's seat that long.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from cardroom.protocol import InvalidSetup

TIMINGS = ("standard", "relaxed")
RELAXED = ("nope_window_ms", "defuse_ms", "choose_ms")
"""The reaction windows the relaxed timing doubles (the turn timer is no reaction window)."""
EXTRA_TIME = 2
"""How many times longer a reaction window is for a seat granted extra time."""
EXPERT_THINK_MAX_MS = 1000
"""The most `expert_think_ms` may be: every table of a server shares one search worker, so a
table's budget is processor time the others wait for (docs/bots.md#the-expert-level-exploding-kittens)."""


@dataclass(frozen=True, slots=True)
class Options:
    """Durations in milliseconds of play time; the seats granted extra time."""

    nope_window_ms: int = 3000
    nope_early_close: bool = True
    """A Nope window closes as soon as every seat that may answer has passed (docs/rules/
    kittens.md#the-nope-window); false keeps every window its full length."""
    defuse_ms: int = 10000
    explode_ms: int = 2500
    """How long a kitten drawn by a player without a Defuse takes to go off: nothing can be done
    in that time, so it is short (docs/rules/kittens.md#exploding)."""
    turn_ms: int = 60000
    choose_ms: int = 15000
    bot_think_ms: int = 1500
    expert_think_ms: int = 200
    """How long an `expert` bot thinks per decision at a live table (processor time of one
    core, at most EXPERT_THINK_MAX_MS); the rules never read it."""
    seat_grace_ms: int = 30000
    """How long the server holds an absent person's seat before a stand-in plays it (0: at
    once); the rules never read it (docs/rules/kittens.md#stand-ins)."""
    extra_time: tuple[int, ...] = ()
    timing: str = "standard"
    """The preset the durations in force came from ("relaxed": RELAXED windows doubled)."""

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Options:
        """Options from their JSON form; InvalidSetup for an unknown name or a bad value."""
        if isinstance(raw, dict) and not raw:
            return _DEFAULTS  # frozen: one plain object serves every plain table
        known = {f.name for f in fields(cls)} - {"extra_time", "timing"}
        values: dict[str, Any] = {}
        stretch = 1
        extra: tuple[int, ...] = ()
        for name, value in raw.items():
            if name == "variants":
                if not isinstance(value, list | tuple) or value:
                    raise InvalidSetup(f"Exploding Kittens has no variants, got {value!r}")
                continue
            if name == "timing":
                if value not in TIMINGS:
                    raise InvalidSetup(f"timing must be one of {', '.join(TIMINGS)}, not {value!r}")
                stretch = 2 if value == "relaxed" else 1
                continue
            if name == "extra_time":
                if not isinstance(value, list | tuple) or not all(
                    isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in value
                ):
                    raise InvalidSetup("extra_time must be a list of seats")
                extra = tuple(sorted(set(value)))
                continue
            if name == "nope_early_close":
                if not isinstance(value, bool):
                    raise InvalidSetup(f"nope_early_close must be true or false, not {value!r}")
                values[name] = value
                continue
            if name not in known:
                raise InvalidSetup(
                    f"unknown option {name!r} for kittens: expected one of {', '.join(sorted(known))}"
                )
            least = 0 if name in ("bot_think_ms", "seat_grace_ms") else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise InvalidSetup(
                    f"option {name!r} must be a whole number of ms of at least {least}, not {value!r}"
                )
            if name == "expert_think_ms" and value > EXPERT_THINK_MAX_MS:
                raise InvalidSetup(
                    f"option 'expert_think_ms' must be at most {EXPERT_THINK_MAX_MS} ms (the expert bots "
                    f"of every table share one search worker), not {value!r}"
                )
            values[name] = value
        for name in RELAXED:
            values[name] = values.get(name, getattr(_DEFAULTS, name)) * stretch
        return cls(extra_time=extra, timing="relaxed" if stretch == 2 else "standard", **values)

    def check_players(self, players: int) -> None:
        """InvalidSetup when a seat granted extra time is not at a table of `players`."""
        if any(seat >= players for seat in self.extra_time):
            raise InvalidSetup(f"extra_time must be a list of seats from 0 to {players - 1}")

    def window_ms(self, base_ms: int, seats: Iterable[int]) -> int:
        """A reaction window of `base_ms` for `seats`: as long as the longest of their windows,
        so doubled when one of them has extra time."""
        if not self.extra_time:
            return base_ms
        return base_ms * (EXTRA_TIME if any(seat in self.extra_time for seat in seats) else 1)

    def to_json(self) -> dict[str, Any]:
        """The options as a table is created with them: the timing preset and the durations
        before it (so the preset stays visible to everyone), which parsing stretches again."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["extra_time"] = list(self.extra_time)
        if self.timing == "relaxed":
            for name in RELAXED:
                out[name] //= 2
        return out

    def changes(self) -> dict[str, Any]:
        """The options that differ from the defaults: the short form tables are listed with."""
        plain = Options().to_json()
        return {name: value for name, value in self.to_json().items() if value != plain[name]}


_DEFAULTS = Options()
