"""The tables of a node: their list, their creation (a table, Play now, a guided game) within
the limits, and their close; the players' connections closing at them.
"""

from __future__ import annotations

from collections.abc import Callable

from cardroom.bots import DEFAULT_LEVEL, levels
from cardroom.games import GAMES, find_game
from cardroom.guide.coach import Guide
from cardroom.guide.steps import SCRIPTS
from cardroom.i18n import _, ngettext, use_language
from cardroom.protocol import JSON, CardroomError
from cardroom.server.connection import Connection, Player
from cardroom.server.limits import beyond_limits
from cardroom.server.lobby.nodes import Nodes
from cardroom.server.lobby.state import log
from cardroom.server.room import PLAYING, WAITING, Room
from cardroom.server.wire import error

PLAY_NOW_SEATS = 4
"""The seats of a table Play now opens: room for a few friends, a game either way."""


class Tables(Nodes):
    """This node's tables, as the lobby lists, opens and closes them."""

    def gone(self, connection: Connection) -> None:
        """A connection closed: its player's seats get stand-in bots."""
        player = connection.player
        if player is None or player.connection is not connection:
            return
        player.connection = None
        player.gone_at = self.clock()
        if connection.node is None:
            self.bus.left(player.id)
            self.relay.left(player)
        for table_id in list(player.tables):
            room = self.rooms.get(table_id)
            if room is None:
                continue
            if room.seat_of(player.id) is None:
                room.spectators.discard(player.id)
                player.tables.discard(table_id)
                if not room.members():
                    self.close_room(room)
                else:
                    room.changed()
            else:
                room.dropped(player)

    def listing(self, page: int = 0) -> JSON:
        """One page of the table list, this node's tables and the cluster's others alike: tables
        with a free seat first, then games under way, then the rest; newest first within each.
        Only that page's summaries of this node's tables are built."""
        size = self.limits.table_page

        def rank(room: Room | JSON) -> int:
            if isinstance(room, Room):
                state, free = room.state, any(seat.empty for seat in room.seats)
            else:
                state, free = str(room.get("state")), bool(room.get("free"))
            if state == WAITING and free:
                return 0
            return 1 if state == PLAYING else 2

        # A private table is for those its host invited (its link): never listed (docs/security.md).
        every: list[Room | JSON] = [room for room in reversed(self.rooms.values()) if not room.private]
        every += [summary for _node, summary in self.remote.values() if not summary.get("private")]
        ordered = sorted(every, key=rank)
        total = len(ordered)
        shown = ordered[page * size : (page + 1) * size]
        return {
            "type": "tables",
            "tables": [room.summary() if isinstance(room, Room) else room for room in shown],
            "page": page,
            "pages": max(1, -(-total // size)),
            "total": total,
        }

    def may_create(self, player: Player, address: str, elsewhere: tuple[int, int] = (0, 0)) -> JSON | None:
        """Refused when the player, or their address, already has as many open tables as allowed:
        this node's count, or `elsewhere`'s (the whole cluster's, counted in Redis) if higher."""
        mine = max(elsewhere[0], sum(1 for who, _where in self.creators.values() if who == player.id))
        if mine >= self.limits.tables_per_player:
            return error(
                "too_many_tables",
                ngettext(
                    "You already have {n} open table: leave it before you create another.",
                    "You already have {n} open tables: leave one before you create another.",
                    mine,
                ).format(n=mine),
            )
        if (
            max(elsewhere[1], sum(1 for _who, where in self.creators.values() if where == address))
            >= self.limits.tables_per_address
        ):
            return error(
                "too_many_tables", _("Too many open tables were created from your address: join one.")
            )
        return None

    def create(
        self,
        player: Player,
        address: str,
        game_name: str,
        seats: int,
        options: JSON,
        bots: int,
        bot_level: str | None,
        private: bool,
        elsewhere: tuple[int, int] = (0, 0),
    ) -> Room | JSON:
        """A new table of `player`'s, or the error that says why not (`elsewhere`: may_create)."""
        if game_name not in GAMES:
            return error("bad_game", _("Unknown game."))
        game = find_game(game_name)
        if not game.min_players <= seats <= game.max_players:
            return error(
                "bad_seats",
                _("This game is played by {low} to {high} players.").format(
                    low=game.min_players, high=game.max_players
                ),
            )
        level = bot_level or DEFAULT_LEVEL
        if level not in levels(game.name):
            return error("bad_level", _("Unknown bot level."))
        if not 0 <= bots < seats:
            return error("bad_bots", _("Leave at least one seat for yourself."))
        try:
            # Only the options' own form is kept and sent: what a client wrote is never passed on.
            typed = game.options_json(options, seats)
        except CardroomError as exc:
            return error("bad_options", str(exc))
        beyond = beyond_limits(game.name, typed)
        if beyond is not None:
            return error("bad_options", beyond)
        if self.draining:
            return error("closing", _("This server is closing: reconnect in a moment to create a table."))
        refused = self.may_create(player, address, elsewhere)
        if refused is not None:
            return refused
        room = Room(self, game, seats, typed, player.id, private, level, self.clock)
        self.rooms[room.id] = room
        self.creators[room.id] = (player.id, address)
        if self.bus.clustered:
            self._in_background(self._own(room))
        room.join(player, 0, room.code)
        for _i in range(bots):
            room.add_bot(player, None, level)
        self.table_changed(room)
        return room

    def play_now(
        self, player: Player, address: str, game_name: str, elsewhere: tuple[int, int] = (0, 0)
    ) -> Room | JSON:
        """Play now (docs/protocol.md): a seat at the fullest open public table of the game at
        this node, else a new table of `PLAY_NOW_SEATS` that starts by itself after
        `limits.play_now_s` (bots in the seats nobody took), so friends have time to join."""
        if game_name not in GAMES:
            return error("bad_game", _("Unknown game."))
        open_tables = [
            room
            for room in self.rooms.values()
            if room.game.name == game_name
            and not room.private
            and room.state == WAITING
            and any(seat.empty for seat in room.seats)
            and room.seat_of(player.id) is None
        ]
        if open_tables:
            room = max(open_tables, key=lambda room: sum(not seat.empty for seat in room.seats))
            return room.join(player, None, None) or room
        made = self.create(player, address, game_name, PLAY_NOW_SEATS, {}, 0, None, False, elsewhere)
        if isinstance(made, Room):
            made.count_down(self.limits.play_now_s)
        return made

    def guide(
        self, player: Player, address: str, game_name: str, elsewhere: tuple[int, int] = (0, 0)
    ) -> Room | JSON:
        """A guided first game of `game_name` (docs/guide.md): a private table of the guide's
        scripted deal and bots, started at once, never stored."""
        if game_name not in SCRIPTS:
            return error("bad_game", _("Unknown game."))
        script = SCRIPTS[game_name]
        made = self.create(
            player,
            address,
            game_name,
            script.players,
            script.options,
            script.players - 1,
            None,
            True,
            elsewhere,
        )
        if isinstance(made, Room):
            made.guide = Guide(game_name)
            refused = made.start(player)
            if refused is not None:
                made.leave(player)
                return refused
        return made

    def create_for(self, connection: Connection, request: Callable[[tuple[int, int]], Room | JSON]) -> None:
        """A player's request for a new table (`request`: `create` with the player's choices,
        given the cluster's counts); a refusal goes back to them. In a cluster the player's
        and their address's open tables are first counted at every node, in Redis, so that
        another node gives no fresh allowance (this node's own count if Redis is away)."""
        if not self.bus.clustered:
            self._created(connection, request((0, 0)))
            return
        player = connection.player

        async def counted() -> None:
            try:
                elsewhere = await self.bus.created(player.id if player else "", connection.address)
            except Exception as exc:  # Redis away: this node's own count decides
                log.warning(
                    "the cluster's open tables could not be counted (%s): this node's count decides", exc
                )
                elsewhere = (0, 0)
            if not connection.closed:
                with use_language(player.lang if player else "en"):
                    self._created(connection, request(elsewhere))

        self._in_background(counted())

    def _created(self, connection: Connection, made: Room | JSON) -> None:
        if not isinstance(made, Room):
            connection.send(made)

    def list_for(self, connection: Connection, page: int) -> None:
        """A page of the table list, at the rate allowed: the connection's own, and in a
        cluster also the player's, counted in Redis for every node (a connection to another
        node gives no fresh allowance)."""
        if not connection.list_limit.allow():
            connection.send(error("rate_limited", _("Slow down: too many messages.")))
            return
        player = connection.player
        if not self.bus.clustered or player is None:
            connection.send(self.listing(page))
            return

        async def counted() -> None:
            try:
                allowed = await self.bus.allow(
                    f"list:{player.id}", self.limits.list_per_s, self.limits.list_burst
                )
            except Exception:  # Redis away: the connection's own count meanwhile
                allowed = True
            if allowed:
                await self.settled()
            with use_language(player.lang):
                connection.send(
                    self.listing(page)
                    if allowed
                    else error("rate_limited", _("Slow down: too many messages."))
                )

        self._in_background(counted())

    def close_room(self, room: Room) -> None:
        room.stop()
        removed = room.forget()
        self.collector.closed()
        self.creators.pop(room.id, None)
        if self.rooms.pop(room.id, None) is not None:
            if not room.private:
                self.broadcast({"type": "table_closed", "table": room.id}, lobby_only=True)
            if removed is None:
                self._let_go(room.id)
            else:
                # Let go once its row is gone: another node told of the close, or finding the
                # lease free, looks for the row, and one still there was taken over and written
                # back, a closed table reopened over and over between the nodes (bench.load
                # --nodes 2: its next part's guests were told their names were taken).
                removed.add_done_callback(lambda _done: self._let_go(room.id))

    def _let_go(self, table_id: str) -> None:
        """The other nodes no longer list the table, and its lease is free."""
        self.bus.drop_table(table_id)
        self.bus.release(table_id)

    def table_changed(self, room: Room) -> None:
        if room.id in self.rooms and self.bus.sure():
            for player_id in (
                () if self.bus.clustered else {room.host, *(s.player for s in room.seats if s.player)}
            ):
                player = self.players.get(player_id)  # a guest's first seat: their row (`_remember`)
                if player is not None and not player.kept:
                    self._remember(player, seated=True)
            summary = room.summary()
            if not room.private:
                self.broadcast({"type": "table_update", "table": summary}, lobby_only=True)
            self.bus.put_table(room.id, summary, sorted(room.spectators), self.creators.get(room.id))

    def expire_rooms(self) -> None:
        """Each room's timers that ran out; rooms nobody comes back to are closed. (Its own
        method: a loop variable of the housekeeping's would hold the last room for ever.)"""
        for room in list(self.rooms.values()):
            room.expire()
            if self.abandoned(room):
                self.close_room(room)

    def abandoned(self, room: Room) -> bool:
        """Nobody is connected to the room and no seated player is still within the grace period."""
        for member in room.members():
            player = self.players.get(member)
            if player is not None and player.connection is not None and not player.connection.closed:
                return False
        return all(seat.player is None or seat.dropped_at is None for seat in room.seats)
