"""Who is at a table: its seats and spectators, what the lobby lists of it and what the store
keeps of it. Read by every layer above; it sends nothing (telling is `tell.py`'s), so it
imports no layer but the state.
"""

from __future__ import annotations

from typing import Any

from cardroom.bots import make_bot
from cardroom.bots.names import bot_names
from cardroom.i18n import _
from cardroom.protocol import JSON, Bot
from cardroom.server.room.state import PLAYING, RoomState
from cardroom.server.wire import error
from cardroom.store import SeatRecord
from cardroom.store.names import same


class Seats(RoomState):
    """The seats and members of a table, as the layers above and the lobby read them."""

    def row(self) -> dict[str, Any]:
        """What the store keeps of this table, so that a restart can open it again."""
        return {
            "id": self.id,
            "game": self.game.name,
            "options": self.options,
            "seats": [
                {"name": s.name, "player": s.player, "level": None if s.standing_in else s.level}
                for s in self.seats
            ],
            "host": self.host,
            "private": self.private,
            "code": self.code,
            "bot_level": self.bot_level,
            "state": self.state,
            "game_id": self.game_id,
            "games_played": self.games_played,
            "fence": self.fence,
        }

    def persist(self) -> None:
        store = self.lobby.store
        if store is not None and self.id in self.lobby.rooms and self.guide is None:
            store.records.save_room(self.row())

    def seat_of(self, player_id: str) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.player == player_id:
                return i
        return None

    def names(self) -> list[str]:
        return [seat.name or _("Empty seat") for seat in self.seats]

    def members(self) -> list[str]:
        seated = [s.player for s in self.seats if s.player is not None]
        return seated + sorted(self.spectators - set(seated))

    def summary(self) -> JSON:
        """What the lobby lists."""
        return {
            "id": self.id,
            "game": self.game.name,
            "options": self.options,
            "state": self.state,
            "private": self.private,
            "host": self.lobby.player_name(self.host),
            "seats": [self._seat_json(i) for i in range(len(self.seats))],
            "free": sum(1 for s in self.seats if s.empty),
            "spectators": len(self.spectators),
        }

    def _seat_json(self, i: int) -> JSON:
        seat = self.seats[i]
        player = self.lobby.players.get(seat.player) if seat.player else None
        return {
            "seat": i,
            "name": seat.name,
            "bot": seat.player is None and seat.level is not None,
            "level": seat.level,
            "standing_in": seat.standing_in,
            "connected": bool(player and player.connection and not player.connection.closed),
            "lag_ms": player.lag_ms if player else None,
            "extra_time": i in self._extra_time(),
        }

    def _extra_time(self) -> list[int]:
        seats = self.options.get("extra_time", [])
        return [s for s in seats if isinstance(s, int)] if isinstance(seats, list) else []

    def _set_extra_time(self, seats: set[int]) -> None:
        if seats:
            self.options["extra_time"] = sorted(seats)
        else:
            self.options.pop("extra_time", None)

    def _keep_extra_time(self) -> None:
        """Extra time belongs to a player: it goes when they leave their seat (not mid-game,
        where the game's options are fixed)."""
        if self.state != PLAYING:
            kept = {i for i in self._extra_time() if 0 <= i < len(self.seats) and self.seats[i].player}
            if kept != set(self._extra_time()):
                self._set_extra_time(kept)

    def _seat_record(self, index: int) -> SeatRecord:
        seat = self.seats[index]
        player = self.lobby.players.get(seat.player) if seat.player else None
        return SeatRecord(
            name=seat.name or "",
            player_id=seat.player,
            account_id=player.account_id if player else None,
            bot_level=seat.level if seat.player is None else None,
        )

    def _seated_bots(self, salt: int) -> dict[int, Bot[Any]]:
        """A bot for each seat a bot holds (stand-ins come from `_stand_in`), seeded from the game."""
        return {
            i: make_bot(
                self.game.name, i, seat.level, self.seed * 1000 + i + salt, True, self.options, self.id
            )
            for i, seat in enumerate(self.seats)
            if seat.player is None and seat.level is not None
        }

    def _rename_bots_like(self, name: str) -> None:
        """A person sat down under a bot's name (or one that looks like it): the bot takes
        another, so that no line reads "Chloé throws at Chloé" (a bot is named when it sits,
        and a person may come after it; they join before the game, so no record holds it yet)."""
        for i, seat in enumerate(self.seats):
            if seat.player is None and seat.level is not None and seat.name and same(seat.name, name):
                seat.name = self._bot_name(i)

    def _bot_name(self, index: int) -> str:
        """A bot's name that neither is nor looks like a name at the table (store/names.py)."""
        taken = [s.name for s in self.seats if s.name]
        for name in bot_names(12, skip=index):
            if not any(same(name, other) for other in taken):
                return name
        return f"Bot {index + 1}"


def not_member() -> JSON:
    """The answer to anyone asking about, or leaving, a table they are not at: it says nothing
    of the table (a private table's state and chat are for its members)."""
    return error("not_member", _("Join or watch the table first."))
