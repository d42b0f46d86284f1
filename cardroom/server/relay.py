"""The relay: a player connected to one node of a cluster plays at a table another node owns.

The node a player is connected to (their *edge*) keeps their websocket and shows them the
lobby. A message for a table of another node goes, as the player wrote it (parsed and checked
at the edge, and again at the owner), to the node that owns the table (`relay_in`, with who
sent it: the edge vouches for the player, as its own websocket does for its own players). The
owner handles it exactly as its own players' messages, for a `Player` whose connection is a
`Relayed` one: what the table sends that player is gathered per edge and goes back in one bus
message per turn of the event loop (`relay_out`), with the tables of the owner the player is
at now, so that the edge knows where to send their next messages. The messages cross the bus
as the owner encoded them, their bytes side by side in the bus message's `body` (each
player's share named by its length): the edge writes them to the player's socket unread,
as it writes its own tables' messages. A player thus sees, byte for byte, what they would see
at the owner itself: the owner's room builds every message for its seat.

A player who enters any node is announced to every node (`returned`): the nodes holding their
seats relay to that node from then on and resync them, and the node of an earlier connection
closes it, as one server does when a player connects twice. A table that moves (its owner
died or drained) is announced by its new owner's directory update: each edge tells the new
owner which of its players were at it (`returned` with that table), and they get their seat
(or their place among the spectators) back. A player who leaves their edge (`relay_gone`), or
whose edge dies, is gone for the tables too: bots stand in for them, as for anyone who goes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from cardroom.i18n import use_language
from cardroom.protocol import JSON
from cardroom.server import closes, wire
from cardroom.server.connection import Connection, Player

if TYPE_CHECKING:
    from cardroom.server.lobby import Lobby

log = logging.getLogger("cardroom.cluster")

Dispatch = Callable[[Connection, Player, wire.ClientMessage], None]


class Relayed(Connection):
    """The connection of a player whose websocket is at another node (`node`), as the tables of
    this one see it: what is sent to it goes to that node over the bus."""

    def __init__(self, relay: Relay, node: str, player_id: str) -> None:
        super().__init__(None, relay.lobby.send_queue, relay.lobby.limits)
        self.relay = relay
        self.node = self.edge = node
        self.player_id = player_id
        self.elsewhere = 0
        """How many tables the player is at that this node does not own (their edge says)."""
        self.told = False
        """Whether the player was sent to this node (`move`) since this connection began."""

    def start(self) -> None:
        """Nothing to write here: the edge's own connection does."""

    def send_raw(self, data: bytes) -> None:
        if not self.closed:
            self.relay.queue(self.edge, self.player_id, data)

    def close(self, code: int = closes.NORMAL) -> None:
        """This node no longer sends to the player through that node (the edge closes sockets)."""
        self.closed = True
        self.close_code = code

    def ping(self) -> None:
        """The edge measures its players' lag."""


