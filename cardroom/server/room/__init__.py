"""A table on the server: its seats, spectators, engine, bots, clock, versions and history.

All of a room's state changes on the event loop's thread in synchronous methods, so actions
are handled one at a time in arrival order: an action is stamped with the room's clock when
it arrives, the timers due by then run first, then the action. A timer task wakes the room
for the next deadline (a landing, a window closing, a bot's reaction).

A table never runs ahead of its log. While the store cannot write (the journal is `failing`)
a table in play is paused: play time stands still, no timer runs, no bot acts, every action is
refused, and its members are told in their language; when the journal has written everything
again, the table goes on from exactly its last move. A game whose log cannot be made whole
(the store refused one of its moves for good) is closed as abandoned, never played or replayed
with a gap.

The room is layered, each module a class on the one before (tests/test_layers.py keeps the
order): `state` (the fields), `seats` (who is here), `fanout` (each batch as each member is
sent it: functions, compiled), `tell` (what each member is told), `journal` (the log in the
store), `driver` (the game in play), and `Room` here, the lobby's actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardroom.bots import levels
from cardroom.games import find_game
from cardroom.i18n import _
from cardroom.protocol import JSON
from cardroom.server.room.driver import Driving
from cardroom.server.room.fanout import Heard
from cardroom.server.room.seats import not_member
from cardroom.server.room.state import GRACE_MS, OVER, PLAYING, WAITING, Lobby, Seat
from cardroom.server.wire import error
from cardroom.store import GameRecord, StoreError

if TYPE_CHECKING:
    from cardroom.server.connection import Player

__all__ = ["GRACE_MS", "OVER", "PLAYING", "WAITING", "Heard", "Lobby", "Room", "Seat"]


class Room(Driving):
    """One table: created in the lobby, played here, rematched here."""

    @classmethod
    def restore(cls, lobby: Lobby, row: Any, record: GameRecord | None) -> Room:
        """A table of the store, after a restart: its seats, and its game replayed from the log.

        Play time resumes where the log ends (the time the server was down is not play time),
        and every person's seat is held for them, then played by a stand-in until they come back
        (the grace periods start now).
        """
        game = find_game(row.game)
        options = game.options_json(row.options, len(row.seats))  # kept raw by older versions
        room = cls(lobby, game, len(row.seats), options, row.host, row.private, row.bot_level, lobby.clock)
        room.id = row.id
        room.code = row.code
        room.games_played = row.games_played
        now = lobby.clock()
        for i, saved in enumerate(row.seats):
            seat = Seat(name=saved.get("name"), player=saved.get("player"), level=saved.get("level"))
            if seat.player is not None and seat.player not in lobby.players:
                seat.player, seat.level = None, seat.level or room.bot_level  # nobody to come back
            elif seat.player is not None:
                seat.dropped_at = now
                seat.level = None
            room.seats[i] = seat
        if row.state == PLAYING and record is not None and record.state == "playing":
            if not record.whole:
                if lobby.store is not None:
                    lobby.store.records.abandon_game(
                        record.id, record.record.moves[-1].at if record.record.moves else 0
                    )
                raise StoreError("broken_log", f"game {record.id} has a gap in its log: abandoned")
            room._resume(record)
        else:
            room.state = WAITING if row.state == WAITING else OVER
        return room

    def join(self, player: Player, seat: int | None, code: str | None) -> JSON | None:
        if self.private and code != self.code and self.seat_of(player.id) is None:
            return error("bad_code", _("This table is private: you need its invitation code."))
        current = self.seat_of(player.id)
        if current is not None:
            return self.reclaim(player, current)
        if self.state != WAITING:
            return error("already_started", _("This game has started: you can watch it as a spectator."))
        free = [i for i, s in enumerate(self.seats) if s.empty]
        if seat is not None:
            if not 0 <= seat < len(self.seats):
                return error("no_such_seat", _("That seat does not exist."))
            if seat not in free:
                return error("seat_taken", _("That seat is taken."))
        elif not free:
            return error("table_full", _("This table is full."))
        index = seat if seat is not None else free[0]
        self.seats[index] = Seat(name=player.name, player=player.id)
        self._rename_bots_like(player.name)
        self.spectators.discard(player.id)
        player.tables.add(self.id)
        self.changed()
        return None

    def spectate(self, player: Player, code: str | None) -> JSON | None:
        if self.private and code != self.code and player.id not in self.members():
            return error("bad_code", _("This table is private: you need its invitation code."))
        if self.seat_of(player.id) is not None:
            return error("already_seated", _("You are seated at this table."))
        self.spectators.add(player.id)
        player.tables.add(self.id)
        self.changed()
        return None

    def leave(self, player: Player) -> JSON | None:
        if player.id not in self.members():
            return not_member()
        index = self.seat_of(player.id)
        self.spectators.discard(player.id)
        player.tables.discard(self.id)
        if player.connection is not None:
            player.connection.send(self.lobby.listing())  # back in the lobby: the list as it is now
        if index is not None:
            self._vacate(index)
        if self.host == player.id:
            humans = [s.player for s in self.seats if s.player is not None]
            if humans:
                self.host = humans[0]
        self.ready.discard(player.id)
        if not self.members():
            self.lobby.close_room(self)
            return None
        self._rematch_if_ready()
        return None

    def _vacate(self, index: int) -> None:
        """A person leaves seat `index` for good (they left, or were kicked): mid-game a bot plays
        it on; before the start it is empty again, and their extra time goes with them."""
        self.absences.back(index)
        if self.state == PLAYING:
            self._stand_in(index, permanent=True)
        else:
            self.seats[index] = Seat()
            self._keep_extra_time()

    def add_bot(self, player: Player, seat: int | None, level: str | None) -> JSON | None:
        if player.id != self.host:
            return error("not_host", _("Only the host can do that."))
        if self.state != WAITING:
            return error("already_started", _("The game has already started."))
        level = level or self.bot_level
        if level not in levels(self.game.name):
            return error("bad_level", _("Unknown bot level."))
        free = [i for i, s in enumerate(self.seats) if s.empty]
        if seat is None:
            if not free:
                return error("table_full", _("This table is full."))
            seat = free[0]
        if seat not in free:
            return error("seat_taken", _("That seat is taken."))
        self.seats[seat] = Seat(name=self._bot_name(seat), level=level)
        self.changed()
        return None

    def kick(self, player: Player, index: int) -> JSON | None:
        if player.id != self.host:
            return error("not_host", _("Only the host can do that."))
        if not 0 <= index < len(self.seats) or self.seats[index].empty:
            return error("no_such_seat", _("Nobody sits there."))
        kicked = self.seats[index].player
        if kicked == self.host:
            return error("kick_self", _("You cannot remove yourself; leave the table instead."))
        self._vacate(index)
        if kicked is not None:
            self.send_to(kicked, {"type": "kicked", "table": self.id})
            self.spectators.add(kicked)
        self.changed()
        return None

    def grant_extra_time(self, player: Player, index: int, on: bool) -> JSON | None:
        """The host gives the player at `index` extra time, or takes it back, before the start
        (docs/rules/<game>.md#time-to-react): a table option, public to everyone."""
        if player.id != self.host:
            return error("not_host", _("Only the host can do that."))
        if self.state == PLAYING:
            return error("already_started", _("The game has already started."))
        if not 0 <= index < len(self.seats) or self.seats[index].player is None:
            return error("no_such_seat", _("Extra time is for a player seated at this table."))
        seats = set(self._extra_time())
        if on:
            seats.add(index)
        else:
            seats.discard(index)
        self._set_extra_time(seats)
        self.changed()
        return None

    def rematch(self, player: Player, ready: bool = True) -> JSON | None:
        """A player's vote for a rematch (`ready` False takes it back): the game starts again
        once every player still here said ready; the host may start sooner with `start`,
        bots standing in for the others (docs/protocol.md)."""
        if self.state != OVER:
            return error("not_over", _("The game is not over yet."))
        if self.seat_of(player.id) is None:
            return error("not_seated", _("Only the players can ask for a rematch."))
        if ready:
            self.ready.add(player.id)
        else:
            self.ready.discard(player.id)
        return self._rematch_if_ready()

    def dropped(self, player: Player) -> None:
        """A seated player's connection went away: their seat is held for the table's grace
        period, then a stand-in plays it until they come back (server/absence.py)."""
        index = self.seat_of(player.id)
        if index is None:
            self.changed()
            return
        self.seats[index].dropped_at = self.clock()
        if self.state == PLAYING:
            self._hold(index)
        self.changed()
        self._rematch_if_ready()

    def expire(self) -> None:
        """Seats whose player stayed away past the grace period become the bot's for good."""
        now = self.clock()
        for index, seat in enumerate(self.seats):
            if (
                seat.player is not None
                and seat.dropped_at is not None
                and now - seat.dropped_at > self.lobby.grace_s
            ):
                if self.state == WAITING:
                    seat.player = None
                    seat.name = None
                else:
                    self._stand_in(index, permanent=False)  # a seat still held gets its bot now
                    seat.player = None
                    seat.standing_in = False
                self.absences.back(index)
                seat.dropped_at = None

    def chat(self, player: Player, text: str) -> JSON | None:
        if player.id not in self.members():
            return error("not_member", _("Join or watch the table to chat there."))
        line = {"type": "chat", "table": self.id, "from": player.name, "text": text, "at": self.now_ms()}
        self.chat_log.append(line)
        del self.chat_log[:-200]
        self.send_all(line)
        return None

    def query(self, player: Player, what: str, card: str | None) -> JSON:
        """003's T, E and shift+D, answered by the game for everyone at the table alike."""
        if player.id not in self.members():
            return not_member()
        if what == "recap" and self.table is not None:
            return self.recap(player)
        seat = self.seat_of(player.id)
        view = self.table.view(seat) if self.table is not None else None
        return self.narrator.query(what, card, view, self.names(), seat, player.lang)
