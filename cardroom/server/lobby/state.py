"""What a lobby is made of: its fields, limits and timings; the layers above it (players, chat,
nodes, tables, takeover, then `Lobby`) each add what they do, and this one only keeps the state
they share, so that every layer can read it without importing another.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any

from cardroom.cluster.bus import Bus, LocalBus
from cardroom.i18n import _
from cardroom.protocol import JSON
from cardroom.server.buckets import Buckets
from cardroom.server.collector import Collector
from cardroom.server.connection import Player, RateLimit
from cardroom.server.latency import Latency
from cardroom.server.limits import Limits
from cardroom.server.relay import Relay
from cardroom.server.room import Room
from cardroom.server.wire import error
from cardroom.store import Store

log = logging.getLogger("cardroom.server")
STOP_S = 5.0
"""The longest the lobby's background loops are waited for when it stops (cluster/loops.py)."""


class LobbyState:
    """One node's lobby state, shared by the layers that make a `Lobby`."""

    relay: Relay
    """The relay to and from the other nodes (relay.py): made by `Lobby`, since it takes the whole."""

    def __init__(
        self, clock: Callable[[], float], send_queue: int, grace_s: float, limits: Limits | None, rate: float
    ) -> None:
        """`Lobby` takes these (its defaults are the server's) and adds the relay."""
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
        self.collector = Collector(clock=clock)
        """Collects the closed tables' and connections' cycles from the housekeeping (collector.py)."""
        self.latency = Latency()
        """How long acknowledgements take inside this server, and how late its loop runs (/healthz)."""
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

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` beside the caller, the task held until it is done (a lease taken, a count
        asked of Redis, old records forgotten)."""
        self._claims.add(task := asyncio.create_task(work))
        task.add_done_callback(self._claims.discard)

    def room(self, table_id: str) -> Room | JSON:
        room = self.rooms.get(table_id)
        if room is None:
            return error("no_such_table", _("That table does not exist (any more)."))
        return room

    def sure(self) -> bool:
        """Whether this node's tables are surely its own now (`Bus.sure`): else they wait."""
        return self.bus.sure()
