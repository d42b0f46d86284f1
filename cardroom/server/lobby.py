"""The lobby: players on this server, their tables, and the lobby chat."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any

from cardroom.bots import DEFAULT_LEVEL, levels
from cardroom.cluster.bus import Bus, LocalBus
from cardroom.cluster.loops import stop_all
from cardroom.games import GAMES, find_game
from cardroom.guide.coach import Guide
from cardroom.guide.steps import SCRIPTS
from cardroom.i18n import _, ngettext, use_language
from cardroom.protocol import JSON, CardroomError
from cardroom.server import closes
from cardroom.server.buckets import Buckets
from cardroom.server.collector import Collector
from cardroom.server.connection import SEND_QUEUE, Connection, Player, RateLimit
from cardroom.server.limits import Limits, beyond_limits, client_key
from cardroom.server.relay import Relay
from cardroom.server.room import GRACE_MS, PLAYING, WAITING, Room
from cardroom.server.wire import encode, error
from cardroom.store import Account, Store, StoreError
from cardroom.store.accounts import DELETED_NAME, token_hash
from cardroom.store.names import checked_name, name_keys

PING_EVERY_S = 5.0
PLAY_NOW_SEATS = 4
"""The seats of a table Play now opens: room for a few friends, a game either way."""
log = logging.getLogger("cardroom.server")
ADOPT_EVERY_S = 0.5
"""In a cluster, how often a node looks at which nodes are alive, and for tables no live node
owns: those of a node that died since, or that their node let go (a drain)."""
ADOPT_SCAN_S = 30.0
"""How often a node also reads every open table in the store, for a table no live node holds
that the directory does not name (its node died while Redis was away): the rest of the time,
the work is proportional to the changes, not to the number of tables."""
ORPHAN_TRIES_S = 10.0
"""How long a table let go by its node is tried (its lease may still be held a moment)."""
ADOPT_PAUSE_S = 6.0
"""After the bus failed (Redis away), how long it must answer again before this node adopts any
table: every live owner has written its tables and leases again by then (its heartbeat is every
second), so none is taken from a live node."""
DRAIN_S = 10.0
"""How long a node told to stop (SIGTERM) waits for the other nodes to take its tables over."""
STOP_S = 5.0
"""The longest the lobby's background loops are waited for when it stops (cluster/loops.py)."""
PING_SLICES = 20
"""Each player is pinged every PING_EVERY_S, a twentieth of them at a time: a thousand pings (and
their pongs) at once would stall every table for a tenth of a second."""


