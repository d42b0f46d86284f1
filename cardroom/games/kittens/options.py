"""Table options: the durations of rules/DIGITAL.md, all tunable per table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from cardroom.protocol import InvalidSetup


@dataclass(frozen=True, slots=True)
class Options:
    """Durations in milliseconds of play time."""

    nope_window_ms: int = 3000
    defuse_ms: int = 10000
    turn_ms: int = 60000
    choose_ms: int = 15000
    expert_think_ms: int = 200
    """How long an `expert` bot thinks per decision at a live table (processor time of one
    core); the rules never read it."""

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Options:
        """Options from their JSON form; InvalidSetup for an unknown name or a bad value."""
        known = {f.name for f in fields(cls)}
        values: dict[str, int] = {}
        for name, value in raw.items():
            if name == "variants":
                if value:
                    raise InvalidSetup(f"Exploding Kittens has no variants, got {value!r}")
                continue
            if name not in known:
                raise InvalidSetup(
                    f"unknown option {name!r} for kittens: expected one of {', '.join(sorted(known))}"
                )
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise InvalidSetup(f"option {name!r} must be a positive integer (ms), not {value!r}")
            values[name] = value
        return cls(**values)

    def to_json(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
