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
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import math
import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from cardroom.bots import levels, make_bot
from cardroom.bots.names import bot_names
from cardroom.bots.stand_in import make_stand_in
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.guide.coach import Guide
from cardroom.i18n import _, use_language
from cardroom.narrate.narrator import Narrator, Said
from cardroom.narrate.speech import Digest, Fold, Priority
from cardroom.protocol import JSON, Bot, CardroomError, Event, GameDef, Rejected, Table
from cardroom.protocol.record import Move, Record
from cardroom.protocol.record import act as act_at
from cardroom.protocol.record import start as start_table
from cardroom.server.absence import Absences, Away, seat_grace_ms, while_away
from cardroom.server.history import Batch, History
from cardroom.server.limits import Limits
from cardroom.server.refusals import Refusals
from cardroom.server.wire import encode, error
from cardroom.store import GameRecord, SeatRecord, Store, StoreError
from cardroom.store.errors import store_unavailable
from cardroom.store.names import same

if TYPE_CHECKING:
    from cardroom.server.connection import Player

WAITING, PLAYING, OVER = "waiting", "playing", "over"
GRACE_MS = 120_000
UNSURE_WAIT_S = 0.05
"""How often a table whose node is unsure of its lease looks again (`Room._sure`)."""
SEED_BITS = 256
"""A live table's seed, from the operating system: too many to search for from one's own hand."""


class Lobby(Protocol):
    """What a room needs of the lobby holding it (server/lobby.py): the lobby knows its rooms,
    a room knows only this, so the arrow runs one way and any node's lobby can hold a room."""

    @property
    def clock(self) -> Callable[[], float]: ...
    @property
    def rate(self) -> float: ...
    @property
    def grace_s(self) -> float: ...
    @property
    def store(self) -> Store | None: ...
    @property
    def players(self) -> Mapping[str, Player]: ...
    @property
    def limits(self) -> Limits: ...
    @property
    def rooms(self) -> Mapping[str, Room]: ...
    def player_name(self, player_id: str) -> str | None: ...
    def sure(self) -> bool: ...
    def listing(self) -> JSON: ...
    def table_changed(self, room: Room) -> None: ...
    def close_room(self, room: Room) -> None: ...


@dataclass(slots=True)
class Heard:
    """A batch as one seat hears it: the events as it may know them, its view after them, and
    each event's priority for it (what its narration and its digest both read)."""

    events: list[JSON]
    view: JSON | None
    priorities: list[Priority]


@dataclass(slots=True)
class Seat:
    """Who sits here: a person (`player` id), a bot (`level`), or nobody."""

    name: str | None = None
    player: str | None = None
    level: str | None = None
    standing_in: bool = False
    dropped_at: float | None = None

    @property
    def empty(self) -> bool:
        return self.player is None and self.level is None


