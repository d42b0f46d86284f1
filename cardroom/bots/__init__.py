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
    game: str,
    seat: int,
    level: str,
    seed: int,
    live: bool = False,
    options: Mapping[str, Any] | None = None,
    table: str | None = None,
) -> Bot[Any]:
    """A bot of `level` for `seat` at a table of `game`, deterministic from `seed`.

    `live`: the bot plays at a table in real time (the server, the terminal game). A bot that
    searches then thinks for a set time off the caller's thread; in virtual time (`live` false)
    it thinks for a set number of steps instead, so that games replay from their seeds.
    `options`: the options of the table it sits at, which pace its decisions like a person's
    (Exploding Kittens' `bot_think_ms`, and the expert's `expert_think_ms`; Throw Throw
    Burrito's bots always react in a person's time, DIGITAL.md); None for a bot that plays as
    fast as its level reacts (one standing in for a person over the network, an engine test).
    `table`: the id of the server's table it sits at: the bots that search share the search
    worker fairly by table (cardroom/bots/search_worker.py)."""
    check_level(game, level)
    if game == "burrito":
        from cardroom.bots.burrito import make_bot as burrito_bot

        return burrito_bot(seat, level, seed)
    from cardroom.bots.kittens import make_bot as kittens_bot
    from cardroom.games.kittens.options import Options

    parsed = Options.parse(options) if options is not None else None
    think_ms = parsed.bot_think_ms if parsed is not None else 0
    expert_ms = parsed.expert_think_ms if parsed is not None else None
    return kittens_bot(seat, level, seed, live, think_ms, expert_ms, table)
