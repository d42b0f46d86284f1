"""The Throw Throw Burrito game definition: options, dealing, parsing and statistics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.games.burrito.actions import Action, action_json, parse_action
from cardroom.games.burrito.deal import table_from_deal
from cardroom.games.burrito.options import MAX_PLAYERS, MIN_PLAYERS, parse_options
from cardroom.games.burrito.table import BurritoTable
from cardroom.protocol import JSON, InvalidSetup, Table


class BurritoGame:
    """The `GameDef` of Throw Throw Burrito."""

    name = "burrito"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def new_table(self, players: int, options: Mapping[str, Any], seed: int) -> BurritoTable:
        table = BurritoTable(players, parse_options(options, players), _seed(seed))
        table.setup_round()
        return table

    def options_json(self, options: Mapping[str, Any], players: int) -> JSON:
        return parse_options(options, players).changes()

    def from_deal(
        self, players: int, options: Mapping[str, Any], deal: Mapping[str, Any], seed: int
    ) -> BurritoTable:
        return table_from_deal(players, parse_options(options, players), deal, _seed(seed))

    def parse_action(self, raw: Mapping[str, Any], players: int) -> Action:
        return parse_action(raw, players)

    def action_json(self, action: Action) -> JSON:
        return action_json(action)

    def stats(self, table: Table[Action]) -> JSON:
        if not isinstance(table, BurritoTable):
            raise TypeError("not a burrito table")
        return {
            "fights": dict(table.fight_counts),
            "mean_scores": table.scores(),
            "mean_bruises": list(table.bruises),
            "rounds": len(table.round_scores),
            "mistakes": table.mistakes,
            "tiebreaks": table.tiebreaks,
        }

    def standings(self, table: Table[Action]) -> list[int]:
        if not isinstance(table, BurritoTable):
            raise TypeError("not a burrito table")
        return _places(table.scores(), table.winner)


def _places(scores: list[int], winner: int | None) -> list[int]:
    """Higher score, better place; equal scores share it; the winner (ties broken) is first."""

    def key(seat: int) -> tuple[bool, int]:
        return (seat == winner, scores[seat])

    return [
        1 + sum(1 for other in range(len(scores)) if key(other) > key(seat)) for seat in range(len(scores))
    ]


def _seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidSetup(f"seed must be a whole number, not {seed!r}")
    return seed


GAME = BurritoGame()