class Relay:
    """One node's side of the relay: as an edge (`forward`, `entered`, `left`, `moved`,
    `outgoing`) and as an owner (`incoming`, `returned`, `gone`, `edges_alive`, `queue`)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.dispatch: Dispatch | None = None
        """How this node handles a player's message (the edge's own `handle`: app.py sets it)."""
        self.at: dict[str, set[str]] = {}
        """Edge: table id of another node -> this node's players at it."""
        self.out: dict[str, list[tuple[str, bytes]]] = {}
        """Owner: edge node -> (player id, encoded message) waiting to go there."""
        self.flushing = False
        self.moving: set[str] = set()
        """Owner: tables this node is handing over (a drain), still named as its relayed
        players' tables until they have gone."""
        self.url: str | None = None
        """Where a client reaches this node itself (`cardroom serve --node-url`), if it can."""

    @property
    def me(self) -> str:
        return self.lobby.bus.node

    def receive(self, message: JSON) -> bool:
        """A bus message for the relay: handled (True), or not the relay's (False)."""
        kind = message.get("type")
        if kind == "relay_in":
            self.incoming(message)
        elif kind == "relay_out":
            self.outgoing(message)
        elif kind == "returned":
            self.returned(message)
        elif kind == "relay_gone":
            self.gone(message)
        else:
            return False
        return True

    # -- at the player's edge --------------------------------------------------------------
    def forward(self, player: Player, table_id: str, message: wire.ClientMessage) -> bool:
        """Send a player's message to the node owning `table_id`; False if no other node does."""
        listed = self.lobby.remote.get(table_id)
        node = listed[0] if listed is not None else player.away.get(table_id)
        if node is None or node == self.me:
            return False
        text = msgspec.json.encode(message).decode()
        # The player's tables that `node` does not own: a player sent there would play those
        # through the relay instead.
        elsewhere = sum(1 for t in player.tables if t in self.lobby.rooms)
        elsewhere += sum(1 for n in player.away.values() if n != node)
        who = {**_who(player), "moves": _follows(player), "elsewhere": elsewhere}
        self.lobby.bus.send(node, {"type": "relay_in", "node": self.me, "player": who, "message": text})
        return True

    def entered(self, player: Player) -> None:
        """A player said hello here: the nodes holding their seats relay to this node now."""
        if self.lobby.bus.clustered:
            self.lobby.bus.publish(
                {
                    "type": "returned",
                    "node": self.me,
                    "player": _who(player),
                    "tables": [],
                    "at": _opened(player),
                }
            )

    def left(self, player: Player) -> None:
        """A player's websocket here closed: the tables of other nodes they are at learn it."""
        for node in sorted(set(player.away.values())):
            self.lobby.bus.send(node, {"type": "relay_gone", "node": self.me, "player": player.id})

    def moved(self, table_id: str, node: str) -> None:
        """`table_id` is owned by `node` now: this node's players at it are announced there."""
        for player_id in sorted(self.at.get(table_id, ())):
            player = self.lobby.players.get(player_id)
            if player is None or player.away.get(table_id) in (None, node):
                continue
            player.away[table_id] = node
            if player.here:
                self.lobby.bus.send(
                    node,
                    {
                        "type": "returned",
                        "node": self.me,
                        "player": _who(player),
                        "tables": [table_id],
                        "at": _opened(player),
                    },
                )

    def heard_again(self) -> None:
        """The bus was away and may have lost messages (Redis lost its data): each node holding
        tables of this node's players resyncs them there (`returned` with those tables)."""
        for player in list(self.lobby.players.values()):
            if not player.here:
                continue
            for node in sorted(set(player.away.values())):
                tables = sorted(t for t, n in player.away.items() if n == node)
                self.lobby.bus.send(
                    node,
                    {
                        "type": "returned",
                        "node": self.me,
                        "player": _who(player),
                        "tables": tables,
                        "at": _opened(player),
                    },
                )

    def adopted(self, table_id: str) -> list[Player]:
        """This node took `table_id` over: its players here that were at it through the relay."""
        found = []
        for player_id in sorted(self.at.pop(table_id, ())):
            player = self.lobby.players.get(player_id)
            if player is not None and player.away.pop(table_id, None) is not None and player.here:
                found.append(player)
        return found

    def outgoing(self, envelope: JSON) -> None:
        """Messages of another node's tables for players here, and the tables they are at there.

        A table this node owns now is not the sender's any more, whatever it says (it stood
        still past its lease and has not learnt it yet): what it sends of it is dropped."""
        node = str(envelope["node"])
        rooms = self.lobby.rooms
        stale: dict[str, set[str]] = {}  # player id -> tables of this node the sender names
        for player_id, tables in envelope["tables"].items():
            player = self.lobby.players.get(player_id)
            if player is None:
                continue
            for table_id in [t for t, n in player.away.items() if n == node and t not in tables]:
                del player.away[table_id]
                self.at.get(table_id, set()).discard(player_id)
            for table_id in tables:
                if table_id in rooms:
                    stale.setdefault(player_id, set()).add(table_id)
                    continue
                player.away[table_id] = node
                self.at.setdefault(table_id, set()).add(player_id)
        body: bytes = envelope.get("body", b"")
        start = 0
        for player_id, size in envelope["frames"]:
            end = start + size
            player = self.lobby.players.get(player_id)
            if player is not None and player.here:
                data = body[start:end]
                # Only a message for a table this node holds now is read, to find its table.
                if player_id in stale and msgspec.json.decode(data).get("table") in stale[player_id]:
                    start = end
                    continue
                assert player.connection is not None
                player.connection.send_raw(data)
            start = end

    # -- at the node owning the table ------------------------------------------------------
    def incoming(self, envelope: JSON) -> None:
        """A player's message relayed by their edge: handled as this node's own players' are."""
        player = self._attach(str(envelope["node"]), envelope["player"])
        if player is None:
            return
        try:
            message = wire.decode(envelope["message"])
        except msgspec.DecodeError:  # the edge parsed it already: only a node of another version
            log.warning("a relayed message could not be read; ignored")
            return
        assert self.dispatch is not None and player.connection is not None
        connection = player.connection
        if isinstance(connection, Relayed):
            connection.moves = bool(envelope["player"].get("moves"))
            connection.elsewhere = int(envelope["player"].get("elsewhere", 0))
        with use_language(player.lang):
            self.dispatch(connection, player, message)
        self._send_here(player)

    def _send_here(self, player: Player) -> None:
        """A relayed player whose only table is here is sent here (`move`), once a connection,
        if their client follows and this node has an address of its own: each message of
        theirs would otherwise cross the bus twice (docs/deploy.md, "Players at their table's
        node"). Their client connects here with their token and the other node's connection
        is closed, as when anyone connects twice."""
        connection = player.connection
        if self.url is None or not isinstance(connection, Relayed) or connection.closed:
            return
        if connection.told or not connection.moves or connection.elsewhere:
            return  # (each relayed message comes here: the cheap checks first)
        here = [t for t in player.tables if t in self.lobby.rooms and t not in self.moving]
        if len(here) != 1:
            return
        connection.told = True
        connection.send({"type": "move", "url": self.url, "table": here[0]})

    def returned(self, envelope: JSON) -> None:
        """A player entered another node (or is there as a table of theirs moved here): their
        seats here are theirs again, through that node; a connection of theirs here closes."""
        who = envelope["player"]
        player = self.lobby.players.get(who["id"])
        if player is None:
            return
        old = player.connection
        if old is not None and old.node is None and not old.closed:
            if float(envelope.get("at", 0)) < old.opened_ms:
                return  # news of an older connection, late: the one here is the newer, it stays
            old.close(closes.REPLACED)  # the same player connected again elsewhere
        waited = self.lobby.awaited.pop(player.id, {})
        mine = sorted({t for t in [*player.tables, *envelope["tables"], *waited] if t in self.lobby.rooms})
        if not mine:
            return
        if self._attach(str(envelope["node"]), who) is None:
            return
        for table_id in mine:
            room = self.lobby.rooms[table_id]
            seat = room.seat_of(player.id)
            if seat is not None:
                room.reclaim(player, seat)
            elif table_id in envelope["tables"] or table_id in waited:
                room.spectate(player, room.code)  # they watched it at its earlier node
            else:
                player.tables.discard(table_id)

    def attach(self, node: str, player: Player) -> bool:
        """Send to `player` through `node` from now on (a spectator of a table taken over here,
        connected there); False while they have a websocket open here."""
        return self._attach(node, _who(player)) is not None

    def gone(self, envelope: JSON) -> None:
        """A relayed player's websocket closed at their edge."""
        player = self.lobby.players.get(envelope["player"])
        if (
            player is not None
            and player.connection is not None
            and player.connection.node == envelope["node"]
        ):
            self._drop(player.connection)

    def edges_alive(self, alive: set[str]) -> None:
        """Relayed players whose edge node is gone (killed) are gone too."""
        for player in list(self.lobby.players.values()):
            connection = player.connection
            if connection is not None and connection.node is not None and connection.node not in alive:
                self._drop(connection)

    def _drop(self, connection: Connection) -> None:
        connection.close(closes.GOING_AWAY)
        self.lobby.gone(connection)

    def _attach(self, node: str, who: JSON) -> Player | None:
        """The player `who`, connected at `node`: known here, their connection a relayed one.
        None while they have a websocket open at this node itself: it is newer than any
        message still on its way from their earlier node (their hello here closed that one)."""
        player = self.lobby.players.get(who["id"])
        if player is None:
            player = Player(who["id"], who["name"], "", who["lang"], who["account"])
            self.lobby.players[player.id] = player
        connection = player.connection
        if player.here:
            return None
        player.lang = who["lang"]
        if connection is None or connection.closed or connection.node != node:
            if connection is not None:
                connection.close(closes.REPLACED)
            player.connection = Relayed(self, node, player.id)
            player.connection.player = player
            player.gone_at = None
        return player

    def queue(self, node: str, player_id: str, data: bytes) -> None:
        """A message for a relayed player: it leaves with the others of this turn of the loop."""
        self.out.setdefault(node, []).append((player_id, data))
        if not self.flushing:
            self.flushing = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        self.flushing = False
        out, self.out = self.out, {}
        rooms = self.lobby.rooms
        for node, queued in out.items():
            tables: dict[str, list[str]] = {}
            for player_id, _data in queued:
                if player_id not in tables:
                    player = self.lobby.players.get(player_id)
                    tables[player_id] = (
                        sorted(t for t in player.tables if t in rooms or t in self.moving) if player else []
                    )
            frames = [[player_id, len(data)] for player_id, data in queued]
            self.lobby.bus.send(
                node,
                {"type": "relay_out", "node": self.me, "frames": frames, "tables": tables},
                b"".join(data for _player_id, data in queued),
            )


def _who(player: Player) -> JSON:
    return {"id": player.id, "name": player.name, "lang": player.lang, "account": player.account_id}


def _follows(player: Player) -> bool:
    """Whether the player's client here follows a `move` to another node."""
    return player.here and player.connection is not None and player.connection.moves


def _opened(player: Player) -> float:
    """When the player's connection at this node opened (wall-clock ms)."""
    connection = player.connection
    return connection.opened_ms if connection is not None else time.time() * 1000
