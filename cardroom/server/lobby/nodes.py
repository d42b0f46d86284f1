"""What the other nodes of a cluster say on the bus: their tables (listed here), the lobby chat,
and this node's leases on its own tables (a table whose lease is lost stops here). Below the
tables, which take a lease when they open.
"""

from __future__ import annotations

import contextlib
import time

from cardroom.cluster.bus import Bus
from cardroom.protocol import JSON
from cardroom.server.lobby.chat import Chat
from cardroom.server.lobby.state import log
from cardroom.server.room import Room

ORPHAN_TRIES_S = 10.0
"""How long a table let go by its node is tried (its lease may still be held a moment)."""


class Nodes(Chat):
    """The other nodes' news, and this node's leases."""

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
