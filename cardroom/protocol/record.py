"""A game is its options, seed (or deal) and action list; replaying them gives the same state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from cardroom.protocol.event import JSON, Event, Rejected
from cardroom.protocol.table import GameDef, Table


class Move(msgspec.Struct, frozen=True, gc=False):
    """One action as it arrived: when, who, what (in its JSON form).

    Not tracked by the garbage collector (`action` holds plain JSON, never a cycle): a long
    game's moves, on a server with many tables, then add nothing to its collections.
    """

    at: int
    player: int
    action: JSON

    def to_json(self) -> JSON:
        return {"at": self.at, "player": self.player, **self.action}


@dataclass(slots=True)
class Record:
    """Everything needed to rebuild a table: its accepted actions in order.

    A refused action changes nothing, so drivers leave it out (older records may hold some:
    they replay as the same refusals, changing nothing again)."""

    game: str
    players: int
    options: JSON
    seed: int
    deal: JSON | None = None
    moves: list[Move] = field(default_factory=list)


def act(
    table: Table[Any], player: int, action: Any, at_ms: int
) -> tuple[list[Event], list[Event] | Rejected]:
    """Run the timers due by `at_ms`, then the action: the one order every driver uses."""
    timers = table.advance(at_ms)
    return timers, table.apply(player, action, at_ms)


def start(game: GameDef[Any], record: Record) -> Table[Any]:
    """The table a record starts from."""
    if record.deal is not None:
        return game.from_deal(record.players, record.options, record.deal, record.seed)
    return game.new_table(record.players, record.options, record.seed)


def replay(game: GameDef[Any], record: Record, until: int | None = None) -> Table[Any]:
    """Rebuild the table of `record` by playing its moves again."""
    table = start(game, record)
    for move in record.moves:
        act(table, move.player, game.parse_action(move.action, record.players), move.at)
    if until is not None:
        table.advance(until)
    return table


__all__ = ["Move", "Record", "Rejected", "act", "replay", "start"]
