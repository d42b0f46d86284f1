"""What a room is made of: its fields, its clock and the lobby it needs; the layers above it
(seats, tell, journal, driver, then `Room`) each add what they do, and this one does nothing but
keep the state they share, so that every layer can read it without importing another.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from cardroom.drive.virtual import VirtualDriver
from cardroom.guide.coach import Guide
from cardroom.narrate.narrator import Narrator
from cardroom.narrate.speech import Digest
from cardroom.protocol import JSON, GameDef, Table
from cardroom.server.absence import Absences
from cardroom.server.history import History
from cardroom.server.latency import Latency
from cardroom.server.limits import Limits
from cardroom.server.refusals import Refusals
from cardroom.store import Store

if TYPE_CHECKING:
    from cardroom.server.connection import Player

WAITING, PLAYING, OVER = "waiting", "playing", "over"
GRACE_MS = 120_000
UNSURE_WAIT_S = 0.05
"""How often a table whose node is unsure of its lease looks again (`RoomState._sure`)."""
SEED_BITS = 256
"""A live table's seed, from the operating system: too many to search for from one's own hand."""


class Cue(NamedTuple):
    """A cue to send one seat at a moment of play (a catch window opening on a burrito thrown
    at them): ordered by its moment, as the heap of them needs."""

    at: int
    target: int
    cue: str
    flight: int


class Lobby(Protocol):
    """What a room needs of the lobby holding it (server/lobby/): the lobby knows its rooms,
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
    def rooms(self) -> Mapping[str, RoomState]: ...
    @property
    def latency(self) -> Latency: ...
    def player_name(self, player_id: str) -> str | None: ...
    def sure(self) -> bool: ...
    def listing(self) -> JSON: ...
    # The room is `Any` here: the layers below `Room` (this package's __init__) pass themselves,
    # and the lobby's own methods take the whole `Room`.
    def table_changed(self, room: Any) -> None: ...
    def close_room(self, room: Any) -> None: ...


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


class RoomState:
    """One table's state, shared by the layers that make a `Room`."""

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
        self.cues: list[Cue] = []
        """The cues still to send, soonest first (a heap)."""
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

    def _sure(self) -> bool:
        """Whether this node surely owns the table now (`Lobby.sure`). After the node stood still
        longer than a lease (a pause), another node may play the table already: until its
        heartbeat knows, the table plays nothing and sends nothing (not a stale game to
        anyone), and a table found lost stops there (`Lobby._lost`)."""
        if self.lobby.sure():
            return True
        if not self.unsent:  # once a pause: what a stalled table did is in the log
            logging.getLogger("cardroom.server").warning(
                "table %s waits: this node stood still past its lease and asks Redis again", self.id
            )
        self.unsent = True
        self.wake.set()  # the timer task makes it good once the node knows (`_sure_again`)
        return False

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
