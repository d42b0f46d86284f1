"""A stored game as a scenario file (docs/scenarios.md): a bug report or a puzzle made from a
game that was really played, which carries its own check.

The file is the record in the scenario format (game, players, options, seed or deal, the moves
in order, `until` its end), plus the final state of the replayed table as `expect`: running it
again must end in that very state, so any change of rules or engine that changes how the game
ends shows up as a mismatch.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from babel.dates import format_datetime

from cardroom.games import find_game
from cardroom.i18n import _, current_language
from cardroom.narrate._common import join_list
from cardroom.protocol import JSON
from cardroom.protocol.record import replay

if TYPE_CHECKING:
    from cardroom.store import GameRecord

GAME_TITLES = {"burrito": "Throw Throw Burrito", "kittens": "Exploding Kittens"}
"""The games by their published names (never translated: they are titles)."""


def played_on(epoch_ms: int) -> str:
    """When a game was played, in this machine's time zone, written the current language's way."""
    local = datetime.fromtimestamp(epoch_ms / 1000)
    return format_datetime(local, format="medium", locale=current_language())


def game_title(game: str) -> str:
    return GAME_TITLES.get(game, game)


def end_of(game_record: GameRecord) -> int:
    """The play time the replay runs to: the stored end, never before the last move."""
    last = game_record.record.moves[-1].at if game_record.record.moves else 0
    return max(game_record.end_at or 0, last)


def to_scenario(game_record: GameRecord) -> JSON:
    """The scenario file of a stored game, its `expect` the final state of the game replayed."""
    record = game_record.record
    until = end_of(game_record)
    table = replay(find_game(record.game), record, until=until)
    names = join_list([seat.name for seat in game_record.seats])
    title = _("{game}: {players}").format(game=game_title(record.game), players=names)
    description = _("Game {id}, played on {date} by {players}; exported by cardroom replay.").format(
        id=game_record.id, date=played_on(game_record.started_ms), players=names
    )
    data: JSON = {
        "title": title,
        "description": description,
        "game": record.game,
        "players": record.players,
        "options": dict(record.options),
        "seed": record.seed,
    }
    if record.deal is not None:
        data["deal"] = record.deal
    data["actions"] = [move.to_json() for move in record.moves]
    data["until"] = until
    data["expect"] = table.summary()
    return data
