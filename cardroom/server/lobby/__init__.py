"""The lobby: players on this server, their tables, and the lobby chat.

The lobby is layered, each module a class on the one before (tests/test_layers.py keeps the
order): `state` (the fields), `players`, `chat`, `nodes` (the bus), `tables`, `takeover` (tables
changing nodes), and `Lobby` here: its life (start, housekeeping, stop) and a player's return.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from cardroom.cluster.loops import stop_all
from cardroom.server.connection import SEND_QUEUE, Player
from cardroom.server.limits import Limits
from cardroom.server.lobby.state import STOP_S, log
from cardroom.server.lobby.tables import PLAY_NOW_SEATS
from cardroom.server.lobby.takeover import Takeover
from cardroom.server.relay import Relay
from cardroom.server.room import GRACE_MS
from cardroom.store import Store

__all__ = ["PLAY_NOW_SEATS", "Lobby"]


PING_EVERY_S = 5.0
PING_SLICES = 20
"""Each player is pinged every PING_EVERY_S, a twentieth of them at a time: a thousand pings (and
their pongs) at once would stall every table for a tenth of a second."""


class Lobby(Takeover):
    """Everything one server node knows: players, rooms, the lobby chat."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        send_queue: int = SEND_QUEUE,
        grace_s: float = GRACE_MS / 1000,
        limits: Limits | None = None,
        rate: float = 1.0,
    ) -> None:
        super().__init__(clock, send_queue, grace_s, limits, rate)
        self.relay = Relay(self)

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

    def tell_tables(self) -> None:
        """Log what each table here waits for, and the journal's state (`kill -USR1` a node:
        docs/deploy.md, "A table that stands still")."""
        journal = self.store.journal if self.store is not None else None
        if journal is not None:
            log.warning(
                "journal: %d writes pending, failing %s, %d commits, %d failures",
                len(journal.pending),
                journal.failing,
                journal.commits,
                journal.failures,
            )
        log.warning("%d tables here; this node sure of its leases: %s", len(self.rooms), self.sure())
        for room in self.rooms.values():
            log.warning("%s", room.clock_state())
        now = time.monotonic()
        for player in self.players.values():  # the relay's players, at either end
            connection = player.connection
            if connection is None or not (player.away or connection.node):
                continue
            log.warning(
                "player %s: %s%s, at tables of other nodes %s; %d messages waiting, %.1f s behind",
                player.name,
                "closed, " if connection.closed else "",
                f"through node {connection.node}" if connection.node else "connected here",
                dict(player.away) or "none",
                len(connection.pending),
                connection.behind(now),
            )

    async def _housekeeping(self) -> None:
        tick = 0
        loop = asyncio.get_running_loop()
        while not self.stopping:
            due = loop.time() + PING_EVERY_S / PING_SLICES
            await asyncio.sleep(PING_EVERY_S / PING_SLICES)
            self.latency.late(loop.time() - due)  # what a busy loop makes everything wait
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