class Room:
    """One table: created in the lobby, played here, rematched here."""

    def __init__(
        self,
        lobby: Lobby,
        game: GameDef[Any],
        seats: int,
        options: JSON,
        host: str,
        private: bool,
        bot_level: str,
        clock: Callable[[], float],
    ) -> None:
        self.lobby = lobby
        self.id = secrets.token_urlsafe(6)
        self.game = game
        self.options = options
        self.host = host
        self.private = private
        self.code = secrets.token_hex(5) if private else None  # 40 bits: docs/security.md
        self.bot_level = bot_level
        self.clock = clock
        self.seats = [Seat() for _ in range(seats)]
        self.spectators: set[str] = set()
        self.state = WAITING
        self.version = 0
        self.history = History()
        self.chat_log: list[JSON] = []
        self.table: Table[Any] | None = None
        self.driver: VirtualDriver | None = None
        self.seed = 0
        self.t0 = 0.0
        self.games_played = 0
        self.cues: list[tuple[int, int, str, int]] = []
        self.narrator = Narrator(game.name)
        self.digests: dict[int | None, Digest] = {}
        """Per seat: the background since its last summary (the "normal" verbosity says those)."""
        self.recaps: dict[str, Digest] = {}
        """Per player: the background since they last asked for a recap."""
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.game_id: str | None = None
        self.last_write: asyncio.Future[None] | None = None
        """The journal write of the newest move: an acknowledgement waits for it (crash safety)."""
        self.answers_due = 0
        """Answers waiting for a write's callback: a later answer waits behind them, even when
        its write is done already (its callbacks may not have run yet: `_when_saved`)."""
        self.fence = 0
        """This node's fencing number for the table, written with each move (0: no cluster)."""
        self.paused_at: float | None = None
        """When the store stopped writing (clock time), while the table waits for it."""
        self.refusals = Refusals(lobby.limits)
        """Each seat's budget of refused actions (server/refusals.py)."""
        self.absences = Absences()
        """The seats held for people away mid-game, until their stand-in is due (server/absence.py)."""
        self.ready: set[str] = set()
        """Once a game is over: the players who voted for a rematch (docs/protocol.md)."""
        self.countdown: asyncio.TimerHandle | None = None
        """A Play now table's start by itself (`count_down`), until it starts."""
        self.sleeping_until: float | None = None
        """While the timer task waits for a deadline: that deadline (play time; infinity when
        nothing is due). None while it is not waiting for one."""
        self.held: list[Callable[[], None]] = []
        """Actions that came while this node was unsure of the table (`_sure`), in order."""
        self.unsent = False
        """Whether something was not sent to the members while this node was unsure."""
        self.guide: Guide | None = None
        """A guided first game's coach (docs/guide.md): its table is not stored, and its play
        clock stands still at `held_ms` while the coach waits for the player."""
        self.held_ms: int | None = None

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

    def _resume(self, stored: GameRecord) -> None:
        game, record = self.game, stored.record
        table = start_table(game, record)
        for move in record.moves:
            act_at(table, move.player, game.parse_action(move.action, record.players), move.at)
        self.seed, self.game_id = record.seed, stored.id
        self.table = table
        bots = self._seated_bots(salt=len(record.moves))
        self.driver = VirtualDriver(table, bots, game.action_json, self._events, self._record)
        self.driver.run_info.moves = list(record.moves)
        self.t0 = self.clock() - table.now / 1000
        self.state = PLAYING
        self.version = 1
        for i, seat in enumerate(self.seats):
            if seat.player is not None:
                self._hold(i)
        for bot in bots.values():
            bot.notice([], self._viewer(bot.seat), table.now)
        self._watch_store()
        self.task = asyncio.create_task(self._timers())
        if table.over:
            self._finish()

    # -- the store -----------------------------------------------------------------------
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

    def forget(self) -> None:
        """The table closes: a game left unfinished is marked abandoned."""
        store = self.lobby.store
        if store is None or self.guide is not None:  # a guided game is never stored
            return
        if self.game_id is not None and self.table is not None and not self.table.over:
            store.records.abandon_game(self.game_id, self.table.now, self.fence)
        store.records.drop_room(self.id, self.fence)

    def _logged(self) -> int:
        """How many moves this game's log holds: the next move's place in it."""
        return len(self.driver.run_info.moves) if self.driver is not None else 0

    def _record(self, move: Move) -> None:
        """The driver's recorder, told of each move just after adding it to the log."""
        store = self.lobby.store
        if store is not None and self.game_id is not None and self.guide is None:
            seq = self._logged() - 1
            self.last_write = store.journal.move(
                self.game_id, seq, move.at, move.player, move.action, self.fence
            )
            self.last_write.add_done_callback(self._written)

    def _written(self, done: asyncio.Future[None]) -> None:
        """A move's write ended: one the store refused for good leaves a log that cannot be
        made whole, so the table closes (the game is marked abandoned)."""
        if done.cancelled() or done.exception() is None or self.id not in self.lobby.rooms:
            return
        for pid in self.members():
            self._notify(pid, "game_not_saved")
            self.send_to(pid, {"type": "table_closed", "table": self.id})
            player = self.lobby.players.get(pid)
            if player is not None:
                player.tables.discard(self.id)  # back in the lobby, where table lists go
        self.lobby.close_room(self)

    # -- the store failing -----------------------------------------------------------------
    def _watch_store(self) -> None:
        store = self.lobby.store
        if store is not None:
            store.journal.watchers.add(self._store_failing)
            if store.journal.failing:
                self._store_failing(True)

    def _store_failing(self, failing: bool) -> None:
        """The journal's watcher: pause while it cannot write, go on when it has caught up."""
        if failing and self.paused_at is None and self.state == PLAYING:
            self.paused_at = self.clock()
            for pid in self.members():
                self._notify(pid, "table_paused")
        elif not failing and self.paused_at is not None:
            self.t0 += self.clock() - self.paused_at  # the pause was no play time
            self.paused_at = None
            if self.state == PLAYING:
                for pid in self.members():
                    self._notify(pid, "table_resumed")
        self.wake.set()

    def _notify(self, player_id: str, code: str) -> None:
        """Tell one member what happens to the table, in their language."""
        player = self.lobby.players.get(player_id)
        if player is None or player.connection is None or not self._sure():
            return
        with use_language(player.lang):
            text = {
                "table_paused": _(
                    "The server cannot save the game right now: the table is paused until it can."
                ),
                "table_resumed": _("The game is saved again: play goes on."),
                "game_not_saved": _("This game could not be saved: the table is closed."),
            }[code]
        player.connection.send({"type": "notice", "table": self.id, "code": code, "message": text})

    def _when_saved(self, player_id: str, message: JSON) -> None:
        """Send `message` once the newest move is on disk; say so if it could not be saved."""
        store = self.lobby.store
        pending = self.last_write
        if store is None or not store.durable or pending is None:
            self.send_to(player_id, message)
            return

        def saved(done: asyncio.Future[None]) -> None:
            self.answers_due -= 1
            if done.cancelled() or done.exception() is not None:
                self.send_to(
                    player_id,
                    error("not_saved", _("The server could not save that action."), ref=message.get("ref")),
                )
            else:
                self.send_to(player_id, message)

        self.answers_due += 1
        if pending.done() and self.answers_due == 1:
            saved(pending)
        else:  # a done future's callback comes after those its result scheduled: in order
            pending.add_done_callback(saved)

    # -- who is here ---------------------------------------------------------------------
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

    def snapshot(self, player_id: str | None) -> JSON:
        """The full state of the room for one member: a resync."""
        seat = self.seat_of(player_id) if player_id else None
        out: JSON = {
            "type": "table",
            "table": self.id,
            **self.summary(),
            "code": self.code if player_id in self.members() else None,
            "you": seat,
            "is_host": player_id == self.host,
            "v": self.version,
            "chat": self.chat_log[-50:],
            "view": self.table.view(seat) if self.table is not None else None,
            "paused": self.paused_at is not None,
            "ready": [i for i, seat in enumerate(self.seats) if seat.player in self.ready],
            "starts_in_ms": self._starts_in_ms(),
            "coach": self._coach_message(self.guide.announced)
            if self.guide is not None and self.guide.announced >= 0
            else None,
            # Each seat's final place (1 = first) once the game is over, for the scoreboard.
            "places": self.game.standings(self.table)
            if self.state == OVER and self.table is not None
            else None,
        }
        return out

    # -- sending -------------------------------------------------------------------------
    def _sure(self) -> bool:
        """Whether this node surely owns the table now (`Lobby.sure`). After the node stood still
        longer than a lease (a pause), another node may play the table already: until its
        heartbeat knows, the table plays nothing and sends nothing (not a stale game to
        anyone), and a table found lost stops there (`Lobby._lost`)."""
        if self.lobby.sure():
            return True
        self.unsent = True
        self.wake.set()  # the timer task makes it good once the node knows (`_sure_again`)
        return False

    def _sure_again(self) -> None:
        """The node knows the table is still its own: the actions held meanwhile are handled,
        in order, and members who were sent nothing meanwhile get the table afresh."""
        if self.unsent:
            self.unsent = False
            for pid in self.members():
                self.send_to(pid, self.snapshot(pid))
        held, self.held = self.held, []
        for again in held:
            again()

    def send_to(self, player_id: str, message: JSON) -> None:
        if not self._sure():
            return
        player = self.lobby.players.get(player_id)
        if player and player.connection:
            player.connection.send(message)

    def send_all(self, message: JSON) -> None:
        if not self._sure():
            return
        data = encode(message)
        for pid in self.members():
            player = self.lobby.players.get(pid)
            if player and player.connection:
                player.connection.send_raw(data)

    def changed(self) -> None:
        """Seats or state changed: members get a resync, the lobby an update, the store the room."""
        for pid in self.members():
            self.send_to(pid, self.snapshot(pid))
        self.lobby.table_changed(self)
        self.persist()

    # -- lobby actions -------------------------------------------------------------------
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
        self.spectators.discard(player.id)
        player.tables.add(self.id)
        self.changed()
        return None

    def reclaim(self, player: Player, index: int) -> JSON | None:
        """A seated player comes back (reconnect or re-join): the stand-in bot leaves."""
        seat = self.seats[index]
        seat.dropped_at = None
        if seat.standing_in and seat.player == player.id:
            seat.standing_in = False
            seat.level = None
            if self.driver is not None:
                self.driver.bots.pop(index, None)
        player.tables.add(self.id)
        away = self.absences.back(index) if seat.player == player.id else None
        if away is not None:  # before the resync, which stays the last word of a welcome
            self._welcome_back(player, index, away)
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
            return _not_member()
        index = self.seat_of(player.id)
        self.spectators.discard(player.id)
        player.tables.discard(self.id)
        if player.connection is not None:
            player.connection.send(self.lobby.listing())  # back in the lobby: the list as it is now
        if index is not None:
            self.absences.back(index)
            if self.state == PLAYING:
                self._stand_in(index, permanent=True)
            else:
                self.seats[index] = Seat()
                self._keep_extra_time()
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
        self.absences.back(index)
        if self.state == PLAYING:
            self._stand_in(index, permanent=True)
        else:
            self.seats[index] = Seat()
            self._keep_extra_time()
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

    def _bot_name(self, index: int) -> str:
        """A bot's name that neither is nor looks like a name at the table (store/names.py)."""
        taken = [s.name for s in self.seats if s.name]
        for name in bot_names(12, skip=index):
            if not any(same(name, other) for other in taken):
                return name
        return f"Bot {index + 1}"

    # -- the game ------------------------------------------------------------------------
    def start(self, player: Player | None) -> JSON | None:
        if player is not None and player.id != self.host:
            return error("not_host", _("Only the host can start the game."))
        if self.state == PLAYING:
            return error("already_started", _("The game has already started."))
        if self.lobby.store is not None and self.lobby.store.journal.failing:
            return error("store_unavailable", str(store_unavailable()))
        rematch, ready = self.state == OVER, {*self.ready, *([player.id] if player else [])}
        for i, seat in enumerate(self.seats):
            if seat.empty:
                self.seats[i] = Seat(name=self._bot_name(i), level=self.bot_level)
            elif rematch and seat.standing_in and seat.dropped_at is None:
                seat.standing_in = False
        self._keep_extra_time()
        self.seed = secrets.randbits(SEED_BITS)  # secret until the game is over (cardroom/protocol/rng.py)
        if self.guide is not None:
            if rematch:  # a guided game is played once: its end offers a real game instead
                return error("guide_over", _("The guided game is over: leave it for a real game."))
            table, bots = self.guide.table, self.guide.bots()
        else:
            try:
                table = self.game.new_table(len(self.seats), self.options, self.seed)
            except CardroomError as exc:
                return error("bad_options", str(exc))
            bots = self._seated_bots(salt=0)
        self.table = table
        self.game_id = secrets.token_urlsafe(9)
        self.last_write = None
        store = self.lobby.store
        if store is not None and self.guide is None:
            store.records.start_game(
                self.game_id,
                self.id,
                Record(self.game.name, len(self.seats), self.options, self.seed),
                [self._seat_record(i) for i in range(len(self.seats))],
                private=self.private,
            )
        self.driver = VirtualDriver(table, bots, self.game.action_json, self._events, self._record)
        self.t0 = self.clock()
        self.state = PLAYING
        self.ready.clear()
        if self.countdown is not None:
            self.countdown.cancel()
            self.countdown = None
        self.version += 1
        self.history.clear()
        self.refusals.clear()
        self.cues.clear()
        self.digests.clear()
        self.recaps.clear()
        self.absences.clear()
        for i, seat in enumerate(self.seats):
            if seat.player is None:
                continue
            if seat.dropped_at is not None:
                self._hold(i)
            elif rematch and seat.player not in ready:
                self._stand_in(i, permanent=False)  # the host started without them: back with `join`
        self.changed()
        for bot in bots.values():
            bot.notice([], self._viewer(bot.seat), 0)
        self._coach()
        self._watch_store()
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._timers())
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

    def _rematch_if_ready(self) -> JSON | None:
        """The rematch starts when every player here voted for it; else everyone sees who did."""
        waiting = [
            s
            for s in self.seats
            if s.player is not None and s.dropped_at is None and s.player not in self.ready
        ]
        if self.state == OVER and self.ready and not waiting:
            return self.start(None)
        self.changed()
        return None

    def count_down(self, seconds: float) -> None:
        """A Play now table starts by itself after `seconds`, bots in the empty seats."""
        self.countdown = asyncio.get_running_loop().call_later(seconds, self._counted_down)
        self.changed()

    def _counted_down(self) -> None:
        self.countdown = None
        if self.state == WAITING and self.lobby.rooms.get(self.id) is self:
            refused = self.start(None)
            if refused is not None:  # the store away: the host starts it once it is back
                self.changed()

    def _starts_in_ms(self) -> int | None:
        if self.countdown is None:
            return None
        return max(0, int((self.countdown.when() - asyncio.get_running_loop().time()) * 1000))

    def now_ms(self) -> int:
        """Play time: it stands still while the table is paused."""
        if self.held_ms is not None and self.paused_at is None:
            return self.held_ms
        now = self.clock() if self.paused_at is None else self.paused_at
        return int((now - self.t0) * 1000)

    def _viewer(self, seat: int) -> Callable[[], JSON]:
        table = self.table
        assert table is not None
        return lambda: table.view(seat)

    def act(self, player: Player, raw: JSON, ref: int | None) -> None:
        """A person's action, stamped with the room's clock as it arrives (or, while this node is
        unsure of the table, held until it knows: `_sure`)."""
        if self.state == PLAYING and not self._sure():
            self.held.append(lambda: self.act(player, raw, ref))
            return
        index = self.seat_of(player.id)
        reply: JSON
        if self.state != PLAYING or self.table is None or self.driver is None:
            reply = error("not_playing", _("No game is being played at this table."), ref=ref)
            self.send_to(player.id, reply)
            return
        if index is None:
            self.send_to(player.id, error("not_seated", _("Spectators cannot play."), ref=ref))
            return
        if self.paused_at is not None:
            message = _("The table is paused until the server can save the game again.")
            self.send_to(player.id, error("table_paused", message, ref=ref))
            return
        if self.seats[index].standing_in:
            self.reclaim(player, index)
        throttled = self.refusals.blocked(index, ref)
        if throttled is not None:
            self.send_to(player.id, throttled)
            return
        try:
            action = self.game.parse_action(raw, len(self.seats))
        except CardroomError as exc:
            self.refusals.refused(self.id, index)
            self.send_to(player.id, error("bad_action", str(exc), ref=ref))
            return
        now = self.now_ms()
        self._catch_up(now)
        if self.state != PLAYING:
            self.send_to(player.id, error("not_playing", _("The game is over."), ref=ref))
            return
        if self.guide is not None:
            with use_language(player.lang):
                why = self.guide.refusal(self.game.action_json(action), self.names())
            if why is not None:
                self.send_to(player.id, error("guide_step", why, ref=ref))
                return
        result = self.driver.submit(index, action, now)
        if isinstance(result, Rejected):
            self.refusals.refused(self.id, index)
            # After any answer still waiting for the disk: answers keep the order of the actions.
            self._when_saved(
                player.id,
                {
                    "type": "rejected",
                    "table": self.id,
                    "ref": ref,
                    "code": result.code,
                    "message": self.narrator.rejection(result, player.lang),
                },
            )
        else:
            ack = {"type": "ack", "table": self.id, "ref": ref, "v": self.version, "game": self.game_id}
            ack["seq"] = self._logged() - 1
            self._when_saved(player.id, ack)
            if self.guide is not None:
                self.guide.accepted(now)
                self.held_ms = None  # the clock goes on from the held moment
                self.t0 = self.clock() - now / 1000
                self._catch_up(now)
        self._after_change()

    def _catch_up(self, now: int) -> None:
        driver = self.driver
        table = self.table
        if driver is None or table is None:
            return
        held = self.absences.next_due()
        while held is not None and held <= now and not table.over:
            while not table.over and driver.step(held):  # what came first, before the stand-in
                pass
            for index in self.absences.due(held):
                self._stand_in(index, permanent=False)
            self.changed()  # everyone sees who plays the seat now
            held = self.absences.next_due()
        guide = self.guide
        if guide is None:
            while not table.over and driver.step(now):
                pass
        else:
            while not table.over and not guide.holding() and driver.step(now):
                pass
            if guide.holding() and self.held_ms is None:
                self.held_ms = guide.hold_at()
            self._coach()
        self._send_cues(now)

    def _coach_message(self, index: int) -> JSON:
        """The coach's line of step `index` for the player (docs/guide.md), in their language."""
        guide = self.guide
        assert guide is not None
        names = self.names()
        out: JSON = {
            "type": "coach",
            "table": self.id,
            "step": index,
            "steps": len(guide.steps),
            "done": index >= len(guide.steps),
            "text": guide.text(index, names),
            "progress": guide.progress(index),
            "held": self.held_ms,
        }
        if index <= 0:
            out["intro"] = guide.opening(names)
        return out

    def _coach(self) -> None:
        """Say the coach's next line to the player once the coach waits for them (or is done)."""
        guide = self.guide
        if guide is None:
            return
        index = guide.announce()
        pid = self.seats[0].player
        if index is None or pid is None:
            return
        player = self.lobby.players.get(pid)
        with use_language(player.lang if player else "en"):
            self.send_to(pid, self._coach_message(index))

    def _after_change(self) -> None:
        table = self.table
        if table is not None and table.over and self.state == PLAYING:
            self._finish()
        until = self.sleeping_until
        due = self._next_due()
        if self.state != PLAYING or until is None or (due is not None and due < until):
            self.wake.set()
        # Else the timer task wakes in time as it is: waking it to sleep again would cost a
        # task switch and a new timeout per action.

    def _next_due(self) -> int | None:
        """The next moment something is due at the table: a timer, a bot's reaction, a cue."""
        if self.held_ms is not None:  # the coach waits for the player: nothing runs meanwhile
            return None
        due = self.driver.next_due() if self.driver is not None else None
        if self.cues and (due is None or self.cues[0][0] < due):
            due = self.cues[0][0]
        held = self.absences.next_due()
        if held is not None and (due is None or held < due):
            due = held
        return due

    def _finish(self) -> None:
        self.state = OVER
        self.games_played += 1
        store, table = self.lobby.store, self.table
        if store is not None and self.game_id is not None and table is not None and self.guide is None:
            places = self.game.standings(table)
            store.records.finish_game(self.game_id, table.now, table.winner, places, self.fence)
        self.changed()

    def _events(self, now: int, events: list[Event]) -> None:
        """The driver's listener: a new version, kept in history, sent to each member.

        Members who share a seat (spectators share None) hear the batch alike (`hear`, once per
        seat); those who also share a language get the same message, built and encoded once.
        """
        self.version += 1
        self.history.add(Batch.of(self.version, now, events))
        for event in events:
            if event.kind == "throw":
                self._cue_for_throw(event)
        if not self._sure():
            return
        seat_of: dict[str, int] = {}
        for i, sitting in enumerate(self.seats):
            if sitting.player is not None:
                seat_of.setdefault(sitting.player, i)
        members = self.members()
        hearing = self.hear(events, list(dict.fromkeys([seat_of.get(pid) for pid in members])))
        folded: dict[int | None, list[Fold]] = {}
        summaries: dict[int | None, Counter[Fold] | None] = {}
        digests, narrator = self.digests, self.narrator
        for seat, heard in hearing.items():
            folds = [] if heard is None else narrator.folds(heard.events, seat, heard.view, heard.priorities)
            folded[seat] = folds
            digest = digests.get(seat)
            if digest is None:
                digest = digests[seat] = Digest(now)
            if folds:
                digest.add(folds)
            summaries[seat] = digest.take(now) if digest.due(now) else None
        names = self.names()
        said: Said = {}
        built: dict[tuple[int | None, str], bytes | None] = {}
        players, recaps, version = self.lobby.players, self.recaps, self.version
        for pid in members:
            seat = seat_of.get(pid)
            folds = folded[seat]
            if folds or pid not in recaps:  # a Digest per member per batch costs
                recap = recaps.get(pid)
                if recap is None:
                    recap = recaps[pid] = Digest(now)
                recap.add(folds)
            player = players.get(pid)
            if player is None or player.connection is None:
                continue
            key = (seat, player.lang)
            if key in built:
                data = built[key]
            else:
                message = self.batch_message(
                    version, now, hearing[seat], seat, player.lang, names, summaries[seat], said
                )
                data = built[key] = None if message is None else encode(message)
            if data is not None:
                player.connection.send_raw(data)

    def hear(self, events: Sequence[Event], seats: Sequence[int | None]) -> dict[int | None, Heard | None]:
        """The batch as each of `seats` hears it (None: a spectator), or None for a seat that
        hears nothing of it. The one place events are filtered for members (`Event.for_seat`
        for the events a seat knows the secret of, the public form, built once, for the
        others); the views are built together (`Table.views`). (The leak checker, tests/server/
        test_leaks.py, holds what this gives against what each seat may know.)"""
        said = [ev.data_for_all() if ev.public else None for ev in events]
        secret = any(ev.knowers for ev in events)
        views = self.table.views(seats) if self.table is not None else {}
        out: dict[int | None, Heard | None] = {}
        everyones: list[JSON] | None = None
        for seat in seats:
            if not secret or seat is None:
                if everyones is None:
                    everyones = [e for e in said if e is not None]
                heard = everyones
            else:
                heard = []
                for ev, public in zip(events, said, strict=True):
                    if seat in ev.knowers:
                        mine = ev.for_seat(seat)
                        assert mine is not None
                        heard.append(mine)
                    elif public is not None:
                        heard.append(public)
            if not heard:
                out[seat] = None
                continue
            view = views.get(seat)
            out[seat] = Heard(heard, view, self.narrator.priorities(heard, seat, view))
        return out

    def batch_message(
        self,
        v: int,
        at: int,
        heard: Heard | None,
        seat: int | None,
        lang: str,
        names: list[str],
        summary: Counter[Fold] | None = None,
        said: Said | None = None,
    ) -> JSON | None:
        """The batch as `seat` hears it (`hear`), narrated in `lang`; None if it hears nothing
        of it. `summary` is the seat's digest of the background, due now (said by the "normal"
        verbosity); `said`, the batch's lines said so far (`Narrator.lines`)."""
        if heard is None:
            return None
        view = heard.view
        texts, priority = self.narrator.lines(heard.events, seat, names, view, lang, heard.priorities, said)
        message: JSON = {
            "type": "events",
            "table": self.id,
            "v": v,
            "at": at,
            "events": heard.events,
            "texts": texts,
            "priority": priority,
            "urgent": [p == Priority.ANSWER for p in priority],
            "view": view,
        }
        sentence = self.narrator.summary(summary, seat, names, lang) if summary else ""
        if sentence:
            message["summary"] = sentence
        return message

    def recap(self, player: Player) -> JSON:
        """The background since `player` last asked (the recap key), as one sentence."""
        now = self.now_ms()
        counts = self.recaps.setdefault(player.id, Digest(now)).take(now)
        text = self.narrator.summary(counts, self.seat_of(player.id), self.names(), player.lang)
        if not text:  # the edge answers in the asker's language
            text = _("Nothing else happened since you last asked.")
        return {"type": "answer", "table": self.id, "what": "recap", "text": text}

    def _cue_for_throw(self, event: Event) -> None:
        target = event.data.get("target")
        catch_from = event.data.get("catch_from")
        ident = event.data.get("id")
        if isinstance(target, int) and isinstance(catch_from, int) and isinstance(ident, int):
            seat = self.seats[target] if 0 <= target < len(self.seats) else None
            if seat is not None and seat.player is not None:
                heapq.heappush(self.cues, (catch_from, target, "catch_window", ident))

    def _send_cues(self, now: int) -> None:
        while self.cues and self.cues[0][0] <= now:
            at, target, cue, ident = heapq.heappop(self.cues)
            pid = self.seats[target].player
            if pid is not None and self._catchable(target, ident):
                player = self.lobby.players.get(pid)
                lang = player.lang if player else "en"
                self.send_to(
                    pid,
                    {
                        "type": "cue",
                        "table": self.id,
                        "cue": cue,
                        "flight": ident,
                        "at": at,
                        "text": self.narrator.cue(cue, lang),
                    },
                )

    def _catchable(self, target: int, ident: int) -> bool:
        """Whether flight `ident` can still be caught by `target`: in the air, not dodged, in a
        fight not yet decided. A cue for anything else would ask for a catch that fumbles."""
        view = self.table.view(target) if self.table is not None else None
        fight = view.get("fight") if view else None
        if not fight or fight.get("decided") or target not in fight.get("fighters", ()):
            return False
        return any(fl["id"] == ident and not fl["dodged"] for fl in fight.get("flights", ()))

    async def _timers(self) -> None:
        """Wake for the next deadline: a timer, a bot's reaction, a cue."""
        while self.state == PLAYING and self.driver is not None:
            if self.paused_at is not None:  # frozen: no timer, no bot, until the store writes
                self.wake.clear()
                await self.wake.wait()
                continue
            if not self._sure():  # maybe another node's table by now: nothing runs here
                await asyncio.sleep(UNSURE_WAIT_S)
                continue
            if self.unsent or self.held:
                self._sure_again()
            due = self._next_due()
            timeout = None if due is None else max(0.0, (due - self.now_ms()) / 1000 / self.lobby.rate)
            self.wake.clear()
            self.sleeping_until = math.inf if due is None else due
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):  # no task per wait, as wait_for makes
                    await self.wake.wait()
            self.sleeping_until = None
            if self.paused_at is not None or not self._sure():  # paused while waiting: nothing runs
                continue
            self._catch_up(self.now_ms())
            self._after_change()

    def resume(self, player: Player, since: int) -> JSON | None:
        """Send the batches a member missed, or a full resync when they are too old."""
        if player.id not in self.members():
            return _not_member()
        seat = self.seat_of(player.id)
        missed = self.history.since(since, self.version)
        connection = player.connection
        room_left = connection.queue_size // 2 if connection is not None else 0
        if missed is None or len(missed) > room_left:
            # Too old, or more than the connection's queue should take at once: resync in full.
            self.send_to(player.id, self.snapshot(player.id))
            return None
        names = self.names()
        for batch in missed:
            heard = self.hear(batch.events, [seat])[seat]
            message = self.batch_message(batch.v, batch.at, heard, seat, player.lang, names)
            if message is not None:
                self.send_to(player.id, message)
        self.send_to(player.id, {"type": "resumed", "table": self.id, "v": self.version})
        return None

    # -- people coming and going ----------------------------------------------------------
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

    def _hold(self, index: int) -> None:
        """Hold `index` for its absent person: a stand-in is due after the grace period."""
        table, driver = self.table, self.driver
        if table is None or driver is None or table.over:
            return
        hand = table.view(index).get("hand")
        cards = [c for c in hand if isinstance(c, str)] if isinstance(hand, list) else []
        grace = seat_grace_ms(self.options)
        self.absences.left(index, self.now_ms(), grace, cards, len(driver.run_info.moves))
        for held in self.absences.due(self.now_ms()):  # no grace: the stand-in plays at once
            self._stand_in(held, permanent=False)
        self.wake.set()

    def _welcome_back(self, player: Player, index: int, away: Away) -> None:
        """One line for a person back at their seat: what happened to them while away."""
        table, driver = self.table, self.driver
        if table is None or driver is None:
            return
        hand = table.view(index).get("hand")
        cards = [c for c in hand if isinstance(c, str)] if isinstance(hand, list) else []
        moves = sum(1 for m in driver.run_info.moves[away.moves :] if m.player == index)
        winner = table.winner if table.over else None
        names = self.names()
        text = while_away(
            away,
            cards,
            moves,
            names[winner] if winner is not None and winner != index else None,
            winner == index,
            player.lang,
        )
        self.send_to(player.id, {"type": "away", "table": self.id, "text": text})

    def _stand_in(self, index: int, permanent: bool) -> None:
        seat = self.seats[index]
        if permanent:
            self.seats[index] = seat = Seat(name=seat.name, level=self.bot_level)
        else:
            seat.standing_in = True
            seat.level = self.bot_level
        if self.driver is not None and self.table is not None and index not in self.driver.bots:
            bot = make_stand_in(
                self.game.name, index, self.bot_level, self.seed * 1000 + index + 500, self.options
            )
            self.driver.bots[index] = bot
            bot.notice([], self._viewer(index), self.table.now)
            self.wake.set()

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
            return _not_member()
        if what == "recap" and self.table is not None:
            return self.recap(player)
        seat = self.seat_of(player.id)
        view = self.table.view(seat) if self.table is not None else None
        return self.narrator.query(what, card, view, self.names(), seat, player.lang)

    def stop(self) -> None:
        self.state = OVER if self.state == PLAYING else self.state
        self.held.clear()
        if self.countdown is not None:
            self.countdown.cancel()
            self.countdown = None
        if self.lobby.store is not None:
            self.lobby.store.journal.watchers.discard(self._store_failing)
        self.wake.set()
        if self.task is not None:
            self.task.cancel()


def _not_member() -> JSON:
    """The answer to anyone asking about, or leaving, a table they are not at: it says nothing
    of the table (a private table's state and chat are for its members)."""
    return error("not_member", _("Join or watch the table first."))
