"""Small builders so that each rule test reads like the rulebook."""

from __future__ import annotations

from typing import Any

from cardroom.games.burrito import GAME, BurritoTable
from cardroom.protocol import JSON, Rejected

# War cards left in a community pile keep a battle set possible, so rounds do not end early.
SPARE = [["war", "war", "war"], ["goth_sloth", "goth_sloth"]]
CLOCK = {"flight_ms": 800, "flight_min_ms": 300, "catch_window_ms": 300, "tie_ms": 50}
"""The fight's clock these rule tests were written with (the defaults before issue 21): pinned,
so that each test checks its rule whatever the defaults (docs/rules/burrito.md#a-fights-clock)."""


def table(
    players: int = 3,
    hands: list[list[str]] | None = None,
    piles: list[list[str]] | None = None,
    community: list[list[str]] | None = None,
    options: dict[str, Any] | None = None,
    **deal: Any,
) -> BurritoTable:
    """A table in play at time 0, exactly as described (empty hands and piles by default)."""
    full: dict[str, Any] = {
        "hands": hands if hands is not None else [[] for _ in range(players)],
        "piles": piles if piles is not None else [[] for _ in range(players)],
        "community": community if community is not None else SPARE,
        **deal,
    }
    return GAME.from_deal(players, {**CLOCK, **(options or {})}, full, seed=1)


def act(t: BurritoTable, player: int, raw: JSON, at: int | None = None) -> list[JSON] | Rejected:
    """Run the timers up to `at`, then the action; the events in full (hidden parts included)."""
    at = t.now if at is None else at
    before = [e.full() for e in t.advance(at)]
    result = t.apply(player, GAME.parse_action(raw, t.players), at)
    if isinstance(result, Rejected):
        return result
    return before + [e.full() for e in result]


def ok(t: BurritoTable, player: int, raw: JSON, at: int | None = None) -> list[JSON]:
    """`act`, which must be accepted."""
    result = act(t, player, raw, at)
    assert not isinstance(result, Rejected), result
    return result


def refused(t: BurritoTable, player: int, raw: JSON, at: int | None = None) -> str:
    """`act`, which must be refused without changing anything: the rejection's code."""
    if at is not None:
        t.advance(at)
    before = t.snapshot()
    result = t.apply(player, GAME.parse_action(raw, t.players), t.now)
    assert isinstance(result, Rejected), result
    assert t.snapshot() == before
    return result.code


def run(t: BurritoTable, to: int) -> list[JSON]:
    return [e.full() for e in t.advance(to)]


def kinds(events: list[JSON]) -> list[str]:
    return [e["event"] for e in events]


def only(events: list[JSON], kind: str) -> JSON:
    found = [e for e in events if e["event"] == kind]
    assert len(found) == 1, (kind, events)
    return found[0]


def brawl_table(players: int = 4, **kwargs: Any) -> BurritoTable:
    """Seat 0 holds a brawl set; nothing else is going on."""
    hands = [["brawl_a"] * 3] + [[] for _ in range(players - 1)]
    return table(players, hands=hands, **kwargs)


def in_brawl(players: int = 4, **kwargs: Any) -> BurritoTable:
    """Seat 0 has just called a Brawl at time 0: seats 1 and n-1 fight."""
    t = brawl_table(players, **kwargs)
    ok(t, 0, {"do": "call", "fight": "brawl"}, 0)
    return t