class Lobby:
    """Everything one server node knows: players, rooms, the lobby chat."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        send_queue: int = SEND_QUEUE,
        grace_s: float = GRACE_MS / 1000,
        limits: Limits | None = None,
        rate: float = 1.0,
    ) -> None:
        self.rate = rate
        """Seconds of play time a second of `clock` makes: 1 at a real table. A faster clock
        (`cardroom serve` with CARDROOM_CLOCK_RATE) plays a whole game in a fraction of its time,
        its timers, bots and narration's summaries alike, since each counts play time: the
        speech-budget test measures a whole game's narration so (docs/speech.md)."""
        self.clock = clock if rate == 1 else lambda: clock() * rate
        self.send_queue = send_queue  # messages each connection may have waiting to go out
        self.grace_s = grace_s
        """How long a player who went away keeps their seat, and a guest their token."""
        self.limits = limits or Limits()
        self.connections: Counter[str] = Counter()  # open websockets by address
        self.creators: dict[str, tuple[str, str]] = {}  # room id: (player id, address) that made it
        self.seated_chat = RateLimit(self.limits.lobby_chat_to_seated_per_s, 1)
        self.chat_from = Buckets(self.limits.chat_per_address_per_s, self.limits.chat_address_burst)
        """Chat lines per address (IPv6: per /64), all its players together: a new guest from
        the same address gets no fresh allowance."""
        self.hello_turns = asyncio.Semaphore(self.limits.hello_lookups)
        self.players: dict[str, Player] = {}
        self.by_token: dict[str, Player] = {}  # by the token's digest, as the store keeps it
        self.by_account: dict[int, Player] = {}
        self.rooms: dict[str, Room] = {}
        self.chat_log: list[JSON] = []
        self._lines_said = 0  # the lobby lines said here, numbering their ids
        self._house: asyncio.Task[None] | None = None
        self.store: Store | None = None
        self.bus: Bus = LocalBus()
        self.remote: dict[str, tuple[str, JSON]] = {}  # tables of other nodes: id -> (node, summary)
        self._adopting: asyncio.Task[None] | None = None
        self._claims: set[asyncio.Task[None]] = set()  # `_in_background`'s tasks, held until done
        self.relay = Relay(self)
        self.collector = Collector(clock=clock)
        """Collects the closed tables' and connections' cycles from the housekeeping (collector.py)."""
        self.draining = False
        """The node was told to stop: it takes no table and hands its own to the other nodes."""
        self.stopping = False  # the background loops end (cardroom/cluster/loops.py says why a flag)
        self._live: set[str] | None = None  # the live nodes at the last look
        self._orphans: dict[str, float] = {}  # tables to take if no node does: id -> until when
        self._unheard = False  # the bus may have missed messages: the directory is read again
        self._chat_turn = asyncio.Lock()  # chat lines counted in Redis, one after another
        self.awaited: dict[str, dict[str, float]] = {}
        """Spectators of tables taken over here from a node that died, not connected anywhere
        yet: player id -> {table id: until when they watch it again when they come back}."""

    async def join(self, bus: Bus) -> None:
        """Share the lobby with the other nodes on `bus` (before `attach`): their tables are
        listed here, the lobby chat is one, and each table is owned by one node."""
        self.bus = bus
        await bus.open(self._from_bus, self._lost)
        self.chat_log = (await bus.chat_log())[-200:]
        await self._refresh_remote()

    async def _read_again(self) -> None:
        """What the bus may have missed telling this node (Redis was away): the other nodes'
        tables, read again whole, and the lobby lines said meanwhile at other nodes, each
        added once, in the order the bus keeps them."""
        await self._refresh_remote()
        known = {said.get("id") for said in self.chat_log}
        for line in await self.bus.chat_log():
            if "id" in line and line["id"] not in known:  # (an older node's lines have none)
                self._chat_line(line)

    async def attach(self, store: Store) -> None:
        """Keep players, tables and games in `store` from now on, and reopen the tables it holds
        (a restart: every table goes on where it was; its players come back to it)."""
        self.store = store
        rows = await store.records.open_rooms()
        held = {seat["player"] for row in rows for seat in row.seats if seat.get("player")}
        if self.bus.clustered:  # guests in another node's lobby are theirs
            held |= set(await self.bus.online())
        store.records.forget_guests(keep=held | {row.host for row in rows})
        await self.adopt(rows)

    async def adopt(self, rows: list[Any] | None = None) -> None:
        """Reopen the store's tables (`rows`, else all open ones) that no node holds: all of them
        at a restart of a single server; in a cluster, those whose lease this node gets (a dead
        node's, once its leases ran out), each resumed from its log exactly as at a restart."""
        store = self.store
        assert store is not None
        for row in rows if rows is not None else await store.records.open_rooms():
            if row.id in self.rooms or row.id in self.remote:
                continue
            fence = await self._claim(store, row)
            if fence is None:
                continue
            watchers = await self.bus.watchers(row.id) if self.bus.clustered else []
            made = await self.bus.creator(row.id) if self.bus.clustered else None
            await self._know([seat["player"] for seat in row.seats if seat.get("player")] + [row.host])
            record = await store.records.get(row.game_id) if row.state == "playing" and row.game_id else None
            try:
                room = Room.restore(self, row, record)
            except CardroomError:
                log.exception("table %s could not be reopened", row.id)
                store.records.drop_room(row.id, fence)
                continue
            room.fence = fence
            self.rooms[room.id] = room
            if made is not None:
                self.creators[room.id] = made  # still counted against who created it
            for seat in room.seats:
                if seat.player in self.players:
                    self.players[seat.player].tables.add(room.id)
            self.bus.put_table(room.id, room.summary(), creator=made)
            self._welcome_back(room)
            if self.bus.clustered:
                await self._elsewhere_back(room, watchers)

    async def _know(self, ids: list[str]) -> None:
        """Players of a table taken over (or reopened) that this node has not met: known from
        the store, away since then (their grace period starts), so that they find their
        places again when they come back."""
        assert self.store is not None
        for known in await self.store.records.players_by_id([i for i in ids if i not in self.players]):
            if known.id not in self.players:
                player = Player(known.id, known.name, "", known.lang, known.account_id, kept=True)
                player.gone_at = self.clock()
                self.players[known.id] = player
                self.by_token[known.token_hash] = player
                if known.account_id is not None:
                    self.by_account[known.account_id] = player

    def _welcome_back(self, room: Room) -> None:
        """A table this node took over: its players connected here have their seats again at
        once, and those who watched it through the relay watch it here."""
        watching = {player.id: player for player in self.relay.adopted(room.id)}
        for index, seat in enumerate(room.seats):
            player = self.players.get(seat.player) if seat.player else None
            if player is not None and player.connection is not None and player.connection.node is None:
                watching.pop(player.id, None)
                if not player.connection.closed:
                    room.reclaim(player, index)
        for player in watching.values():
            room.spectate(player, room.code)

    async def _elsewhere_back(self, room: Room, watchers: list[str]) -> None:
        """The people of a table taken over here who are not connected here. Its seated players
        connected to another node (who came back there before the table moved: that node
        did not know they were at it) have their seats again at once, relayed there. Its
        spectators at a node that died watch it here again: at once if they are connected
        here or at another node (relayed there), else when they come back within the grace
        period (`awaited`). Those who watched through the relay from a live node are back
        already (`_welcome_back`, `Relay.moved`)."""
        seated = [
            seat.player
            for seat in room.seats
            if seat.player is not None
            and (player := self.players.get(seat.player)) is not None
            and (player.connection is None or player.connection.closed)
        ]
        ids = [i for i in watchers if i not in room.spectators and room.seat_of(i) is None]
        if not ids and not seated:
            return
        await self._know(ids)
        where = await self.bus.where(ids + seated)
        if self.rooms.get(room.id) is not room:
            return
        for player_id in seated:
            player, node = self.players.get(player_id), where.get(player_id, self.bus.node)
            index = room.seat_of(player_id)
            if (
                player is not None
                and index is not None
                and node != self.bus.node
                and (player.connection is None or player.connection.closed)
                and self.relay.attach(node, player)
            ):
                room.reclaim(player, index)
        for player_id in ids:
            player = self.players.get(player_id)
            if player is None or player_id in room.spectators:
                continue
            connection = player.connection
            node = where.get(player_id, self.bus.node)
            here = connection is not None and connection.node is None and not connection.closed
            if here or (node != self.bus.node and self.relay.attach(node, player)):
                room.spectate(player, room.code)
            else:
                self.awaited.setdefault(player_id, {})[room.id] = self.clock() + self.grace_s

    def watch_again(self, player: Player) -> list[str]:
        """The tables here `player` watched at a node that died, and watches again now."""
        tables = self.awaited.pop(player.id, {})
        now = self.clock()
        found = []
        for table_id, until in sorted(tables.items()):
            room = self.rooms.get(table_id)
            if room is not None and until >= now and room.seat_of(player.id) is None:
                room.spectate(player, room.code)
                found.append(table_id)
        return found

    async def _claim(self, store: Store, row: Any) -> int | None:
        """The fencing number this node owns the table `row` with, or None (another node has it).
        A game in play is fenced in the store before its log is read: from then on, no move of
        an earlier owner can slip in behind the resumed game (store/fencing.py)."""
        if not self.bus.clustered:
            return await self.bus.claim(row.id)
        playing = row.state == "playing" and row.game_id
        floor = max(row.fence, await store.records.fence_of(row.game_id) if playing else 0)
        fence = await self.bus.claim(row.id, floor)
        if fence is not None:
            try:
                await store.records.claim_table(row.id, row.game_id if playing else None, fence)
            except RuntimeError:
                log.warning("table %s: a newer owner has written to its log; left to it", row.id)
                self.bus.release(row.id)
                return None
        return fence

    # -- connections ---------------------------------------------------------------------
    def connected(self, address: str) -> bool:
        """Count a new connection from `address`; False (not counted) when it has too many."""
        if self.connections[address] >= self.limits.connections_per_address:
            return False
        self.connections[address] += 1
        return True

    def disconnected(self, address: str) -> None:
        self.collector.closed()
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]

    # -- players -------------------------------------------------------------------------
    def player_name(self, player_id: str) -> str | None:
        player = self.players.get(player_id)
        return player.name if player else None

    def name_in_use(self, name: str) -> bool:
        """Whether a player of this node, connected or at one of its tables, goes by that name
        or one that looks like it (store/names.py): a guest holds a name while there."""
        keys = name_keys(name)
        return any(
            not keys.isdisjoint(name_keys(p.name))
            for p in self.players.values()
            if p.tables or (p.connection is not None and not p.connection.closed)
        )

    def online(self) -> list[Player]:
        """The players connected to this node (not those of other nodes at its tables)."""
        return [
            p
            for p in self.players.values()
            if p.connection is not None and p.connection.node is None and not p.connection.closed
        ]

    async def recall(self, token: str | None, account: Account | None) -> None:
        """In a cluster, a player another node met enters here: known from the store by their
        token or account, so that `hello` finds them (the same id, their seats anywhere)."""
        store = self.store
        if not self.bus.clustered or store is None:
            return
        if token:
            digest = token_hash(token)
            row = None if digest in self.by_token else await store.records.player_by(token_hash=digest)
        elif account is not None:
            row = (
                None
                if account.id in self.by_account
                else await store.records.player_by(account_id=account.id)
            )
        else:
            return
        if row is None:
            return
        player = self.players.get(row.id)
        if player is None:
            player = self.players[row.id] = Player(row.id, row.name, "", row.lang, row.account_id, kept=True)
        self.by_token[row.token_hash] = player
        if row.account_id is not None:
            self.by_account[row.account_id] = player

    def hello(
        self, connection: Connection, name: str, token: str | None, lang: str, account: Account | None = None
    ) -> Player | JSON:
        """Enter with a nickname or an account, or come back with the token of an earlier connection."""
        player: Player | None = None
        if token:
            player = self.by_token.get(token_hash(token))
            # An account's player token is good only with a live session of that account (the
            # page's cookie or hello.session): a logout ends it with the session.
            if player is None or (
                player.account_id is not None and (account is None or account.id != player.account_id)
            ):
                return error("bad_token", _("That session has expired: enter with a nickname again."))
            player.token = token
        elif account is not None:
            player = self.by_account.get(account.id)
        if player is not None:
            old = player.connection
            if old is not None and old is not connection and not old.closed:
                old.close(closes.REPLACED)
            player.connection = connection
            player.gone_at = None
            player.lang = lang or player.lang
            connection.player = player
            self._remember(player)
            self.bus.here(player.id, player.name)
            return player
        if account is not None:
            cleaned = account.name
        else:
            try:
                cleaned = checked_name(name, _("Choose a nickname of 1 to 24 printable characters."))
            except StoreError as exc:
                return error(exc.code, str(exc))
            if self.name_in_use(cleaned):
                return error("name_taken", _("Someone here already uses that nickname: choose another."))
        player = Player(secrets.token_urlsafe(8), cleaned, secrets.token_urlsafe(24), lang or "en")
        if account is not None:
            player.account_id = account.id
            self.by_account[account.id] = player
        player.connection = connection
        connection.player = player
        self.players[player.id] = player
        self.by_token[token_hash(player.token)] = player
        self._remember(player)
        self.bus.here(player.id, player.name)
        return player

    def _remember(self, player: Player, seated: bool = False) -> None:
        """Keep the player in the store, so that their seats find them again after a restart.
        A guest gets a row only once `seated` (or hosting): one who never sat at a table needs
        none, as a restart forgets guests at no table, and reconnecting as ever new guests
        must not fill the database. In a cluster every guest has one: another node may have to
        find them by their token (`recall`)."""
        if self.store is None:
            return
        if player.account_id is None and not (player.kept or seated or self.bus.clustered):
            return
        player.kept = True
        self.store.records.save_player(
            player.id, player.name, token_hash(player.token), player.account_id, player.lang
        )

    def rejoin(self, player: Player) -> None:
        """After a player's welcome: their seats are theirs again, each table resyncs (those of
        other nodes too: they relay to this node from now on)."""
        self.relay.entered(player)
        self.watch_again(player)
        for table_id in sorted(player.tables):
            room = self.rooms.get(table_id)
            if room is None:
                player.tables.discard(table_id)
                continue
            seat = room.seat_of(player.id)
            if seat is not None:
                room.reclaim(player, seat)
            elif player.connection is not None:
                player.connection.send(room.snapshot(player.id))

    def logged_out(self, session_hash: str) -> None:
        """A session ended: the connections that entered with it close as with a stale token."""
        for player in self.online():
            assert player.connection is not None
            if player.connection.session == session_hash:
                player.connection.close(closes.BAD_TOKEN)

    def account_deleted(self, account_id: int) -> None:
        """An account was deleted (its sessions ended first): its player is no one's any more.
        Its token finds nothing, and a new account that gets the same id is not taken for it;
        a seat it still holds is a stranger's until the player is forgotten as an idle guest."""
        player = self.by_account.pop(account_id, None)
        if player is None:
            return
        player.account_id = None
        player.name = DELETED_NAME
        self.by_token = {key: p for key, p in self.by_token.items() if p is not player}

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

    # -- tables --------------------------------------------------------------------------
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

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` beside the caller, the task held until it is done (a lease taken, a count
        asked of Redis, old records forgotten)."""
        self._claims.add(task := asyncio.create_task(work))
        task.add_done_callback(self._claims.discard)

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

    def room(self, table_id: str) -> Room | JSON:
        room = self.rooms.get(table_id)
        if room is None:
            return error("no_such_table", _("That table does not exist (any more)."))
        return room

    def close_room(self, room: Room) -> None:
        room.stop()
        room.forget()
        self.collector.closed()
        self.creators.pop(room.id, None)
        if self.rooms.pop(room.id, None) is not None:
            if not room.private:
                self.broadcast({"type": "table_closed", "table": room.id}, lobby_only=True)
            self.bus.drop_table(room.id)
            self.bus.release(room.id)

    def sure(self) -> bool:
        """Whether this node's tables are surely its own now (`Bus.sure`): else they wait."""
        return self.bus.sure()

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

    # -- the other nodes -----------------------------------------------------------------
    async def _own(self, room: Room) -> None:
        """A new table's lease: its first fencing number. None means another node took the
        id in the meantime; the table cannot be kept here then."""
        fence = await self.bus.claim(room.id)
        if fence is None:
            self._lost(room.id)
        elif room.id in self.rooms:
            room.fence = fence

    def _lost(self, table_id: str) -> None:
        """This node no longer owns the table (its lease ran out): it stops here, unwritten, and
        its members here are told it closed (they find it again in the lobby, at its new node)."""
        room = self.rooms.pop(table_id, None)
        if room is not None:
            log.warning("table %s stopped here: this node lost its lease", table_id)
            room.stop()
            for member in room.members():
                player = self.players.get(member)
                if player is None:
                    continue
                player.tables.discard(table_id)
                # Only those connected here: the table's new owner has the others (it resyncs
                # them through their own node), and this node's word on it is stale.
                if player.connection is not None and player.connection.node is None:
                    player.connection.send({"type": "table_closed", "table": table_id})

    def _from_bus(self, message: JSON) -> None:
        """A message of another node's lobby: its tables, the lobby chat."""
        if self.relay.receive(message):
            return
        kind, node = message.get("type"), message.get("node")
        if kind == "bus_back":
            self._unheard = True
            self.relay.heard_again()
            return
        if kind == "table_update" and message["table"]["id"] not in self.rooms:
            self.remote[message["table"]["id"]] = (str(node), message["table"])
            self.relay.moved(message["table"]["id"], str(node))
            if not message["table"].get("private"):
                self.broadcast({"type": "table_update", "table": message["table"]}, lobby_only=True)
        elif kind == "table_closed" and self.remote.get(message["table"], ("", {}))[0] == node:
            listed = not self.remote.pop(message["table"])[1].get("private")
            # Closed for good (no row any more), or let go by a node that is draining: looked at.
            self._orphans[message["table"]] = time.monotonic() + ORPHAN_TRIES_S
            if listed:
                self.broadcast({"type": "table_closed", "table": message["table"]}, lobby_only=True)
        elif kind == "chat":
            self._chat_line(message["line"])

    async def settled(self) -> None:
        """Before a player is shown the table list: just after Redis was away, when this lobby
        may have missed news of the other nodes' tables (until the pause after it ends and
        the directory is read once more), the directory is read again now, so that a player
        arriving then sees every table the cluster lists."""
        if self._unheard:
            with contextlib.suppress(Exception):
                await self._read_again()

    async def _refresh_remote(self) -> None:
        """The other nodes' tables, read again whole (a node that died is no longer listed)."""
        self.remote = {
            table_id: entry
            for table_id, entry in (await self.bus.tables()).items()
            if entry[0] != self.bus.node
        }

    def broadcast(self, message: JSON, lobby_only: bool = False) -> None:
        """Send to everyone online; `lobby_only`: to those at no table (table lists are for them,
        and a table list update per seat change, sent to every player at every table, would
        cost more than all the games)."""
        data = encode(message)
        for player in self.online():
            assert player.connection is not None
            if not (lobby_only and (player.tables or player.away)):
                player.connection.send_raw(data)

    def may_chat(self, player: Player, address: str | None) -> bool:
        """Whether `player` may say one more line now, by this node's own count (lobby and
        tables share the rate), and their address (None: a player of another node's edge)."""
        if player.chat_limit is None:
            player.chat_limit = RateLimit(self.limits.chat_per_s, self.limits.chat_burst)
        return player.chat_limit.allow() and (address is None or self.chat_from.allow(client_key(address)))

    def said(self, connection: Connection, player: Player, table_id: str | None, text: str) -> None:
        """A chat line of `player` (at a table of this node, or in the lobby), counted against
        their rate and their address's first. In a cluster the counts are one for every node,
        in Redis: a player chatting in the lobby at one node and at another node's table, or
        connecting again elsewhere, gets no fresh rate. The lines are counted in the order they
        came. (A line relayed from another node's edge is counted per player only: the address
        stays at that edge.)"""
        address = connection.address if connection.node is None else None
        if not self.bus.clustered:
            self._chat_counted(connection, player, table_id, text, self.may_chat(player, address))
            return
        self._in_background(self._count_chat(connection, player, table_id, text, address))

    async def _count_chat(
        self, connection: Connection, player: Player, table_id: str | None, text: str, address: str | None
    ) -> None:
        limits = self.limits
        async with self._chat_turn:
            try:
                allowed = await self.bus.allow(f"chat:{player.id}", limits.chat_per_s, limits.chat_burst)
                if allowed and address is not None:
                    allowed = await self.bus.allow(
                        f"chat-from:{client_key(address)}",
                        limits.chat_per_address_per_s,
                        limits.chat_address_burst,
                    )
            except Exception:  # Redis away: this node's own count meanwhile
                allowed = self.may_chat(player, address)
        with use_language(player.lang):
            self._chat_counted(connection, player, table_id, text, allowed)

    def _chat_counted(
        self, connection: Connection, player: Player, table_id: str | None, text: str, allowed: bool
    ) -> None:
        reply: JSON | None = None
        if not allowed:
            reply = error("chat_rate", _("You are chatting too fast: wait a moment."))
        elif table_id is None:
            self.chat(player, text)
        else:
            room = self.room(table_id)
            reply = room.chat(player, text) if isinstance(room, Room) else room
        if reply is not None:
            connection.send(reply)

    def chat(self, player: Player, text: str) -> None:
        """A lobby line: to everyone online, but to players at a table only at a calm rate
        (in a busy lobby they get the recent lines when they come back to it). Its id, one in
        the cluster, lets a node that missed it (Redis away) add it once from the bus's log."""
        self._lines_said += 1
        line = {
            "type": "chat",
            "table": None,
            "from": player.name,
            "text": text,
            "id": f"{self.bus.node}.{self._lines_said}",
        }
        self.bus.say(line)
        self._chat_line(line)

    def _chat_line(self, line: JSON) -> None:
        if "id" in line and any(said.get("id") == line["id"] for said in self.chat_log):
            return  # heard already
        self.chat_log.append(line)
        del self.chat_log[:-200]
        self.broadcast(line, lobby_only=not self.seated_chat.allow())

    # -- housekeeping --------------------------------------------------------------------
    def start(self) -> None:
        if self._house is None:
            self._house = asyncio.create_task(self._housekeeping())
        if self.bus.clustered and self._adopting is None:
            self._adopting = asyncio.create_task(self._adopt_orphans())

    async def stop(self) -> None:
        self.stopping = True
        await stop_all([task for task in (self._house, self._adopting) if task is not None], STOP_S)
        for room in list(self.rooms.values()):
            room.stop()

    async def drain(self) -> None:
        """Told to stop (SIGTERM), in a cluster: take no new table and hand this node's tables to
        the others. Each table stops here, its moves are committed, its lease is given up, and a
        node that takes it over resumes it from the log; this node's players at it are relayed
        there meanwhile (a resync), until their websockets close and they reconnect to any node.
        Without another live node the tables wait in the store for the next node, as at a restart."""
        if not self.bus.clustered or self.draining:
            return
        self.draining = True
        if self._adopting is not None:  # no table is taken while this node hands its own over
            await stop_all([self._adopting], STOP_S)
        try:
            others = [node for node in await self.bus.nodes() if node != self.bus.node]
        except Exception as exc:
            log.warning("cannot hand the tables over (%s): they wait in the store", exc)
            return
        if not others:
            log.warning("draining: no other node is alive; %d tables wait in the store", len(self.rooms))
            return
        rooms = list(self.rooms.values())
        for room in rooms:
            del self.rooms[room.id]
            room.stop()
            self.relay.moving.add(room.id)
            for member in room.members():
                player = self.players.get(member)
                if player is None:
                    continue
                if player.connection is not None and player.connection.node is None:
                    player.tables.discard(room.id)
                    player.away[room.id] = self.bus.node  # where it is until another node says
                    self.relay.at.setdefault(room.id, set()).add(player.id)
                # A player relayed here keeps the table: whatever this node still sends them
                # names it (Relay.flush), so their edge keeps them at it and announces them
                # to the node that takes it over (Relay.moved).
        if self.store is not None:
            await self.store.journal.flush()  # every move in before the table can move
        for room in rooms:
            self.bus.drop_table(room.id)
            self.bus.release(room.id)
        log.warning("draining: %d tables handed to the other nodes", len(rooms))
        deadline = time.monotonic() + DRAIN_S
        left = {room.id for room in rooms}
        while left and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            with contextlib.suppress(Exception):
                directory = await self.bus.tables()
                left = {t for t in left if directory.get(t, (self.bus.node, {}))[0] == self.bus.node}
        if left:
            log.warning(
                "draining: %d tables not taken over in %.0f s; they wait in the store", len(left), DRAIN_S
            )
        await asyncio.sleep(0.5)  # the players' resyncs go out through this node

    async def _adopt_orphans(self) -> None:
        """Every half second: which nodes live; the tables of one that died, or that a node let go,
        are taken if no other node takes them first. After the bus failed, the whole directory
        is read again until every node has written its own again (ADOPT_PAUSE_S), and so after
        Redis lost its data without any call failing (a quick restart); until then no node is
        judged dead either: a Redis that restarted lists only the nodes that have beaten
        since, and their players relayed here would be dropped (bots standing in for them)."""
        calm_since: float | None = time.monotonic() - ADOPT_PAUSE_S  # calm from the start
        scanned = time.monotonic()
        while not (self.stopping or self.draining):
            await asyncio.sleep(ADOPT_EVERY_S)
            try:
                alive = set(await self.bus.nodes())
                if not await self.bus.steady():  # Redis restarted under us: as if it failed
                    if calm_since is not None:
                        log.warning("Redis lost the cluster's state; no table is adopted for a while")
                    calm_since = None
                now = time.monotonic()
                calm_since = calm_since or now
                if now - calm_since < ADOPT_PAUSE_S:
                    self._unheard = True  # and read once more after the pause, with every node back
                    await self._read_again()
                    # Tables a node let go itself (a drain) are taken all the same: no live
                    # owner holds them, whatever Redis has lost.
                    await self._adopt_let_go(now)
                    continue
                self._died(alive)
                if self._unheard:
                    self._unheard = False
                    await self._read_again()
                self.relay.edges_alive(alive)
                if now - scanned >= ADOPT_SCAN_S:
                    scanned = now
                    await self.adopt()
                await self._adopt_let_go(now)
            except Exception as exc:
                if calm_since is not None:
                    log.warning("looking for tables without a node failed (%s); trying again", exc)
                calm_since = None
                self._unheard = True

    def _died(self, alive: set[str]) -> None:
        """Nodes gone since the last look: their tables are no longer listed, and are taken."""
        dead = (self._live or set()) - alive
        self._live = alive
        if not dead:
            return
        until = time.monotonic() + ORPHAN_TRIES_S
        for table_id, (node, _summary) in list(self.remote.items()):
            if node in dead:
                del self.remote[table_id]
                self._orphans[table_id] = until

    async def _adopt_let_go(self, now: float) -> None:
        """Take the tables of `_orphans` that no live node holds (each read alone from the store)."""
        if not self._orphans or self.store is None:
            return
        for table_id, until in list(self._orphans.items()):
            if table_id in self.rooms or table_id in self.remote or now > until:
                del self._orphans[table_id]
        if self._orphans:
            rows = await self.store.records.rooms_by_id(sorted(self._orphans))
            found = {row.id for row in rows}
            for table_id in [t for t in self._orphans if t not in found]:
                del self._orphans[table_id]  # closed for good: nothing to take
            await self.adopt(rows)

    async def _housekeeping(self) -> None:
        tick = 0
        while not self.stopping:
            await asyncio.sleep(PING_EVERY_S / PING_SLICES)
            tick = (tick + 1) % PING_SLICES
            try:
                for player in self.online()[tick::PING_SLICES]:
                    assert player.connection is not None
                    player.connection.ping()
                if tick == 0:
                    self.expire_rooms()
                    self.forget_idle_guests()
                    self.collector.tick()
                    self._forget_awaited()
            except Exception:  # a fault is logged; the clocks of every other table go on
                log.exception("housekeeping failed; it goes on")

    def expire_rooms(self) -> None:
        """Each room's timers that ran out; rooms nobody comes back to are closed. (Its own
        method: a loop variable of the housekeeping's would hold the last room for ever.)"""
        for room in list(self.rooms.values()):
            room.expire()
            if self.abandoned(room):
                self.close_room(room)

    def _forget_awaited(self) -> None:
        """Spectators of a dead node's table who did not come back within the grace period."""
        now = self.clock()
        for player_id, tables in list(self.awaited.items()):
            if all(until < now for until in tables.values()):
                del self.awaited[player_id]

    def forget_idle_guests(self) -> None:
        """Guests away longer than the grace period, at no table, are forgotten: here and in the
        store (a hello would otherwise keep a player for ever). Their game records keep their
        names in their own rows; accounts are kept."""
        now = self.clock()
        held = {pid for room in self.rooms.values() for pid in (*room.members(), room.host)}
        idle = {
            p.id
            for p in self.players.values()
            if p.account_id is None
            and p.connection is None
            and p.gone_at is not None
            and now - p.gone_at > self.grace_s
            and p.id not in held
        }
        if not idle:
            return
        for pid in idle:
            del self.players[pid]
        self.by_token = {key: p for key, p in self.by_token.items() if p.id not in idle}
        if self.store is None:
            return
        if not self.bus.clustered:
            self.store.records.forget_guests(only=idle)
            return
        self._in_background(self._forget_stored(self.store, idle))

    async def _forget_stored(self, store: Store, idle: set[str]) -> None:
        """In a cluster, a guest gone from this node may be in another's lobby: kept there."""
        try:
            idle = idle - set(await self.bus.online())
        except Exception as exc:  # the bus away: forget nobody now (they are forgotten later)
            log.warning("could not ask who is online elsewhere (%s); no guest forgotten", exc)
            return
        if idle:
            store.records.forget_guests(only=idle)

    def abandoned(self, room: Room) -> bool:
        """Nobody is connected to the room and no seated player is still within the grace period."""
        for member in room.members():
            player = self.players.get(member)
            if player is not None and player.connection is not None and not player.connection.closed:
                return False
        return all(seat.player is None or seat.dropped_at is None for seat in room.seats)
