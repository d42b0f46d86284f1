"""Tables changing nodes: reopened from the store at a restart, adopted from a node that died
or let them go, their people welcomed back, and this node's own handed over when it drains.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from cardroom.cluster.loops import stop_all
from cardroom.protocol import CardroomError
from cardroom.server.connection import Player
from cardroom.server.lobby.nodes import ORPHAN_TRIES_S
from cardroom.server.lobby.state import STOP_S, log
from cardroom.server.lobby.tables import Tables
from cardroom.server.room import Room
from cardroom.store import Store

ADOPT_EVERY_S = 0.5
"""In a cluster, how often a node looks at which nodes are alive, and for tables no live node
owns: those of a node that died since, or that their node let go (a drain)."""
ADOPT_SCAN_S = 30.0
"""How often a node also reads every open table in the store, for a table no live node holds
that the directory does not name (its node died while Redis was away): the rest of the time,
the work is proportional to the changes, not to the number of tables."""
ADOPT_PAUSE_S = 6.0
"""After the bus failed (Redis away), how long it must answer again before this node adopts any
table: every live owner has written its tables and leases again by then (its heartbeat is every
second), so none is taken from a live node."""
DRAIN_S = 10.0
"""How long a node told to stop (SIGTERM) waits for the other nodes to take its tables over."""
DRAIN_LOOK_S = 2.5
"""How long a node told to stop looks for another live node before its tables are left in the
store: a node is listed within a beat of Redis answering (every second), and a drain right after
Redis came back once found no other node while two were playing (their tables then waited for
adoption, `ADOPT_PAUSE_S`, instead of moving at once)."""


class Takeover(Tables):
    """Tables this node takes on, and gives up when told to stop."""

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
            if self.bus.clustered:
                # Read again under the lease: a row read before its table's node closed it would
                # reopen a closed table (its node lets it go once the row is gone, Tables.close_room).
                again = await store.records.rooms_by_id([row.id])
                if not again:
                    self.bus.release(row.id)
                    continue
                row = again[0]
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
        looked = time.monotonic()
        while True:
            try:
                alive = await self.bus.nodes()
            except Exception as exc:
                log.warning("cannot hand the tables over (%s): they wait in the store", exc)
                return
            others = [node for node in alive if node != self.bus.node]
            if others or not self.rooms or time.monotonic() - looked >= DRAIN_LOOK_S:
                break
            await asyncio.sleep(0.2)
        if not others:
            log.warning(
                "draining: no other node is alive (Redis lists %s, looked %.1f s); %d tables wait in the store",
                ", ".join(alive) or "none",
                time.monotonic() - looked,
                len(self.rooms),
            )
            return
        if time.monotonic() - looked > 0.5:
            log.warning("draining: another node was listed after %.1f s", time.monotonic() - looked)
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
                if self.store is not None:
                    self.store.journal.share(len(alive))
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
                if self._died(alive):
                    await self._orphan_unlisted(now)
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

    def _died(self, alive: set[str]) -> bool:
        """Nodes gone since the last look: their tables are no longer listed, and are taken.
        Whether any node died."""
        dead = (self._live or set()) - alive
        self._live = alive
        if not dead:
            return False
        until = time.monotonic() + ORPHAN_TRIES_S
        taken = 0
        for table_id, (node, _summary) in list(self.remote.items()):
            if node in dead:
                del self.remote[table_id]
                self._orphans[table_id] = until
                taken += 1
        log.warning(
            "node %s gone: %d of its tables listed here are taken over", ", ".join(sorted(dead)), taken
        )
        return True

    async def _orphan_unlisted(self, now: float) -> None:
        """After a node died, the store's open tables that no node lists here are tried too: a
        table this lobby never heard of (a message missed) would otherwise wait for the scan
        every ADOPT_SCAN_S (a node paused in a test had its table taken 20 s and more late, cc36d).
        A live node's unlisted table is only tried: its lease holds it."""
        if self.store is None:
            return
        until = now + ORPHAN_TRIES_S
        known = self.rooms.keys() | self.remote.keys() | self._orphans.keys()
        unlisted = [row.id for row in await self.store.records.open_rooms() if row.id not in known]
        for table_id in unlisted:
            self._orphans.setdefault(table_id, until)
        if unlisted:
            log.warning("%d open tables in the store not listed here are tried too", len(unlisted))

    async def _adopt_let_go(self, now: float) -> None:
        """Take the tables of `_orphans` that no live node holds (each read alone from the store)."""
        if not self._orphans or self.store is None:
            return
        for table_id, until in list(self._orphans.items()):
            if table_id in self.rooms or table_id in self.remote:
                del self._orphans[table_id]
            elif now > until:
                del self._orphans[table_id]
                log.warning(
                    "table %s: not taken over in %.0f s; left to the scan of the store",
                    table_id,
                    ORPHAN_TRIES_S,
                )
        if self._orphans:
            rows = await self.store.records.rooms_by_id(sorted(self._orphans))
            found = {row.id for row in rows}
            for table_id in [t for t in self._orphans if t not in found]:
                del self._orphans[table_id]  # closed for good: nothing to take
            await self.adopt(rows)
