"""Bots for every game, found by game name.

Bots sit outside the engines (an engine never imports its players); everything that seats a
bot (simulate, the terminal game, the server) asks here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.protocol import Bot, InvalidSetup

LEVELS: dict[str, tuple[str, ...]] = {
    "burrito": ("easy", "normal", "hard"),
    "kittens": ("random", "easy", "normal", "hard", "expert"),
}
DEFAULT_LEVEL = "normal"


def levels(game: str) -> tuple[str, ...]:
    """The bot levels of `game`, weakest first."""
    if game not in LEVELS:
        raise InvalidSetup(f"no bots for game {game!r}")
    return LEVELS[game]


def check_level(game: str, level: str) -> str:
    """`level` if `game` has bots of that level; InvalidSetup with the choices otherwise."""
    if level not in levels(game):
        raise InvalidSetup(f"unknown bot level {level!r}: expected one of {', '.join(levels(game))}")
    return level


def make_bot(
    game: str, seat: int, level: str, seed: int, live: bool = False, options: Mapping[str, Any] | None = None
) -> Bot[Any]:
    """A bot of `level` for `seat` at a table of `game`, deterministic from `seed`.

    `live`: the bot plays at a table in real time (the server, the terminal game). A bot that
    searches then thinks for a set time off the caller's thread; in virtual time (`live` false)
    it thinks for a set number of steps instead, so that games replay from their seeds.
    `options`: the table's (an Exploding Kittens table sets the expert's `expert_think_ms`)."""
    check_level(game, level)
    if game == "burrito":
        from cardroom.bots.burrito import make_bot as burrito_bot

        return burrito_bot(seat, level, seed)
    from cardroom.bots.kittens import make_bot as kittens_bot

    think = (options or {}).get("expert_think_ms")
    return kittens_bot(seat, level, seed, live, think if isinstance(think, int) else None)
