"""The bus: what the nodes of a cluster share, behind one small interface.

A lobby keeps its own tables and players; through its bus it also knows the others': the
directory of tables (which node holds which table, with the summary the lobby lists), who is
online, the lobby chat, shared rate limits, and the leases that make each table owned by
exactly one node (cardroom/cluster/lease.py). Messages a lobby publishes reach every other
lobby on the same bus (`deliver`), never its own.

Two implementations, one contract (tests/cluster/test_bus.py runs the same tests on both):
- `LocalBus`, the default: everything in this process. Lobbies on one `LocalHub` see each
  other; a lobby with a hub of its own (what `cardroom serve` without `--redis` gets) is the
  whole server, as it always was.
- `RedisBus` (cardroom/cluster/redis_bus.py): the same on a Redis server, for nodes in
  different processes or on different machines.

Writes (`put_table`, `drop_table`, `here`, `left`, `say`, `publish`, `send`) are called from the
lobby's synchronous code: they return at once and are carried out in the order they were
made. Reads are coroutines.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from cardroom.protocol import JSON

CHAT_KEPT = 200
"""Lobby chat lines the bus keeps for a player who arrives (the lobby shows the last 50)."""

Deliver = Callable[[JSON], None]
Creator = tuple[str, str]
"""Who created a table: their player id and network address."""
Lost = Callable[[str], None]


def new_node_id() -> str:
    return secrets.token_urlsafe(6)


class Bus(Protocol):
    """What a lobby needs of the other nodes. `node` is this node's id."""

    node: str
    clustered: bool
    """Whether other processes may share this bus (then tables are leased and moves fenced)."""

    async def open(self, deliver: Deliver, lost: Lost) -> None:
        """Join: from now on `deliver` gets every message another node publishes, and `lost` the
        id of a table whose lease this node failed to renew (another node may own it now).
        `deliver` also gets `{"type": "bus_back"}` when messages may have been missed (the
        channel broke and was made again): the directory is to be read again."""

    async def close(self) -> None:
        """Leave: this node's tables, presence and leases are withdrawn."""

    def publish(self, message: JSON) -> None:
        """Send `message` to the lobbies of the other nodes."""

    def send(self, node: str, message: JSON, body: bytes = b"") -> None:
        """Send `message` to the lobby of `node` alone (a relayed player's messages, in order);
        a node that is gone never gets it. `body`, bytes carried as they are (never parsed nor
        escaped on the way), reaches it as the message's `body`: the relay's encoded frames."""

    def put_table(
        self, table_id: str, summary: JSON, watchers: Sequence[str] = (), creator: Creator | None = None
    ) -> None:
        """This node holds `table_id`: list it (its summary as the lobby shows it) and tell the
        other nodes (a `table_update` message). `watchers`: the ids of its spectators, kept
        with it for the node that takes it over if this one dies (never sent to players).
        `creator`: who created it (player id, address), for the limits on open tables."""

    def drop_table(self, table_id: str) -> None:
        """This node no longer holds `table_id` (a `table_closed` message to the other nodes)."""

    async def claim(self, table_id: str, floor: int = 0) -> int | None:
        """Own `table_id` (a lease this bus renews until `release`): its fencing number, or None
        when another live node owns it. `floor`: the number the store last saw for it (new
        numbers are above it, even if Redis lost its counter). An unclustered bus answers 0."""

    def release(self, table_id: str) -> None:
        """Give up the lease of `table_id` (the table closed here, or moved)."""

    def sure(self) -> bool:
        """Whether this node's leases are known to be its own now. False after the node stood
        still longer than a lease (a pause, e.g. SIGSTOP, or a starved process): another node
        may own its tables by then, so its tables do nothing and send nothing until its
        heartbeat has asked Redis again (a lease found taken stops its table: `lost`).
        An unclustered bus is always sure."""

    async def tables(self) -> dict[str, tuple[str, JSON]]:
        """The directory: every table of every live node, as table id -> (node, summary)."""

    async def watchers(self, table_id: str) -> list[str]:
        """The spectators of `table_id` as its node last wrote them, that node alive or dead."""

    async def creator(self, table_id: str) -> Creator | None:
        """Who created `table_id` (player id, address), as its node last wrote it."""

    async def created(self, player_id: str, address: str) -> tuple[int, int]:
        """The open tables of every live node created by `player_id`, and from `address`."""

    def here(self, player_id: str, name: str) -> None:
        """A player is connected to this node."""

    def left(self, player_id: str) -> None:
        """A player is no longer connected to this node."""

    async def online(self) -> dict[str, str]:
        """Everyone connected to any live node: player id -> name."""

    async def where(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The live node each of `player_ids` is connected to (those connected nowhere left out)."""

    def say(self, line: JSON) -> None:
        """Add a line to the shared lobby chat and send it to the other nodes."""

    async def chat_log(self) -> list[JSON]:
        """The shared lobby chat, oldest first (the last CHAT_KEPT lines)."""

    async def allow(self, key: str, rate: float, burst: float) -> bool:
        """A token bucket shared by every node: may `key` act now (`rate` a second, bursts of `burst`)?"""

    async def nodes(self) -> list[str]:
        """The live nodes' ids."""

    async def steady(self) -> bool:
        """False (once) when the shared state was lost since the last call (Redis restarted):
        the directory, presence and leases may then miss what live nodes hold until each
        has written its own again, so no node may be judged dead nor any table adopted."""


@dataclass
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class LocalHub:
    """What the lobbies of one process share when they have no Redis."""

    lobbies: dict[str, Deliver] = field(default_factory=dict)
    directory: dict[str, tuple[str, JSON]] = field(default_factory=dict)
    presence: dict[str, tuple[str, str]] = field(default_factory=dict)  # player -> (node, name)
    chat: list[JSON] = field(default_factory=list)
    leases: dict[str, str] = field(default_factory=dict)  # table -> node
    watchers: dict[str, list[str]] = field(default_factory=dict)  # table -> spectators' ids
    creators: dict[str, Creator] = field(default_factory=dict)  # table -> (player id, address)
    buckets: dict[str, _Bucket] = field(default_factory=dict)


class LocalBus:
    """The in-process bus: a node with a hub of its own is a whole server on its own."""

    clustered = False

    def __init__(self, hub: LocalHub | None = None, node: str | None = None) -> None:
        self.hub = hub if hub is not None else LocalHub()
        self.node = node or new_node_id()

    async def open(self, deliver: Deliver, lost: Lost) -> None:
        self.hub.lobbies[self.node] = deliver

    async def close(self) -> None:
        self.hub.lobbies.pop(self.node, None)
        for table_id, (node, _summary) in list(self.hub.directory.items()):
            if node == self.node:
                del self.hub.directory[table_id]
                self.hub.watchers.pop(table_id, None)
                self.hub.creators.pop(table_id, None)
        for player_id, (node, _name) in list(self.hub.presence.items()):
            if node == self.node:
                del self.hub.presence[player_id]
        for table_id, node in list(self.hub.leases.items()):
            if node == self.node:
                del self.hub.leases[table_id]

    def publish(self, message: JSON) -> None:
        for node, deliver in list(self.hub.lobbies.items()):
            if node != self.node:
                deliver(message)

    def send(self, node: str, message: JSON, body: bytes = b"") -> None:
        deliver = self.hub.lobbies.get(node)
        if deliver is not None and node != self.node:
            deliver({**message, "body": body} if body else message)

    def put_table(
        self, table_id: str, summary: JSON, watchers: Sequence[str] = (), creator: Creator | None = None
    ) -> None:
        self.hub.directory[table_id] = (self.node, summary)
        self.hub.watchers[table_id] = list(watchers)
        if creator is not None:
            self.hub.creators[table_id] = creator
        self.publish({"type": "table_update", "node": self.node, "table": summary})

    def drop_table(self, table_id: str) -> None:
        if self.hub.directory.get(table_id, ("", {}))[0] == self.node:
            del self.hub.directory[table_id]
            self.hub.watchers.pop(table_id, None)
            self.hub.creators.pop(table_id, None)
        self.publish({"type": "table_closed", "node": self.node, "table": table_id})

    async def claim(self, table_id: str, floor: int = 0) -> int | None:
        if self.hub.leases.setdefault(table_id, self.node) != self.node:
            return None
        return 0

    def release(self, table_id: str) -> None:
        if self.hub.leases.get(table_id) == self.node:
            del self.hub.leases[table_id]

    def sure(self) -> bool:
        return True

    async def tables(self) -> dict[str, tuple[str, JSON]]:
        return dict(self.hub.directory)

    async def watchers(self, table_id: str) -> list[str]:
        return list(self.hub.watchers.get(table_id, ()))

    async def creator(self, table_id: str) -> Creator | None:
        return self.hub.creators.get(table_id)

    async def created(self, player_id: str, address: str) -> tuple[int, int]:
        listed = [self.hub.creators.get(table_id) for table_id in self.hub.directory]
        return (
            sum(1 for c in listed if c is not None and c[0] == player_id),
            sum(1 for c in listed if c is not None and c[1] == address),
        )

    def here(self, player_id: str, name: str) -> None:
        self.hub.presence[player_id] = (self.node, name)

    def left(self, player_id: str) -> None:
        if self.hub.presence.get(player_id, ("", ""))[0] == self.node:
            del self.hub.presence[player_id]

    async def online(self) -> dict[str, str]:
        return {player: name for player, (_node, name) in self.hub.presence.items()}

    async def where(self, player_ids: Iterable[str]) -> dict[str, str]:
        found = {p: self.hub.presence.get(p, ("", ""))[0] for p in player_ids}
        return {player: node for player, node in found.items() if node in self.hub.lobbies}

    def say(self, line: JSON) -> None:
        self.hub.chat.append(line)
        del self.hub.chat[:-CHAT_KEPT]
        self.publish({"type": "chat", "line": line})

    async def chat_log(self) -> list[JSON]:
        return list(self.hub.chat)

    async def allow(self, key: str, rate: float, burst: float) -> bool:
        now = time.monotonic()
        bucket = self.hub.buckets.setdefault(key, _Bucket(burst, now))
        bucket.tokens = min(burst, bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return True
        return False

    async def nodes(self) -> list[str]:
        return sorted(self.hub.lobbies)

    async def steady(self) -> bool:
        return True
