"""Exploding Kittens, as rules/003 plays it: a pure engine, its deck table, views and queries.

`GAME` is the game definition the rest of the project finds with `find_game("kittens")`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.games.kittens.actions import Action, action_json, parse_action
from cardroom.games.kittens.cards import MAX_PLAYERS, MIN_PLAYERS
from cardroom.games.kittens.deal import check_players, new_state, state_from_deal
from cardroom.games.kittens.options import Options
from cardroom.games.kittens.table import KittensTable
from cardroom.protocol import JSON, InvalidSetup, Table


def _options(raw: Mapping[str, Any], players: int) -> Options:
    options = Options.parse(raw)
    options.check_players(players)
    return options


class KittensGame:
    """The game definition (`GameDef`)."""

    name = "kittens"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def new_table(self, players: int, options: Mapping[str, Any], seed: int) -> KittensTable:
        table = KittensTable(new_state(players, _options(options, players), seed))
        table.deal()
        return table

    def options_json(self, options: Mapping[str, Any], players: int) -> JSON:
        check_players(players)
        return dict(Options.parse(options).changes())

    def from_deal(
        self, players: int, options: Mapping[str, Any], deal: Mapping[str, Any], seed: int
    ) -> KittensTable:
        return KittensTable(state_from_deal(players, _options(options, players), deal, seed))

    def parse_action(self, raw: Mapping[str, Any], players: int) -> Action:
        return parse_action(raw, players)

    def action_json(self, action: Action) -> JSON:
        return action_json(action)

    def stats(self, table: Table[Action]) -> JSON:
        if not isinstance(table, KittensTable):
            raise InvalidSetup("not a kittens table")
        return dict(table.s.stats)

    def standings(self, table: Table[Action]) -> list[int]:
        """The winner first, then the last to explode, and so on; seats dealt out share last place."""
        if not isinstance(table, KittensTable):
            raise InvalidSetup("not a kittens table")
        s = table.s
        n = s.players
        places = [n] * n
        order = [p for p in range(n) if s.alive[p]] + list(reversed(s.exploded))
        for place, seat in enumerate(order, start=1):
            places[seat] = place
        return places


GAME = KittensGame()

__all__ = ["GAME", "Action", "KittensGame", "KittensTable"]
