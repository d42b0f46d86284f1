"""The Throw Throw Burrito game definition: options, dealing, parsing, bots and statistics."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, cast

from cardroom.games.burrito.actions import Action, action_json, parse_action
from cardroom.games.burrito.deal import table_from_deal
from cardroom.games.burrito.options import MAX_PLAYERS, MIN_PLAYERS, parse_options
from cardroom.games.burrito.table import BurritoTable
from cardroom.protocol import JSON, Bot, InvalidSetup, Table


class BurritoGame:
    """The `GameDef` of Throw Throw Burrito."""

    name = "burrito"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bot_levels: tuple[str, ...] = ("easy", "normal", "hard")

    def new_table(self, players: int, options: Mapping[str, Any], seed: int) -> BurritoTable:
        table = BurritoTable(players, parse_options(options, players), _seed(seed))
        table.setup_round()
        return table

    def from_deal(
        self, players: int, options: Mapping[str, Any], deal: Mapping[str, Any], seed: int
    ) -> BurritoTable:
        return table_from_deal(players, parse_options(options, players), deal, _seed(seed))

    def parse_action(self, raw: Mapping[str, Any], players: int) -> Action:
        return parse_action(raw, players)

    def action_json(self, action: Action) -> JSON:
        return action_json(action)

    def make_bot(self, seat: int, level: str, seed: int) -> Bot[Action]:
        if level not in self.bot_levels:
            raise InvalidSetup(f"unknown bot level {level!r}: expected one of {', '.join(self.bot_levels)}")
        module = importlib.import_module("cardroom.bots.burrito")
        return cast(Bot[Action], module.make_bot(seat, level, seed))

    def stats(self, table: Table[Action]) -> JSON:
        if not isinstance(table, BurritoTable):
            raise TypeError("not a burrito table")
        return {
            "fights": dict(table.fight_counts),
            "scores": table.scores(),
            "round_scores": [list(s) for s in table.round_scores],
            "round_winners": list(table.round_winners),
            "rounds": len(table.round_scores),
            "mistakes": table.mistakes,
            "tiebreaks": table.tiebreaks,
            "bruises": list(table.bruises),
            "winner": table.winner,
        }


def _seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidSetup(f"seed must be a whole number, not {seed!r}")
    return seed


GAME = BurritoGame()
