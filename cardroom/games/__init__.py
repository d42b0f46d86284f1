"""The games, found by name. Each game package imports only `cardroom.protocol`."""

from __future__ import annotations

from typing import Any

from cardroom.protocol import GameDef, InvalidSetup

GAMES = ("burrito", "kittens")


def find_game(name: str) -> GameDef[Any]:
    """The definition of game `name`; InvalidSetup for an unknown name."""
    if name == "burrito":
        from cardroom.games.burrito import GAME as burrito

        return burrito
    if name == "kittens":
        from cardroom.games.kittens import GAME as kittens

        return kittens
    raise InvalidSetup(f"unknown game {name!r}: expected one of {', '.join(GAMES)}")
